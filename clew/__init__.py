"""clew: a retrieval agent that searches a structured corpus, then navigates it.

The public surface::

    corpus = clew.Corpus("docs.duckdb")
    clew.ingest_paths(corpus, ["docs/"], collection="docs", chunk_tokens=clew.DEFAULT_CHUNK_TOKENS)
    clew.search(corpus, {"query": "SQLITE_BUSY", "collection": "docs"})
    result = await clew.retrieve({"query": "...", "queries": [{"collection": "docs"}]}, corpus=corpus)
"""

from clew import _offline  # noqa: F401  (must run before litellm or tiktoken load)
from clew.agent.api import retrieve, retrieve_sync
from clew.agent.request import RetrievalRequest
from clew.agent.result import RetrievalResult
from clew.agent.stream import stream
from clew.corpus.access import Principal
from clew.corpus.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest import ingest_paths
from clew.corpus.search.api import SearchRequest, SearchResult, search
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError

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
    "ingest_paths",
    "retrieve",
    "retrieve_sync",
    "search",
    "stream",
]
