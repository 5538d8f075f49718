"""Page numbers on every hit of a real PDF manual, on every surface: Python, CLI, REST and MCP."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from mcp.client.client import Client
from typer.testing import CliRunner

from clew.agent.api import retrieve_sync
from clew.cli import app
from clew.config.settings import ServerConfig
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.server import mcp as clew_mcp
from clew.server.rest import create_app
from tests.envelope import result as result_of

FIXTURES = Path(__file__).parents[1] / "fixtures" / "pdf"
QUESTION = "How are unique pointers translated?"
runner = CliRunner()


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("manual")
    (folder / "docs").mkdir()
    shutil.copy(FIXTURES / "camlidl-manual.pdf", folder / "docs")  # camlidl-doc's manual (LGPL-2+)
    with Corpus(folder / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder / "docs"])
    return folder / "c.duckdb"


def paged(hits: list[dict]) -> bool:
    return bool(hits) and all(h["location"]["page_numbers"] and min(h["location"]["page_numbers"]) >= 1
                              for h in hits)


def test_python_search_and_retrieval_hits_and_citations_carry_pages(manual: Path) -> None:
    with Corpus(manual, read_only=True) as corpus:
        found = search(corpus, {"query": "unique pointer"}).hits
        result = retrieve_sync({"query": QUESTION, "context_budget_tokens": 1000}, corpus=corpus)
    assert found and all(h.location.page_numbers for h in found)
    assert found[0].location.char_start == found[0].start_offset
    assert result.hits and all(h.location is not None and h.location.page_numbers for h in result.hits)
    assert result.generation is not None and all(c.page_numbers for c in result.generation.citations)
    by_id = {h.evidence_id: h.location.page_numbers for h in result.hits if h.location is not None}
    assert all(c.page_numbers == by_id[c.evidence_id] for c in result.generation.citations)


def test_cli_search_ask_and_fetch_evidence_show_pages(manual: Path) -> None:
    found = result_of(runner.invoke(app, ["search", "unique pointer", "--db", str(manual), "--json"]).stdout)
    assert paged(found["hits"])
    asked = result_of(runner.invoke(app, ["ask", QUESTION, "--db", str(manual), "--context-tokens", "1000",
                                          "--json"]).stdout)
    assert paged(asked["hits"])
    human = runner.invoke(app, ["ask", QUESTION, "--db", str(manual), "--context-tokens", "1000"],
                          env={"COLUMNS": "80"}).stdout
    assert any(line.startswith("ev1:c:") and " p. " in line for line in human.splitlines())
    fetched = result_of(runner.invoke(app, ["fetch_evidence", asked["hits"][0]["evidence_id"], "--db", str(manual),
                                            "--json"]).stdout)
    assert fetched["evidence"][0]["item"]["location"]["page_numbers"]


def test_rest_and_mcp_hits_carry_pages(manual: Path) -> None:
    with Corpus(manual, read_only=True) as corpus:
        client = TestClient(create_app(corpus, ServerConfig(), auth=False), base_url="http://127.0.0.1")
        found = client.post("/v1/tools/search", json={"query": "unique pointer"}).json()
        ran = client.post("/v1/agents/retrieval", json={"query": QUESTION, "context_budget_tokens": 1000}).json()
        assert paged(found["hits"]) and paged(ran["hits"])

        async def session() -> tuple:
            async with Client(clew_mcp.build_server(corpus, ServerConfig())) as mcp:
                return (await mcp.call_tool("search", {"query": "unique pointer"}),
                        await mcp.call_tool("retrieve", {"query": QUESTION, "context_budget_tokens": 1000}))

        searched, retrieved = asyncio.run(session())
    assert paged(searched.structured_content["hits"]) and paged(retrieved.structured_content["hits"])
    first = retrieved.structured_content["hits"][0]
    pages = first["location"]["page_numbers"]
    shown = f", p. {pages[0]}" + (f"-{pages[-1]}" if len(pages) > 1 else "")
    text = retrieved.content[0].text
    assert f"[{first['evidence_id']}] camlidl-manual.pdf" in text and shown in text
