"""The corpus schema: one DuckDB file, versioned.

``SCHEMA_VERSION`` is written into ``clew_meta`` when a file is created. Opening a file whose
version is newer than this code raises ``SchemaVersionError`` instead of guessing. An older
file opened read-write is upgraded in one transaction, whole or not at all: the tables added
since are created (every statement is ``IF NOT EXISTS``) and the per-version tables of a file
before version 4 are recreated without their keys (``upgrade``). Opened read-only it is read as
it is (version 1 lacks ``page_offsets``, which only PDF documents use, and it can hold none;
versions 1 and 2 lack ``skeletons``, and navigation reads the structure from ``nodes`` and
``chunks`` instead; versions 1 to 3 have the keys, which change no query's result).

Versions: 1, the first; 2 adds ``page_offsets``; 3 adds ``skeletons``, which opening an older file
read-write fills from the rows it already has (``clew.corpus.skeleton_rows.backfill``); 4 drops the
primary keys of ``document_versions``, ``nodes``, ``chunks``, ``page_offsets`` and ``skeletons``
(``KEYLESS``), whose ``*_document`` indexes a bulk write drops and builds again at its end
(``LOOKUP_INDEXES``).

Why version 4 has no keys there: on DuckDB 1.5 a commit smaller than a row group (122,880 rows) is
appended to the last row group of a table with an ART index (a key is one), and every checkpoint
writes that row group again whole and frees the old copy; an ingest checkpoints every 256 MB of
log (``clew.corpus.checkpoint``), so a 1M-chunk ingest left a third of its file free and paid an
18-20 s rewrite at the end. Without an index each commit gets row groups of its own, and with
DuckDB's vacuum off (``store.WRITE_CONFIG``) nothing merges them again. The writer keeps the rows
unique itself (``clew.corpus.ingest.api._write_batch``, under the write lock): a version is written
once, as version 1 of a new document, as the one after ``documents.current_version`` (which moves to
it in the same transaction), or as the version a retirement moved ``current_version`` to, which has
no rows; no statement relied on the keys (no ``ON CONFLICT`` on these tables). Without its index a
first touch of a document scanned ``skeletons`` (24 ms of CPU instead of 2.9 at 100k chunks), so the
lookup indexes stay, outside bulk writes (building them again takes about 10 ms per 5,000 versions).
docs/measurements/performance-2026-12-05.md, "2026-12-06 night, task P3".
"""

from __future__ import annotations

import duckdb

SCHEMA_VERSION = 4

DDL = """
CREATE TABLE IF NOT EXISTS clew_meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS collection_ids START 1;
CREATE SEQUENCE IF NOT EXISTS document_ids START 1;
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY,
    name VARCHAR NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
-- One row per document key; current_version moves on when content changes.
CREATE TABLE IF NOT EXISTS documents (
    id BIGINT PRIMARY KEY,
    collection_id INTEGER NOT NULL,
    key VARCHAR NOT NULL,
    current_version INTEGER NOT NULL,
    UNIQUE (collection_id, key)
);
-- Every version is kept; a version below documents.current_version is superseded.
CREATE TABLE IF NOT EXISTS document_versions (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    content_hash VARCHAR NOT NULL,
    format VARCHAR NOT NULL,
    source VARCHAR,
    title VARCHAR,
    fields JSON NOT NULL,
    text VARCHAR NOT NULL,
    chunking VARCHAR NOT NULL,
    ingested_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
-- The structure tree: ordinal 0 is the document, then sections, then tables.
CREATE TABLE IF NOT EXISTS nodes (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    parent INTEGER,
    kind VARCHAR NOT NULL,          -- document | section | table
    heading VARCHAR,
    level INTEGER NOT NULL,
    heading_path VARCHAR[] NOT NULL,
    start_offset INTEGER NOT NULL,
    end_offset INTEGER NOT NULL,
    first_chunk INTEGER,
    last_chunk INTEGER
);
-- Passages in reading order; [start_offset, end_offset) into document_versions.text.
CREATE TABLE IF NOT EXISTS chunks (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    start_offset INTEGER NOT NULL,
    end_offset INTEGER NOT NULL,
    kind VARCHAR NOT NULL,          -- text | table
    node INTEGER NOT NULL,          -- innermost node: its table, else its first section
    sections INTEGER[] NOT NULL,    -- every section node the chunk spans
    table_node INTEGER,
    header VARCHAR NOT NULL,        -- header rows repeated before the body ('' if none)
    heading_path VARCHAR[] NOT NULL,
    body VARCHAR NOT NULL,          -- = document text[start_offset:end_offset]
    token_count INTEGER NOT NULL,
    oversize BOOLEAN NOT NULL
);
-- Where each page of a paged document version (PDF) begins in its text; page N is starts[N].
CREATE TABLE IF NOT EXISTS page_offsets (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    starts INTEGER[] NOT NULL
);
-- What navigation needs of one version, in one row read by one indexed lookup (clew.corpus.skeleton_rows):
-- its text, what never changes about its document (collection, key) and its fields (copies of the
-- documents and document_versions columns), and its nodes' and chunks' navigation columns and page
-- offsets as one JSON value. Written with the version; nodes and chunks stay the record.
CREATE TABLE IF NOT EXISTS skeletons (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    collection_id INTEGER NOT NULL,
    collection VARCHAR NOT NULL,
    key VARCHAR NOT NULL,
    fields JSON NOT NULL,
    text VARCHAR NOT NULL,
    structure VARCHAR NOT NULL
);
CREATE TABLE IF NOT EXISTS anchors (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    anchor VARCHAR NOT NULL,
    chunk INTEGER NOT NULL
);
-- Search: an inverted index kept in the same transaction as the chunks it indexes.
-- search_docs has one row per indexed chunk (live = current version), plus one SMALLINT
-- column per "dense" term (d0, d1, ...: terms in >= 5% of chunks, chosen at compaction) so
-- that queries of very common terms scan columns instead of huge posting lists.
CREATE SEQUENCE IF NOT EXISTS search_chunk_ids START 1;
CREATE TABLE IF NOT EXISTS search_docs (
    chunk_id BIGINT NOT NULL,
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    length INTEGER NOT NULL,
    live BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS search_terms (
    term_id INTEGER NOT NULL,
    term VARCHAR NOT NULL,
    df INTEGER NOT NULL,
    dense_col INTEGER               -- its column in search_docs, NULL for sparse terms
);
-- All postings, dense terms included; physically sorted by term_id up to sorted_rows.
CREATE TABLE IF NOT EXISTS search_postings (
    term_id INTEGER NOT NULL,
    chunk_id BIGINT NOT NULL,
    tf SMALLINT NOT NULL,
    length INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS search_stats (
    live_chunks BIGINT NOT NULL,
    total_length BIGINT NOT NULL,
    postings BIGINT NOT NULL,
    sorted_postings BIGINT NOT NULL,
    dense_terms INTEGER NOT NULL
);
-- Typed graph edges. src/dst are evidence ids (chunks, nodes) or, for user edges,
-- document keys (src_kind/dst_kind = 'key'). dst is NULL for a dangling link; dst_ref keeps
-- the target as written, resolved against the source key.
CREATE TABLE IF NOT EXISTS edges (
    collection_id INTEGER NOT NULL,
    graph VARCHAR NOT NULL,
    type VARCHAR NOT NULL,
    src_kind VARCHAR NOT NULL,
    src VARCHAR NOT NULL,
    dst_kind VARCHAR NOT NULL,
    dst VARCHAR,
    dst_ref VARCHAR,
    weight DOUBLE NOT NULL DEFAULT 1.0,
    document_id BIGINT,             -- owner version for built-in edges, NULL for user edges
    version INTEGER
);
-- One vector per chunk and embedding model (clew.corpus.embedders: Embedder.name), unit length.
CREATE TABLE IF NOT EXISTS embeddings (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    model VARCHAR NOT NULL,
    vector FLOAT[] NOT NULL,
    PRIMARY KEY (document_id, version, ordinal, model)
);
"""

# Single-column indexes for point lookups. DuckDB scans through an index only for a filter on one
# single-column indexed column; the primary keys above guard uniqueness but are never used for
# lookups. Kept apart so that older files can be given them. ``LOOKUP_INDEXES`` serve a first touch
# of a document (its skeleton, its fields, its pages; its nodes and chunks where it has no skeleton):
# a bulk write drops them and builds them again at its end (``store.Corpus.deferred_checkpoint``), so
# that its commits never append to an indexed table of these (see the module docstring). The edges'
# serve the graph walk.
LOOKUP_INDEXES = {f"{table}_document": f"CREATE INDEX IF NOT EXISTS {table}_document ON {table} (document_id);"
                  for table in ("document_versions", "nodes", "chunks", "page_offsets", "skeletons")}
INDEXES = """
CREATE INDEX IF NOT EXISTS documents_key ON documents (key);
CREATE INDEX IF NOT EXISTS edges_src ON edges (src);
CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst);
CREATE INDEX IF NOT EXISTS embeddings_document ON embeddings (document_id);
""" + "\n".join(LOOKUP_INDEXES.values()) + "\n"
DDL += INDEXES

KEYLESS: dict[str, tuple[str, ...]] = {
    "document_versions": ("document_id", "version"),
    "nodes": ("document_id", "version", "ordinal"),
    "chunks": ("document_id", "version", "ordinal"),
    "page_offsets": ("document_id", "version"),
    "skeletons": ("document_id", "version"),
}
"""The tables without keys or indexes since version 4, each with its natural key (unique by the
writer's rule; the order ``upgrade`` copies the rows in)."""

def table_ddl(table: str, name: str) -> str:
    """The ``CREATE TABLE`` statement of ``table`` in ``DDL``, naming the table ``name``."""
    start = DDL.index(f"CREATE TABLE IF NOT EXISTS {table} (")
    statement = DDL[start : DDL.index("\n);", start) + 3]
    return statement.replace(f"CREATE TABLE IF NOT EXISTS {table} (", f"CREATE TABLE {name} (", 1)


def upgrade(cur: duckdb.DuckDBPyConnection) -> None:
    """Recreate the ``KEYLESS`` tables of a file before version 4 as version 4 has them (in the
    caller's transaction): each table's rows are copied, ordered by its natural key, into a new
    table without the key, the old table and its index are dropped and the new one renamed. A
    table the file lacks (``page_offsets`` before version 2, ``skeletons`` before 3) is left to
    ``DDL``, which creates it without a key."""
    present = {row[0] for row in cur.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main'").fetchall()}
    for index in LOOKUP_INDEXES:  # DDL builds them again, on the new tables
        cur.execute(f"DROP INDEX IF EXISTS {index}")
    for table, key in KEYLESS.items():
        if table not in present:
            continue
        fresh = f"clew_v4_{table}"
        cur.execute(table_ddl(table, fresh))
        cur.execute(f"INSERT INTO {fresh} SELECT * FROM {table} ORDER BY {', '.join(key)}")
        cur.execute(f"DROP TABLE {table}")
        cur.execute(f"ALTER TABLE {fresh} RENAME TO {table}")
