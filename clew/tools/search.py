"""The ``search`` tool: the corpus search, inside the caller's scope."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from clew.corpus.reader import Scope
from clew.corpus.search.api import DEFAULT_LIMIT, SearchRequest, SearchResult, search_in
from clew.navigation.models import Args, NonBlank


class SearchArgs(Args):
    query: NonBlank
    """Words, identifiers, error codes or numbers to look for."""
    mode: Literal["bm25", "vector", "hybrid"] = "bm25"
    """bm25 (keywords), vector (embeddings) or hybrid (both, fused)."""
    limit: int = DEFAULT_LIMIT
    """Hits to return (1-100; clamped)."""
    exclude_ids: list[NonBlank] = Field(default_factory=list)
    """Evidence ids not to return again (e.g. those already seen)."""
    exclude_document_keys: list[NonBlank] = Field(default_factory=list)
    """Documents not to return."""
    max_chars: int = 2000
    """Characters of text per hit (1-20000; clamped)."""


def search(scope: Scope, query: str, mode: str = "bm25", limit: int = DEFAULT_LIMIT,
           exclude_ids: list[str] | None = None, exclude_document_keys: list[str] | None = None,
           max_chars: int = 2000) -> SearchResult:
    """Search the collection for passages; start every retrieval here.

    Returns up to ``limit`` hits (1-100), best first, each with an evidence id to
    navigate from or fetch. Pass ids you have already seen in exclude_ids to get new ones.
    """
    return search_in(scope, SearchRequest(
        query=query, mode=mode, limit=limit, exclude_ids=list(exclude_ids or ()),  # type: ignore[arg-type]
        exclude_document_keys=list(exclude_document_keys or ()), max_chars=max_chars,
    ))
