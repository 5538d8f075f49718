"""The loop controller: one handler per state, transitions checked against the table.

::

    VALIDATE -> SEED -> OFFER -> SELECT -> VISIT -> OFFER ... -> GENERATE -> DONE
    VALIDATE -> ACT -> ACT ... -> GENERATE -> DONE                       (free run)
    a budget runs out -> GENERATE with what was found -> INCOMPLETE (or INCOMPLETE directly)
    a store or model failure (after retries) -> FAILED

Limits are checked at state boundaries (``clew.budgets.limits``); instructions from
documents live in their own lane and cannot reach the limits, the scope or the tools, which
are frozen in :class:`~clew.agent.run.Deps` before the walk starts.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

import duckdb

from clew.agent import walk
from clew.agent.generate import check_answer, extractive_answer
from clew.agent.prompts import ANSWER_TASK, data_block, system_prompt
from clew.agent.result import RetrievalResult, Step, UsageReport
from clew.agent.run import Deps, RunState
from clew.agent.states import TERMINAL, State, check_transition
from clew.budgets.limits import BudgetExhausted

T = TypeVar("T")
from clew.budgets.tokens import count_tokens
from clew.errors import CorpusError, ModelError


class Controller:
    def __init__(self, deps: Deps, state: RunState) -> None:
        self.deps = deps
        self.run_state = state
        self.note: dict = {}
        self.handlers = {
            State.VALIDATE: self.validate,
            State.SEED: self.seed,
            State.OFFER: self.offer,
            State.SELECT: self.select,
            State.VISIT: self.visit,
            State.ACT: self.act,
            State.GENERATE: self.generate,
        }

    async def run(self) -> RetrievalResult:
        state = State.VALIDATE
        while state not in TERMINAL:
            self.note = {}
            try:
                target = await self.handlers[state]()
            except BudgetExhausted as exhausted:
                target = self._exhausted(state, exhausted)
            except ModelError as error:
                target = self._stop(State.FAILED, "model_error", str(error))
            except (duckdb.Error, CorpusError) as error:
                target = self._stop(State.FAILED, "store_error", str(error))
            check_transition(state, target)
            self._record(state, target)
            state = target
        return self._result(state)

    # -- states ------------------------------------------------------------------------------
    async def validate(self) -> State:
        return await walk.validate(self)

    async def seed(self) -> State:
        return await walk.seed(self)

    async def offer(self) -> State:
        return await walk.offer(self)

    async def select(self) -> State:
        return await walk.select(self)

    async def visit(self) -> State:
        return await walk.visit(self)

    async def act(self) -> State:
        from clew.agent import free

        return await free.act(self)

    async def generate(self) -> State:
        st, deps = self.run_state, self.deps
        pending = st.stop_reason  # a budget that ran out before generation keeps the run incomplete
        fetched = [st.hits[i] for i in st.ledger.ids if i in st.hits]
        if deps.model is not None and fetched:
            if st.answer_text is None:
                blocks = [data_block(deps.marker, h.evidence_id, h.text) for h in fetched]
                system = system_prompt(deps.marker, st.instructions, ANSWER_TASK)
                question = f"Question: {deps.request.query}\n\nEvidence:\n"
                messages = [{"role": "system", "content": system},
                            {"role": "user", "content": question + "\n\n".join(blocks)}]
                # counted piece by piece (passage texts are counted once per process): pieces meet at
                # newlines, where tiktoken's pre-split keeps the counts additive up to a merged newline
                wrappers = [block.replace(h.text, "", 1) for block, h in zip(blocks, fetched, strict=True)]
                st.budget.check_context(count_tokens(system) + count_tokens(question) + len(blocks) + sum(
                    count_tokens(w) + count_tokens(h.text) for w, h in zip(wrappers, fetched, strict=True)))
                reply = await self.complete(messages, None)
                st.answer_text = reply.content or ""
            st.generation = check_answer(st.answer_text, set(st.ledger.ids), deps.model.name)
            if not st.generation.citations:
                return State.INCOMPLETE if pending else self._stop(
                    State.INCOMPLETE, "no_evidence", "the answer cites no evidence fetched in full in this run")
        elif deps.model is None and fetched:
            st.generation = extractive_answer(deps.request.query, [(h.evidence_id, h.text) for h in fetched])
        if st.generation is None:
            return State.INCOMPLETE if pending else self._stop(State.INCOMPLETE, "no_evidence",
                                                               st.detail or "no evidence was found")
        if pending:
            return State.INCOMPLETE
        st.stop_reason = st.walk_end if st.walk_end not in (None, "no_evidence") else "answered"
        return State.DONE

    # -- helpers shared by the strategies -------------------------------------------------
    async def store(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store read: in a worker thread, or inline when the run was asked not to offload."""
        return await asyncio.to_thread(fn, *args) if self.deps.offload else fn(*args)

    async def complete(self, messages: list[dict], tools: list[dict] | None):  # noqa: ANN201
        """One model call; usage and retries are charged to the run."""
        model = self.deps.model
        assert model is not None  # noqa: S101 - callers check; a bug otherwise
        reply = await model.complete(messages, tools)
        usage = self.run_state.usage
        usage.model_calls += 1
        usage.model_input_tokens += reply.input_tokens
        usage.model_output_tokens += reply.output_tokens
        usage.add_cost(reply.cost_usd)
        return reply

    def add_message(self, message: dict) -> None:
        """Place a message in the model's context, charging its tokens."""
        content = message.get("content") or ""
        if message.get("tool_calls"):
            content += json.dumps(message["tool_calls"])
        self.run_state.budget.spend_context(count_tokens(content))
        self.run_state.messages.append(message)

    def _end_walk(self, reason: str, detail: str) -> State:
        """The walk ended on its own (not a budget): generate; the run can still be ok."""
        self.run_state.walk_end = reason
        self.run_state.detail = detail
        self.note["detail"] = detail
        return State.GENERATE

    def _stop(self, target: State, reason: str, detail: str | None) -> State:
        self.run_state.stop_reason = reason
        self.run_state.detail = detail
        self.note.setdefault("detail", detail)
        return target

    def _exhausted(self, state: State, exhausted: BudgetExhausted) -> State:
        st = self.run_state
        self.note["detail"] = str(exhausted)
        self.note["refused"] = True
        if st.stop_reason is None:  # the first budget to run out is the one reported
            st.stop_reason, st.detail = exhausted.reason, str(exhausted)
        if state in (State.GENERATE, State.VALIDATE) or not st.ledger.ids:
            return State.INCOMPLETE
        return State.GENERATE

    def _record(self, state: State, target: State) -> None:
        usage = self.run_state.usage
        step = Step(
            index=len(self.run_state.steps), state=state.value, next_state=target.value,
            offered=self.note.get("offered", []), chosen=self.note.get("chosen", []),
            chosen_by=self.note.get("chosen_by"), tool=self.note.get("tool"), detail=self.note.get("detail"),
            refused=self.note.get("refused", False), tool_calls=usage.tool_calls,
            context_tokens=usage.context_tokens, iterations=usage.iterations,
        )
        self.run_state.steps.append(step)
        if self.deps.on_step is not None:
            self.deps.on_step(step)

    def _result(self, state: State) -> RetrievalResult:
        st = self.run_state
        status = {State.DONE: "ok", State.INCOMPLETE: "incomplete", State.FAILED: "failed"}[state]
        u = st.usage
        return RetrievalResult(
            status=status, stop_reason=st.stop_reason or "answered", detail=st.detail,
            hits=list(st.hits.values()), generation=st.generation, instructions=st.instructions, steps=st.steps,
            usage=UsageReport(iterations=u.iterations, tool_calls=u.tool_calls, context_tokens=u.context_tokens,
                              model_calls=u.model_calls, model_input_tokens=u.model_input_tokens,
                              model_output_tokens=u.model_output_tokens, model_cost_usd=u.model_cost_usd,
                              retries=u.retries),
            applied=self.deps.applied,
        )
