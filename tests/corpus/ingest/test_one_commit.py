"""An ingest whose documents make one batch into a corpus that holds none, or one that stores no version, is one
commit outside a bulk write (``clew.corpus.ingest.api._one_commit``): it leaves the lookup indexes in place and
checkpoints nothing itself, stores what a bulk write stores, and a process that dies after its commit keeps it. Any
other ingest is a bulk write, as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.schema import LOOKUP_INDEXES
from clew.corpus.search.api import search
from clew.corpus.store import LOOKUP_DROPPED, Corpus
from tests.conftest import write_files

PAGES = {
    "intro.md": "# Intro\n\nThe quokka lives on an island.\n\nSee [usage](usage.md).\n",
    "usage.md": "# Usage\n\nFeed the quokka leaves.\n\n## Limits\n\nNever bread. See [the intro](intro.md#intro).\n",
    "notes/faq.md": "# FAQ\n\nDoes a quokka swim? It can.\n\n| animal | island |\n| --- | --- |\n"
                    "| quokka | Rottnest |\n",
}
TABLES = ("documents", "document_versions", "nodes", "chunks", "page_offsets", "skeletons", "edges", "anchors",
          "search_docs", "search_postings", "search_terms", "search_stats", "collections")


class Spy:
    """Counts the bulk writes' lookup-index drops and the corpus's own checkpoints."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drops = 0
        self.checkpoints: list[str] = []
        drop, checkpoint = Corpus._drop_lookup_indexes, Corpus.checkpoint

        def counted_drop(corpus: Corpus) -> None:
            self.drops += 1
            drop(corpus)

        def counted_checkpoint(corpus: Corpus, when: str) -> None:
            self.checkpoints.append(when)
            checkpoint(corpus, when)

        monkeypatch.setattr(Corpus, "_drop_lookup_indexes", counted_drop)
        monkeypatch.setattr(Corpus, "checkpoint", counted_checkpoint)


def rows(corpus: Corpus) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows in order, but when they were written."""
    cur = corpus.cursor()
    when = {"document_versions": " EXCLUDE (ingested_at)", "collections": " EXCLUDE (created_at)"}
    return {table: cur.execute(f"SELECT *{when.get(table, '')} FROM {table} ORDER BY ALL").fetchall()
            for table in TABLES}


def lookup_state(corpus: Corpus) -> tuple[set[str], bool]:
    cur = corpus.cursor()
    indexes = {name for (name,) in cur.execute("SELECT index_name FROM duckdb_indexes()").fetchall()}
    dropped = cur.execute(f"SELECT count(*) FROM clew_meta WHERE key = '{LOOKUP_DROPPED}'").fetchone() == (1,)
    return indexes & set(LOOKUP_INDEXES), dropped


def answers(corpus: Corpus) -> list[list[tuple[str, float]]]:
    return [[(hit.evidence_id, round(hit.score, 6)) for hit in search(corpus, query).hits]
            for query in ("quokka", "island leaves", "bread limits", "Rottnest")]


def test_one_batch_into_a_new_corpus_is_one_commit_that_stores_what_a_bulk_write_stores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_files(tmp_path / "docs", PAGES)
    with Corpus(tmp_path / "bulk.duckdb") as corpus, corpus.bulk_write("the test's documents"):
        ingest_paths(corpus, [folder])  # inside a caller's bulk write: the lookup indexes dropped, built at its end
    spy = Spy(monkeypatch)
    with Corpus(tmp_path / "one.duckdb") as corpus:
        report = ingest_paths(corpus, [folder])
        assert (spy.drops, spy.checkpoints) == (0, [])
        assert (report.documents, report.links_resolved, report.links_dangling) == (3, 2, 0)
        assert lookup_state(corpus) == (set(LOOKUP_INDEXES), False)
        one = rows(corpus), answers(corpus)
    with Corpus(tmp_path / "bulk.duckdb", read_only=True) as bulk, \
            Corpus(tmp_path / "one.duckdb", read_only=True) as corpus:
        assert lookup_state(corpus) == lookup_state(bulk) == (set(LOOKUP_INDEXES), False)
        assert (rows(corpus), answers(corpus)) == (rows(bulk), answers(bulk)) == one
        assert any(one[1])


def test_more_batches_and_a_corpus_holding_documents_are_bulk_writes(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_files(tmp_path / "docs", PAGES)
    spy = Spy(monkeypatch)
    with Corpus(tmp_path / "batches.duckdb") as corpus:
        assert ingest_paths(corpus, [folder], batch_size=2).documents == 3
        assert spy.drops == 1
        assert {"after a bulk write", "after building the lookup indexes"} <= set(spy.checkpoints)
    with Corpus(tmp_path / "full.duckdb") as corpus:
        ingest_paths(corpus, [folder], batch_size=3)  # three files, one full batch: one commit
        assert spy.drops == 1
    with Corpus(tmp_path / "second.duckdb") as corpus:
        ingest_paths(corpus, [folder / "intro.md"])
        assert spy.drops == 1
        assert ingest_paths(corpus, [folder]).versions_created == 2  # the corpus holds a document
        assert spy.drops == 2
        assert lookup_state(corpus) == (set(LOOKUP_INDEXES), False)


def test_files_ingested_again_unchanged_are_one_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = write_files(tmp_path / "docs", PAGES)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder])
        before = rows(corpus), answers(corpus)
        size = (tmp_path / "c.duckdb").stat().st_size
        spy = Spy(monkeypatch)
        for _ in range(3):
            report = ingest_paths(corpus, [folder])
            assert (report.unchanged, report.versions_created, report.file_compacted) == (3, 0, None)
        assert (spy.drops, spy.checkpoints) == (0, [])
        assert (rows(corpus), answers(corpus)) == before
        assert lookup_state(corpus) == (set(LOOKUP_INDEXES), False)
        (folder / "usage.md").write_text("# Usage\n\nFeed the quokka leaves, never bread.\n", encoding="utf-8")
        assert ingest_paths(corpus, [folder]).versions_created == 1
        assert spy.drops == 1  # a batch that stores a version: a bulk write
    assert (tmp_path / "c.duckdb").stat().st_size <= size


def test_a_writer_with_a_row_filter_always_writes_in_a_bulk_write(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """How long a restricted writer's ingest takes must not say whether the corpus holds documents it may not read,
    nor whether a key it may not read is there (denied and missing alike)."""
    folder = write_files(tmp_path / "docs", PAGES)
    writer = Principal(name="writer", row_filter=parse_filter({"term": {"status": "published"}}))
    spy = Spy(monkeypatch)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], principal=writer)  # into a new corpus
        assert spy.drops == 1
        ingest_paths(corpus, [folder], principal=writer)  # keys it may not read: nothing written
        assert spy.drops == 2


def test_a_second_batch_after_all_makes_the_rest_a_bulk_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One file expected to be one batch holds five records: from the second batch on, the ingest is a bulk write
    (the lookup indexes dropped, built again at its end) and stores what a bulk write from the start stores."""
    records = "".join(json.dumps({"key": f"r{i}", "text": f"Record {i} about the quokka's island."}) + "\n"
                      for i in range(5))
    folder = write_files(tmp_path / "docs", {"records.jsonl": records})
    with Corpus(tmp_path / "bulk.duckdb") as corpus, corpus.bulk_write("the test's documents"):
        ingest_paths(corpus, [folder], batch_size=2)
    spy = Spy(monkeypatch)
    seen: list[bool] = []
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], batch_size=2, on_document=lambda key: seen.append(
            lookup_state(corpus)[1]))
        assert (report.documents, spy.drops) == (5, 1)
        assert seen == [False, False, False, False, True]  # dropped as the second batch (r2, r3) is handed on
        assert lookup_state(corpus) == (set(LOOKUP_INDEXES), False)
        stored = rows(corpus), answers(corpus)
    with Corpus(tmp_path / "bulk.duckdb", read_only=True) as bulk:
        assert (rows(bulk), answers(bulk)) == stored


def test_a_process_that_dies_after_the_commit_keeps_the_documents(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The file and its write-ahead log as a process that died right after the ingest's commit leaves them: copied
    before any checkpoint (the one-commit ingest's first is the file rewrite check's, left out here, or the close's)."""
    folder = write_files(tmp_path / "docs", PAGES)
    monkeypatch.setattr("clew.corpus.ingest.api.give_back_free_blocks", lambda corpus: (None, False))
    died = tmp_path / "died"
    died.mkdir()
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder])
        assert (tmp_path / "c.duckdb.wal").stat().st_size > 0
        for name in ("c.duckdb", "c.duckdb.wal"):
            shutil.copy(tmp_path / name, died / name)
        stored = rows(corpus), answers(corpus)
    with Corpus(died / "c.duckdb", read_only=True) as corpus:
        assert (rows(corpus), answers(corpus)) == stored
    with Corpus(died / "c.duckdb") as corpus:
        assert (rows(corpus), answers(corpus)) == stored
        assert lookup_state(corpus) == (set(LOOKUP_INDEXES), False)
