"""Exact vector search over the chunk embeddings in the corpus (``clew.corpus.search.embedding`` fills them in).

Vectors live in the ``embeddings`` table, one per (chunk, embedding model name), unit
length, so that a dot product is the cosine similarity. A chunk is embedded from the same
text that keyword search indexes (:func:`index_text`): its heading path, then its text.

Search is EXACT: every current chunk that the scope may read is scored, with the scope's
predicate (principal, collection, filter) and the exclusions applied before the ``LIMIT``,
so a denied or excluded row neither shows nor takes a place. The vectors are scored as one
in-memory matrix per (corpus, model) (:mod:`clew.corpus.search.matrix`), or, when that would
not fit its memory cap, inside one DuckDB query. No
approximate index is built: DuckDB's HNSW index is neither WAL-recoverable nor disk-safe
(see DESIGN.md); ``benchmarks/vectors.py`` measures what exact search costs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import duckdb
import numpy as np

from clew.corpus import ids
from clew.corpus.reader import Scope
from clew.corpus.search.embedded import has_embeddings
from clew.corpus.search.matrix import matrix_for, matrix_search, peek_matrix
from clew.corpus.sql import one
from clew.corpus.store import Corpus
from clew.errors import InputError


def vector_search(
    scope: Scope,
    query_vector: Sequence[float] | np.ndarray,
    *,
    model: str,
    limit: int,
    exclude_ids: Iterable[str] = (),
    exclude_document_keys: Iterable[str] = (),
) -> list[tuple[int, int, int, float]]:
    """The ``limit`` current chunks closest to ``query_vector``: (document, version, ordinal, cosine).

    Exact search over the chunks ``scope`` may read, best first (ties in reading order).
    ``exclude_ids`` are evidence ids: the chunks among them are never returned (other kinds
    name no hit and are ignored); malformed ones raise. Raises ``InputError`` (field
    ``mode``) when the scope's collections hold no vectors for ``model`` at all.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InputError("limit", f"must be a positive integer, got {limit!r}")
    vector = np.asarray(query_vector, dtype=np.float32)
    if vector.ndim != 1 or vector.size == 0 or not np.isfinite(vector).all():
        raise InputError("query_vector", f"expected one finite vector, got an array of shape {vector.shape}")
    norm = float(np.linalg.norm(vector))
    excluded = _chunk_keys(exclude_ids)
    keys = sorted({str(key) for key in exclude_document_keys})

    if norm > 0:
        matrix = matrix_for(scope.corpus, model)
        if matrix is not None and len(matrix.documents):
            if matrix.dimensions != vector.size:
                raise InputError("query_vector", f"has {vector.size} dimensions, but the vectors stored for "
                                                 f"{model!r} have {matrix.dimensions}")
            rows = matrix_search(scope, matrix, vector / norm, limit, excluded, keys)
            if not rows:
                _require_embeddings(scope, model)
            return rows
    params: list[Any] = [(vector / norm if norm > 0 else vector).tolist(), model]
    predicate = scope.predicate(params)
    exclusions = ""
    if excluded:
        exclusions += """ AND NOT EXISTS (SELECT 1 FROM (SELECT unnest(?::BIGINT[]) AS d, unnest(?::INTEGER[]) AS v,
            unnest(?::INTEGER[]) AS o) x WHERE x.d = e.document_id AND x.v = e.version AND x.o = e.ordinal)"""
        params.extend([[k[0] for k in excluded], [k[1] for k in excluded], [k[2] for k in excluded]])
    if keys:
        exclusions += " AND d.key NOT IN (SELECT unnest(?::VARCHAR[]))"
        params.append(keys)
    params.append(limit)
    # document fields (alias v) are joined only when a filter needs them
    fields = scope.principal.row_filter is not None or scope.filter is not None
    versions = "JOIN document_versions v ON v.document_id = e.document_id AND v.version = e.version" if fields else ""
    sql = f"""SELECT e.document_id, e.version, e.ordinal, list_dot_product(e.vector, ?::FLOAT[]) AS score
        FROM embeddings e
        JOIN documents d ON d.id = e.document_id AND d.current_version = e.version
        JOIN collections col ON col.id = d.collection_id
        {versions}
        WHERE e.model = ? AND {predicate}{exclusions}
        ORDER BY score DESC, e.document_id, e.ordinal
        LIMIT ?"""
    try:
        rows = scope.cursor().execute(sql, params).fetchall() if norm > 0 else []
    except duckdb.CatalogException:
        rows = []  # a file made before the embeddings table: it has no vectors
    except duckdb.InvalidInputException as error:
        if "dimensions" not in str(error):
            raise
        raise InputError("query_vector", f"has {vector.size} dimensions, but the vectors stored for "
                                         f"{model!r} have another length") from error
    if not rows:
        _require_embeddings(scope, model)
        return []
    return [(int(d), int(v), int(o), float(s)) for d, v, o, s in rows]


def _chunk_keys(evidence_ids: Iterable[str]) -> list[tuple[int, int, int]]:
    keys = set()
    for value in evidence_ids:
        decoded = ids.decode(value)
        if decoded.kind == "c" and decoded.ordinal is not None:
            keys.add((decoded.document, decoded.version, decoded.ordinal))
    return sorted(keys)


def _require_embeddings(scope: Scope, model: str) -> None:
    """Raise unless a collection the scope covers has vectors for ``model``.

    Asked per collection, never per row, so the answer says nothing about rows the
    principal may not read.
    """
    if not has_embeddings(scope.corpus):
        found = False
    else:
        params: list[Any] = [model]
        where = scope.predicate(params, rows=False)
        found = one(scope.cursor(),
            f"""SELECT EXISTS (SELECT 1 FROM embeddings e
                JOIN documents d ON d.id = e.document_id AND d.current_version = e.version
                JOIN collections col ON col.id = d.collection_id
                WHERE e.model = ? AND {where})""",
            params,
        )[0]
    if not found:
        where = f"collection {scope.collection!r}" if scope.collection is not None else "the corpus"
        raise InputError("mode", f"{where} has no embeddings for model {model!r}; "
                                 f"run `clew embed --db FILE --model {model}`")


# format: document (an int); parameters: version, model. The document id alone filters the scan, so
# that its index serves it (see clew.corpus.structure on DuckDB's index scans).
VERSION_VECTORS_SQL = """WITH e AS MATERIALIZED (SELECT version, ordinal, model, vector FROM embeddings
                                             WHERE document_id = {document})
SELECT ordinal, vector FROM e WHERE version = ? AND model = ?"""


def version_vectors(corpus: Corpus, model: str, document_id: int, version: int, count: int) -> np.ndarray:
    """The ``model`` vectors of one document version's ``count`` passages, a row per ordinal
    (zeros where a passage has none): from the in-memory matrix when it is built, else one
    lookup. The caller has already checked that the version is readable."""
    out = np.zeros((count, 0), dtype=np.float32)
    matrix = peek_matrix(corpus, model)
    if matrix is not None and len(matrix.documents):
        low, high = np.searchsorted(matrix.documents, [document_id, document_id + 1])
        rows = [r for r in range(low, high) if matrix.versions[r] == version and matrix.ordinals[r] < count]
        out = np.zeros((count, matrix.dimensions), dtype=np.float32)
        for r in rows:
            out[matrix.ordinals[r]] = matrix.vectors[r]
        return out
    try:
        found = corpus.cursor().execute(VERSION_VECTORS_SQL.format(document=int(document_id)),
                                        [int(version), model]).fetchall()
    except duckdb.CatalogException:
        return out  # a file made before the embeddings table
    if found:
        out = np.zeros((count, len(found[0][1])), dtype=np.float32)
        for ordinal, vector in found:
            if ordinal < count:
                out[ordinal] = vector
    return out
