"""Who chooses among what a walk offers: the ranking (``ranked``) or the model (``agentic``).

``agentic``: the model sees the offered candidates (passages as their text, nodes as cards)
as untrusted data and calls ``navigate(evidence_id)`` on one of them, or ``finish()``. Only
ids that were offered and not yet visited can be chosen; anything else (an unknown tool, an
id never offered, bad arguments, ``finish`` before anything was taken) gets a repair message
listing the valid choices as a tool message, costs the tool call, and the model is asked
again. A call written as JSON in the reply's text (small local models do that) is taken as
that call (the step says ``parsed_from: "text"``); a reply that neither chooses nor finishes
gets one repair message. When the model's replies cannot be used (prose again, the same
invalid call twice, a timeout) and when it finishes, the step takes the ranked choice, says
why, and the ranking chooses for the rest of the walk: a model can only add.
"""

from __future__ import annotations

import json

from clew.agent.frontier import Candidate
from clew.agent.model import calls_from_text
from clew.agent.prompts import SELECT_TASK, data_block, system_prompt
from clew.agent.request import ranked_iterations
from clew.agent.run import Choice, Run, Selector
from clew.errors import BudgetExhausted, ModelError
from clew.navigation.core import card, render_card

CHOOSE = "navigate"
FINISH = "finish"
SELECT_TOOLS = [
    {"type": "function", "function": {
        "name": CHOOSE, "description": "Visit one offered candidate: a passage is taken into the evidence, a "
                                       "section or document is opened to offer its children.",
        "parameters": {"type": "object", "properties": {"evidence_id": {"type": "string"}},
                       "required": ["evidence_id"]}}},
    {"type": "function", "function": {
        "name": FINISH, "description": "Stop walking: the evidence so far is enough.",
        "parameters": {"type": "object", "properties": {}}}},
]


class Ranked:
    """The best-ranked offered candidate, no model."""

    def present(self, run: Run, offered: list[Candidate]) -> None:
        return None

    def count_iteration(self, run: Run) -> None:
        run.state.budget.check_before_iteration()
        run.state.usage.iterations += 1

    async def choose(self, run: Run) -> Choice:
        run.note.chosen_by = "ranked"
        return Choice(candidate=run.state.offered[0])


class ModelChoice:
    """The model chooses by tool call while its replies can be used; the ranking takes over when
    they cannot (prose again after a repair, the same invalid call twice, a timeout or a server
    error after retries) and when the model finishes: a model can only add to what the ranked
    walk would find. An iteration is one model turn; the ranked steps after the hand-over count
    against the ranked walk's own bound (``ranked_iterations`` of the context budget)."""

    def __init__(self) -> None:
        self.nudged = False
        """A reply that neither chose nor finished got its one repair message."""
        self.last_invalid: tuple[str, str] | None = None
        self.ranked: Ranked | None = None
        """Set once the model handed the walk over: the ranking chooses from then on."""
        self.ranked_steps = 0

    def present(self, run: Run, offered: list[Candidate]) -> None:
        if self.ranked is not None:
            return
        deps, st = run.deps, run.state
        if not st.messages:
            run.add_tools(SELECT_TOOLS)
            run.add_message({"role": "system", "content": system_prompt(deps.marker, st.instructions, SELECT_TASK)})
            run.add_message({"role": "user", "content": f"Question: {deps.request.query}"})
        blocks = [data_block(deps.marker, c.id, c.passage.text if c.passage is not None
                             else render_card(card(c.node)) if c.node is not None else "")
                  for c in offered]
        run.add_message({"role": "user", "content": "Candidates (untrusted data):\n" + "\n\n".join(blocks)})

    def count_iteration(self, run: Run) -> None:
        if self.ranked is None:
            Ranked().count_iteration(run)
            return
        bound = ranked_iterations(run.deps.limits.context_budget_tokens)
        if self.ranked_steps >= bound:
            raise BudgetExhausted("max_internal_iterations", f"the ranked steps after the model's would exceed "
                                                             f"{bound}")
        self.ranked_steps += 1

    def hand_over(self, run: Run, why: str) -> Choice:
        """The ranked choice for this step and every later one; the step says why."""
        self.ranked = Ranked()
        run.end_conversation()
        run.note.detail = f"{why}: the ranked choice, and the ranking chooses from here on"
        run.note.chosen_by = "ranked"
        return Choice(candidate=run.state.offered[0])

    async def choose(self, run: Run) -> Choice:
        if self.ranked is not None:
            return await self.ranked.choose(run)
        st = run.state
        st.budget.check_before_tool_call()
        try:
            reply = await run.complete(st.messages, SELECT_TOOLS)
        except ModelError as error:
            if not error.retryable:  # a configuration error: the answer would fail the same way
                raise
            return self.hand_over(run, f"the model failed ({error})")
        run.note.chosen_by = "model"
        shown = [m["content"] for m in st.messages if m["role"] == "user"]  # the candidates' text among them
        calls = reply.tool_calls or calls_from_text(reply.content, (CHOOSE, FINISH), shown)
        if calls and not reply.tool_calls:
            run.note.parsed_from = "text"
        valid = [c.id for c in st.offered if c.id not in st.frontier.visited]
        if not calls:
            if self.nudged:
                return self.hand_over(run, f"the model answered instead of choosing ({said(reply.content)})")
            self.nudged = True
            run.note.detail = f"the reply neither chose nor finished ({said(reply.content)}): asked once more"
            run.add_message({"role": "assistant", "content": reply.content or ""})
            run.add_message({"role": "user", "content": (
                f"Reply with a tool call: {CHOOSE} with one of: {', '.join(valid)}; or {FINISH}().")})
            return Choice(again=True)
        call = calls[0]
        run.tool_call(call.name)
        run.add_message({"role": "assistant", "content": reply.content or "", "tool_calls": [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]})
        if call.name == FINISH and st.pack.ledger.ids:
            run.add_message({"role": "tool", "tool_call_id": call.id, "content": "walk finished"})
            return self.hand_over(run, "the model finished")
        try:
            chosen = json.loads(call.arguments or "{}").get("evidence_id") if call.name == CHOOSE else None
        except (json.JSONDecodeError, AttributeError):
            chosen = None
        if chosen in valid:
            self.last_invalid = None
            run.add_message({"role": "tool", "tool_call_id": call.id, "content": f"visiting {chosen}"})
            return Choice(candidate=next(c for c in st.offered if c.id == chosen))
        if call.name == FINISH:
            problem = "nothing has been taken yet"
        elif call.name != CHOOSE:
            problem = f"unknown tool {call.name!r}"
        else:
            problem = f"{chosen!r} was not offered"
        attempt = (call.name, call.arguments)
        if attempt == self.last_invalid:
            return self.hand_over(run, f"the model repeated the same invalid call ({problem})")
        run.note.refused = True
        run.note.detail = f"invalid choice: {problem}"
        self.last_invalid = attempt
        run.add_message({"role": "tool", "tool_call_id": call.id, "content": (
            f"Invalid choice: {problem}. Call {CHOOSE} with one of: {', '.join(valid)}; or {FINISH}().")})
        return Choice(again=True)


SAID_CHARS = 160
"""How much of a reply that was no call a step's detail quotes."""


def said(content: str | None) -> str:
    """A reply's text, quoted and shortened for a step's detail."""
    text = " ".join((content or "").split())
    return json.dumps(text if len(text) <= SAID_CHARS else text[:SAID_CHARS] + "...", ensure_ascii=False)


def selector_for(selection: str | None) -> Selector:
    return ModelChoice() if selection == "agentic" else Ranked()
