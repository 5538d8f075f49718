import asyncio

import pytest

from clew.agent.stream import ResultEvent, StepEvent, stream
from clew.corpus.store import Corpus
from clew.errors import InputError

from .conftest import tree_request


def collect(corpus: Corpus, request: dict) -> list:
    async def go() -> list:
        return [event async for event in stream(request, corpus=corpus)]

    return asyncio.run(go())


def test_steps_stream_in_order_then_the_result(runbooks: Corpus) -> None:
    events = collect(runbooks, tree_request("who is paged for SEV2", "runbooks"))
    steps = [e.step for e in events if isinstance(e, StepEvent)]
    assert isinstance(events[-1], ResultEvent) and all(isinstance(e, StepEvent) for e in events[:-1])
    assert [s.index for s in steps] == list(range(len(steps)))
    assert steps[0].state == "validate" and steps[-1].next_state in ("done", "incomplete")
    result = events[-1].result
    assert result.steps is None and result.summary.steps == len(steps)  # streamed: not repeated in the result
    asked = collect(runbooks, {**tree_request("who is paged for SEV2", "runbooks"), "include_steps": True})
    assert asked[-1].result.steps == [e.step for e in asked if isinstance(e, StepEvent)]


def test_a_bad_request_raises_from_the_stream(runbooks: Corpus) -> None:
    with pytest.raises(InputError) as caught:
        collect(runbooks, {"query": "  "})
    assert caught.value.field == "query"


def test_a_run_that_keeps_no_steps_summarises_them_as_one_that_returns_them(runbooks: Corpus) -> None:
    """Without include_steps or a stream no step record is built; the summary still counts the
    steps and the depth the walk reached, as a run returning its steps shows them."""
    from clew.agent.api import retrieve_sync

    request = tree_request("who is paged for SEV2", "runbooks")
    lean = retrieve_sync(request, corpus=runbooks)
    full = retrieve_sync({**request, "include_steps": True}, corpus=runbooks)
    assert lean.steps is None and full.steps is not None and lean.summary == full.summary
    depths = [s.tree_navigation.depth for s in full.steps if s.tree_navigation is not None]
    assert lean.summary.steps == len(full.steps) > 3 and lean.summary.depth_reached == max(depths) >= 1
