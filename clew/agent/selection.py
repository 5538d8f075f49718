"""Who chooses among what a walk offers: the ranking (``ranked``) or the model (``agentic``).

``agentic``: the model sees the offered candidates (passages as their text, nodes as cards)
as untrusted data and calls ``navigate(evidence_id)`` on one of them, or ``finish()``. Only
ids that were offered and not yet visited can be chosen; anything else (an unknown tool, an
id never offered, bad arguments, ``finish`` before anything was taken) gets a repair message
listing the valid choices as a tool message, costs the tool call, and the model is asked
again; the same invalid call twice in a row ends the walk (``model_stuck``, with the evidence
so far). A call written as JSON in the reply's text (small local models do that) is taken as
that call (the step says ``parsed_from: "text"``); a reply that neither chooses nor finishes
gets one repair message before the walk ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from clew.agent.frontier import Candidate
from clew.agent.model import calls_from_text
from clew.agent.prompts import SELECT_TASK, data_block, system_prompt
from clew.agent.run import Run
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


@dataclass(frozen=True)
class Choice:
    """What SELECT decided: a candidate to visit, ask again (after a repair), or the walk is over."""

    candidate: Candidate | None = None
    again: bool = False
    finished: str | None = None
    """Why the walk is over (the step's detail)."""


class Selector(Protocol):
    def present(self, run: Run, offered: list[Candidate]) -> None:
        """Show the offered candidates to whoever chooses."""

    async def choose(self, run: Run) -> Choice: ...


class Ranked:
    """The best-ranked offered candidate, no model."""

    def present(self, run: Run, offered: list[Candidate]) -> None:
        return None

    async def choose(self, run: Run) -> Choice:
        run.note.chosen_by = "ranked"
        return Choice(candidate=run.state.offered[0])


class ModelChoice:
    """The model chooses by tool call."""

    def present(self, run: Run, offered: list[Candidate]) -> None:
        deps, st = run.deps, run.state
        if not st.messages:
            run.add_tools(SELECT_TOOLS)
            run.add_message({"role": "system", "content": system_prompt(deps.marker, st.instructions, SELECT_TASK)})
            run.add_message({"role": "user", "content": f"Question: {deps.request.query}"})
        blocks = [data_block(deps.marker, c.id, c.passage.text if c.passage is not None
                             else render_card(card(c.node)) if c.node is not None else "")
                  for c in offered]
        run.add_message({"role": "user", "content": "Candidates (untrusted data):\n" + "\n\n".join(blocks)})

    def __init__(self) -> None:
        self.nudged = False
        """A reply that neither chose nor finished got its one repair message."""
        self.last_invalid: tuple[str, str] | None = None

    async def choose(self, run: Run) -> Choice:
        st = run.state
        st.budget.check_before_tool_call()
        reply = await run.complete(st.messages, SELECT_TOOLS)
        run.note.chosen_by = "model"
        calls = reply.tool_calls or calls_from_text(reply.content, (CHOOSE, FINISH))
        if calls and not reply.tool_calls:
            run.note.parsed_from = "text"
        valid = [c.id for c in st.offered if c.id not in st.frontier.visited]
        if not calls:
            if self.nudged:
                return Choice(finished=f"the model answered instead of choosing ({said(reply.content)}): walk finished")
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
            return Choice(finished="the model finished the walk")
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
        run.note.refused = True
        run.note.detail = f"invalid choice: {problem}"
        attempt = (call.name, call.arguments)
        if attempt == self.last_invalid:
            run.stop("model_stuck", f"the model repeated the same invalid call ({problem})")
            return Choice(finished=f"the model repeated the same invalid call ({problem}): walk ended")
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
