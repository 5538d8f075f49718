"""One handler per state. A handler's return type names the states it may lead to.

Handlers ask the run's strategy (a walk: tree, graph; or the free tool loop) and selector
(ranked, model) to act and never ask which one they hold: the table leads a walk through SEED,
OFFER, SELECT and VISIT, a free run through ACT (``Run.walk``, ``Run.loop``). Budgets are
checked where they are spent and raise ``BudgetExhausted``; the controller turns that, and store
or model failures, into the remaining transitions (see ``clew.agent.controller``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal

from clew.agent.absent import absent_terms
from clew.agent.generate import check_answer, extractive_answer
from clew.agent.prompts import answer_prompt
from clew.agent.result import Generation
from clew.agent.run import Run
from clew.agent.states import State


async def validate(run: Run) -> Literal[State.SEED, State.ACT, State.FAILED]:
    permission = run.strategy.permission
    if permission is not None and not run.deps.scope.principal.may_use(permission):
        run.note.refused = True
        run.stop("permission_denied", f"{run.strategy.name} navigation needs the {permission} permission")
        return State.FAILED
    await run.strategy.check(run)
    return run.strategy.entry


async def seed(run: Run) -> Literal[State.OFFER, State.GENERATE]:
    if await run.walk.seed(run):
        return State.OFFER
    run.end_walk("no_evidence", run.state.detail or "the seed search found nothing readable")
    return State.GENERATE


async def offer(run: Run) -> Literal[State.SELECT, State.GENERATE]:
    st = run.state
    run.selector.count_iteration(run)
    offered = await run.walk.offer(run)
    if not offered:
        return State.GENERATE  # the strategy said why the walk is over
    st.offered = offered
    run.note.offered = [c.id for c in offered]
    run.selector.present(run, offered)
    return State.SELECT


async def select(run: Run) -> Literal[State.VISIT, State.SELECT, State.GENERATE]:
    choice = await run.selector.choose(run)
    if choice.candidate is not None:
        run.state.chosen = choice.candidate
        run.note.chosen = [choice.candidate.id]
        return State.VISIT
    if choice.again:
        return State.SELECT
    run.end_walk("answered", choice.finished or "walk finished")
    return State.GENERATE


async def visit(run: Run) -> Literal[State.OFFER, State.GENERATE]:
    chosen = run.state.chosen
    if chosen is None:  # SELECT always sets it before VISIT
        raise RuntimeError("VISIT without a chosen candidate")
    return State.GENERATE if await run.walk.visit(run, chosen) else State.OFFER


async def act(run: Run) -> Literal[State.ACT, State.GENERATE]:
    return State.GENERATE if await run.loop.act(run) else State.ACT


async def generate(run: Run) -> Literal[State.DONE, State.INCOMPLETE]:
    st, deps = run.state, run.deps
    if st.stop_reason is None and st.pending is not None and st.walk_end == "exhausted_frontier":
        # the walk ran out of candidates because a budget refused the moves that would have found more
        run.stop(st.pending.reason, str(st.pending))
    pending = st.stop_reason  # a budget that stopped the walk keeps the run incomplete
    fetched = st.pack.fetched
    if deps.model is not None and fetched:
        if st.answer_text is None:
            messages, adds = answer_prompt(deps.marker, st.instructions, deps.request.query,
                                           [(h.evidence_id, h.text) for h in fetched])
            # the evidence itself was charged when it entered the context (taken by the walk, or a
            # tool result); what the prompt adds around it was held back while the walk took it
            st.budget.release()
            st.budget.spend_context(adds)
            reply = await run.complete(messages, None)
            st.answer_text = reply.content or ""
        citable = {h.evidence_id: h.text for h in fetched}
        answered = check_answer(st.answer_text, citable, deps.model.name)
        st.generation = answered if answered.citations else _instead(run, answered)
        if st.generation is None:
            if not pending:
                run.stop("no_evidence", "the answer cites no evidence fetched in full in this run")
            return State.INCOMPLETE
    elif deps.model is None and fetched:
        st.generation = extractive_answer(deps.request.query, [(h.evidence_id, h.text) for h in fetched],
                                          max_tokens=deps.applied.extract_tokens,
                                          paths={h.evidence_id: h.heading_path for h in fetched},
                                          titles={h.evidence_id: h.document_title for h in fetched})
    if st.generation is not None:
        pages = {h.evidence_id: h.location.page_numbers for h in fetched if h.location is not None}
        for citation in st.generation.citations:
            citation.page_numbers = list(pages.get(citation.evidence_id, ()))
        st.generation.absent_terms = await run.store(absent_terms, deps.scope, deps.request.query,
                                                     [(h.text, h.heading_path) for h in fetched])
    if st.generation is None:
        if not pending:
            run.stop("no_evidence", st.detail or "no evidence was found")
        return State.INCOMPLETE
    if pending:
        return State.INCOMPLETE
    st.stop_reason = st.walk_end if st.walk_end is not None and st.walk_end != "no_evidence" else "answered"
    return State.DONE


def _instead(run: Run, answered: Generation) -> Generation | None:
    """The extract, standing in for a model answer that cites no evidence fetched in full."""
    fetched = run.state.pack.fetched
    extract = extractive_answer(run.deps.request.query, [(h.evidence_id, h.text) for h in fetched],
                                max_tokens=run.deps.applied.extract_tokens,
                                paths={h.evidence_id: h.heading_path for h in fetched},
                                titles={h.evidence_id: h.document_title for h in fetched})
    if extract is None:
        return None
    return extract.model_copy(update={
        "removed_citations": answered.removed_citations, "unsupported": answered.unsupported,
        "repetition_cut": answered.repetition_cut,
        "fallback": f"the answer of {answered.model} cited no evidence fetched in full in this run: the extract "
                    "stands in for it"})


Handler = Callable[[Run], Awaitable[State]]
HANDLERS: dict[State, Handler] = {
    State.VALIDATE: validate,
    State.SEED: seed,
    State.OFFER: offer,
    State.SELECT: select,
    State.VISIT: visit,
    State.ACT: act,
    State.GENERATE: generate,
}
