"""Chunk embeddings in the corpus: filling them in, and exact vector search.

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

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
from pydantic import BaseModel

from clew.corpus import ids
from clew.corpus.embedders import Embedder, check_output
from clew.corpus.reader import Scope
from clew.corpus.schema import DDL
from clew.corpus.search.index import index_text
from clew.corpus.search.matrix import matrix_for, matrix_search, peek_matrix
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.corpus.sql import one

logger = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 64
"""Chunks per model call."""

COMMIT_ROWS = 1024
COMMIT_SECONDS = 1.0
"""Vectors are committed once ``COMMIT_ROWS`` of them wait, or ``COMMIT_SECONDS`` after the last
commit, whichever comes first (and at the end, and before an error propagates): a commit costs
about as much as writing a thousand vectors (it syncs the log), so one per model batch of 64
spent two thirds of a write-bound run on commits, and a run killed outright loses at most a
second of the model's work."""


class EmbedReport(BaseModel):
    """What ``embed_missing`` did."""

    model: str
    dimensions: int
    collection: str | None
    chunks: int
    """Current chunks in the collection(s)."""
    embedded: int
    """Vectors written by this run."""
    already_embedded: int
    """Chunks that had a vector for this model before the run."""
    seconds: float


# (parameter: the collection name, when there is one)
_MISSING_WHERE = """FROM chunks c
JOIN documents d ON d.id = c.document_id AND d.current_version = c.version
JOIN collections col ON col.id = d.collection_id
WHERE {collection} """
# (parameter: model)
_HAS_VECTOR = """EXISTS (SELECT 1 FROM embeddings e WHERE e.document_id = c.document_id
    AND e.version = c.version AND e.ordinal = c.ordinal AND e.model = ?)"""


def embed_missing(
    corpus: Corpus,
    embedder: Embedder,
    *,
    collection: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Callable[[int, int], None] | None = None,
) -> EmbedReport:
    """Embed every current chunk that has no vector for ``embedder.name`` yet.

    ``batch_size`` chunks per model call; the vectors are committed about every thousand chunks
    or every second (``COMMIT_ROWS``): a run that fails (a model error, Ctrl-C) keeps what it
    embedded, one killed outright loses at most the last second's, and running again embeds only
    what is still missing (a complete corpus embeds nothing). The file is checkpointed once at
    the end (``Corpus.bulk_write``), not every few commits.
    ``progress(done, total)`` is called after each batch, and once before the first.
    """
    started = time.perf_counter()
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InputError("batch_size", f"must be a positive integer, got {batch_size!r}")
    if collection is not None:
        corpus.collection_id(collection)  # UnknownCollection, before any work
    if corpus.read_only:
        raise InputError("db", f"{corpus.path} is open read-only; embedding writes vectors")
    with corpus.transaction() as cur:
        cur.execute(DDL)  # idempotent: gives a file made before the embeddings table its table
    model = embedder.name
    dimensions = embedder.dimensions
    _check_stored_dimensions(corpus, model, dimensions)

    where = _MISSING_WHERE.format(collection="col.name = ?" if collection is not None else "TRUE")
    named = [collection] if collection is not None else []
    total, missing = one(corpus.cursor(),
        f"SELECT count(*), count(*) FILTER (WHERE NOT {_HAS_VECTOR}) {where}", [model, *named]
    )
    if progress is not None:
        progress(0, missing)
    done = 0
    # every batch is committed, the file checkpointed once at the end (Corpus.deferred_checkpoint)
    with corpus.bulk_write("the vectors of the embedded batches"):
        done = _embed_batches(corpus, embedder, where, named, missing, batch_size, progress)
    return EmbedReport(model=model, dimensions=dimensions, collection=collection, chunks=total, embedded=done,
                       already_embedded=total - missing, seconds=round(time.perf_counter() - started, 3))


def _embed_batches(corpus: Corpus, embedder: Embedder, where: str, named: list[str], missing: int,
                   batch_size: int, progress: Callable[[int, int], None] | None) -> int:
    """Embed and store the chunks without a vector (commits: ``COMMIT_ROWS``); how many were stored."""
    model, dimensions = embedder.name, embedder.dimensions
    pending = _Pending(corpus, model)
    reader = corpus.cursor()
    try:
        batches = reader.execute(
            f"""SELECT c.document_id, c.version, c.ordinal, c.heading_path, c.header, c.body,
                       (SELECT json_extract_string(v.fields, '$.title') FROM document_versions v
                        WHERE v.document_id = c.document_id AND v.version = c.version) AS title
                {where} AND NOT {_HAS_VECTOR} ORDER BY c.document_id, c.version, c.ordinal""",
            [*named, model],
        ).to_arrow_reader(batch_size)
        for batch in _rebatch(batches, batch_size):
            rows = batch.to_pydict()
            texts = [index_text(path, header, body, (title or "").strip() or None)
                     for path, header, body, title in zip(rows["heading_path"], rows["header"], rows["body"],
                                                          rows["title"], strict=True)]
            pending.add(rows, check_output(model, embedder.embed(texts), len(texts), dimensions))
            if pending.due():
                pending.commit()
            if progress is not None:
                progress(pending.stored + pending.rows, missing)
        pending.commit()
    except BaseException:
        pending.commit_before_raising()
        raise
    finally:
        reader.close()
    return pending.stored


class _Pending:
    """Vectors embedded and not yet committed, written in one transaction when due."""

    def __init__(self, corpus: Corpus, model: str) -> None:
        self.corpus, self.model = corpus, model
        self.keys: tuple[list[int], list[int], list[int]] = ([], [], [])
        self.vectors: list[np.ndarray] = []
        self.rows = 0
        self.stored = 0
        self.since = time.monotonic()

    def add(self, rows: dict[str, list[Any]], vectors: np.ndarray) -> None:
        for column, name in zip(self.keys, ("document_id", "version", "ordinal"), strict=True):
            column.extend(rows[name])
        self.vectors.append(vectors)
        self.rows += len(vectors)

    def due(self) -> bool:
        return self.rows >= COMMIT_ROWS or time.monotonic() - self.since >= COMMIT_SECONDS

    def commit(self) -> None:
        if self.rows:
            with self.corpus.transaction() as cur:
                _insert(cur, *self.keys, self.model, np.concatenate(self.vectors))
            self.stored += self.rows
        self.keys, self.vectors, self.rows, self.since = ([], [], []), [], 0, time.monotonic()

    def commit_before_raising(self) -> None:
        """Keep what was embedded when the run fails later (a model error, an interrupt)."""
        try:
            self.commit()
        except Exception:  # the store failed too: the error being raised is the caller's news
            logger.warning("the %d vector(s) embedded before the error were not stored", self.rows, exc_info=True)


def _rebatch(batches: Iterable[pa.RecordBatch], size: int) -> Iterable[pa.Table]:
    """Record batches regrouped into tables of exactly ``size`` rows (the last may be shorter)."""
    pending: list[pa.RecordBatch] = []
    rows = 0
    for batch in batches:
        pending.append(batch)
        rows += batch.num_rows
        while rows >= size:
            table = pa.Table.from_batches(pending)
            yield table.slice(0, size)
            rest = table.slice(size)
            pending, rows = rest.to_batches(), rest.num_rows
    if rows:
        yield pa.Table.from_batches(pending)


def _insert(cur: duckdb.DuckDBPyConnection, documents: list[int], versions: list[int], ordinals: list[int],
            model: str, vectors: np.ndarray) -> None:
    count, dims = vectors.shape
    flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).ravel())
    offsets = pa.array(np.arange(0, (count + 1) * dims, dims, dtype=np.int32))
    table = pa.table({
        "document_id": pa.array(documents, pa.int64()), "version": pa.array(versions, pa.int32()),
        "ordinal": pa.array(ordinals, pa.int32()), "model": pa.array([model] * count, pa.string()),
        "vector": pa.ListArray.from_arrays(offsets, flat),
    })
    cur.register("clew_vectors", table)
    try:
        # OR IGNORE: another embedder of the same name in this process may have been faster
        cur.execute("INSERT OR IGNORE INTO embeddings SELECT * FROM clew_vectors")
    finally:
        cur.unregister("clew_vectors")


def _check_stored_dimensions(corpus: Corpus, model: str, dimensions: int) -> None:
    row = corpus.cursor().execute("SELECT len(vector) FROM embeddings WHERE model = ? LIMIT 1", [model]).fetchone()
    if row is not None and row[0] != dimensions:
        raise InputError("model", f"the corpus holds {row[0]}-dimensional vectors for {model!r}, but the "
                                  f"embedder makes {dimensions}-dimensional ones")


def embedded_models(corpus: Corpus, collection: str | None = None) -> dict[str, int]:
    """Embedding model name -> vectors stored for current chunks (of one collection, or all)."""
    if not _has_table(corpus):
        return {}
    params: list[Any] = []
    where = "TRUE"
    if collection is not None:
        where = "col.name = ?"
        params.append(collection)
    rows = corpus.cursor().execute(
        f"""SELECT e.model, count(*) FROM embeddings e
            JOIN documents d ON d.id = e.document_id AND d.current_version = e.version
            JOIN collections col ON col.id = d.collection_id
            WHERE {where} GROUP BY e.model ORDER BY e.model""",
        params,
    ).fetchall()
    return dict(rows)


def default_model(corpus: Corpus, collection: str | None = None) -> str | None:
    """The model with the most vectors for current chunks (ties: first by name), or None."""
    counts = embedded_models(corpus, collection)
    return min(counts, key=lambda name: (-counts[name], name)) if counts else None


def _has_table(corpus: Corpus) -> bool:
    return bool(one(corpus.cursor(),
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'embeddings'")[0])


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
    if not _has_table(scope.corpus):
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
