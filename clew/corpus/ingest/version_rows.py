"""Write the rows of new document versions: versions, structure nodes, chunks, anchors, pages, edges, skeletons;
read the versions a collection holds (``existing_versions``), retire those an ingest did not find
(``prune_collection``) or name those whose files are gone (``files_gone``).

Rows are gathered column by column (one list per column, extended a document at a time) and
handed to DuckDB as Arrow tables (``insert_columns``): no Python loop over cells.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from operator import attrgetter
from pathlib import Path
from typing import Any

import duckdb

from clew.corpus import ids
from clew.corpus.access import Filter, compile_filter
from clew.corpus.documents import retire
from clew.corpus.ingest.prepare import PreparedDocument, node_of
from clew.corpus.skeleton_rows import encode
from clew.corpus.sql import arrow_view, execute, inline, insert_columns, one
from clew.corpus.store import Corpus

Written = list[tuple[int, int, PreparedDocument]]
"""(document id, version, the prepared document) of each version to write."""

EDGE_COLUMNS = ("collection_id", "graph", "type", "src_kind", "src", "dst_kind", "dst", "dst_ref", "weight",
                "document_id", "version")


def insert_versions(cur: duckdb.DuckDBPyConnection, collection_id: int, written: Written) -> dict[str, list[object]]:
    """Insert every row of the ``written`` versions but their edges (the ``documents`` rows exist
    already); returns the edges' column lists, for the caller to insert once their links are
    resolved (``clew.corpus.links.resolve_links``: a link stored with its ``dst`` is not updated)."""
    versions: dict[str, list[object]] = {k: [] for k in (
        "document_id", "version", "content_hash", "format", "source", "title", "fields", "text", "chunking")}
    nodes: dict[str, list[object]] = {k: [] for k in (
        "document_id", "version", "ordinal", "parent", "kind", "heading", "level", "heading_path",
        "start_offset", "end_offset", "first_chunk", "last_chunk")}
    chunks: dict[str, list[object]] = {k: [] for k in (
        "document_id", "version", "ordinal", "start_offset", "end_offset", "kind", "node", "sections",
        "table_node", "header", "heading_path", "body", "token_count", "oversize")}
    anchors: dict[str, list[object]] = {k: [] for k in ("document_id", "version", "anchor", "chunk")}
    pages: dict[str, list[object]] = {k: [] for k in ("document_id", "version", "starts")}
    edges: dict[str, list[object]] = {k: [] for k in EDGE_COLUMNS}

    def add_edges(graph: str, type_: str, src_kind: str, src: list[str], dst_kind: str, dst: list[str | None],
                  dst_ref: list[str | None], doc_id: int, version: int) -> None:
        n = len(src)
        _extend(edges, [collection_id] * n, [graph] * n, [type_] * n, [src_kind] * n, src, [dst_kind] * n, dst,
                dst_ref, [1.0] * n, [doc_id] * n, [version] * n)

    for doc_id, version, doc in written:
        text = doc.parsed.text
        _extend(versions, *([cell] for cell in (doc_id, version, doc.content_hash, doc.format, doc.source, doc.title,
                                                json.dumps(doc.fields, default=str), text, doc.chunking)))
        _add_nodes(nodes, doc_id, version, doc)
        children = [node for node in doc.nodes if node.parent is not None]
        add_edges("section_hierarchy", "child", "node", [ids.node_id(doc_id, version, n.parent or 0) for n in children],
                  "node", [ids.node_id(doc_id, version, n.ordinal) for n in children], [None] * len(children),
                  doc_id, version)
        _add_chunks(chunks, doc_id, version, doc)
        chunk_ids = [ids.chunk_id(doc_id, version, ordinal) for ordinal in range(len(doc.chunks))]
        add_edges("reading_order", "next", "chunk", chunk_ids[:-1], "chunk", list(chunk_ids[1:]),
                  [None] * max(len(chunk_ids) - 1, 0), doc_id, version)
        if doc.parsed.pages:
            _extend(pages, [doc_id], [version], [doc.parsed.pages])
        n = len(doc.anchors)
        _extend(anchors, [doc_id] * n, [version] * n, list(doc.anchors), list(doc.anchors.values()))
        add_edges("links", "links_to", "chunk", [ids.chunk_id(doc_id, version, o) for o, _ in doc.links], "chunk",
                  [None] * len(doc.links), [target for _, target in doc.links], doc_id, version)
    insert_columns(cur, "document_versions", versions)
    insert_columns(cur, "nodes", nodes)
    insert_columns(cur, "chunks", chunks)
    insert_columns(cur, "anchors", anchors)
    if pages["document_id"]:
        insert_columns(cur, "page_offsets", pages)
    insert_skeletons(cur, collection_id, written)
    return edges


def _add_nodes(nodes: dict[str, list[object]], doc_id: int, version: int, doc: PreparedDocument) -> None:
    rows = doc.nodes
    n = len(rows)
    _extend(
        nodes, [doc_id] * n, [version] * n, [r.ordinal for r in rows], [r.parent for r in rows], [r.kind for r in rows],
        [r.heading for r in rows], [r.level for r in rows], [r.heading_path for r in rows], [r.start for r in rows],
        [r.end for r in rows], [r.first_chunk for r in rows], [r.last_chunk for r in rows],
    )


def _add_chunks(chunks: dict[str, list[object]], doc_id: int, version: int, doc: PreparedDocument) -> None:
    rows, text, parsed = doc.chunks, doc.parsed.text, doc.parsed
    table_base = len(parsed.sections)
    paths: dict[int, list[str]] = {}  # a section's heading path, computed once per document
    n = len(rows)
    _extend(
        chunks, [doc_id] * n, [version] * n, range(n), [c.start for c in rows], [c.end for c in rows],
        [c.kind for c in rows], [node_of(c, table_base) for c in rows], [c.sections for c in rows],
        [None if c.table is None else table_base + c.table for c in rows], [c.header for c in rows],
        [paths[s] if (s := c.sections[0]) in paths else paths.setdefault(s, parsed.heading_path(s)) for c in rows],
        [text[c.start : c.end] for c in rows], [c.token_count for c in rows], [c.oversize for c in rows],
    )


def _extend(table: dict[str, list[object]], *columns: Iterable[object]) -> None:
    """Extend each of ``table``'s columns, in order, by the cells given for it (one iterable per column)."""
    for cells, given in zip(table.values(), columns, strict=True):
        cells.extend(given)


def insert_skeletons(cur: duckdb.DuckDBPyConnection, collection_id: int,
                     written: list[tuple[int, int, PreparedDocument]]) -> None:
    """Write the ``skeletons`` rows of new versions (in the transaction writing their other rows)."""
    if not written:
        return
    collection = one(cur, inline("SELECT name FROM collections WHERE id = ?", [collection_id]))[0]
    insert_columns(cur, "skeletons", {
        "document_id": [d for d, _, _ in written], "version": [v for _, v, _ in written],
        "collection_id": [collection_id] * len(written), "collection": [collection] * len(written),
        "key": [doc.key for _, _, doc in written],
        "fields": [json.dumps(doc.fields, default=str) for _, _, doc in written],
        "text": [doc.parsed.text for _, _, doc in written],
        "structure": [encode_prepared(doc) for _, _, doc in written],
    })


def encode_prepared(doc: PreparedDocument) -> str:
    """The ``skeletons`` value of a document about to be written (what its other rows hold)."""
    table_base = len(doc.parsed.sections)
    nodes = [(n.ordinal, n.parent, n.kind, n.heading, list(n.heading_path), n.start, n.end, n.first_chunk,
              n.last_chunk) for n in sorted(doc.nodes, key=attrgetter("ordinal"))]
    chunks = [(i, c.start, c.end, c.kind, node_of(c, table_base), list(c.sections),
               None if c.table is None else table_base + c.table, c.header, c.token_count)
              for i, c in enumerate(doc.chunks)]
    return encode(nodes, chunks, doc.parsed.pages or [])


def existing_versions(
    cur: duckdb.DuckDBPyConnection, collection_id: int, keys: list[str], row_filter: Filter | None = None
) -> dict[str, tuple[int, int, str | None, bool]]:
    """Key -> (document id, current version, its content hash (None for a retired document), and
    whether ``row_filter`` may read its latest version: the current one, or the retired one)."""
    if not keys:
        return {}
    params: list[Any] = []
    readable = "TRUE" if row_filter is None else compile_filter(row_filter, params, "lv")
    with arrow_view(cur, "clew_keys", {"key": keys}):
        rows = execute(cur, 
            f"""SELECT d.key, d.id, d.current_version, v.content_hash, coalesce({readable}, FALSE)
               FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
               LEFT JOIN document_versions lv ON lv.document_id = d.id
                    AND lv.version = d.current_version - CASE WHEN v.document_id IS NULL THEN 1 ELSE 0 END
               JOIN clew_keys k ON k.key = d.key
               WHERE d.collection_id = ?""",
            [*params, collection_id],
        ).fetchall()
    return {key: (int(doc_id), int(version), content_hash, bool(ok)) for key, doc_id, version, content_hash, ok in rows}


def current_documents(cur: duckdb.DuckDBPyConnection, collection: str, row_filter: Filter | None = None
                      ) -> list[tuple[str, int, int, str | None]]:
    """(key, document id, current version, source) of each current document of ``collection``, by key; with a
    ``row_filter`` (a writer's), only those whose current version it may read. One query, by the
    documents' primary key."""
    params: list[Any] = []
    readable = "TRUE" if row_filter is None else compile_filter(row_filter, params, "v")
    rows = execute(cur,
        f"""SELECT d.key, d.id, d.current_version, v.source FROM documents d
           JOIN collections col ON col.id = d.collection_id
           JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
           WHERE col.name = ? AND coalesce({readable}, FALSE) ORDER BY d.key""",
        [collection, *params],
    ).fetchall()
    return [(key, int(doc_id), int(version), source) for key, doc_id, version, source in rows]


def prune_collection(corpus: Corpus, collection: str, seen: set[str], row_filter: Filter | None = None) -> list[str]:
    """Retire the collection's current documents whose keys are not in ``seen``; returns their keys.

    With a ``row_filter`` (a writer's), only documents whose current version it may read are
    retired and named: one it cannot read is neither touched nor reported, as if absent."""
    with corpus.transaction() as cur:
        gone = [(key, doc_id, version) for key, doc_id, version, _ in current_documents(cur, collection, row_filter)
                if key not in seen]
        if gone:
            retire(cur, [(doc_id, version) for _, doc_id, version in gone])
    return [key for key, _, _ in gone]


def files_gone(corpus: Corpus, collection: str, seen: set[str], folders: Iterable[Path],
               row_filter: Filter | None = None) -> list[str]:
    """The keys of the collection's current documents that were read from one of ``folders`` (their source is
    that folder's path of their key, as written then or absolute) and whose file is not there now: what an
    ingest without prune leaves current and ``prune_collection`` would retire. A key in ``seen`` (found by
    this ingest), and one whose file is there but was not taken (``--exclude``, ``--glob``), is not named."""
    roots = [folder for folder in folders if folder.is_dir()]
    if not roots:
        return []
    with corpus.transaction() as cur:
        rows = current_documents(cur, collection, row_filter)
    return [key for key, _, _, source in rows
            if key not in seen and source is not None and any(
                _read_from(source, root / key) and not os.path.lexists(root / key) for root in roots)]


def _read_from(source: str, path: Path) -> bool:
    """Whether a version's ``source`` names ``path``: as written (``docs/a.md``) or once made absolute."""
    return source == str(path) or os.path.abspath(source) == os.path.abspath(path)
