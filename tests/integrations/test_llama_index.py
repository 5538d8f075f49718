"""clew.integrations.llama_index against the real llama-index-core: a BaseRetriever, sync and async."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import clew

# llama_index (about 0.8 s of CPU to import) is imported in the tests, not at collection: every pytest-xdist
# worker collects every file, and only the one that runs these tests needs it

QUESTION = "What error rate means a deploy should be rolled back?"


def test_retrieve_runs_the_walk_and_nodes_carry_the_evidence(corpus: clew.Corpus) -> None:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import TextNode

    from clew.integrations.llama_index import ClewRetriever

    retriever = ClewRetriever(corpus, collection="runbooks", context_budget_tokens=600)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve(QUESTION)
    result = clew.retrieve_sync({"query": QUESTION, "queries": [{"collection": "runbooks"}],
                                 "context_budget_tokens": 600}, corpus=corpus)
    assert [n.node.node_id for n in nodes] == [n.node.metadata["evidence_id"] for n in nodes] == [
        h.evidence_id for h in result.hits]
    assert [n.score for n in nodes] == [h.score for h in result.hits]
    first = nodes[0].node
    assert isinstance(first, TextNode) and first.text == result.hits[0].text
    assert first.metadata["heading_path"][0] == "Rolling back a deploy" and first.metadata["trust"] == "untrusted"
    assert [(n.node.node_id, n.score) for n in asyncio.run(retriever.aretrieve(QUESTION))] == [
        (n.node.node_id, n.score) for n in nodes]


def test_search_mode_gives_pages_and_a_model_sees_the_id_headings_and_pages(corpus: clew.Corpus) -> None:
    from llama_index.core.schema import MetadataMode

    from clew.integrations.llama_index import ClewRetriever

    retriever = ClewRetriever(corpus, how="search", collection="manuals", k=3)
    nodes = retriever.retrieve("camlidl pointer attributes")
    hits = clew.search(corpus, {"query": "camlidl pointer attributes", "collection": "manuals", "limit": 3}).hits
    assert [(n.node.node_id, n.node.metadata["page_numbers"], n.score) for n in nodes] == [
        (h.evidence_id, h.location.page_numbers, h.score) for h in hits]
    shown = nodes[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert f"evidence_id: {hits[0].evidence_id}" in shown and f"page_numbers: {hits[0].location.page_numbers}" in shown
    assert "heading_path: " in shown and "char_start" not in shown and hits[0].text.strip() in shown


def test_a_query_engine_answers_from_the_walk(corpus: clew.Corpus) -> None:
    from llama_index.core.llms import MockLLM
    from llama_index.core.query_engine import RetrieverQueryEngine

    from clew.integrations.llama_index import ClewRetriever

    engine = RetrieverQueryEngine.from_args(ClewRetriever(corpus, collection="runbooks", context_budget_tokens=600),
                                            llm=MockLLM())  # MockLLM answers with the prompt it was given
    response = engine.query(QUESTION)
    assert "error rate stays above 2 percent" in str(response)
    assert response.source_nodes[0].node.metadata["document_key"] == "deploy-rollback.md"
    again = asyncio.run(engine.aquery(QUESTION))
    assert [n.node.node_id for n in again.source_nodes] == [n.node.node_id for n in response.source_nodes]


def test_bad_arguments_name_the_field(corpus: clew.Corpus) -> None:
    from clew.integrations.llama_index import ClewRetriever

    with pytest.raises(clew.InputError) as raised:
        ClewRetriever(corpus, how="browse")
    assert raised.value.field == "how"
    with pytest.raises(clew.InputError) as raised:
        ClewRetriever(corpus, top_k=3)
    assert raised.value.field == "top_k" and "Extra inputs are not permitted" in str(raised.value)


def test_without_llama_index_core_the_error_names_the_extra() -> None:
    code = "import sys\nsys.modules['llama_index'] = None\nimport clew.integrations.llama_index\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "clew.errors.MissingExtra: the LlamaIndex retriever (clew.integrations.llama_index) needs the " \
           "'llama-index' extra" in done.stderr, done.stderr
