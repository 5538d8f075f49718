"""Filling in the chunk embeddings (``clew embed``): every current chunk without a vector for a model.

A chunk is embedded from the text keyword search indexes (``index_text``); the vectors are
written to the ``embeddings`` table that ``clew.corpus.search.vectors`` searches.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
from pydantic import BaseModel

from clew.corpus.embedders import Embedder, check_output
from clew.corpus.schema import DDL
from clew.corpus.search.index import index_text
from clew.corpus.sql import one
from clew.corpus.store import Corpus
from clew.corpus.write_turn import in_turn
from clew.errors import InputError

logger = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 64
"""Chunks per model call."""

COMMIT_ROWS = 1024
COMMIT_SECONDS = 1.0
"""Vectors are committed once ``COMMIT_ROWS`` of them wait, or ``COMMIT_SECONDS`` after the last
commit, whichever comes first (and at the end, and before an error propagates): a commit costs
about as much as writing 200 vectors (it syncs the log; 10.6 ms against 52 us a vector at 100k
in ``benchmarks/embed.py``), so one per model batch of 64 spent three quarters of a write-bound
run on commits, and a run killed outright loses at most a second of the model's work."""


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


@in_turn
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
    # vectors committed every COMMIT_ROWS or COMMIT_SECONDS, the file checkpointed once at the end
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


