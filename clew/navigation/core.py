"""The navigation core: typed moves over a document's tree and the corpus's graphs.

The tools (``navigate_document_tree``, ``expand_neighbors``, ...) and the agent's walks
both move through these functions; they answer in the corpus's one in-process passage type
(:class:`clew.corpus.reader.Passage`) and in :class:`Node` (a document root, a section or a
table of one document version). Every read goes through a :class:`~clew.corpus.reader.Scope`,
so a node or passage the caller may not read is never returned nor used as a route.

The tree of one document version:

- the children of the document root are the passages before its first heading and its
  top-level sections; of a section, its own passages, its tables and its subsections; of a
  table, its row passages: always in reading order;
- a passage's entry node is its innermost node: its table for a table passage, else its
  (first) section.

A document that is one title heading over everything has that title section as its root.
A user graph whose edges (``child`` by default) join document keys adds documents as
children of documents (:func:`child_documents`); :func:`graph_roots` names the documents no
such edge points at.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from clew.corpus.prose import reads_as_prose
from clew.corpus.reader import Passage, Scope, passage_of
from clew.corpus.sql import one
from clew.corpus.structure import FROZEN, DocumentVersion
from clew.navigation.edges import Vertex, edge_steps, structure_steps
from clew.navigation.models import NodeCard

NodeKind = Literal["document", "section", "table"]
PREVIEW_CHARS = 200
USER_TREE_TYPES = ("child",)


@dataclass(frozen=True, slots=True)
class Node:
    """A structure node of a readable document version: its root (ordinal 0), a section or a table."""

    doc: DocumentVersion
    ordinal: int

    @property
    def id(self) -> str:
        return self.doc.node_id(self.ordinal)

    @property
    def kind(self) -> NodeKind:
        return self.doc.skeleton.nodes[self.ordinal].kind  # type: ignore[return-value]

    @property
    def heading_path(self) -> tuple[str, ...]:
        return self.doc.skeleton.nodes[self.ordinal].heading_path

    @property
    def heading(self) -> str | None:
        return self.doc.skeleton.nodes[self.ordinal].heading

    @property
    def passages(self) -> tuple[int, ...]:
        """Ordinals of every passage under this node (its subtree), in reading order."""
        return self.doc.skeleton.subtree(self.ordinal)

    @property
    def is_root(self) -> bool:
        return self.ordinal == root(self.doc).ordinal

    @property
    def parent(self) -> Node | None:
        """The node above, None at the root."""
        if self.is_root:
            return None
        above = self.doc.skeleton.nodes[self.ordinal].parent
        return None if above is None else Node(self.doc, above)


def root(doc: DocumentVersion) -> Node:
    """A document's root: its document node, or the title section when that is all the document is
    (one top heading that holds every passage: its subsections are the document's top level)."""
    sk = doc.skeleton
    top = sk.children.get(0, ())
    if len(top) == 1 and sk.nodes[top[0]].kind == "section" and len(sk.subtree(top[0])) == len(sk.chunks):
        return Node(doc, top[0])
    return Node(doc, 0)


def entry_node(doc: DocumentVersion, ordinal: int) -> Node:
    """The node a passage enters the tree at: its table, else its (first) section."""
    return Node(doc, doc.skeleton.chunks[ordinal].node)


def tree_children(node: Node) -> list[Node | Passage]:
    """A node's children in reading order: its own passages, its tables and its subsections."""
    doc, sk = node.doc, node.doc.skeleton
    key = ("children", node.ordinal)
    order: list[tuple[bool, int]] | None = sk.memo.get(key)
    if order is None:  # which passages and nodes, in what order: kept with the immutable structure
        own: list[tuple[int, int, int]] = []
        first = sk.nodes[node.ordinal].first_chunk
        last = sk.nodes[node.ordinal].last_chunk
        if first is not None and last is not None:
            for ordinal in range(first, last + 1):
                if sk.chunks[ordinal].node == node.ordinal:
                    own.append((sk.chunks[ordinal].start, 0, ordinal))
        for child in sk.children.get(node.ordinal, ()):
            under = sk.subtree(child)
            start = sk.chunks[under[0]].start if under else sk.nodes[child].start
            own.append((start, 1, child))
        own.sort(key=lambda entry: (entry[0], entry[1]))
        order = sk.memo[key] = [(is_node == 1, ordinal) for _, is_node, ordinal in own]
    return [Node(doc, ordinal) if is_node else passage_of(doc, ordinal) for is_node, ordinal in order]


def lead(node: Node) -> Passage | None:
    """The first passage under a node."""
    under = node.passages
    return passage_of(node.doc, under[0]) if under else None




def opening(node: Node, skip: Collection[int] = ()) -> Passage | None:
    """The first passage under a node that reads as prose (``reads_as_prose``), past any in
    ``skip``: where a reader starts a page, after a synopsis of commands.

    Past ``skip`` it reads on only in the section that first passage opens: a page whose lead
    section is read has no opening left (the next section's first passage, say a DocBook page's
    first ``sect2`` after its introduction, is where that section starts, not the page)."""
    chunks = node.doc.skeleton.chunks
    lead_section: tuple[int, ...] | None = None
    for ordinal in node.passages:
        section = chunks[ordinal].sections[:1]
        if lead_section is not None and section != lead_section:
            return None
        passage = passage_of(node.doc, ordinal)
        if not reads_as_prose(passage.text):
            continue
        if ordinal not in skip:
            return passage
        if lead_section is None:
            lead_section = section
    return None


def card(child: Node | Passage) -> NodeCard:
    """A tree child as a card: kind, heading path, size in passages and tokens, a short lead preview."""
    if isinstance(child, Passage):
        return NodeCard(id=child.evidence_id, kind="passage", heading_path=list(child.heading_path), passages=1,
                        tokens=child.token_count, preview=child.text[:PREVIEW_CHARS])
    sk = child.doc.skeleton
    under = child.passages
    return NodeCard(id=child.id, kind=child.kind, heading_path=list(child.heading_path), passages=len(under),
                    tokens=sum(sk.chunks[o].token_count for o in under),
                    preview=sk.display_text(under[0])[:PREVIEW_CHARS] if under else "")


def render_card(card: NodeCard) -> str:
    """A card as a model reads it."""
    path = " > ".join(card.heading_path) or "(document)"
    return f"{card.kind}: {path} ({card.passages} passages, {card.tokens} tokens)\n{card.preview}"


@dataclass(frozen=True, slots=True)
class LinkTarget:
    """Where a link leads: the passage its ``#anchor`` points into, or a whole document (its root)."""

    target: Passage | Node


def link_targets(scope: Scope, passage: Passage) -> list[LinkTarget]:
    """Readable places a passage links to (graph ``links``), in its collection, by edge weight then id.

    A link with an ``#anchor`` leads to the passage the anchor points into; one without leads
    to the document as a whole (its root node), whose best part the caller picks.
    """
    doc = scope.document(passage.document_id, passage.version)
    if doc is None:
        return []
    steps = edge_steps(scope, [(Vertex(doc, "c", passage.ordinal), 1.0)], frozenset({"links"}), False)
    out: dict[str, LinkTarget] = {}
    for step in sorted(steps, key=lambda s: (-s.score, s.vertex.id)):
        found = step.vertex
        if step.whole_document:
            out.setdefault(found.doc.node_id(0), LinkTarget(Node(found.doc, 0)))
        elif found.id != passage.evidence_id:
            out.setdefault(found.id, LinkTarget(passage_of(found.doc, found.ordinal)))
    if out.get(doc.node_id(0)) is not None and doc.document_id == passage.document_id:
        out.pop(doc.node_id(0))  # a link to its own document leads nowhere new
    return list(out.values())


@dataclass(frozen=True, slots=True)
class Move:
    """One edge of a graph walk from its position: where it leads and along what."""

    target: Passage | Node
    relationship: str
    direction: Literal["out", "in"]


def neighbours(scope: Scope, position: Passage | Node, follow: frozenset[str] | None, *, incoming: bool,
               outgoing: bool = True) -> list[Move]:
    """One hop along ``follow`` (graph names, edge types or ``graph:type``) from a passage or node.

    Readable targets only, in the position's collection; best edge weight first, then by id.
    """
    if isinstance(position, Node):
        vertex = Vertex(position.doc, "s", position.ordinal)
    else:
        doc = scope.document(position.document_id, position.version)
        if doc is None:
            return []
        vertex = Vertex(doc, "c", position.ordinal)
    frontier = [(vertex, 1.0)]
    steps = structure_steps(frontier, follow, incoming) + edge_steps(scope, frontier, follow, incoming)
    steps.sort(key=lambda s: (-s.score, s.vertex.id, s.relationship, s.direction))
    moves: dict[str, Move] = {}
    for step in steps:
        if step.direction == "out" and not outgoing:
            continue
        found = step.vertex
        target: Passage | Node = (
            passage_of(found.doc, found.ordinal) if found.kind == "c" else Node(found.doc, found.ordinal)
        )
        key = found.id
        if key != vertex.id and key not in moves:
            moves[key] = Move(target, step.relationship, step.direction)
    return list(moves.values())


def _user_edges(scope: Scope, graph: str, types: tuple[str, ...], collection_id: int) -> list[tuple[str, str]]:
    """(src key, dst key) of one user graph's edges of ``types`` in a collection (cached until a write)."""
    cache_key = ("user_tree", graph, types, collection_id)
    rows = FROZEN.get(scope.corpus, cache_key)
    if rows is None:
        rows = scope.cursor().execute(
            """WITH e AS MATERIALIZED (SELECT collection_id, type, src_kind, src, dst_kind, dst FROM edges
                                      WHERE graph = ?)
               SELECT src, dst FROM e WHERE collection_id = ? AND src_kind = 'key' AND dst_kind = 'key'
                 AND type IN (SELECT unnest(?::VARCHAR[])) ORDER BY src, dst""",
            [graph, collection_id, list(types)]).fetchall()
        FROZEN.put(scope.corpus, cache_key, rows)
    return [(str(src), str(dst)) for src, dst in rows]


def child_documents(scope: Scope, doc: DocumentVersion, graph: str,
                    types: tuple[str, ...] = USER_TREE_TYPES) -> list[DocumentVersion]:
    """Readable current documents a user graph's ``types`` edges lead to from ``doc``, by key."""
    keys = [dst for src, dst in _user_edges(scope, graph, types, doc.meta.collection_id) if src == doc.key]
    found = scope.current_by_keys(keys, doc.collection)
    return [found[(doc.collection, key)] for key in keys if (doc.collection, key) in found]


def graph_roots(scope: Scope, collection_id: int, collection: str, graph: str,
                types: tuple[str, ...] = USER_TREE_TYPES) -> list[DocumentVersion]:
    """Readable current documents of a user graph that no ``types`` edge points at, by key."""
    edges = _user_edges(scope, graph, types, collection_id)
    pointed = {dst for _, dst in edges}
    keys = sorted({src for src, _ in edges} - pointed)
    found = scope.current_by_keys(keys, collection)
    return [found[(collection, key)] for key in keys if (collection, key) in found]


def graph_exists(scope: Scope, graph: str) -> bool:
    """Whether a graph has an edge in the scope's collection (cached until a write)."""
    key = ("graph_exists", graph, scope.collection)
    found = FROZEN.get(scope.corpus, key)
    if found is None:
        found = one(scope.cursor(),
            """WITH e AS MATERIALIZED (SELECT collection_id FROM edges WHERE graph = ?)
               SELECT EXISTS (SELECT 1 FROM e JOIN collections c ON c.id = e.collection_id
                              WHERE c.name = ? OR ? IS NULL)""",
            [graph, scope.collection, scope.collection])[0]
        FROZEN.put(scope.corpus, key, bool(found))
    return bool(found)
