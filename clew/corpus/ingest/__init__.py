"""The write path: files found (``sources``), parsed (``formats/`` into ``parsed``), chunked
(``chunking``), prepared (``prepare``), written as version rows (``version_rows``, which also retires what an ingest
did not find: ``prune_collection``) in batches (``batch_writer``, ``collector``) by ``api`` (``ingest_paths``,
``ingest_documents``); one file is read by ``source_file``; user graphs are loaded by ``edges``. PDF and DOCX
files are parsed in a worker process that can be ended (``parse_process``).

It imports the store and the read path below it; nothing there imports it (the import-linter
contracts in pyproject.toml say so)."""
