"""``navigate_document_tree``: from a passage to its section, siblings, neighbours, table.

Every relation answers with passages of the *same document version* as the start, read
from the version's skeleton (``clew.corpus.structure``): one indexed query per call when
the structure is cached, never a scan of the chunk table. What each relation means:

- ``parent``: each section the passage holds text of, as that section's first passage
  (``nodes.first_chunk``), with the *section's* heading path and ``section_id``. A passage
  spanning two sections gives two items (possibly the same passage twice, once per section).
- ``siblings``: the other sections under the same parent section(s), in document order,
  each as its first passage. Only sections count (not tables), and a section that holds no
  text of any passage of its own (a heading whose content is all in subsections) is left
  out. The sections the start passage holds are never its own siblings. The document root
  has no siblings.
- ``children``: the other passages under the start's innermost node (``chunks.node``): for
  a table, its other row passages; for a section, every other passage holding text of that
  section, its tables' rows included, but not the passages of its subsections. On a section
  or document id (``ev1:s:``, ``ev1:d:``) instead: the node's children in the tree the walks
  use (its own passages, tables and subsections; ``clew.navigation.core``), each as a card.
- ``previous`` / ``next``: the passage before / after in reading order (at most one).
- ``table_context``: for a table passage, the table's passages in reading order, a window
  of at most ``limit`` centred on the start (each later passage repeats the header rows);
  a table in one passage returns itself. A text passage gives ``no_match``.

``limit`` is applied first, then ``max_chars``: the first item that does not fit is cut to
what is left and marked ``text_truncated``, later items are dropped; ``truncation_reason``
is ``chars`` when the budget cut anything, else ``limit``. Inputs follow the rules in
:mod:`clew.navigation.models`: a non-blank id that does not decode, or that is not a passage
id, is status ``malformed``; a denied id is ``unavailable``, exactly like a missing one.
"""

from __future__ import annotations

from typing import Annotated, Any

from clew.budgets.bounds import Clamp
from clew.corpus.reader import Scope
from clew.corpus.structure import DocumentVersion
from clew.navigation.core import Node, card, root, tree_children
from clew.navigation.models import Chars, InCollection, NavigationResult, NonBlank, Relation
from clew.navigation.passages import Opened, budget, open_id


class TreeArgs(InCollection):
    evidence_id: NonBlank
    """A passage id (ev1:c:...); for children also a section or document id (ev1:s:/ev1:d:)."""
    relation: Relation
    """parent (the sections holding the passage), siblings (the other sections under its parent), children (the
    passages under its section or table; on a section or document id, its parts as cards), previous / next
    (reading order), table_context (the table's passages around a table passage)."""
    limit: Annotated[int, Clamp(1, 50)] = 10
    """Most passages to return."""
    max_chars: Chars = 12000
    """Character budget over all returned text."""


def navigate_document_tree(scope: Scope, args: TreeArgs) -> NavigationResult:
    """Move from a passage to related passages (relation) of the same document version."""
    limit, max_chars = (args.clamped()[name] for name in ("limit", "max_chars"))
    base: dict[str, Any] = {"relation": args.relation, "applied": {"limit": limit, "max_chars": max_chars}}
    start = open_id(scope, args.evidence_id, "csd" if args.relation == "children" else "c")
    if start.doc is not None and start.kind in ("s", "d"):
        return _node_children(start, limit, base)
    if start.doc is None or start.ordinal is None:
        return NavigationResult(status=start.status, detail=start.detail, **base)
    doc, ordinal = start.doc, start.ordinal
    picks, more, detail = RELATIONS[args.relation](doc, ordinal, limit)
    items, truncated, reason = budget(doc, picks, limit, max_chars, more)
    return NavigationResult(
        status="ok" if items else "no_match",
        items=items,
        truncated=truncated,
        truncation_reason=reason,
        version_status=doc.version_status,
        multi_section=len(doc.skeleton.chunks[ordinal].sections) > 1,
        detail=None if items else detail,
        **base,
    )


def _node_children(start: Opened, limit: int, base: dict[str, Any]) -> NavigationResult:
    """``children`` of a section or document node: every child, in reading order, as a card."""
    doc = start.doc
    assert doc is not None  # noqa: S101 - opened
    node = root(doc) if start.kind == "d" else Node(doc, start.ordinal or 0)
    found = tree_children(node)
    cards = [card(child) for child in found[:limit]]
    return NavigationResult(
        status="ok" if cards else "no_match", children=cards, truncated=len(found) > limit,
        truncation_reason="limit" if len(found) > limit else None, version_status=doc.version_status,
        detail=None if cards else f"the {node.kind} has no children", **base)


Picks = tuple[list[tuple[int, int | None]], bool, str]
"""(ordinal, section it stands for) picks, whether the limit left more out, why none."""


def parent(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    sk = doc.skeleton
    picks: list[tuple[int, int | None]] = [
        (first, s) for s in sk.chunks[ordinal].sections if (first := sk.nodes[s].first_chunk) is not None]
    return picks, False, "the passage holds no section"


def siblings(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    sk = doc.skeleton
    own = sk.chunks[ordinal].sections
    parents = dict.fromkeys(p for s in own if (p := sk.nodes[s].parent) is not None)
    found = sorted({
        child for p in parents for child in sk.children.get(p, ())
        if sk.nodes[child].kind == "section" and child not in own and child in sk.own
    })
    picks: list[tuple[int, int | None]] = [(first, s) for s in found if (first := sk.nodes[s].first_chunk) is not None]
    return picks, False, "no other section with a passage under the same parent"


def children(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    sk = doc.skeleton
    chunk = sk.chunks[ordinal]
    node = sk.nodes[chunk.node]
    found: list[tuple[int, int | None]] = []
    if node.first_chunk is not None and node.last_chunk is not None:
        for o in range(node.first_chunk, node.last_chunk + 1):
            other = sk.chunks[o]
            under = other.table_node == node.ordinal if node.kind == "table" else node.ordinal in other.sections
            if under and o != ordinal:
                found.append((o, None))
                if len(found) > limit:  # one more than the limit shows that there are more
                    break
    return found, False, f"no other passage under the same {node.kind}"


def previous(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    return ([(ordinal - 1, None)] if ordinal > 0 else []), False, "the passage is the first of its document"


def next_(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    more = ordinal + 1 < len(doc.skeleton.chunks)
    return ([(ordinal + 1, None)] if more else []), False, "the passage is the last of its document"


def table_context(doc: DocumentVersion, ordinal: int, limit: int) -> Picks:
    sk = doc.skeleton
    chunk = sk.chunks[ordinal]
    if chunk.kind != "table" or chunk.table_node is None:
        return [], False, "the passage is not part of a table"
    table = sk.nodes[chunk.table_node]
    rows = [o for o in range(table.first_chunk or ordinal, (table.last_chunk or ordinal) + 1)
            if sk.chunks[o].table_node == chunk.table_node]
    at = rows.index(ordinal)
    first = max(0, min(at - (limit - 1) // 2, len(rows) - limit))
    window = rows[first:first + limit]
    return [(o, None) for o in window], len(rows) > len(window), "the passage is not part of a table"


RELATIONS = {
    "parent": parent,
    "siblings": siblings,
    "children": children,
    "previous": previous,
    "next": next_,
    "table_context": table_context,
}
