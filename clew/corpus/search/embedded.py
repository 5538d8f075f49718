"""Which embedding models a corpus holds vectors of, asked without loading numpy or the vectors.

Every walk and search that names no mode asks this first (hybrid where semantic vectors exist,
else BM25), so it stays out of ``clew.corpus.search.vectors``, whose numpy import costs a cold
command about 0.1 s.
"""

from __future__ import annotations

from clew.corpus.sql import one
from clew.corpus.store import Corpus
from clew.corpus.structure import str_list


def embedded_models(corpus: Corpus, collection: str | None = None) -> dict[str, int]:
    """Embedding model name -> vectors stored for current chunks (of one collection, or all)."""
    if not has_embeddings(corpus):
        return {}
    # the name as a literal: a bound parameter makes DuckDB import pandas where it is installed
    # (0.2 s of a cold `clew ask`, whose walk asks this first)
    where = "TRUE" if collection is None else f"col.name = {str_list([collection])}"
    rows = corpus.cursor().execute(
        f"""SELECT e.model, count(*) FROM embeddings e
            JOIN documents d ON d.id = e.document_id AND d.current_version = e.version
            JOIN collections col ON col.id = d.collection_id
            WHERE {where} GROUP BY e.model ORDER BY e.model""").fetchall()
    return dict(rows)


def default_model(corpus: Corpus, collection: str | None = None) -> str | None:
    """The model with the most vectors for current chunks (ties: first by name), or None."""
    counts = embedded_models(corpus, collection)
    return min(counts, key=lambda name: (-counts[name], name)) if counts else None


def has_embeddings(corpus: Corpus) -> bool:
    return bool(one(corpus.cursor(),
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'embeddings'")[0])
