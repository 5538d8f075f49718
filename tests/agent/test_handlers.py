"""Each state handler on its own, one test per transition the table lets it make.

A run is built as ``clew.agent.api.retrieve`` builds it, over the demo's runbooks in a real
DuckDB file; a test drives the handlers before the one it checks (as the controller would) and
then calls that one handler. The controller's own exits (a budget running out, a failure) are
checked on ``Controller._exhausted`` and on a whole run; the table test in ``test_states.py``
checks that handlers and exits together are the table.
"""

import asyncio
from typing import Any

import pytest

from clew.agent import handlers
from clew.agent.api import plan
from clew.agent.controller import Controller
from clew.agent.model import Model
from clew.agent.prompts import new_marker
from clew.agent.request import parse_request
from clew.agent.run import Choice, Deps, Run, RunState
from clew.agent.scoring import Scorer
from clew.agent.selection import selector_for
from clew.agent.states import TRANSITIONS, State
from clew.agent.strategy import strategy_for
from clew.budgets.limits import Budget, Usage
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import BudgetExhausted
from clew.testing import ScriptedModel, reply_text, reply_tool_call

QUESTION = "How do I promote the database replica?"


def build(corpus: Corpus, request: dict[str, Any], model: Model | None = None) -> Run:
    """The run ``retrieve`` would start for ``request`` (its VALIDATE not yet made)."""
    req = plan(parse_request(request), model, corpus)
    spec = req.seed_query
    scope = Scope(corpus, req.principal, spec.collection if spec else None, spec.filter if spec else None)
    deps = Deps(corpus=corpus, request=req, limits=req.limits(), applied=req.applied(), scope=scope, model=model,
                marker=new_marker(), fields=spec.fields if spec else None, offload=False)
    nav = req.navigation
    return Run(deps=deps, state=RunState(budget=Budget(deps.limits, Usage())), strategy=strategy_for(req, deps.applied),
               selector=selector_for(nav.selection if nav else None), scorer=Scorer(scope, req.query))


def walk(strategy: str = "tree", selection: str = "ranked", query: str = QUESTION, **navigation: Any) -> dict:
    navigation = {"strategy": strategy, "selection": selection, **navigation}
    if strategy == "graph":
        navigation.setdefault("index", "workflow")
    return {"query": query, "queries": [{"collection": "runbooks", "limit": 5}],
            "steps": {"retrieval": {"navigation": navigation}}}


FREE = {"query": QUESTION, "queries": [{"collection": "runbooks"}], "context_budget_tokens": 8192}


def step(run: Run, state: State) -> State:
    """Run the handler of ``state`` once, as the controller does; the target must be in the table."""
    target = asyncio.run(handlers.HANDLERS[state](run))
    assert target in TRANSITIONS[state]
    return target


def until(run: Run, *states: State) -> None:
    """Drive the handlers through ``states`` in order (each must lead to the next)."""
    for current, expected in zip(states, states[1:], strict=False):
        assert step(run, current) == expected, current


# -- VALIDATE ---------------------------------------------------------------------------------
def test_validate_leads_a_walk_to_seed(runbooks: Corpus) -> None:
    assert step(build(runbooks, walk()), State.VALIDATE) == State.SEED


def test_validate_leads_a_free_run_to_act(runbooks: Corpus) -> None:
    run = build(runbooks, FREE, ScriptedModel([]))
    assert step(run, State.VALIDATE) == State.ACT
    assert "search" in run.state.choices["tools"]  # the free run chose its tools


def test_validate_fails_a_walk_the_principal_may_not_make(runbooks: Corpus) -> None:
    run = build(runbooks, {**walk(), "principal": {"name": "p", "tools": ["search", "graph_search"]}})
    assert step(run, State.VALIDATE) == State.FAILED
    assert run.state.stop_reason == "permission_denied" and run.note.refused
    assert run.state.detail == "tree navigation needs the tree_search permission"


# -- SEED -------------------------------------------------------------------------------------
def test_seed_offers_what_the_search_found(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED)
    assert step(run, State.SEED) == State.OFFER
    assert run.state.frontier.left > 0 and run.state.usage.tool_calls == 1  # the seed search


def test_seed_with_nothing_found_generates(runbooks: Corpus) -> None:
    run = build(runbooks, walk(query="zebra xylophone quokka"))
    until(run, State.VALIDATE, State.SEED)
    assert step(run, State.SEED) == State.GENERATE
    assert run.state.walk_end == "no_evidence" and run.state.frontier.left == 0


# -- OFFER ------------------------------------------------------------------------------------
def test_offer_presents_the_best_candidates(runbooks: Corpus) -> None:
    run = build(runbooks, walk(beam_width=2))
    until(run, State.VALIDATE, State.SEED, State.OFFER)
    assert step(run, State.OFFER) == State.SELECT
    assert 0 < len(run.state.offered) <= 2 and run.note.offered == [c.id for c in run.state.offered]
    assert run.state.usage.iterations == 1


def test_offer_with_the_frontier_exhausted_generates(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED, State.OFFER)
    run.state.frontier.clear()  # every candidate taken
    assert step(run, State.OFFER) == State.GENERATE
    assert run.state.walk_end == "exhausted_frontier"


# -- SELECT -----------------------------------------------------------------------------------
def test_select_visits_the_ranked_choice(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT)
    assert step(run, State.SELECT) == State.VISIT
    assert run.state.chosen is run.state.offered[0] and run.note.chosen_by == "ranked"


def test_select_asks_again_after_an_invalid_choice(runbooks: Corpus) -> None:
    model = ScriptedModel([reply_tool_call("navigate", {"evidence_id": "ev1:c:999:1:0"})])
    run = build(runbooks, walk(selection="agentic"), model)
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT)
    assert step(run, State.SELECT) == State.SELECT
    assert run.note.refused and run.note.detail == "invalid choice: 'ev1:c:999:1:0' was not offered"
    assert run.state.messages[-1]["role"] == "tool"  # the repair, for the model's next turn


def test_select_ends_the_walk_when_the_selector_finishes(runbooks: Corpus) -> None:
    class Finishing:
        """A selector (``clew.agent.run.Selector``) that declares the walk over at once."""

        def present(self, run: Run, offered: list) -> None:
            return None

        def count_iteration(self, run: Run) -> None:
            return None

        async def choose(self, run: Run) -> Choice:
            return Choice(finished="enough evidence")

    run = build(runbooks, walk())
    run.selector = Finishing()
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT)
    assert step(run, State.SELECT) == State.GENERATE
    assert (run.state.walk_end, run.note.detail) == ("answered", "enough evidence")


# -- VISIT ------------------------------------------------------------------------------------
def test_visit_takes_the_choice_and_offers_again(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT, State.VISIT)
    chosen = run.state.chosen
    assert step(run, State.VISIT) == State.OFFER
    assert chosen is not None and chosen.id in run.state.frontier.visited
    assert chosen.passage is None or chosen.passage.evidence_id in run.state.pack.hits


def test_visit_past_max_steps_generates(runbooks: Corpus) -> None:
    run = build(runbooks, walk("graph", start_key="incident-response.md", edge_types=["next"], max_steps=1))
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT, State.VISIT, State.OFFER, State.SELECT,
          State.VISIT)
    assert step(run, State.VISIT) == State.GENERATE
    assert run.state.walk_end == "max_steps"
    assert [h.document_key for h in run.state.pack.hits.values()] == ["incident-response.md", "database-failover.md"]


# -- ACT --------------------------------------------------------------------------------------
def test_act_calls_a_tool_and_acts_again(runbooks: Corpus) -> None:
    model = ScriptedModel([reply_tool_call("search", {"query": "promote replica", "collection": "runbooks"})])
    run = build(runbooks, FREE, model)
    until(run, State.VALIDATE, State.ACT)
    assert step(run, State.ACT) == State.ACT
    assert run.state.tool_counts == {"search": 1} and run.state.pack.hits  # the hits it returned
    assert run.state.messages[-1]["role"] == "tool"


def test_act_generates_once_the_model_answers(runbooks: Corpus) -> None:
    run = build(runbooks, FREE, ScriptedModel([reply_text("Promote the replica with the failover script.")]))
    until(run, State.VALIDATE, State.ACT)
    assert step(run, State.ACT) == State.GENERATE
    assert run.state.answer_text == "Promote the replica with the failover script."


# -- GENERATE ---------------------------------------------------------------------------------
def test_generate_answers_from_the_evidence_and_is_done(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT, State.VISIT)
    step(run, State.VISIT)
    assert step(run, State.GENERATE) == State.DONE
    assert run.state.generation is not None and run.state.generation.kind == "extract"
    assert run.state.stop_reason == "answered"


def test_generate_without_evidence_is_incomplete(runbooks: Corpus) -> None:
    run = build(runbooks, walk(query="zebra xylophone quokka"))
    until(run, State.VALIDATE, State.SEED, State.GENERATE)
    assert step(run, State.GENERATE) == State.INCOMPLETE
    assert run.state.generation is None and run.state.stop_reason == "no_evidence"


# -- the controller's exits -------------------------------------------------------------------
SPENT = BudgetExhausted("max_tool_calls", "the next tool call would exceed max_tool_calls=1")


@pytest.mark.parametrize("state", [State.SEED, State.OFFER, State.SELECT, State.VISIT, State.ACT])
def test_a_spent_budget_generates_with_the_evidence_found_else_ends_incomplete(runbooks: Corpus,
                                                                               state: State) -> None:
    empty = build(runbooks, walk())
    assert Controller(empty)._exhausted(state, SPENT) == State.INCOMPLETE  # nothing found: nothing to answer from
    assert empty.state.stop_reason == "max_tool_calls"
    found = build(runbooks, walk())
    until(found, State.VALIDATE, State.SEED, State.OFFER, State.SELECT, State.VISIT)
    step(found, State.VISIT)
    assert Controller(found)._exhausted(state, SPENT) == State.GENERATE
    assert found.state.stop_reason == "max_tool_calls"


def test_a_budget_spent_while_generating_ends_incomplete(runbooks: Corpus) -> None:
    run = build(runbooks, walk())
    until(run, State.VALIDATE, State.SEED, State.OFFER, State.SELECT, State.VISIT)
    step(run, State.VISIT)
    assert Controller(run)._exhausted(State.GENERATE, SPENT) == State.INCOMPLETE


def test_a_model_failure_fails_the_run_from_the_state_it_struck(runbooks: Corpus) -> None:
    from clew.errors import ModelError

    model = ScriptedModel([ModelError("scripted", "the server is down", retryable=False, attempts=1)])
    run = build(runbooks, {**walk(selection="agentic"), "include_steps": True}, model)
    result = asyncio.run(Controller(run).execute())
    assert (result.status, result.stop_reason) == ("failed", "model_error")
    assert [(s.state, s.next_state) for s in result.steps or []][-1] == ("select", "failed")
