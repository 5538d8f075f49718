"""The tree walk (``strategy: tree``): down a document's sections from a start or a hit.

Starts, at depth 0: ``start_key`` (the document's root node, its lead passage taken first),
``start_nodes`` (``$roots``: the roots of the graph in the collection, ranked; ``$hits``; or
comma-separated keys, each a root), or by default the seed hits, each taken first and then
entering the tree at its own section (a table hit at its table).

Moves: taking a passage puts it in the evidence (context tokens; no tool call). Opening a
node (the document root, a section, a table) is ``navigate_document_tree`` children on it,
one tool call: its children (own passages, tables, subsections; in a user graph also its
child documents) are priced, and at most ``beam_width`` unvisited ones join the frontier one
level deeper; nothing deeper than ``max_depth`` is offered. With ``follow_links`` a taken
passage that links elsewhere also offers the passages it links to (one more tool call, only
for a passage with links; a link to a whole document leads to its best passage and to its
opening, its first prose passage: a page's description past a synopsis of commands, and past a
manual page's NAME line to its DESCRIPTION: ``_past_lead``), and a
passage reached from outside the tree (a hit, a link target) offers the node it sits in; a
seed hit also offers the passages right before and after it (``via: adjacent``).
Unvisited candidates stay in the frontier, so the walk comes back to a sibling it passed over
when that sibling scores better than what is left. When nothing left can be taken, a ranked walk
from the seed hits ends with its floor (``clew.agent.floor``): the flat pack's best hits it lacks
take the room of its weakest takes where they are worth more.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from clew.agent.floor import apply_floor
from clew.agent.frontier import Candidate
from clew.agent.request import Applied, Navigation
from clew.agent.result import TreeNavigation
from clew.agent.run import Run
from clew.agent.scoring import ADJACENCY_BONUS, NEIGHBOUR_BONUS, link_bonus, neighbour_floor
from clew.agent.units import FENCE
from clew.agent.walk import START_FIELD, Walk, missing_start
from clew.corpus.prose import reads_as_prose
from clew.corpus.reader import Passage, passage_of
from clew.corpus.search.api import Found
from clew.corpus.structure import DocumentVersion
from clew.errors import InputError
from clew.navigation.core import (
    Node,
    child_documents,
    entry_node,
    graph_roots,
    link_targets,
    opening,
    root,
    tree_children,
)
from clew.navigation.edges import has_links

SECTION_TREE = "section_hierarchy"
ENTRIES = ("seed", "links")
"""How a passage reached from outside the tree got there: taking it also offers its node."""
ROUTED = ("children", "links", "adjacent")
"""The routes whose candidates get a bonus for where they were found (``clew.agent.scoring``)."""


class TreeWalk(Walk):
    name = "tree"
    permission = "tree_search"
    packs = True

    def __init__(self, nav: Navigation, applied: Applied) -> None:
        super().__init__(nav, applied)
        self.seeds: list[Found] | None = None
        """The seed search's hits, when they are the walk's starts (what the floor compares with)."""

    @property
    def graph(self) -> str:
        return self.nav.index or SECTION_TREE

    @property
    def user_tree(self) -> bool:
        return self.graph != SECTION_TREE

    @property
    def edge_types(self) -> tuple[str, ...]:
        return tuple(self.nav.edge_types) or ("child",)

    async def check(self, run: Run) -> None:
        if self.user_tree:
            scope = run.deps.scope
            if not await run.store(lambda: bool(graph_roots(scope, _collection_id(run), scope.collection or "",
                                                            self.graph, self.edge_types))):
                raise InputError("steps.retrieval.navigation.index",
                                 f"no tree of {'/'.join(self.edge_types)} edges in graph {self.graph!r} in collection "
                                 f"{scope.collection!r}")

    async def seed(self, run: Run) -> bool:
        starts = await run.store(self._starts, run)
        for candidate in starts:
            run.state.frontier.push(candidate)
        run.note.offered = [c.id for c in starts]
        return bool(starts)

    def _starts(self, run: Run) -> list[Candidate]:
        found = self.search(run)
        nav, scope = self.nav, run.deps.scope
        if nav.start_key is not None:
            keys = [nav.start_key]
        elif nav.start_nodes == "$roots":
            return self._roots(run, found)
        elif nav.start_nodes not in (None, "$hits"):
            keys = [k.strip() for k in nav.start_nodes.split(",") if k.strip()]
        else:
            return self._hits(run, found)
        docs = scope.resolve_keys(keys, scope.collection, field=START_FIELD)
        missing = [key for key in keys if key not in docs]
        if missing and not docs:
            run.end_walk("no_evidence", missing_start(scope, missing))
        elif missing:
            run.note.detail = missing_start(scope, missing)
        return self._enter(run, [root(docs[key]) for key in keys if key in docs])

    def _hits(self, run: Run, found: list[Found]) -> list[Candidate]:
        """Every seed hit competes in the frontier (an agentic walk's model is offered the best of them)."""
        self.seeds = found
        out = []
        for f in found:
            c = self.candidate(run, f.passage, 0, "seed")
            if c is not None:
                out.append(c)
        return out

    def _roots(self, run: Run, found: list[Found]) -> list[Candidate]:
        scope = run.deps.scope
        if self.user_tree:
            roots = graph_roots(scope, _collection_id(run), scope.collection or "", self.graph, self.edge_types)
            best: dict[str, float] = {}
            for f in found:
                best.setdefault(f.passage.document_key, run.scorer.passage(f.passage))
            nodes = [root(doc) for doc in roots]
            nodes.sort(key=lambda n: (-best.get(n.doc.key, run.scorer.node(n) or 0.0), n.doc.key))
        else:  # every document is a root of its section tree: those the seed hits rank
            docs = scope.documents(dict.fromkeys((f.passage.document_id, f.passage.version) for f in found))
            nodes = [root(doc) for doc in docs.values()]
        return self._enter(run, nodes)

    def _enter(self, run: Run, nodes: list[Node]) -> list[Candidate]:
        """Root nodes at depth 0, each with its lead passage: the first start is taken first."""
        out: list[Candidate] = []
        for rank, node in enumerate(nodes):
            opened = self.candidate(run, node, 0, "start") if self.applied.max_depth > 0 else None
            first = self.start(run, node, rank)
            out.extend(c for c in (first, opened) if c is not None)
        return out

    def finish(self, run: Run) -> None:
        """A ranked walk seeded by its search hits ends holding the flat pack's best hits where they are
        worth more than its weakest takes (``clew.agent.floor``); a walk from named starts, or one a
        model chose, keeps what it took."""
        if self.seeds is not None and self.nav.selection == "ranked":
            apply_floor(run, self, self.seeds)

    # -- offering ------------------------------------------------------------------------
    async def offer(self, run: Run) -> list[Candidate]:
        ranked = self.offerable(run, self.applied.beam_width)
        if not ranked:
            run.end_walk("exhausted_frontier", "frontier exhausted")
        return ranked

    def node_score(self, run: Run, node: Node) -> float | None:
        best = super().node_score(run, node)
        if best is None and self.user_tree and node.is_root:
            return 0.0  # a document of a user tree still leads to its child documents
        return best

    # -- visiting --------------------------------------------------------------------------
    async def visit(self, run: Run, chosen: Candidate) -> bool:
        run.state.frontier.mark(chosen)
        run.note.chosen = [chosen.id]
        run.note.tree = TreeNavigation(depth=chosen.depth, branched_from=chosen.origin)
        passage = chosen.passage
        if passage is not None:
            if self.take(run, chosen, passage, depth=chosen.depth, step=None):
                await run.store(self._after_take, run, chosen, passage)
        else:
            await run.store(self._open, run, chosen)
        return False

    def _after_take(self, run: Run, chosen: Candidate, passage: Passage) -> None:
        if run.state.full is not None:  # full: packing only
            return
        scope, frontier = run.deps.scope, run.state.frontier
        rest = self._rest_of_unit(run, passage)
        if rest is not None and rest.evidence_id not in frontier.visited:
            # the passage was cut inside a paragraph, list or entry: its rest is read with it
            c = self.candidate(run, rest, chosen.depth, "continued", passage.evidence_id, priority=chosen.priority)
            if c is not None:
                frontier.push(c)
        self._push_neighbours(run, chosen, passage, introduced_only=chosen.via != "seed")
        if chosen.depth >= self.applied.max_depth:
            return
        if chosen.via in ENTRIES:
            doc = scope.document(passage.document_id, passage.version)
            if doc is not None:
                node = self._entry(run, doc, passage.ordinal)
                c = self.candidate(run, node, chosen.depth, chosen.via, passage.evidence_id,
                                   ADJACENCY_BONUS * run.scorer.top)
                if c is not None:
                    frontier.push(c)
        if self.nav.follow_links and has_links(scope, passage):
            if not run.optional_tool_call("expand_neighbors(links)"):
                return
            bonus = link_bonus(run.deps.limits.context_budget_tokens) * chosen.score
            candidates = []
            for link in link_targets(scope, passage):
                if isinstance(link.target, Passage):
                    targets: list[Passage | None] = [link.target]
                else:  # a whole document: its best passage, and where a reader starts it
                    visited = frontier.visited_in(link.target)
                    start = opening(link.target, visited)
                    targets = [self._best_passage(run, link.target), start, _past_lead(link.target, start, visited)]
                for target in targets:
                    if target is not None and target.evidence_id not in frontier.visited:
                        candidates.append(self.candidate(run, target, chosen.depth + 1, "links", passage.evidence_id,
                                                         bonus))
            self._push_best(run, candidates)

    def _push_neighbours(self, run: Run, chosen: Candidate, passage: Passage, introduced_only: bool = False) -> None:
        """A seed hit's passages right before and after it compete at once, without opening the
        section first: the one after in any section (the list a heading introduced, the lines an
        entry goes on with) at its own worth plus ``NEIGHBOUR_BONUS`` times the best seed's, and
        at least ``neighbour_floor`` times the hit's own priority (a short tail that goes on with
        the hit in words the question does not use: 'To un-deprecate a package, ...'; a smaller
        share below 2,000 tokens); the one before likewise only when it shares a section with the
        hit. The passage before a section's first is the previous section's tail (on Bootstrap's
        pages a 250-300-token HTML example), no part of what the hit says: it competes at its own
        worth, and so does the one after that opens the next term of the hit's definition list
        (``_next_term``: on a man page the next option, 'git rebase -X' -> '--rerere-autoupdate').

        A fenced example gets no bonus for where it was found (``priced``), but the one after a
        hit that itself ends in a fenced block, in the hit's section, is the rest of that block's
        example cut in two (gitrevisions' commit graph, then its table of names): it keeps the
        neighbour's priority (issue 36, task W4: docs/measurements/walk-2026-12-05.md). So does the
        code block or list opening the passage after any taken one (``introduced_only``: not a seed
        hit) that ends in a lead-in ending in ':' (``_introduces``: 'Let's assume you want to bind
        ... context variables:', then the Flask example; issues 35/36, task W6)."""
        doc = run.deps.scope.document(passage.document_id, passage.version)
        if doc is None:
            return
        frontier, budget = run.state.frontier, run.deps.limits.context_budget_tokens
        for ordinal in (passage.ordinal - 1, passage.ordinal + 1):
            if not 0 <= ordinal < len(doc.skeleton.chunks) or (introduced_only and ordinal < passage.ordinal):
                continue
            neighbour = passage_of(doc, ordinal)
            if neighbour.evidence_id in frontier.visited:
                continue
            introduced = ordinal > passage.ordinal and _introduces(passage, neighbour)
            if introduced_only and not introduced:
                continue
            score = self.score_of(run, neighbour)
            if score is None:
                continue
            if ordinal < passage.ordinal:
                elsewhere = not set(neighbour.sections) & set(passage.sections)
            else:
                elsewhere = not introduced and _next_term(doc, passage, neighbour)
            priority = score if elsewhere else max(score + NEIGHBOUR_BONUS * run.scorer.top,
                                                   neighbour_floor(budget) * chosen.priority)
            goes_on = introduced or (ordinal > passage.ordinal and not elsewhere
                                     and neighbour.sections == passage.sections
                                     and passage.text.rstrip().endswith(FENCE))
            price = Walk.priced if goes_on else self.priced  # the rest of a fenced example keeps its priority
            frontier.push(price(run, neighbour, score, chosen.depth, "adjacent", passage.evidence_id, priority))

    @staticmethod
    def _rest_of_unit(run: Run, passage: Passage) -> Passage | None:
        """The next passage when ``passage`` was cut inside a block (its body does not end a line)
        and the next one goes on in the same section: the two are one paragraph, list or entry."""
        if passage.kind != "text" or passage.body.endswith("\n"):
            return None
        doc = run.deps.scope.document(passage.document_id, passage.version)
        if doc is None or passage.ordinal + 1 >= len(doc.skeleton.chunks):
            return None
        following = passage_of(doc, passage.ordinal + 1)
        return following if following.kind == "text" and following.sections[:1] == passage.sections[-1:] else None

    def _entry(self, run: Run, doc: DocumentVersion, ordinal: int) -> Node:
        """Where a passage enters the tree: its own section (a table passage: its table), or the
        nearest node above that holds more than what was already visited."""
        node = entry_node(doc, ordinal)
        visited = run.state.frontier.visited_in(node)
        while node.parent is not None and all(o in visited or o == ordinal for o in node.passages):
            node = node.parent
        return node

    def _best_passage(self, run: Run, node: Node) -> Passage | None:
        """The unvisited passage under a node that scores best (where a link to a whole document leads)."""
        visited = run.state.frontier.visited_in(node)
        # scored by ordinal, the one passage made at the end (a document's every passage was made to be scored)
        left = [o for o in node.passages if o not in visited]
        best = max(zip(run.scorer.worths(node.doc, left), (-o for o in left)), default=None)
        return None if best is None else passage_of(node.doc, -best[1])

    def _open(self, run: Run, chosen: Candidate) -> None:
        node = chosen.node
        assert node is not None  # noqa: S101
        if not run.optional_tool_call("navigate_document_tree(children)"):
            return
        depth = chosen.depth + 1
        frontier = run.state.frontier
        visited = frontier.visited
        children = [(c, i) for c in tree_children(node) if (i := _id(c)) not in visited]
        if self.user_tree and node.is_root:
            children += [(r, r.id) for doc in child_documents(run.deps.scope, node.doc, self.graph, self.edge_types)
                         if (r := root(doc)).id not in visited]
        taken = frontier.visited_in(node)
        holds_evidence = any(o in taken for o in node.passages)
        bonus = ADJACENCY_BONUS * run.scorer.top if holds_evidence else 0.0
        # as _push_best ranks them, but a candidate made only of the best beam_width children (a node
        # opens a dozen on average, three join the frontier): a node too deep to open is not priced
        priced: list[tuple[float, str, Passage | Node, float]] = []
        for child, child_id in children:
            if not isinstance(child, Passage) and depth >= self.applied.max_depth:
                continue
            score = self.score_of(run, child)
            if score is not None:
                priced.append((-(score + bonus), child_id, child, score))
        priced.sort(key=lambda entry: (entry[0], entry[1]))
        origin = node.id
        for _, _, child, score in priced[:self.applied.beam_width]:
            via = "children" if isinstance(child, Passage) or child.doc is node.doc else "child_documents"
            frontier.push(self.priced(run, child, score, depth, via, origin, score + bonus))

    @staticmethod
    def priced(run: Run, target: Passage | Node, score: float, depth: int, via: str, origin: str | None,
               priority: float) -> Candidate:
        """As any walk prices a candidate, but a passage that is one fenced code block and nothing
        else gets no bonus for where it was found (``ROUTED``): it holds an example, not the prose
        the bonuses stand for (what a hit's section, a neighbour or a link goes on to say). On
        Bootstrap's pages such a block is a 250-300-token HTML example after each section's prose;
        at its section's children bonus it took the room of a seed hit that held the answer."""
        if priority > score and via in ROUTED and isinstance(target, Passage) and _code_only(target.text):
            priority = score
        return Walk.priced(run, target, score, depth, via, origin, priority)

    def _push_best(self, run: Run, candidates: list[Candidate | None]) -> None:
        """At most ``beam_width`` of them, best first, join the frontier (a node only where it can
        still be opened: above ``max_depth``)."""
        depth = self.applied.max_depth
        ranked = sorted((c for c in candidates if c is not None and (c.node is None or c.depth < depth)),
                        key=lambda c: (-c.priority, c.id))
        for candidate in ranked[:self.applied.beam_width]:
            run.state.frontier.push(candidate)


def _past_lead(node: Node, start: Passage | None, visited: Collection[int]) -> Passage | None:
    """Where a page's text starts when its opening is a lead line: a section of that one passage (a
    manual page's NAME, 'git-range-diff - Compare two commit ranges ...'), then, past anything that does
    not read as prose (its SYNOPSIS), the first passage that does (DESCRIPTION's). None when the opening
    section goes on, or that passage was visited (issue 36, task G1)."""
    if start is None:
        return None
    chunks = node.doc.skeleton.chunks
    lead = chunks[start.ordinal].sections[:1]
    after = [o for o in node.passages if o > start.ordinal]
    if not after or any(chunks[o].sections[:1] == lead for o in after):
        return None
    for ordinal in after:
        passage = passage_of(node.doc, ordinal)
        if reads_as_prose(passage.text):
            return None if ordinal in visited else passage
    return None


def _next_term(doc: DocumentVersion, passage: Passage, following: Passage) -> bool:
    """Whether ``following`` (the passage right after ``passage``) opens the next term of the
    definition list ``passage`` is an entry of: the first passage of a section beside the hit's,
    under the same parent, whose heading is a term (a ``dt`` is a heading without ``#``:
    ``clew.corpus.ingest.formats.html_blocks``). On a man page's OPTIONS that is the next option,
    no part of what the hit says; a Markdown page's next section (a ``#`` heading: npm's 'Default
    Configs' after 'Environment Variables') goes on with it, and keeps the neighbour's priority."""
    if not passage.sections or not following.sections:
        return False
    sk = doc.skeleton
    mine, theirs = passage.sections[0], following.sections[0]
    node = sk.nodes[theirs]
    return (theirs != mine and node.first_chunk == following.ordinal and node.parent == sk.nodes[mine].parent
            and not following.text.lstrip().startswith("#"))


_ITEM = re.compile(r"(?:[-*+]|\d{1,3}[.)])\s")
"""A list item's marker, as the readers write one (``clew.agent.units`` reads items so)."""


def _introduces(passage: Passage, following: Passage) -> bool:
    """Whether ``passage`` ends (after trailing blanks) in a sentence ending in ':' and
    ``following``, the passage right after it, opens with a code block or a list: what the
    lead-in introduces, cut into the next passage."""
    last = passage.text.rstrip().rpartition("\n")[2].strip()
    if not last.endswith(":") or last.startswith(("#", FENCE)):
        return False
    opening = following.text.lstrip()
    return opening.startswith(FENCE) or _ITEM.match(opening) is not None


def _code_only(text: str) -> bool:
    """One fenced code block and nothing else: an example. Every reader fences the code it knows as
    Markdown does (HTML's ``pre``, PDF's monospace runs: ``clew.corpus.ingest.formats.fences``, since
    95d9f2d); code of a corpus ingested before then, or DOCX's (whose reader marks none), is unfenced
    and not seen here."""
    stripped = text.strip()
    return stripped.startswith(FENCE) and stripped.endswith(FENCE) and stripped.count(FENCE) == 2


def _id(target: Passage | Node) -> str:
    return target.evidence_id if isinstance(target, Passage) else target.id


def _collection_id(run: Run) -> int:
    return run.deps.corpus.collection_id(run.deps.scope.collection or "")
