"""``expand_neighbors``: walk typed edges from seed passages, breadth first, 1-3 hops.

The graph's vertices are passages (``ev1:c:...``) and structure nodes (``ev1:s:...``); user
graphs join document keys. How each graph is walked:

- ``reading_order`` (``next``) and ``section_hierarchy`` (``child``) are read from the
  version's skeleton, which is what ingestion wrote those edges from; a passage stands for
  its innermost structure node in ``section_hierarchy``.
- ``links`` (``links_to``) and user graphs come from the ``edges`` table (indexed on
  ``src`` and ``dst``). A passage stands for its document's key in user graphs, and a key
  reached by a user edge is returned as its document's first current passage.

Rules of the walk:

- seeds: passage, node or document ids, each taken once, in the order given (an id given
  twice, or a document id and its root node's id, is one seed). The first ``MAX_SEEDS``
  distinct seeds are used; ``unresolved`` lists the others as ``dropped``, and those used
  that are malformed or missing *or* unreadable (the last two alike). No id is both an
  origin and unresolved. More than ``MAX_IDS`` ids is an input error naming ``ids``.
- ``relationship_types`` narrows the walk: an edge is followed when its type (``next``), its
  graph (``links``) or both (``workflow:next``) are listed (None: every edge). ``types`` (chunk, section, table,
  document) narrows
  only the answer: the walk still passes through vertices of other types.
- every vertex the walk reaches is checked against the scope before it is returned *or*
  used as a route: an unreadable document is neither. The walk never leaves the collection
  of the vertex it comes from.
- ``score`` is the product of the edge weights along the path times ``0.5 ** (distance-1)``;
  neighbours are ranked by distance, then score, then id. At most ``MAX_LEVEL`` vertices of
  one level are expanded further (best first).
- ``truncated`` is observed: the walk collects one more matching neighbour than ``limit``.

Bounds: depth 1-3, limit 1-24, content_max_chars 1-4000, all clamped and reported.
"""

from __future__ import annotations

from typing import Annotated, Literal

import duckdb
from pydantic import Field

from clew.budgets.bounds import Clamp
from clew.corpus import ids
from clew.corpus.reader import Scope
from clew.errors import MalformedEvidenceId
from clew.navigation.edges import Step, Vertex, edge_steps, structure_steps
from clew.navigation.models import (
    UNAVAILABLE,
    InCollection,
    Neighbor,
    NeighborsResult,
    NonBlank,
    Unresolved,
)

MAX_SEEDS = 8
MAX_IDS = 1000
"""The most ids one call takes; the distinct ones past ``MAX_SEEDS`` are reported as dropped."""
MAX_LEVEL = 64
DECAY = 0.5
NeighborType = Literal["chunk", "section", "table", "document"]


class ExpandArgs(InCollection):
    ids: list[NonBlank] = Field(min_length=1, max_length=MAX_IDS)
    """Seed evidence ids (passages, sections or documents); repeats count once, at most 8 are used."""
    relationship_types: list[NonBlank] | None = None
    """Edge types or graph names to follow (e.g. next, child, links_to, workflow); None: all."""
    types: list[NeighborType] | None = None
    """Neighbour types to return; None: all."""
    depth: Annotated[int, Clamp(1, 3)] = 1
    """Hops from the seeds."""
    limit: Annotated[int, Clamp(1, 24)] = 8
    """Most neighbours to return."""
    content_max_chars: Annotated[int, Clamp(1, 4000)] = 500
    """Characters of content per neighbour."""
    include_incoming: bool = True
    """Also walk edges that point at a vertex."""


def expand_neighbors(scope: Scope, args: ExpandArgs) -> NeighborsResult:
    """Walk graph edges (reading order, section hierarchy, links, user graphs) from seed ids.

    Returns the neighbours ranked by distance and score, each with a content preview.
    """
    scope = scope.within(args.collection)
    depth, limit, preview = (args.clamped()[name] for name in ("depth", "limit", "content_max_chars"))
    follow = frozenset(args.relationship_types) if args.relationship_types is not None else None
    wanted = frozenset(args.types) if args.types is not None else None
    result = NeighborsResult(status="ok", depth=depth, limit=limit, filters={
        "relationship_types": args.relationship_types, "types": args.types,
        "include_incoming": args.include_incoming, "collection": args.collection,
        "content_max_chars": preview})
    try:
        seeds = _seeds(scope, args.ids, result)
        if not seeds:
            statuses = {u.status for u in result.unresolved}
            result.status = "unavailable" if "unavailable" in statuses or not statuses else "malformed"
            result.detail = "no seed could be read"
            return result
        found, truncated = _walk(scope, seeds, depth, limit, follow, wanted, args.include_incoming)
    except duckdb.Error as error:
        result.status, result.detail = "failed", f"the corpus could not be read: {error}"
        return result
    result.origins = [v.id for v in seeds]
    result.neighbors = [_neighbor(step, distance, preview) for step, distance in found[:limit]]
    result.total = len(result.neighbors)
    result.truncated = truncated or len(found) > limit
    result.status = "ok" if result.neighbors else "no_match"
    return result


def _seeds(scope: Scope, values: list[str], result: NeighborsResult) -> list[Vertex]:
    """Resolve the first ``MAX_SEEDS`` distinct seeds; ``result.unresolved`` lists the others
    (dropped, malformed, unavailable), each once, in the order given."""
    distinct: dict[object, tuple[str, ids.EvidenceId | MalformedEvidenceId]] = {}
    for value in values:
        try:
            decoded: ids.EvidenceId | MalformedEvidenceId = ids.decode(value)
        except MalformedEvidenceId as error:
            decoded = error
        distinct.setdefault(_seed_key(value, decoded), (value, decoded))
    unresolved: dict[int, Unresolved] = {}
    used: list[tuple[int, str, ids.EvidenceId]] = []
    for at, (value, decoded) in enumerate(distinct.values()):
        if at >= MAX_SEEDS:
            unresolved[at] = Unresolved(id=value, status="dropped", detail=f"only {MAX_SEEDS} seeds are used")
        elif isinstance(decoded, MalformedEvidenceId):
            unresolved[at] = Unresolved(id=value, status="malformed", detail=decoded.message)
        else:
            used.append((at, value, decoded))
    docs = scope.documents((d.document, d.version) for _, _, d in used)
    seeds: list[Vertex] = []
    for at, value, d in used:
        doc = docs.get((d.document, d.version))
        size = 0 if doc is None else len(doc.skeleton.chunks if d.kind == "c" else doc.skeleton.nodes)
        if doc is None or (d.ordinal or 0) >= size:
            unresolved[at] = Unresolved(id=value, status="unavailable", detail=UNAVAILABLE)
            continue
        seeds.append(Vertex(doc, "s", 0) if d.kind == "d" else Vertex(doc, d.kind, d.ordinal))  # type: ignore[arg-type]
    result.unresolved = [unresolved[at] for at in sorted(unresolved)]
    return seeds


def _seed_key(value: str, decoded: ids.EvidenceId | MalformedEvidenceId) -> object:
    """What makes two seeds one: the vertex an id names (a document id names its root node), or
    a malformed id's text."""
    if isinstance(decoded, MalformedEvidenceId):
        return value.strip()
    if decoded.kind == "d":
        return ("s", decoded.document, decoded.version, 0)
    return (decoded.kind, decoded.document, decoded.version, decoded.ordinal)


def _walk(scope: Scope, seeds: list[Vertex], depth: int, limit: int, follow: frozenset[str] | None,
          wanted: frozenset[str] | None, incoming: bool) -> tuple[list[tuple[Step, int]], bool]:
    # a seed passage stands for its structure node: that node is the seed, not a neighbour
    seen = {v.id for v in seeds} | {v.doc.node_id(v.node) for v in seeds}
    frontier = [(v, 1.0) for v in seeds]
    found: list[tuple[Step, int]] = []
    truncated = False
    for distance in range(1, depth + 1):
        steps = structure_steps(frontier, follow, incoming) + edge_steps(scope, frontier, follow, incoming)
        steps.sort(key=lambda s: (-s.score, s.vertex.id, s.relationship, s.direction))
        level: list[tuple[Vertex, float]] = []
        for step in steps:
            if step.vertex.id in seen:
                continue
            seen.add(step.vertex.id)
            level.append((step.vertex, step.score))
            if wanted is None or _type(step.vertex) in wanted:
                found.append((step, distance))
        if len(found) > limit:
            break
        if len(level) > MAX_LEVEL:
            truncated = True
        frontier = [(v, score * DECAY) for v, score in level[:MAX_LEVEL]]
    return found, truncated


def _type(vertex: Vertex) -> Literal["chunk", "section", "table", "document"]:
    if vertex.kind == "c":
        return "chunk"
    kind = vertex.doc.skeleton.nodes[vertex.ordinal].kind
    return "section" if kind == "section" else "table" if kind == "table" else "document"


def _neighbor(step: Step, distance: int, preview: int) -> Neighbor:
    vertex = step.vertex
    doc, sk = vertex.doc, vertex.doc.skeleton
    metadata: dict[str, object] = {"document_key": doc.key, "version_status": doc.version_status, "via": step.via}
    passage: int | None
    if vertex.kind == "c":
        passage = vertex.ordinal
        path = sk.heading_path(passage)
        name = " > ".join(path) or doc.key
    else:
        node = sk.nodes[vertex.ordinal]
        passage = node.first_chunk
        path = node.heading_path
        name = node.heading or (" > ".join(path) if path else doc.key)
        if passage is not None:
            metadata["passage_id"] = doc.chunk_id(passage)
    metadata["heading_path"] = list(path)
    text = sk.display_text(passage) if passage is not None else ""
    return Neighbor(
        id=vertex.id,
        type=_type(vertex),
        name=name,
        relationship=step.relationship,
        direction=step.direction,
        distance=distance,
        score=round(step.score, 6),
        content=text[:preview],
        content_truncated=len(text) > preview,
        metadata=metadata,
    )
