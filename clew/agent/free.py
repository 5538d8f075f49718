"""The free run (no navigation block): the model picks tools until it answers.

Every tool call goes through the registry under the run's scope and principal, costs one of
the run's tool calls, and its result enters the context as untrusted data. A mistake (an
unknown or forbidden tool, bad arguments) comes back to the model as a tool message listing
the valid choices; it costs budget and never crashes the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from clew.agent.prompts import FREE_TASK, data_block, system_prompt
from clew.agent.result import EvidenceHit
from clew.agent.states import State
from clew.budgets.tokens import count_tokens
from clew.errors import InputError
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext

if TYPE_CHECKING:
    from clew.agent.controller import Controller


async def act(ctl: Controller) -> State:
    deps, st = ctl.deps, ctl.run_state
    if deps.model is None:
        return ctl._stop(State.FAILED, "model_error", "a free run (no navigation block) needs a generator model")
    context = ToolContext(scope=deps.scope, ledger=st.ledger)
    if not st.messages:
        ctl.add_message({"role": "system", "content": system_prompt(deps.marker, st.instructions, FREE_TASK)})
        ctl.add_message({"role": "user", "content": f"Question: {deps.request.query}"})
    st.budget.check_before_iteration()
    st.usage.iterations += 1
    reply = await ctl.complete(st.messages, registry.schemas(context))
    if not reply.tool_calls:
        st.answer_text = reply.content or ""
        ctl.note.update(chosen_by="model", detail="answered")
        return State.GENERATE
    ctl.add_message({"role": "assistant", "content": reply.content or "", "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in reply.tool_calls]})
    names = []
    for call in reply.tool_calls:
        st.budget.spend_tool_call()
        names.append(call.name)
        try:
            result = await registry.acall(call.name, call.arguments, context, offload=ctl.deps.offload)
        except InputError as error:
            ctl.note["refused"] = True
            ctl.add_message({"role": "tool", "tool_call_id": call.id, "content": (
                f"error: {error}. Valid tools: {', '.join(registry.names_for(context))}.")})
            continue
        _record_hits(ctl, call.name, result)
        payload = result.model_dump_json(exclude_none=True)
        ctl.add_message({"role": "tool", "tool_call_id": call.id,
                         "content": data_block(deps.marker, call.name, payload)})
    ctl.note.update(tool=", ".join(names), chosen_by="model")
    return State.ACT


def _record_hits(ctl: Controller, tool: str, result: BaseModel) -> None:
    """Passages a tool returned become hits; those fetched in full are citable."""
    st = ctl.run_state
    items = list(getattr(result, "hits", None) or getattr(result, "items", None) or [])
    items += [entry.item for entry in getattr(result, "evidence", None) or [] if entry.item is not None]
    for item in items:
        evidence_id = getattr(item, "evidence_id", None)
        text = getattr(item, "text", None)
        if not evidence_id or text is None or (evidence_id in st.hits and st.hits[evidence_id].fetched):
            continue
        st.hits[evidence_id] = EvidenceHit(
            evidence_id=evidence_id, document_key=getattr(item, "document_key", ""),
            collection=getattr(item, "collection", "") or (ctl.deps.scope.collection or ""),
            heading_path=list(getattr(item, "heading_path", []) or []), kind=getattr(item, "kind", "text"),
            text=text, via=tool, fetched=st.ledger.fetched(evidence_id), tokens=count_tokens(text),
        )
