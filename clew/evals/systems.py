"""Systems: named retrieval configurations, each run on one question under one token budget.

Flat baselines (``bm25``, ``vector``, ``hybrid``): one search for the question (top 100),
hits packed into the context budget in rank order, skipping any hit that does not fit
(tokens counted with ``clew.budgets.tokens`` over the hit text).

Agent configurations run ``clew.retrieve`` with ``context_budget_tokens`` = the budget and
otherwise the request defaults (a ranked walk's seed search then asks for one hit per 80
tokens of budget, 10-100, and its iterations are bounded by the budget rather than by a
count of model turns):

- ``tree-ranked``: ranked tree walk with the default ``max_depth`` 5 and ``beam_width`` 3 (no model needed),
  seeded by BM25 whatever the collection holds (a request naming no search seeds from hybrid where the
  collection has semantic vectors: that is ``tree-hybrid`` there);
- ``tree-hybrid``: the same walk seeded by a hybrid search, pricing by embedding similarity too
  (needs embeddings, like ``vector`` and ``hybrid``);
- ``graph-ranked``: ranked walk over the ``links`` graph (no model needed): a link-following
  tool, not a retrieval system (one path of links from the best hit; it ends where the path does);
- ``tree-agentic``: the model chooses each step of a tree walk;
- ``free``: no navigation block; the model picks tools.

A model, when given, also writes the answer of every agent system. The passages a system returns are its packed hits
(flat) or the run's fetched hits (agent).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from clew.agent.api import retrieve
from clew.agent.model import Model
from clew.budgets.tokens import count_tokens
from clew.corpus.search.api import SearchHit, search
from clew.corpus.store import Corpus
from clew.errors import InputError

DEFAULT_BUDGET_TOKENS = 2000
FLAT_LIMIT = 100


@dataclass(frozen=True)
class System:
    name: str
    mode: str | None = None
    """Search mode of a flat baseline (bm25, vector, hybrid); None for agent systems."""
    navigation: dict[str, Any] | None = None
    needs_model: bool = False
    seed: str | None = None
    """The search an agent system's seed query names (``full_text_search``, ``hybrid``); None names none."""

    @property
    def flat(self) -> bool:
        return self.mode is not None

    @property
    def needs_vectors(self) -> bool:
        """Whether it searches by embeddings (a flat vector or hybrid search, a hybrid seed)."""
        return self.mode in ("vector", "hybrid") or self.seed == "hybrid"


SYSTEMS: dict[str, System] = {
    s.name: s
    for s in (
        System("bm25", mode="bm25"),
        System("vector", mode="vector"),
        System("hybrid", mode="hybrid"),
        System("tree-ranked", navigation={"strategy": "tree", "selection": "ranked"}, seed="full_text_search"),
        System("tree-hybrid", navigation={"strategy": "tree", "selection": "ranked"}, seed="hybrid"),
        System("graph-ranked", navigation={"strategy": "graph", "selection": "ranked", "index": "links"}),
        System("tree-agentic", navigation={"strategy": "tree", "selection": "agentic"}, needs_model=True),
        System("free", needs_model=True),
    )
}


def parse_systems(names: str | list[str], *, have_model: bool) -> list[System]:
    """``"bm25,tree-ranked"`` to systems; unknown names, repeats and model-less agentic systems are errors."""
    wanted = [n.strip() for n in (names.split(",") if isinstance(names, str) else names) if n.strip()]
    if not wanted:
        raise InputError("systems", "no system named")
    unknown = [n for n in wanted if n not in SYSTEMS]
    if unknown:
        raise InputError("systems", f"unknown system(s) {', '.join(unknown)}; known: {', '.join(SYSTEMS)}")
    if len(set(wanted)) != len(wanted):
        raise InputError("systems", "a system is named twice")
    needy = [n for n in wanted if SYSTEMS[n].needs_model and not have_model]
    if needy:
        raise InputError("model", f"{', '.join(needy)} need(s) a model (--model)")
    return [SYSTEMS[n] for n in wanted]


@dataclass
class Passage:
    evidence_id: str
    document_key: str
    text: str


@dataclass
class Outcome:
    """What one system returned for one question."""

    passages: list[Passage]
    context_tokens: int
    status: str = "ok"
    stop_reason: str | None = None
    answer: str | None = None
    answer_kind: str | None = None
    """``extract`` (quoted from the evidence, no model) or ``model``; None without an answer."""
    citations: list[str] = field(default_factory=list)
    absent_terms: list[str] = field(default_factory=list)
    """The question's words that neither the evidence nor the corpus holds (``Generation.absent_terms``)."""
    tool_calls: int = 0
    iterations: int = 0
    model_calls: int = 0
    model_input_tokens: int = 0
    model_output_tokens: int = 0
    model_cost_usd: float | None = None


def pack(hits: list[Any], budget: int) -> tuple[list[Any], int]:
    """Hits in rank order that fit ``budget`` tokens, skipping any that does not fit; and the tokens used."""
    packed, used = [], 0
    for hit in hits:
        cost = count_tokens(hit.text)
        if used + cost <= budget:
            packed.append(hit)
            used += cost
    return packed, used


def flat_hits(corpus: Corpus, query: str, mode: str, collection: str | None = None,
              doc_filter: dict[str, Any] | None = None) -> list[SearchHit]:
    """The top ``FLAT_LIMIT`` hits of one search, full text (of the documents ``doc_filter`` matches)."""
    request: dict[str, Any] = {"query": query, "mode": mode, "limit": FLAT_LIMIT, "max_chars": 20_000}
    if collection is not None:
        request["collection"] = collection
    if doc_filter is not None:
        request["filter"] = doc_filter
    return search(corpus, request).hits


def flat_search(corpus: Corpus, query: str, mode: str, budget: int, collection: str | None = None,
                doc_filter: dict[str, Any] | None = None) -> Outcome:
    packed, used = pack(flat_hits(corpus, query, mode, collection, doc_filter), budget)
    return Outcome([Passage(h.evidence_id, h.document_key, h.text) for h in packed], used, tool_calls=1)


def agent_request(system: System, query: str, budget: int, collection: str,
                  doc_filter: dict[str, Any] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"collection": collection}
    if doc_filter is not None:
        spec["filter"] = doc_filter
    if system.seed is not None:
        spec[system.seed] = {}
    request: dict[str, Any] = {"query": query, "queries": [spec], "context_budget_tokens": budget}
    if system.navigation is not None:
        request["steps"] = {"retrieval": {"navigation": dict(system.navigation)}}
    return request


async def run_system(system: System, corpus: Corpus, query: str, *, budget: int, collection: str = "default",
                     model: Model | None = None, offload: bool = False,
                     doc_filter: dict[str, Any] | None = None) -> Outcome:
    """One question through one system, over the documents of ``collection`` that ``doc_filter`` matches (a
    request's filter: ``clew batch --filter``). The runners' loops do nothing else, so the store reads run
    inline by default (``offload=True`` puts them on worker threads, as a server would)."""
    if system.flat:
        assert system.mode is not None  # noqa: S101
        if offload:
            return await asyncio.to_thread(flat_search, corpus, query, system.mode, budget, collection, doc_filter)
        return flat_search(corpus, query, system.mode, budget, collection, doc_filter)
    result = await retrieve(agent_request(system, query, budget, collection, doc_filter), corpus=corpus, model=model,
                            offload=offload)
    generation = result.generation
    u = result.usage
    return Outcome(
        passages=[Passage(h.evidence_id, h.document_key, h.text) for h in result.hits if h.fetched],
        context_tokens=u.context_tokens,
        status=result.status,
        stop_reason=result.stop_reason,
        answer=generation.answer if generation is not None else None,
        answer_kind=generation.kind if generation is not None else None,
        citations=[c.evidence_id for c in generation.citations if c.valid] if generation is not None else [],
        absent_terms=list(generation.absent_terms) if generation is not None else [],
        tool_calls=u.tool_calls,
        iterations=u.iterations,
        model_calls=u.model_calls,
        model_input_tokens=u.model_input_tokens,
        model_output_tokens=u.model_output_tokens,
        model_cost_usd=u.model_cost_usd,
    )
