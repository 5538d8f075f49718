"""The strategies a run can follow, behind two small protocols (``clew.agent.run.WalkStrategy``
and ``ToolLoop``), chosen once per run.

The controller's handlers call these methods and never ask which strategy they hold:

- ``TreeWalk`` (``strategy: tree``): seed hits (or a start) enter a document tree; nodes are
  opened to offer their children; passages are taken into the evidence;
- ``GraphWalk`` (``strategy: graph``): one path along a graph's typed edges;
- ``FreeRun`` (no navigation block, with a model): the model picks tools until it answers.
"""

from __future__ import annotations

from clew.agent.request import Applied, RetrievalRequest
from clew.agent.run import ToolLoop, WalkStrategy


def strategy_for(request: RetrievalRequest, applied: Applied) -> WalkStrategy | ToolLoop:
    nav = request.navigation
    if nav is None:
        from clew.agent.free import FreeRun

        return FreeRun()
    if nav.strategy == "graph":
        from clew.agent.graph import GraphWalk

        return GraphWalk(nav, applied)
    from clew.agent.tree import TreeWalk

    return TreeWalk(nav, applied)
