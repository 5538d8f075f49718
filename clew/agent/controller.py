"""The loop controller: one handler per state, every transition checked against the table.

::

    VALIDATE -> SEED -> OFFER -> SELECT -> VISIT -> OFFER ... -> GENERATE -> DONE
    VALIDATE -> ACT -> ACT ... -> GENERATE -> DONE                       (free run)
    a budget runs out -> GENERATE with what was found -> INCOMPLETE (INCOMPLETE with nothing found)
    a ranked walk fills its context budget -> GENERATE -> DONE (ok / context_budget: what it was asked)
    timeout_seconds passes -> INCOMPLETE at once, with the evidence so far
    a store or model failure (after retries) -> FAILED

A handler returns the next state (``clew.agent.handlers``); the controller adds the exits a
handler cannot choose (:func:`exits`), records the step and refuses any transition that is
not in ``clew.agent.states.TRANSITIONS``. Limits, scope and tools are frozen in the run's
dependencies before the walk starts; instructions from documents live in their own lane.
"""

from __future__ import annotations

import time

import duckdb

from clew.agent.handlers import HANDLERS
from clew.agent.result import RetrievalResult, Status, Step, StepSummary, UsageReport
from clew.agent.run import Run, StepNote
from clew.agent.states import TERMINAL, State, check_transition
from clew.errors import BudgetExhausted, CorpusError, IllegalTransition, ModelError

SPENDING = frozenset({State.SEED, State.OFFER, State.SELECT, State.VISIT, State.ACT, State.GENERATE})
"""States whose handler spends a budget (a tool call, an iteration, context tokens)."""


def exits(state: State) -> frozenset[State]:
    """The transitions the controller makes for a state's handler: FAILED on a store or model
    failure; when a budget runs out, GENERATE with the evidence found (INCOMPLETE without, or
    from GENERATE itself)."""
    if state in TERMINAL:
        return frozenset()
    out = {State.FAILED}
    if state in SPENDING:
        out |= {State.INCOMPLETE} if state == State.GENERATE else {State.GENERATE, State.INCOMPLETE}
    return frozenset(out)


class Controller:
    def __init__(self, run: Run) -> None:
        self.run = run
        self.keep = run.deps.request.include_steps or run.deps.on_step is not None
        """Build each step's record (asked for, or streamed); otherwise only count them (building
        the 50-90 records of a ranked walk nobody reads was 4% of a warm one)."""
        self.recorded = 0
        self.deepest: int | None = None

    async def execute(self) -> RetrievalResult:
        run = self.run
        state = State.VALIDATE
        bound = run.deps.limits.timeout_seconds
        # Without a model, reading the store inline, no step waits on anything: the loop never runs
        # a timer before the step ends, so the deadline is checked before each step instead (a timer
        # context per step was 4-7% of a warm ranked walk, and could not stop one). Such a run needs
        # no event loop at all (``retrieve_sync`` runs it without one), so its clock is the monotonic
        # clock that asyncio's own loop reads.
        inline = run.deps.model is None and not run.deps.offload
        if inline:
            clock_now = time.monotonic
        else:
            import asyncio

            clock_now = asyncio.get_running_loop().time
        deadline = clock_now() + bound
        while state not in TERMINAL:
            run.note = StepNote()
            late = False
            try:
                if not inline:
                    clock = asyncio.timeout_at(deadline if state in SPENDING else None)
                    try:
                        async with clock:
                            target = await HANDLERS[state](run)
                    except TimeoutError:
                        if not clock.expired():
                            raise
                        late = True
                elif state in SPENDING and clock_now() >= deadline:
                    late = True
                else:
                    target = await HANDLERS[state](run)
                if late:
                    run.note.refused = True
                    run.stop("timeout", f"the run took longer than timeout_seconds={bound:g}")
                    target = State.INCOMPLETE
            except BudgetExhausted as exhausted:
                target = self._exhausted(state, exhausted)
            except ModelError as error:
                run.stop("model_error", str(error))
                target = State.FAILED
            except (duckdb.Error, CorpusError) as error:
                run.stop("store_error", str(error))
                target = State.FAILED
            check_transition(state, target)
            self._record(state, target)
            state = target
        # A budget the run keeps (to report, or to raise again) holds the traceback of where it was
        # raised, whose frames hold the run: a cycle through the whole run (its frontier, scorer and
        # evidence) that only the cyclic collector would free, about 1,000 objects a warm ranked walk
        # and collections costing 6-20% of one. Nothing reads the traceback once the walk is over.
        for kept in (run.state.full, run.state.pending):
            if kept is not None:
                kept.__traceback__ = None
        return self._result(state)

    def _exhausted(self, state: State, exhausted: BudgetExhausted) -> State:
        if state not in SPENDING:
            raise IllegalTransition(state, State.INCOMPLETE) from exhausted  # a handler spent what it may not
        self.run.refuse(exhausted)
        if state == State.GENERATE or not self.run.state.pack.ledger.ids:
            return State.INCOMPLETE
        return State.GENERATE

    def _record(self, state: State, target: State) -> None:
        run, usage = self.run, self.run.state.usage
        note = run.note
        index, self.recorded = self.recorded, self.recorded + 1
        for depth in (note.tree.depth if note.tree is not None else None,
                      note.graph.step if note.graph is not None else None):
            if depth is not None and (self.deepest is None or depth > self.deepest):
                self.deepest = depth
        if not self.keep:
            return
        step = Step.model_construct(  # what the run noted, of the declared types: validating was 3% of a walk
            index=index, state=state.value, next_state=target.value, offered=note.offered,
            chosen=note.chosen, chosen_by=note.chosen_by, tool=note.tool, detail=note.detail, refused=note.refused,
            tool_calls=usage.tool_calls, context_tokens=usage.context_tokens, iterations=usage.iterations,
            tree_navigation=note.tree, graph_navigation=note.graph, parsed_from=note.parsed_from,
            floor=note.floor,
        )
        run.state.steps.append(step)
        if run.deps.on_step is not None:
            run.deps.on_step(step)

    def _result(self, state: State) -> RetrievalResult:
        st = self.run.state
        status: Status = "ok" if state is State.DONE else "incomplete" if state is State.INCOMPLETE else "failed"
        u = st.usage
        asked = self.run.deps.request.include_steps
        summary = StepSummary(steps=self.recorded, tool_calls=dict(st.tool_counts),
                              depth_reached=self.deepest, candidates_left=st.frontier.left)
        return RetrievalResult(
            status=status, stop_reason=st.stop_reason or "answered", detail=st.detail,
            hits=[h if asked else h.lean() for h in st.pack.hits.values()], generation=st.generation,
            instructions=st.instructions, summary=summary, steps=st.steps if asked else None,
            usage=UsageReport(iterations=u.iterations, tool_calls=u.tool_calls, context_tokens=u.context_tokens,
                              model_calls=u.model_calls, model_input_tokens=u.model_input_tokens,
                              model_output_tokens=u.model_output_tokens, model_cost_usd=u.model_cost_usd,
                              retries=u.retries),
            applied={**self.run.deps.applied.report(), **st.choices},
        )
