"""What the tree and the graph walk share: the seed search, taking a passage, pricing offers.

Only the navigation layer's typed functions and the search API are read here (no SQL): a
walk sees exactly what its scope lets it see.
"""

from __future__ import annotations

import functools
from typing import Literal

from clew.agent.evidence import text_key
from clew.agent.frontier import Candidate
from clew.agent.prompts import block_tokens
from clew.agent.request import Applied, Navigation
from clew.agent.result import EvidenceHit, Instruction
from clew.agent.run import Run
from clew.agent.states import State
from clew.budgets.tokens import passage_tokens
from clew.corpus.documents import keys_meant, readable_titles
from clew.corpus.reader import Passage, Scope
from clew.corpus.search.api import Found, SearchRequest, search_passages
from clew.errors import BudgetExhausted, ClewError
from clew.navigation.core import Node, lead

START_FIELD = "steps.retrieval.navigation.start_key"


def missing_start(scope: Scope, keys: list[str]) -> str:
    """What a walk says of starts that name no readable document (a denied one reads the same), each with the
    keys meant where there are some (``clew.corpus.documents.keys_meant``, as ``clew outline`` offers them: a
    title typed for a key, ``--start-key 'Tags Overview'``, task S1)."""
    named, titles = [], readable_titles(scope)  # read once for every key
    for key in keys:
        near = keys_meant(scope, key, titles)
        named.append(repr(key) + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    return f"the start names no readable document: {', '.join(named)}"


class Walk:
    """Base of the walks (``clew.agent.run.WalkStrategy``): ``entry`` is SEED; subclasses place starts
    and make moves."""

    entry: Literal[State.SEED] = State.SEED
    permission: str | None = None
    packs = False
    """Once the best candidate no longer fits, take the found ones that still do (see ``offerable``)."""

    def __init__(self, nav: Navigation, applied: Applied) -> None:
        self.nav = nav
        self.applied = applied
        self.too_large = 0
        """Found passages set aside because they no longer fit the context tokens left."""
        self.needed: int | None = None
        """The tokens of the best passage that first did not fit (the context budget's stop names it)."""
        self.needed_id: str | None = None
        """Its id: the tree walk's floor may take it in after all."""
        self.taken: dict[str, Candidate] = {}
        """What each passage taken was taken as (its worth and route: ``clew.agent.floor`` weighs them)."""

    # -- the seed search ---------------------------------------------------------------
    def search(self, run: Run) -> list[Found]:
        """The seed search (one tool call)."""
        deps = run.deps
        spec = deps.request.queries[self.nav.query_index]
        run.tool_call("search")
        text = spec.text(deps.request.query)
        mode = spec.mode if spec.asked else self.best_search(run)
        model, vector = None, None
        if mode != "bm25":  # the walk prices by the same embedding the search uses
            from clew.corpus.embedders import embedder_from_name
            from clew.corpus.search.embedded import default_model

            model = default_model(deps.corpus, deps.scope.collection)
            if model is not None:
                try:
                    vector = embedder_from_name(model).embed([text])[0]
                except ClewError:
                    if spec.asked:
                        raise
                    mode, model = "bm25", None  # the best search cannot embed here (say, no dense extra)
                else:
                    run.scorer.use_vectors(model, vector)
        run.state.choices["seed_mode"] = mode
        request = SearchRequest(query=text, mode=mode, limit=deps.request.query_limit(spec), max_chars=20_000,
                                embedding_model=model, field=spec.field)
        found, _ = search_passages(deps.scope, request, query_vector=vector)
        run.scorer.top = max((run.scorer.lexical_passage(f.passage) for f in found), default=0.0)
        return found

    @staticmethod
    def best_search(run: Run) -> Literal["bm25", "hybrid"]:
        """The seed search of a query that names none: hybrid where the collection has semantic
        embeddings, else BM25 (``seed_search``; and BM25 where their model cannot embed the question
        here: see ``search``)."""
        from clew.corpus.search.embedded import default_model, seed_search

        return seed_search(default_model(run.deps.corpus, run.deps.scope.collection))

    def candidate(self, run: Run, target: Passage | Node, depth: int, via: str, origin: str | None = None,
                  bonus: float = 0.0, priority: float | None = None) -> Candidate | None:
        """A candidate priced by the scorer (a node by the best unvisited passage under it; None if none)."""
        score = self.score_of(run, target)
        if score is None:
            return None
        return self.priced(run, target, score, depth, via, origin, score + bonus if priority is None else priority)

    def score_of(self, run: Run, target: Passage | Node) -> float | None:
        """What the scorer says a target is worth now (a node: its best unvisited passage; None if none)."""
        if isinstance(target, Passage):
            return run.scorer.passage(target)
        return self.node_score(run, target)

    @staticmethod
    def priced(run: Run, target: Passage | Node, score: float, depth: int, via: str, origin: str | None,
               priority: float) -> Candidate:
        """A candidate of a target already priced (``score_of``)."""
        if isinstance(target, Passage):
            return Candidate(target, score, priority, depth, via, origin, passage_tokens(target), text_key(target.text),
                             run.state.frontier.version)
        return Candidate(target, score, priority, depth, via, origin, 0, None, run.state.frontier.version)

    def price(self, run: Run, candidate: Candidate) -> float | None:
        """A candidate's score now: a passage's own, a node's best unvisited passage."""
        if candidate.passage is not None:
            return run.scorer.passage(candidate.passage)
        return self.node_score(run, candidate.node)  # type: ignore[arg-type]

    def start(self, run: Run, target: Passage | Node, rank: int) -> Candidate | None:
        """A start the request named: the first one is offered first."""
        priority = float("inf") if rank == 0 else None
        if isinstance(target, Node):
            target = lead(target) or target
        return self.candidate(run, target, 0, "start", priority=priority)

    def node_score(self, run: Run, node: Node) -> float | None:
        """What opening a node is worth: its best unvisited passage (None: nothing left under it)."""
        return run.scorer.node(node, run.state.frontier.visited_in(node))

    # -- offering ------------------------------------------------------------------------
    def offerable(self, run: Run, width: int) -> list[Candidate]:
        """The frontier's best candidates that can still be taken, priced afresh.

        A passage whose text is already in the evidence is skipped. When the best candidate
        left is a passage that no longer fits the context tokens left, the context budget is
        full: a walk that ``packs`` (the tree walk) then only takes the passages it already found
        that still fit, spending no more tool calls, and stops at the context budget when none is
        left (``BudgetExhausted``); another walk stops at once. Passages that cannot fit any more,
        and nodes once no tool call is left to open them, are set aside (the run counts them as
        left); a node set aside for want of tool calls is noted as a refusal.
        """
        st = run.state
        frontier = st.frontier
        texts = st.pack.texts  # text key -> the id holding it (``Pack.holds``, asked of every candidate here)
        left = st.budget.tokens_left
        too_large = []  # found in the same pass: re-pricing below drops no passage and spends nothing
        for c in list(frontier.items.values()):
            if c.text_key is not None:
                holder = texts.get(c.text_key)
                if holder is not None and holder != c.id:
                    frontier.mark(c)
                    continue
            if c.passage is not None and c.tokens > left:
                too_large.append(c)
        price = functools.partial(self.price, run)
        if st.full is None:
            best = frontier.ranked(price, 1)
            if best and best[0].passage is not None and best[0].tokens > left:
                self.needed, self.needed_id = best[0].tokens, best[0].id
                st.full = self.context_full(run)
                if not self.packs:
                    raise st.full
        closed = st.full is not None or st.budget.tool_calls_left == 0
        unopened = [c for c in frontier.items.values() if c.node is not None] if closed else []
        if unopened and st.full is None and st.pending is None:
            st.pending = BudgetExhausted(
                "max_tool_calls", f"{len(unopened)} node(s) left unopened: the tool calls ran out "
                f"(max_tool_calls={run.deps.limits.max_tool_calls}) with context tokens to spare")
        self.too_large += len(too_large)
        for c in unopened + too_large:
            frontier.set_aside(c)
        ranked = frontier.ranked(price, width)[:width]
        if not ranked:  # the walk is over: its pack is final
            self.finish(run)
        if not ranked and st.full is None and self.too_large:  # found passages were left for want of room
            limits, used = run.deps.limits, st.usage.context_tokens
            st.full = BudgetExhausted(
                "context_budget", f"context budget full ({used:,} of context_budget_tokens="
                f"{limits.context_budget_tokens:,}): {self.too_large:,} passage(s) found did not fit the "
                f"{st.budget.tokens_left:,} tokens left")
        if not ranked and st.full is not None:
            if self.needed is not None:  # said again with what the packing after it spent
                st.full = self.context_full(run)
            raise st.full
        return ranked

    def finish(self, run: Run) -> None:
        """What a walk does once nothing it found can be taken, before it stops (the tree walk's floor)."""

    def context_full(self, run: Run) -> BudgetExhausted:
        """The context budget's stop, from the best passage that did not fit (``needed``) and the run's usage now."""
        limits, used, left = run.deps.limits, run.state.usage.context_tokens, run.state.budget.tokens_left
        said = f"context budget full ({used:,} of context_budget_tokens={limits.context_budget_tokens:,}): "
        if self.needed_id in run.state.pack.hits:  # the floor took it in, in place of weaker takes
            return BudgetExhausted("context_budget", f"{said}{left:,} tokens were left after the floor's swaps")
        return BudgetExhausted("context_budget", f"{said}the next best passage needs {self.needed:,} tokens, "
                                                 f"{left:,} were left")

    # -- taking a passage ------------------------------------------------------------------
    def take(self, run: Run, chosen: Candidate, passage: Passage, *, depth: int | None, step: int | None) -> bool:
        """Put a passage in the evidence (its tokens charged); False when its text is already there."""
        st = run.state
        duplicate = st.pack.duplicate_of(passage)
        if duplicate is not None:
            run.note.detail = f"same text as {duplicate}: not taken again"
            return False
        near = st.pack.near_copy_of(passage.text, passage.document_key)
        if near is not None:
            run.note.detail = f"a near-copy of {near} (another document's): not taken"
            return False
        tokens = chosen.tokens if chosen.passage is passage else passage_tokens(passage)
        if run.deps.model is None:
            st.budget.spend_context(tokens)
        else:  # the answer prompt will show it in a block: keep room for the block's id and marker lines
            block = block_tokens(run.deps.marker, passage.evidence_id)
            st.budget.check_context(tokens + block)
            st.budget.spend_context(tokens)
            st.budget.reserve(st.budget.reserved + block)
        st.pack.take(EvidenceHit.of(passage, via=chosen.via, fetched=True, tokens=tokens, fields=run.deps.fields,
                                    score=chosen.score, depth=depth, step=step, origin=chosen.origin))
        self.taken[passage.evidence_id] = chosen
        self._instruction(run, passage)
        return True

    def _instruction(self, run: Run, passage: Passage) -> None:
        name = self.nav.instruction_field
        st = run.state
        if name is None or passage.document_key in st.instruction_sources:
            return
        st.instruction_sources.add(passage.document_key)
        value = passage.fields.get(name)
        if isinstance(value, str) and value.strip():
            st.instructions.append(Instruction(text=value.strip(), source=passage.document_key))
