"""The DuckDB corpus: schema, ingestion, chunking, evidence ids, versions and edges."""
