"""What one retrieval run holds: frozen dependencies, the mutable state, the step being recorded,
and the protocols of what it holds (``WalkStrategy`` or ``ToolLoop``, and a ``Selector``).

Handlers and strategies touch a run only through :class:`Run`: its ``deps`` (never changed
once the walk starts: nothing a document or a model says can reach them), its ``state``
(frontier, evidence, messages, what the walk decided) and ``note`` (the typed record of the
current step).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from clew.agent.evidence import Pack
from clew.agent.frontier import Candidate, Frontier
from clew.agent.model import Model, ModelReply
from clew.agent.request import Applied, RetrievalRequest
from clew.agent.result import (
    FloorSwap,
    Generation,
    GraphNavigation,
    Instruction,
    Step,
    StepActor,
    StopReason,
    TreeNavigation,
)
from clew.agent.states import State
from clew.budgets.limits import Budget, Limits, Usage
from clew.budgets.tokens import count_tokens
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import BudgetExhausted, ModelError

if TYPE_CHECKING:
    from clew.agent.scoring import Scorer

T = TypeVar("T")


def schema_tokens(tools: list[dict[str, Any]]) -> int:
    """Tokens of tool schemas as sent (their JSON)."""
    return count_tokens(json.dumps(tools, separators=(",", ":")))


@dataclass(frozen=True)
class Deps:
    """Everything a run reads and never changes: built from the request, before the walk."""

    corpus: Corpus
    request: RetrievalRequest
    limits: Limits
    applied: Applied
    scope: Scope
    model: Model | None
    marker: str
    fields: list[str] | None = None
    """The seed query's projection: the document fields a hit carries (None: none)."""
    on_step: Callable[[Step], None] | None = None
    offload: bool = True
    """Run store reads in worker threads (keeps the event loop free, e.g. in a server), or inline
    (a batch whose loop does nothing else: no hand-offs of the GIL between threads)."""


@dataclass
class StepNote:
    """What the current step did, recorded when it makes its transition."""

    offered: list[str] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)
    chosen_by: StepActor | None = None
    tool: str | None = None
    detail: str | None = None
    refused: bool = False
    tree: TreeNavigation | None = None
    graph: GraphNavigation | None = None
    parsed_from: Literal["text"] | None = None
    floor: list[FloorSwap] = field(default_factory=list)

    def add_tool(self, name: str) -> None:
        self.tool = name if self.tool is None else f"{self.tool}, {name}"


@dataclass
class RunState:
    budget: Budget
    frontier: Frontier = field(default_factory=Frontier)
    pack: Pack = field(default_factory=Pack)
    steps: list[Step] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)
    instruction_sources: set[str] = field(default_factory=set)
    offered: list[Candidate] = field(default_factory=list)
    chosen: Candidate | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    answer_text: str | None = None
    generation: Generation | None = None
    stop_reason: StopReason | None = None
    """Set when the run must end incomplete or failed (a budget that stopped the walk, a model or
    store failure)."""
    full: BudgetExhausted | None = None
    """The context budget could not take the best candidate left: from then on the walk only
    packs what it found (no tool calls), and stops with this when nothing else fits."""
    pending: BudgetExhausted | None = None
    """A budget that refused an optional move (opening a node, following links) while the walk went
    on with what it held: it is the run's stop reason only if the walk then runs out of
    candidates (the refused moves were the work left); a budget that stops the walk replaces it."""
    walk_end: StopReason | None = None
    """Why the walk itself ended (exhausted_frontier, max_steps, answered), when it did."""
    detail: str | None = None
    conversation_tokens: int = 0
    """Context tokens of the model's conversation (messages, tool schemas), charged as they come."""
    tool_counts: dict[str, int] = field(default_factory=dict)
    """Tool calls made, by tool."""
    tools_charged: bool = False
    choices: dict[str, Any] = field(default_factory=dict)
    """What the run chose on the way, reported in the result's ``applied`` after the bounds: the
    seed search's mode (``seed_mode``), a free run's tools (``tools``)."""
    """The tool schemas the model is sent were charged to the context budget."""

    @property
    def usage(self) -> Usage:
        return self.budget.usage


class Strategy(Protocol):
    """What a run follows, chosen once (``clew.agent.strategy.strategy_for``): a walk (tree, graph)
    or the free tool loop, two protocols with this part in common; a run holds one or the other."""

    name: str
    """tree, graph or free."""

    @property
    def entry(self) -> Literal[State.SEED, State.ACT]:
        """Where a run goes after VALIDATE: SEED for a walk, ACT for the tool loop."""

    @property
    def permission(self) -> str | None:
        """The tool permission the principal needs (tree_search, graph_search), or None."""

    async def check(self, run: Run) -> None:
        """Validate what needs the corpus (a graph's name); raise ``InputError`` naming the field."""


@runtime_checkable
class WalkStrategy(Strategy, Protocol):
    """A walk: SEED, then OFFER, SELECT and VISIT until it is over."""

    async def seed(self, run: Run) -> bool:
        """Search and place the starts in the frontier; False when there is nothing to start from."""

    async def offer(self, run: Run) -> list[Candidate]:
        """The candidates offered now, best first (empty: the walk is over, ``run.end_walk`` says why)."""

    async def visit(self, run: Run, chosen: Candidate) -> bool:
        """Take or open what was chosen; True when the walk is over (``run.end_walk`` says why)."""


@runtime_checkable
class ToolLoop(Strategy, Protocol):
    """The free run: ACT until the model answers."""

    async def act(self, run: Run) -> bool:
        """One model turn; True when the model answered."""


@dataclass(frozen=True)
class Choice:
    """What SELECT decided: a candidate to visit, ask again (after a repair), or the walk is over."""

    candidate: Candidate | None = None
    again: bool = False
    finished: str | None = None
    """Why the walk is over (the step's detail)."""


class Selector(Protocol):
    """Who chooses among what a walk offers (``clew.agent.selection``): the ranking or the model."""

    def present(self, run: Run, offered: list[Candidate]) -> None:
        """Show the offered candidates to whoever chooses."""

    def count_iteration(self, run: Run) -> None:
        """Charge the iteration the next offer starts (``BudgetExhausted`` when none is left)."""

    async def choose(self, run: Run) -> Choice: ...


@dataclass
class Run:
    """The context a handler gets: dependencies, state, the strategy and selector chosen once."""

    deps: Deps
    state: RunState
    strategy: WalkStrategy | ToolLoop
    selector: Selector
    scorer: Scorer
    note: StepNote = field(default_factory=StepNote)
    _is_walk: bool = field(init=False, repr=False)
    """Asked once: an ``isinstance`` against a runtime protocol checks every member (5% of a warm
    ranked walk when every handler asked it)."""

    def __post_init__(self) -> None:
        self._is_walk = isinstance(self.strategy, WalkStrategy)

    @property
    def walk(self) -> WalkStrategy:
        """The run's walk: SEED, OFFER, SELECT and VISIT happen in a walk only (the transition table
        leads a free run from VALIDATE to ACT)."""
        if not self._is_walk:
            raise RuntimeError(f"a {self.strategy.name} run has no walk")
        return self.strategy  # type: ignore[return-value]

    @property
    def loop(self) -> ToolLoop:
        """The run's tool loop: ACT happens in a free run only."""
        if not isinstance(self.strategy, ToolLoop):
            raise RuntimeError(f"a {self.strategy.name} walk has no tool loop")
        return self.strategy

    async def store(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store read: in a worker thread, or inline when the run was asked not to offload."""
        if not self.deps.offload:
            return fn(*args)
        import asyncio  # here, not at the top: a run reading inline never loads it (``retrieve_sync``)

        return await asyncio.to_thread(fn, *args)

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> ModelReply:
        """One model call; usage and retries (the attempts past the first) are charged to the run.

        Whatever the model raises becomes a ``ModelError`` (the run ends ``failed / model_error``
        with its evidence), except a spent budget raised from inside the call.
        """
        model = self.deps.model
        if model is None:  # the request validation refuses such runs; reaching here is a bug
            raise RuntimeError("a model call was asked for in a run without a model")
        usage = self.state.usage
        try:
            reply = await model.complete(messages, tools)
        except ModelError as error:
            usage.retries += max(0, error.attempts - 1)
            raise
        except BudgetExhausted:
            raise
        except Exception as error:  # a custom model's own failure
            name = getattr(model, "name", type(model).__name__)
            raise ModelError(name, f"{type(error).__name__}: {error}", retryable=False, attempts=1) from error
        if not isinstance(reply, ModelReply):  # a custom model that returned nothing (or something else)
            name = getattr(model, "name", type(model).__name__)
            raise ModelError(name, f"complete() returned {type(reply).__name__}, not a ModelReply (clew.agent.model)",
                             retryable=False, attempts=1)
        usage.retries += reply.attempts - 1
        usage.model_calls += 1
        usage.model_input_tokens += reply.input_tokens
        usage.model_output_tokens += reply.output_tokens
        usage.add_cost(reply.cost_usd)
        return reply

    def add_tools(self, tools: list[dict[str, Any]]) -> None:
        """Charge the tool schemas sent with every model call, once per run (they stay in the
        model's context like the system prompt)."""
        if not self.state.tools_charged:
            tokens = schema_tokens(tools)
            self.state.budget.spend_context(tokens)
            self.state.conversation_tokens += tokens
            self.state.tools_charged = True

    def add_message(self, message: dict[str, Any]) -> None:
        """Place a message in the model's context, charging its tokens."""
        content = message.get("content") or ""
        if message.get("tool_calls"):
            content += json.dumps(message["tool_calls"])
        tokens = count_tokens(content)
        self.state.budget.spend_context(tokens)
        self.state.conversation_tokens += tokens
        self.state.messages.append(message)

    def end_conversation(self) -> None:
        """The model's conversation is over and never sent again (the answer is a call of its own):
        its tokens leave the context budget; the evidence taken stays charged."""
        st = self.state
        st.usage.context_tokens -= st.conversation_tokens
        st.conversation_tokens = 0
        st.messages.clear()

    def tool_call(self, name: str) -> None:
        """Spend one tool call (``BudgetExhausted`` when none is left) and note it."""
        self.state.budget.spend_tool_call()
        self.state.tool_counts[name] = self.state.tool_counts.get(name, 0) + 1
        self.note.add_tool(name)

    def optional_tool_call(self, name: str) -> bool:
        """Spend a tool call for an optional move (opening a node, following links).

        When none is left the move is refused and noted (``RunState.pending``), and the walk
        goes on with what it already holds (False).
        """
        try:
            self.tool_call(name)
        except BudgetExhausted as exhausted:
            self.note.refused = True
            self.note.detail = str(exhausted)
            if self.state.pending is None:
                self.state.pending = exhausted
            return False
        return True

    def refuse(self, exhausted: BudgetExhausted) -> None:
        """A budget stopped the walk: it is the budget the run reports."""
        self.note.refused = True
        self.note.detail = str(exhausted)
        if self.state.stop_reason is None:
            self.state.stop_reason, self.state.detail = exhausted.reason, str(exhausted)

    def end_walk(self, reason: StopReason, detail: str) -> None:
        """The walk ended on its own (not a budget): the run generates and can still be ok."""
        self.state.walk_end = reason
        self.state.detail = self.state.detail or detail
        self.note.detail = detail

    def stop(self, reason: StopReason, detail: str | None) -> None:
        """The run must end incomplete or failed, for ``reason``."""
        self.state.stop_reason = reason
        self.state.detail = detail
        if self.note.detail is None:
            self.note.detail = detail
