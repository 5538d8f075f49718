"""``clew eval``'s walks say which search seeds them: ``tree-ranked`` is seeded by BM25 and ``tree-hybrid`` by
hybrid search on a collection with semantic vectors, where a request naming no search would seed both from hybrid
(task E4 found the two systems identical on embedded corpora)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from clew.agent.api import retrieve_sync
from clew.corpus import embedders
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.embedding import embed_missing
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.evals.runner import describe_systems
from clew.evals.systems import SYSTEMS, agent_request
from tests.commands.test_ask_seed import QUESTION, Semantic


@contextmanager
def embedded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Corpus]:
    """The demo corpus as the collection ``runbooks``, with vectors of a stand-in semantic model."""
    real = embedders.embedder_from_name
    monkeypatch.setattr(embedders, "embedder_from_name",
                        lambda spec: Semantic() if spec == "semantic-stand-in" else real(spec))
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks")
        assert embed_missing(corpus, Semantic()).embedded > 0
        yield corpus


def test_tree_ranked_is_seeded_by_bm25_and_tree_hybrid_by_hybrid_where_vectors_exist(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with embedded(tmp_path, monkeypatch) as corpus:
        seeds = {name: retrieve_sync(agent_request(SYSTEMS[name], QUESTION, 2000, "runbooks"), corpus=corpus)
                 .applied["seed_mode"] for name in ("tree-ranked", "tree-hybrid")}
        default = retrieve_sync({"query": QUESTION, "context_budget_tokens": 2000}, corpus=corpus)
    assert seeds == {"tree-ranked": "bm25", "tree-hybrid": "hybrid"}
    assert default.applied["seed_mode"] == "hybrid"  # what tree-ranked was before it named its search
    assert [name for name, system in SYSTEMS.items() if system.needs_vectors] == ["vector", "hybrid", "tree-hybrid"]


def test_the_report_names_the_embedder_of_every_walk_seeded_by_hybrid_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``graph-ranked`` and ``tree-agentic`` name no seed search, so on a collection with semantic vectors hybrid
    search seeds them: the report's ``embedder`` names the model there (it said None), as it does for
    ``tree-hybrid``; ``tree-ranked`` (BM25) and the flat BM25 baseline use none."""
    with embedded(tmp_path, monkeypatch) as corpus:
        graph = retrieve_sync(agent_request(SYSTEMS["graph-ranked"], QUESTION, 2000, "runbooks"), corpus=corpus)
        described = describe_systems(list(SYSTEMS.values()), corpus, "runbooks", None)
    assert graph.applied["seed_mode"] == "hybrid"
    assert {name: d["embedder"] for name, d in described.items()} == {
        "bm25": None, "vector": "semantic-stand-in", "hybrid": "semantic-stand-in", "tree-ranked": None,
        "tree-hybrid": "semantic-stand-in", "graph-ranked": "semantic-stand-in", "tree-agentic": "semantic-stand-in",
        "free": None}
