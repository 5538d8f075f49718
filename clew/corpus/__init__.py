"""The DuckDB corpus: the store, schema, evidence ids, access, the reader and search/; ingest/,
above them, is the write path."""
