-- The corpus schema of version 3 (clew/corpus/schema.py at 9e7947e: DDL with INDEXES), for the upgrade tests.
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
    ingested_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (document_id, version)
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
    last_chunk INTEGER,
    PRIMARY KEY (document_id, version, ordinal)
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
    oversize BOOLEAN NOT NULL,
    PRIMARY KEY (document_id, version, ordinal)
);
-- Where each page of a paged document version (PDF) begins in its text; page N is starts[N].
CREATE TABLE IF NOT EXISTS page_offsets (
    document_id BIGINT NOT NULL,
    version INTEGER NOT NULL,
    starts INTEGER[] NOT NULL,
    PRIMARY KEY (document_id, version)
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
    structure VARCHAR NOT NULL,
    PRIMARY KEY (document_id, version)
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

CREATE INDEX IF NOT EXISTS documents_key ON documents (key);
CREATE INDEX IF NOT EXISTS document_versions_document ON document_versions (document_id);
CREATE INDEX IF NOT EXISTS nodes_document ON nodes (document_id);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id);
CREATE INDEX IF NOT EXISTS edges_src ON edges (src);
CREATE INDEX IF NOT EXISTS edges_dst ON edges (dst);
CREATE INDEX IF NOT EXISTS embeddings_document ON embeddings (document_id);
CREATE INDEX IF NOT EXISTS page_offsets_document ON page_offsets (document_id);
CREATE INDEX IF NOT EXISTS skeletons_document ON skeletons (document_id);
