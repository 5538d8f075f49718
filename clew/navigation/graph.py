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

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import duckdb
from pydantic import Field

from clew.budgets.bounds import Clamp
from clew.corpus import ids
from clew.corpus.reader import Scope
from clew.corpus.sql import one
from clew.corpus.structure import FROZEN, SKELETONS, DocumentVersion, Skeleton, str_list
from clew.errors import MalformedEvidenceId
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
# names that only structure edges answer to (a user graph may have ``next`` or ``child`` edges too)
STRUCTURE = frozenset({"section_hierarchy", "reading_order", "section_hierarchy:child", "reading_order:next"})
NeighborType = Literal["chunk", "section", "table", "document"]

# format: names (str_list), incoming (TRUE | FALSE); structural graphs are read from skeletons
EDGES_SQL = """WITH o AS MATERIALIZED (SELECT collection_id, graph, type, src_kind, src, dst_kind, dst, weight, dst_ref
                         FROM edges WHERE src IN ({names})),
     i AS MATERIALIZED (SELECT collection_id, graph, type, src_kind, src, dst_kind, dst, weight, dst_ref
                         FROM edges WHERE dst IN ({names}))
SELECT 'out', * FROM o WHERE graph NOT IN ('section_hierarchy', 'reading_order') AND dst IS NOT NULL
UNION ALL
SELECT 'in', * FROM i WHERE {incoming} AND graph NOT IN ('section_hierarchy', 'reading_order')"""


class ExpandArgs(InCollection):
    ids: list[NonBlank] = Field(min_length=1, max_length=MAX_IDS)
    """Seed evidence ids (passages, sections or documents); repeats count once, at most 8 are used."""
    relationship_types: list[NonBlank] | None = None
    """Edge types or graph names to follow (e.g. next, child, links_to, workflow); None: all."""
    types: list[NeighborType] | None = None
    """Neighbour types to return (chunk, section, table, document); None: all."""
    depth: Annotated[int, Clamp(1, 3)] = 1
    """Hops from the seeds."""
    limit: Annotated[int, Clamp(1, 24)] = 8
    """Most neighbours to return."""
    content_max_chars: Annotated[int, Clamp(1, 4000)] = 500
    """Characters of content per neighbour."""
    include_incoming: bool = True
    """Also walk edges that point at a vertex."""


@dataclass(frozen=True, slots=True)
class Vertex:
    doc: DocumentVersion
    kind: Literal["c", "s"]
    ordinal: int

    @property
    def id(self) -> str:
        return self.doc.chunk_id(self.ordinal) if self.kind == "c" else self.doc.node_id(self.ordinal)

    @property
    def node(self) -> int:
        """The structure node this vertex stands for in ``section_hierarchy``."""
        return self.doc.skeleton.chunks[self.ordinal].node if self.kind == "c" else self.ordinal


@dataclass(frozen=True, slots=True)
class Step:
    vertex: Vertex
    relationship: str
    direction: Literal["out", "in"]
    score: float
    via: str
    whole_document: bool = False
    """The edge names a document, not a place in it (a key, or a link without ``#anchor``)."""


def expand_neighbors(scope: Scope, args: ExpandArgs) -> NeighborsResult:
    """Walk graph edges (reading order, section hierarchy, links, user graphs) from seed ids, up to 3 hops.

    Returns the neighbours ranked by distance and score, each with a content preview; use
    fetch_evidence on an id before citing it.
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


def _allowed(follow: frozenset[str] | None, graph: str, type_: str) -> bool:
    """``follow`` names graphs (``links``), edge types (``next``) or both (``workflow:next``)."""
    return follow is None or graph in follow or type_ in follow or f"{graph}:{type_}" in follow


def structure_steps(frontier: list[tuple[Vertex, float]], follow: frozenset[str] | None, incoming: bool) -> list[Step]:
    steps: list[Step] = []
    for vertex, score in frontier:
        doc, sk = vertex.doc, vertex.doc.skeleton
        if vertex.kind == "c" and _allowed(follow, "reading_order", "next"):
            if vertex.ordinal + 1 < len(sk.chunks):
                steps.append(Step(Vertex(doc, "c", vertex.ordinal + 1), "reading_order:next", "out", score, vertex.id))
            if incoming and vertex.ordinal > 0:
                steps.append(Step(Vertex(doc, "c", vertex.ordinal - 1), "reading_order:next", "in", score, vertex.id))
        if _allowed(follow, "section_hierarchy", "child"):
            node = vertex.node
            for child in sk.children.get(node, ()):
                steps.append(Step(Vertex(doc, "s", child), "section_hierarchy:child", "out", score, vertex.id))
            parent = sk.nodes[node].parent
            if incoming and parent is not None:
                steps.append(Step(Vertex(doc, "s", parent), "section_hierarchy:child", "in", score, vertex.id))
    return steps


@dataclass(frozen=True, slots=True)
class _Hop:
    """One stored edge from a frontier vertex, before its far end is known to be readable."""

    origin: Vertex
    score: float
    direction: Literal["out", "in"]
    relationship: str
    weight: float
    key: str | None = None
    """The far end as a document key (user graphs), in the origin's collection."""
    passage: ids.EvidenceId | None = None
    """The far end as a passage (links)."""
    anchored: bool = False
    """A link to an ``#anchor`` (else to the document as a whole)."""


def edge_steps(scope: Scope, frontier: list[tuple[Vertex, float]], follow: frozenset[str] | None,
                incoming: bool) -> list[Step]:
    """Links and user-graph edges of the frontier's passages, to readable vertices only."""
    if follow is not None and follow <= STRUCTURE:
        return []
    by_name: dict[str, list[tuple[Vertex, float]]] = {}
    for vertex, score in frontier:
        if vertex.kind == "c":
            by_name.setdefault(vertex.id, []).append((vertex, score))
            by_name.setdefault(vertex.doc.key, []).append((vertex, score))
    if not by_name:
        return []
    hops: list[_Hop] = []
    rows = _edges(scope, sorted(by_name), incoming)
    for direction, collection_id, graph, type_, src_kind, src, dst_kind, dst, weight, dst_ref in rows:
        if not _allowed(follow, graph, type_):
            continue
        here, there, kind = (src, dst, dst_kind) if direction == "out" else (dst, src, src_kind)
        for vertex, score in by_name.get(here, ()):
            is_key = kind == "key"
            if (here == vertex.doc.key) != is_key or collection_id != vertex.doc.meta.collection_id:
                continue  # a name of another kind, or an edge of another collection
            hops.append(_Hop(vertex, score, direction, f"{graph}:{type_}", float(weight),
                             key=there if is_key else None, passage=None if is_key else ids.decode(there),
                             anchored=direction == "out" and "#" in (dst_ref or "")))
    by_key = scope.current_by_keys({h.key for h in hops if h.key is not None})
    by_version = scope.documents((h.passage.document, h.passage.version) for h in hops if h.passage is not None)
    steps: list[Step] = []
    for hop in hops:
        if hop.passage is not None:
            doc, ordinal = by_version.get((hop.passage.document, hop.passage.version)), hop.passage.ordinal or 0
        else:
            doc, ordinal = by_key.get((hop.origin.doc.collection, hop.key or "")), 0  # a key: its first current passage
        if doc is None or doc.meta.collection_id != hop.origin.doc.meta.collection_id:
            continue  # unreadable, missing or elsewhere: neither an answer nor a route
        if ordinal < len(doc.skeleton.chunks):
            step = Step(
                Vertex(doc, "c", ordinal),
                hop.relationship,
                hop.direction,
                hop.score * hop.weight,
                hop.origin.id,
                whole_document=not hop.anchored,
            )
            steps.append(step)
    return steps


def _edges(scope: Scope, names: list[str], incoming: bool) -> list[tuple[Any, ...]]:
    """Link and user-graph edge rows touching ``names`` (kept while the corpus is read-only)."""
    rows: list[tuple[Any, ...]] = []
    asked = []
    for name in names:
        known = FROZEN.get(scope.corpus, ("edges", name, incoming))
        if known is None:
            asked.append(name)
        else:
            rows.extend(known)
    if asked:
        sql = EDGES_SQL.format(names=str_list(asked), incoming="TRUE" if incoming else "FALSE")
        fresh = scope.cursor().execute(sql).fetchall()
        rows.extend(fresh)
        for name in asked:
            FROZEN.put(scope.corpus, ("edges", name, incoming),
                       [r for r in fresh if (r[5] if r[0] == "out" else r[7]) == name])
    return rows


def has_links(scope: Scope, evidence_id: str) -> bool:
    """Whether a readable passage has an outgoing ``links`` edge into a version the scope may
    read (no tool call).

    Answered from caches kept until the next write: whether the corpus has any link at all,
    then, per document version, where each of its passages links (one indexed query for all of
    a document's passages, on its first question), then whether any target may be read. A link
    into a denied version and a dangling one are both no link, from the same readability
    lookup, so a walk spends the same tool calls on either.
    """
    corpus = scope.corpus
    anywhere = FROZEN.get(corpus, ("links", "any"))
    if anywhere is None:
        anywhere = bool(one(scope.cursor(),
            "SELECT EXISTS (SELECT 1 FROM edges WHERE graph = 'links' AND dst IS NOT NULL)")[0])
        FROZEN.put(corpus, ("links", "any"), anywhere)
    if not anywhere:
        return False
    decoded = ids.decode(evidence_id)
    linking = FROZEN.get(corpus, ("links", decoded.document, decoded.version))
    if linking is None:
        doc = scope.document(decoded.document, decoded.version)
        if doc is None:
            return False
        linking = _read_links(scope, doc.skeleton)
    return bool(scope.documents(linking.get(evidence_id, ())))


LINK_BATCH = 32
"""Versions whose passages' links one query reads: the one asked about and the versions read most
recently whose links nobody asked for yet (a walk asks about the documents of its seed hits, all
read by then: a cold ``clew ask`` made one query per document, 10 of its first walk's 18)."""


def _read_links(scope: Scope, skeleton: Skeleton) -> dict[str, tuple[tuple[int, int], ...]]:
    """Where each passage of ``skeleton``'s version links (kept until the next write), read in one
    query with those of up to ``LINK_BATCH - 1`` other versions in the structure cache."""
    corpus = scope.corpus
    asked = (skeleton.document_id, skeleton.version)
    batch = [skeleton, *(s for s in SKELETONS.recent(corpus, 2 * LINK_BATCH)
                         if (s.document_id, s.version) != asked
                         and FROZEN.get(corpus, ("links", s.document_id, s.version)) is None)][:LINK_BATCH]
    names = [ids.chunk_id(s.document_id, s.version, o) for s in batch for o in range(len(s.chunks))]
    rows = scope.cursor().execute(  # src IN (...) alone, so that the edges_src index serves it
        f"SELECT src, graph, dst FROM edges WHERE src IN ({str_list(names)})").fetchall()
    targets: dict[str, list[tuple[int, int]]] = {}
    for src, graph, dst in rows:
        if graph == "links" and dst is not None:
            target = ids.decode(dst)
            targets.setdefault(src, []).append((target.document, target.version))
    found: dict[tuple[int, int], dict[str, tuple[tuple[int, int], ...]]] = {
        (s.document_id, s.version): {} for s in batch}
    for src, where in targets.items():
        source = ids.decode(src)
        found[(source.document, source.version)][src] = tuple(where)
    for key, linking in found.items():
        FROZEN.put(corpus, ("links", *key), linking)
    return found[asked]


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
