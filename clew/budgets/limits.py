"""Run limits and the usage they are checked against.

Limits are frozen and built once from the request; nothing a document or a model says can
change them. Usage is the one mutable record of what a run has spent. Checks happen only at
state boundaries, each with an exact message, and raise :class:`BudgetExhausted` carrying
the stop reason the run reports.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from clew.budgets.bounds import Clamp
from clew.errors import BudgetExhausted

HARD_MAX_TOOL_CALLS = 20
"""No run makes more tool calls than this, whatever it asks for."""

StopReason = Literal["max_internal_iterations", "max_tool_calls", "context_budget", "timeout"]

# A retrieval request's budgets, each declared once: its range as the type's ``Clamp`` (a request
# is clamped to it and reports what it applied; a configured default outside it is an error) and
# its default beside it. The request, the configuration's [budgets] and :class:`Limits` use these.
Seconds = Annotated[float, Clamp(1, 3600)]
DEFAULT_TIMEOUT_SECONDS = 600.0
"""A run's wall-clock bound when the request sets none."""
Iterations = Annotated[int, Clamp(1, 100)]
DEFAULT_ITERATIONS = 12
ToolCalls = Annotated[int, Clamp(1, HARD_MAX_TOOL_CALLS)]
ContextTokens = Annotated[int, Clamp(256, 200_000)]
DEFAULT_CONTEXT_TOKENS = 8192
ExtractTokens = Annotated[int, Clamp(20, 4000)]
DEFAULT_EXTRACT_TOKENS = 250

T = TypeVar("T")


class Limits(BaseModel):
    """The bounds a run obeys (already clamped); their ranges are the fields' ``Clamp`` metadata
    (``clew.budgets.bounds.bounds(Limits)``)."""

    model_config = ConfigDict(frozen=True)

    max_internal_iterations: Iterations = DEFAULT_ITERATIONS
    """Controller iterations (one offer-select-visit round each)."""
    max_tool_calls: ToolCalls = HARD_MAX_TOOL_CALLS
    """Tool calls of every kind, nested ones included; never above 20."""
    context_budget_tokens: ContextTokens = DEFAULT_CONTEXT_TOKENS
    """Tokens placed in the model's context (or returned as evidence by a ranked run): messages,
    tool schemas and tool-call JSON alike."""
    timeout_seconds: Seconds = DEFAULT_TIMEOUT_SECONDS
    """Wall-clock bound of the whole run; past it the run ends ``incomplete / timeout`` with the
    evidence so far."""


@dataclass
class Usage:
    iterations: int = 0
    tool_calls: int = 0
    context_tokens: int = 0
    model_calls: int = 0
    model_input_tokens: int = 0
    model_output_tokens: int = 0
    model_cost_usd: float | None = None
    retries: int = 0

    def add_cost(self, cost: float | None) -> None:
        if cost is not None:
            self.model_cost_usd = (self.model_cost_usd or 0.0) + cost


@dataclass
class Budget:
    limits: Limits
    usage: Usage
    reserved: int = 0
    """Context tokens held back for a later part of the run (the answer prompt's own words)."""

    @property
    def tokens_left(self) -> int:
        return max(0, self.limits.context_budget_tokens - self.usage.context_tokens - self.reserved)

    @property
    def tool_calls_left(self) -> int:
        return max(0, self.limits.max_tool_calls - self.usage.tool_calls)

    def reserve(self, tokens: int) -> None:
        """Hold ``tokens`` back from everything spent until :meth:`release`."""
        self.reserved = max(0, tokens)

    def release(self) -> None:
        self.reserved = 0

    def check_before_iteration(self) -> None:
        if self.usage.iterations >= self.limits.max_internal_iterations:
            raise BudgetExhausted(
                "max_internal_iterations",
                f"the next iteration would exceed max_internal_iterations={self.limits.max_internal_iterations}",
            )

    def check_before_tool_call(self) -> None:
        if self.usage.tool_calls >= self.limits.max_tool_calls:
            raise BudgetExhausted(
                "max_tool_calls", f"the next tool call would exceed max_tool_calls={self.limits.max_tool_calls}"
            )

    def check_context(self, tokens: int) -> None:
        if self.usage.context_tokens + tokens + self.reserved > self.limits.context_budget_tokens:
            raise BudgetExhausted(
                "context_budget",
                f"{tokens} more tokens would exceed context_budget_tokens={self.limits.context_budget_tokens} "
                f"({self.usage.context_tokens} used" + (f", {self.reserved} kept for the answer)" if self.reserved
                                                        else ")"),
            )

    def spend_tool_call(self) -> None:
        self.check_before_tool_call()
        self.usage.tool_calls += 1

    def spend_context(self, tokens: int) -> None:
        self.check_context(tokens)
        self.usage.context_tokens += tokens


def fit_prefix(items: Sequence[T], cost: Callable[[T], int], available: int) -> list[T]:
    """The largest prefix of ``items`` whose total cost fits in ``available``."""
    taken: list[T] = []
    total = 0
    for item in items:
        total += cost(item)
        if total > available:
            break
        taken.append(item)
    return taken
