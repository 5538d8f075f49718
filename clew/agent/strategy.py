"""The strategies a run can follow, behind one small protocol, chosen once per run.

The controller's handlers call these methods and never ask which strategy they hold:

- ``TreeWalk`` (``strategy: tree``): seed hits (or a start) enter a document tree; nodes are
  opened to offer their children; passages are taken into the evidence;
- ``GraphWalk`` (``strategy: graph``): one path along a graph's typed edges;
- ``FreeRun`` (no navigation block, with a model): the model picks tools until it answers.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, TYPE_CHECKING

from clew.agent.states import State

if TYPE_CHECKING:
    from clew.agent.frontier import Candidate
    from clew.agent.request import RetrievalRequest
    from clew.agent.run import Run


class Strategy(Protocol):
    name: str
    """tree, graph or free."""

    @property
    def entry(self) -> Literal[State.SEED, State.ACT]:
        """Where a run goes after VALIDATE."""

    @property
    def permission(self) -> str | None:
        """The tool permission the principal needs (tree_search, graph_search), or None."""

    async def check(self, run: Run) -> None:
        """Validate what needs the corpus (a graph's name); raise ``InputError`` naming the field."""

    async def seed(self, run: Run) -> bool:
        """Search and place the starts in the frontier; False when there is nothing to start from."""

    async def offer(self, run: Run) -> list[Candidate]:
        """The candidates offered now, best first (empty: the walk is over, ``run.end_walk`` says why)."""

    async def visit(self, run: Run, chosen: Candidate) -> bool:
        """Take or open what was chosen; True when the walk is over (``run.end_walk`` says why)."""

    async def act(self, run: Run) -> bool:
        """One model turn of a free run; True when the model answered."""


def strategy_for(request: RetrievalRequest, applied: dict[str, Any]) -> Strategy:
    nav = request.navigation
    if nav is None:
        from clew.agent.free import FreeRun

        return FreeRun()
    if nav.strategy == "graph":
        from clew.agent.graph import GraphWalk

        return GraphWalk(nav, applied)
    from clew.agent.tree import TreeWalk

    return TreeWalk(nav, applied)
