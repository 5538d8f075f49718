"""clew.integrations.langchain against the real langchain-core: a BaseRetriever, sync and async."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from pydantic import ValidationError

import clew

# langchain-core (about 0.3 s of CPU to import) is imported in the tests, not at collection: every pytest-xdist
# worker collects every file, and only the one that runs these tests needs it

QUESTION = "What error rate means a deploy should be rolled back?"


def test_invoke_runs_the_walk_and_documents_carry_the_evidence(corpus: clew.Corpus) -> None:
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from clew.integrations.langchain import ClewRetriever

    retriever = ClewRetriever(corpus=corpus, collection="runbooks", context_budget_tokens=600)
    assert isinstance(retriever, BaseRetriever)
    documents = retriever.invoke(QUESTION)
    result = clew.retrieve_sync({"query": QUESTION, "queries": [{"collection": "runbooks"}],
                                 "context_budget_tokens": 600}, corpus=corpus)
    assert [d.id for d in documents] == [d.metadata["evidence_id"] for d in documents] == [
        h.evidence_id for h in result.hits]
    first = documents[0]
    assert isinstance(first, Document) and first.page_content == result.hits[0].text
    assert first.metadata["heading_path"][0] == "Rolling back a deploy"
    assert first.metadata["trust"] == "untrusted"
    assert asyncio.run(retriever.ainvoke(QUESTION)) == documents


def test_search_mode_gives_pages_and_k_hits(corpus: clew.Corpus) -> None:
    from clew.integrations.langchain import ClewRetriever

    retriever = ClewRetriever(corpus=corpus, how="search", collection="manuals", k=3)
    documents = retriever.invoke("camlidl pointer attributes")
    hits = clew.search(corpus, {"query": "camlidl pointer attributes", "collection": "manuals", "limit": 3}).hits
    assert [(d.id, d.metadata["page_numbers"], d.metadata["score"]) for d in documents] == [
        (h.evidence_id, h.location.page_numbers, h.score) for h in hits]
    assert all(d.metadata["page_numbers"] for d in documents)
    assert asyncio.run(retriever.ainvoke("camlidl pointer attributes")) == documents


def test_the_retriever_runs_inside_a_chain_and_in_a_batch(corpus: clew.Corpus) -> None:
    from langchain_core.runnables import RunnableLambda

    from clew.integrations.langchain import ClewRetriever

    retriever = ClewRetriever(corpus=corpus, how="search", collection="runbooks", k=2)
    chain = retriever | RunnableLambda(lambda docs: [d.metadata["document_key"] for d in docs])
    assert chain.invoke(QUESTION) == ["deploy-rollback.md", "deploy-rollback.md"]
    keys = asyncio.run(chain.abatch([QUESTION, "Who do I call about a security incident?"]))
    assert keys == [["deploy-rollback.md", "deploy-rollback.md"], ["security-contacts.md", "incident-response.md"]]


def test_bad_arguments_name_the_field(corpus: clew.Corpus) -> None:
    from clew.integrations.langchain import ClewRetriever

    with pytest.raises(ValidationError, match="how"):
        ClewRetriever(corpus=corpus, how="browse")
    with pytest.raises(ValidationError, match="colection"):
        ClewRetriever(corpus=corpus, colection="runbooks")
    with pytest.raises(ValidationError, match="a walk's seed search takes search_mode and fields with a collection"):
        ClewRetriever(corpus=corpus, search_mode="vector")


def test_without_langchain_core_the_error_names_the_extra() -> None:
    code = "import sys\nsys.modules['langchain_core'] = None\nimport clew.integrations.langchain\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "clew.errors.MissingExtra: the LangChain retriever (clew.integrations.langchain) needs the 'langchain' " \
           "extra" in done.stderr, done.stderr
