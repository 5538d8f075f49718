"""Search latency at scale, printed as JSON.

Builds (and caches under --cache) a clew corpus of generated Markdown: ``--chunks`` chunks of
~120 words from a Zipf vocabulary, one section each, plus random 384-dim unit vectors in the
embeddings table. Measures warm BM25 latency for three query classes (mid-frequency terms,
mixed, and only very common terms), with and without a row filter, vector and hybrid (RRF)
latency (exact: clew's in-memory matrix, loaded on the first query and timed apart), index
build time and peak memory. The baseline, measured in the same run, is
DuckDB's own fts ``match_bm25`` on a ``--baseline-chunks`` subset, against clew on a corpus
of the same size.

    python benchmarks/search.py --chunks 1000000 --baseline-chunks 100000
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import WORDS, write_markdown_corpus  # noqa: E402

from clew.corpus.access import Principal  # noqa: E402
from clew.corpus.ingest import ingest_paths  # noqa: E402
from clew.corpus.reader import Scope  # noqa: E402
from clew.corpus.search.api import fuse, ranked_lists  # noqa: E402
from clew.corpus.search.bm25 import bm25_search  # noqa: E402
from clew.corpus.search.matrix import WARM_QUERIES as WARM_VECTOR_QUERIES  # noqa: E402
from clew.corpus.search.vectors import vector_search  # noqa: E402
from clew.corpus.store import Corpus, insert_columns  # noqa: E402

CHUNK_TOKENS = 400  # pseudo-words cost ~2 tokens: a 120-word section is one chunk
MODEL = "bench-random-384"


def build(db: Path, chunks: int, work: Path, with_vectors: bool = True) -> dict:
    if db.exists():
        out: dict = {"cached": True}
        if with_vectors:
            with Corpus(db) as corpus:
                if not corpus.cursor().execute("SELECT count(*) FROM embeddings WHERE model = ?", [MODEL]).fetchone()[0]:
                    out["vector_load_seconds"] = add_vectors(corpus)
        return out
    folder = work / f"md-{chunks}"
    write_markdown_corpus(folder, chunks, words_per_section=120, sections_per_doc=20)
    started = time.perf_counter()
    # status/acl fields for filtered queries: every 10th document is a draft
    for i, path in enumerate(sorted(folder.glob("*.md"))):
        status = "draft" if i % 10 == 0 else "published"
        path.write_text(f"---\nstatus: {status}\nacl: [team{i % 20}, all]\n---\n" + path.read_text())
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [folder], glob="*.md", chunk_tokens=CHUNK_TOKENS, batch_size=512)
        ingest_seconds = time.perf_counter() - started
        vector_seconds = add_vectors(corpus) if with_vectors else 0.0
    subprocess.run(["rm", "-rf", str(folder)], check=True)
    return {"cached": False, "chunks": report.chunks, "ingest_and_index_seconds": round(ingest_seconds, 1),
            "vector_load_seconds": round(vector_seconds, 1), "db_mb": round(db.stat().st_size / 2**20)}


def queries(seed: int = 3) -> dict[str, list[str]]:
    rng = random.Random(seed)
    mid = [" ".join(rng.sample(WORDS[200:5000], rng.randint(2, 4))) for _ in range(20)]
    mixed = [" ".join(rng.sample(WORDS[:20], 1) + rng.sample(WORDS[200:20000], rng.randint(1, 3))) for _ in range(20)]
    common = [" ".join(rng.sample(WORDS[:8], 5)) for _ in range(10)]
    return {"mid": mid, "mixed": mixed, "common": common}


def timed(fn, repeats: int = 3) -> float:  # noqa: ANN001
    fn()  # warm
    return statistics.median(_once(fn) for _ in range(repeats))


def _once(fn) -> float:  # noqa: ANN001
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def summary(ms: list[float]) -> dict:
    ordered = sorted(ms)
    return {"p50_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "max_ms": round(ordered[-1], 1)}


def add_vectors(corpus: Corpus) -> float:
    """Random 384-dim unit vectors for every chunk, as model ``MODEL``; seconds taken."""
    started = time.perf_counter()
    rng = np.random.default_rng(7)
    keys = corpus.cursor().execute("SELECT document_id, version, ordinal FROM chunks ORDER BY ALL").fetchall()
    for start in range(0, len(keys), 100_000):
        part = keys[start : start + 100_000]
        vectors = rng.standard_normal((len(part), 384), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        with corpus.transaction() as tx:
            insert_columns(tx, "embeddings", {
                "document_id": [k[0] for k in part], "version": [k[1] for k in part],
                "ordinal": [k[2] for k in part], "model": [MODEL] * len(part), "vector": list(vectors)})
    return round(time.perf_counter() - started, 1)


def measure_clew(db: Path) -> dict:
    out: dict = {}
    with Corpus(db, read_only=True) as corpus:
        has_vectors = corpus.cursor().execute("SELECT count(*) FROM embeddings WHERE model = ?", [MODEL]).fetchone()[0]
        plain = Scope(corpus)
        team = Scope(corpus, Principal(name="team3", row_filter={"bool": {"must": [
            {"term": {"status": "published"}}, {"term": {"acl": "team3"}}]}}))
        all_ms: list[float] = []
        for name, qs in queries().items():
            ms = [timed(lambda q=q: bm25_search(plain, q, limit=10)) for q in qs]
            out[f"bm25_{name}"] = summary(ms)
            all_ms += ms
        out["bm25_all"] = summary(all_ms)
        filtered = [timed(lambda q=q: bm25_search(team, q, limit=10)) for qs in queries().values() for q in qs]
        out["bm25_all_with_row_filter"] = summary(filtered)
        if not has_vectors:
            return out
        rng = np.random.default_rng(11)
        vectors = rng.standard_normal((20, 384), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        for _ in range(WARM_VECTOR_QUERIES):  # a process's first vector queries are answered in DuckDB
            started = time.perf_counter()
            vector_search(plain, vectors[0], model=MODEL, limit=10)
            out["vector_in_duckdb_seconds"] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        vector_search(plain, vectors[0], model=MODEL, limit=10)  # builds the in-memory matrix once
        out["vector_matrix_load_seconds"] = round(time.perf_counter() - started, 1)
        out["vector_exact"] = summary([timed(lambda v=v: vector_search(plain, v, model=MODEL, limit=10), 2) for v in vectors])

        def hybrid(q: str, v: np.ndarray) -> None:  # clew's hybrid path, with the query vector given
            fuse(ranked_lists(plain, q, "hybrid", 20, vector=v, model=MODEL), {"bm25": 1.0, "vector": 1.0})

        mixed = queries()["mixed"]
        out["hybrid"] = summary([timed(lambda i=i: hybrid(mixed[i], vectors[i]), 2) for i in range(20)])
    return out


def measure_fts(db: Path, chunks: int) -> dict:
    import duckdb

    from clew.corpus.search.fts import load_fts  # loads the extension from its pip package by path

    con = duckdb.connect()
    load_fts(con)
    con.execute(f"ATTACH '{db}' AS src (READ_ONLY)")
    con.execute(f"CREATE TABLE docs AS SELECT row_number() OVER () AS id, body FROM src.chunks LIMIT {chunks}")
    started = time.perf_counter()
    con.execute("PRAGMA create_fts_index('docs', 'id', 'body', stemmer='english', stopwords='english', ignore='', overwrite=1)")
    build = time.perf_counter() - started
    sql = "SELECT id, fts_main_docs.match_bm25(id, ?) AS s FROM docs WHERE s IS NOT NULL ORDER BY s DESC LIMIT 10"
    all_ms = [timed(lambda q=q: con.execute(sql, [q]).fetchall(), 1) for qs in queries().values() for q in qs]
    return {"index_build_seconds": round(build, 1), "bm25_all": summary(all_ms)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=1_000_000)
    parser.add_argument("--baseline-chunks", type=int, default=100_000)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/clew-bench"))
    parser.add_argument("--no-vectors", action="store_true", help="BM25 only (vectors: benchmarks/vectors.py)")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    result: dict = {"targets": {"bm25_p50_ms": 50, "bm25_p95_ms": 200, "hybrid_p50_ms": 150}}
    big = args.cache / f"search-{args.chunks}.duckdb"
    result["build"] = build(big, args.chunks, args.cache, not args.no_vectors)
    result[f"clew_{args.chunks}"] = measure_clew(big)
    small = args.cache / f"search-{args.baseline_chunks}.duckdb"
    result["baseline_build"] = build(small, args.baseline_chunks, args.cache, not args.no_vectors)
    result[f"clew_{args.baseline_chunks}"] = measure_clew(small)
    result[f"duckdb_fts_{args.baseline_chunks}"] = measure_fts(small, args.baseline_chunks)
    ours = result[f"clew_{args.baseline_chunks}"]["bm25_all"]["p50_ms"]
    theirs = result[f"duckdb_fts_{args.baseline_chunks}"]["bm25_all"]["p50_ms"]
    result["speedup_p50_vs_match_bm25"] = round(theirs / max(ours, 0.01), 1)
    result["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
