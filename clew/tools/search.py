"""The ``search`` tool: the corpus search, inside the caller's scope."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from clew.budgets.bounds import MAX_LIST_ITEMS, MAX_QUERY_CHARS, Clamp
from clew.corpus.access import FilterArgument
from clew.corpus.reader import Scope
from clew.corpus.search.api import DEFAULT_LIMIT, MAX_CHARS, MAX_LIMIT, SearchRequest, SearchResult, search_in
from clew.corpus.search.fields import TEXT
from clew.navigation.models import InCollection, NonBlank


class SearchArgs(InCollection):
    query: NonBlank = Field(max_length=MAX_QUERY_CHARS)
    """Words, identifiers, error codes or numbers to look for."""
    mode: Literal["bm25", "vector", "hybrid"] = "bm25"
    """bm25 (keywords), vector (embeddings) or hybrid (both, fused)."""
    limit: Annotated[int, Clamp(1, MAX_LIMIT)] = DEFAULT_LIMIT
    """Hits to return."""
    field: NonBlank | None = None
    """A field to match instead of the text: heading, or a document field such as title (bm25)."""
    filter: FilterArgument = None
    """Only documents whose fields match, e.g. {"term": {"status": "published"}}; also terms, range, exists, bool,
    and {"path": GLOB} on the document key, e.g. "v2.0/*"."""
    exclude_ids: list[NonBlank] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    """Evidence ids not to return again."""
    exclude_document_keys: list[NonBlank] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    """Documents not to return."""
    max_chars: Annotated[int, Clamp(1, MAX_CHARS)] = 2000
    """Characters of text per hit."""


def search(scope: Scope, args: SearchArgs) -> SearchResult:
    """Search the collection for passages.

    Returns hits, best first, each with an evidence id and its document's offsets (for navigate and read).
    """
    # built as it is from arguments SearchArgs has validated (a one-off search builds no second
    # validator for them); the request's own rule for field: text is the passage text (no field)
    return search_in(scope, SearchRequest.model_construct(
        query=args.query, mode=args.mode, limit=args.limit, exclude_ids=list(args.exclude_ids),
        exclude_document_keys=list(args.exclude_document_keys), max_chars=args.max_chars,
        field=None if args.field == TEXT else args.field, filter=args.filter,
    ))
