"""Candidates and the frontier of a walk.

A candidate wraps what the walk may visit next, a passage (taking it puts it in the
evidence) or a tree node (opening it offers its children), with its priority. Fresh hits,
children and link targets compete in one queue; unvisited candidates stay in it, so the walk
comes back to a sibling it passed over once that sibling is the best thing left.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from operator import attrgetter

from clew.corpus.reader import Passage
from clew.navigation.core import Node


@dataclass(slots=True)
class Candidate:
    target: Passage | Node
    score: float
    """Own BM25 score against the (expanded) query; for a node, the best unvisited passage under it."""
    priority: float
    """What the walk ranks by: the score plus any bonus for where it was found."""
    depth: int
    via: str
    """How it was reached: seed, start, children, links, or a graph's edge."""
    origin: str | None = None
    """The id of the node or passage it was reached from."""
    tokens: int = 0
    """Tokens of a passage's text (what taking it costs); 0 for a node."""
    text_key: str | None = None
    """A passage's text, whitespace aside (what makes two passages duplicates)."""
    stamp: int = -1
    """The frontier version its priority was computed at."""
    id: str = field(init=False)
    """The passage's evidence id or the node's id: made once (every sort of the frontier reads it)."""
    passage: Passage | None = field(init=False)
    """The target when it is a passage (set once: every offer reads it of every candidate)."""
    node: Node | None = field(init=False)
    """The target when it is a node."""
    rank: tuple[float, int, str] = field(init=False)
    """What the frontier sorts by, best first: the priority (highest), the depth, the id (kept with it:
    every offer sorts the frontier twice)."""

    def __post_init__(self) -> None:
        target = self.target
        if isinstance(target, Passage):
            self.id, self.passage, self.node = target.evidence_id, target, None
        else:
            self.id, self.passage, self.node = target.id, None, target
        self.rank = (-self.priority, self.depth, self.id)


@dataclass
class Frontier:
    items: dict[str, Candidate] = field(default_factory=dict)
    visited: set[str] = field(default_factory=set)
    passages_visited: dict[tuple[int, int], set[int]] = field(default_factory=dict)
    """(document, version) -> ordinals of its passages visited (taken or skipped)."""
    version: int = 0
    """Moves on with every visit: priorities computed before may be stale."""
    aside: set[str] = field(default_factory=set)
    """Candidates set aside for a budget (too large for the tokens left, or a node with no tool call
    left to open it): found, not taken."""

    def push(self, candidate: Candidate) -> bool:
        """Add or improve a candidate; visited ones never come back."""
        if candidate.id in self.visited:
            return False
        known = self.items.get(candidate.id)
        if known is None or candidate.priority > known.priority:
            self.items[candidate.id] = candidate
            return True
        return False

    def ranked(self, refresh: Callable[[Candidate], float | None] | None = None, width: int = 1) -> list[Candidate]:
        """Best first, the first ``width`` priced afresh.

        ``refresh`` gives a candidate's score now (None drops it); its priority keeps the bonus
        it was pushed with. Scores only fall as the walk goes on (what is left under a node
        shrinks, covered query terms weigh less), so a stored priority is an upper bound and
        only the head of the queue needs re-pricing: candidates are re-priced best first until
        ``width`` fresh ones rank above every stale one.
        """
        order = sorted(self.items.values(), key=_RANK)
        if refresh is None:
            return order
        fresh: list[Candidate] = []
        rest: list[Candidate] = []
        for at, candidate in enumerate(order):
            if len(fresh) >= width and candidate.rank > fresh[width - 1].rank:
                rest = order[at:]
                break
            if candidate.stamp != self.version:
                candidate.stamp = self.version
                score = refresh(candidate)
                if score is None:
                    self.drop(candidate.id)
                    continue
                if score < candidate.score:
                    candidate.priority -= candidate.score - score
                    candidate.score = score
                    candidate.rank = (-candidate.priority, candidate.depth, candidate.id)
            fresh.append(candidate)
            fresh.sort(key=_RANK)
        return fresh + rest

    def take(self, candidate_id: str) -> Candidate:
        candidate = self.items.pop(candidate_id)
        self.mark(candidate)
        return candidate

    def mark(self, candidate: Candidate) -> None:
        """Visited: never offered again."""
        self.items.pop(candidate.id, None)
        self.visited.add(candidate.id)
        self.version += 1
        passage = candidate.passage
        if passage is not None:
            self.passages_visited.setdefault((passage.document_id, passage.version), set()).add(passage.ordinal)

    def visited_in(self, node: Node) -> AbstractSet[int]:
        sk = node.doc.skeleton
        return self.passages_visited.get((sk.document_id, sk.version), _NONE)

    def drop(self, candidate_id: str) -> None:
        self.items.pop(candidate_id, None)

    def set_aside(self, candidate: Candidate) -> None:
        """Out of the walk for a budget: never offered again, counted as left."""
        self.items.pop(candidate.id, None)
        self.aside.add(candidate.id)

    @property
    def left(self) -> int:
        """Candidates found and not taken: still queued, or set aside for a budget."""
        return len(self.items) + len(self.aside - self.visited)

    def clear(self) -> None:
        self.items.clear()


_RANK = attrgetter("rank")
_NONE: frozenset[int] = frozenset()
