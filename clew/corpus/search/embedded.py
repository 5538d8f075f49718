"""Which embedding models a corpus holds vectors of, asked without loading numpy or the vectors.

Every walk and search that names no mode asks this first (hybrid where semantic vectors exist,
else BM25), so it stays out of ``clew.corpus.search.vectors``, whose numpy import costs a cold
command about 0.1 s.
"""

from __future__ import annotations

import weakref
from typing import Literal

from clew.corpus.sql import one
from clew.corpus.store import Corpus
from clew.corpus.structure import str_list

_KNOWN: weakref.WeakKeyDictionary[Corpus, tuple[int, dict[str | None, dict[str, int]]]] = weakref.WeakKeyDictionary()
"""Per corpus: the generation the census was taken at, and its answer per collection. A walk asks
before every run; two statements each time were a sixth of a warm ranked walk."""


def embedded_models(corpus: Corpus, collection: str | None = None) -> dict[str, int]:
    """Embedding model name -> vectors stored for current chunks (of one collection, or all).
    Kept until the corpus is written again in this process (``Corpus.generation``)."""
    generation, answers = _KNOWN.get(corpus, (-1, {}))
    if generation != corpus.generation:
        answers = {}
        _KNOWN[corpus] = (corpus.generation, answers)
    if collection not in answers:
        answers[collection] = _census(corpus, collection)
    return dict(answers[collection])


def _census(corpus: Corpus, collection: str | None) -> dict[str, int]:
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


def seed_search(model: str | None) -> Literal["bm25", "hybrid"]:
    """The seed search of a walk whose query names none, where ``model`` made the collection's vectors
    (``default_model``): hybrid where they are semantic, else BM25. Hashing vectors are lexical
    (``clew.corpus.embedders.HashingEmbedder``): they add nothing to BM25."""
    return "bm25" if model is None or model.startswith("hashing") else "hybrid"


def has_embeddings(corpus: Corpus) -> bool:
    return bool(one(corpus.cursor(),
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'embeddings'")[0])
