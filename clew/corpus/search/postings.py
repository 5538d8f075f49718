"""BM25 postings held in memory for a read-only corpus.

A DuckDB statement costs about two milliseconds even on a tiny corpus and a million-chunk
query scans millions of postings in SQL; a corpus opened read-only cannot change while this
process holds it, so its postings can be held as numpy arrays and a query scored there. The
index is loaded once the process has asked it ``WARM_QUERIES`` queries (a one-off search never
pays the load) when it fits ``max_bytes()`` (``CLEW_POSTINGS_MEMORY_MB``, default 1024 MB;
450 MB for 1M generated chunks with 81M postings).

What is held: one row per chunk of ``search_docs`` in chunk-id order (document, version,
ordinal, live, length); per term, its postings as int32 rows, those of term frequency 1 first,
then the others with their frequency (a byte each; 5% of them at 1M chunks). A query prices each
posting's *partial score* ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))`` as the
load would have (float64, rounded to float32: :func:`partial`): frequency 1 from a table of one
value per distinct length, indexed by a byte or two per row, the others from their frequency and
length (a table of each pair where it is small). Holding the float32 partial of every posting
instead was 4 bytes more a posting (749 MB at 1M). The query then only multiplies by idf and
adds up, as bm25s does. For terms in at least ``COLUMN_SHARE`` of the chunks a dense float32
column of partials over all rows is held instead (no larger than its postings, and added to the
scores sequentially). A query adds ``idf x partial`` into a dense per-thread accumulator (no
sort, no ``np.unique``), then picks the best rows with ``np.partition``. Liveness, the readable
rows (one SQL query per distinct scope, kept as a row mask: the last 64 scopes' documents, 16
masks), exclusions and the order (score descending, then chunk id) are those of the SQL path;
scores agree with it to float32 precision of the partial scores. A read-write corpus and a
larger one use SQL. The statistics (document frequencies, chunk count, mean length) are the same
``TermStats`` for both paths.

A principal with a row filter is scored with statistics counted over the rows it may read
(``clew.corpus.search.bm25``): here its readable rows are a mask over the held rows (one SQL
query per distinct scope, kept with the index), a term's frequency is the count of its postings
under the mask, and since its mean length differs from the corpus's, each partial score is
recomputed from the corpus-wide one: the term frequency it was computed from is recovered exactly up to
float32 rounding (``tf = p * n / (k1 + 1 - p)`` with ``n = k1 * (1 - b + b * length / avgdl)``),
then priced at the principal's mean length.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from clew.corpus.checkpoint import default_setting, size_bytes
from clew.corpus.reader import Scope
from clew.corpus.sql import one
from clew.corpus.store import Corpus

if TYPE_CHECKING:  # numpy loads with the index (a one-off search never needs it)
    import numpy as np

T = TypeVar("T")
DEFAULT_MEMORY_MB = 1024
WARM_QUERIES = 8
"""Queries answered in SQL before the postings are loaded: a one-off search never pays the load."""
COLUMN_SHARE = 1 / 3
"""A term in at least this share of the chunks is held as a dense column (4 bytes a chunk)
rather than as postings (8 bytes a posting)."""
MIN_COLUMN_ROWS = 1024
"""Below this many chunks every term stays in postings."""
BATCH_ROWS = 1 << 18
"""Postings read per Arrow batch while loading (each batch's temporaries are a few MB)."""
HELD_MEMORY_LIMIT = "64MiB"
"""DuckDB's ``memory_limit`` while the postings load (unless already lower), put back after it. At
the default (80% of the machine's memory) the buffer pool keeps every block read, and the load reads
every posting: at 1M chunks a serving process peaked at 1,683 MB beside a 726 MB index. Kept after
the load, the limit failed any later query that materialises more (loading 200,000 vectors of 384
dimensions: DuckDB's OutOfMemoryException)."""
TF_TABLE = 1 << 16
"""Most partial scores held as a table of (term frequency, distinct length): 256 KB."""
READABLE_SCOPES = 64
"""Distinct scopes (principal, filter, excluded keys) whose readable documents are kept."""
ROW_MASKS = 16
"""Distinct scopes whose live readable rows are kept (5 bytes a row at most: 80 MB at 1M chunks)."""


def max_bytes() -> int:
    return int(float(os.environ.get("CLEW_POSTINGS_MEMORY_MB", DEFAULT_MEMORY_MB)) * 2**20)


@dataclass(frozen=True, eq=False)
class MemoryPostings:
    avgdl: float
    """The mean length the partial scores were computed with."""
    k1: float
    b: float
    term_at: np.ndarray
    """term id -> its index in ``tail_at`` (-1: no postings held; a dict of tuples was 46 MB at 1M chunks)."""
    offsets: np.ndarray
    """The i-th held term's postings are ``rows[offsets[2i]:offsets[2i + 2]]``: those of term frequency 1
    first (up to ``offsets[2i + 1]``), then the others."""
    tail_at: np.ndarray
    """Where the i-th held term's other frequencies start in ``tails`` (one per posting after the split)."""
    columns: dict[int, np.ndarray]
    """term id -> float32 partial score of every row (0 where the term is absent)."""
    rows: np.ndarray
    tails: np.ndarray
    """The term frequency of each posting that is not 1 (uint8; int16 where one exceeds 255)."""
    length_code: np.ndarray
    """Each row's index in ``one`` (uint8 or uint16: a gather from a 1-2 MB array; one float32 per row
    was 10% slower, a cache miss more per posting)."""
    one: np.ndarray
    """The float32 partial score of a term frequency of 1 at each distinct row length."""
    by_tf: np.ndarray | None
    """The float32 partial score of frequency ``f`` at the length of code ``c`` at ``f * len(one) + c``, for
    every frequency up to the corpus's largest; None where that is more than ``TF_TABLE`` values."""
    doc_id: np.ndarray
    """search_docs in chunk-id order: document id, version, ordinal, live."""
    doc_version: np.ndarray
    doc_ordinal: np.ndarray
    doc_live: np.ndarray
    doc_length: np.ndarray
    """Each row's length in terms (what its partial scores were normalised by)."""
    dead: np.ndarray
    """Rows that are not live (retired until the next compaction)."""
    local: threading.local = field(default_factory=threading.local)
    readable: OrderedDict[tuple[str, str], np.ndarray] = field(default_factory=OrderedDict)
    """(scope SQL, parameters) -> readable documents, least recently used first."""
    readers: OrderedDict[tuple[str, str], RowMask] = field(default_factory=OrderedDict)
    """(scope SQL, parameters) -> the live rows it may read, least recently used first."""
    norms: OrderedDict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(default_factory=OrderedDict)
    """Mean length -> what repricing at it needs per row (``_pricing``)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def span(self, term_id: int | None) -> tuple[int, int, int, int] | None:
        """The term's postings: [start, split, end) in ``rows`` (frequency 1 before ``split``) and where
        the frequencies after the split start in ``tails``; None when none are held."""
        if term_id is None or not 0 <= term_id < len(self.term_at) or self.term_at[term_id] < 0:
            return None
        i = int(self.term_at[term_id])
        return int(self.offsets[2 * i]), int(self.offsets[2 * i + 1]), int(self.offsets[2 * i + 2]), \
            int(self.tail_at[i])

    def runs(self, start: int, split: int, end: int, tail: int) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """A term's postings (its ``span``) as (rows, term frequencies) runs, None for frequency 1;
        no empty run (each costs a few numpy calls)."""
        out: list[tuple[np.ndarray, np.ndarray | None]] = [(self.rows[start:split], None)] if split > start else []
        if end > split:
            out.append((self.rows[split:end], self.tails[tail:tail + end - split]))
        return out

    def parts(self, rows: np.ndarray, tf: np.ndarray | None) -> np.ndarray:
        """The float32 partial scores of ``rows`` for their term frequencies ``tf`` (None: all 1), the
        same values the load would have held per posting (:func:`partial`)."""
        if tf is None:
            out: np.ndarray = self.one.take(self.length_code.take(rows))
            return out
        if self.by_tf is not None:  # a few numpy calls fewer than pricing them (7 us a run)
            import numpy as np
            at: np.ndarray = tf.astype(np.intp) * len(self.one) + self.length_code.take(rows)
            return self.by_tf.take(at)
        return partial(tf, self.doc_length.take(rows), self.k1, self.b, self.avgdl)

    def scored(self, rows: np.ndarray, tf: np.ndarray | None, idf: float) -> np.ndarray:
        """``idf x`` the partial scores of ``rows`` (as ``parts`` gives them): for frequency 1 the table of
        distinct lengths is multiplied, not each posting's value (the same products)."""
        import numpy as np
        if tf is None:
            out: np.ndarray = (self.one * np.float64(idf)).take(self.length_code.take(rows))
            return out
        scores: np.ndarray = self.parts(rows, tf) * np.float64(idf)
        return scores

    def nbytes(self) -> int:
        """The bytes of every array held for the corpus (not the per-scope caches)."""
        held = (self.term_at, self.offsets, self.tail_at, self.rows, self.tails, self.length_code, self.one,
                self.doc_id, self.doc_version, self.doc_ordinal, self.doc_live, self.doc_length, self.dead)
        table = 0 if self.by_tf is None else self.by_tf.nbytes
        return sum(a.nbytes for a in held) + table + sum(c.nbytes for c in self.columns.values())

    def accumulator(self) -> np.ndarray:
        """This thread's float64 score per row, all zero between queries."""
        import numpy as np
        acc = getattr(self.local, "acc", None)
        if acc is None:
            acc = self.local.acc = np.zeros(len(self.doc_id), dtype=np.float64)
        return acc


@dataclass(frozen=True, eq=False)
class RowMask:
    """The live rows a principal may read: a boolean per row, their count and their total length."""

    rows: np.ndarray
    at: np.ndarray
    """The indexes of those rows."""
    live: int
    total_length: int

    @property
    def avgdl(self) -> float:
        return self.total_length / self.live if self.live else 1.0


_lock = threading.Lock()
_loaded: weakref.WeakKeyDictionary[Corpus, MemoryPostings | None] = weakref.WeakKeyDictionary()


def memory_postings(corpus: Corpus, avgdl: float, k1: float, b: float) -> MemoryPostings | None:
    """The postings of a read-only corpus in memory (loaded once), or None (read-write, too large, or
    fewer than ``WARM_QUERIES`` queries asked so far)."""
    if not corpus.read_only:
        return None
    corpus.uses["bm25"] += 1
    if corpus.uses["bm25"] <= WARM_QUERIES and corpus not in _loaded:
        return None
    with _lock:
        if corpus not in _loaded:
            _loaded[corpus] = _load(corpus, avgdl, k1, b)
        return _loaded[corpus]


def loaded_postings(corpus: Corpus) -> MemoryPostings | None:
    """The corpus's postings if they are already held (asking does not count as a query)."""
    return _loaded.get(corpus) if corpus.read_only else None


def _load(corpus: Corpus, avgdl: float, k1: float, b: float) -> MemoryPostings | None:
    """The postings in memory, read under DuckDB's lower ``HELD_MEMORY_LIMIT`` (put back after)."""
    cur = corpus.cursor()
    restore = _lower_memory_limit(cur)
    try:
        return _read(cur, avgdl, k1, b)
    finally:
        if restore is not None:
            cur.execute(restore)


def _lower_memory_limit(cur: Any) -> str | None:
    """Lower DuckDB's memory limit to ``HELD_MEMORY_LIMIT``: the statement that puts it back, or None
    when it was not higher."""
    found = str(one(cur, "SELECT current_setting('memory_limit')")[0])
    size, cap = size_bytes(found), size_bytes(HELD_MEMORY_LIMIT)
    if size is None or cap is None or size <= cap:
        return None
    cur.execute(f"SET memory_limit = '{HELD_MEMORY_LIMIT}'")
    # a rendered limit is rounded: the default is put back by RESET
    return "RESET memory_limit" if found == default_setting("memory_limit") else f"SET memory_limit = '{found}'"


def partial(tf: np.ndarray, length: np.ndarray, k1: float, b: float, avgdl: float) -> np.ndarray:
    """BM25's partial score ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl))``, computed in float64
    and rounded to float32 (a query multiplies it by idf and adds up). The one expression the load and
    every query use, so a partial computed at a query is the one a posting held before."""
    import numpy as np
    t, n = tf.astype(np.float64), length.astype(np.float64)
    out: np.ndarray = (t * (k1 + 1) / (t + k1 * (1 - b + b * n / avgdl))).astype(np.float32)
    return out


def _read(cur: Any, avgdl: float, k1: float, b: float) -> MemoryPostings | None:
    import numpy as np
    chunks, max_chunk = one(cur, "SELECT count(*), coalesce(max(chunk_id), 0) FROM search_docs")
    df = _table(cur, "SELECT term_id, count(*) AS n, count(*) FILTER (WHERE tf <> 1) AS other, min(tf) AS low,"
                     " max(tf) AS high FROM search_postings GROUP BY term_id ORDER BY term_id")
    term_ids = df.column("term_id").to_numpy().astype(np.int64)
    counts = df.column("n").to_numpy().astype(np.int64)
    others = df.column("other").to_numpy().astype(np.int64)
    low = int(df.column("low").to_numpy().astype(np.int64).min(initial=1))
    high = int(df.column("high").to_numpy().astype(np.int64).max(initial=1))
    del df
    # a term frequency held in a byte where every one fits, else in the smallest type that holds them all
    tf_type = next(t for t in (np.uint8, np.int16, np.int32, np.int64)
                   if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
    as_column = (counts >= COLUMN_SHARE * chunks) if chunks >= MIN_COLUMN_ROWS else np.zeros(len(counts), bool)
    postings, other = int(counts[~as_column].sum()), int(others[~as_column].sum())
    needed = 4 * postings + np.dtype(tf_type).itemsize * other + 4 * chunks * int(as_column.sum()) + 48 * chunks
    if needed > max_bytes():
        return None
    d = _table(cur, "SELECT chunk_id, document_id, version, ordinal, live, length FROM search_docs ORDER BY chunk_id")
    doc_chunk = d.column("chunk_id").to_numpy()
    live = d.column("live").to_numpy(zero_copy_only=False).astype(bool)
    doc_id = d.column("document_id").to_numpy().astype(np.int64)
    doc_version, doc_ordinal, doc_length = (d.column(c).to_numpy().astype(np.int32)
                                            for c in ("version", "ordinal", "length"))
    row_of = np.full(int(max_chunk) + 1, -1, dtype=np.int32)
    row_of[doc_chunk] = np.arange(len(doc_chunk), dtype=np.int32)
    del d, doc_chunk  # DuckDB's result is freed before the postings are read
    # each term gets a slot: postings slots in term order, column slots after them; a postings slot k
    # is filled as two runs, 2k (frequency 1) and 2k + 1 (the others, their frequency kept in ``tails``)
    slot_of = np.full(int(term_ids.max(initial=0)) + 1, -1, dtype=np.int64)
    sparse_ids, column_ids = term_ids[~as_column], term_ids[as_column]
    n_sparse = len(sparse_ids)
    slot_of[sparse_ids] = np.arange(n_sparse)
    slot_of[column_ids] = n_sparse + np.arange(len(column_ids))
    sizes = np.empty(2 * n_sparse, dtype=np.int64)
    sizes[0::2], sizes[1::2] = counts[~as_column] - others[~as_column], others[~as_column]
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    tail_at = np.concatenate(([0], np.cumsum(others[~as_column])))[:-1]
    fill = offsets[:-1].copy()
    rows = np.empty(postings, dtype=np.int32)
    tails = np.empty(other, dtype=tf_type)
    columns = np.zeros((len(column_ids), len(doc_id)), dtype=np.float32)
    reader = cur.execute("SELECT term_id, chunk_id, tf, length FROM search_postings").to_arrow_reader(BATCH_ROWS)
    for batch in reader:
        slot = slot_of[batch.column(0).to_numpy()]
        row = row_of[batch.column(1).to_numpy()]
        tf = batch.column(2).to_numpy()
        in_column = slot >= n_sparse
        if in_column.any():
            columns[slot[in_column] - n_sparse, row[in_column]] = partial(
                tf[in_column], batch.column(3).to_numpy()[in_column], k1, b, avgdl)
        keep = ~in_column
        slot, row, tf = 2 * slot[keep] + (tf[keep] != 1), row[keep], tf[keep]
        order = np.argsort(slot, kind="stable")
        slot, row, tf = slot[order], row[order], tf[order]
        starts = np.flatnonzero(np.diff(slot, prepend=-1))  # where each slot's run begins
        run = np.repeat(starts, np.diff(np.append(starts, len(slot))))
        position = fill[slot] + (np.arange(len(slot)) - run)
        rows[position] = row
        tail = (slot & 1).astype(bool)
        tails[tail_at[slot[tail] >> 1] + position[tail] - offsets[slot[tail]]] = tf[tail]
        fill[slot[starts]] += np.diff(np.append(starts, len(slot)))
    term_at = np.full(len(slot_of), -1, dtype=np.int32)
    term_at[sparse_ids] = np.arange(n_sparse, dtype=np.int32)
    lengths, length_code = np.unique(doc_length, return_inverse=True)
    code_type = next(t for t in (np.uint8, np.uint16, np.int32) if len(lengths) <= np.iinfo(t).max + 1)
    by_tf = None
    if low >= 0 and (high + 1) * len(lengths) <= TF_TABLE:
        by_tf = partial(np.repeat(np.arange(high + 1), len(lengths)), np.tile(lengths, high + 1), k1, b, avgdl)
    return MemoryPostings(
        avgdl=avgdl,
        k1=k1,
        b=b,
        term_at=term_at,
        offsets=offsets,
        tail_at=tail_at,
        columns={int(t): columns[i] for i, t in enumerate(column_ids)},
        rows=rows,
        tails=tails,
        length_code=length_code.astype(code_type),
        one=partial(np.ones(len(lengths), dtype=np.uint8), lengths, k1, b, avgdl),
        by_tf=by_tf,
        doc_id=doc_id,
        doc_version=doc_version,
        doc_ordinal=doc_ordinal,
        doc_live=live,
        doc_length=doc_length,
        dead=np.flatnonzero(~live).astype(np.int32),
    )


def _table(cur: Any, sql: str) -> Any:
    """A whole result as an Arrow table, read before the cursor runs anything else."""
    result = cur.execute(sql).arrow()
    return result.read_all() if hasattr(result, "read_all") else result


def _kept(index: MemoryPostings, cache: OrderedDict[Any, T], key: Any, limit: int, make: Callable[[], T]) -> T:
    """``cache[key]``, made by ``make`` (outside the lock) when it is missing; the last ``limit`` kept."""
    with index.lock:
        known = cache.get(key)
        if known is not None:
            cache.move_to_end(key)
            return known
    made = make()
    with index.lock:
        cache[key] = made
        while len(cache) > limit:
            cache.popitem(last=False)
    return made


def readable_documents(scope: Scope, index: MemoryPostings, allowed_sql: str,
                       params: list[Any]) -> np.ndarray:
    """A boolean per document id: may the scope read it. One SQL query per distinct scope, the last
    ``READABLE_SCOPES`` kept with the index (a read-only corpus never changes while held)."""
    import numpy as np

    def make() -> np.ndarray:
        ids = np.array([r[0] for r in scope.cursor().execute(allowed_sql, params).fetchall()], dtype=np.int64)
        known = np.zeros(int(ids.max(initial=-1)) + 1, dtype=bool)
        known[ids] = True
        return known

    return _kept(index, index.readable, (allowed_sql, json.dumps(params, default=str)), READABLE_SCOPES, make)


def reader_rows(scope: Scope, index: MemoryPostings, allowed_sql: str, params: list[Any]) -> RowMask:
    """The live rows of the documents ``allowed_sql`` selects (a scope's readable ones), the last
    ``ROW_MASKS`` kept with the index."""
    import numpy as np

    def make() -> RowMask:
        readable = readable_documents(scope, index, allowed_sql, params)
        rows = index.doc_id < len(readable)
        rows[rows] = readable[index.doc_id[rows]]
        rows &= index.doc_live
        return RowMask(rows, np.flatnonzero(rows).astype(np.int32), int(np.count_nonzero(rows)),
                       int(index.doc_length[rows].sum(dtype=np.int64)))

    return _kept(index, index.readers, (allowed_sql, json.dumps(params, default=str)), ROW_MASKS, make)


def frequencies(index: MemoryPostings, mask: RowMask, term_ids: list[int | None]) -> list[int]:
    """Each term's number of rows under ``mask`` (its document frequency for that principal). A term
    that is not indexed (None) is counted like one of no readable rows: over an empty posting list."""
    import numpy as np
    out: list[int] = []
    for term_id in term_ids:
        column = index.columns.get(term_id) if term_id is not None else None
        if column is not None:
            out.append(int(np.count_nonzero(mask.rows & (column > 0))))
            continue
        start, _, end, _ = index.span(term_id) or (0, 0, 0, 0)
        out.append(int(np.count_nonzero(mask.rows[index.rows[start:end]])))
    return out


def _pricing(index: MemoryPostings, avgdl: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row, for partial scores held at the index's mean length priced at ``avgdl``: with
    ``c = k1 + 1`` and ``h``, ``n`` the row's normalisation ``k1 * (1 - b + b * length / mean)`` at
    the two means, ``tf = p h / (c - p)`` gives ``p c h / (p (h - n) + n c)``; returns ``c h``,
    ``h - n`` and ``n c`` (float32, computed once per mean length, the last few kept)."""
    import numpy as np

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        length = index.doc_length.astype(np.float64)
        c = index.k1 + 1
        held = index.k1 * (1 - index.b + index.b * length / index.avgdl)
        now = index.k1 * (1 - index.b + index.b * length / avgdl)
        return (c * held).astype(np.float32), (held - now).astype(np.float32), (now * c).astype(np.float32)

    return _kept(index, index.norms, avgdl, 4, make)


def _repriced(index: MemoryPostings, parts: np.ndarray, rows: np.ndarray, avgdl: float) -> np.ndarray:
    """The held partial scores ``parts`` of ``rows`` priced at mean length ``avgdl`` (see :func:`_pricing`)."""
    ch, diff, nc = (a[rows] for a in _pricing(index, avgdl))
    out: np.ndarray = parts * ch / (parts * diff + nc)
    return out


def memory_search(scope: Scope, index: MemoryPostings, weights: list[tuple[int, float]], limit: int,
                  exclude_chunks: list[tuple[int, int, int]], allowed_sql: str | None,
                  params: list[Any], reader: RowMask | None = None) -> list[tuple[int, int, int, float]]:
    """(document, version, ordinal, score) of the best ``limit`` readable live chunks for (term id, idf) pairs.

    ``reader``: a restricted principal's rows. Only they are scored (``allowed_sql``, which holds
    the principal's filter, keeps the rest out anyway), at the principal's mean length.
    """
    import numpy as np
    columns = [(index.columns[t], idf) for t, idf in weights if t in index.columns]
    slices = [(span, idf) for span, idf in ((index.span(t), idf) for t, idf in weights) if span is not None]
    if not columns and not slices:
        return []
    acc = index.accumulator()
    candidates = None
    touched = sum(e - s for (s, _, e, _), _ in slices)
    whole = bool(columns) or touched * 4 > len(acc)  # score every row rather than gather the touched ones
    try:
        for column, idf in columns:
            if reader is None:
                acc += column * np.float64(idf)
            else:
                acc[reader.at] += _repriced(index, column[reader.at], reader.at, reader.avgdl) * np.float64(idf)
        for (s, m, e, t), idf in slices:  # no row twice in a term: np.add.at is a plain, faster, scatter
            for rows, tf in index.runs(s, m, e, t):
                if reader is None:
                    np.add.at(acc, rows, index.scored(rows, tf, idf))
                    continue
                keep = reader.rows[rows]
                rows, tf = rows[keep], None if tf is None else tf[keep]
                np.add.at(acc, rows, _repriced(index, index.parts(rows, tf), rows, reader.avgdl) * np.float64(idf))
        # a row is a candidate when it holds a query term; with every idf positive (the usual case) that
        # is a positive score, else (retired rows counted in df until compaction) a mask says so
        positive = all(idf > 0 for _, idf in columns + slices)
        floor = 0.0 if positive else -np.inf
        if whole:
            scores = acc
            if not positive:
                hit = np.zeros(len(acc), dtype=bool)
                for column, _ in columns:
                    hit |= column > 0
                for (s, _, e, _), _ in slices:
                    hit[index.rows[s:e]] = True
                scores = np.where(hit, acc, floor)
            if len(index.dead):
                scores[index.dead] = floor
        else:
            candidates = np.concatenate([index.rows[s:e] for (s, _, e, _), _ in slices])
            scores = acc[candidates]
            if len(index.dead):
                scores[~index.doc_live[candidates]] = floor
        if allowed_sql is not None:  # the scope's live readable rows, kept per scope
            ok = reader_rows(scope, index, allowed_sql, params).rows
            scores = np.where(ok if candidates is None else ok[candidates], scores, floor)
        # each row appears at most once per sparse term among the candidates: keeping every value at
        # or above the (head x terms)-th best keeps at least the best ``head`` distinct rows, ties included
        head = (int(limit) + len(exclude_chunks)) * (1 if candidates is None else max(1, len(slices)))
        picked = _at_or_above_kth(scores, head, floor)
        best = picked if candidates is None else np.unique(candidates[picked])
        best_scores = acc[best]
    finally:
        if whole or candidates is None:
            acc.fill(0.0)
        else:
            acc[candidates] = 0.0
    excluded = set(exclude_chunks)
    out: list[tuple[int, int, int, float]] = []
    for i in np.lexsort((best, -best_scores)):  # score descending, then chunk id (= row order)
        row = best[i]
        key = (int(index.doc_id[row]), int(index.doc_version[row]), int(index.doc_ordinal[row]))
        if key in excluded:
            continue
        out.append((*key, float(best_scores[i])))
        if len(out) == limit:
            break
    return out


def _at_or_above_kth(scores: np.ndarray, head: int, floor: float) -> np.ndarray:
    """Indexes of every score above ``floor`` that is at or above the ``head``-th best (all of them if fewer).

    A strided sample's ``head``-th best is a lower bound of the true one (those rows exist), so one
    comparison leaves a few hundred values to partition exactly; ``np.partition`` over a whole
    array full of equal values (a filter's zeros) is many times slower.
    """
    import numpy as np
    idx = None
    if len(scores) > 64 * head:
        sample = scores[::16]
        above = sample[sample > floor]
        if len(above) >= head:
            idx = np.flatnonzero(scores >= np.partition(above, len(above) - head)[len(above) - head])
    if idx is None:
        idx = np.flatnonzero(scores > floor)
    values = scores[idx]
    if len(values) > head:
        idx = idx[values >= np.partition(values, len(values) - head)[len(values) - head]]
    return idx
