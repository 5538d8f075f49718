"""Ingest throughput and peak memory, printed as JSON.

Two corpora: the shared SQLite documentation (if it is beside the checkout) and a generated
Markdown corpus (default 100,000 chunks). Each is ingested into a fresh DuckDB file by a
child process so that its peak RSS is its own; the peak of its parsing worker processes (one
per CPU for big ingests) is reported beside it. Targets on a 2-core machine:
>= 2,000 chunks/s without embeddings, peak memory <= 2 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import write_markdown_corpus  # noqa: E402


def child(path: str, db: str, glob: str) -> None:
    from clew.corpus.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.ingest import ingest_paths
    from clew.corpus.store import Corpus

    started = time.perf_counter()
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [path], glob=glob, chunk_tokens=DEFAULT_CHUNK_TOKENS)
    seconds = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker_peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({
        "documents": report.documents, "chunks": report.chunks, "skipped": report.skipped,
        "seconds": round(seconds, 2), "chunks_per_second": round(report.chunks / seconds, 1),
        "peak_memory_mb": round(peak_mb, 1), "worker_peak_memory_mb": round(worker_peak_mb, 1),
        "db_mb": round(Path(db).stat().st_size / 2**20, 1),
    }))


def measure(path: Path, glob: str, workdir: Path) -> dict:
    db = workdir / f"{path.name}.duckdb"
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), str(db), glob], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--child", nargs=3)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    results: dict[str, object] = {"targets": {"chunks_per_second": 2000, "peak_memory_mb": 2048}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sqlite_docs = ROOT.parent / "shared" / "evals" / "sqlite-docs" / "corpus"
        if sqlite_docs.is_dir():
            results["sqlite_docs"] = measure(sqlite_docs, "*.html", work)
        generated = work / "generated"
        started = time.perf_counter()
        write_markdown_corpus(generated, args.chunks)
        results["generation_seconds"] = round(time.perf_counter() - started, 2)
        results["generated_markdown"] = measure(generated, "*.md", work)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
