"""A new corpus's first ingest writes its BM25 postings as compaction leaves them, so no compaction runs."""

import shutil
from pathlib import Path

import pytest

from clew.corpus.ingest import api
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search import index
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import write_files

PAGES = {
    "install.md": "# Install\n\nRun the installer with --prefix to choose the folder.\n\n## Upgrade\n\n"
    "An upgrade keeps the configuration folder.\n",
    "config.md": "# Configuration\n\nThe configuration file sets the prefix, the cache and the log level.\n",
    "cache.md": "# Cache\n\nThe cache folder holds downloaded files; clear it with --purge.\n",
}
QUERIES = ("configuration folder", "cache", "prefix installer upgrade")


def _compactions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    ran: list[str] = []
    compact = api.compact

    def counted(corpus: Corpus) -> None:
        ran.append(corpus.path)
        compact(corpus)

    monkeypatch.setattr(api, "compact", counted)
    return ran


def _state(corpus: Corpus) -> dict[str, object]:
    cur = corpus.cursor()
    return {
        "postings": cur.execute("SELECT term_id, chunk_id, tf, length FROM search_postings ORDER BY rowid").fetchall(),
        "docs": cur.execute("SELECT * FROM search_docs ORDER BY rowid").fetchall(),
        "terms": cur.execute("SELECT * FROM search_terms ORDER BY term_id").fetchall(),
        "stats": cur.execute("SELECT * FROM search_stats").fetchall(),
        "answers": [[(h.evidence_id, h.score) for h in search(corpus, {"query": q}).hits] for q in QUERIES],
    }


def test_a_first_ingest_leaves_the_index_as_compaction_would_without_running_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compaction a first ingest ran sorted a few postings, with two checkpoints of its own (a third
    of a one-file ingest's CPU). The index, byte for byte the rows a compaction writes, and every answer
    are the same."""
    ran = _compactions(monkeypatch)
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, write_files(tmp_path / "docs", PAGES), collection="docs")
        assert ran == []
        assert index.is_compact(corpus.cursor()) and not index.needs_compaction(corpus.cursor())
        first = _state(corpus)
    postings = first["postings"]
    assert isinstance(postings, list) and len(postings) > 20 and postings == sorted(postings)
    compacted = tmp_path / "compacted.duckdb"
    shutil.copyfile(db, compacted)
    with Corpus(compacted) as corpus:
        index.compact(corpus)
        assert _state(corpus) == first


def test_a_later_ingest_appends_an_unsorted_tail_and_compacts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an empty index takes its postings sorted: a second ingest's postings are the unsorted tail
    that compaction sorts once it passes ``COMPACT_SHARE``."""
    ran = _compactions(monkeypatch)
    more = write_files(
        tmp_path / "more",
        {"log.md": "# Logging\n\nThe log level is set in the configuration file or with --verbose.\n"},
    )
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, write_files(tmp_path / "docs", PAGES), collection="docs")
        first = corpus.cursor().execute("SELECT postings, sorted_postings FROM search_stats").fetchall()
        ingest_paths(corpus, more, collection="docs")
        assert ran == [str(tmp_path / "c.duckdb")]
        assert index.is_compact(corpus.cursor())
        ((postings, sorted_postings),) = (
            corpus.cursor().execute("SELECT postings, sorted_postings FROM search_stats").fetchall()
        )
    assert first[0][0] == first[0][1] and postings == sorted_postings > first[0][0]


def test_a_first_ingest_large_enough_for_dense_terms_is_compacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At ``MIN_DENSE_CHUNKS`` chunks compaction chooses the dense terms, so a first batch that large
    is written unsorted and compacted as before."""
    ran = _compactions(monkeypatch)
    monkeypatch.setattr(index, "MIN_DENSE_CHUNKS", 2)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, write_files(tmp_path / "docs", PAGES), collection="docs")
        assert len(ran) == 1
        assert index.is_compact(corpus.cursor()) and index.dense_columns(corpus.cursor())


def test_an_index_past_min_dense_chunks_that_no_compaction_saw_answers_as_its_compaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sorted first batch under ``MIN_DENSE_CHUNKS`` and later ones whose tail stays under ``COMPACT_SHARE`` cross
    it with no dense terms chosen (no compaction asked): the same answers as a compaction's dense columns give, so
    none is forced (task F2: 1,751 chunks so, 7.4 / 8.9 ms a query against a compacted copy's)."""
    ran = _compactions(monkeypatch)
    monkeypatch.setattr(index, "MIN_DENSE_CHUNKS", 5)
    monkeypatch.setattr(index, "COMPACT_SHARE", 0.9)  # the later batches' tail stays under it
    more = write_files(
        tmp_path / "more",
        {
            "log.md": "# Logging\n\nThe log level is set in the configuration file or with --verbose.\n",
            "purge.md": "# Purge\n\nA purge clears the cache folder; the configuration stays.\n",
        },
    )
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, write_files(tmp_path / "docs", PAGES), collection="docs")
        ingest_paths(corpus, more, collection="docs")
        assert ran == [] and not index.dense_columns(corpus.cursor())
        assert corpus.cursor().execute("SELECT live_chunks FROM search_stats").fetchone()[0] >= 5
        first = _state(corpus)["answers"]
    compacted = tmp_path / "compacted.duckdb"
    shutil.copyfile(db, compacted)
    with Corpus(compacted) as corpus:
        index.compact(corpus)
        assert index.dense_columns(corpus.cursor())
        answers = _state(corpus)["answers"]
    assert [[hit[0] for hit in hits] for hits in answers] == [[hit[0] for hit in hits] for hits in first]
    for hits, before in zip(answers, first, strict=True):
        assert [hit[1] for hit in hits] == pytest.approx([hit[1] for hit in before])
