"""The edge engine: one hop along a corpus's graphs from a frontier of passages and structure nodes.

``reading_order`` (``next``) and ``section_hierarchy`` (``child``) are read from the version's
skeleton, which is what ingestion wrote those edges from (:func:`structure_steps`); ``links``
(``links_to``) and user graphs come from the ``edges`` table (:func:`edge_steps`, cached per name
while the corpus is read-only). A far end the scope may not read is neither a step nor a route.
``expand_neighbors`` (:mod:`clew.navigation.graph`) and the walks' moves
(:mod:`clew.navigation.core`) both step through here; it imports nothing else of navigation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from clew.corpus import ids
from clew.corpus.reader import Passage, Scope
from clew.corpus.sql import one
from clew.corpus.structure import FROZEN, SKELETONS, DocumentVersion, Skeleton, str_list

# names that only structure edges answer to (a user graph may have ``next`` or ``child`` edges too)
STRUCTURE = frozenset({"section_hierarchy", "reading_order", "section_hierarchy:child", "reading_order:next"})


# format: names (str_list), incoming (TRUE | FALSE); structural graphs are read from skeletons
EDGES_SQL = """WITH o AS MATERIALIZED (SELECT collection_id, graph, type, src_kind, src, dst_kind, dst, weight, dst_ref
                         FROM edges WHERE src IN ({names})),
     i AS MATERIALIZED (SELECT collection_id, graph, type, src_kind, src, dst_kind, dst, weight, dst_ref
                         FROM edges WHERE dst IN ({names}))
SELECT 'out', * FROM o WHERE graph NOT IN ('section_hierarchy', 'reading_order') AND dst IS NOT NULL
UNION ALL
SELECT 'in', * FROM i WHERE {incoming} AND graph NOT IN ('section_hierarchy', 'reading_order')"""


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


def has_links(scope: Scope, passage: Passage | str) -> bool:
    """Whether a readable passage (or the passage an evidence id names) has an outgoing ``links``
    edge into a version the scope may read (no tool call).

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
    if isinstance(passage, Passage):  # a walk asks of every passage it takes: no id to parse
        evidence_id, document, version = passage.evidence_id, passage.document_id, passage.version
    else:
        evidence_id = passage
        decoded = ids.decode(evidence_id)
        document, version = decoded.document, decoded.version
    linking = FROZEN.get(corpus, ("links", document, version))
    if linking is None:
        doc = scope.document(document, version)
        if doc is None:
            return False
        linking = _read_links(scope, doc.skeleton)
    targets = linking.get(evidence_id)
    return bool(targets) and bool(scope.documents(targets))  # no link at all: no version to ask about


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
