"""BM25 from the postings held in memory, for a read-only corpus of modest size.

Every BM25 query in SQL pays DuckDB's fixed cost of planning and running a statement (about
two milliseconds even on a tiny corpus), which dominates batch runs over small and mid-sized
corpora. A corpus opened read-only with at most ``POSTINGS_IN_MEMORY`` postings keeps them as
numpy arrays (term id -> a slice of chunk ids, term frequencies and lengths; 16 bytes a
posting), loaded once the process has asked it ``WARM_QUERIES`` queries (a one-off search
never pays the load), and scores a query with the same formula, liveness,
permissions (the readable documents from one SQL query, none when the scope reads every
document), exclusions and order (score, then chunk id) as the SQL path. A read-write corpus
and a larger one use SQL. The statistics (document frequencies, chunk count, mean length) are
the same ``TermStats`` for both paths.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from clew.corpus.reader import Scope
from clew.corpus.store import Corpus

POSTINGS_IN_MEMORY = 5_000_000
"""At most this many postings (80 MB) are held in memory per corpus."""
WARM_QUERIES = 8
"""Queries answered in SQL before the postings are loaded: a one-off search never pays the load."""


@dataclass(frozen=True, eq=False)
class MemoryPostings:
    terms: dict[int, tuple[int, int]]
    """term id -> [start, end) in the posting arrays."""
    chunk: np.ndarray
    tf: np.ndarray
    length: np.ndarray
    doc_chunk: np.ndarray
    """search_docs, sorted by chunk id: chunk id, document id, version, ordinal, live."""
    doc_id: np.ndarray
    doc_version: np.ndarray
    doc_ordinal: np.ndarray
    doc_live: np.ndarray


_lock = threading.Lock()
_loaded: weakref.WeakKeyDictionary[Corpus, MemoryPostings | None] = weakref.WeakKeyDictionary()


def memory_postings(corpus: Corpus) -> MemoryPostings | None:
    """The postings of a read-only corpus in memory (loaded once), or None (read-write or too large)."""
    if not corpus.read_only:
        return None
    corpus.uses["bm25"] += 1
    if corpus.uses["bm25"] <= WARM_QUERIES and corpus not in _loaded:
        return None
    with _lock:
        if corpus in _loaded:
            return _loaded[corpus]
        cur = corpus.cursor()
        count = cur.execute("SELECT count(*) FROM search_postings").fetchone()[0]
        loaded = None
        if count <= POSTINGS_IN_MEMORY:
            p = _table(cur, "SELECT term_id, chunk_id, tf, length FROM search_postings ORDER BY term_id, chunk_id")
            d = _table(cur, "SELECT chunk_id, document_id, version, ordinal, live FROM search_docs ORDER BY chunk_id")
            term_ids = p.column("term_id").to_numpy()
            bounds = np.flatnonzero(np.diff(term_ids)) + 1 if len(term_ids) else np.array([], dtype=np.int64)
            starts = np.concatenate(([0], bounds)).astype(np.int64) if len(term_ids) else np.array([], dtype=np.int64)
            ends = np.concatenate((bounds, [len(term_ids)])).astype(np.int64) if len(term_ids) else starts
            loaded = MemoryPostings(
                terms={int(term_ids[s]): (int(s), int(e)) for s, e in zip(starts, ends, strict=True)},
                chunk=p.column("chunk_id").to_numpy().astype(np.int64),
                tf=p.column("tf").to_numpy().astype(np.float64),
                length=p.column("length").to_numpy().astype(np.float64),
                doc_chunk=d.column("chunk_id").to_numpy().astype(np.int64),
                doc_id=d.column("document_id").to_numpy().astype(np.int64),
                doc_version=d.column("version").to_numpy().astype(np.int64),
                doc_ordinal=d.column("ordinal").to_numpy().astype(np.int64),
                doc_live=d.column("live").to_numpy(zero_copy_only=False).astype(bool),
            )
        _loaded[corpus] = loaded
        return loaded


def _table(cur: Any, sql: str) -> Any:
    """A whole result as an Arrow table, read before the cursor runs anything else."""
    result = cur.execute(sql).arrow()
    return result.read_all() if hasattr(result, "read_all") else result


def memory_search(scope: Scope, index: MemoryPostings, weights: list[tuple[int, float]], avgdl: float, k1: float,
                  b: float, limit: int, exclude_chunks: list[tuple[int, int, int]], allowed_sql: str | None,
                  params: list[Any]) -> list[tuple[int, int, int, float]]:
    """(document, version, ordinal, score) of the best ``limit`` readable live chunks for (term id, idf) pairs."""
    slices = [(index.terms[t], idf) for t, idf in weights if t in index.terms]
    if not slices:
        return []
    chunks = np.concatenate([index.chunk[s:e] for (s, e), _ in slices])
    tf = np.concatenate([index.tf[s:e] for (s, e), _ in slices])
    length = np.concatenate([index.length[s:e] for (s, e), _ in slices])
    idf = np.concatenate([np.full(e - s, w) for (s, e), w in slices])
    parts = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))
    unique, inverse = np.unique(chunks, return_inverse=True)
    scores = np.bincount(inverse, weights=parts)
    rows = np.searchsorted(index.doc_chunk, unique)
    keep = index.doc_live[rows]
    if allowed_sql is not None:
        readable = np.array([r[0] for r in scope.cursor().execute(allowed_sql, params).fetchall()], dtype=np.int64)
        keep &= np.isin(index.doc_id[rows], readable)
    for document, version, ordinal in exclude_chunks:
        keep &= ~((index.doc_id[rows] == document) & (index.doc_version[rows] == version)
                  & (index.doc_ordinal[rows] == ordinal))
    unique, scores, rows = unique[keep], scores[keep], rows[keep]
    order = np.lexsort((unique, -scores))[:limit]  # score descending, then chunk id
    return [(int(index.doc_id[rows[i]]), int(index.doc_version[rows[i]]), int(index.doc_ordinal[rows[i]]),
             float(scores[i])) for i in order]
