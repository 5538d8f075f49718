"""An MCP client session with the official SDK (``mcp``): start ``clew mcp`` over stdio, list its
tools, search, fetch the best hit in full, run a retrieval walk and check a citation.

    python examples/mcp_client.py                        # the bundled runbooks
    python examples/mcp_client.py ~/notes "how do I renew the certificate?"

Needs the server extra (pip install 'clew[server]'). A desktop client starts the same server
from its configuration: {"command": "clew", "args": ["mcp", "--db", "/path/to/docs.duckdb"]}.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

import clew
from clew.demo import DEMO_CORPUS


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error:
        raise RuntimeError(f"{tool}: {result.content}")
    return dict(result.structured_content or {})


async def session(db: Path, question: str) -> None:
    server = StdioServerParameters(command=sys.executable, args=["-m", "clew.cli", "mcp", "--db", str(db)])
    async with Client(stdio_client(server)) as client:
        tools = await client.list_tools()
        print("tools:", ", ".join(sorted(tool.name for tool in tools.tools)))

        found = await call(client, "search", {"query": question, "limit": 3})
        for hit in found["hits"]:
            print(f"search  {hit['evidence_id']}  {hit['document_key']}  {' > '.join(hit['heading_path'])}")
        best = found["hits"][0]["evidence_id"]
        fetched = await call(client, "fetch_evidence", {"ids": [best]})
        print(f"fetched {best}: {fetched['status']}")
        verdict = (await call(client, "check_citations", {"ids": [best]}))["verdicts"][0]
        print(f"citable {best}: {verdict['citable']}")  # fetched in full in this session: it may be cited

        walked = await call(client, "retrieve", {"query": question, "context_budget_tokens": 1500})
        print(f"retrieve: {walked['status']}, {len(walked['hits'])} passages")
        if walked.get("generation"):
            print(walked["generation"]["answer"].splitlines()[0])


def main(folder: Path, question: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "docs.duckdb"
        with clew.Corpus(db) as corpus:  # closed before the server opens the file
            clew.ingest_paths(corpus, [folder], collection="docs")
        asyncio.run(session(db, question))


if __name__ == "__main__":
    if len(sys.argv) > 2:
        main(Path(sys.argv[1]), sys.argv[2])
    else:
        main(DEMO_CORPUS, "What error rate means a deploy should be rolled back?")
