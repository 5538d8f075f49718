"""What listing clew's tools costs an MCP client's context, per tool and per part. Prints JSON.

A real ``mcp`` SDK client starts ``clew mcp`` over stdio (on ``--db``, or on a one-page corpus made here:
the listing does not depend on what a corpus holds) and lists the tools. Counted in cl100k_base tokens, as a
client that puts every tool's name, description and input schema into its model's context on every turn
(most do) pays them: ``input`` is the JSON (``json.dumps``, default separators) of the tool's name,
description and ``inputSchema``, as the listing sends them; ``output`` what its ``outputSchema`` adds to
that. Per tool, each part is what its schema would lose without it:

- ``description``: the tool's description, of it ``contract`` (the traversal contract)
  and ``bounds`` (the clamped bounds line);
- ``field_descriptions``, ``defs``, ``enums``, ``defaults``, ``titles``, ``examples``: in the input schema,
  every ``description`` string of a field or a def, the ``$defs`` block, every ``enum`` list, every
  ``default``, every ``title`` string, every ``examples`` list;
- ``output_descriptions``, ``output_titles``: the same in the output schema.

    python benchmarks/mcp_listing.py [--db corpus.duckdb]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from clew.budgets.tokens import count_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.server.mcp import CONTRACT

PAGE = "# Backups\n\nRun the nightly backup with the archive flag before midnight.\n"


def tokens(value: Any) -> int:
    return count_tokens(value if isinstance(value, str) else json.dumps(value))


def without(schema: Any, key: str, *, strings_only: bool = False) -> Any:
    """``schema`` with every ``key`` removed, at any depth (``strings_only``: where its value is a string, so
    that a property named ``description`` or ``title`` stays)."""
    if isinstance(schema, dict):
        return {k: without(v, key, strings_only=strings_only) for k, v in schema.items()
                if not (k == key and (not strings_only or isinstance(v, str)))}
    if isinstance(schema, list):
        return [without(v, key, strings_only=strings_only) for v in schema]
    return schema


def saved(schema: dict[str, Any] | None, key: str, *, strings_only: bool = False) -> int:
    """What ``schema`` would lose without every ``key`` in it."""
    if not schema:
        return 0
    return tokens(schema) - tokens(without(schema, key, strings_only=strings_only))


def parts(name: str, description: str, input_schema: dict[str, Any], output_schema: dict[str, Any] | None) -> dict:
    listing = {"name": name, "description": description, "inputSchema": input_schema}
    return {
        "input": tokens(listing),
        "output": tokens({**listing, "outputSchema": output_schema}) - tokens(listing) if output_schema else 0,
        "description": tokens(description),
        "contract": tokens(CONTRACT) if CONTRACT in description else 0,
        "bounds": tokens(next((p for p in description.split("\n\n") if p.startswith("Bounds")), "")),
        "input_schema": tokens(input_schema),
        "field_descriptions": saved(input_schema, "description", strings_only=True),
        "defs": tokens(input_schema) - tokens({k: v for k, v in input_schema.items() if k != "$defs"}),
        "enums": saved(input_schema, "enum"),
        "defaults": saved(input_schema, "default"),
        "titles": saved(input_schema, "title", strings_only=True),
        "examples": saved(input_schema, "examples"),
        "output_descriptions": saved(output_schema, "description", strings_only=True),
        "output_titles": saved(output_schema, "title", strings_only=True),
    }


async def listed(db: Path) -> list[Any]:
    server = StdioServerParameters(command=sys.executable, args=["-m", "clew.cli", "mcp", "--db", str(db)])
    async with Client(stdio_client(server)) as client:
        return list((await client.list_tools()).tools)


def measure(db: Path) -> dict:
    started, cpu = time.perf_counter(), time.process_time()
    tools = asyncio.run(listed(db))
    per_tool = {t.name: parts(t.name, t.description or "", t.input_schema, t.output_schema) for t in tools}
    total = {part: sum(p[part] for p in per_tool.values()) for part in next(iter(per_tool.values()))}
    return {"encoding": "cl100k_base", "tools": len(tools), "input": total["input"],
            "with_output": total["input"] + total["output"], "total": total, "per_tool": per_tool,
            "wall_s": round(time.perf_counter() - started, 2), "cpu_s": round(time.process_time() - cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a corpus (default: a one-page corpus made here)")
    args = parser.parse_args()
    if args.db is not None:
        report = measure(args.db)
    else:
        with tempfile.TemporaryDirectory() as folder:
            page = Path(folder) / "backup.md"
            page.write_text(PAGE)
            with Corpus(Path(folder) / "corpus.duckdb") as corpus:
                ingest_paths(corpus, [page], collection="notes")
            report = measure(Path(folder) / "corpus.duckdb")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
