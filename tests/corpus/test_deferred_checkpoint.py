"""An ingest, and an embedding run, let DuckDB's log grow to BULK_CHECKPOINT_THRESHOLD between
checkpoints (not 16 MB), checkpoint at their end, keep every commit durable, and leave the setting
as they found it."""

import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from clew.corpus.checkpoint import BULK_CHECKPOINT_THRESHOLD, default_setting
from clew.corpus.embedders import HashingEmbedder
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.embedded import embedded_models
from clew.corpus.search.embedding import embed_missing
from clew.corpus.store import Corpus
from tests.conftest import write_files


def threshold(corpus: Corpus) -> str:
    return str(corpus.cursor().execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0])


def rendered(value: str) -> str:
    """``value`` as DuckDB shows the setting (it renders sizes in binary units: '256MB' reads '244.1 MiB')."""
    with duckdb.connect() as con:
        con.execute(f"SET checkpoint_threshold = '{value}'")
        return str(con.execute("SELECT current_setting('checkpoint_threshold')").fetchone()[0])


BULK = rendered(BULK_CHECKPOINT_THRESHOLD)


def wal_bytes(db: Path) -> int:
    wal = db.with_name(db.name + ".wal")
    return wal.stat().st_size if wal.exists() else 0


def test_a_multi_batch_ingest_defers_the_checkpoint_and_restores_the_setting(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "docs", {
        f"doc{i}.md": f"# Title {i}\n\n## Part\n\nBody text about topic {i} and its widgets.\n" for i in range(12)})
    seen: list[str] = []
    with Corpus(db) as corpus:
        before = threshold(corpus)
        report = ingest_paths(corpus, [folder], batch_size=2, chunk_tokens=160,
                              on_document=lambda key: seen.append(threshold(corpus)))
        assert report.documents == 12
        assert set(seen) == {BULK}, "the threshold is raised for the length of the ingest"
        assert threshold(corpus) == before
        assert wal_bytes(db) == 0, "the one checkpoint at the end emptied the write-ahead log"
    with Corpus(db, read_only=True) as corpus:
        assert corpus.cursor().execute("SELECT count(*) FROM documents").fetchone() == (12,)


def test_overlapping_blocks_restore_a_user_setting_when_the_last_one_ends(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        corpus.cursor().execute("SET checkpoint_threshold = '32MB'")
        user = threshold(corpus)
        with corpus.deferred_checkpoint():
            with corpus.deferred_checkpoint():
                assert threshold(corpus) == BULK
            assert threshold(corpus) == BULK, "the outer block is still writing"
        assert threshold(corpus) == user


def test_a_larger_threshold_already_set_is_left_as_it_is(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        corpus.cursor().execute("SET checkpoint_threshold = '4GB'")
        user = threshold(corpus)
        assert user != BULK
        with corpus.deferred_checkpoint():
            assert threshold(corpus) == user
        assert threshold(corpus) == user


def test_a_failing_block_restores_the_setting_and_keeps_its_own_error(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        before = threshold(corpus)
        with pytest.raises(RuntimeError, match="boom"), corpus.deferred_checkpoint():
            with corpus.transaction() as cur:
                corpus.ensure_collection(cur, "kept")
            raise RuntimeError("boom")
        assert threshold(corpus) == before
    with Corpus(db, read_only=True) as corpus:
        assert corpus.collections() != [], "what was committed inside the block is kept"


def test_read_only_and_in_memory_corpora_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    Corpus(db).close()
    for corpus in (Corpus(db, read_only=True), Corpus(":memory:")):
        with corpus:
            before = threshold(corpus)
            with corpus.deferred_checkpoint():
                assert threshold(corpus) == before


def test_a_process_killed_inside_an_ingest_keeps_every_committed_batch(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "docs", {
        f"doc{i:02}.md": f"# Title {i}\n\nBody text about topic {i}.\n" for i in range(12)})
    child = textwrap.dedent(f"""
        import os, time
        from clew.corpus.ingest.api import ingest_paths
        from clew.corpus.store import Corpus
        corpus = Corpus({str(db)!r})
        def on_document(key):
            if key.startswith("doc08"):  # batches of two: doc00-doc05 are written or being written
                while corpus.cursor().execute("SELECT count(*) FROM documents").fetchone()[0] < 6:
                    time.sleep(0.01)
                print(os.path.getsize({str(db) + ".wal"!r}), flush=True)
                os._exit(9)
        ingest_paths(corpus, [{str(folder)!r}], batch_size=2, chunk_tokens=160, on_document=on_document)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    assert int(done.stdout) > 0, "the batches were in the log, not yet checkpointed, when the process died"
    with Corpus(db, read_only=True) as corpus:
        cur = corpus.cursor()
        documents = cur.execute("SELECT count(*) FROM documents").fetchone()[0]
        assert documents in (6, 8), "every committed batch is there after the log's replay"
        assert cur.execute("SELECT count(DISTINCT document_id) FROM chunks").fetchone()[0] == documents


@pytest.mark.parametrize("user", ["1000 bytes", "100KiB", "32MB", "15.2 MiB", "200 MiB"])
def test_a_smaller_user_setting_reads_back_the_same_after_every_ingest(tmp_path: Path, user: str) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        corpus.cursor().execute(f"SET checkpoint_threshold = '{user}'")
        found = threshold(corpus)
        for _ in range(3):  # DuckDB shows the value truncated: restoring it must not drift
            with corpus.deferred_checkpoint():
                assert threshold(corpus) == BULK
            assert threshold(corpus) == found


class _FailingCheckpoint:
    """A connection whose cursors fail ``CHECKPOINT`` the way DuckDB fails on a full disk."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def cursor(self) -> object:
        return _FailingCheckpointCursor(self.con.cursor())

    def __getattr__(self, name: str) -> object:
        return getattr(self.con, name)


class _FailingCheckpointCursor:
    def __init__(self, cur: duckdb.DuckDBPyConnection) -> None:
        self.cur = cur

    def execute(self, sql: str, *args: object) -> object:
        if sql.strip().upper() == "CHECKPOINT":
            raise duckdb.IOException('Could not write file "c.duckdb": No space left on device')
        return self.cur.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.cur, name)


def test_a_failed_final_checkpoint_keeps_the_ingest_and_says_so(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "docs", {f"doc{i}.md": f"# Title {i}\n\nBody {i}.\n" for i in range(6)})
    corpus = Corpus(db)
    before = threshold(corpus)
    real = corpus._con
    corpus._con = _FailingCheckpoint(real)  # type: ignore[assignment]
    with caplog.at_level("INFO", logger="clew.corpus"):
        report = ingest_paths(corpus, [folder], batch_size=2, chunk_tokens=160)
    assert report.documents == 6
    assert any("checkpoint deferred" in r.getMessage() and "No space left on device" in r.getMessage()
               for r in caplog.records)
    assert not report.compaction_deferred, "the compaction ran without the checkpoint it takes first"
    assert any("compacting without a checkpoint first" in r.getMessage() for r in caplog.records)
    assert threshold(corpus) == before, "the setting was restored before the checkpoint failed"
    corpus._con = real
    corpus.close()
    with Corpus(db, read_only=True) as reopened:
        assert reopened.cursor().execute("SELECT count(*) FROM documents").fetchone() == (6,)


def _embeddable(tmp_path: Path) -> Corpus:
    folder = write_files(tmp_path / "docs", {f"doc{i}.md": f"# Title {i}\n\nBody text {i} about widgets.\n"
                                             for i in range(6)})
    corpus = Corpus(tmp_path / "c.duckdb")
    ingest_paths(corpus, [folder], chunk_tokens=160)
    return corpus


def test_embedding_defers_the_checkpoint_and_restores_the_setting(tmp_path: Path) -> None:
    with _embeddable(tmp_path) as corpus:
        before = threshold(corpus)
        seen: list[str] = []
        report = embed_missing(corpus, HashingEmbedder(), batch_size=2,
                               progress=lambda done, total: seen.append(threshold(corpus)) if done else None)
        assert report.embedded == 6
        assert seen == [BULK] * 3, "the threshold is raised while the batches are written"
        assert threshold(corpus) == before
        assert wal_bytes(Path(corpus.path)) == 0, "the one checkpoint at the end emptied the write-ahead log"


def test_a_failed_final_checkpoint_keeps_the_vectors_and_says_so(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    corpus = _embeddable(tmp_path)
    db, real = corpus.path, corpus._con
    corpus._con = _FailingCheckpoint(real)  # type: ignore[assignment]
    with caplog.at_level("WARNING", logger="clew.corpus"):
        report = embed_missing(corpus, HashingEmbedder(), batch_size=2)
    assert report.embedded == 6
    assert any("checkpoint deferred" in r.getMessage() and "No space left on device" in r.getMessage()
               for r in caplog.records)
    corpus._con = real
    corpus.close()
    with Corpus(db) as reopened:
        assert embedded_models(reopened) == {"hashing": 6}


def test_compaction_checkpoints_first_so_that_the_batches_rows_are_not_held_in_memory_beside_it(
        tmp_path: Path) -> None:
    from clew.corpus.search import index

    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "docs", {f"doc{i}.md": f"# Title {i}\n\nBody {i} about widgets.\n"
                                             for i in range(8)})
    order: list[str] = []
    with Corpus(db) as corpus:
        real_checkpoint, real_transaction = corpus.checkpoint, corpus.transaction

        def checkpoint(when: str) -> None:
            order.append(f"checkpoint {when}")
            real_checkpoint(when)
            order.append(f"log after it: {wal_bytes(db)} bytes")

        def transaction():  # noqa: ANN202
            order.append("transaction")
            return real_transaction()

        corpus.checkpoint = checkpoint  # type: ignore[method-assign]
        corpus.transaction = transaction  # type: ignore[method-assign]
        with corpus.deferred_checkpoint():  # as an ingest writes: its log not yet checkpointed
            ingest_paths(corpus, [folder], batch_size=2, chunk_tokens=160)
            assert wal_bytes(db) > 0
            order.clear()
            index.compact(corpus)
        assert order[:3] == ["checkpoint before the index compaction", "log after it: 0 bytes", "transaction"]
        assert corpus.cursor().execute("SELECT sorted_postings = postings FROM search_stats").fetchone() == (True,)


def test_duckdbs_defaults_are_read_from_one_fresh_database_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk write, the compaction and the held postings compare a setting with DuckDB's default: a new
    in-memory database's rendering, opened once a process (about 12 ms of CPU an open), not once a write."""
    with duckdb.connect() as fresh:
        expected = {name: str(fresh.execute(f"SELECT current_setting('{name}')").fetchone()[0])
                    for name in ("checkpoint_threshold", "memory_limit")}
    default_setting.cache_clear()
    opened: list[object] = []
    real_connect = duckdb.connect

    def connect(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        opened.append(args)
        return real_connect(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(duckdb, "connect", connect)
    for _ in range(3):
        assert {name: default_setting(name) for name in expected} == expected
    assert len(opened) == 2  # one database a setting, whatever the number of writes that ask
