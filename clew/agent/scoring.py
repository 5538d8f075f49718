"""How a ranked walk prices what it may visit.

Every passage is scored by BM25 against the query, expanded once from the best seed hits
(pseudo-relevance feedback, ``clew.corpus.search.feedback``), from its index terms (heading
path and text) with the corpus statistics. A node is worth the best unvisited passage under
it: opening it is how that passage is reached. A passage's terms are kept with its
version's immutable structure, so re-scoring costs no read.

On top of its own score a candidate gets a bonus for where it was found (see
``clew.agent.tree``); the weights below were chosen on one dev set and checked on the other
(README, "Navigation"):

- ``SECTION_WEIGHT``: a passage also counts this share of its section's score as one unit
  (the section's passages' terms together), so that a passage in a section that is about the
  question as a whole ranks above an equally matching one elsewhere;
- ``ADJACENCY_BONUS`` (times the best seed score) for the children of a node that already
  holds taken evidence, ``CONTINUATION_BONUS`` for the passage right after a taken one, and
  ``LINK_BONUS`` (times the linking passage's score) for a link target.
"""

from __future__ import annotations

from collections.abc import Collection

from clew.corpus.reader import Passage, Scope
from clew.corpus.search.bm25 import B, K1, passage_terms, term_idf
from clew.corpus.search.feedback import feedback_terms
from clew.corpus.search.index import index_text
from clew.corpus.structure import DocumentVersion
from clew.navigation.core import Node

ADJACENCY_BONUS = 0.1
CONTINUATION_BONUS = 0.0
LINK_BONUS = 0.3
SECTION_WEIGHT = 0.0


class Scorer:
    def __init__(self, scope: Scope, query: str) -> None:
        self.scope = scope
        self.query = query
        self.weights: dict[str, float] | None = None
        self.top = 0.0
        """The best own score among the seed hits: the scale of every bonus."""
        self._idf: dict[str, float] = {}
        self._avgdl = 1.0
        self._scores: dict[tuple[int, int, int], float] = {}
        self._units: dict[tuple[int, int, int], float] = {}

    def expand(self, seeds: list[Passage]) -> None:
        """Expand the query from the best seed hits (once); every later score uses it."""
        if self.weights is not None:
            return
        texts = [index_text(p.heading_path, p.header, p.body) for p in seeds]
        self.weights = feedback_terms(self.scope, self.query, texts)
        self._idf, self._avgdl = term_idf(self.scope, self.weights)

    def _bm25(self, terms: dict[str, int], length: int) -> float:
        if self.weights is None:
            self.expand([])
        weights = self.weights or {}
        norm = K1 * (1 - B + B * length / self._avgdl)
        total = 0.0
        for term, idf in self._idf.items():
            tf = terms.get(term)
            if tf:
                total += weights[term] * idf * tf * (K1 + 1) / (tf + norm)
        return total

    def own(self, doc: DocumentVersion, ordinal: int) -> float:
        """A passage's BM25 score against the (expanded, covered) query."""
        key = (doc.document_id, doc.version, ordinal)
        value = self._scores.get(key)
        if value is None:
            value = self._scores[key] = self._bm25(*passage_terms(doc, ordinal))
        return value

    def unit(self, doc: DocumentVersion, node: int) -> float:
        """BM25 of a whole node (its passages' terms together) against the query."""
        key = (doc.document_id, doc.version, node)
        value = self._units.get(key)
        if value is None:
            counts: dict[str, int] = {}
            length = 0
            for o in doc.skeleton.subtree(node):
                terms, n = passage_terms(doc, o)
                length += n
                for t, c in terms.items():
                    counts[t] = counts.get(t, 0) + c
            value = self._units[key] = self._bm25(counts, length)
        return value

    def of(self, doc: DocumentVersion, ordinal: int) -> float:
        """What a passage is worth: its own score and its share of its section's."""
        value = self.own(doc, ordinal)
        if SECTION_WEIGHT:
            value += SECTION_WEIGHT * self.unit(doc, doc.skeleton.chunks[ordinal].sections[0])
        return value

    def passage(self, passage: Passage) -> float:
        doc = self.scope.document(passage.document_id, passage.version)
        return 0.0 if doc is None else self.of(doc, passage.ordinal)

    def node(self, node: Node, skip: Collection[int] = (), boost: dict[int, float] | None = None) -> float | None:
        """The best worth of a passage under ``node`` whose ordinal is not in ``skip`` (plus its
        ``boost``); None when none is left."""
        best: float | None = None
        for ordinal in node.passages:
            if ordinal in skip:
                continue
            value = self.of(node.doc, ordinal) + (boost.get(ordinal, 0.0) if boost else 0.0)
            if best is None or value > best:
                best = value
        return best
