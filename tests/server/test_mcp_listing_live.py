"""What a real MCP client lists over stdio (``clew mcp``): what it costs a model's context, with nothing in it
that no one reads, and schemas that still hold every call the tools take and refuse the ones they refuse."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from clew.surface import surface

from .conftest import ACME, build_corpus

FIXTURE = Path(__file__).parents[1] / "fixtures" / "markdown" / "acme-notes.md"
BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "mcp_listing.py"
GOAL = 4200
"""Tokens (cl100k_base) of the eleven tools' names, descriptions and input schemas, at most: 4,000 measured on
2026-12-07 (6,568 before task M1), and a twentieth of room for a description's next sentence."""

GOOD: dict[str, dict[str, Any]] = {
    "search": {"query": "Orion planner", "limit": 2, "collection": "notes", "filter": None},
    "navigate_document_tree": {"evidence_id": ACME[0], "relation": "next"},
    "get_chunk": {"evidence_id": ACME[1], "max_chars": 400},
    "navigate": {"document": "acme-notes.md", "start_offset": 0, "end_offset": 10},
    "read": {"document": "acme-notes.md", "start": None, "top_k": 2},
    "grep": {"document": "acme-notes.md", "pattern": "orion", "mode": "term"},
    "expand_neighbors": {"ids": [ACME[0]], "relationship_types": ["next"], "types": ["chunk"]},
    "fetch_slice": {"id": ACME[1], "window": 3},
    "fetch_evidence": {"ids": [ACME[1]]},
    "check_citations": {"ids": [ACME[1]]},
    "retrieve": {"query": "who owns Orion Maps", "generator": None,
                 "queries": [{"collection": "notes", "full_text_search": {"query": "Orion", "field": None},
                              "filter_query": {"term": "x", "field": "status"}, "limit": 5}],
                 "steps": {"retrieval": {"navigation": {"strategy": "tree", "index": None}}}},
}
"""A call each tool answers, using optional fields (null among them) and, for retrieve, its nested objects."""
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "search": ({"query": "orion", "mode": "fuzzy"}, "mode"),
    "navigate_document_tree": ({"evidence_id": ACME[0], "relation": "cousins"}, "relation"),
    "get_chunk": ({"evidence_id": ACME[0], "max_chars": "many"}, "max_chars"),
    "navigate": ({"document": "acme-notes.md", "start_offset": 0}, "end_offset"),
    "read": ({"document": "acme-notes.md", "start": "0"}, "start"),
    "grep": ({"document": "acme-notes.md", "pattern": "orion", "bogus": 1}, "bogus"),
    "expand_neighbors": ({"ids": [ACME[0]], "types": ["paragraph"]}, "types"),
    "fetch_slice": ({"id": ACME[1], "window": 2.5}, "window"),
    "fetch_evidence": ({"ids": ACME[0]}, "ids"),
    "check_citations": ({}, "ids"),
    "retrieve": ({"query": "orion", "steps": {"retrieval": {"navigation": {"strategy": "sideways"}}}}, "strategy"),
}
"""A call each tool refuses, and the field its error names."""


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


async def _session(db: Path) -> tuple[list[Any], dict[str, Any], dict[str, Any]]:
    """The listed tools, and each tool's answer to its good and its bad call, over one stdio session."""
    server = StdioServerParameters(command=sys.executable, args=["-m", "clew.cli", "mcp", "--db", str(db)])
    async with Client(stdio_client(server)) as client:
        tools = (await client.list_tools()).tools
        good = {name: await client.call_tool(name, args) for name, args in GOOD.items()}
        bad = {name: await client.call_tool(name, args) for name, (args, _) in BAD.items()}
    return tools, good, bad


def test_the_listing_is_under_its_goal_and_every_tool_takes_a_good_call_and_refuses_a_bad_one(
        tmp_path: Path) -> None:
    db = build_corpus(tmp_path, FIXTURE)
    tools, good, bad = asyncio.run(_session(db))
    assert sorted(t.name for t in tools) == sorted(GOOD) == sorted(BAD) == surface.names()
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        # what a validating client checks before it sends, and after it receives
        jsonschema.validate(GOOD[tool.name], tool.input_schema)
        assert not good[tool.name].is_error, (tool.name, good[tool.name].content)
        jsonschema.validate(good[tool.name].structured_content, tool.output_schema)
        args, field = BAD[tool.name]
        assert not jsonschema.Draft202012Validator(tool.input_schema).is_valid(args), tool.name
        assert bad[tool.name].is_error and field in bad[tool.name].content[0].text, (tool.name, bad[tool.name])
    # the figure the MCP guide gives, counted by the benchmark over a session of its own
    done = subprocess.run([sys.executable, str(BENCHMARK), "--db", str(db)], capture_output=True, text=True,
                          timeout=120, check=True)
    report = json.loads(done.stdout)
    assert report["tools"] == len(tools) and set(report["per_tool"]) == set(GOOD)
    assert report["input"] == sum(p["input"] for p in report["per_tool"].values()) <= GOAL
    assert report["total"]["titles"] == report["total"]["output_titles"] == report["total"]["bounds"] == 0
    assert report["total"]["contract"] == report["per_tool"]["search"]["contract"] > 0  # stated once


def test_every_listed_def_is_read_and_retrieve_lists_no_principal(tmp_path: Path) -> None:
    """``retrieve`` hides its ``principal`` (always the caller's), but its schema kept the ``Principal``
    model among its ``$defs``: 246 tokens (cl100k_base) that every client listing the tools received
    and nothing referenced (task U20). A model used once is written where it is used (task M1)."""
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
    assert set(schemas["retrieve"]["$defs"]) == {"TextQuery"}  # queries[]' three searches share it
    query = schemas["retrieve"]["properties"]["queries"]["items"]
    assert {"collection", "full_text_search", "filter", "filter_query", "limit"} <= set(query["properties"])
    navigation = schemas["retrieve"]["properties"]["steps"]["properties"]["retrieval"]["properties"]["navigation"]
    assert navigation["type"] == ["object", "null"] and "strategy" in navigation["properties"]
