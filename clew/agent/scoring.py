"""How a ranked walk prices what it may visit.

A passage is worth its BM25 score against the question (from its index terms, heading path
and text, with the corpus statistics) plus ``SECTION_WEIGHT`` times its section's score as
one unit (the section's passages' terms together): a passage in a section that is about the
question as a whole ranks above an equally matching one elsewhere. When the walk was seeded
by a vector or hybrid search it is also worth ``VECTOR_WEIGHT`` times the best seed's BM25
worth times the cosine of its embedding with the question's (the same model the search used),
so that a passage that answers in other words than the question's is not priced at zero. A
node is worth the best unvisited passage under it: opening it is how that passage is
reached. A passage's terms are kept with its version's immutable structure, so pricing costs
no read.

On top of that a candidate gets a bonus for where it was found (``clew.agent.tree``):
``ADJACENCY_BONUS`` times the best seed score for the children of a node that already holds
taken evidence, ``NEIGHBOUR_BONUS`` times it for the passages right before and after a taken
seed hit (the one before only when it shares a section with the hit), whose priority is then at
least ``NEIGHBOUR_FLOOR`` times the hit's (less under a budget below ``LINK_BONUS_TOKENS``:
``neighbour_floor``), ``LINK_BONUS`` times the linking passage's worth for
a link target (less under a budget below ``LINK_BONUS_TOKENS``: ``link_bonus``); a passage that is
one fenced code block and nothing else gets none of these.

Chosen on one dev set and checked on the other, then the reverse (evidence recall at 1,000
and 2,000 tokens; docs/measurements/retrieval-quality-2026-12-05.md): the section weight is the one change that
helped both (0 -> 0.5: +0.035 on sqlite-docs, +0.04 on npm-docs), 0.25-1.0 are within noise;
the adjacency bonus 0.1 beat 0 and 0.25 on both; the vector weight 1.0 was the best on
sqlite-docs and tied best on npm-docs (0.25 lost 0.01-0.02 on both; 0.75-2.0 within noise).
Tried and left out because they did not help both sets: query expansion from the seed hits
(neutral on sqlite-docs, -0.02 to -0.03 on npm-docs), a bonus for the passage right after a
taken one, a share of the parent section's or the document's score, following every link of
a hit's document, lowering the weight of query terms the evidence already covers (-0.1 to
-0.2), pricing by score per token, a bonus for a seed's search rank, diversity (the section prior only
until the section holds evidence, or a bonus for a new document or section: -0.01 to -0.14 on
both sets), and a section scored as its average passage instead of one unit (noise); link bonuses of 0, 0.15
and 0.5 (0.3 is best on sqlite-docs, noise on npm-docs), a link target's next passage offered with it,
and the best seed hit of each clause of a compound question taken second (-0.05 at 1,000 tokens on
sqlite-docs, +0.02 on npm-docs), the link bonus capped at the target's own score, and a search for
the rarest identifier a taken passage names (+0.01 at 2,000 tokens on sqlite-docs, -0.02 to -0.04
elsewhere); discounting query terms the evidence already holds (0.85-0.5: -0.02 to -0.10), a bonus
for query terms in a passage's heading (-0.01 to -0.12), a logistic-regression combination of
these features fit on one set (it ranked gold passages worse than this priority on the other set),
and term proximity (a passage's score times 1 + w (m - 1) / (span - 1) for the shortest span
holding its m query terms; w 0.25-1.0: -0.02 to +0.02, down at 2,000 tokens on sqlite-docs).
The neighbour bonus (0.02-0.05 alike; 0.1 and more lose) and the neighbours and floors left out
(every taken passage's neighbours, the flat seed pack first or last, the seed's search score):
docs/measurements/walk-2026-12-05.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from clew.corpus.reader import Passage, Scope
from clew.corpus.search.bm25 import QueryScorer, node_terms, passage_terms
from clew.corpus.structure import DocumentVersion
from clew.navigation.core import Node

if TYPE_CHECKING:  # numpy only where a walk uses vectors: importing it is a third of a cold walk's imports
    import numpy as np

_Worths = tuple[tuple[float, str | None], list[float], tuple[int, ...], list[tuple[float, int]] | None]

ADJACENCY_BONUS = 0.1
LINK_BONUS = 0.3
LINK_BONUS_TOKENS = 2000
"""The context budget from which a link target gets the whole ``LINK_BONUS``; below it the bonus is
``LINK_BONUS`` times budget / ``LINK_BONUS_TOKENS`` (``link_bonus``)."""
NEIGHBOUR_BONUS = 0.05
NEIGHBOUR_FLOOR = 0.6
SECTION_WEIGHT = 0.5
VECTOR_WEIGHT = 1.0


def link_bonus(budget: int) -> float:
    """What share of the linking passage's worth a link target gets on top of its own, under a context
    budget: ``LINK_BONUS`` from ``LINK_BONUS_TOKENS`` up, less in proportion below. At 1,000 tokens
    (five or six passages) a link target taken for its bonus takes the room of a seed hit that
    outranks it on its own worth (issue 36, task W: docs/measurements/walk-2026-12-05.md)."""
    return LINK_BONUS * min(1.0, budget / LINK_BONUS_TOKENS)


def neighbour_floor(budget: int) -> float:
    """The least share of a taken seed hit's priority its neighbour is worth, under a context budget:
    ``NEIGHBOUR_FLOOR`` from ``LINK_BONUS_TOKENS`` up, less in proportion below, as ``link_bonus``.
    Every phrase the floor was landed for was won at 2,000 tokens and up (npm-037's short tail
    'To un-deprecate ...'); at 1,000 (five passages) it lifted neighbours of a tenth of the best
    seed's worth above seed hits that held the answer (issue 36, task W2 on eight sets:
    docs/measurements/walk-2026-12-05.md)."""
    return NEIGHBOUR_FLOOR * min(1.0, budget / LINK_BONUS_TOKENS)


class Scorer:
    def __init__(self, scope: Scope, query: str) -> None:
        self.scope = scope
        self.query = query
        self.top = 0.0
        """The best worth among the seed hits: the scale of the adjacency bonus."""
        self._bm25: QueryScorer | None = None
        self._units: dict[tuple[int, int, int], float] = {}
        self._lexical: dict[tuple[int, int], dict[int, float]] = {}
        """Per version (document id, version): each priced passage's BM25 worth, by ordinal."""
        self._model: str | None = None
        self._query_vector: np.ndarray | None = None
        self._similarity: dict[tuple[int, int], np.ndarray] = {}
        self._ranked_under: dict[tuple[int, int, int], _Worths] = {}
        """Per node: the ``top`` and model its worths were priced with, each passage's worth, the
        passages' ordinals, and (worth, ordinal) ranked best first once it is priced again."""

    def use_vectors(self, model: str, query_vector: np.ndarray) -> None:
        """Price by embedding similarity too (a walk seeded by a vector or hybrid search)."""
        import numpy as np

        vector = np.asarray(query_vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        self._model, self._query_vector = model, vector / norm if norm > 0 else vector

    def _query_scorer(self) -> QueryScorer:
        if self._bm25 is None:
            self._bm25 = QueryScorer(self.scope, self.query)
        return self._bm25

    def lexical(self, doc: DocumentVersion, ordinal: int) -> float:
        """A passage's BM25 worth: its own score and its share of its section's (kept for the run:
        a walk asks for the same passages' worth again at every step)."""
        return self.lexicals(doc, (ordinal,))[0]

    def lexicals(self, doc: DocumentVersion, ordinals: Sequence[int]) -> list[float]:
        """:meth:`lexical` of each of a version's ``ordinals``, looked up together: a node is priced by
        every passage under it, and the version is found once for all of them."""
        sk = doc.skeleton
        version = (sk.document_id, sk.version)
        known = self._lexical.get(version)
        if known is None:
            known = self._lexical[version] = {}
        out = []
        units = self._units
        for ordinal in ordinals:
            value = known.get(ordinal)
            if value is None:  # its own BM25, plus SECTION_WEIGHT times its section's (kept per section)
                score = self._query_scorer().score
                value = score(*passage_terms(doc, ordinal))
                if SECTION_WEIGHT:
                    section = sk.chunks[ordinal].sections[0]
                    unit = units.get(key := (*version, section))
                    if unit is None:
                        unit = units[key] = score(*node_terms(doc, section))
                    value += SECTION_WEIGHT * unit
                known[ordinal] = value
            out.append(value)
        return out

    def similarity(self, doc: DocumentVersion, ordinal: int) -> float:
        """Cosine of the passage's embedding with the query's (0 without vectors)."""
        if self._query_vector is None or self._model is None:
            return 0.0
        key = (doc.document_id, doc.version)
        sims = self._similarity.get(key)
        if sims is None:
            import numpy as np

            from clew.corpus.search.vectors import version_vectors

            vectors = version_vectors(self.scope.corpus, self._model, doc.document_id, doc.version,
                                      len(doc.skeleton.chunks))
            ok = vectors.shape[1] == self._query_vector.size
            sims = self._similarity[key] = vectors @ self._query_vector if ok else np.zeros(len(doc.skeleton.chunks))
        return float(sims[ordinal])

    def of(self, doc: DocumentVersion, ordinal: int) -> float:
        """What a passage is worth: its BM25 worth, plus ``VECTOR_WEIGHT`` times the best seed's
        BM25 worth times its embedding similarity when the walk was seeded by vectors."""
        return self.worths(doc, (ordinal,))[0]

    def worths(self, doc: DocumentVersion, ordinals: Sequence[int]) -> list[float]:
        """:meth:`of` of each of a version's ``ordinals``."""
        values = self.lexicals(doc, ordinals)
        if self._query_vector is None:
            return values
        scale = VECTOR_WEIGHT * max(self.top, 1.0)
        return [value + scale * self.similarity(doc, o) for value, o in zip(values, ordinals, strict=True)]

    def lexical_passage(self, passage: Passage) -> float:
        doc = self.scope.document(passage.document_id, passage.version)
        return 0.0 if doc is None else self.lexical(doc, passage.ordinal)

    def passage(self, passage: Passage) -> float:
        if self._query_vector is None:  # priced before (every offer re-prices the frontier's head)
            known = self._lexical.get((passage.document_id, passage.version))
            value = None if known is None else known.get(passage.ordinal)
            if value is not None:
                return value
        doc = self.scope.document(passage.document_id, passage.version)
        return 0.0 if doc is None else self.of(doc, passage.ordinal)

    def node(self, node: Node, skip: Collection[int] = ()) -> float | None:
        """The best worth of a passage under ``node`` whose ordinal is not in ``skip``; None when none is left.

        The worths under a node are kept for the run (a passage's worth does not change while ``top``
        and the vector model do not), and ranked the second time the node is priced, so a node
        re-priced at every step as the walk visits under it reads down that list instead of scoring
        its whole subtree again; most nodes are priced once, by one pass for the best."""
        doc = node.doc
        sk = doc.skeleton
        key = (sk.document_id, sk.version, node.ordinal)
        held = self._ranked_under.get(key)
        priced_with = (self.top, self._model)
        if held is None or held[0] != priced_with:
            passages = sk.subtree(node.ordinal)
            values = self.worths(doc, passages)
            self._ranked_under[key] = (priced_with, values, passages, None)
            if not skip:
                return max(values, default=None)
            return max((value for value, ordinal in zip(values, passages) if ordinal not in skip), default=None)
        ranked = held[3]
        if ranked is None:
            ranked = sorted(zip(held[1], held[2]), key=lambda t: -t[0])
            self._ranked_under[key] = (held[0], held[1], held[2], ranked)
        return next((value for value, ordinal in ranked if ordinal not in skip), None)
