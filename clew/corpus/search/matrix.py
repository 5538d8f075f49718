"""Exact vector search from a matrix held in memory: one per (corpus, embedding model).

Scoring every vector inside DuckDB costs about a second per query at a million chunks; the
same exact search as one numpy matrix product costs tens of milliseconds. The matrix holds
the vectors of the *current* version of every chunk, for one model, in (document, ordinal)
order, and is rebuilt on the first search after a write in this process (``corpus.generation``
moves; no other process can write a file this one holds). Permissions and exclusions become a
row mask: the documents the scope may read come from one SQL query (none when the scope reads
everything), so a denied or excluded row neither shows nor takes a place in the top ``limit``.
Ties rank by document id, then ordinal, as the SQL path does.

A matrix larger than ``max_bytes()`` (``CLEW_VECTOR_MEMORY_MB``, default 2048 MB: a million
384-dimensional vectors take 1.5 GB) is not built, and search falls back to the SQL path.
"""

from __future__ import annotations

import os
import threading
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from clew.corpus.reader import Scope
from clew.corpus.sql import one
from clew.corpus.store import Corpus

DEFAULT_MEMORY_MB = 2048
WARM_QUERIES = 2
"""Vector queries answered in SQL before the matrix is built: a one-off search never pays the load."""


@dataclass(frozen=True, eq=False)
class VectorMatrix:
    generation: int
    documents: np.ndarray
    """int64 document id per row, ascending (then ordinal)."""
    versions: np.ndarray
    ordinals: np.ndarray
    vectors: np.ndarray
    """float32, one unit-length row per chunk."""

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    def rows_of(self, document: int, version: int, ordinal: int) -> np.ndarray:
        """Row indexes of one chunk (empty when it has no vector here)."""
        low, high = np.searchsorted(self.documents, [document, document + 1])
        hit = (self.versions[low:high] == version) & (self.ordinals[low:high] == ordinal)
        rows: np.ndarray = low + np.flatnonzero(hit)
        return rows


_lock = threading.Lock()
_matrices: weakref.WeakKeyDictionary[Corpus, dict[str, tuple[int, VectorMatrix | None]]] = weakref.WeakKeyDictionary()


def max_bytes() -> int:
    return int(float(os.environ.get("CLEW_VECTOR_MEMORY_MB", DEFAULT_MEMORY_MB)) * 2**20)


def matrix_for(corpus: Corpus, model: str) -> VectorMatrix | None:
    """The current vectors of ``model`` as a matrix; None when they would not fit ``max_bytes()``, or
    while the process has asked fewer than ``WARM_QUERIES`` vector queries of this corpus."""
    corpus.uses["vector"] += 1
    with _lock:
        if corpus.uses["vector"] <= WARM_QUERIES and not _matrices.get(corpus):
            return None
        per_model = _matrices.setdefault(corpus, {})
        known = per_model.get(model)
        if known is not None and known[0] == corpus.generation:
            return known[1]
        for stale in [name for name, (generation, _) in per_model.items() if generation != corpus.generation]:
            del per_model[stale]  # a write made them stale: free their memory now
        built = _build(corpus, model)
        per_model[model] = (corpus.generation, built)
        return built


def peek_matrix(corpus: Corpus, model: str) -> VectorMatrix | None:
    """The matrix of ``model`` if this process has built it and it is current; never builds one."""
    with _lock:
        known = _matrices.get(corpus, {}).get(model)
    return known[1] if known is not None and known[0] == corpus.generation else None


_CURRENT = """FROM embeddings e JOIN documents d ON d.id = e.document_id AND d.current_version = e.version
              WHERE e.model = ?"""


def _has_embeddings(corpus: Corpus) -> bool:
    return bool(one(corpus.cursor(),
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'embeddings'")[0])


def _size(corpus: Corpus, model: str) -> int:
    count, dims = one(corpus.cursor(), f"SELECT count(*), max(len(e.vector)) {_CURRENT}", [model])
    return int(count or 0) * int(dims or 0) * 4


def _build(corpus: Corpus, model: str) -> VectorMatrix | None:
    generation = corpus.generation
    if not _has_embeddings(corpus) or _size(corpus, model) > max_bytes():
        return None
    table = corpus.cursor().execute(
        f"SELECT e.document_id, e.version, e.ordinal, e.vector {_CURRENT} ORDER BY e.document_id, e.ordinal",
        [model]).arrow()
    if hasattr(table, "read_all"):  # a record batch reader in some DuckDB releases
        table = table.read_all()
    rows = table.num_rows
    column = table.column("vector").combine_chunks()
    flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    vectors = flat.reshape(rows, -1) if rows else np.zeros((0, 0), dtype=np.float32)
    return VectorMatrix(
        generation=generation,
        documents=table.column("document_id").to_numpy().astype(np.int64, copy=False),
        versions=table.column("version").to_numpy().astype(np.int32, copy=False),
        ordinals=table.column("ordinal").to_numpy().astype(np.int32, copy=False),
        vectors=np.ascontiguousarray(vectors),
    )


def matrix_search(scope: Scope, matrix: VectorMatrix, vector: np.ndarray, limit: int,
                  excluded: list[tuple[int, int, int]], keys: list[str]) -> list[tuple[int, int, int, float]]:
    """The ``limit`` best rows the scope may read: (document, version, ordinal, cosine), best first."""
    from clew.corpus.search.stats import allowed_documents_sql

    if not len(matrix.documents):
        return []
    scores = matrix.vectors @ vector
    params: list[Any] = []
    allowed = allowed_documents_sql(scope, params, keys)
    if allowed is not None:
        readable = np.array([r[0] for r in scope.cursor().execute(allowed, params).fetchall()], dtype=np.int64)
        scores[~np.isin(matrix.documents, readable)] = -np.inf
    for document, version, ordinal in excluded:
        scores[matrix.rows_of(document, version, ordinal)] = -np.inf
    valid = int(np.count_nonzero(scores > -np.inf))
    k = min(limit, valid)
    if k == 0:
        return []
    # everything at or above the k-th best score, then ties by document and ordinal (the SQL order)
    kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
    candidates = np.flatnonzero(scores >= kth)
    order = np.lexsort((matrix.ordinals[candidates], matrix.documents[candidates], -scores[candidates]))
    top = candidates[order[:k]]
    return [(int(matrix.documents[i]), int(matrix.versions[i]), int(matrix.ordinals[i]), float(scores[i]))
            for i in top]
