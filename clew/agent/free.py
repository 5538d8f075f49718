"""The free run (no navigation block): the model picks tools until it answers.

Every tool call goes through the registry under the run's scope and principal, costs one of
the run's tool calls, and its result enters the context as untrusted data. A mistake (an
unknown or forbidden tool, bad arguments) comes back to the model as a tool message listing
the valid choices; it costs budget and never crashes the run. A reply without a structured
call whose text is a JSON tool call naming one of its tools is taken as that call (step
``parsed_from: "text"``); any other reply is the answer. Passages a tool returns become hits
(citable once ``fetch_evidence`` has returned them in full).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from clew.agent.model import calls_from_text
from clew.agent.prompts import FREE_TASK, data_block, system_prompt
from clew.agent.result import EvidenceHit
from clew.agent.run import Run, schema_tokens
from clew.agent.states import State
from clew.budgets.tokens import count_tokens
from clew.errors import InputError
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext

CORE_TOOLS = ("search", "navigate_document_tree", "fetch_evidence")
"""The tools a free run keeps when every tool's schema would take more than half its budget."""


class FreeRun:
    """The free run's tool loop (``clew.agent.run.ToolLoop``)."""

    name = "free"
    entry: Literal[State.ACT] = State.ACT
    permission: str | None = None

    def __init__(self) -> None:
        self.tools: list[str] = []
        """The tools this run offers (chosen in VALIDATE, reported in the result's ``applied.tools``)."""

    async def check(self, run: Run) -> None:
        """Choose the tool set: every tool the principal may use when their schemas and the
        prompt (sent with every call) take at most half the budget, else the core tools; a
        budget too small even for those is an ``InputError``."""
        if run.deps.model is None:  # the request validation refuses such runs; reaching here is a bug
            raise RuntimeError("a free run needs a model")
        deps = run.deps
        schemas = registry.schemas(ToolContext(scope=deps.scope, ledger=run.state.pack.ledger))
        prompt = count_tokens(system_prompt(deps.marker, run.state.instructions, FREE_TASK)) + count_tokens(
            f"Question: {deps.request.query}")
        budget = deps.limits.context_budget_tokens
        core = [s for s in schemas if s["function"]["name"] in CORE_TOOLS]
        chosen = schemas if schema_tokens(schemas) + prompt <= budget // 2 else core
        needed = schema_tokens(chosen) + prompt
        if not chosen or needed >= budget:
            raise InputError("context_budget_tokens", (
                f"a free run sends {len(chosen)} tool schemas and its prompt ({needed} tokens) with every model "
                f"call; context_budget_tokens={budget} leaves nothing for evidence: raise it well above {needed}"))
        self.tools = [s["function"]["name"] for s in chosen]
        run.state.choices["tools"] = list(self.tools)

    async def act(self, run: Run) -> bool:
        deps, st = run.deps, run.state
        context = ToolContext(scope=deps.scope, ledger=st.pack.ledger)
        schemas = [s for s in registry.schemas(context) if s["function"]["name"] in self.tools]
        if not st.messages:
            run.add_tools(schemas)
            run.add_message({"role": "system", "content": system_prompt(deps.marker, st.instructions, FREE_TASK)})
            run.add_message({"role": "user", "content": f"Question: {deps.request.query}"})
        st.budget.check_before_iteration()
        st.usage.iterations += 1
        reply = await run.complete(st.messages, schemas)
        run.note.chosen_by = "model"
        calls = reply.tool_calls or calls_from_text(reply.content, self.tools)
        if not calls:
            st.answer_text = reply.content or ""
            run.note.detail = "answered"
            return True
        if not reply.tool_calls:
            run.note.parsed_from = "text"
        run.add_message({"role": "assistant", "content": reply.content or "", "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls]})
        for call in calls:
            run.tool_call(call.name)
            try:
                if call.name not in self.tools:
                    raise InputError("name", f"unknown tool {call.name!r}")
                result = await registry.acall(call.name, call.arguments, context, offload=deps.offload)
            except InputError as error:
                run.note.refused = True
                run.add_message({"role": "tool", "tool_call_id": call.id, "content": (
                    f"error: {error}. Valid tools: {', '.join(self.tools)}.")})
                continue
            await run.store(_record_hits, run, call.name, result)
            payload = result.model_dump_json(exclude_none=True)
            run.add_message({"role": "tool", "tool_call_id": call.id,
                             "content": data_block(deps.marker, call.name, payload)})
        return False


def _shown_ids(result: BaseModel) -> list[str]:
    """Passage ids a tool result shows: search hits, navigation items, fetched evidence."""
    ids = [h.evidence_id for h in getattr(result, "hits", None) or []]
    ids += [i.evidence_id for i in getattr(result, "items", None) or []]
    ids += [e.item.evidence_id for e in getattr(result, "evidence", None) or [] if e.item is not None]
    return list(dict.fromkeys(ids))


def _record_hits(run: Run, tool: str, result: BaseModel) -> None:
    """Passages a tool returned become hits, read again through the run's scope."""
    deps, pack = run.deps, run.state.pack
    shown = _shown_ids(result)
    found = deps.scope.passages_by_ids(shown)
    for passage in (found[i] for i in shown if i in found):
        fetched = pack.ledger.fetched(passage.evidence_id)
        pack.saw(EvidenceHit.of(passage, via=tool, fetched=fetched, tokens=count_tokens(passage.text),
                                fields=deps.fields))
