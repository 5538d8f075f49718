"""Kill a real ingest process mid-run: every batch is all or nothing."""

import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from corpus_gen import write_markdown_corpus

BATCH = 40


def consistent_versions(corpus: Corpus) -> int:
    """Check every stored version: chunks tile its text. Returns the number of versions."""
    cur = corpus.cursor()
    versions = cur.execute("SELECT document_id, version, text FROM document_versions").fetchall()
    bodies: dict[tuple[int, int], list[tuple[int, int, str]]] = defaultdict(list)
    for doc_id, version, start, end, body in cur.execute(  # every chunk at once, not a query a version
        "SELECT document_id, version, start_offset, end_offset, body FROM chunks ORDER BY document_id, version, ordinal"
    ).fetchall():
        bodies[(doc_id, version)].append((start, end, body))
    for doc_id, version, text in versions:
        chunks = bodies.get((doc_id, version))
        assert chunks, f"version {doc_id}/{version} has no chunks"
        assert "".join(b[2] for b in chunks) == text
        assert all(text[s:e] == body for s, e, body in chunks)
    return len(versions)


def test_killed_ingest_leaves_whole_batches(tmp_path: Path, acme_path: Path) -> None:
    db = tmp_path / "corpus.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [acme_path], collection="big", chunk_tokens=160)
    folder = tmp_path / "big"
    total = write_markdown_corpus(folder, 6_400, sections_per_doc=20)  # 320 documents, 8 batches: the
    # kill comes after the first (the rest of the run is more than 2 s of CPU); 600 cost 3 s more to ingest again
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "clew.cli", "ingest", str(folder), "--db", str(db), "--collection", "big",
         "--batch-size", str(BATCH), "--json"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    wal = Path(f"{db}.wal")
    deadline = time.monotonic() + 120
    while not (wal.exists() and wal.stat().st_size > 0):  # until a batch commits (DuckDB appends it to the WAL)
        assert process.poll() is None, "the ingest finished before it could be killed; make the corpus larger"
        assert time.monotonic() < deadline, "the ingest wrote nothing in two minutes"
        time.sleep(0.05)
    assert process.poll() is None, "the ingest finished before it could be killed; make the corpus larger"
    process.send_signal(signal.SIGKILL)
    process.wait()
    with Corpus(db) as corpus:
        documents = corpus.cursor().execute("SELECT count(*) FROM documents").fetchone()[0]
        assert consistent_versions(corpus) == documents
        written = documents - 1  # acme-notes.md was there before
        assert 0 <= written < total
        assert written % BATCH == 0, f"{written} documents: a batch was half written"
        assert corpus.cursor().execute("SELECT count(*) FROM documents WHERE key = 'acme-notes.md'").fetchone()[0] == 1
        # the interrupted work can simply be run again
        report = ingest_paths(corpus, [folder], collection="big", chunk_tokens=DEFAULT_CHUNK_TOKENS, batch_size=400)
        assert report.unchanged == written and report.versions_created == total - written
        assert consistent_versions(corpus) == total + 1
