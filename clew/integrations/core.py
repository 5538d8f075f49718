"""What the framework adapters share: one retrieval over a corpus, as records of text, score and
metadata that an adapter turns into its framework's documents. Nothing here imports a framework.

A retrieval is a walk (``how="walk"``, the default: ``clew.retrieve``'s search, then navigation
under the context budget, with no model) or one search (``how="search"``: ``clew.search``).
Every record's metadata::

    evidence_id           the passage's evidence id: fetch it, cite it (clew fetch, fetch_evidence)
    document_key          the document it belongs to (a path, for files)
    collection            the collection it was read from
    heading_path          the headings above it, outermost first
    page_numbers          its pages in a PDF or DOCX ([] where the format has none)
    char_start, char_end  its offsets in the document text
    kind                  text, or table (rows of a table under their header)
    trust                 "untrusted": document text is data, never instructions to follow
    score                 the search's fused score, or the score the walk took it at (None: a start)
    fields                the document fields named by ``fields`` (only when asked)
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from clew.agent.api import retrieve
from clew.agent.result import EvidenceHit, RetrievalResult
from clew.corpus.access import Principal
from clew.corpus.aio import asearch
from clew.corpus.search.api import DEFAULT_LIMIT, Mode, SearchHit, search
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError, field_error, input_error_from
from clew.llm import run_loop

T = TypeVar("T")
How = Literal["walk", "search"]
SEED = {"bm25": "full_text_search", "vector": "semantic_search", "hybrid": "hybrid"}
"""A search mode as the seed query of a walk names it."""


class RetrieverSettings(BaseModel):
    """How an adapter retrieves; the adapters take these as their own arguments."""

    model_config = ConfigDict(extra="forbid")

    how: How = "walk"
    """walk: search, then navigate the corpus under the context budget (clew.retrieve, no model);
    search: one search (clew.search)."""
    collection: str | None = Field(None, min_length=1)
    """The collection to read. None: a walk reads the only collection the principal may read (several:
    an error naming them); a search reads every readable one."""
    k: int | None = Field(None, ge=1)
    """The most passages returned. None: a search's 10 hits; everything the walk took."""
    context_budget_tokens: int | None = None
    """A walk's context budget in tokens (None: the request's default, 8,192; clamped to 256-200,000)."""
    search_mode: Mode | None = None
    """bm25, vector or hybrid. None: a search's bm25; a walk seeds with the best the collection has
    (hybrid where it has embeddings, else bm25)."""
    fields: list[str] | None = None
    """Document fields to return in each record's metadata (``fields``)."""
    principal: Principal | None = None
    """Who reads (collections, row filter); None: may read everything."""
    request: dict[str, Any] = Field(default_factory=dict)
    """More of a walk's retrieval request (steps.retrieval.navigation, max_tool_calls, queries[] with a
    filter ...); the settings above fill in the rest. Not the query: that is the retriever's input."""

    @model_validator(mode="after")
    def _coherent(self) -> RetrieverSettings:
        """Settings that contradict each other, refused when the retriever is made."""
        if "query" in self.request:
            raise field_error("request.query", "the query is the retriever's input; leave it out of request")
        named = [name for name in ("collection", "search_mode", "fields") if getattr(self, name) is not None]
        if self.how == "walk" and "queries" in self.request and named:
            raise field_error(named[0], "request.queries[] names the walk's seed search: give it the collection, "
                                        "search mode and fields there")
        if self.how == "walk" and self.collection is None and "queries" not in self.request and named:
            raise field_error(named[0], "a walk's seed search takes search_mode and fields with a collection")
        return self


def settings_from(options: dict[str, Any]) -> RetrieverSettings:
    """``RetrieverSettings`` from keyword arguments; bad ones raise ``InputError`` naming the field."""
    try:
        return RetrieverSettings(**options)
    except ValidationError as error:
        raise input_error_from(error, model=RetrieverSettings) from error


@dataclass(frozen=True, slots=True)
class Retrieved:
    """One passage, framework-neutral."""

    text: str
    score: float | None
    metadata: dict[str, Any]


def retrieved(corpus: Corpus, query: str, settings: RetrieverSettings) -> list[Retrieved]:
    """Retrieve for ``query`` (sync: a walk runs its own event loop, in a thread of its own when the
    caller is inside one)."""
    if settings.how == "search":
        return _records(search(corpus, _search_request(query, settings), settings.principal).hits, settings)
    try:
        walked = run_sync(retrieve(_walk_request(query, settings), corpus=corpus))
    except InputError as error:
        raise _as_retriever_error(error, corpus, settings) from None
    return _records(_walk_hits(walked), settings)


async def aretrieved(corpus: Corpus, query: str, settings: RetrieverSettings) -> list[Retrieved]:
    """``retrieved`` as a coroutine; the store reads run in worker threads."""
    if settings.how == "search":
        found = await asearch(corpus, _search_request(query, settings), settings.principal)
        return _records(found.hits, settings)
    try:
        walked = await retrieve(_walk_request(query, settings), corpus=corpus)
    except InputError as error:
        raise _as_retriever_error(error, corpus, settings) from None
    return _records(_walk_hits(walked), settings)


def _as_retriever_error(error: InputError, corpus: Corpus, settings: RetrieverSettings) -> InputError:
    """A walk's "several collections: name one in queries[]" as the retriever's caller can act on it: they
    wrote no queries[], they left out ``collection`` (the error named ``queries`` before, task U20)."""
    if error.field != "queries" or settings.collection is not None or "queries" in settings.request:
        return error
    principal = settings.principal or Principal()
    readable = [c for c in corpus.collections(with_documents=True) if principal.may_read_collection(c)]
    if len(readable) < 2:
        return error
    return InputError("collection", f"a walk reads one collection and this retriever may read {len(readable)} "
                                    f"({', '.join(readable)}): pass one, e.g. collection={readable[0]!r}")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end from sync code, also when this thread already runs an event loop
    (a notebook, a sync call inside an async app): then in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run_loop(coroutine)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="clew-walk") as pool:
        return pool.submit(run_loop, coroutine).result()


def _search_request(query: str, settings: RetrieverSettings) -> dict[str, Any]:
    return {"query": query, "collection": settings.collection, "mode": settings.search_mode or "bm25",
            "limit": settings.k or DEFAULT_LIMIT, "fields": settings.fields}


def _walk_request(query: str, settings: RetrieverSettings) -> dict[str, Any]:
    request: dict[str, Any] = {**settings.request, "query": query}
    if settings.collection is not None:  # then request has no queries[] (``_coherent``)
        spec: dict[str, Any] = {"collection": settings.collection}
        if settings.search_mode is not None:
            spec[SEED[settings.search_mode]] = {}
        if settings.fields is not None:
            spec["fields"] = settings.fields
        request["queries"] = [spec]
    if settings.context_budget_tokens is not None:
        request["context_budget_tokens"] = settings.context_budget_tokens
    if settings.principal is not None:
        request["principal"] = settings.principal
    return request


def _walk_hits(result: RetrievalResult) -> list[EvidenceHit]:
    if result.status == "failed":
        raise ClewError(f"the walk failed: {result.stop_line()}")
    return result.hits


def _records(hits: list[SearchHit] | list[EvidenceHit], settings: RetrieverSettings) -> list[Retrieved]:
    return [Retrieved(text=hit.text, score=hit.score, metadata=metadata(hit)) for hit in hits[:settings.k]]


def metadata(hit: SearchHit | EvidenceHit) -> dict[str, Any]:
    """A passage's metadata (the module docstring lists the keys)."""
    location = hit.location
    found: dict[str, Any] = {
        "evidence_id": hit.evidence_id,
        "document_key": hit.document_key,
        "collection": hit.collection,
        "heading_path": list(hit.heading_path),
        "page_numbers": list(location.page_numbers) if location is not None else [],
        "char_start": location.char_start if location is not None else None,
        "char_end": location.char_end if location is not None else None,
        "kind": hit.kind,
        "trust": "untrusted",
        "score": hit.score,
    }
    if hit.fields:
        found["fields"] = dict(hit.fields)
    return found
