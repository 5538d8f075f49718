"""Search over the corpus: BM25 (an inverted index in DuckDB), vectors and hybrid RRF."""
