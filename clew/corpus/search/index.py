"""The BM25 inverted index: written in the ingest transaction, compacted after an ingest.

Layout (see ``clew.corpus.schema``): ``search_postings`` holds ``(term, chunk, tf, length)``
for every term; ``search_docs`` one row per indexed chunk with a ``live`` flag and one
column per *dense* term (a term in at least ``DENSE_SHARE`` of the chunks), so a query of
very common terms scans a few columns instead of millions of postings.

Ingest appends: new terms get ids, postings are appended, document frequencies and corpus
statistics are updated, and chunks of superseded versions are marked not live (their
postings stay until compaction, so ``df`` may briefly count them). Compaction, run after an
ingest once the unsorted tail passes ``COMPACT_SHARE`` of the postings, drops dead rows,
recounts ``df``, re-chooses the dense terms and rewrites the postings sorted by term so that
DuckDB's zone maps skip everything but the query's terms. Each step is one transaction. A first
batch into an empty index, too small for dense terms, is written sorted as compaction would leave it,
so a new corpus's small first ingest runs none (a third of a one-file ingest's CPU).
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import duckdb

from clew.corpus.sql import arrow_view, execute, insert_columns, one
from clew.corpus.store import PENDING_POSTINGS, CheckpointFailure, Corpus, fsync, staged_postings_files
from clew.corpus.tokenize import TermPostings
from clew.corpus.write_turn import in_turn
from clew.errors import StoreFailure

logger = logging.getLogger(__name__)

DENSE_SHARE = 0.05
MAX_DENSE_TERMS = 256
COMPACT_SHARE = 0.10
MIN_DENSE_CHUNKS = 1000
"""Below this many chunks every term stays sparse: scanning postings is already cheap."""


INDEX_REVISION = 5
"""What the index holds of a chunk; part of the chunking signature, so re-ingesting an older
corpus rebuilds it. 2: the document's title leads the heading path (for BM25 and embeddings alike).
3: an ordered list item's number is left out (``_ITEM_NUMBER``). 4: the tokenizer keeps shell
parameters (``$*``, ``$HOME``) and a few shell operators (``&&``, ``>>``) as terms. 5: a token that NFKC
writes otherwise (a ligature, full-width letters) is indexed as that form's terms."""

_ITEM_NUMBER = re.compile(r"^( *)\d{1,9}[.)] ", re.MULTILINE)
"""An ordered list item's number at the start of a line ("1. ", "  2) "): a marker, as "- " is, not a
term. Indexed, every list's first item held the term "1": an HTML procedure whose steps read "1. " to
"4. " (as a Markdown list always did) got four more terms of no meaning, enough to move it below
passages it outranked (PostgreSQL's "VACUUM ... for several reasons:" list at 2,000 tokens)."""


def index_text(heading_path: Iterable[str], header: str, body: str, title: str | None = None) -> str:
    """What BM25 sees of a chunk: its document's title and heading path beside its text (header rows included).

    The title leads the path unless the path already starts with it (a page whose first heading
    is its title): a passage of ``npm-access.md`` under "Description" is found by "npm access".
    """
    path = list(heading_path)
    if title and not (path and path[0].strip().casefold() == title.casefold()):
        path.insert(0, title)
    joined = " > ".join(path)
    body = _ITEM_NUMBER.sub(r"\1", body)
    text = f"{header}\n{body}" if header else body
    return f"{joined}\n{text}" if joined else text


def document_title(fields: Mapping[str, object]) -> str | None:
    """A document's title field (front matter ``title``, an HTML ``<title>``), when it has one."""
    title = fields.get("title")
    return title.strip() or None if isinstance(title, str) else None


def dense_columns(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """``search_docs``'s dense-term columns (``d0``, ``d1``, ...), in table order. Read from an empty
    result's description: asking ``information_schema.columns`` cost 2 ms of CPU, this 0.3 ms."""
    names = [column[0] for column in cur.execute("SELECT * FROM search_docs LIMIT 0").description]
    return [n for n in names if n.startswith("d") and n[1:].isdigit()]


def index_chunks(
    cur: duckdb.DuckDBPyConnection, chunks: list[tuple[int, int, int]], retired: list[tuple[int, int]],
    terms: TermPostings | None = None,
) -> None:
    """Index ``(document_id, version, ordinal)`` with their ``terms`` (``count_terms_bulk`` of their
    ``index_text``s, in the same order) and retire ``(document_id, version)``."""
    import numpy as np  # writers only: a process that only searches never loads it

    if retired:
        execute(cur,
            """UPDATE search_docs SET live = false WHERE live AND (document_id, version) IN
               (SELECT (unnest(?::BIGINT[]), unnest(?::INTEGER[])))""",
            [[d for d, _ in retired], [v for _, v in retired]],
        )
        cur.execute(
            """UPDATE search_stats SET live_chunks = (SELECT count(*) FROM search_docs WHERE live),
               total_length = (SELECT coalesce(sum(length), 0) FROM search_docs WHERE live)"""
        )
    if not chunks:
        return
    if terms is None or len(terms.lengths) != len(chunks):
        raise ValueError(f"index_chunks: {len(chunks)} chunks need the terms of as many texts")
    # postings as flat arrays (count_terms_bulk): each distinct term of the batch is looked up once
    vocabulary = sorted(terms.vocabulary)
    with arrow_view(cur, "clew_vocabulary", {"term": vocabulary}):
        rows = cur.execute(
            "SELECT t.term, t.term_id, t.dense_col FROM search_terms t JOIN clew_vocabulary q ON q.term = t.term"
        ).fetchall()
    id_of: dict[str, int] = {term: term_id for term, term_id, _ in rows}
    next_id = int(one(cur, "SELECT coalesce(max(term_id), 0) + 1 FROM search_terms")[0])
    new_terms = [t for t in vocabulary if t not in id_of]
    id_of.update(zip(new_terms, range(next_id, next_id + len(new_terms))))
    chunk_ids = np.sort(execute(cur, "SELECT nextval('search_chunk_ids') AS id FROM range(?)",
                                    [len(chunks)]).fetchnumpy()["id"].astype(np.int64))
    columns = dense_columns(cur)
    # into an empty index (a new corpus's first batch), below the size compaction chooses dense terms at:
    # the postings are written as compaction would leave them, sorted by (term, chunk), so none runs
    in_order = (not retired and not columns and len(chunks) < MIN_DENSE_CHUNKS
                and not one(cur, "SELECT count(*) FROM search_docs")[0])
    total = len(terms.term)
    global_ids = np.fromiter(map(id_of.__getitem__, terms.vocabulary), dtype=np.int64, count=len(terms.vocabulary))
    term_ids = global_ids[terms.term]
    tfs = terms.tf
    lengths = terms.lengths
    owner = terms.text  # the chunk (batch position) of each posting
    capped = np.minimum(tfs, 32767).astype(np.int16)
    docs: dict[str, Any] = {
        "chunk_id": chunk_ids, "document_id": [d for d, *_ in chunks], "version": [v for _, v, *_ in chunks],
        "ordinal": [o for _, _, o in chunks], "length": lengths, "live": np.ones(len(chunks), dtype=bool)}
    dense = {term_id: col for _, term_id, col in rows if col is not None and col < len(columns)}
    matrix = np.zeros((len(columns), len(chunks)), dtype=np.int16)
    if dense:
        col_of = np.full(int(term_ids.max()) + 1, -1, dtype=np.int64)
        col_of[list(dense)] = list(dense.values())
        cols = col_of[term_ids]
        hit = cols >= 0
        matrix[cols[hit], owner[hit]] = capped[hit]
    posting_order = np.lexsort((owner, term_ids)) if in_order else slice(None)
    postings = {"term_id": term_ids[posting_order].astype(np.int32), "chunk_id": chunk_ids[owner][posting_order],
                "tf": capped[posting_order], "length": lengths[owner][posting_order]}
    insert_columns(cur, "search_docs", {**docs, **{name: matrix[i] for i, name in enumerate(columns)}})
    insert_columns(cur, "search_postings", postings)
    # each posting is one (chunk, term) pair, so a term's postings here are its df: counted by the batch's
    # own term numbers and put in term-id order (a sort of the vocabulary, not ``np.unique``'s of every posting)
    counts = np.bincount(terms.term, minlength=len(terms.vocabulary))
    order = np.argsort(global_ids, kind="stable")
    order = order[counts[order] > 0]
    unique_terms, df = global_ids[order], counts[order]
    total_length = int(lengths.sum())
    # the new terms' ids are next_id, next_id + 1, ... and each occurs here: the sorted tail
    fresh = unique_terms >= next_id
    insert_columns(cur, "search_terms", {
        "term_id": unique_terms[fresh], "term": new_terms, "df": df[fresh], "dense_col": [None] * len(new_terms)})
    if not fresh.all():
        with arrow_view(cur, "clew_df", {"term_id": unique_terms[~fresh], "n": df[~fresh]}):
            cur.execute(
                "UPDATE search_terms SET df = search_terms.df + clew_df.n FROM clew_df WHERE search_terms.term_id = "
                "clew_df.term_id"
            )
    execute(cur, 
        """UPDATE search_stats SET live_chunks = live_chunks + ?, total_length = total_length + ?,
           postings = postings + ?, sorted_postings = sorted_postings + ?""",
        [len(chunks), total_length, total, total if in_order else 0],
    )


def needs_compaction(cur: duckdb.DuckDBPyConnection) -> bool:
    """Whether the unsorted tail is past ``COMPACT_SHARE`` of the postings. Crossing ``MIN_DENSE_CHUNKS`` does not ask
    for a compaction by itself: an index no compaction has seen past it (a sorted first batch, or a compaction under
    it, then small batches) has no dense terms, but at most ``1 / (1 - COMPACT_SHARE)`` times the postings of an index
    under ``MIN_DENSE_CHUNKS`` chunks, and scanning those is cheap: at 1,751 chunks so, a BM25 query took 7.4 ms
    against a compacted copy's 8.9 (its 131 dense columns), the same answers (docs/measurements/ingest-2026-12-04.md,
    task F2)."""
    postings, sorted_rows = one(cur, "SELECT postings, sorted_postings FROM search_stats")
    return bool(postings > 0 and (postings - sorted_rows) > COMPACT_SHARE * postings)


def is_compact(cur: duckdb.DuckDBPyConnection) -> bool:
    """No retired rows left in the index and every posting sorted (what ``compact`` leaves)."""
    postings, sorted_rows = one(cur, "SELECT postings, sorted_postings FROM search_stats")
    (dead,) = one(cur, "SELECT count(*) FROM search_docs WHERE NOT live")
    return bool(postings == sorted_rows and dead == 0)


@in_turn
def compact(corpus: Corpus) -> None:
    """Drop dead rows, recount, re-choose dense terms, rewrite postings sorted.

    On a file, in two steps, so that the sorted postings go into the blocks the unsorted ones
    freed: the first transaction does everything else, writes the sorted postings to Parquet files
    beside the corpus (synced), drops the unsorted table and names the files in ``clew_meta``
    (``PENDING_POSTINGS``); after a checkpoint the second writes them back and clears the record.
    In one transaction, the dropped table's blocks were free only after the sorted copy had been
    written past them: 10.1-10.2% of the file at 100,000 chunks, which the file rewrite after an
    ingest then took 1.5-1.8 s to give back; in two, 2.2-2.4% (docs/measurements/ingest-2026-12-04.md,
    sections 20 and 21). A process that dies between the two leaves the record, and the next
    read-write open finishes the compaction (``Corpus.finish_compaction``), and so does the next compaction
    when its second step failed (a full disk) in a process that lives on. Marked readers (a server's
    requests, ``Corpus.readers``) wait outside while it runs. In memory, or while readers stay inside
    past ``READERS_WAIT_SECONDS``: one transaction.

    What the write-ahead log holds is checkpointed first: rows a checkpoint has not written stay in
    memory, and an ingest defers its checkpoint to its end (``Corpus.deferred_checkpoint``), so its
    last batches' rows sat in memory beside the compaction's new tables. Checkpointed first, a
    1M-chunk ingest peaked 120 MB lower and ran 3% faster (docs/measurements/ingest-2026-12-04.md). That checkpoint only
    saves memory: if it fails, the compaction runs without it (and fails on its own if the store does).
    """
    try:
        corpus.checkpoint("before the index compaction")
    except CheckpointFailure as error:
        logger.info("compacting without a checkpoint first: %s", error)
    with corpus.transaction() as cur:
        waiting = one(cur, f"SELECT count(*) FROM clew_meta WHERE key = '{PENDING_POSTINGS}'")[0]
    if waiting:  # a compaction whose second step failed (a full disk): its staged files hold the postings
        corpus.finish_compaction()
    if corpus.path == ":memory:":
        _compact(corpus, staged=False)
        return
    # between the two steps ``search_postings`` is empty: the marked readers (a server's requests) are
    # kept out, as a file rewrite keeps them; if some stay past the wait, one transaction it is
    with corpus.readers.drained(READERS_WAIT_SECONDS) as idle:
        if not idle:
            logger.info("readers still inside after %.0f s: the index compaction runs in one transaction",
                        READERS_WAIT_SECONDS)
        _compact(corpus, staged=idle)


READERS_WAIT_SECONDS = 10.0
"""How long a compaction waits for the marked readers to leave before it runs in two steps."""


def _compact(corpus: Corpus, *, staged: bool) -> None:
    files: list[Path] = []  # this write's staged postings, removed if its transaction fails
    try:
        _first_step(corpus, staged, files)
    except BaseException:
        for f in files:
            f.unlink(missing_ok=True)
        raise
    if staged:
        _refill(corpus)


def _first_step(corpus: Corpus, staged: bool, files: list[Path]) -> None:
    with corpus.transaction() as cur:
        cur.execute("DELETE FROM search_postings WHERE chunk_id IN (SELECT chunk_id FROM search_docs WHERE NOT live)")
        cur.execute("DELETE FROM search_docs WHERE NOT live")
        live = int(one(cur, "SELECT count(*) FROM search_docs")[0])
        cur.execute(
            """CREATE OR REPLACE TEMP TABLE clew_df AS
               SELECT term_id, count(*)::INTEGER AS n FROM search_postings GROUP BY term_id"""
        )
        cur.execute(
            "UPDATE search_terms SET df = coalesce((SELECT n FROM clew_df WHERE clew_df.term_id = "
            "search_terms.term_id), 0), dense_col = NULL"
        )
        cur.execute("DROP TABLE clew_df")
        dense: list[int] = []
        if live >= MIN_DENSE_CHUNKS:
            dense = [r[0] for r in execute(cur, 
                "SELECT term_id FROM search_terms WHERE df >= ? ORDER BY df DESC, term_id LIMIT ?",
                [max(1, int(DENSE_SHARE * live)), MAX_DENSE_TERMS],
            ).fetchall()]
        if dense:
            execute(cur, 
                """UPDATE search_terms SET dense_col = m.col FROM
                   (SELECT unnest(?::INTEGER[]) AS term_id, unnest(range(?)) AS col) m
                   WHERE search_terms.term_id = m.term_id""",
                [dense, len(dense)],
            )
        total_postings = int(one(cur, "SELECT count(*) FROM search_postings")[0])
        if staged:
            _rebuild_docs(cur, len(dense))  # from the postings still in place (their order does not matter)
            _stage_sorted(cur, Path(corpus.path), files)
            # an empty table of the same columns; the sorted rows come back after the checkpoint
            cur.execute("CREATE TABLE search_postings_sorted AS SELECT * FROM search_postings LIMIT 0")
            cur.execute("DROP TABLE search_postings")
            cur.execute("ALTER TABLE search_postings_sorted RENAME TO search_postings")
            execute(cur, "INSERT OR REPLACE INTO clew_meta VALUES (?, ?)",
                    [PENDING_POSTINGS, json.dumps([f.name for f in files])])
        else:
            _write_sorted(cur)
            cur.execute("DROP TABLE search_postings")
            cur.execute("ALTER TABLE search_postings_sorted RENAME TO search_postings")
            _rebuild_docs(cur, len(dense))
        cur.execute("DROP TABLE search_docs")
        cur.execute("ALTER TABLE search_docs_new RENAME TO search_docs")
        execute(cur, 
            """UPDATE search_stats SET live_chunks = ?, total_length = (SELECT coalesce(sum(length), 0) FROM
                search_docs),
               postings = ?, sorted_postings = ?, dense_terms = ?""",
            [live, total_postings, total_postings, len(dense)],
        )


def _refill(corpus: Corpus) -> None:
    """The second step of a staged compaction: a checkpoint (the dropped postings' blocks become free),
    then the sorted postings written back into them (``Corpus.finish_compaction``)."""
    try:
        corpus.checkpoint("between the index compaction's two steps")
    except CheckpointFailure as error:
        logger.info("refilling the postings without a checkpoint first: %s", error)
    corpus.finish_compaction()


SORT_POSTINGS = 8_000_000
"""Postings sorted at once when compaction rewrites them in (term, chunk) order. DuckDB's sort
holds about 26 bytes a posting: sorted in one piece, the 52 million postings of a 1M-chunk corpus
took 1.34 GB, most of that ingest's peak memory. Larger indexes are sorted a range of term ids at
a time, each range about this many postings (a term's postings are never split), and appended in
order: the same table, its peak bounded whatever the corpus's size."""


def _write_sorted(cur: duckdb.DuckDBPyConnection) -> None:
    """``search_postings_sorted``: the postings in (term_id, chunk_id) order (``search_terms.df`` is current)."""
    for i, where in enumerate(_term_ranges(cur)):
        into = "CREATE TABLE search_postings_sorted AS" if i == 0 else "INSERT INTO search_postings_sorted"
        cur.execute(f"{into} SELECT * FROM search_postings{where} ORDER BY term_id, chunk_id")


def _stage_sorted(cur: duckdb.DuckDBPyConnection, corpus: Path, files: list[Path]) -> None:
    """The postings in (term_id, chunk_id) order written to Parquet files beside ``corpus``, a range
    of term ids a file (as ``_write_sorted`` sorts them), each synced to disk; ``files`` gets their
    paths, in order, as each is begun.

    The names are this write's own (``{name}.postings-{write}-{i}.parquet``): with one name for every
    compaction (``postings-0``), a compaction run between another's two steps (two threads' ingests)
    removed the other's files as stale, wrote its own under the same name and replaced the record, so
    the other's second step loaded its file and the other's sorted postings (the whole index) were
    lost. Files no record names (a compaction that died before its first commit left them; any record
    was finished first, ``compact``) are removed first."""
    write = uuid.uuid4().hex[:12]
    try:
        for stale in staged_postings_files(corpus):
            stale.unlink(missing_ok=True)
        for i, where in enumerate(_term_ranges(cur)):
            target = corpus.with_name(f"{corpus.name}.postings-{write}-{i}.parquet")
            files.append(target)
            cur.execute(f"COPY (SELECT * FROM search_postings{where} ORDER BY term_id, chunk_id) TO "
                        f"'{_quoted(target)}' (FORMAT parquet)")
            fsync(target)
        fsync(corpus.parent)
    except OSError as error:  # DuckDB's own failures are the transaction's StoreFailure already
        raise StoreFailure(str(corpus), error, "writing the index compaction's sorted postings beside the corpus",
                           "the compaction was rolled back") from error


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


def _term_ranges(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """``WHERE`` clauses (or ``""``) splitting the postings into ranges of term ids of about
    ``SORT_POSTINGS`` postings each, in term order (``search_terms.df`` is current)."""
    starts = [r[0] for r in execute(cur,
        """SELECT min(term_id) FROM (SELECT term_id, sum(df) OVER (ORDER BY term_id) - df AS before
                                     FROM search_terms WHERE df > 0)
           GROUP BY before // ? ORDER BY 1""", [SORT_POSTINGS]).fetchall()]
    edges: list[int | None] = [None, *starts[1:], None]  # the first range takes every term below the second
    clauses = []
    for low, high in zip(edges, edges[1:]):
        bounds = [f"term_id {op} {int(edge)}" for op, edge in ((">=", low), ("<", high)) if edge is not None]
        clauses.append(f" WHERE {' AND '.join(bounds)}" if bounds else "")
    return clauses


PIVOT_CHUNKS = 1 << 17
"""Chunks per slice when compaction pivots the dense terms into columns: a slice's matrix is
``dense terms x PIVOT_CHUNKS`` SMALLINTs (64 MiB at 256 terms), whatever the corpus's size; with it the
dense postings fetched for the slice. At 1 << 18 these were the peak of a 1M-chunk ingest
(docs/measurements/ingest-2026-12-04.md)."""


def _rebuild_docs(cur: duckdb.DuckDBPyConnection, dense: int) -> None:
    """Write ``search_docs_new``: ``search_docs`` in chunk-id order with one SMALLINT column per
    dense term (``d0`` .. ``d{dense - 1}``, the chunk's tf of that term, else 0).

    The pivot is a numpy scatter of the dense postings, a slice of chunks at a time: in SQL
    (a map per chunk, then one lookup per column) it was two thirds of the compaction.
    """
    import numpy as np

    ids = np.sort(np.asarray(cur.execute("SELECT chunk_id FROM search_docs").fetchnumpy()["chunk_id"]))
    bounds = [int(chunk_id) for chunk_id in ids[::PIVOT_CHUNKS]]  # the first chunk id of each slice
    del ids
    if not bounds:
        cur.execute("CREATE TABLE search_docs_new AS SELECT chunk_id, document_id, version, ordinal, length, live"
                    + "".join(f", 0::SMALLINT AS d{i}" for i in range(dense)) + " FROM search_docs")
        return
    for index, low in enumerate(bounds):
        high = bounds[index + 1] if index + 1 < len(bounds) else None
        where = f"chunk_id >= {low}" + ("" if high is None else f" AND chunk_id < {high}")
        base = cur.execute(f"SELECT chunk_id, document_id, version, ordinal, length, live FROM search_docs "
                           f"WHERE {where} ORDER BY chunk_id").fetchnumpy()
        chunk_ids = np.asarray(base["chunk_id"])
        columns: dict[str, Any] = {name: np.asarray(values) for name, values in base.items()}
        if dense:
            got = cur.execute(
                f"""SELECT p.chunk_id, t.dense_col, p.tf FROM search_postings p JOIN search_terms t
                    ON t.term_id = p.term_id WHERE t.dense_col IS NOT NULL AND p.{where}""").fetchnumpy()
            matrix = np.zeros((dense, len(chunk_ids)), dtype=np.int16)
            owners = np.asarray(got["chunk_id"])
            at = np.minimum(np.searchsorted(chunk_ids, owners), max(len(chunk_ids) - 1, 0))
            kept = chunk_ids[at] == owners if len(chunk_ids) else np.zeros(len(owners), dtype=bool)
            matrix[np.asarray(got["dense_col"])[kept], at[kept]] = np.asarray(got["tf"])[kept]  # orphans dropped
            columns.update((f"d{i}", matrix[i]) for i in range(dense))
        with arrow_view(cur, "clew_docs", columns):
            if index == 0:
                cur.execute("CREATE TABLE search_docs_new AS SELECT * FROM clew_docs")
            else:
                cur.execute("INSERT INTO search_docs_new SELECT * FROM clew_docs")
