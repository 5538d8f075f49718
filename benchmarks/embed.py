"""The write side of ``clew embed`` at scale, printed as JSON.

A generated Markdown corpus (default 100,000 chunks, ``corpus_gen``) is ingested once; each run
embeds a fresh copy of that file with ``embed_missing`` in a child process (so that its peak
RSS is its own), with an embedder of constant, tiny cost (seeded random unit vectors, 384
dimensions), so that what is timed is clew's reading of the chunks and DuckDB's writing of the
vectors, not a model. Three settings, interleaved, median of ``--rounds``:

- ``shipped``: vectors committed every ``COMMIT_ROWS`` (1,024) or ``COMMIT_SECONDS``, DuckDB's
  write-ahead log allowed to grow to ``BULK_CHECKPOINT_THRESHOLD`` with one checkpoint at the
  end (``Corpus.bulk_write``);
- ``commit_per_batch``: the same checkpoint, a commit after every model batch of 64;
- ``before``: a commit after every model batch and DuckDB's own checkpoint threshold (16 MiB),
  a checkpoint every few batches: what ``embed_missing`` did before both.

All must store the same number of vectors (``embedded``); the ratios are each setting's
seconds over ``shipped``'s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import write_markdown_corpus  # noqa: E402


class RandomEmbedder:
    """Seeded random unit vectors: the same cost per text whatever the text."""

    name = "random"

    def __init__(self, dimensions: int) -> None:
        self.dimensions = dimensions
        self._rng = np.random.default_rng(0)

    def embed(self, texts: list[str]) -> np.ndarray:
        matrix = self._rng.standard_normal((len(texts), self.dimensions)).astype(np.float32)
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def child(db: str, mode: str, dimensions: int) -> None:
    from clew.corpus.search import embedding
    from clew.corpus.store import Corpus

    if mode in ("commit_per_batch", "before"):
        embedding.COMMIT_ROWS = 1
    if mode == "before":  # DuckDB checkpoints whenever its log passes 16 MiB
        Corpus.bulk_write = lambda self, what: contextlib.nullcontext()  # type: ignore[method-assign,assignment]
    started, cpu = time.perf_counter(), time.process_time()
    with Corpus(db) as corpus:
        report = embedding.embed_missing(corpus, RandomEmbedder(dimensions))
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    print(json.dumps({
        "embedded": report.embedded, "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
        "chunks_per_second": round(report.embedded / seconds, 1),
        "peak_memory_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "db_mb": round(Path(db).stat().st_size / 2**20, 1),
    }))


def ingest(folder: Path, db: Path) -> dict[str, float]:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.store import Corpus

    started = time.perf_counter()
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [folder], glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)
    return {"chunks": report.chunks, "ingest_seconds": round(time.perf_counter() - started, 2)}


def measure(source: Path, work: Path, mode: str, dimensions: int) -> dict:
    db = work / f"{mode}.duckdb"
    shutil.copyfile(source, db)
    out = subprocess.run([sys.executable, __file__, "--child", str(db), mode, str(dimensions)],
                         check=True, capture_output=True, text=True)
    db.unlink()
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", nargs=3)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    modes = ["shipped", "commit_per_batch", "before"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_markdown_corpus(work / "generated", args.chunks)
        source = work / "source.duckdb"
        results: dict[str, object] = {"corpus": ingest(work / "generated", source), "dimensions": args.dims}
        runs: dict[str, list[dict]] = {m: [] for m in modes}
        for r in range(args.rounds):
            for mode in modes[r % len(modes):] + modes[: r % len(modes)]:
                runs[mode].append(measure(source, work, mode, args.dims))
    embedded = {run["embedded"] for mode in modes for run in runs[mode]}
    if len(embedded) != 1:
        sys.exit(f"the settings stored different numbers of vectors: {sorted(embedded)}")
    for mode in modes:
        ordered = sorted(runs[mode], key=lambda run: run["seconds"])
        results[mode] = {**ordered[len(ordered) // 2], "seconds_per_round": [run["seconds"] for run in runs[mode]]}
    for mode in modes[1:]:
        results[f"{mode}_over_shipped"] = {
            key: round(statistics.median(run[key] for run in runs[mode])
                       / statistics.median(run[key] for run in runs["shipped"]), 2)
            for key in ("seconds", "cpu_seconds")}
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
