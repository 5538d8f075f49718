"""Links between documents: resolving link edges to the chunks their targets name, and counting
what dangles (run by ingestion after each batch and after a prune)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path, PurePosixPath
from typing import Any

import duckdb

from clew.corpus.access import Filter, compile_filter
from clew.corpus.sql import arrow_view, execute, inline, one

LINK_SUFFIXES = (".md", ".markdown", ".html", ".htm", ".gz")
"""What a link's path may lack of a key: a document suffix, or ``.gz`` (Debian's ``changelog.html.gz``, which
the pages beside it link as ``changelog.html``)."""
FOLDER_INDEXES = ("index.md", "index.html", "README.md")


def link_candidates_sql() -> str:
    """SQL (a ``VALUES`` list) of how a link's path may name a key, best first: as written, then
    site-absolute (``/commands/npm-install``: relative to the collection's root), then with a
    document suffix (``commands/npm-install`` -> ``commands/npm-install.md``), then a folder's
    index page (``using-npm/`` -> ``using-npm/index.md``)."""
    rows = ["(0, '', '')", "(1, '', '')"]  # 0: as written; 1: leading slashes dropped
    rows += [f"({2 + i}, '', '{suffix}')" for i, suffix in enumerate(LINK_SUFFIXES)]
    base = 2 + len(LINK_SUFFIXES)
    rows += [f"({base + i}, '/', '{name}')" for i, name in enumerate(FOLDER_INDEXES)]
    return ", ".join(rows)


def key_candidates(name: str) -> list[str]:
    """The keys a name may stand for, best first, as a link's path is resolved
    (:func:`link_candidates_sql`): as written, without leading slashes, with a document suffix,
    a folder's index page."""
    bare = name.lstrip("/")
    folder = bare.rstrip("/")
    out = [name, bare, *(bare + suffix for suffix in LINK_SUFFIXES),
           *((f"{folder}/{index}" if folder else index) for index in FOLDER_INDEXES)]
    return list(dict.fromkeys(k for k in out if k))


def target_names(keys: list[str]) -> list[str]:
    """Every slash-trimmed link path whose candidates (:func:`link_candidates_sql`, ranks 1 on)
    could name one of ``keys``: the key itself, without a document suffix, or a folder's index
    page's folder. A superset is harmless (it only widens what is looked at again)."""
    names: set[str] = set()
    for key in keys:
        names.add(key)
        names.add(key.strip("/"))
        names.update(key[: -len(suffix)] for suffix in LINK_SUFFIXES if key.endswith(suffix))
        names.update(key[: -len(name) - 1] for name in FOLDER_INDEXES if key.endswith("/" + name))
        if key in FOLDER_INDEXES:
            names.add("")
    return sorted(names)


def anchor_key_sql(column: str) -> str:
    """SQL of the form an anchor is matched in when it names no anchor of its page as written:
    case-folded, each run of ``-``, ``_`` and white space one ``-``, the separators at either end
    and a leading run of digits and dots dropped. Generators write one heading's id apart in
    exactly these ways (``## Flow content``: GitHub and most ``flow-content``, MDN ``flow_content``
    or ``Flow_content``; ``## 2. Setup``: GitHub ``2-setup``, Pandoc ``setup``)."""
    spaced = f"regexp_replace(lower({column}), '[-_\\s]+', '-', 'g')"
    return f"trim(regexp_replace({spaced}, '^[-0-9.]+', ''), '-')"


BATCH = "clew_link_batch"
"""The view of the batch's keys, their :func:`target_names` and its documents while
:func:`resolve_links` runs (three columns, each padded with NULLs to the longest); read as
``BATCH_KEYS``, ``BATCH_NAMES`` and ``BATCH_DOCUMENTS``."""
BATCH_KEYS = f"(SELECT CAST(key AS VARCHAR) AS key FROM {BATCH} WHERE key IS NOT NULL)"
BATCH_NAMES = f"(SELECT CAST(name AS VARCHAR) AS name FROM {BATCH} WHERE name IS NOT NULL)"
BATCH_DOCUMENTS = f"(SELECT CAST(id AS BIGINT) AS id FROM {BATCH} WHERE id IS NOT NULL)"

TARGET_DST = "'ev1:c:' || doc || ':' || version || ':' || coalesce(chunk, 0)"
"""The chunk a row of ``clew_link_targets`` names: the one its anchor names, else the first."""


def resolve_links(cur: duckdb.DuckDBPyConnection, collection_id: int, keys: list[str], new_documents: list[int],
                  row_filter: Filter | None = None, *, retry_dangling: bool = True,
                  new_edges: Mapping[str, list[Any]] | None = None) -> int:
    """Point link edges at the chunk their target names; returns how many were resolved now,
    counted as ``row_filter`` sees them (see :func:`dangling_by_reason`).

    A target names the first key of :func:`link_candidates_sql` that exists in the collection;
    its ``#anchor`` names the chunk the anchor points into; without one, the chunk of the document's
    lead paragraph (``clew.corpus.ingest.prepare.LEAD``; else its first chunk). An anchor the page
    does not write as such names the chunk of the page's anchors that read the same by
    :func:`anchor_key_sql` (another generator's id for the same heading), when they all name one;
    else (none, or two chunks) the link lands on the document's first chunk.
    Resolved again: links whose candidates name one of ``keys`` (the documents that just got a
    version), the dangling links of ``new_documents`` (those just written), and with
    ``retry_dangling`` every dangling link of the collection. Only those links get candidates
    joined against the documents: after a resolution no dangling link has a candidate in the
    collection, so later batches of the same ingest only need the first two, as long as nothing
    else wrote in between (``clew.corpus.ingest`` retries every dangling link at an ingest's first
    batch and after any other write).
    What a batch reads does not grow with the collection but for one pass over ``edges.dst``: of
    the stored links only the dangling ones are read, unless a document of the batch may move a
    link that already names a chunk (:func:`_may_move`: a changed page, or a key that outranks
    another); the anchors are read only for the documents the links land on (DuckDB skips the row
    groups of the others), and the loose match (:func:`_loose_sql`) only runs for the links whose
    anchor names none exactly. At 300,000 chunks a batch's call took 0.08-0.21 s of CPU, reading
    every link row and anchor, and takes 0.05-0.10 s (docs/measurements/performance-2026-12-05.md,
    "task L2").

    ``new_edges`` (column lists of edges about to be inserted, of the versions just written:
    ``graph``, ``dst_ref``, ``dst``, ``document_id``, ``version``) are resolved in the same query,
    their links' ``dst`` set in the lists: a link inserted with its ``dst`` spares an ``UPDATE`` of
    the indexed ``edges.dst`` (in DuckDB a delete and an insert; 2.1 of 2.5-2.9 s per batch at a
    million chunks), which is left for the stored links whose target arrived now.
    """
    rows = [] if new_edges is None else [i for i, graph in enumerate(new_edges["graph"]) if graph == "links"]
    if not _any_link(cur, collection_id, [new_edges["dst_ref"][i] for i in rows] if new_edges is not None else []):
        return 0
    with ExitStack() as stack:
        # the batch's keys, their target names and its documents, in one view (a list written into the
        # SQL costs DuckDB about 3 us a value to parse: 0.1 s for a batch's 15,000 candidate keys)
        names = target_names(keys)
        size = max(len(keys), len(names), len(new_documents))
        stack.enter_context(arrow_view(cur, BATCH, {
            column: [*values, *([None] * (size - len(values)))]
            for column, values in (("key", keys), ("name", names), ("id", new_documents))}))
        # a new link's rid is -1 - its index in new_edges; a stored one's, its rowid
        dangling = "" if _may_move(cur, collection_id) else " AND e.dst IS NULL"
        links = f"""SELECT e.rowid AS rid, e.dst, e.document_id, e.version, e.dst_ref
                   FROM edges e
                   WHERE e.collection_id = $1 AND e.graph = 'links' AND e.dst_ref NOT LIKE '%://%'{dangling}"""
        if new_edges is not None and rows:
            stack.enter_context(arrow_view(cur, "clew_new_links", {
                "rid": [-1 - i for i in rows], "document_id": [new_edges["document_id"][i] for i in rows],
                "version": [new_edges["version"][i] for i in rows], "dst_ref": [new_edges["dst_ref"][i] for i in rows],
            }))
            links += """ UNION ALL
               SELECT rid, CAST(NULL AS VARCHAR), document_id, version, dst_ref FROM clew_new_links
               WHERE dst_ref NOT LIKE '%://%'"""
        execute(cur, _targets_sql(links), [collection_id, retry_dangling])
    if one(cur, "SELECT count(*) FROM clew_link_targets WHERE chunk IS NULL AND anchor <> ''")[0]:
        cur.execute(_loose_sql())
    params: list[Any] = []
    both = (
        "TRUE"
        if row_filter is None
        else f"{compile_filter(row_filter, params, 'sv')} AND {compile_filter(row_filter, params, 'tv')}"
    )
    resolved = one(cur, inline(
        f"""SELECT count(*) FROM clew_link_targets t
            JOIN document_versions sv ON sv.document_id = t.src_doc AND sv.version = t.src_version
            JOIN document_versions tv ON tv.document_id = t.doc AND tv.version = t.version
            WHERE {both}""", params))[0]
    if new_edges is not None:
        dst = new_edges["dst"]
        for rid, target in cur.execute(f"SELECT rid, {TARGET_DST} FROM clew_link_targets WHERE rid < 0").fetchall():
            dst[-1 - rid] = target
    if one(cur, "SELECT count(*) FROM clew_link_targets WHERE rid >= 0")[0]:
        cur.execute(
            f"""UPDATE edges SET dst = t.dst, dst_kind = 'chunk'
               FROM (SELECT rid, {TARGET_DST} AS dst FROM clew_link_targets WHERE rid >= 0) t
               WHERE edges.rowid = t.rid"""
        )
    cur.execute("DROP TABLE clew_link_targets")
    return int(resolved)


def _any_link(cur: duckdb.DuckDBPyConnection, collection_id: int, new_refs: list[str | None]) -> bool:
    """Whether :func:`resolve_links` has a link to look at: a new one or a stored one of the collection
    that is not a URL (``NOT LIKE '%://%'``, as it reads them). Without one its query reads nothing, and
    planning it (the views, the candidates' joins) cost a batch about 13 ms of CPU: most small ingests."""
    if any(ref is not None and "://" not in ref for ref in new_refs):
        return True
    return bool(one(cur, f"""SELECT EXISTS (SELECT 1 FROM edges WHERE collection_id = {int(collection_id)}
                                AND graph = 'links' AND dst_ref NOT LIKE '%://%')""")[0])


def _may_move(cur: duckdb.DuckDBPyConnection, collection_id: int) -> bool:
    """Whether a stored link that already names a chunk may name another now that the batch's keys
    got a version: only a link into a document whose key is a candidate of such a link (one that a
    :func:`target_names` name gives by :func:`link_candidates_sql`, or that trims to such a name:
    the link's path as written), other than a document the batch created, whose version 1 no link
    can name yet. A document of the batch that had a version (a new one now) is one, and so is one
    whose key ranks below a new key of the batch (``guide/README.md`` when ``guide/index.md``
    arrives). Without one, only dangling links need be looked at (see :func:`resolve_links`).
    Reads the batch's view (:data:`BATCH`)."""
    return bool(one(cur, inline(
        f"""WITH rules(rank, joiner, tail) AS (VALUES {link_candidates_sql()}),
           named AS (
               SELECT d.id, d.current_version FROM documents d
               WHERE d.collection_id = $1
                 AND d.key IN (SELECT CASE WHEN r.joiner = '/' THEN ltrim(n.name || '/' || r.tail, '/')
                                           ELSE n.name || r.tail END
                               FROM {BATCH_NAMES} n, rules r WHERE r.rank > 0)
               UNION ALL  -- apart: in one OR, DuckDB trimmed every key of the collection
               SELECT d.id, d.current_version FROM documents d
               WHERE d.collection_id = $1 AND (starts_with(d.key, '/') OR ends_with(d.key, '/'))
                 AND trim(d.key, '/') IN (SELECT name FROM {BATCH_NAMES})
           )
           SELECT count(*) FROM named
           WHERE NOT (current_version = 1 AND id IN (SELECT id FROM {BATCH_DOCUMENTS}))""",
        [collection_id]))[0])


def _targets_sql(links: str) -> str:
    """SQL that creates the temporary table ``clew_link_targets`` (``rid``, ``src_doc``,
    ``src_version``, ``doc``, ``version``, ``anchor``, ``chunk``: the chunk its anchor names as
    written, NULL if none; see :data:`TARGET_DST`) from
    ``links`` (a query of ``rid``, ``dst``, ``document_id``, ``version``, ``dst_ref``), with the
    parameters of :func:`resolve_links`'s query."""
    return f"""CREATE OR REPLACE TEMP TABLE clew_link_targets AS
           WITH links AS (
               SELECT rid, dst, document_id, version,
                      CASE WHEN strpos(dst_ref, '#') > 0 THEN left(dst_ref, strpos(dst_ref, '#') - 1)
                           ELSE dst_ref END AS target_key,
                      CASE WHEN strpos(dst_ref, '#') > 0 THEN substr(dst_ref, strpos(dst_ref, '#') + 1) END AS
                      anchor
               FROM ({links})
           ),
           wanted AS (
               SELECT rid, dst, document_id AS src_doc, version AS src_version, target_key, anchor FROM links
               WHERE (dst IS NULL AND ($2 OR document_id IN (SELECT id FROM {BATCH_DOCUMENTS})))
                  OR target_key IN (SELECT key FROM {BATCH_KEYS})
                  OR trim(target_key, '/') IN (SELECT name FROM {BATCH_NAMES})
           ),
           rules(rank, joiner, tail) AS (VALUES {link_candidates_sql()}),
           candidates AS (
               SELECT w.rid, w.dst, w.src_doc, w.src_version, w.anchor, r.rank,
                      CASE WHEN r.rank = 0 THEN w.target_key
                           WHEN r.joiner = '/' THEN ltrim(rtrim(w.target_key, '/') || '/' || r.tail, '/')
                           ELSE rtrim(ltrim(w.target_key, '/'), '/') || r.tail END AS candidate
               FROM wanted w, rules r
           ),
           named AS MATERIALIZED (  -- apart: DuckDB joined every document with its current version first
               SELECT c.rid, c.src_doc, c.src_version, c.anchor, c.rank, d.id, d.current_version
               FROM candidates c JOIN documents d ON d.collection_id = $1 AND d.key = c.candidate
               WHERE c.rid IN (SELECT rid FROM candidates WHERE candidate IN (SELECT key FROM {BATCH_KEYS}))
                  OR c.dst IS NULL
           ),
           found AS (
               SELECT n.rid, any_value(n.src_doc) AS src_doc, any_value(n.src_version) AS src_version,
                      arg_min(n.id, n.rank) AS doc, arg_min(n.current_version, n.rank) AS version,
                      arg_min(n.anchor, n.rank) AS anchor
               FROM named n
               JOIN document_versions dv ON dv.document_id = n.id AND dv.version = n.current_version  -- not retired
               GROUP BY n.rid
           ),
           exact AS (
               SELECT f.rid, f.src_doc, f.src_version, f.doc, f.version, f.anchor, min(a.chunk) AS chunk
               FROM found f
               LEFT JOIN anchors a ON a.document_id = f.doc AND a.version = f.version
                                    AND a.anchor = coalesce(f.anchor, '')  -- no #fragment: the lead paragraph
               GROUP BY f.rid, f.src_doc, f.src_version, f.doc, f.version, f.anchor
           )
           SELECT * FROM exact"""


def _loose_sql() -> str:
    """SQL that gives the links of ``clew_link_targets`` whose anchor names no anchor of its page
    exactly the one chunk its normalised form names (:func:`anchor_key_sql`), if any. Only the
    anchors of those links' pages are read (DuckDB narrows its scan of ``anchors`` to their
    documents). Not "= loose_key": DuckDB 1.5 pushes an equality into the join as a key, and the
    regular expressions then run on every anchor of the collection (0.29 of 0.35 s CPU per batch
    at 300,000 chunks)."""
    return f"""UPDATE clew_link_targets SET chunk = l.chunk FROM (
               SELECT m.rid, CASE WHEN count(DISTINCT a.chunk) = 1 THEN min(a.chunk) END AS chunk
               FROM (SELECT rid, doc, version, {anchor_key_sql('anchor')} AS loose_key FROM clew_link_targets
                     WHERE chunk IS NULL) m
               JOIN anchors a ON a.document_id = m.doc AND a.version = m.version
               WHERE m.loose_key <> '' AND list_contains([m.loose_key], {anchor_key_sql('a.anchor')})
               GROUP BY m.rid) l
           WHERE clew_link_targets.rid = l.rid AND l.chunk IS NOT NULL"""


def dangling_by_reason(cur: duckdb.DuckDBPyConnection, collection_id: int,
                       row_filter: Filter | None = None, folders: Sequence[Path] = ()) -> dict[str, int]:
    """The collection's dangling links counted by why (see ``IngestReport.links_dangling_by_reason``).

    A link to no key that names a file of one of ``folders`` (the folders an ingest read) is ``left_out``: the
    ingest left that file out on purpose (a Sphinx build's ``_modules/`` and ``genindex.html``, an excluded file,
    an image), so the link is not broken (task L4: 118 of structlog-docs' 346 ``missing_document`` links).

    Only the links of the documents' current versions count: a superseded version keeps its links, and
    each new version of a page with an external link counted it once more (task U15: 16 -> 28 external
    links after re-ingesting 62 of 275 man pages). Under ``row_filter`` only links from versions it may read
    count, and a link into a version it may not read dangles (it reads as a link to a missing key, in the
    same query).
    """
    params: list[Any] = [collection_id]
    current = "JOIN documents cd ON cd.id = e.document_id AND cd.current_version = e.version"
    if row_filter is None:
        sql = (f"SELECT e.dst_ref FROM edges e {current} "
               "WHERE e.collection_id = ? AND e.graph = 'links' AND e.dst IS NULL")
    else:
        source, target = compile_filter(row_filter, params, "sv"), compile_filter(row_filter, params, "tv")
        sql = f"""SELECT e.dst_ref FROM edges e {current}
                  JOIN document_versions sv ON sv.document_id = e.document_id AND sv.version = e.version
                  LEFT JOIN document_versions tv ON e.dst IS NOT NULL
                       AND tv.document_id = TRY_CAST(split_part(e.dst, ':', 3) AS BIGINT)
                       AND tv.version = TRY_CAST(split_part(e.dst, ':', 4) AS INTEGER)
                  WHERE e.collection_id = ? AND e.graph = 'links' AND {source}
                    AND (e.dst IS NULL OR NOT coalesce({target}, FALSE))"""
    rows = execute(cur, 
        f"""SELECT reason, {"CASE WHEN reason = 'missing_document' THEN split_part(dst_ref, '#', 1) END"
                            if folders else "NULL"} AS target, count(*)
           FROM (SELECT dst_ref, CASE WHEN regexp_matches(dst_ref, '^(?:[A-Za-z][A-Za-z0-9+.-]*:|//)') THEN 'external'
                       WHEN dst_ref = '..' OR starts_with(dst_ref, '../') THEN 'outside_collection'
                       ELSE 'missing_document' END AS reason FROM ({sql})) GROUP BY reason, target""",
        params,
    ).fetchall()
    counts: dict[str, int] = {}
    for reason, target, count in rows:
        reason = "left_out" if target is not None and _in_folders(target, folders) else reason
        counts[reason] = counts.get(reason, 0) + int(count)
    return dict(sorted(counts.items()))


def _in_folders(target: str, folders: Sequence[Path]) -> bool:
    """Whether ``target``, a key, names a file of one of ``folders`` (a key with ``..`` names none)."""
    name = target.lstrip("/")
    return bool(name) and ".." not in PurePosixPath(name).parts and any((folder / name).is_file()
                                                                        for folder in folders)
