"""Navigation latency over a generated corpus, printed as JSON.

Builds (once, cached under ``--cache``) a Markdown corpus of ``--chunks`` passages with
``benchmarks/corpus_gen.py`` and ingests it; then, on the corpus opened read-only as the CLI
opens it, times every navigation call from random starting passages:

- ``first_touch``: the first call on a document in this process (``parent``): its
  readability and structure are read, in one statement for a principal that reads everything
  (half the starts), in two under a row filter (the other half); ``statements`` counts them,
  ``cpu_p50_ms`` is the process's CPU time (DuckDB's threads included: on a loaded machine
  wall time also counts waits for a core);
- ``warm``: the same calls again, once every document they reach has been touched.

Both are measured twice: on the corpus opened read-only (as the CLI opens it: nothing can
change it while it is open, so current versions and edges are kept too) and opened
read-write (every call asks which version is current, expansions read the edges table;
only the immutable structure and positive permission decisions are kept).

Targets (issue 4): warm p50 <= 1 ms and p99 <= 10 ms for every call. Usage::

    python benchmarks/navigation.py --chunks 1000000      # ~8 min to build the first time
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from corpus_gen import write_markdown_corpus  # noqa: E402

from clew.corpus.access import Principal, parse_filter  # noqa: E402
from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS  # noqa: E402
from clew.corpus.reader import Scope  # noqa: E402
from clew.corpus.schema import INDEXES  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402
from clew.navigation.evidence import EvidenceLedger, FetchArgs, fetch_evidence  # noqa: E402
from clew.navigation.graph import ExpandArgs, expand_neighbors  # noqa: E402
from clew.navigation.reading import (  # noqa: E402
    GetChunkArgs,
    GrepArgs,
    NavigateArgs,
    ReadArgs,
    get_chunk,
    grep,
    navigate,
    read,
)
from clew.navigation.slices import SliceArgs, fetch_slice  # noqa: E402
from clew.navigation.tree import RELATIONS, TreeArgs, navigate_document_tree  # noqa: E402
from clew.testing import recorded_statements  # noqa: E402

TARGET_P50_MS, TARGET_P99_MS = 1.0, 10.0


def build(db: Path, chunks: int) -> dict[str, float]:
    """Generate and ingest the corpus unless ``db`` exists; give older files the indexes."""
    info: dict[str, float] = {}
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=db.parent) as tmp:
            started = time.perf_counter()
            write_markdown_corpus(Path(tmp), chunks)
            info["generate_seconds"] = round(time.perf_counter() - started, 1)
            partial = db.with_suffix(".partial")
            partial.unlink(missing_ok=True)
            started = time.perf_counter()
            with Corpus(partial) as corpus:
                ingest_paths(corpus, [tmp], glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)
            info["ingest_seconds"] = round(time.perf_counter() - started, 1)
            partial.rename(db)
    with Corpus(db) as corpus:
        corpus.cursor().execute(INDEXES)
        corpus.cursor().execute("CHECKPOINT")
    return info


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50_ms": round(statistics.median(ordered) * 1e3, 3), "p99_ms": round(at(0.99) * 1e3, 3),
            "max_ms": round(ordered[-1] * 1e3, 3), "calls": len(ordered)}


def operations(scope: Scope, filtered: Scope) -> dict[str, Callable[[str, dict], object]]:
    ops: dict[str, Callable[[str, dict], object]] = {
        f"tree_{relation}": (lambda r: lambda i, s: navigate_document_tree(scope, TreeArgs(evidence_id=i,
            relation=r)))(relation)
        for relation in RELATIONS
    }
    ops |= {
        "tree_next_row_filter": lambda i, s: navigate_document_tree(filtered, TreeArgs(evidence_id=i, relation="next")),
        "get_chunk": lambda i, s: get_chunk(scope, GetChunkArgs(evidence_id=i)),
        "navigate_next": lambda i, s: navigate(scope, NavigateArgs(
            document=s["doc"], start_offset=s["start"], end_offset=s["end"], direction="next", top_k=2)),
        "navigate_previous": lambda i, s: navigate(scope, NavigateArgs(
            document=s["doc"], start_offset=s["start"], end_offset=s["end"], direction="previous", top_k=2)),
        "read_range": lambda i, s: read(scope, ReadArgs(document=s["doc"], start=s["start"], end=s["start"] + 2000,
                                                        top_k=5)),
        "read_by_key": lambda i, s: read(scope, ReadArgs(document=s["key"], start=None, end=None, top_k=5)),
        "grep_phrase": lambda i, s: grep(scope, GrepArgs(document=s["doc"], pattern=s["word"])),
        "grep_terms": lambda i, s: grep(scope, GrepArgs(document=s["doc"], pattern=f"{s['word']} {s['word2']}",
                                                        mode="term")),
        "expand_depth1": lambda i, s: expand_neighbors(scope, ExpandArgs(ids=[i])),
        "expand_depth2": lambda i, s: expand_neighbors(scope, ExpandArgs(ids=[i], depth=2)),
        "expand_links_depth2": lambda i, s: expand_neighbors(scope, ExpandArgs(ids=[i],
            relationship_types=["links_to", "next"], depth=2)),
        "fetch_slice": lambda i, s: fetch_slice(scope, SliceArgs(id=i)),
        "fetch_evidence": lambda i, s: fetch_evidence(scope, FetchArgs(ids=[i]), ledger=EvidenceLedger()),
    }
    return ops


def pick_starts(corpus: Corpus, count: int, rng: random.Random) -> list[tuple[str, dict]]:
    cur = corpus.cursor()
    documents = cur.execute("SELECT max(id) FROM documents").fetchone()[0]
    starts = []
    for doc in rng.sample(range(1, documents + 1), min(count, documents)):
        key, version, text = cur.execute(
            """SELECT d.key, d.current_version, v.text FROM documents d JOIN document_versions v
               ON v.document_id = d.id AND v.version = d.current_version WHERE d.id = ?""", [doc]).fetchone()
        size = cur.execute(
            "SELECT count(*) FROM chunks WHERE document_id = ? AND version = ?", [doc, version]
        ).fetchone()[0]
        ordinal = rng.randrange(size)
        start, end = cur.execute("SELECT start_offset, end_offset FROM chunks WHERE document_id = ? AND version = ? "
                                 "AND ordinal = ?", [doc, version, ordinal]).fetchone()
        words = text[start:end].split()
        starts.append((f"ev1:c:{doc}:{version}:{ordinal}", {
            "doc": f"ev1:d:{doc}:{version}", "key": key, "start": start, "end": end,
            "word": words[len(words) // 2].strip(".").lower(), "word2": words[-1].strip(".").lower()}))
    return starts


def measure(corpus: Corpus, starts: list[tuple[str, dict]]) -> dict[str, object]:
    scope = Scope(corpus)
    filtered = Scope(
        corpus, Principal(row_filter=parse_filter({"bool": {"must_not": [{"term": {"status": "draft"}}]}}))
    )
    ops = operations(scope, filtered)
    first_touch, first_statements = [], []
    half = len(starts) // 2  # the first half as a reader of everything, the second under a row filter
    restricted, restricted_statements = [], []
    first_cpu: tuple[list[float], list[float]] = ([], [])
    for n, (evidence_id, _) in enumerate(starts):
        with recorded_statements() as statements:
            began, cpu = time.perf_counter(), time.process_time()
            navigate_document_tree(scope if n < half else filtered, TreeArgs(evidence_id=evidence_id,
                relation="parent"))
            elapsed = time.perf_counter() - began
            first_cpu[n >= half].append(time.process_time() - cpu)
        (first_touch if n < half else restricted).append(elapsed)
        (first_statements if n < half else restricted_statements).append(len(statements))
    for op in ops.values():  # touch every document each call reaches (neighbours too)
        for evidence_id, sample in starts:
            op(evidence_id, sample)
    warm: dict[str, dict[str, float]] = {}
    for name, op in ops.items():
        samples = []
        for evidence_id, sample in starts:
            began = time.perf_counter()
            op(evidence_id, sample)
            samples.append(time.perf_counter() - began)
        warm[name] = percentiles(samples)
    return {
        "first_touch_tree_parent": {**percentiles(first_touch), "statements": statistics.mean(first_statements),
                                    "cpu_p50_ms": round(statistics.median(first_cpu[0]) * 1e3, 3)},
        "first_touch_tree_parent_row_filter": {**percentiles(restricted),
                                               "statements": statistics.mean(restricted_statements),
                                               "cpu_p50_ms": round(statistics.median(first_cpu[1]) * 1e3, 3)},
        "warm": warm,
        "warm_within_targets": sorted(
            n for n, v in warm.items() if v["p50_ms"] <= TARGET_P50_MS and v["p99_ms"] <= TARGET_P99_MS
        ),
        "warm_over_targets": sorted(
            n for n, v in warm.items() if not (v["p50_ms"] <= TARGET_P50_MS and v["p99_ms"] <= TARGET_P99_MS)
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--starts", type=int, default=400, help="random starting passages (distinct documents)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "clew-bench")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    db = args.cache / f"navigation-{args.chunks}.duckdb"
    results: dict[str, object] = {"chunks": args.chunks, "db": str(db), **build(db, args.chunks)}
    results["targets"] = {"p50_ms": TARGET_P50_MS, "p99_ms": TARGET_P99_MS}
    for read_only in (True, False):
        with Corpus(db, read_only=read_only) as corpus:
            if read_only:
                results["documents"] = corpus.cursor().execute("SELECT count(*) FROM documents").fetchone()[0]
                results["db_mb"] = round(db.stat().st_size / 2**20, 1)
            starts = pick_starts(corpus, args.starts, random.Random(args.seed))
            results["read_only" if read_only else "read_write"] = measure(corpus, starts)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
