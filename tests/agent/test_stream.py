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
