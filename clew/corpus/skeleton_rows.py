"""Each version's skeleton in one stored row (table ``skeletons``), read by one indexed lookup.

A version's first touch used to read its version row, its document row and every one of its
``nodes`` and ``chunks`` rows through their indexes, eleven columns each: about 10 ms of
DuckDB's time at 20k chunks, most of it in fetching columns row by row. A version never
changes once written, so ingestion also writes, in the same transaction as its other rows, one
``skeletons`` row (``clew.corpus.ingest.version_rows.insert_skeletons``): the version's text, what
never changes about its document (collection, key) and its fields, and its nodes' and chunks'
navigation columns and page offsets as one JSON value (``encode``). The first touch then reads
that row, and in the same statement the document's current version: two point lookups, no join
(a join of point lookups costs DuckDB more than the lookups themselves; see ``STORED_SQL``).

``nodes`` and ``chunks`` stay the record. A version without a row, or whose row does not decode
(``decode`` checks its shape), is read from them as before (``load``), never lost: a file of
schema version 2 or older opened read-only has no table at all and is read that way throughout;
opened read-write it gets the table filled once (``backfill``).

Permissions do not change: readability is the scope's predicate, applied in SQL, over the
row's copies of the version's fields and collection. A principal that reads everything gets it
with the row, as it got it with the structure before; a restricted one still asks readability
alone first (``NO_PAYLOAD``: no text or structure read) and then reads the rows of the readable
versions only (``load``), so that a denied version costs what a missing one does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import duckdb

from clew.corpus.sql import insert_columns, one
from clew.corpus.structure import (
    STRUCTURE_SQL,
    ChunkInfo,
    NodeInfo,
    Skeleton,
    VersionMeta,
    int_list,
    load_skeletons,
    skeletons_of,
)

FORMAT = 1
"""The first element of every stored value; a value of another format is read from the tables."""
BACKFILL_DOCUMENTS = 2000
"""Documents whose rows ``backfill`` reads and writes at a time."""

_COLUMNS = "document_id, version, collection_id, collection, key, fields, text, structure"

# format: ids (int_list), predicate (the scope's, over ``v`` with its collection as ``v.collection``),
# columns (``PAYLOAD`` or ``NO_PAYLOAD``): a row per stored version of the documents (0; with
# ``PAYLOAD`` its text and structure, which the caller keeps only where the predicate holds), then
# each document's current version (1). Two lookups through their indexes, no join, no subquery and
# no materialised CTE (each costs DuckDB more than a lookup); the predicate is a projected column,
# not a filter, so that it cannot be pushed into the scan and turn the index scan into a sequential
# one. ``PAYLOAD`` is asked only for a principal that reads everything, whose predicate can hold
# no more than the scope's own collection and filter (nothing it may not know): text read for a
# row outside them is dropped, not hidden. Every stored version's row is read, older ones too:
# measured on DuckDB 1.5, a condition on ``version`` in the WHERE clause loses the index scan
# (0.46 -> 2.0-2.6 ms), and a projected ``CASE WHEN version = ... THEN text END`` costs the usual
# one- or two-version document 0.1 ms to save 0.1-0.3 ms at 50 versions of 11 KB each.
STORED_SQL = """SELECT 0, document_id, version, collection_id, collection, key, fields, {columns},
       coalesce({predicate}, FALSE)
FROM skeletons v WHERE document_id IN ({ids})
UNION ALL
SELECT 1, id, current_version, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM documents WHERE id IN ({ids})"""
PAYLOAD = {"columns": "text, structure"}
NO_PAYLOAD = {"columns": "NULL::VARCHAR, NULL::VARCHAR"}
"""Readability alone (a restricted principal's first question: no text or structure is read)."""
# format: ids (int_list)
STORED_STRUCTURE_SQL = "SELECT document_id, version, text, structure FROM skeletons WHERE document_id IN ({ids})"
# format: lo, hi (document ids): the versions without a row, read by a scan of the id range
_BACKFILL_META_SQL = """SELECT v.document_id, v.version, d.collection_id, col.name, d.key, v.fields
FROM document_versions v JOIN documents d ON d.id = v.document_id JOIN collections col ON col.id = d.collection_id
WHERE v.document_id BETWEEN {lo} AND {hi}
  AND NOT EXISTS (SELECT 1 FROM skeletons s WHERE s.document_id = v.document_id AND s.version = v.version)"""
_BACKFILL_STRUCTURE_SQL = STRUCTURE_SQL.replace("IN ({ids})", "BETWEEN {lo} AND {hi}")


def encode(nodes: list[tuple[Any, ...]], chunks: list[tuple[Any, ...]], pages: list[int] | tuple[int, ...]) -> str:
    """The stored value: nodes and chunks as lists in ``NodeInfo`` and ``ChunkInfo`` field order."""
    return json.dumps([FORMAT, nodes, chunks, list(pages)], separators=(",", ":"), ensure_ascii=False)


def decode(document_id: int, version: int, text: str, value: str) -> Skeleton | None:
    """The skeleton a stored value holds, or None when the value is not one ``encode`` wrote."""
    try:
        form, nodes, chunks, pages = json.loads(value)
        if form != FORMAT:
            return None
        node_infos = [NodeInfo(o, p, k, h, tuple(path), s, e, f, la) for o, p, k, h, path, s, e, f, la in nodes]
        chunk_infos = [ChunkInfo(o, s, e, k, n, tuple(sections), t, h, tokens)
                       for o, s, e, k, n, sections, t, h, tokens in chunks]
        pages = tuple(int(p) for p in pages)
    except (ValueError, TypeError):  # not JSON, or not of the shape written (ValueError: wrong lengths)
        return None
    if any(n.ordinal != i for i, n in enumerate(node_infos)) or any(c.ordinal != i for i, c in enumerate(chunk_infos)):
        return None  # lookups index nodes and chunks by ordinal
    return Skeleton.build(document_id, version, text, node_infos, chunk_infos, pages)


def encode_skeleton(skeleton: Skeleton) -> str:
    return encode(list(skeleton.nodes), list(skeleton.chunks), skeleton.pages)


def backfill(cur: duckdb.DuckDBPyConnection) -> int:
    """Write the row of every version that has none, from its stored rows; returns how many."""
    top = one(cur, "SELECT coalesce(max(document_id), 0) FROM document_versions")[0]
    written = 0
    for lo in range(1, int(top) + 1, BACKFILL_DOCUMENTS):
        hi = lo + BACKFILL_DOCUMENTS - 1
        metas = cur.execute(_BACKFILL_META_SQL.format(lo=lo, hi=hi)).fetchall()
        if not metas:
            continue
        rows = cur.execute(_BACKFILL_STRUCTURE_SQL.format(lo=lo, hi=hi)).fetchall()
        built = skeletons_of(cur, rows, {(int(d), int(v)) for d, v, *_ in metas})
        metas = [m for m in metas if (m[0], m[1]) in built]
        columns = zip(*[(*m, built[(m[0], m[1])].text, encode_skeleton(built[(m[0], m[1])])) for m in metas])
        insert_columns(cur, "skeletons", dict(zip(_COLUMNS.split(", "), map(list, columns), strict=True)))
        written += len(metas)
    return written


def read_stored(
    cur: duckdb.DuckDBPyConnection, wanted: set[tuple[int, int]], predicate: str, params: list[Any], *,
    structure: bool, also: Iterable[int] = (),
) -> tuple[dict[tuple[int, int], tuple[VersionMeta, Skeleton | None] | None], dict[int, int]]:
    """One statement: for each ``wanted`` version with a row, its metadata where the predicate holds
    (None where it does not) and, where ``structure``, its skeleton; and the current versions of the
    wanted documents. A version with no row, or (``structure``) a row that does not decode, is left out.
    ``structure`` only for a principal that reads everything: the text of every row is read, and
    dropped here where the predicate does not hold (see ``STORED_SQL``). ``also``: documents read
    beside them and dropped (decoys: ``Scope._decoys``)."""
    docs = {d for d, _ in wanted}
    sql = STORED_SQL.format(ids=int_list(sorted(docs | set(also))), predicate=predicate,
                            **(PAYLOAD if structure else NO_PAYLOAD))
    found: dict[tuple[int, int], tuple[VersionMeta, Skeleton | None] | None] = {}
    current: dict[int, int] = {}
    for part, doc, version, col_id, col_name, key, fields, text, value, ok in cur.execute(sql, params).fetchall():
        if part == 1:
            if doc in docs:
                current[int(doc)] = int(version)
        elif (doc, version) in wanted:
            if not ok:
                found[(doc, version)] = None
                continue
            skeleton = decode(doc, version, text, value) if structure else None
            if skeleton is not None or not structure:
                found[(doc, version)] = (VersionMeta(int(col_id), col_name, key, json.loads(fields)), skeleton)
    return found, current


def load(cur: duckdb.DuckDBPyConnection, wanted: list[tuple[int, int]], *,
         stored: bool) -> dict[tuple[int, int], Skeleton]:
    """The skeletons of ``wanted`` versions (readable ones: no permission is checked here) from their
    rows where ``stored``; a version without a good row is read from ``nodes`` and ``chunks``."""
    keys = {(int(d), int(v)) for d, v in wanted}
    found: dict[tuple[int, int], Skeleton] = {}
    if stored and keys:
        for doc, version, text, structure in cur.execute(
                STORED_STRUCTURE_SQL.format(ids=int_list(sorted({d for d, _ in keys})))).fetchall():
            if (doc, version) in keys and (skeleton := decode(doc, version, text, structure)) is not None:
                found[(doc, version)] = skeleton
    rest = [key for key in keys if key not in found]
    return found | load_skeletons(cur, rest) if rest else found
