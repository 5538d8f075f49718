"""What a real MCP client lists over stdio (``clew mcp``): schemas with nothing in them that no one reads."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from .conftest import build_corpus

FIXTURE = Path(__file__).parents[1] / "fixtures" / "markdown" / "acme-notes.md"


def _reached(schema: dict[str, Any]) -> set[str]:
    """The ``$defs`` a schema's own properties reach, through the defs they name."""
    defs = schema.get("$defs", {})
    reached: set[str] = set()
    pending = [{k: v for k, v in schema.items() if k != "$defs"}]
    while pending:
        for name in re.findall(r'"#/\$defs/([^"]+)"', json.dumps(pending.pop())):
            assert name in defs, f"$ref to a missing def {name}"
            if name not in reached:
                reached.add(name)
                pending.append(defs[name])
    return reached


def test_every_listed_def_is_read_and_retrieve_lists_no_principal(tmp_path: Path) -> None:
    """``retrieve`` hides its ``principal`` (always the caller's), but its schema kept the ``Principal``
    model among its ``$defs``: 246 tokens (cl100k_base) that every client listing the tools received
    and nothing referenced (task U20)."""
    db = build_corpus(tmp_path, FIXTURE)

    async def listed() -> dict[str, dict[str, Any]]:
        server = StdioServerParameters(command=sys.executable, args=["-m", "clew.cli", "mcp", "--db", str(db)])
        async with Client(stdio_client(server)) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    schemas = asyncio.run(listed())
    assert "retrieve" in schemas and "principal" not in schemas["retrieve"]["properties"]
    for name, schema in schemas.items():
        assert set(schema.get("$defs", {})) == _reached(schema), name
    assert "Principal" not in json.dumps(schemas["retrieve"])
    assert {"QuerySpec", "Navigation", "FilterQuery"} <= set(schemas["retrieve"]["$defs"])
