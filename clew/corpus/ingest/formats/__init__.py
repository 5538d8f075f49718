"""Format parsers: each turns one source format into a :class:`clew.corpus.ingest.parsed.ParsedDocument`."""
