"""A store that fails under a write (a full disk): one clear error, exit status 3, and an answer
that says what was stored."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest import api as ingest_module
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.index import needs_compaction
from clew.corpus.store import Corpus
from clew.errors import StoreFailure


def documents(db: Path) -> int:
    with Corpus(db, read_only=True) as corpus:
        return int(corpus.cursor().execute("SELECT count(*) FROM documents").fetchone()[0])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE and SIGXFSZ as Linux has them")
def test_a_full_disk_fails_the_ingest_with_one_line_and_status_3(tmp_path: Path) -> None:
    import resource
    import signal

    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):
        (folder / f"d{i:02}.md").write_text(f"# Doc {i}\n\n" + " ".join(f"word{j} text{i}" for j in range(4000)))
    db = tmp_path / "c.duckdb"

    def full_disk_at_3_mb() -> None:  # writes past 3 MB fail with EFBIG, as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (3_000_000, 3_000_000))

    command = [sys.executable, "-m", "clew.cli", "ingest", str(folder), "--db", str(db), "--batch-size", "8"]
    failed = subprocess.run(command, preexec_fn=full_disk_at_3_mb, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "COLUMNS": "400"})
    assert failed.returncode == 3, failed.stderr
    assert "Traceback" not in failed.stderr
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {db}: writing a batch of 8 document(s) failed: ")
    assert "that batch was rolled back" in lines[0]
    stored = documents(db)  # what the message says was stored is what the file holds
    assert f"the {stored} document(s) of earlier batches are stored" in lines[0]
    assert stored % 8 == 0 and stored < 40
    # the same ingest again, with room on the disk, goes through: in this process (the failed one above is the process
    # this test is about; a second cold start imported clew's CLI again for 0.5 s of CPU)
    again = CliRunner().invoke(app, command[3:])
    assert again.exit_code == 0, again.output
    assert documents(db) == 40


def fail_compaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compaction's writes fail the way DuckDB fails on a full disk."""

    def full_disk(corpus: Corpus) -> None:
        with corpus.transaction():
            raise duckdb.IOException('Could not write file "c.duckdb": No space left on device')

    monkeypatch.setattr(ingest_module, "compact", full_disk)


def test_a_failed_compaction_keeps_the_batch_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture, acme_path: Path) -> None:
    real_compact = ingest_module.compact
    with Corpus(tmp_path / "c.duckdb") as corpus:  # a first ingest writes its postings sorted: no compaction
        first = tmp_path / "first.md"
        first.write_text("# First\n\nA short note before the notes.\n", encoding="utf-8")
        before = ingest_paths(corpus, [first]).chunks
    fail_compaction(monkeypatch)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        with caplog.at_level(logging.WARNING, logger="clew.corpus.ingest"):
            report = ingest_paths(corpus, [acme_path], chunk_tokens=160)
        assert (report.versions_created, report.compaction_deferred) == (1, True)
        assert any("compaction deferred" in r.getMessage() and "No space left on device" in r.getMessage()
                   for r in caplog.records)
        assert corpus.cursor().execute("SELECT count(*) FROM chunks").fetchone()[0] == before + report.chunks > before
        with corpus.transaction() as cur:
            assert needs_compaction(cur)  # the index was left as it was
        monkeypatch.setattr(ingest_module, "compact", real_compact)
        later = ingest_paths(corpus, [acme_path], chunk_tokens=160)  # the next write compacts it
        assert (later.unchanged, later.compaction_deferred) == (1, False)
        with corpus.transaction() as cur:
            assert not needs_compaction(cur)


def test_a_write_that_fails_in_the_store_is_a_store_failure_and_rolled_back(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        with pytest.raises(StoreFailure, match=r"c\.duckdb: a write failed: .*disk full; it was rolled back"):
            with corpus.transaction() as cur:
                corpus.ensure_collection(cur, "kept?")
                raise duckdb.IOException("disk full")
        assert corpus.collections() == []
