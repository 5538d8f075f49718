"""Tree and graph walks: the VALIDATE, SEED, OFFER, SELECT and VISIT handlers.

tree: start at ``start_key``, else the seed hits (ranked; or ``start_nodes``) or the first
seed hit (agentic). Visiting a passage expands it (one tool call): the other passages of its
section or table and, with ``follow_links``, the passages it links to (a second tool call,
only for a passage that has links); at most ``beam_width`` unvisited ones join the frontier
at depth +1; nothing deeper than ``max_depth`` is offered. Unvisited candidates stay in the
frontier. Every candidate is scored against the query expanded once from the seed hits.

graph: one path along ``edge_types`` of graph ``index`` in ``direction``; each step offers at
most ``neighbor_limit`` unvisited neighbours of the current passage (one tool call) and moves
to one; at most ``max_steps`` moves. A dead end or a cycle ends the walk softly.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from clew.agent.frontier import ADJACENCY_BONUS, LINK_BONUS, Candidate
from clew.agent.prompts import SELECT_TASK, data_block, system_prompt
from clew.agent.result import EvidenceHit, Instruction
from clew.agent.states import State
from clew.budgets.bounds import clamp
from clew.budgets.limits import BudgetExhausted, fit_prefix
from clew.budgets.tokens import count_tokens
from clew.corpus.search.api import SearchRequest, search_in
from clew.corpus.search.bm25 import score_texts
from clew.corpus.search.feedback import feedback_terms
from clew.corpus.search.index import index_text
from clew.errors import InputError
from clew.navigation.graph import expand_neighbors, has_links
from clew.navigation.reading import read
from clew.navigation.tree import navigate_document_tree

if TYPE_CHECKING:
    from clew.agent.controller import Controller

BUILT_IN_GRAPHS = ("section_hierarchy", "reading_order", "links")
SELECT_TOOLS = [
    {"type": "function", "function": {
        "name": "choose", "description": "Visit one of the offered candidate passages.",
        "parameters": {"type": "object", "properties": {"evidence_id": {"type": "string"}},
                       "required": ["evidence_id"]}}},
    {"type": "function", "function": {
        "name": "finish", "description": "Stop walking: the evidence so far is enough.",
        "parameters": {"type": "object", "properties": {}}}},
]


async def validate(ctl: Controller) -> State:
    deps = ctl.deps
    nav = deps.request.navigation
    if nav is None:
        return State.ACT
    permission = "tree_search" if nav.strategy == "tree" else "graph_search"
    if not deps.scope.principal.may_use(permission):
        ctl.note["refused"] = True
        return ctl._stop(State.FAILED, "permission_denied", f"{nav.strategy} navigation needs the {permission} permission")
    if nav.strategy == "graph" and nav.index not in BUILT_IN_GRAPHS:
        found = await ctl.store(lambda: deps.scope.cursor().execute(
            "SELECT 1 FROM edges e JOIN collections c ON c.id = e.collection_id WHERE e.graph = ? AND c.name = ? LIMIT 1",
            [nav.index, deps.scope.collection]).fetchone())
        if found is None:
            raise InputError("steps.retrieval.navigation.index", f"unknown graph {nav.index!r} in collection {deps.scope.collection!r}")
    return State.SEED


def _candidate(ctl: Controller, item: object, score: float, depth: int, via: str, origin: str | None,
               bonus: float = 0.0) -> Candidate:
    text = getattr(item, "text")
    return Candidate(
        evidence_id=getattr(item, "evidence_id"), document_key=getattr(item, "document_key"),
        collection=getattr(item, "collection", None) or (ctl.deps.scope.collection or ""),
        heading_path=list(getattr(item, "heading_path")), kind=getattr(item, "kind"), text=text,
        score=score, priority=score + bonus, depth=depth, via=via, origin=origin, tokens=count_tokens(text),
    )


def _scores(ctl: Controller, items: list, *, seeds: bool = False) -> dict[str, float]:
    """Own BM25 score of each passage (``evidence_id``, ``heading_path``, ``text``) against the query.

    The query is expanded from the seed hits once (``seeds=True``, best hit first): every
    later candidate is scored against the same expanded query.
    """
    st = ctl.run_state
    texts = [index_text(item.heading_path, "", item.text) for item in items]
    if st.weights is None:
        st.weights = feedback_terms(ctl.deps.scope, ctl.deps.request.query, texts if seeds else [])
    scores = score_texts(ctl.deps.scope, st.weights, texts)
    return {item.evidence_id: score for item, score in zip(items, scores, strict=True)}


async def seed(ctl: Controller) -> State:
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None  # noqa: S101
    spec = deps.request.queries[nav.query_index] if deps.request.queries else None
    st.budget.spend_tool_call()
    ctl.note["tool"] = "search"
    request = SearchRequest(
        query=spec.text(deps.request.query) if spec else deps.request.query,
        mode=spec.mode if spec else "bm25", limit=clamp(spec.limit if spec else 10, 1, 100), max_chars=20000,
    )
    starts = await ctl.store(_seed_starts, ctl, request)  # one hop off the event loop for the store work
    for position, candidate in enumerate(starts):
        if nav.start_key is not None or nav.selection == "agentic" or nav.strategy == "graph":
            candidate.priority = float("inf") if position == 0 else candidate.priority
        st.frontier.push(candidate)
    ctl.note["offered"] = [c.evidence_id for c in starts]
    if not starts:
        return ctl._end_walk("no_evidence", "the seed search found nothing readable")
    return State.OFFER


def _seed_starts(ctl: Controller, request: SearchRequest) -> list[Candidate]:
    """Search, score the hits (expanding the query from them), and pick the walk's starts."""
    result = search_in(ctl.deps.scope, request)
    own = _scores(ctl, result.hits, seeds=True)
    hits = [_candidate(ctl, h, own.get(h.evidence_id, 0.0), 0, "seed", None) for h in result.hits]
    ctl.run_state.top_score = max((c.score for c in hits), default=0.0)
    return _starts(ctl, hits)


def _starts(ctl: Controller, hits: list[Candidate]) -> list[Candidate]:
    """The walk's depth-0 candidates."""
    nav = ctl.deps.request.navigation
    assert nav is not None  # noqa: S101
    keys: list[str] = []
    if nav.start_key is not None:
        keys = [nav.start_key]
    elif nav.start_nodes == "$roots":
        keys = list(dict.fromkeys(c.document_key for c in hits))
    elif nav.start_nodes not in (None, "$hits"):
        keys = [k.strip() for k in nav.start_nodes.split(",") if k.strip()]
    if not keys:
        single = nav.selection == "agentic" or nav.strategy == "graph"
        return hits[:1] if single else hits
    starts = []
    for key in keys:
        first = read(ctl.deps.scope, document=key, top_k=1)
        if first.status == "ok" and first.items:
            score = _scores(ctl, first.items[:1]).get(first.items[0].evidence_id, 0.0)
            starts.append(_candidate(ctl, first.items[0], score, 0, "start", None))
    return starts


async def offer(ctl: Controller) -> State:
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None  # noqa: S101
    st.budget.check_before_iteration()
    st.usage.iterations += 1
    if nav.strategy == "graph" and st.current is not None:
        await _graph_neighbours(ctl)
    ranked = st.frontier.ranked()
    left = st.budget.tokens_left
    too_big = [c for c in ranked if c.tokens > left]
    for candidate in too_big:  # they can never fit: the budget, not the walk, ends them
        st.frontier.drop(candidate.evidence_id)
        st.budget_dropped += 1
    ranked = [c for c in ranked if c.tokens <= left]
    if not ranked and st.budget_dropped:
        raise BudgetExhausted("context_budget", f"{st.budget_dropped} candidate(s) did not fit the {left} context "
                                                f"tokens left (context_budget_tokens={deps.limits.context_budget_tokens})")
    if not ranked:
        detail = "dead end: no unvisited neighbour" if nav.strategy == "graph" else "frontier exhausted"
        return ctl._end_walk("exhausted_frontier", detail)
    width = deps.applied.get("beam_width") or deps.applied.get("neighbor_limit") or 1
    offered = fit_prefix(ranked[:width], lambda c: c.tokens, left)
    st.offered = offered
    ctl.note["offered"] = [c.evidence_id for c in offered]
    if nav.selection == "agentic":
        preview = "\n\n".join(data_block(deps.marker, c.evidence_id, c.text) for c in offered)
        if not st.messages:
            ctl.add_message({"role": "system", "content": system_prompt(deps.marker, st.instructions, SELECT_TASK)})
            ctl.add_message({"role": "user", "content": f"Question: {deps.request.query}"})
        ctl.add_message({"role": "user", "content": f"Candidates (untrusted data):\n{preview}"})
    return State.SELECT


async def select(ctl: Controller) -> State:
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None  # noqa: S101
    if nav.selection == "ranked" or deps.model is None:
        st.chosen = st.offered[0]
        ctl.note.update(chosen=[st.chosen.evidence_id], chosen_by="ranked")
        return State.VISIT
    st.budget.check_before_tool_call()
    reply = await ctl.complete(st.messages, SELECT_TOOLS)
    ctl.note["chosen_by"] = "model"
    if not reply.tool_calls:
        return ctl._end_walk("answered", "the model answered instead of choosing: walk finished")
    call = reply.tool_calls[0]
    st.budget.spend_tool_call()
    ctl.add_message({"role": "assistant", "content": reply.content or "", "tool_calls": [
        {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]})
    ctl.note["tool"] = call.name
    if call.name == "finish":
        ctl.add_message({"role": "tool", "tool_call_id": call.id, "content": "walk finished"})
        return ctl._end_walk("answered", "the model finished the walk")
    valid = [c.evidence_id for c in st.offered if c.evidence_id not in st.frontier.visited]
    try:
        chosen = json.loads(call.arguments or "{}").get("evidence_id") if call.name == "choose" else None
    except (json.JSONDecodeError, AttributeError):
        chosen = None
    if chosen in valid:
        st.chosen = next(c for c in st.offered if c.evidence_id == chosen)
        ctl.note["chosen"] = [chosen]
        ctl.add_message({"role": "tool", "tool_call_id": call.id, "content": f"visiting {chosen}"})
        return State.VISIT
    problem = f"unknown tool {call.name!r}" if call.name not in ("choose", "finish") else f"{chosen!r} was not offered"
    ctl.note.update(refused=True, detail=f"invalid choice: {problem}")
    ctl.add_message({"role": "tool", "tool_call_id": call.id,
                     "content": f"Invalid choice: {problem}. Call choose with one of: {', '.join(valid)}; or finish()."})
    return State.SELECT


async def visit(ctl: Controller) -> State:
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None and st.chosen is not None  # noqa: S101
    candidate = st.frontier.take(st.chosen.evidence_id)
    st.budget.spend_context(candidate.tokens)
    if nav.strategy == "graph" and st.current is not None:
        st.moves += 1
    st.ledger.record(candidate.evidence_id, len(candidate.text))
    st.hits[candidate.evidence_id] = EvidenceHit(
        evidence_id=candidate.evidence_id, document_key=candidate.document_key, collection=candidate.collection,
        heading_path=candidate.heading_path, kind=candidate.kind, text=candidate.text, score=candidate.score,
        depth=candidate.depth if nav.strategy == "tree" else None,
        step=st.moves if nav.strategy == "graph" else None, via=candidate.via, origin=candidate.origin,
        fetched=True, tokens=candidate.tokens,
    )
    ctl.note["chosen"] = [candidate.evidence_id]
    if nav.instruction_field is not None and candidate.document_key not in st.instruction_sources:
        await ctl.store(_collect_instruction, ctl, candidate)
    if nav.strategy == "graph":
        st.current = candidate
        if st.moves >= deps.applied["max_steps"]:
            return ctl._end_walk("max_steps", f"max_steps={deps.applied['max_steps']} moves made")
        return State.OFFER
    if candidate.depth < deps.applied["max_depth"]:
        await _tree_children(ctl, candidate)
    return State.OFFER


def _collect_instruction(ctl: Controller, candidate: Candidate) -> None:
    nav = ctl.deps.request.navigation
    st = ctl.run_state
    if nav is None or nav.instruction_field is None or candidate.document_key in st.instruction_sources:
        return
    st.instruction_sources.add(candidate.document_key)
    passage = ctl.deps.scope.passage(candidate.evidence_id)
    value = None if passage is None else passage.fields.get(nav.instruction_field)
    if isinstance(value, str) and value.strip():
        st.instructions.append(Instruction(text=value.strip(), source=candidate.document_key))


async def _tree_children(ctl: Controller, parent: Candidate) -> None:
    """Offer the best ``beam_width`` of the parent's section-mates and (``follow_links``) link targets."""
    deps, st = ctl.deps, ctl.run_state
    st.budget.spend_tool_call()
    ctl.note["tool"] = "navigate_document_tree(children)"
    candidates, followed = await ctl.store(_expansion, ctl, parent)
    if followed:  # expand_neighbors was called: a passage without links costs no second call
        st.budget.spend_tool_call()
        ctl.note["tool"] = "navigate_document_tree(children), expand_neighbors(links)"
    for candidate in candidates[:deps.applied["beam_width"]]:
        st.frontier.push(candidate)


def _expansion(ctl: Controller, parent: Candidate) -> tuple[list[Candidate], bool]:
    """The parent's section-mates and link targets as candidates, best first; whether links were followed."""
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None  # noqa: S101
    result = navigate_document_tree(deps.scope, parent.evidence_id, "children", 50, 20000)
    mates = [i for i in result.items if i.evidence_id not in st.frontier.visited]
    followed = nav.follow_links and has_links(deps.scope, parent.evidence_id)
    linked = _linked(ctl, parent, {i.evidence_id for i in mates}) if followed else []
    own = _scores(ctl, mates + linked)
    adjacency = ADJACENCY_BONUS * st.top_score
    candidates = [_candidate(ctl, i, own.get(i.evidence_id, 0.0), parent.depth + 1, "children", parent.evidence_id,
                             adjacency) for i in mates]
    candidates += [_candidate(ctl, p, own.get(p.evidence_id, 0.0), parent.depth + 1, "links", parent.evidence_id,
                              LINK_BONUS * parent.score) for p in linked]
    candidates.sort(key=lambda c: (-c.priority, c.evidence_id))
    return candidates, followed


def _linked(ctl: Controller, parent: Candidate, skip: set[str]) -> list:
    """Readable passages the parent links to (graph ``links``), not yet visited nor in ``skip``."""
    deps, st = ctl.deps, ctl.run_state
    result = expand_neighbors(deps.scope, [parent.evidence_id], ["links"], ["chunk"], 1, 24, 20000, False,
                              deps.scope.collection)
    wanted = [n.id for n in result.neighbors if n.id not in st.frontier.visited and n.id not in skip]
    found = deps.scope.passages_by_ids(wanted)
    return [found[i] for i in dict.fromkeys(wanted) if i in found]


async def _graph_neighbours(ctl: Controller) -> None:
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None and st.current is not None  # noqa: S101
    st.budget.spend_tool_call()
    ctl.note["tool"] = "expand_neighbors"
    follow = list(nav.edge_types) or [nav.index or ""]
    if nav.edge_types and nav.index:
        follow = [f"{nav.index}:{t}" for t in nav.edge_types]
    limit = deps.applied["neighbor_limit"]
    current = st.current
    st.frontier.items.clear()  # one path: only the current position's neighbours are candidates
    for candidate in await ctl.store(_neighbours, ctl, current, follow, limit):
        st.frontier.push(candidate)


def _neighbours(ctl: Controller, current: Candidate, follow: list[str], limit: int) -> list[Candidate]:
    """Unvisited readable neighbours of the graph walk's position, as candidates."""
    deps, st = ctl.deps, ctl.run_state
    nav = deps.request.navigation
    assert nav is not None  # noqa: S101
    result = expand_neighbors(deps.scope, [current.evidence_id], follow, ["chunk"], 1, min(limit, 24), 20000,
                              nav.direction != "out", deps.scope.collection)
    items = [n for n in result.neighbors if nav.direction != "in" or n.direction == "in"]
    items = [n for n in items if n.id not in st.frontier.visited][:limit]
    passages = deps.scope.passages_by_ids([n.id for n in items])
    own = _scores(ctl, list(passages.values()))
    out = []
    for neighbour in items:
        passage = passages.get(neighbour.id)
        if passage is None:
            continue
        out.append(Candidate(
            evidence_id=passage.evidence_id, document_key=passage.document_key, collection=passage.collection,
            heading_path=list(passage.heading_path), kind=passage.kind, text=passage.text,
            score=own.get(passage.evidence_id, 0.0), priority=own.get(passage.evidence_id, 0.0),
            depth=st.moves + 1, via=neighbour.relationship, origin=current.evidence_id,
            tokens=count_tokens(passage.text)))
    return out
