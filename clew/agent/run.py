"""Run state and frozen dependencies of one retrieval run."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clew.agent.frontier import Candidate, Frontier
from clew.agent.model import Model
from clew.agent.request import RetrievalRequest
from clew.agent.result import EvidenceHit, Generation, Instruction, Step
from clew.budgets.limits import Budget, Limits, Usage
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.evidence import EvidenceLedger


@dataclass(frozen=True)
class Deps:
    """Everything a run reads and never changes: built from the request, before the walk."""

    corpus: Corpus
    request: RetrievalRequest
    limits: Limits
    applied: dict[str, Any]
    scope: Scope
    model: Model | None
    marker: str
    on_step: Callable[[Step], None] | None = None
    offload: bool = True
    """Run store reads in worker threads (keeps the event loop free, e.g. in a server), or inline
    (a batch whose loop does nothing else: no hand-offs of the GIL between threads)."""


@dataclass
class RunState:
    budget: Budget
    frontier: Frontier = field(default_factory=Frontier)
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)
    hits: dict[str, EvidenceHit] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    instructions: list[Instruction] = field(default_factory=list)
    instruction_sources: set[str] = field(default_factory=set)
    offered: list[Candidate] = field(default_factory=list)
    chosen: Candidate | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    answer_text: str | None = None
    generation: Generation | None = None
    stop_reason: str | None = None
    """Set when the run must end incomplete or failed (a budget, a model or store failure)."""
    walk_end: str | None = None
    """Why the walk itself ended (exhausted_frontier, max_steps, answered), when it did."""
    detail: str | None = None
    current: Candidate | None = None
    """The graph walk's position."""
    moves: int = 0
    budget_dropped: int = 0
    """Candidates dropped because they could not fit the context budget left."""
    top_score: float = 0.0
    weights: dict[str, float] | None = None
    """The query's terms expanded from the seed hits (see clew.corpus.search.feedback)."""

    @property
    def usage(self) -> Usage:
        return self.budget.usage
