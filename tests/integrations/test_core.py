"""clew.integrations.core: what both adapters run, without a framework."""

from __future__ import annotations

import asyncio

import pytest

import clew
from clew.integrations.core import RetrieverSettings, aretrieved, retrieved, settings_from
from tests.conftest import python_output

QUESTION = "What error rate means a deploy should be rolled back?"


def test_import_clew_loads_no_framework() -> None:
    code = ("import sys, clew\n[getattr(clew, name) for name in clew.__all__]\nimport clew.integrations.core\n"
            "print(sorted(m for m in ('langchain_core', 'llama_index', 'pydantic_ai') if m in sys.modules))")
    assert python_output(code).strip() == "[]"


def test_a_walk_gives_the_evidence_of_clew_retrieve_with_its_metadata(corpus: clew.Corpus) -> None:
    settings = RetrieverSettings(collection="runbooks", context_budget_tokens=600)
    records = retrieved(corpus, QUESTION, settings)
    result = clew.retrieve_sync({"query": QUESTION, "queries": [{"collection": "runbooks"}],
                                 "context_budget_tokens": 600}, corpus=corpus)
    assert [r.metadata["evidence_id"] for r in records] == [h.evidence_id for h in result.hits]
    assert len(records) >= 2
    first = records[0].metadata
    assert first["document_key"] == "deploy-rollback.md" and first["collection"] == "runbooks"
    assert first["heading_path"][0] == "Rolling back a deploy"
    assert (first["trust"], first["kind"], first["page_numbers"]) == ("untrusted", "text", [])
    assert 0 <= first["char_start"] < first["char_end"]
    assert records[0].text == result.hits[0].text
    assert asyncio.run(aretrieved(corpus, QUESTION, settings)) == records
    assert retrieved(corpus, QUESTION, RetrieverSettings(collection="runbooks", context_budget_tokens=600, k=1)) \
        == records[:1]


def test_a_search_gives_clew_search_hits_with_their_pages(corpus: clew.Corpus) -> None:
    settings = RetrieverSettings(how="search", collection="manuals", k=3, fields=["title"])
    records = retrieved(corpus, "camlidl pointer attributes", settings)
    hits = clew.search(corpus, {"query": "camlidl pointer attributes", "collection": "manuals", "limit": 3}).hits
    assert [(r.metadata["evidence_id"], r.score) for r in records] == [(h.evidence_id, h.score) for h in hits]
    assert records[0].metadata["page_numbers"] == hits[0].location.page_numbers != []
    assert records[0].metadata["heading_path"] == hits[0].heading_path
    assert asyncio.run(aretrieved(corpus, "camlidl pointer attributes", settings)) == records


def test_a_principal_reads_only_its_collections(corpus: clew.Corpus) -> None:
    only_runbooks = clew.Principal(collections=frozenset({"runbooks"}))
    settings = RetrieverSettings(how="search", principal=only_runbooks, k=20)
    assert {r.metadata["collection"] for r in retrieved(corpus, "camlidl rollback pointer", settings)} == {"runbooks"}
    walk = RetrieverSettings(principal=only_runbooks)  # no collection: the one it may read
    assert {r.metadata["collection"] for r in retrieved(corpus, QUESTION, walk)} == {"runbooks"}


def test_a_sync_call_inside_a_running_loop_works(corpus: clew.Corpus) -> None:
    settings = RetrieverSettings(collection="runbooks", context_budget_tokens=600)

    async def inside() -> list[str]:
        return [r.metadata["evidence_id"] for r in retrieved(corpus, QUESTION, settings)]

    assert asyncio.run(inside()) == [r.metadata["evidence_id"] for r in retrieved(corpus, QUESTION, settings)]


@pytest.mark.parametrize(("options", "field", "words"), [
    ({"how": "browse"}, "how", "'walk' or 'search'"),
    ({"k": 0}, "k", "greater than or equal to 1"),
    ({"collection": ""}, "collection", "at least 1 character"),
    ({"colection": "docs"}, "colection", "Extra inputs are not permitted"),
    ({"search_mode": "hybrid"}, "search_mode", "with a collection"),
    ({"request": {"query": "other"}}, "request.query", "the retriever's input"),
    ({"collection": "runbooks", "request": {"queries": [{"collection": "manuals"}]}}, "collection",
     "request.queries[] names the walk's seed search"),
])
def test_bad_settings_name_the_field(options: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(clew.InputError) as raised:
        settings_from(options)
    assert raised.value.field == field and words in raised.value.message


def test_a_search_takes_a_mode_without_a_collection_and_a_walk_its_queries_from_request(corpus: clew.Corpus) -> None:
    searched = retrieved(corpus, "camlidl pointer", settings_from({"how": "search", "search_mode": "bm25", "k": 1}))
    assert searched[0].metadata["collection"] == "manuals"
    walk = settings_from({"request": {"queries": [{"collection": "manuals", "filter": {"term": {"title": "none"}}}]}})
    assert retrieved(corpus, "camlidl pointer", walk) == []  # the filter of request.queries[] holds


def test_a_request_the_walk_refuses_names_the_field(corpus: clew.Corpus) -> None:
    with pytest.raises(clew.InputError) as raised:
        retrieved(corpus, QUESTION, settings_from({"request": {"max_tool_calls": "many"}}))
    assert raised.value.field == "max_tool_calls"


def test_a_walk_that_fails_raises_with_its_stop_line(corpus: clew.Corpus) -> None:
    search_only = clew.Principal(tools=frozenset({"search"}))
    with pytest.raises(clew.ClewError, match="the walk failed: failed: tree navigation needs the tree_search"):
        retrieved(corpus, QUESTION, RetrieverSettings(collection="runbooks", principal=search_only))
    found = retrieved(corpus, QUESTION, RetrieverSettings(how="search", collection="runbooks", principal=search_only))
    assert found[0].metadata["document_key"] == "deploy-rollback.md"


def test_a_walk_on_several_collections_without_one_names_the_collection_argument(corpus: clew.Corpus) -> None:
    """The error named ``queries`` ("name one in queries[]"), which a retriever's caller never wrote (task U20)."""
    for run in (lambda s: retrieved(corpus, QUESTION, s), lambda s: asyncio.run(aretrieved(corpus, QUESTION, s))):
        with pytest.raises(clew.InputError) as raised:
            run(RetrieverSettings())
        assert raised.value.field == "collection"
        assert raised.value.message == ("a walk reads one collection and this retriever may read 2 "
                                        "(manuals, runbooks): pass one, e.g. collection='manuals'")
