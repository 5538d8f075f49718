"""The request users of retrieval agents write runs unchanged through REST and Python, and a
field-targeted search finds a term that only a document's title holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from clew.agent.api import retrieve_sync
from clew.agent.request import parse_request
from clew.config.settings import ServerConfig
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.server.rest import create_app
from tests.conftest import Prebuilt

from .test_rest_live import Served

RECORDS = [
    {"key": "zephyr.txt", "title": "Zephyr deployment", "status": "published",
     "text": "Run the database migrations first, then restart the workers one at a time."},
    {"key": "draft.txt", "title": "Zephyr deployment notes", "status": "draft",
     "text": "Unreviewed notes about restarting workers."},
    {"key": "other.txt", "title": "Lunch", "status": "published", "text": "The team lunch is on Fridays."},
    {"key": "weather.txt", "title": "Weather", "status": "published",
     "text": "A zephyr is a soft westerly wind; it never deploys anything."},
]
REQUEST: dict[str, Any] = {
    "query": "How is Zephyr rolled out?",
    "queries": [{"table": "docs", "full_text_search": {"match": "zephyr", "field": "title"},
                 "filter_query": {"term": "published", "field": "status"}}],
    "generator": {"provider": "openai", "model": "gpt-4o-mini"},
    "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}, "generation": {}},
    "stream": False,
}


def build_records(folder: Path) -> None:
    """RECORDS in ``docs``: built once a session (``prebuilt``)."""
    records = folder / "records.jsonl"
    records.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf-8")
    with Corpus(folder / "docs.duckdb") as opened:
        ingest_paths(opened, [records], collection="docs", chunk_tokens=160)


@pytest.fixture
def corpus(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The test's own copy of the corpus."""
    with Corpus(prebuilt(build_records, tmp_path) / "docs.duckdb") as opened:
        yield opened


def test_a_field_targeted_search_finds_a_title_only_term(corpus: Corpus) -> None:
    everywhere = search(corpus, {"query": "zephyr", "collection": "docs"})  # the text, heading path and title
    assert "weather.txt" in [h.document_key for h in everywhere.hits]
    by_title = search(corpus, {"query": "zephyr", "collection": "docs", "field": "title"})
    assert [h.document_key for h in by_title.hits] == ["zephyr.txt", "draft.txt"]  # not weather.txt's text
    assert by_title.applied["field"] == "title"
    published = search(corpus, {"query": "zephyr", "field": "title", "filter": {"term": {"status": "published"}}})
    assert [h.document_key for h in published.hits] == ["zephyr.txt"]
    assert search(corpus, {"query": "zephyr", "field": "heading"}).hits == []  # records have no headings
    with pytest.raises(InputError) as caught:
        search(corpus, {"query": "zephyr", "field": "title", "mode": "vector"})
    assert caught.value.field == "field"


def test_a_heading_search_finds_the_passages_under_a_heading(corpus: Corpus, acme_path: Path) -> None:
    ingest_paths(corpus, [acme_path], collection="notes", chunk_tokens=160, merge_sections=True)
    found = search(corpus, {"query": "dependencies", "collection": "notes", "field": "heading"}).hits
    assert found and all("Dependencies" in h.heading_path for h in found)
    assert search(corpus, {"query": "no such heading", "collection": "notes", "field": "heading"}).hits == []


def test_the_request_document_runs_unchanged_in_python_and_over_rest(corpus: Corpus) -> None:
    parsed = parse_request(REQUEST)
    assert parsed.generator == "openai/gpt-4o-mini"
    assert parsed.queries[0].collection == "docs" and parsed.queries[0].field == "title"
    # the generator maps to a litellm model; a test answers it with litellm's own mock response
    from clew.agent.model import model_from_name

    model = model_from_name("openai/gpt-4o-mini", mock_response="Run the migrations, then restart the workers.")
    in_python = retrieve_sync(REQUEST, corpus=corpus, model=model)
    assert [h.document_key for h in in_python.hits] == ["zephyr.txt"]
    with Served(create_app(corpus, ServerConfig(model="openai/gpt-4o-mini"), auth=False, model=model)) as served:
        for path in ("/v1/agents/retrieval", "/db/v1/agents/retrieval"):
            response = httpx.post(served.url + path, json=REQUEST, timeout=120)
            assert response.status_code == 200, response.text
            assert response.json()["hits"] == [h.model_dump(mode="json") for h in in_python.hits]
            assert response.json()["generation"] == (  # the answer cited nothing: no extract stands in for it
                None if in_python.generation is None else in_python.generation.model_dump(mode="json"))


def test_every_error_of_a_request_is_reported_at_once(corpus: Corpus) -> None:
    bad = {**REQUEST, "query": " ", "max_tool_calls": "many",
           "queries": [{"table": "docs", "collection": "docs"}]}
    with pytest.raises(InputError) as caught:
        parse_request(bad)
    fields = [field for field, _ in caught.value.errors]
    assert {"query", "max_tool_calls"} <= set(fields) and len(fields) >= 2
    unknown = {**REQUEST, "generator": {"provider": "nosuch", "model": "m"}}
    with pytest.raises(InputError) as caught:
        parse_request(unknown)
    assert caught.value.field == "generator.provider" and "nosuch" in caught.value.message
    with Served(create_app(corpus, ServerConfig(), auth=False)) as served:
        response = httpx.post(served.url + "/v1/agents/retrieval", json=bad, timeout=60)
    assert response.status_code == 400
    assert {"query", "max_tool_calls"} <= {e["field"] for e in response.json()["errors"]}
