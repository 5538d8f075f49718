"""The ``search`` tool: the corpus search, inside the caller's scope."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, WithJsonSchema

from clew.budgets.bounds import MAX_LIST_ITEMS, MAX_QUERY_CHARS, Clamp
from clew.corpus.access import Filter
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
    """Match the query against this field instead of the text: heading, or a document field such as title (bm25)."""
    filter: Annotated[Filter | None, WithJsonSchema({"type": ["object", "null"]})] = None
    """Only documents whose fields match, e.g. {"term": {"status": "published"}}; also terms, range, exists, bool."""
    exclude_ids: list[NonBlank] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    """Evidence ids not to return again (e.g. those already seen)."""
    exclude_document_keys: list[NonBlank] = Field(default_factory=list, max_length=MAX_LIST_ITEMS)
    """Documents not to return."""
    max_chars: Annotated[int, Clamp(1, MAX_CHARS)] = 2000
    """Characters of text per hit."""


def search(scope: Scope, args: SearchArgs) -> SearchResult:
    """Search the collection for passages; start every retrieval here.

    Returns up to ``limit`` hits, best first, each with an evidence id to navigate from or
    fetch, and its document version and offsets (for navigate and read). Pass ids you have
    already seen in exclude_ids to get new ones.
    """
    # built as it is from arguments SearchArgs has validated (a one-off search builds no second
    # validator for them); the request's own rule for field: text is the passage text (no field)
    return search_in(scope, SearchRequest.model_construct(
        query=args.query, mode=args.mode, limit=args.limit, exclude_ids=list(args.exclude_ids),
        exclude_document_keys=list(args.exclude_document_keys), max_chars=args.max_chars,
        field=None if args.field == TEXT else args.field, filter=args.filter,
    ))
