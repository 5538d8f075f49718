"""``search``: one entry point for BM25, vector and hybrid (RRF) retrieval.

Every search takes a collection, an optional ``field`` to match instead of the passage
text (``heading``, or a document field such as ``title``: ``clew.corpus.search.fields``), a ``limit`` (default 10,
clamped to 1-100 and reported),
a filter on document fields, a fields projection, ``exclude_ids`` and
``exclude_document_keys`` (applied inside the query, before the limit), and runs under a
principal whose row filter is applied inside the query too: a denied row neither shows nor
shrinks the result. Superseded versions are never searched.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from clew.budgets.bounds import MAX_CLAUSES, MAX_LIST_ITEMS, MAX_QUERY_CHARS, clamp
from clew.corpus import ids
from clew.corpus.access import Filter, Principal
from clew.corpus.location import Location
from clew.corpus.reader import Passage, Scope
from clew.corpus.search.bm25 import bm25_search
from clew.corpus.search.fields import TEXT, field_search
from clew.corpus.search.written import order_as_written, written_options
from clew.corpus.store import Corpus
from clew.errors import InputError, input_error_from

MAX_LIMIT = 100
DEFAULT_LIMIT = 10
MAX_CHARS = 20_000
RANK_CONSTANT = 60
Mode = Literal["bm25", "vector", "hybrid"]


def _equal_weights() -> dict[Literal["bm25", "vector"], float]:
    return {"bm25": 1.0, "vector": 1.0}


class SearchRequest(BaseModel):
    """Arguments of a search (the ``search`` tool's schema)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # these models are built on first use

    query: str = Field(max_length=MAX_QUERY_CHARS,
                       description="What to look for: words, identifiers, error codes, numbers.")
    collection: str | None = Field(None, description="Collection to search (default: every readable one).")
    mode: Mode = Field("bm25", description="bm25 (keywords), vector (embeddings) or hybrid (RRF of both).")
    limit: int = Field(DEFAULT_LIMIT, description=f"Hits to return, clamped to 1-{MAX_LIMIT}.")
    filter: Filter | None = Field(None, description="Filter on document fields: term, terms, range, exists, bool; "
                                  "path (a glob on the document key).")
    fields: list[str] | None = Field(None, max_length=MAX_CLAUSES,
                                     description="Document fields to return with each hit (default: none).")
    exclude_ids: list[str] = Field(
        default_factory=list, max_length=MAX_LIST_ITEMS, description="Evidence ids never to return (e.g. already seen)."
    )
    exclude_document_keys: list[str] = Field(default_factory=list, max_length=MAX_LIST_ITEMS,
                                             description="Documents never to return.")
    max_chars: int = Field(4000, description=f"Characters of text per hit, clamped to 1-{MAX_CHARS}.")
    field: str | None = Field(None, description="Match the query against this field instead of the text: heading "
                              "(the heading path) or a document field such as title; text (or none): the passage text.")
    embedding_model: str | None = Field(
        None, description="Embedding model for vector/hybrid (default: the corpus' own)."
    )
    weights: dict[Literal["bm25", "vector"], float] = Field(
        default_factory=_equal_weights, description="RRF weight of each retriever (hybrid)."
    )

    @field_validator("query")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the query is blank")
        return value

    @field_validator("field")
    @classmethod
    def _field(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be blank")
        return None if value == TEXT else value


class RetrieverContribution(BaseModel):
    """The results are built from the corpus's rows as they are (``model_construct``: their types
    hold by construction), so that a search builds no validator for them; ``--json`` builds
    ``SearchResult``'s serializer when it dumps one."""

    model_config = ConfigDict(defer_build=True)

    rank: int
    score: float


class SearchHit(BaseModel):
    model_config = ConfigDict(defer_build=True)

    evidence_id: str
    document_key: str
    version: int = Field(description="the document version the passage belongs to")
    start_offset: int = Field(description="where the passage starts in the document text (for navigate / read)")
    end_offset: int = Field(description="where it ends (exclusive)")
    location: Location = Field(description="The same offsets, and page numbers for paged formats (PDF, DOCX).")
    collection: str
    heading_path: list[str]
    kind: str
    text: str
    text_truncated: bool
    score: float
    rank: int
    retrievers: dict[str, RetrieverContribution]
    fields: dict[str, Any] = Field(default_factory=dict)


class SearchResult(BaseModel):
    model_config = ConfigDict(defer_build=True)

    status: Literal["ok", "no_match"] = "ok"
    hits: list[SearchHit]
    limit: int
    mode: Mode
    applied: dict[str, Any]


def parse_request(data: SearchRequest | dict[str, Any] | str) -> SearchRequest:
    """Validate a search request; a string is the query alone (``{"query": text}``), as a walk's question is."""
    if isinstance(data, SearchRequest):
        return data
    try:
        return SearchRequest.model_validate({"query": data} if isinstance(data, str) else data)
    except ValidationError as error:
        raise input_error_from(error, model=SearchRequest) from error


def search(corpus: Corpus, request: SearchRequest | dict[str, Any] | str,
           principal: Principal | None = None) -> SearchResult:
    """Search as ``principal`` (default: may read everything)."""
    req = parse_request(request)
    return search_in(Scope(corpus, principal or Principal(), req.collection, req.filter), req)


def search_in(scope: Scope, req: SearchRequest) -> SearchResult:
    """Search inside an existing scope (its collection and filter; ``req.filter`` narrows further)."""
    found, applied = search_passages(scope, req)
    max_chars = applied["max_chars"]
    hits = [_hit(f.passage, f.rank, f.score, f.retrievers, max_chars, req.fields) for f in found]
    return SearchResult.model_construct(status="ok" if hits else "no_match", hits=hits, limit=applied["limit"],
                                        mode=req.mode, applied=applied)


@dataclass(frozen=True, slots=True)
class Found:
    """A search result inside the process: the passage, its fused score and rank, each retriever's part."""

    passage: Passage
    score: float
    rank: int
    retrievers: dict[str, RetrieverContribution]


def search_passages(
    scope: Scope, req: SearchRequest, *, query_vector: Any = None
) -> tuple[list[Found], dict[str, Any]]:
    """The passages a search finds, best first, and the bounds it applied (what ``search_in`` shows).

    ``query_vector`` is the query's embedding when the caller has made it already (vector and
    hybrid modes; ``req.embedding_model`` must name its model)."""
    corpus = scope.corpus
    if req.filter is not None and scope.filter is not req.filter:
        scope = Scope(corpus, scope.principal, scope.collection, _both(scope.filter, req.filter))
    limit = clamp(req.limit, 1, MAX_LIMIT)
    max_chars = clamp(req.max_chars, 1, MAX_CHARS)
    excluded = []
    for value in req.exclude_ids:
        decoded = ids.decode(value)
        if decoded.kind == "c" and decoded.ordinal is not None:
            excluded.append((decoded.document, decoded.version, decoded.ordinal))
    options = written_options(req.query)
    # the option rule orders a window: read the widest one, so that a search's first hits do not depend on
    # the limit asked (the walk's seed search asks for 12 at 1,000 tokens, flat search for 100; task W4)
    window = MAX_LIMIT if options else max(limit, 20)
    applied: dict[str, Any] = {"limit": limit, "max_chars": max_chars, "mode": req.mode}
    if req.field is not None:
        if req.mode != "bm25":
            raise InputError("field", f"a field-targeted search is a keyword search (mode bm25), not {req.mode}")
        applied["field"] = req.field
    vector, model = None, None
    if req.mode in ("vector", "hybrid"):
        from clew.corpus.embedders import embedder_from_name
        from clew.corpus.search.embedded import default_model

        model = req.embedding_model or default_model(corpus, scope.collection)
        if model is None:
            raise InputError(
                "mode", f"{req.mode} search needs embeddings, and this corpus has none; run `clew embed --db FILE`"
            )
        if query_vector is not None:
            vector = query_vector
        else:
            embedder = embedder_from_name(model)
            vector, model = embedder.embed([req.query])[0], embedder.name
        applied["embedding_model"] = model
    # every retriever gives the whole window: what a navigation passage gives up (below) comes from it
    ranked = ranked_lists(scope, req.query, req.mode, window, vector=vector,
                          model=model, exclude_chunks=excluded, exclude_ids=req.exclude_ids,
                          exclude_document_keys=req.exclude_document_keys, field=req.field)
    weights: dict[str, float] = (
        {str(k): v for k, v in req.weights.items()} if req.mode == "hybrid" else dict.fromkeys(ranked, 1.0)
    )
    if req.mode == "hybrid":
        applied["rank_constant"] = RANK_CONSTANT
        applied["weights"] = {name: weights.get(name, 1.0) for name in ranked}
        applied["window"] = window
    known = _window(scope, ranked) if options else {}
    windows, ordered = ranked, order_as_written(req.query, ranked, known)
    found = _found(scope, fuse(ordered, weights)[:limit], known)
    if any(_navigation(f.passage) for f in found):
        windows = _weigh_navigation(scope, ranked)
        ordered = order_as_written(req.query, windows, known)
        found = _found(scope, fuse(ordered, weights)[:limit], known)
        applied["navigation_weight"] = NAVIGATION_WEIGHT
    if ordered != windows:  # the option rule moved a passage of a window (task X24; reported since task L2)
        applied["written_options"] = sorted(options)
    return found, applied


NAVIGATION_PAGES = "navigation_pages"
NAVIGATION_WEIGHT = 0.5
"""Score factor of a passage that lies on its document's navigation pages (the document field
``navigation_pages``: a PDF's table of contents and index, ``clew.corpus.ingest.formats.pdf``). Such a
passage names a topic and the page it is on (``PIPESTATUS … 87``): it ranks below the passage it
points to, and a search still finds it."""


def _window(scope: Scope, ranked: dict[str, list[tuple[int, int, int, float]]]) -> dict[str, Passage]:
    """The passages of every retriever's list, by evidence id."""
    return scope.passages_by_ids([ids.chunk_id(d, v, o) for rows in ranked.values() for d, v, o, _ in rows])


def _found(scope: Scope, rows: list[tuple[tuple[int, int, int], float, dict[str, RetrieverContribution]]],
           known: dict[str, Passage]) -> list[Found]:
    """``rows``' passages as found; ``known``: passages fetched already (the window's, by evidence id)."""
    wanted = [ids.chunk_id(*key) for key, _, _ in rows]
    missing = [key for key in wanted if key not in known]
    passages = known | scope.passages_by_ids(missing) if missing else known
    found: list[Found] = []
    for key, score, contributions in rows:
        passage = passages.get(ids.chunk_id(*key))
        if passage is not None:  # the index and the rows agree inside one snapshot; defensive only
            found.append(Found(passage, score, len(found) + 1, contributions))
    return found


def _navigation(passage: Passage) -> bool:
    pages = passage.fields.get(NAVIGATION_PAGES)
    return bool(passage.pages) and isinstance(pages, list) and set(passage.pages) <= set(pages)


def _weigh_navigation(scope: Scope, ranked: dict[str, list[tuple[int, int, int, float]]]
                      ) -> dict[str, list[tuple[int, int, int, float]]]:
    """Each retriever's list with its navigation passages' scores times ``NAVIGATION_WEIGHT``, re-sorted."""
    passages = scope.passages_by_ids([ids.chunk_id(d, v, o) for rows in ranked.values() for d, v, o, _ in rows])
    weighed: dict[str, list[tuple[int, int, int, float]]] = {}
    for name, rows in ranked.items():
        scored = []
        for d, v, o, score in rows:
            passage = passages.get(ids.chunk_id(d, v, o))
            if passage is not None and _navigation(passage):
                score = score * NAVIGATION_WEIGHT if score >= 0 else score / NAVIGATION_WEIGHT
            scored.append((d, v, o, score))
        weighed[name] = sorted(scored, key=lambda row: -row[3])  # stable: ties keep the retriever's order
    return weighed


@functools.cache
def _retrievers() -> Any:
    """The threads hybrid searches run their keyword half on (made at the first one: a keyword search
    never imports ``concurrent.futures``)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="clew-search")


def ranked_lists(scope: Scope, query: str, mode: Mode, limit: int, *, vector: Any = None, model: str | None = None,
                 exclude_chunks: list[tuple[int, int, int]] = (), exclude_ids: list[str] = (),  # type: ignore[assignment]
                 exclude_document_keys: list[str] = (),  # type: ignore[assignment]
                 field: str | None = None) -> dict[str, list[tuple[int, int, int, float]]]:
    """Each retriever's best ``limit`` (document, version, ordinal, score), bm25 first.

    In hybrid mode the keyword search runs on another thread while the vectors are scored
    here: both spend their time in DuckDB or numpy, outside the GIL, so a hybrid query costs
    about its slower half rather than the sum.
    """
    def keyword() -> list[tuple[int, int, int, float]]:
        if field is not None:
            return field_search(scope, query, field, limit=limit, exclude_chunks=exclude_chunks,
                                exclude_document_keys=exclude_document_keys)
        return [(h.document_id, h.version, h.ordinal, h.score) for h in bm25_search(
            scope, query, limit=limit, exclude_chunks=exclude_chunks, exclude_document_keys=exclude_document_keys)]

    if mode == "bm25":
        return {"bm25": keyword()}
    from clew.corpus.search.vectors import vector_search

    pending = _retrievers().submit(keyword) if mode == "hybrid" else None
    try:
        nearest = vector_search(scope, vector, model=model or "", limit=limit, exclude_ids=exclude_ids,
                                exclude_document_keys=exclude_document_keys)
    except BaseException:
        if pending is not None:
            pending.cancel()
        raise
    return {"bm25": pending.result(), "vector": nearest} if pending is not None else {"vector": nearest}


def _both(first: Filter | None, second: Filter) -> Filter:
    from clew.corpus.access import Bool, BoolSpec

    return second if first is None else Bool(bool=BoolSpec(must=[first, second]))


def fuse(
    ranked: dict[str, list[tuple[int, int, int, float]]], weights: dict[str, float]
) -> list[tuple[tuple[int, int, int], float, dict[str, RetrieverContribution]]]:
    """Reciprocal rank fusion (score = sum of weight / (60 + rank)); one retriever keeps its own scores."""
    if len(ranked) == 1:
        (name, rows), = ranked.items()
        return [
            ((d, v, o), s, {name: RetrieverContribution.model_construct(rank=i, score=s)})
            for i, (d, v, o, s) in enumerate(rows, 1)
        ]
    scores: dict[tuple[int, int, int], float] = {}
    parts: dict[tuple[int, int, int], dict[str, RetrieverContribution]] = {}
    for name, rows in ranked.items():
        weight = weights.get(name, 1.0)
        for rank, (d, v, o, s) in enumerate(rows, start=1):
            key = (d, v, o)
            scores[key] = scores.get(key, 0.0) + weight / (RANK_CONSTANT + rank)
            parts.setdefault(key, {})[name] = RetrieverContribution.model_construct(rank=rank, score=s)
    order = sorted(scores, key=lambda k: (-scores[k], k))
    return [(key, scores[key], parts[key]) for key in order]


def _hit(passage: Passage, rank: int, score: float, contributions: dict[str, RetrieverContribution],
         max_chars: int, fields: list[str] | None) -> SearchHit:
    text = passage.text
    return SearchHit.model_construct(
        evidence_id=passage.evidence_id,
        document_key=passage.document_key,
        version=passage.version,
        start_offset=passage.start,
        end_offset=passage.end,
        location=Location.of(passage),
        collection=passage.collection,
        heading_path=list(passage.heading_path),
        kind=passage.kind,
        text=text[:max_chars],
        text_truncated=len(text) > max_chars,
        score=score,
        rank=rank,
        retrievers=contributions,
        fields={name: passage.fields[name] for name in fields or () if name in passage.fields},
    )
