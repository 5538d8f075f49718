"""The graph walk (``strategy: graph``): one path along a graph's typed edges.

It starts at ``start_key`` (the document's first passage), the first of ``start_nodes``'
keys, or the first seed hit. Each step offers at most ``neighbor_limit`` unvisited, readable
neighbours of the current position along ``edge_types`` of graph ``index`` in ``direction``
(one tool call, ``expand_neighbors``), and moves to one: a passage is taken as it is; a
structure node (``section_hierarchy`` leads from a section to its subsections) is taken as
its first passage and the walk goes on from the node. At most ``max_steps`` moves after the
start; a dead end or a cycle ends the walk softly.
"""

from __future__ import annotations

from clew.agent.frontier import Candidate
from clew.agent.request import Applied, Navigation
from clew.agent.result import GraphNavigation
from clew.agent.run import Run
from clew.agent.walk import START_FIELD, Walk, missing_start
from clew.corpus.reader import Passage
from clew.errors import InputError
from clew.navigation.core import Node, graph_exists, lead, neighbours, root

BUILT_IN_GRAPHS = ("section_hierarchy", "reading_order", "links")


class GraphWalk(Walk):
    name = "graph"
    permission = "graph_search"

    def __init__(self, nav: Navigation, applied: Applied) -> None:
        super().__init__(nav, applied)
        self.position: Passage | Node | None = None
        self.moves = 0

    @property
    def follow(self) -> frozenset[str]:
        index = self.nav.index or ""
        if self.nav.edge_types:
            return frozenset(f"{index}:{t}" for t in self.nav.edge_types)
        return frozenset({index})

    async def check(self, run: Run) -> None:
        index = self.nav.index
        if index in BUILT_IN_GRAPHS:
            return
        scope = run.deps.scope
        if not await run.store(graph_exists, scope, index or ""):
            raise InputError("steps.retrieval.navigation.index",
                             f"unknown graph {index!r} in collection {scope.collection!r}")

    async def seed(self, run: Run) -> bool:
        start = await run.store(self._start, run)
        if start is None:
            return False
        run.state.frontier.push(start)
        run.note.offered = [start.id]
        return True

    def _start(self, run: Run) -> Candidate | None:
        found = self.search(run)
        nav, scope = self.nav, run.deps.scope
        keys = [nav.start_key] if nav.start_key else [k.strip() for k in (nav.start_nodes or "").split(",")
                                                      if k.strip() and not k.strip().startswith("$")]
        if keys:
            doc = scope.resolve_keys(keys[:1], scope.collection, field=START_FIELD).get(keys[0])
            if doc is None:
                run.end_walk("no_evidence", missing_start(scope, keys[:1]))
                return None
            return self.start(run, root(doc), 0)
        return self.start(run, found[0].passage, 0) if found else None

    async def offer(self, run: Run) -> list[Candidate]:
        st = run.state
        if self.position is not None:
            run.tool_call("expand_neighbors")
            moves = await run.store(self._neighbours, run)
            st.frontier.clear()  # one path: only the position's neighbours are candidates
            for candidate in moves:
                st.frontier.push(candidate)
        ranked = self.offerable(run, self.applied.neighbor_limit)
        if not ranked:
            run.end_walk("exhausted_frontier", "dead end: no unvisited neighbour")
        return ranked

    def _neighbours(self, run: Run) -> list[Candidate]:
        assert self.position is not None  # noqa: S101
        direction = self.nav.direction
        moves = neighbours(run.deps.scope, self.position, self.follow, incoming=direction != "out",
                           outgoing=direction != "in")
        visited = run.state.frontier.visited
        origin = self.position.evidence_id if isinstance(self.position, Passage) else self.position.id
        out = []
        for move in moves:
            c = self.candidate(run, move.target, self.moves + 1, move.relationship, origin)
            if c is not None and c.id not in visited:
                out.append(c)
            if len(out) >= self.applied.neighbor_limit:
                break
        return out

    async def visit(self, run: Run, chosen: Candidate) -> bool:
        st = run.state
        st.frontier.mark(chosen)
        step = self.moves + 1 if self.position is not None else 0
        run.note.chosen = [chosen.id]
        run.note.graph = GraphNavigation(step=step, relationship=None if step == 0 else chosen.via)
        passage = chosen.passage or lead(chosen.node)  # type: ignore[arg-type]
        if passage is not None:
            self.take(run, chosen, passage, depth=None, step=step)
            st.frontier.visited.add(passage.evidence_id)
        self.moves = step
        self.position = chosen.target
        if step >= self.applied.max_steps:
            run.end_walk("max_steps", f"max_steps={self.applied.max_steps} moves made")
            return True
        return False
