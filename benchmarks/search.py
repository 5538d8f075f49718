"""Search latency and answers at scale, against bm25s and DuckDB fts on the same chunks, as JSON.

For each ``--scales`` size, builds (and caches under ``--cache``) a clew corpus of generated
Markdown (~120 pseudo-words a chunk from a Zipf vocabulary, one section each), opens it
read-only as a search service would, and measures BM25 over four query classes (``rare``:
2-3 long-tail terms; ``mid``: 2-4 mid-frequency terms; ``mixed``: one very common term and
1-3 others; ``common``: five of the eight most common terms) against two peers indexed from the
same chunks:

- bm25s (Lucene idf, the same k1 and b), given clew's own tokens (its index is built from the
  corpus's postings, so documents and lengths are identical);
- DuckDB's fts ``match_bm25`` over the same indexed text (heading path and body), configured
  as identifier-rich text needs: ``stemmer='english'``, clew's stopwords,
  ``ignore='(\\.|[^a-z0-9])+'`` (its default and ``ignore=''`` drop digits or split into
  characters). Its answers are checked before it is timed: a query that finds nothing stops
  the run. fts runs up to ``--fts-max-chunks`` (default 100,000; its per-row scoring took
  1.3-2.4 s a query there on this project's loaded 2-core machine).

Every query is timed once per round on each system in turn (the order rotates), ``--rounds``
rounds, and each query's median is summarised as p50/p95/max per class. Answers: overlap@10
with clew's top 10 (shared hits over the longer list: a rare query may find fewer than 10), and *agreement*: the
share of queries for which clew's top 10 is a valid
top 10 under the peer's own scores (tie-aware: clew's 10th scored by the peer reaches the
peer's 10th score). Beside wall time, each call's CPU time on the calling thread
(``time.thread_time``; ``*_cpu``) is summarised the same way: on a shared, loaded machine it
leaves out the waits for a core. clew's in-memory path and bm25s run on the calling thread
alone; DuckDB's fts also runs on DuckDB's worker threads, so only its wall time counts. clew is also timed with a
principal's row filter (status and acl), from the postings held in memory and, as its baseline
in the same run, in SQL (``clew_row_filter_sql``: the route of a read-write corpus, and the one
every restricted principal took before; the two must return the same hits); and, with
``--vectors``, exact vector and hybrid search at the largest scale. ``--peers`` picks the outside
peers (``--peers ''`` times clew alone: bm25s's index at 1M takes gigabytes and minutes).

Memory of a search service: at each scale a fresh child process opens the corpus read-only and
answers every query of every class twice, once for everyone and once under the principal's row
filter, through the public ``clew.search`` as a service would (its in-memory index loaded);
its peak RSS is ``serve_peak_memory_mb`` (target: at most 1,024 MB at 1M chunks). The parent's
``peak_memory_mb`` includes building the corpora and the peers' indexes.

bm25s's time depends on numpy: on numpy 2.x its top-k (``argpartition`` over a score array
that is almost all zeros) is several times slower on this machine's CPU than on numpy 1.26. So
bm25s runs on the numpy installed here *and*, when a folder holding numpy 1.26 is given
(``--numpy-1-26 DIR``, made with ``pip install --target DIR numpy==1.26.4 "pyarrow<20"``, as
pyarrow 20 and later need numpy 2; default ``<cache>/numpy-1.26``), again in a child process
that imports numpy from there (clew too, both on the same numpy), reported under
``numpy_1_26``; without it, ``numpy_1_26`` says why it did not run.

    python benchmarks/search.py --scales 100000,200000,1000000
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import WORDS, write_markdown_corpus  # noqa: E402

from clew.corpus.access import Principal  # noqa: E402
from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.reader import Scope  # noqa: E402
from clew.corpus.search import postings  # noqa: E402
from clew.corpus.search.bm25 import K1, B, bm25_search  # noqa: E402
from clew.corpus.sql import insert_columns  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402
from clew.corpus.tokenize import STOPWORDS, tokenize  # noqa: E402

CHUNK_TOKENS = 400  # pseudo-words cost ~2 tokens: a 120-word section is one chunk
MODEL = "bench-random-384"
K = 10
CLASSES = ("rare", "mid", "mixed", "common")


def build(db: Path, chunks: int, work: Path, with_vectors: bool = False) -> dict:
    if db.exists():
        out: dict = {"cached": True}
        if with_vectors:
            with Corpus(db) as corpus:
                if (
                    not corpus.cursor()
                    .execute("SELECT count(*) FROM embeddings WHERE model = ?", [MODEL])
                    .fetchone()[0]
                ):
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


def queries(seed: int = 3) -> dict[str, list[str]]:
    rng = random.Random(seed)
    return {
        "rare": [" ".join(rng.sample(WORDS[20000:], rng.randint(2, 3))) for _ in range(20)],
        "mid": [" ".join(rng.sample(WORDS[200:5000], rng.randint(2, 4))) for _ in range(20)],
        "mixed": [" ".join(rng.sample(WORDS[:20], 1) + rng.sample(WORDS[200:20000], rng.randint(1, 3)))
                  for _ in range(20)],
        "common": [" ".join(rng.sample(WORDS[:8], 5)) for _ in range(10)],
    }


def summary(ms: list[float]) -> dict:
    ordered = sorted(ms)
    return {"p50_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2),
            "max_ms": round(ordered[-1], 2)}


def query_terms(query: str) -> list[str]:
    return sorted(set(tokenize(query)))


class Chunks:
    """The live chunks of a corpus in chunk-id order: the row numbers every system shares."""

    def __init__(self, corpus: Corpus) -> None:
        keys = corpus.cursor().execute(
            "SELECT document_id, version, ordinal FROM search_docs WHERE live ORDER BY chunk_id").fetchall()
        self.keys = keys
        self.row = {key: i for i, key in enumerate(keys)}


class Clew:
    name = "clew"

    def __init__(self, corpus: Corpus, chunks: Chunks, principal: Principal | None = None) -> None:
        self.scope = Scope(corpus, principal or Principal())
        self.chunks = chunks

    def top(self, query: str) -> list[tuple[int, float]]:
        return [(self.chunks.row[(h.document_id, h.version, h.ordinal)], h.score)
                for h in bm25_search(self.scope, query, limit=K)]


class ClewSql(Clew):
    """The same principal scored in SQL, as if no postings were held."""

    name = "clew_row_filter_sql"

    def top(self, query: str) -> list[tuple[int, float]]:
        from clew.corpus.search import bm25, stats

        held, loaded = bm25.memory_postings, stats.loaded_postings  # where each is looked up at a query
        bm25.memory_postings = stats.loaded_postings = lambda *args, **kwargs: None  # type: ignore[assignment]
        try:
            return super().top(query)
        finally:
            bm25.memory_postings, stats.loaded_postings = held, loaded  # type: ignore[assignment]


class Bm25s:
    """bm25s indexed from clew's postings: each chunk's term ids, repeated tf times."""

    name = "bm25s"

    def __init__(self, corpus: Corpus, chunks: Chunks) -> None:
        import bm25s

        cur = corpus.cursor()
        started = time.perf_counter()
        terms = cur.execute("SELECT term_id, term FROM search_terms WHERE df > 0 ORDER BY term_id").fetchall()
        slot = {term_id: i for i, (term_id, _) in enumerate(terms)}
        vocab = {term: i for i, (_, term) in enumerate(terms)}
        pool = list(range(len(terms) + 1))  # shared int objects: a token costs one list slot
        cols = cur.execute("""SELECT p.chunk_id, p.term_id, p.tf FROM search_postings p
                              JOIN search_docs s ON s.chunk_id = p.chunk_id WHERE s.live
                              ORDER BY p.chunk_id""").fetchnumpy()
        remap = np.zeros(max(slot) + 1, dtype=np.int64)
        remap[list(slot)] = list(slot.values())
        tf = cols["tf"].astype(np.int64)
        ids = np.repeat(remap[cols["term_id"]], tf)
        starts = np.flatnonzero(np.diff(cols["chunk_id"], prepend=-1))  # postings come in chunk order
        bounds = np.concatenate(([0], np.cumsum(tf)))[np.append(starts, len(tf))]
        del cols, tf
        docs = [[pool[i] for i in ids[bounds[j]:bounds[j + 1]].tolist()] for j in range(len(bounds) - 1)]
        del ids
        if len(docs) != len(chunks.keys):
            raise SystemExit(f"bm25s: {len(docs)} documents from the postings, {len(chunks.keys)} live chunks")
        self.retriever = bm25s.BM25(k1=K1, b=B, method="lucene")
        self.retriever.index((docs, vocab), show_progress=False, create_empty_token=False)
        del docs
        gc.collect()
        self.build_seconds = round(time.perf_counter() - started, 1)

    def top(self, query: str) -> list[tuple[int, float]]:
        terms = [t for t in query_terms(query) if t in self.retriever.vocab_dict]
        if not terms:
            return []
        rows, scores = self.retriever.retrieve([terms], k=K, show_progress=False, n_threads=0)
        return [(int(r), float(s)) for r, s in zip(rows[0], scores[0], strict=True) if s > 0]

    def scores(self, query: str, rows: list[int]) -> list[float]:
        terms = [t for t in query_terms(query) if t in self.retriever.vocab_dict]
        return [float(s) for s in self.retriever.get_scores(terms)[rows]] if terms else [0.0] * len(rows)


class Fts:
    """DuckDB fts over the same indexed text, configured for identifier-rich text."""

    name = "fts"

    def __init__(self, db: Path, chunks: Chunks) -> None:
        import duckdb

        from clew.corpus.search.fts import load_fts

        self.con = duckdb.connect()
        load_fts(self.con)
        self.con.execute(f"ATTACH '{db}' AS src (READ_ONLY)")
        self.con.execute("CREATE TABLE clew_stopwords AS SELECT unnest(?::VARCHAR[]) AS sw", [sorted(STOPWORDS)])
        self.con.execute(
            """CREATE TABLE docs AS
               SELECT row_number() OVER (ORDER BY s.chunk_id) - 1 AS id,
                      concat_ws(chr(10), nullif(array_to_string(c.heading_path, ' > '), ''), nullif(c.header, ''),
                      c.body) AS body
               FROM src.search_docs s JOIN src.chunks c
                 ON c.document_id = s.document_id AND c.version = s.version AND c.ordinal = s.ordinal
               WHERE s.live"""
        )
        self.con.execute("DETACH src")
        started = time.perf_counter()
        self.con.execute("""PRAGMA create_fts_index('docs', 'id', 'body', stemmer='english', stopwords='clew_stopwords',
                            ignore='(\\.|[^a-z0-9])+', strip_accents=0, lower=1, overwrite=1)""")
        self.build_seconds = round(time.perf_counter() - started, 1)
        self.sql = f"""SELECT id, s FROM (SELECT id, fts_main_docs.match_bm25(id, ?, k := {K1}, b := {B}) AS s FROM
                       docs)
                       WHERE s IS NOT NULL ORDER BY s DESC, id LIMIT {K}"""

    def top(self, query: str) -> list[tuple[int, float]]:
        return [(int(i), float(s)) for i, s in self.con.execute(self.sql, [query]).fetchall()]

    def scores(self, query: str, rows: list[int]) -> list[float]:
        found = dict(
            self.con.execute(
                """SELECT id, fts_main_docs.match_bm25(id, ?, k := ?, b := ?) FROM docs WHERE id IN (SELECT
                    unnest(?::BIGINT[]))""",
                [query, K1, B, rows],
            ).fetchall()
        )
        return [float(found.get(r) or 0.0) for r in rows]


def agreement(ours: list[tuple[int, float]], theirs: list[tuple[int, float]], scored: list[float]) -> bool:
    """Is ``ours`` a valid top K under the peer's scores (``scored``: the peer's score of each of ours)?"""
    if len(ours) != len(theirs):
        return False
    if not ours:
        return True
    kth = theirs[-1][1]
    return min(scored) >= kth - 1e-4 * max(abs(kth), 1.0)


def measure_scale(db: Path, rounds: int, with_fts: bool, with_bm25s: bool = True) -> dict:
    out: dict = {}
    with Corpus(db, read_only=True) as corpus:
        chunks = Chunks(corpus)
        out["chunks"] = len(chunks.keys)
        by_class = queries()
        clew = Clew(corpus, chunks)
        team3 = Principal(name="team3", row_filter={"bool": {"must": [
            {"term": {"status": "published"}}, {"term": {"acl": "team3"}}]}})
        team, team_sql = Clew(corpus, chunks, team3), ClewSql(corpus, chunks, team3)
        for _ in range(postings.WARM_QUERIES):  # the queries a process answers in SQL before loading
            clew.top(by_class["mid"][0])
        started = time.perf_counter()
        clew.top(by_class["mid"][0])
        out["clew_postings_load_seconds"] = round(time.perf_counter() - started, 1)
        index = postings._loaded.get(corpus)
        out["clew_in_memory"] = index is not None
        if index is not None:
            out["clew_index_mb"] = round(index.nbytes() / 2**20)
        peers: list = []
        if with_bm25s:
            peers.append(Bm25s(corpus, chunks))
            out["bm25s_build_seconds"] = peers[0].build_seconds
        if with_fts:
            peers.append(Fts(db, chunks))
            out["fts_build_seconds"] = peers[-1].build_seconds
        systems: list = [clew, team, team_sql, *peers]
        names = ["clew", "clew_row_filter", "clew_row_filter_sql", *(p.name for p in peers)]
        flat = [(cls, q) for cls in CLASSES for q in by_class[cls]]
        answers = {name: [system.top(q) for _, q in flat] for name, system in zip(names, systems, strict=True)}
        same = [[r for r, _ in a] == [r for r, _ in b] and all(abs(x - y) <= 1e-5 * max(1.0, abs(y))
                                                                for (_, x), (_, y) in zip(a, b, strict=True))
                for a, b in zip(answers["clew_row_filter"], answers["clew_row_filter_sql"], strict=True)]
        out["row_filter_held_equals_sql"] = f"{sum(same)}/{len(same)}"
        for peer in peers:  # check a baseline's answers before timing it
            empty = [q for (_, q), hits in zip(flat, answers[peer.name], strict=True) if not hits]
            if empty:
                raise SystemExit(
                    f"{peer.name} finds nothing for {len(empty)} queries (e.g. {empty[0]!r}): misconfigured"
                )
        times: dict[str, list[list[float]]] = {name: [[] for _ in flat] for name in names}
        cpu: dict[str, list[list[float]]] = {name: [[] for _ in flat] for name in names}
        for r in range(rounds):
            for i, (_, q) in enumerate(flat):
                turn = (i + r) % len(systems)
                for name, system in zip(names[turn:] + names[:turn], systems[turn:] + systems[:turn], strict=True):
                    started, thread = time.perf_counter(), time.thread_time()
                    system.top(q)
                    times[name][i].append((time.perf_counter() - started) * 1000)
                    cpu[name][i].append((time.thread_time() - thread) * 1000)
        for name in names:
            for label, measured in ((name, times[name]), (f"{name}_cpu", cpu[name])):
                medians = [statistics.median(t) for t in measured]
                out[label] = {cls: summary([m for m, (c, _) in zip(medians, flat, strict=True) if c == cls])
                              for cls in CLASSES}
                out[label]["all"] = summary(medians)
        for peer in peers:
            per_class: dict = {}
            for cls in CLASSES:
                idx = [i for i, (c, _) in enumerate(flat) if c == cls]
                overlap = [len({r for r, _ in answers["clew"][i]} & {r for r, _ in answers[peer.name][i]})
                           / max(1, len(answers["clew"][i]), len(answers[peer.name][i])) for i in idx]
                agreed = [agreement(answers["clew"][i], answers[peer.name][i],
                                    peer.scores(flat[i][1], [r for r, _ in answers["clew"][i]])) for i in idx]
                per_class[cls] = {"overlap_at_10": round(statistics.mean(overlap), 3),
                                  "agreement": round(sum(agreed) / len(agreed), 3)}
            out[f"answers_vs_{peer.name}"] = per_class
            for suffix in ("", "_cpu") if peer.name == "bm25s" else ("",):  # fts works on DuckDB's threads too
                out[f"ratio_{peer.name}_over_clew{suffix}"] = {
                    cls: {p: round(out[peer.name + suffix][cls][p] / max(out["clew" + suffix][cls][p], 1e-3), 1)
                          for p in ("p50_ms", "p95_ms")} for cls in (*CLASSES, "all")}
        out["ratio_row_filter_sql_over_held"] = {
            cls: {p: round(out["clew_row_filter_sql"][cls][p] / max(out["clew_row_filter"][cls][p], 1e-3), 1)
                  for p in ("p50_ms", "p95_ms")} for cls in (*CLASSES, "all")}
    return out


def measure_vectors(db: Path) -> dict:
    from clew.corpus.search.api import fuse, ranked_lists
    from clew.corpus.search.matrix import WARM_QUERIES as WARM_VECTOR_QUERIES
    from clew.corpus.search.vectors import vector_search

    out: dict = {}
    with Corpus(db, read_only=True) as corpus:
        plain = Scope(corpus)
        rng = np.random.default_rng(11)
        vectors = rng.standard_normal((20, 384), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        for _ in range(WARM_VECTOR_QUERIES):  # a process's first vector queries are answered in DuckDB
            vector_search(plain, vectors[0], model=MODEL, limit=10)
        started = time.perf_counter()
        vector_search(plain, vectors[0], model=MODEL, limit=10)  # builds the in-memory matrix once
        out["vector_matrix_load_seconds"] = round(time.perf_counter() - started, 1)
        for _ in range(postings.WARM_QUERIES + 1):  # hybrid's BM25 half from the in-memory index, as a service's
            bm25_search(plain, queries()["mixed"][0], limit=10)

        def timed(fn: Callable[[], object]) -> float:
            fn()
            runs = []
            for _ in range(3):
                started = time.perf_counter()
                fn()
                runs.append((time.perf_counter() - started) * 1000)
            return statistics.median(runs)

        out["vector_exact"] = summary(
            [timed(lambda v=v: vector_search(plain, v, model=MODEL, limit=10)) for v in vectors]
        )
        mixed = queries()["mixed"]
        out["hybrid"] = summary([timed(lambda i=i: fuse(ranked_lists(plain, mixed[i], "hybrid", 20, vector=vectors[i],
                                                                     model=MODEL), {"bm25": 1.0, "vector": 1.0}))
                                 for i in range(20)])
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", default="100000,200000", help="comma-separated chunk counts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fts-max-chunks", type=int, default=100_000)
    parser.add_argument(
        "--vectors", action="store_true", help="also exact vector and hybrid search at the largest scale"
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/clew-bench"))
    parser.add_argument("--peers", default="bm25s,fts", help="comma-separated outside peers: bm25s, fts ('' for none)")
    parser.add_argument("--numpy-1-26", type=Path, default=None,
                        help="a folder holding numpy 1.26 (pip install --target DIR numpy==1.26.4 'pyarrow<20'): "
                             "bm25s and clew run again on it (default: <cache>/numpy-1.26 where it exists)")
    parser.add_argument("--no-numpy-1-26", action="store_true", help=argparse.SUPPRESS)  # the child itself
    parser.add_argument("--serve-child", type=Path, default=None, help=argparse.SUPPRESS)  # the serving child
    args = parser.parse_args()
    if args.serve_child is not None:
        serve_child(args.serve_child)
        return
    peers = {p.strip() for p in args.peers.split(",") if p.strip()}
    args.cache.mkdir(parents=True, exist_ok=True)
    scales = [int(s) for s in args.scales.split(",")]
    result: dict = {"targets": {"clew_p50_and_p95_at_most_bm25s_in_every_class": True, "bm25_p95_ms_at_1m": 30,
                                "serve_peak_memory_mb_at_1m": 1024},
                    "numpy": np.__version__}
    for n in scales:
        db = args.cache / f"search-{n}.duckdb"
        result[f"build_{n}"] = build(db, n, args.cache, args.vectors and n == max(scales))
        result[str(n)] = measure_scale(db, args.rounds, "fts" in peers and n <= args.fts_max_chunks, "bm25s" in peers)
        result[str(n)]["serve_peak_memory_mb"] = serving_memory(db)
        gc.collect()
        print(json.dumps({str(n): result[str(n)]}), file=sys.stderr, flush=True)  # progress
    if args.vectors:
        result[f"vectors_{max(scales)}"] = measure_vectors(args.cache / f"search-{max(scales)}.duckdb")
    result["peak_memory_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if "bm25s" in peers and not args.no_numpy_1_26:
        result["numpy_1_26"] = on_numpy_1_26(args, args.numpy_1_26 or args.cache / "numpy-1.26")
    print(json.dumps(result, indent=2))


def serving_memory(db: Path) -> float:
    """Peak RSS (MB) of a fresh process that serves every query class from ``db``, read-only."""
    child = subprocess.run([sys.executable, __file__, "--serve-child", str(db)], capture_output=True, text=True)
    if child.returncode != 0:
        raise SystemExit(f"the serving child failed on {db}: {child.stderr[-800:]}")
    return float(json.loads(child.stdout)["peak_memory_mb"])


def serve_child(db: Path) -> None:
    """Answer every query of every class, for everyone and under a row filter; print the peak RSS."""
    import clew

    team3 = Principal(name="team3", row_filter={"bool": {"must": [
        {"term": {"status": "published"}}, {"term": {"acl": "team3"}}]}})
    answered = 0
    with clew.Corpus(db, read_only=True) as corpus:
        for principal in (None, team3):
            for cls in CLASSES:
                for query in queries()[cls]:
                    answered += len(clew.search(corpus, {"query": query, "limit": K}, principal=principal).hits)
    if not answered:
        raise SystemExit(f"no query found anything in {db}")
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent that forked this process
    status = Path("/proc/self/status").read_text()
    peak = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) / 1024
    print(json.dumps({"hits": answered, "peak_memory_mb": round(peak)}))


def on_numpy_1_26(args: argparse.Namespace, folder: Path) -> dict:
    """This benchmark again (clew and bm25s only) in a child importing numpy from ``folder``; or why not."""
    if np.__version__.startswith("1.26."):
        return {"ran": False, "why": f"this run already used numpy {np.__version__}"}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH")) if p)}
    found = subprocess.run([sys.executable, "-c", "import numpy; print(numpy.__version__)"], env=env,
                           capture_output=True, text=True)
    version = found.stdout.strip()
    if found.returncode != 0 or not version.startswith("1.26."):
        return {"ran": False, "why": f"no numpy 1.26 in {folder} (found {version or 'none'}): pip install --target "
                                     f"{folder} numpy==1.26.4 \"pyarrow<20\", or pass --numpy-1-26 DIR"}
    child = subprocess.run([sys.executable, __file__, "--scales", args.scales, "--rounds", str(args.rounds),
                            "--cache", str(args.cache), "--peers", "bm25s", "--no-numpy-1-26"],
                           env=env, capture_output=True, text=True)
    if child.returncode != 0:
        return {"ran": False, "why": f"the numpy {version} run failed: {child.stderr[-500:]}"}
    return {"ran": True, "numpy": version, **json.loads(child.stdout)}


if __name__ == "__main__":
    main()
