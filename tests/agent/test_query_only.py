"""A request needs only a query: the walk finds its collection, or its start's, on every entry point."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.agent.api import retrieve, retrieve_sync
from clew.agent.handlers import HANDLERS
from clew.agent.request import RetrievalRequest
from clew.agent.run import Run
from clew.agent.states import State
from clew.agent.stream import ResultEvent, stream
from clew.corpus.access import Principal
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.errors import InputError
from tests.conftest import Prebuilt

from .conftest import build_runbooks


def build_two_collections(folder: Path) -> None:
    """The runbooks and a ``notes`` collection of one page (in folder/notes): once a session (``prebuilt``)."""
    build_runbooks(folder)
    notes = folder / "notes"
    notes.mkdir()
    (notes / "deployment-guide.md").write_text("# Deployment guide\n\nDeploys go out on Tuesdays after the freeze.\n")
    with Corpus(folder / "runbooks.duckdb") as corpus:
        ingest_paths(corpus, [notes], collection="notes")


@pytest.fixture
def two_collections(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The test's own copy of the two collections."""
    with Corpus(prebuilt(build_two_collections, tmp_path) / "runbooks.duckdb") as corpus:
        yield corpus


def test_a_query_alone_walks_the_only_collection(runbooks: Corpus) -> None:
    result = retrieve_sync({"query": "What error rate means a deploy should be rolled back?"}, corpus=runbooks)
    assert result.hits and {h.collection for h in result.hits} == {"runbooks"}
    assert result.applied["collection"] == "runbooks" and result.applied["strategy"] == "tree"
    assert result.generation is not None and "2 percent" in result.generation.answer


def test_a_question_alone_is_a_request_in_python(runbooks: Corpus) -> None:
    question = "What error rate means a deploy should be rolled back?"
    asked = retrieve_sync(question, corpus=runbooks)
    assert "2 percent" in (asked.generation.answer if asked.generation else "")
    assert asked.model_dump() == retrieve_sync({"query": question}, corpus=runbooks).model_dump()


def test_the_sync_wrapper_runs_a_walk_without_a_model_inline_with_the_same_result(
        runbooks: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    request = {"query": "What error rate means a deploy should be rolled back?", "include_steps": True}
    threaded = asyncio.run(retrieve(request, corpus=runbooks))  # whole in a worker thread

    def no_thread(*args: object, **kwargs: object) -> None:
        raise AssertionError("retrieve_sync started a worker thread")

    monkeypatch.setattr(asyncio, "to_thread", no_thread)
    inline = retrieve_sync(request, corpus=runbooks)
    assert inline.model_dump() == threaded.model_dump()


def test_the_sync_wrapper_refuses_a_walk_without_a_model_that_waits(runbooks: Corpus,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a model a walk runs with no event loop (nothing in it waits); a step that did wait
    could never be woken, so it ends the call with an error naming what it awaited."""
    seed = HANDLERS[State.SEED]

    class Waiting:
        def __await__(self):  # noqa: ANN204
            yield "a timer"

    async def waiting_seed(run: Run) -> State:
        await Waiting()
        return await seed(run)

    monkeypatch.setitem(HANDLERS, State.SEED, waiting_seed)
    with pytest.raises(RuntimeError, match="a walk without a model awaited 'a timer'"):
        retrieve_sync({"query": "who is paged for a SEV1"}, corpus=runbooks)


def test_a_query_alone_streams_too(runbooks: Corpus) -> None:
    async def go() -> list:
        return [e async for e in stream({"query": "who is paged for a SEV1"}, corpus=runbooks)]

    events = asyncio.run(go())
    assert isinstance(events[-1], ResultEvent) and events[-1].result.hits


def test_several_readable_collections_are_listed_in_the_error(two_collections: Corpus) -> None:
    with pytest.raises(InputError) as caught:
        retrieve_sync({"query": "deploy"}, corpus=two_collections)
    assert caught.value.field == "queries" and "notes, runbooks" in caught.value.message
    only_notes = Principal(name="n", collections=["notes"])  # one readable collection: no question left
    result = retrieve_sync({"query": "deploy", "principal": only_notes.model_dump()}, corpus=two_collections)
    assert {h.collection for h in result.hits} == {"notes"}


def test_a_start_key_alone_scopes_the_walk_to_its_collection_and_needs_no_suffix(two_collections: Corpus) -> None:
    request = {"query": "when do deploys go out",
               "steps": {"retrieval": {"navigation": {"start_key": "deployment-guide"}}}}
    result = retrieve_sync(request, corpus=two_collections)
    assert result.hits[0].document_key == "deployment-guide.md" and result.applied["collection"] == "notes"
    assert result.status != "failed"


@pytest.mark.parametrize("strategy", ["tree", "graph"])
def test_a_start_that_names_nothing_readable_says_the_start_is_missing(runbooks: Corpus, strategy: str) -> None:
    navigation: dict = {"strategy": strategy, "start_key": "no-such-guide"}
    if strategy == "graph":
        navigation["index"] = "workflow"
    result = asyncio.run(retrieve({"query": "rollback", "queries": [{"collection": "runbooks"}],
                                   "steps": {"retrieval": {"navigation": navigation}}}, corpus=runbooks))
    assert (result.status, result.stop_reason) == ("incomplete", "no_evidence")
    assert result.detail == "the start names no readable document: 'no-such-guide'"


def test_a_denied_start_reads_as_a_missing_one(runbooks: Corpus) -> None:
    denied = Principal(name="d", row_filter={"term": {"title": "nothing has this title"}})
    request = {"query": "rollback", "queries": [{"collection": "runbooks"}],
               "steps": {"retrieval": {"navigation": {"start_key": "deploy-rollback"}}}}
    seen = retrieve_sync({**request, "principal": denied.model_dump()}, corpus=runbooks)
    allowed = retrieve_sync(request, corpus=runbooks)
    assert allowed.hits[0].document_key == "deploy-rollback.md"
    assert seen.detail == "the start names no readable document: 'deploy-rollback'"
    # the keys meant, as clew outline offers them, and only among what the principal may read (task S1)
    misspelt = {"query": "rollback", "queries": [{"collection": "runbooks"}],
                "steps": {"retrieval": {"navigation": {"start_key": "Deploy rollbak"}}}}
    assert retrieve_sync(misspelt, corpus=runbooks).detail == (
        "the start names no readable document: 'Deploy rollbak' (did you mean deploy-rollback.md?)")
    assert retrieve_sync({**misspelt, "principal": denied.model_dump()}, corpus=runbooks).detail == (
        "the start names no readable document: 'Deploy rollbak'")


def test_ingest_paths_runs_with_the_cli_defaults(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [DEMO_CORPUS])
        assert report.documents == 4 and corpus.collections() == ["default"]
        assert retrieve_sync({"query": "who is paged for a SEV1"}, corpus=corpus).hits


def test_a_walk_seeds_from_the_best_search_the_collection_has(runbooks: Corpus,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus import embedders
    from clew.corpus.embedders import HashingEmbedder
    from clew.corpus.search.embedding import embed_missing

    assert retrieve_sync({"query": "SEV1"}, corpus=runbooks).applied["seed_mode"] == "bm25"  # no vectors
    embed_missing(runbooks, HashingEmbedder())
    assert retrieve_sync({"query": "SEV1"}, corpus=runbooks).applied["seed_mode"] == "bm25"  # lexical vectors
    asked = {"query": "SEV1", "queries": [{"collection": "runbooks", "hybrid": {}}]}
    assert retrieve_sync(asked, corpus=runbooks).applied["seed_mode"] == "hybrid"  # as asked

    class Semantic(HashingEmbedder):  # stands in for a semantic model (MiniLM needs the dense extra)
        def __init__(self) -> None:
            super().__init__()
            self.name = "semantic-stand-in"

    real = embedders.embedder_from_name
    monkeypatch.setattr(embedders, "embedder_from_name",
                        lambda spec: Semantic() if spec == "semantic-stand-in" else real(spec))
    embed_missing(runbooks, Semantic())
    monkeypatch.setattr("clew.corpus.search.embedded.default_model",
                        lambda corpus, collection=None: "semantic-stand-in")
    seeded = retrieve_sync({"query": "SEV1"}, corpus=runbooks)
    assert seeded.applied["seed_mode"] == "hybrid" and seeded.hits

    def cannot(spec: str) -> object:
        raise InputError("model", f"{spec!r} cannot run: torch is not installed")

    monkeypatch.setattr(embedders, "embedder_from_name", cannot)
    fallback = retrieve_sync({"query": "SEV1"}, corpus=runbooks)  # the best search cannot embed here: BM25
    assert fallback.applied["seed_mode"] == "bm25" and fallback.hits
    with pytest.raises(InputError):
        retrieve_sync(asked, corpus=runbooks)  # asked for hybrid: the error is the caller's to see


def test_a_query_entry_without_a_collection_searches_the_only_one(runbooks: Corpus) -> None:
    """queries[] entries may leave the collection out as a query-only request does (task Q3)."""
    asked = {"query": "What error rate means a deploy should be rolled back?", "queries": [{"limit": 5}]}
    result = retrieve_sync(asked, corpus=runbooks)
    assert result.hits and {h.collection for h in result.hits} == {"runbooks"}
    assert result.applied["collection"] == "runbooks" and result.applied["query_limits"] == [5]
    named = retrieve_sync({**asked, "queries": [{"table": "runbooks", "limit": 5}]}, corpus=runbooks)
    assert "collection" not in named.applied  # named: nothing was filled in
    assert [h.evidence_id for h in named.hits] == [h.evidence_id for h in result.hits]
    with pytest.raises(InputError) as blank:
        retrieve_sync({**asked, "queries": [{"collection": " "}]}, corpus=runbooks)
    assert blank.value.field == "queries.0.collection"  # a blank name is still a mistake, not a left-out one
    schema = RetrievalRequest.model_json_schema()["$defs"]["QuerySpec"]  # what REST and MCP clients read
    assert "collection" not in schema.get("required", []) and "default" not in schema["properties"]["collection"]
    assert "may be left out where the caller reads only one" in schema["properties"]["collection"]["description"]


def test_a_query_entry_without_a_collection_over_several_names_the_field_and_lists_them(
        two_collections: Corpus, tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        retrieve_sync({"query": "deploy", "queries": [{"collection": "notes"}, {"limit": 5}]}, corpus=two_collections)
    assert caught.value.field == "queries.1.collection" and "2 collections (notes, runbooks)" in caught.value.message
    only_notes = Principal(name="n", collections=["notes"])
    result = retrieve_sync({"query": "deploy", "queries": [{"limit": 5}], "principal": only_notes.model_dump()},
                           corpus=two_collections)
    assert {h.collection for h in result.hits} == {"notes"} and result.applied["collection"] == "notes"
    assert "runbooks" not in result.model_dump_json()  # the other collection is never revealed
    with Corpus(tmp_path / "empty.duckdb") as empty, pytest.raises(InputError) as none:
        retrieve_sync({"query": "deploy", "queries": [{"limit": 5}]}, corpus=empty)
    assert none.value.field == "queries.0.collection"
    assert none.value.message == "no collection the caller may read holds documents (ingest some first)"
