"""The question's words that neither the evidence nor the corpus holds (``generation.absent_terms``) on every
surface: ``clew ask`` (one line of text, and ``--json``), REST on 127.0.0.1 and an MCP client session. A word
only in a document the caller may not read is absent for that caller, as the search counts it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from mcp.client.client import Client
from typer.testing import CliRunner

from clew.cli import app
from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.server import mcp as clew_mcp
from clew.server.rest import create_app
from tests.envelope import result as result_of

from .conftest import READER, auth
from .test_rest_live import Served

ASKED = "Which component does Daniel Okafor own, and what is its kubernetes budget?"
HELD = "Which component does Daniel Okafor own?"
NOTES = [{"collection": "notes"}]


def test_clew_ask_prints_the_line_and_its_json_carries_the_field(db_path: Path) -> None:
    runner = CliRunner()
    # the CLI reads as the corpus's owner: the restricted budget.txt holds "budget"
    asked = runner.invoke(app, ["ask", ASKED, "--db", str(db_path), "--collection", "notes", "--json"])
    assert asked.exit_code == 0, asked.output
    assert result_of(asked.stdout)["generation"]["absent_terms"] == ["kubernetes"]
    human = runner.invoke(app, ["ask", ASKED, "--db", str(db_path), "--collection", "notes"], env={"COLUMNS": "100"})
    assert human.exit_code == 0 and human.stdout.splitlines().count("not in the corpus: kubernetes") == 1
    held = runner.invoke(app, ["ask", HELD, "--db", str(db_path), "--collection", "notes", "--json"])
    assert "absent_terms" not in result_of(held.stdout)["generation"]
    plain = runner.invoke(app, ["ask", HELD, "--db", str(db_path), "--collection", "notes"])
    assert plain.exit_code == 0 and "Okafor" in plain.stdout and "not in the corpus" not in plain.stdout


def test_rest_carries_the_field_as_the_reader_may_see_the_corpus(corpus: Corpus, config: ServerConfig) -> None:
    with Served(create_app(corpus, config)) as served:
        def ask(query: str) -> dict[str, Any]:
            response = httpx.post(f"{served.url}/v1/agents/retrieval", json={"query": query, "queries": NOTES},
                                  headers=auth(READER), timeout=60)
            assert response.status_code == 200, response.text
            return dict(response.json()["generation"])

        # the reader's row filter hides budget.txt, the only passage with "budget"
        assert ask(ASKED)["absent_terms"] == ["kubernetes", "budget"]
        assert "absent_terms" not in ask(HELD)


def test_an_mcp_session_gets_the_field_and_the_line_in_its_text(corpus: Corpus) -> None:
    async def call(query: str) -> Any:
        async with Client(clew_mcp.build_server(corpus, ServerConfig())) as client:
            return await client.call_tool("retrieve", {"query": query, "queries": NOTES})

    asked = asyncio.run(call(ASKED))
    assert asked.structured_content["generation"]["absent_terms"] == ["kubernetes"]
    assert "not in the corpus: kubernetes" in asked.content[0].text.splitlines()
    held = asyncio.run(call(HELD))
    assert "absent_terms" not in held.structured_content["generation"]
    assert "not in the corpus" not in held.content[0].text
