"""Bounds of a whole run: wall-clock time, everything sent counted, retries and failures of any model."""

import asyncio
import json
import time
from typing import Any

import litellm
import pytest

from clew.agent.api import retrieve, retrieve_sync
from clew.agent.handlers import HANDLERS
from clew.agent.model import LiteLLMModel, ModelReply
from clew.agent.prompts import ANSWER_TASK, SELECT_TASK, data_block, shown_ids, system_prompt
from clew.agent.run import Run, schema_tokens
from clew.agent.selection import SELECT_TOOLS
from clew.agent.states import State
from clew.budgets.tokens import count_tokens
from clew.corpus.store import Corpus
from clew.errors import InputError, ModelError
from clew.testing import FunctionModel, reply_text, reply_tool_call
from clew.tools.builtin import registry

from .conftest import tree_request
from .test_agent_model import provider  # noqa: F401  (the fixture)

pytestmark = pytest.mark.filterwarnings(
    r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"
)


def run(corpus: Corpus, request: dict, model) -> object:  # noqa: ANN001
    return asyncio.run(retrieve({**request, "include_steps": True}, corpus=corpus, model=model))


def test_a_run_past_its_timeout_ends_incomplete_with_the_evidence_so_far(runbooks: Corpus) -> None:
    async def slow(messages: list[dict], tools: list[dict] | None) -> dict:
        if sum(m["role"] == "tool" for m in messages):  # the first choice is quick, then the model hangs
            await asyncio.sleep(30)
        return reply_tool_call("navigate", {"evidence_id": shown_ids(messages[-1]["content"])[0]})

    request = tree_request("who is paged for SEV1", "runbooks", selection="agentic")
    request["timeout_seconds"] = 1.5
    result = run(runbooks, request, FunctionModel(slow))
    assert (result.status, result.stop_reason) == ("incomplete", "timeout")
    assert result.detail == "the run took longer than timeout_seconds=1.5"
    assert result.hits and result.applied["timeout_seconds"] == 1.5
    assert result.steps[-1].next_state == "incomplete" and result.steps[-1].refused


def test_a_walk_without_a_model_stops_at_its_timeout_between_steps(runbooks: Corpus,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Read inline, no step of a ranked walk waits on anything a timer could interrupt: the
    deadline is checked before each step."""
    seed = HANDLERS[State.SEED]

    async def slow_seed(run: Run) -> State:
        time.sleep(1.05)  # a store read that takes longer than the whole run may
        return await seed(run)

    monkeypatch.setitem(HANDLERS, State.SEED, slow_seed)
    request = {**tree_request("who is paged for SEV1", "runbooks"), "timeout_seconds": 1, "include_steps": True}
    result = retrieve_sync(request, corpus=runbooks)
    assert (result.status, result.stop_reason) == ("incomplete", "timeout")
    assert result.detail == "the run took longer than timeout_seconds=1"
    assert [s.state for s in result.steps] == ["validate", "seed", "offer"]
    assert result.steps[-1].next_state == "incomplete" and result.steps[-1].refused


def test_timeout_seconds_is_clamped_and_must_be_a_number() -> None:
    from clew.agent.request import parse_request

    assert parse_request({"query": "q", "timeout_seconds": 0}).limits().timeout_seconds == 1.0
    assert parse_request({"query": "q", "timeout_seconds": 10**9}).limits().timeout_seconds == 3600.0
    assert parse_request({"query": "q"}).limits().timeout_seconds == 600.0
    with pytest.raises(InputError) as caught:
        parse_request('{"query": "q", "timeout_seconds": "soon"}')
    assert caught.value.field == "timeout_seconds"


def test_the_server_default_timeout_reaches_requests(tmp_path) -> None:  # noqa: ANN001
    from clew.config.settings import ServerConfig
    from clew.corpus.reader import Scope
    from clew.surface import surface
    from clew.tools.registry import ToolContext

    config = ServerConfig(budgets={"timeout_seconds": 42})
    with Corpus(tmp_path / "empty.duckdb") as corpus:
        context = ToolContext(Scope(corpus), request_defaults=config.request_defaults())
        request = surface.get("retrieve").validate({"query": "q"}, context)
    assert request.limits().timeout_seconds == 42.0  # type: ignore[attr-defined]


def test_retries_are_charged_when_a_model_instance_is_passed(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    timeout = litellm.Timeout(message="slow", model="m", llm_provider="clew-test-flaky")
    handler = provider([timeout, timeout])
    request = tree_request("who is paged for SEV1", "runbooks")
    result = run(runbooks, request, LiteLLMModel("clew-test-flaky/m", wait_initial=0))
    assert result.status == "ok", result.detail
    assert handler.calls == 3 and result.usage.retries == 2 and result.usage.model_calls == 1


def test_retries_of_a_call_that_gave_up_are_charged(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    timeout = litellm.Timeout(message="slow", model="m", llm_provider="clew-test-flaky")
    provider([timeout] * 3)
    request = tree_request("who is paged for SEV1", "runbooks")
    result = run(runbooks, request, LiteLLMModel("clew-test-flaky/m", retries=2, wait_initial=0))
    assert (result.status, result.stop_reason) == ("failed", "model_error")
    assert result.usage.retries == 2 and "gave up after attempt 3" in result.detail


def test_a_custom_model_raising_anything_ends_failed_with_the_evidence(runbooks: Corpus) -> None:
    class Broken:
        name = "broken"

        async def complete(self, messages, tools=None, *, tool_choice=None) -> ModelReply:  # noqa: ANN001
            raise KeyError("choices")

    result = run(runbooks, tree_request("who is paged for SEV1", "runbooks"), Broken())
    assert (result.status, result.stop_reason) == ("failed", "model_error")
    assert result.detail == "broken: KeyError: 'choices'" and result.hits


def test_a_custom_model_error_keeps_its_message(runbooks: Corpus) -> None:
    class Refusing:
        name = "refusing"

        async def complete(self, messages, tools=None, *, tool_choice=None) -> ModelReply:  # noqa: ANN001
            raise ModelError("refusing", "quota spent", retryable=True, attempts=4)

    result = run(runbooks, tree_request("who is paged for SEV1", "runbooks"), Refusing())
    assert (result.status, result.detail, result.usage.retries) == ("failed", "refusing: quota spent", 3)


def test_a_free_run_counts_the_tool_schemas_it_sends(runbooks: Corpus) -> None:
    def answer(messages: list[dict], tools: list[dict] | None) -> dict:
        return reply_text("nothing to cite")

    model = FunctionModel(answer)
    request = {"query": "who is paged", "queries": [{"collection": "runbooks"}], "context_budget_tokens": 8000}
    result = run(runbooks, request, model)
    sent = model.requests[0]
    everything = schema_tokens(sent.tools) + sum(count_tokens(m["content"]) for m in sent.messages)
    assert schema_tokens(sent.tools) > 1000 and result.usage.context_tokens == everything


def test_a_budget_too_small_for_the_tool_schemas_is_a_clear_error(runbooks: Corpus) -> None:
    model = FunctionModel(lambda messages, tools: reply_text("unreachable"))
    request = {"query": "who is paged", "queries": [{"collection": "runbooks"}], "context_budget_tokens": 256}
    with pytest.raises(InputError) as caught:
        run(runbooks, request, model)
    assert caught.value.field == "context_budget_tokens"
    assert "3 tool schemas" in caught.value.message and "context_budget_tokens=256" in caught.value.message
    assert not model.requests  # refused before any model call


def test_a_budget_too_small_for_every_schema_offers_the_core_tools(runbooks: Corpus) -> None:
    from clew.agent.free import CORE_TOOLS

    def wander(messages: list[dict], tools: list[dict] | None) -> dict:
        if messages[-1]["role"] == "user":
            return reply_tool_call("grep", {"document": "incident-response.md", "pattern": "SEV1"})
        return reply_text("no answer")

    model = FunctionModel(wander)
    request = {"query": "who is paged", "queries": [{"collection": "runbooks"}], "context_budget_tokens": 2000}
    result = run(runbooks, request, model)
    assert result.applied["tools"] == sorted(CORE_TOOLS)
    assert sorted(t["function"]["name"] for t in model.requests[0].tools) == sorted(CORE_TOOLS)
    assert result.usage.context_tokens <= 2000
    refusal = model.requests[1].messages[-1]["content"]  # a tool it was not offered is refused, listing the valid ones
    assert "unknown tool 'grep'" in refusal and "Valid tools: fetch_evidence, navigate_document_tree, search" in refusal
    everything = run(runbooks, {**request, "context_budget_tokens": 8192}, FunctionModel(wander))
    assert everything.applied["tools"] == registry.names()


def test_an_agentic_walk_counts_its_choice_tools(runbooks: Corpus) -> None:
    def finish(messages: list[dict], tools: list[dict] | None) -> dict:
        return reply_tool_call("finish", {}) if tools else reply_text("done")

    model = FunctionModel(finish)
    result = run(runbooks, tree_request("who is paged for SEV1", "runbooks", selection="agentic"), model)
    first = model.requests[0]
    assert result.usage.context_tokens >= schema_tokens(SELECT_TOOLS) + sum(
        count_tokens(m["content"]) for m in first.messages)


def test_ids_stand_alone_never_beside_the_marker() -> None:
    block = data_block("ae5015b32403", "ev1:c:9:1:40", "Roll back first.")
    lines = block.splitlines()
    assert lines == ["ev1:c:9:1:40", "<<data ae5015b32403>>", "Roll back first.", "<<end data ae5015b32403>>"]
    assert shown_ids("Candidates:\n" + block + "\n\n" + data_block("m", "ev1:c:1:1:2", "x")) == ["ev1:c:9:1:40",
                                                                                            "ev1:c:1:1:2"]


@pytest.mark.parametrize("task", [ANSWER_TASK, SELECT_TASK])
def test_no_prompt_carries_an_example_id(task: str) -> None:
    text = system_prompt("ae5015b32403", [], task)
    assert "ev1:" not in text and "[ev1" not in json.dumps(text)


def test_a_ranked_walk_that_fills_its_budget_keeps_room_for_the_answer_prompt(tmp_path) -> None:  # noqa: ANN001
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS

    folder = tmp_path / "pager"
    folder.mkdir()
    rules = [f"Rule {i}: the on-call engineer pages the incident commander within {i} minutes of a SEV1."
             for i in range(150)]
    (folder / "paging.md").write_text("# Paging\n\n" + "\n\n".join(rules) + "\n")

    def cite_first(messages: list[dict], tools: list[dict] | None) -> dict:
        return reply_text(f"The on-call engineer pages [{shown_ids(messages[-1]['content'])[0]}].")

    model = FunctionModel(cite_first)
    with Corpus(tmp_path / "pager.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="pager", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        request = tree_request("who pages the incident commander for a SEV1", "pager")
        request["queries"][0].pop("limit")
        request["context_budget_tokens"] = 2000
        result = run(corpus, request, model)
    assert result.usage.model_calls == 1 and result.generation is not None and result.generation.citations
    assert (result.status, result.stop_reason) == ("incomplete", "context_budget")  # the walk used its budget
    sent = model.requests[0].messages
    counted = sum(count_tokens(m["content"]) for m in sent)
    assert result.usage.context_tokens <= 2000 and abs(result.usage.context_tokens - counted) <= 1 + len(result.hits)
    assert counted > 1500


def test_a_reply_that_is_no_call_is_quoted_in_the_steps(runbooks: Corpus) -> None:
    model = FunctionModel(lambda messages, tools: reply_text("The answer is: 1.\n\nThe answer is: 1."))
    result = run(runbooks, tree_request("who is paged for SEV1", "runbooks", selection="agentic"), model)
    details = [s.detail for s in result.steps if s.state == "select"][:2]
    assert details == ['the reply neither chose nor finished ("The answer is: 1. The answer is: 1."): asked once more',
                       'the model answered instead of choosing ("The answer is: 1. The answer is: 1."): the ranked '
                       'choice, and the ranking chooses from here on']


def counting(executed: list[str], name: str, function):  # noqa: ANN001, ANN201
    def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        executed.append(name)
        return function(*args, **kwargs)
    return wrapper


@pytest.mark.parametrize("cap", [1, 2, 4, 20])
def test_a_graph_walk_charges_every_tool_operation_before_it_runs(runbooks: Corpus, monkeypatch: pytest.MonkeyPatch,
                                                                  cap: int) -> None:
    import clew.agent.graph as graph_module
    import clew.agent.walk as walk_module

    executed: list[str] = []
    monkeypatch.setattr(walk_module, "search_passages", counting(executed, "search", walk_module.search_passages))
    monkeypatch.setattr(graph_module, "neighbours", counting(executed, "neighbours", graph_module.neighbours))
    request = {"query": "incident failover rollback", "queries": [{"collection": "runbooks", "limit": 5}],
               "max_tool_calls": cap, "steps": {"retrieval": {"navigation": {
                   "strategy": "graph", "selection": "ranked", "index": "workflow", "max_steps": 8}}}}
    result = run(runbooks, request, None)
    assert len(executed) == result.usage.tool_calls <= cap


@pytest.mark.parametrize("cap", [1, 3, 20])
def test_a_free_run_charges_every_tool_call_before_it_runs(runbooks: Corpus, monkeypatch: pytest.MonkeyPatch,
                                                           cap: int) -> None:
    executed: list[str] = []
    original = registry.acall

    async def acall(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        executed.append("acall")
        return await original(*args, **kwargs)

    monkeypatch.setattr(registry, "acall", acall)

    def searches(messages: list[dict], tools: list[dict] | None) -> dict:
        return reply_tool_call("search", {"query": "incident database deploy", "limit": 2})

    request = {"query": "everything", "queries": [{"collection": "runbooks"}], "max_tool_calls": cap,
               "max_internal_iterations": 50, "context_budget_tokens": 100_000}
    result = asyncio.run(retrieve(request, corpus=runbooks, model=FunctionModel(searches), offload=False))
    assert len(executed) == result.usage.tool_calls == cap
    assert (result.status, result.stop_reason) == ("incomplete", "max_tool_calls")
