"""A filter on the document's path (``{"path": GLOB}``, issue 36, trial U31): three releases of one documentation in
one collection, a question whose answer is in each, and a request that asks one release. The filter narrows the
seed search, the walk (links and start keys included) and every surface (Python, ``clew ask --filter``, REST, MCP);
a principal's row filter still applies, and a row filter cannot hold a path."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp.client.client import Client
from pydantic import ValidationError
from typer.testing import CliRunner

from clew.agent.api import retrieve_sync
from clew.cli import app
from clew.config.settings import ServerConfig
from clew.corpus.access import Principal
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.server import mcp as clew_mcp
from clew.server.rest import create_app
from clew.testing import ScriptedModel, reply_text, reply_tool_call
from tests.conftest import Prebuilt

QUESTION = "Which Python versions does Widget support?"
PYTHON = {"v1": "3.6", "v2": "3.8", "latest": "3.10"}
KEY = "reader-key-0001"


def releases(root: Path) -> Path:
    """``v1/``, ``v2/``, ``latest/`` side by side, each with its install page (its own Python) and a config page
    (v1's a draft); v1's install page links to v2's."""
    site = root / "site"
    for release, python in PYTHON.items():
        (site / release).mkdir(parents=True)
        link = " The next release: [install](../v2/install.md)." if release == "v1" else ""
        (site / release / "install.md").write_text(f"# Install\n\nWidget supports Python {python} and newer.{link}\n")
        status = "draft" if release == "v1" else "published"
        (site / release / "config.md").write_text(
            f"---\nstatus: {status}\n---\n# Config\n\nWidget {release} reads widget.toml; it needs Python {python}.\n"
        )
    return site


def build(folder: Path) -> None:
    with Corpus(folder / "docs.duckdb") as corpus:
        ingest_paths(corpus, [releases(folder)], collection="docs")


@pytest.fixture
def db(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    return prebuilt(build, tmp_path) / "docs.duckdb"


@pytest.fixture
def corpus(db: Path) -> Iterator[Corpus]:
    with Corpus(db) as opened:
        yield opened


def ask(corpus: Corpus, where: Any, **navigation: Any) -> Any:
    request: dict[str, Any] = {"query": QUESTION, "queries": [{"collection": "docs", "filter": where}]}
    if navigation:
        request["steps"] = {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked", **navigation}}}
    return retrieve_sync(request, corpus=corpus)


def keys(result: Any) -> set[str]:
    return {hit.document_key for hit in result.hits}


def test_a_question_answered_in_every_release_reads_only_the_filtered_one(corpus: Corpus) -> None:
    everything = retrieve_sync({"query": QUESTION, "queries": [{"collection": "docs"}]}, corpus=corpus)
    assert {key.split("/")[0] for key in keys(everything)} == set(PYTHON)  # without it: every release
    for release, python in PYTHON.items():
        for glob in (release, f"{release}/", f"{release}/*", f"/{release}/**/*.md"):
            result = ask(corpus, {"path": glob})
            assert keys(result) and all(key.startswith(f"{release}/") for key in keys(result)), (glob, keys(result))
            assert result.generation is not None and f"Python {python} and newer" in result.generation.answer
    assert keys(ask(corpus, {"path": "*/install.md"})) == {f"{r}/install.md" for r in PYTHON}
    assert keys(ask(corpus, {"path": "v[12]/config.md"})) == {"v1/config.md", "v2/config.md"}
    assert not ask(corpus, {"path": "v3"}).hits  # matches nothing: nothing read
    assert not ask(corpus, {"path": "v"}).hits  # a folder is a whole name: v is not v1
    both = {"bool": {"must": [{"path": "v2"}, {"term": {"status": "published"}}]}}
    assert keys(ask(corpus, both)) == {"v2/config.md"}  # beside field filters, in a bool


def test_the_walk_cannot_step_out_of_the_filter(corpus: Corpus) -> None:
    unfiltered = ask(corpus, None, start_key="v1/install.md", follow_links=True)
    assert "v2/install.md" in keys(unfiltered)  # the link from v1's install page is followed
    linked = ask(corpus, {"path": "v1"}, start_key="v1/install.md", follow_links=True)
    assert keys(linked) and all(key.startswith("v1/") for key in keys(linked))
    outside = ask(corpus, {"path": "v1"}, start_key="v2/install.md")
    assert not outside.hits and outside.stop_reason == "no_evidence"  # a start outside it reads as no document
    graph = retrieve_sync(
        {
            "query": QUESTION,
            "queries": [{"collection": "docs", "filter": {"path": "v1"}}],
            "steps": {"retrieval": {"navigation": {"strategy": "graph", "index": "links", "selection": "ranked"}}},
        },
        corpus=corpus,
    )
    assert keys(graph) and all(key.startswith("v1/") for key in keys(graph))


def test_a_free_runs_tools_read_inside_the_filter(corpus: Corpus) -> None:
    """The model's own calls (search, fetch_evidence of an id it was never offered) read as the walk does."""
    outside = search(corpus, {"query": "Widget Python", "collection": "docs", "filter": {"path": "v2"}}).hits[0]
    model = ScriptedModel(
        [
            reply_tool_call("fetch_evidence", {"ids": [outside.evidence_id]}),
            reply_tool_call("search", {"query": "Widget Python", "collection": "docs"}),
            reply_text("Python 3.6."),
        ]
    )
    request = {"query": QUESTION, "queries": [{"collection": "docs", "filter": {"path": "v1"}}]}
    result = retrieve_sync(request, corpus=corpus, model=model)
    fetched, found = (json.loads(model.requests[i].messages[-1]["content"].split("\n")[2]) for i in (1, 2))
    assert fetched["evidence"] == [
        {
            "id": outside.evidence_id,
            "status": "unavailable",
            "recorded": False,
            "detail": "no readable passage has this id",
        }
    ]  # as a missing id reads
    assert {hit["document_key"] for hit in found["hits"]} == {"v1/install.md", "v1/config.md"}
    assert keys(result) == {"v1/install.md", "v1/config.md"}


def test_search_takes_the_path_filter(corpus: Corpus) -> None:
    hits = search(corpus, {"query": "Widget Python", "collection": "docs", "filter": {"path": "latest"}}).hits
    assert hits and {hit.document_key for hit in hits} == {"latest/install.md", "latest/config.md"}


def test_permissions_hold_under_a_path_filter_and_a_row_filter_holds_no_path(corpus: Corpus) -> None:
    reader = Principal(name="reader", row_filter={"term": {"status": "published"}})
    request = {"query": QUESTION, "principal": reader, "queries": [{"collection": "docs", "filter": {"path": "v1"}}]}
    result = retrieve_sync(request, corpus=corpus)
    assert keys(result) <= {"v1/install.md"}  # v1's draft config page stays hidden from the reader
    with pytest.raises(ValidationError, match="a row filter matches document fields; path narrows"):
        Principal(row_filter={"bool": {"must_not": [{"path": "v1"}]}})
    with pytest.raises(ValidationError, match=r"principals\.reader\.row_filter"):
        ServerConfig(principals={"reader": {"row_filter": {"path": "v1"}}})


@pytest.mark.parametrize(
    ("glob", "says"),
    [
        ("", "the path glob is empty"),
        ("v" * 1_001, "the path glob takes at most 1000 characters"),
        (3, "Input should be a valid string"),
    ],
)
def test_a_bad_glob_is_an_error_naming_the_field(corpus: Corpus, glob: Any, says: str) -> None:
    with pytest.raises(InputError) as raised:
        ask(corpus, {"bool": {"must": [{"path": glob}]}})
    assert raised.value.field == "queries.0.filter"
    assert "malformed filter at bool.must.0.path: " in str(raised.value) and says in str(raised.value)


def test_clew_ask_takes_the_path_filter_as_path_equals_glob_or_json(db: Path) -> None:
    runner = CliRunner()
    for given in ("path=v2", '{"path": "v2/*"}'):
        asked = runner.invoke(app, ["ask", QUESTION, "--db", str(db), "--filter", given])
        assert asked.exit_code == 0, asked.output
        assert "Python 3.8 and newer" in asked.stdout and "3.6" not in asked.stdout and "3.10" not in asked.stdout
    bad = runner.invoke(app, ["ask", QUESTION, "--db", str(db), "--filter", "path=/"])
    assert bad.exit_code == 2 and "filter: malformed filter at path: the path glob is empty" in bad.stderr, bad.output


def test_rest_and_mcp_take_the_path_filter(corpus: Corpus) -> None:
    config = ServerConfig(principals={"reader": {}}, api_keys=[{"key": KEY, "principal": "reader"}])
    body = {"query": QUESTION, "queries": [{"collection": "docs", "filter": {"path": "v2"}}]}
    with TestClient(create_app(corpus, config), base_url="http://127.0.0.1") as client:
        answered = client.post("/v1/agents/retrieval", json=body, headers={"Authorization": f"Bearer {KEY}"})
        assert answered.status_code == 200, answered.text
        assert {hit["document_key"] for hit in answered.json()["hits"]} <= {"v2/install.md", "v2/config.md"}
        found = client.post(
            "/v1/tools/search",
            json={"query": "Widget", "filter": {"path": "v1"}},
            headers={"Authorization": f"Bearer {KEY}"},
        )
        assert {hit["document_key"] for hit in found.json()["hits"]} == {"v1/install.md", "v1/config.md"}
        refused = client.post(
            "/v1/agents/retrieval",
            headers={"Authorization": f"Bearer {KEY}"},
            json={**body, "queries": [{"collection": "docs", "filter": {"path": "/"}}]},
        )
        assert refused.status_code == 400 and refused.json()["field"] == "queries.0.filter", refused.text

    async def call() -> Any:
        async with Client(clew_mcp.build_server(corpus, ServerConfig())) as client:
            return await client.call_tool("retrieve", body)

    result = asyncio.run(call()).structured_content
    assert result["hits"] and {hit["document_key"] for hit in result["hits"]} <= {"v2/install.md", "v2/config.md"}
