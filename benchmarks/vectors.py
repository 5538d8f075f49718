"""Exact vector search latency at scale, printed as JSON.

Builds a corpus file with the real schema and N chunk vectors (default 1,000,000 x 384,
random unit vectors, written straight into ``embeddings`` with numpy + Arrow; documents of
20 chunks each, every tenth document in team "t3"), then times 30 queries, p50/p95, for:

- ``duckdb``: ``clew.corpus.search.vectors.vector_search`` as shipped (one DuckDB query:
  dot product over every readable current chunk, top-k, permissions inside the query),
  without and with a row filter (a principal that may read 10% of the documents);
- ``duckdb_bare``: the same dot product and top-k over the embeddings table alone (no joins,
  no permissions): the floor of any DuckDB-side exact search;
- ``numpy``: the alternative of a matrix loaded once per process: one matmul + argpartition,
  the filter applied as a row mask from the documents the scope may read (asked in SQL).

Target for the hybrid path: p50 <= 150 ms at 1M chunks. No approximate index is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clew.corpus.access import Principal, parse_filter  # noqa: E402
from clew.corpus.reader import Scope  # noqa: E402
from clew.corpus.search.vectors import vector_search  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402

MODEL = "bench"
CHUNKS_PER_DOCUMENT = 20
SLICE = 100_000


def build(corpus: Corpus, chunks: int, dims: int, seed: int) -> float:
    """Fill the corpus: one collection, documents, versions, and ``chunks`` unit vectors."""
    started = time.perf_counter()
    documents = (chunks + CHUNKS_PER_DOCUMENT - 1) // CHUNKS_PER_DOCUMENT
    rng = np.random.default_rng(seed)
    with corpus.transaction() as cur:
        cid = corpus.ensure_collection(cur, "bench")
        ids = np.arange(1, documents + 1, dtype=np.int64)
        cur.register("docs", pa.table({
            "id": ids, "collection_id": pa.array(np.full(documents, cid, dtype=np.int32)),
            "key": pa.array([f"doc-{i}" for i in ids]), "current_version": pa.array(np.ones(documents, dtype=np.int32)),
        }))
        cur.execute("INSERT INTO documents SELECT * FROM docs")
        cur.execute("""INSERT INTO document_versions (document_id, version, content_hash, format, title, fields,
                        text, chunking)
                       SELECT id, 1, 'h' || id, 'text', key, json_object('team', 't' || (id % 10)), '', 'bench'
                       FROM docs""")
        cur.unregister("docs")
    for start in range(0, chunks, SLICE):
        count = min(SLICE, chunks - start)
        rows = np.arange(start, start + count, dtype=np.int64)
        vectors = rng.standard_normal((count, dims), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        table = pa.table({
            "document_id": rows // CHUNKS_PER_DOCUMENT + 1, "version": pa.array(np.ones(count, dtype=np.int32)),
            "ordinal": pa.array((rows % CHUNKS_PER_DOCUMENT).astype(np.int32)), "model": pa.array([MODEL] * count),
            "vector": pa.ListArray.from_arrays(pa.array(np.arange(0, (count + 1) * dims, dims, dtype=np.int32)),
                                               pa.array(vectors.ravel())),
        })
        with corpus.transaction() as cur:
            cur.register("vecs", table)
            cur.execute("INSERT INTO embeddings SELECT * FROM vecs")
            cur.unregister("vecs")
    corpus.cursor().execute("CHECKPOINT")
    return time.perf_counter() - started


def summarise(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(ms[int(round(0.95 * (len(ms) - 1)))], 1),
            "min_ms": round(ms[0], 1), "max_ms": round(ms[-1], 1)}


def timed(run: Any, queries: np.ndarray) -> tuple[dict[str, float], list[Any]]:
    run(queries[0])  # warm caches once
    times, results = [], []
    for q in queries:
        started = time.perf_counter()
        results.append(run(q))
        times.append(time.perf_counter() - started)
    return summarise(times), results


class NumpyIndex:
    """Vectors of one model loaded once per process; permissions as a row mask per query."""

    def __init__(self, corpus: Corpus, model: str) -> None:
        arrow = corpus.cursor().execute(
            "SELECT document_id, version, ordinal, vector FROM embeddings WHERE model = ?", [model]).to_arrow_table()
        self.documents = arrow.column("document_id").to_numpy()
        self.versions = arrow.column("version").to_numpy()
        self.ordinals = arrow.column("ordinal").to_numpy()
        flat = arrow.column("vector").combine_chunks()
        dims = len(flat[0])
        self.matrix = flat.flatten().to_numpy().reshape(-1, dims)

    def search(self, scope: Scope, vector: np.ndarray, limit: int) -> list[tuple[int, int, int, float]]:
        # (a real one would also check current versions; every version here is current)
        rows = None
        if scope.principal.row_filter is not None or scope.filter is not None or scope.collection is not None:
            params: list[Any] = []
            predicate = scope.predicate(params)
            allowed = scope.cursor().execute(
                f"""SELECT d.id FROM documents d JOIN collections col ON col.id = d.collection_id
                    JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
                    WHERE {predicate}""", params).fetchnumpy()["id"]
            readable = np.zeros(int(self.documents.max()) + 1, dtype=bool)
            readable[allowed] = True
            rows = np.flatnonzero(readable[self.documents])  # score only the readable rows
        scores = self.matrix @ vector if rows is None else self.matrix[rows] @ vector
        k = min(limit, len(scores))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        at = top if rows is None else rows[top]
        return [(int(self.documents[i]), int(self.versions[i]), int(self.ordinals[i]), float(s))
                for i, s in zip(at, scores[top], strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--dims", type=int, default=384)
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--db", type=Path, help="Reuse or create this file (default: a temporary one).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or Path(tmp) / "vectors.duckdb"
        fresh = not path.exists()
        corpus = Corpus(path)
        build_seconds = build(corpus, args.chunks, args.dims, seed=7) if fresh else None
        stored = corpus.cursor().execute("SELECT count(*) FROM embeddings WHERE model = ?", [MODEL]).fetchone()[0]
        rng = np.random.default_rng(11)
        queries = rng.standard_normal((args.queries, args.dims), dtype=np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        everyone = Scope(corpus)
        team = Scope(corpus, Principal(name="t3", row_filter=parse_filter({"term": {"team": "t3"}})))

        results: dict[str, Any] = {
            "chunks": stored, "dims": args.dims, "queries": args.queries, "limit": args.limit,
            "build_seconds": round(build_seconds, 1) if build_seconds is not None else None,
            "db_mb": round(path.stat().st_size / 2**20), "duckdb_threads": corpus.cursor().execute(
                "SELECT current_setting('threads')").fetchone()[0],
        }
        results["duckdb"], plain = timed(lambda q: vector_search(everyone, q, model=MODEL, limit=args.limit), queries)
        results["duckdb_filtered"], filtered = timed(
            lambda q: vector_search(team, q, model=MODEL, limit=args.limit), queries)
        results["duckdb_bare"], _ = timed(lambda q: corpus.cursor().execute(
            """SELECT document_id, version, ordinal, list_dot_product(vector, ?::FLOAT[]) AS s FROM embeddings
               WHERE model = ? ORDER BY s DESC LIMIT ?""", [q.tolist(), MODEL, args.limit]).fetchall(), queries)

        started = time.perf_counter()
        index = NumpyIndex(corpus, MODEL)
        results["numpy_load_seconds"] = round(time.perf_counter() - started, 2)
        results["numpy_matrix_mb"] = round(index.matrix.nbytes / 2**20)
        results["numpy"], np_plain = timed(lambda q: index.search(everyone, q, args.limit), queries)
        results["numpy_filtered"], np_filtered = timed(lambda q: index.search(team, q, args.limit), queries)
        same = all([r[:3] for r in a] == [r[:3] for r in b] for a, b in zip(plain, np_plain, strict=True))
        same_filtered = all(
            [r[:3] for r in a] == [r[:3] for r in b] for a, b in zip(filtered, np_filtered, strict=True)
        )
        results["numpy_agrees_with_duckdb"] = same and same_filtered
        results["filtered_hits_all_team_t3"] = all(d % 10 == 3 for hits in filtered for d, *_ in hits)
        results["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        results["load_average_1m"] = round(os.getloadavg()[0], 2)  # other work on the machine skews latency
        results["target_hybrid_p50_ms"] = 150
        corpus.close()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
