"""Hybrid search: reciprocal rank fusion of BM25 and vectors."""

from pathlib import Path

import pytest

from clew.corpus.embedders import HashingEmbedder
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import RANK_CONSTANT, fuse, search
from clew.corpus.search.embedding import embed_missing
from clew.corpus.store import Corpus


def test_fusion_scores_and_single_retriever_documents() -> None:
    ranked = {
        "bm25": [(1, 1, 0, 9.0), (2, 1, 0, 5.0)],
        "vector": [(3, 1, 0, 0.9), (1, 1, 0, 0.8)],
    }
    fused = fuse(ranked, {"bm25": 1.0, "vector": 1.0})
    keys = [key for key, _, _ in fused]
    assert keys[0] == (1, 1, 0)  # found by both
    score = dict((key, s) for key, s, _ in fused)
    assert score[(1, 1, 0)] == pytest.approx(1 / (RANK_CONSTANT + 1) + 1 / (RANK_CONSTANT + 2))
    # a document found by one retriever only is still ranked, with that retriever's contribution alone
    only_vector = next(parts for key, _, parts in fused if key == (3, 1, 0))
    assert set(only_vector) == {"vector"} and only_vector["vector"].rank == 1
    assert score[(3, 1, 0)] == pytest.approx(1 / (RANK_CONSTANT + 1))
    # weights scale each retriever's share
    weighted = dict((k, s) for k, s, _ in fuse(ranked, {"bm25": 2.0, "vector": 0.5}))
    assert weighted[(2, 1, 0)] == pytest.approx(2.0 / (RANK_CONSTANT + 2))


def test_hybrid_search_reports_each_retrievers_rank(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Alpha\n\nThe checkpoint copies frames back into the database file.\n")
    (folder / "b.md").write_text("# Beta\n\nVacuum rebuilds the file and reclaims free pages.\n")
    (folder / "c.md").write_text("# Gamma\n\nWrite-ahead logging keeps readers and writers apart.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=64)
        embed_missing(corpus, HashingEmbedder())
        result = search(corpus, {"query": "checkpoint frames", "collection": "docs", "mode": "hybrid", "limit": 3,
                                 "embedding_model": "hashing"})
    assert result.mode == "hybrid" and result.applied["rank_constant"] == 60
    top = result.hits[0]
    assert top.document_key == "a.md" and set(top.retrievers) == {"bm25", "vector"}
    # b.md and c.md share no term with the query: only the vector retriever returns them
    rest = {h.document_key: set(h.retrievers) for h in result.hits[1:]}
    assert rest == {"b.md": {"vector"}, "c.md": {"vector"}}
