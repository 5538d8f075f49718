"""Every list and text of a request has a maximum; past it, every surface says which field and
which limit, the same way (the one request model checks it)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp.client.client import Client

from clew.agent.api import retrieve_sync
from clew.budgets.bounds import MAX_CLAUSES, MAX_FILTER_CLAUSES, MAX_FILTER_DEPTH, MAX_LIST_ITEMS, MAX_QUERY_CHARS
from clew.config.settings import ServerConfig
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.server import mcp as clew_mcp

from .conftest import ACME, auth


def nested(depth: int) -> dict[str, Any]:
    flt: dict[str, Any] = {"term": {"status": "published"}}
    for _ in range(depth):
        flt = {"bool": {"must": [flt]}}
    return flt


TOO_MUCH = [
    ({"query": "x" * (MAX_QUERY_CHARS + 1)}, "query", str(MAX_QUERY_CHARS)),
    ({"query": "orion", "exclude_ids": [ACME[0]] * (MAX_LIST_ITEMS + 1)}, "exclude_ids", str(MAX_LIST_ITEMS)),
    ({"query": "orion", "exclude_document_keys": ["k"] * (MAX_LIST_ITEMS + 1)}, "exclude_document_keys",
     str(MAX_LIST_ITEMS)),
    ({"query": "orion", "filter": {"terms": {"status": [f"v{i}" for i in range(MAX_LIST_ITEMS + 1)]}}},
     "filter", str(MAX_LIST_ITEMS)),
    ({"query": "orion", "filter": {"bool": {"should": [{"term": {"status": "a"}}] * (MAX_CLAUSES + 1)}}},
     "filter", str(MAX_CLAUSES)),
    ({"query": "orion", "filter": nested(MAX_FILTER_DEPTH + 1)}, "filter", str(MAX_FILTER_DEPTH)),
]


@pytest.mark.parametrize("request_, field, limit", TOO_MUCH)
def test_python_search_names_the_field_and_the_limit(corpus: Corpus, request_: dict, field: str, limit: str) -> None:
    with pytest.raises(InputError) as caught:
        search(corpus, {**request_, "collection": "notes"})
    assert caught.value.field.startswith(field) and limit in caught.value.message


def test_at_the_limits_a_request_is_answered(corpus: Corpus) -> None:
    found = search(corpus, {"query": "orion " * 1_000, "collection": "notes", "exclude_ids": [ACME[0]] * MAX_LIST_ITEMS,
                            "exclude_document_keys": [f"k{i}" for i in range(MAX_LIST_ITEMS)],
                            "filter": {"bool": {"should": [{"terms": {"status": [f"v{i}" for i in range(999)]
                                                                      + ["published"]}}] * MAX_CLAUSES}}})
    assert found.hits and ACME[0] not in [h.evidence_id for h in found.hits]
    assert search(corpus, {"query": "orion", "collection": "notes", "filter": nested(MAX_FILTER_DEPTH)}).hits


def test_rest_and_mcp_and_retrieval_say_the_same(corpus: Corpus, client: TestClient) -> None:
    body = {"query": "orion", "collection": "notes", "exclude_ids": [ACME[0]] * (MAX_LIST_ITEMS + 1)}
    response = client.post("/v1/tools/search", json=body, headers=auth())
    assert response.status_code == 400 and response.json()["field"] == "exclude_ids"
    assert str(MAX_LIST_ITEMS) in response.json()["message"]

    async def over_mcp() -> Any:
        async with Client(clew_mcp.build_server(corpus, ServerConfig())) as mcp:
            return await mcp.call_tool("search", body)

    called = asyncio.run(over_mcp())
    assert called.is_error and "exclude_ids" in called.content[0].text and str(MAX_LIST_ITEMS) in called.content[0].text
    with pytest.raises(InputError) as caught:
        retrieve_sync({"query": "q" * (MAX_QUERY_CHARS + 1), "queries": [{"collection": "notes"}]}, corpus=corpus)
    assert caught.value.field == "query" and str(MAX_QUERY_CHARS) in caught.value.message


def test_5001_should_clauses_and_a_filter_of_too_many_clauses_are_a_400_naming_the_filter(client: TestClient) -> None:
    flat = {"bool": {"should": [{"term": {"status": f"s{i}"}} for i in range(5_001)]}}
    wide = {"bool": {"must": [{"bool": {"should": [{"term": {"status": f"s{i}"}} for i in range(MAX_CLAUSES)]}}]
                     * MAX_CLAUSES}}
    for flt, limit in ((flat, MAX_CLAUSES), (wide, MAX_FILTER_CLAUSES)):
        response = client.post("/v1/tools/search", json={"query": "orion", "collection": "notes", "filter": flt},
                               headers=auth())
        assert response.status_code == 400, response.text
        assert response.json()["field"].startswith("filter") and str(limit) in response.json()["message"]
