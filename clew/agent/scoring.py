"""How a ranked walk prices what it may visit.

Every passage is scored by BM25 against the query, expanded once from the best seed hits
(pseudo-relevance feedback, ``clew.corpus.search.feedback``), from its index terms (heading
path and text) with the corpus statistics. A node is worth the best unvisited passage under
it: opening it is how that passage is reached. Scores are kept per run; a passage's terms
are kept with its version's immutable structure, so re-scoring costs nothing.

On top of its own score a candidate gets a bonus for where it was found, measured on the dev
sets (see the README's navigation section): children of a node that already holds taken
evidence get ``ADJACENCY_BONUS`` times the best seed score, the passage right after a taken
one ``CONTINUATION_BONUS`` times it, and a link target ``LINK_BONUS`` times the score of the
passage that links to it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from clew.corpus.reader import Passage, Scope
from clew.corpus.search.bm25 import passage_terms, score_terms
from clew.corpus.search.feedback import feedback_terms
from clew.corpus.search.index import index_text
from clew.corpus.structure import DocumentVersion
from clew.navigation.core import Node

ADJACENCY_BONUS = 0.1
CONTINUATION_BONUS = 0.0
LINK_BONUS = 0.3


class Scorer:
    def __init__(self, scope: Scope, query: str) -> None:
        self.scope = scope
        self.query = query
        self.weights: dict[str, float] | None = None
        self.top = 0.0
        """The best own score among the seed hits: the scale of every bonus."""
        self._scores: dict[tuple[int, int], list[float | None]] = {}

    def expand(self, seeds: list[Passage]) -> None:
        """Expand the query from the best seed hits (once); every later score uses it."""
        if self.weights is None:
            texts = [index_text(p.heading_path, p.header, p.body) for p in seeds]
            self.weights = feedback_terms(self.scope, self.query, texts)

    def _document(self, doc: DocumentVersion, ordinals: Iterable[int]) -> list[float | None]:
        if self.weights is None:
            self.expand([])
        key = (doc.document_id, doc.version)
        scores = self._scores.get(key)
        if scores is None:
            scores = self._scores[key] = [None] * len(doc.skeleton.chunks)
        missing = [o for o in ordinals if scores[o] is None]
        if missing:
            assert self.weights is not None  # noqa: S101 - expanded above
            for o, value in zip(missing, score_terms(self.scope, self.weights, [passage_terms(doc, o) for o in missing]),
                                strict=True):
                scores[o] = value
        return scores

    def passage(self, passage: Passage) -> float:
        doc = self.scope.document(passage.document_id, passage.version)
        if doc is None:
            return 0.0
        return self._document(doc, [passage.ordinal])[passage.ordinal] or 0.0

    def passages(self, passages: list[Passage]) -> list[float]:
        return [self.passage(p) for p in passages]

    def node(self, node: Node, skip: Collection[int] = ()) -> float | None:
        """The best score of a passage under ``node`` whose ordinal is not in ``skip``; None when none is left."""
        under = node.passages
        scores = self._document(node.doc, under)
        best: float | None = None
        for ordinal in under:
            if ordinal in skip:
                continue
            value = scores[ordinal] or 0.0
            if best is None or value > best:
                best = value
        return best
