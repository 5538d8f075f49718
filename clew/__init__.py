"""clew: a retrieval agent that searches a structured corpus, then navigates it.

The public surface::

    corpus = clew.Corpus("docs.duckdb")
    clew.ingest_paths(corpus, ["docs/"], collection="docs", chunk_tokens=clew.DEFAULT_CHUNK_TOKENS)
    clew.search(corpus, {"query": "SQLITE_BUSY", "collection": "docs"})
    result = await clew.retrieve({"query": "...", "queries": [{"collection": "docs"}]}, corpus=corpus)
    found = await clew.asearch(corpus, {"query": "SQLITE_BUSY"})  # and clew.aingest_paths

Names load on first use (``import clew`` alone imports none of the corpus, the agent or
their libraries), so that a command line that needs one part does not pay for the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from clew import _offline  # noqa: F401  (must run before litellm or tiktoken load)

if TYPE_CHECKING:  # the names below, for type checkers; at run time ``__getattr__`` loads them
    from clew.agent.api import retrieve, retrieve_sync
    from clew.agent.request import RetrievalRequest
    from clew.agent.result import RetrievalResult
    from clew.agent.stream import stream
    from clew.corpus.access import Principal
    from clew.corpus.aio import aingest_paths, asearch
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.search.api import SearchRequest, SearchResult, search
    from clew.corpus.store import Corpus
    from clew.errors import ClewError, InputError

_HOMES = {
    "ClewError": "clew.errors",
    "Corpus": "clew.corpus.store",
    "DEFAULT_CHUNK_TOKENS": "clew.corpus.ingest.chunking",
    "InputError": "clew.errors",
    "Principal": "clew.corpus.access",
    "RetrievalRequest": "clew.agent.request",
    "RetrievalResult": "clew.agent.result",
    "SearchRequest": "clew.corpus.search.api",
    "SearchResult": "clew.corpus.search.api",
    "aingest_paths": "clew.corpus.aio",
    "asearch": "clew.corpus.aio",
    "ingest_paths": "clew.corpus.ingest.api",
    "retrieve": "clew.agent.api",
    "retrieve_sync": "clew.agent.api",
    "search": "clew.corpus.search.api",
    "stream": "clew.agent.stream",
}
"""Each public name and the module that defines it."""

__version__ = "0.1.0"
__all__ = [
    "ClewError",
    "Corpus",
    "DEFAULT_CHUNK_TOKENS",
    "InputError",
    "Principal",
    "RetrievalRequest",
    "RetrievalResult",
    "SearchRequest",
    "SearchResult",
    "__version__",
    "aingest_paths",
    "asearch",
    "ingest_paths",
    "retrieve",
    "retrieve_sync",
    "search",
    "stream",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'clew' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    """The public surface (not the module's own helpers: importlib, TYPE_CHECKING ...)."""
    return sorted(__all__)
