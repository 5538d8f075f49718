"""The model client over litellm's real code path, offline, and the fakes in clew.testing."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import litellm
import pytest
from litellm import CustomLLM, ModelResponse
from pydantic import ValidationError

from clew.agent.api import retrieve_sync
from clew.agent.model import (
    FORBIDDEN_MESSAGE,
    LiteLLMModel,
    Model,
    ModelReply,
    ToolCall,
    calls_forbidden,
    model_from_name,
)
from clew.budgets.tokens import count_tokens
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError, ModelError, ScriptExhausted
from clew.llm import run_loop
from clew.testing import FunctionModel, ModelRequest, ScriptedModel, reply_text, reply_tool_call, reply_tool_calls

# pydantic warns, once per class, that some of litellm's TypedDicts use ``ReadOnly``; litellm
# builds those schemas lazily inside its first calls, so whichever test comes first would fail.
pytestmark = pytest.mark.filterwarnings(
    r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"
)

MESSAGES = [{"role": "system", "content": "You navigate a corpus."}, {"role": "user", "content": "What is WAL?"}]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read",
            "description": "Read a passage.",
            "parameters": {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]},
        },
    }
]

T = TypeVar("T")
Register = Callable[[str, CustomLLM], CustomLLM]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return run_loop(coro)


def tool_call_response(name: str, arguments: str, call_id: str = "call_7") -> ModelResponse:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}],
    }
    return ModelResponse(
        model="clew-fake",
        choices=[{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        usage={"prompt_tokens": 31, "completion_tokens": 9, "total_tokens": 40},
    )


class Provider(CustomLLM):
    """A litellm custom provider: raises the scripted failures in turn, then answers."""

    def __init__(self, failures: list[Exception], answer: ModelResponse) -> None:
        super().__init__()
        self.failures = list(failures)
        self.answer = answer
        self.seen: list[dict] = []

    async def acompletion(self, *args: object, **kwargs: Any) -> ModelResponse:  # litellm's signature
        self.seen.append({"messages": kwargs["messages"], "optional_params": kwargs["optional_params"]})
        if self.failures:
            raise self.failures.pop(0)
        return self.answer


@pytest.fixture
def register(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, CustomLLM], CustomLLM]:
    """Register custom providers for one test only."""

    def add(name: str, handler: CustomLLM) -> CustomLLM:
        monkeypatch.setattr(
            litellm,
            "custom_provider_map",
            [*litellm.custom_provider_map, {"provider": name, "custom_handler": handler}],
        )
        return handler

    monkeypatch.setattr(litellm, "custom_provider_map", [])
    return add


def rate_limit() -> Exception:
    return litellm.RateLimitError(message="slow down", llm_provider="clew-test", model="m")


# --- litellm's real code path, offline -------------------------------------------------------


def test_mock_response_text_reply() -> None:
    model = LiteLLMModel("openai/gpt-4o-mini", mock_response="hello")
    reply = run(model.complete(MESSAGES))
    assert isinstance(model, Model)
    assert reply.content == "hello"
    assert reply.tool_calls == []
    # litellm's mock reports fixed usage (10 in, 20 out) whatever was sent, and prices it.
    assert (reply.input_tokens, reply.output_tokens) == (10, 20)
    assert reply.cost_usd is not None and reply.cost_usd > 0
    assert reply.model == "gpt-4o-mini"


def test_mock_tool_calls_are_parsed_from_the_message_not_the_finish_reason() -> None:
    calls = [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": '{"key": "wal.md"}'}}]
    model = LiteLLMModel("openai/gpt-4o-mini", mock_response="", mock_tool_calls=calls)
    reply = run(model.complete(MESSAGES, TOOLS, tool_choice="auto"))
    assert reply.tool_calls == [ToolCall(id="call_1", name="read", arguments='{"key": "wal.md"}')]


def test_custom_provider_tool_call(register: Register) -> None:
    provider = register("clew-test-tools", Provider([], tool_call_response("read", '{"key": "wal.md"')))
    reply = run(LiteLLMModel("clew-test-tools/any").complete(MESSAGES, TOOLS, tool_choice="required"))
    # the arguments stay the raw text the model sent, malformed or not
    assert reply.tool_calls == [ToolCall(id="call_7", name="read", arguments='{"key": "wal.md"')]
    assert reply.content is None
    assert (reply.input_tokens, reply.output_tokens) == (31, 9)
    assert reply.cost_usd is None  # an unpriced model: litellm cannot say, so neither do we
    assert provider.seen[0]["messages"] == MESSAGES
    assert provider.seen[0]["optional_params"]["tools"] == TOOLS
    assert provider.seen[0]["optional_params"]["tool_choice"] == "required"


# --- retries ---------------------------------------------------------------------------------


def test_transient_errors_are_retried_then_succeed(register: Register) -> None:
    register("clew-test-flaky", Provider([rate_limit(), rate_limit()], tool_call_response("read", "{}")))
    seen: list[tuple[int, type | None]] = []
    model = LiteLLMModel(
        "clew-test-flaky/m",
        wait_initial=0,
        on_attempt=lambda n, error: seen.append((n, type(error) if error else None)),
    )
    reply = run(model.complete(MESSAGES, TOOLS))
    assert reply.tool_calls[0].name == "read"
    assert seen == [(1, litellm.RateLimitError), (2, litellm.RateLimitError), (3, None)]


@pytest.mark.parametrize(
    "error",
    [
        litellm.Timeout(message="slow", llm_provider="clew-test", model="m"),
        litellm.APIConnectionError(message="reset", llm_provider="clew-test", model="m"),
        litellm.InternalServerError(message="oops", llm_provider="clew-test", model="m"),
        litellm.ServiceUnavailableError(message="busy", llm_provider="clew-test", model="m"),
        litellm.BadGatewayError(message="502", llm_provider="clew-test", model="m"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_each_transient_kind_is_retried(register: Register, error: Exception) -> None:
    provider = register("clew-test-flaky", Provider([error], tool_call_response("read", "{}")))
    reply = run(LiteLLMModel("clew-test-flaky/m", wait_initial=0).complete(MESSAGES))
    assert reply.tool_calls[0].name == "read"
    assert len(provider.seen) == 2


def test_backoff_grows_exponentially_with_jitter_and_a_cap(register: Register, monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def no_wait(seconds: float, *args: object) -> None:
        if seconds > 0:  # tenacity's waits; anything else sleeping 0 just yields
            waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", no_wait)
    register("clew-test-flaky", Provider([rate_limit() for _ in range(4)], tool_call_response("read", "{}")))
    run(LiteLLMModel("clew-test-flaky/m", retries=4, wait_initial=1, wait_max=3).complete(MESSAGES))
    # before retry n: min(2**(n-1), 3) seconds plus up to 1 s of jitter
    assert len(waits) == 4
    for wait, low in zip(waits, [1, 2, 3, 3], strict=True):
        assert low <= wait <= low + 1


def test_retries_run_out_with_a_retryable_model_error() -> None:
    attempts: list[int] = []
    model = LiteLLMModel(
        "openai/gpt-4o-mini", retries=2, wait_initial=0, mock_response="litellm.RateLimitError",
        on_attempt=lambda n, error: attempts.append(n),
    )
    with pytest.raises(ModelError) as caught:
        run(model.complete(MESSAGES))
    assert (caught.value.retryable, caught.value.attempts, caught.value.model) == (True, 3, "openai/gpt-4o-mini")
    assert isinstance(caught.value.__cause__, litellm.RateLimitError)
    assert "gave up after attempt 3" in str(caught.value)
    assert attempts == [1, 2, 3]


@pytest.mark.parametrize(
    "mock",
    [
        litellm.BadRequestError(message="bad tools", llm_provider="openai", model="gpt-4o-mini"),
        "litellm.ContextWindowExceededError",
        litellm.AuthenticationError(message="no key", llm_provider="openai", model="gpt-4o-mini"),
        litellm.NotFoundError(message="no such model", llm_provider="openai", model="gpt-4o-mini"),
    ],
    ids=["BadRequestError", "ContextWindowExceededError", "AuthenticationError", "NotFoundError"],
)
def test_bad_requests_are_not_retried(mock: object) -> None:
    attempts: list[int] = []
    model = LiteLLMModel(
        "openai/gpt-4o-mini", mock_response=mock, wait_initial=0, on_attempt=lambda n, e: attempts.append(n)
    )
    with pytest.raises(ModelError) as caught:
        run(model.complete(MESSAGES))
    assert (caught.value.retryable, caught.value.attempts) == (False, 1)
    assert isinstance(
        caught.value.__cause__, litellm.BadRequestError | litellm.AuthenticationError | litellm.NotFoundError
    )
    assert attempts == [1]


def test_an_attempt_callback_that_raises_stops_the_retries(register: Register) -> None:
    class OutOfBudget(ClewError):
        pass

    def charge(number: int, error: BaseException | None) -> None:
        if error is not None:
            raise OutOfBudget(f"attempt {number} failed and the budget is spent")

    provider = register("clew-test-flaky", Provider([rate_limit(), rate_limit()], tool_call_response("read", "{}")))
    with pytest.raises(OutOfBudget, match="attempt 1 failed"):
        run(LiteLLMModel("clew-test-flaky/m", wait_initial=0, on_attempt=charge).complete(MESSAGES))
    assert len(provider.seen) == 1


def test_clew_owns_the_retry_arguments() -> None:
    with pytest.raises(InputError) as caught:
        LiteLLMModel("openai/gpt-4o-mini", num_retries=5)
    assert caught.value.field == "num_retries"
    with pytest.raises(InputError) as caught:
        LiteLLMModel("openai/gpt-4o-mini", retries=-1)
    assert caught.value.field == "retries"


# --- the guard -------------------------------------------------------------------------------


def test_the_suite_forbids_model_calls() -> None:
    assert calls_forbidden()


def test_guard_refuses_a_real_call_before_any_attempt(register: Register) -> None:
    attempts: list[int] = []
    model = LiteLLMModel("openai/gpt-4o-mini", on_attempt=lambda n, e: attempts.append(n))
    with pytest.raises(ModelError) as caught:
        run(model.complete(MESSAGES))
    assert (
        caught.value.message == FORBIDDEN_MESSAGE == "real model calls are forbidden in tests (CLEW_FORBID_MODEL_CALLS)"
    )
    assert (caught.value.retryable, caught.value.attempts) == (False, 0)
    assert attempts == []


@pytest.mark.parametrize(
    ("registered", "model_name"),
    [("clew-test-a", "clew-test-b/m"), ("local-llm", "local-llm/m")],
    ids=["unregistered clew-test provider", "registered provider not named clew-test"],
)
def test_guard_refuses_other_custom_providers(register: Register, registered: str, model_name: str) -> None:
    provider = register(registered, Provider([], tool_call_response("read", "{}")))
    with pytest.raises(ModelError, match="forbidden in tests"):
        run(LiteLLMModel(model_name).complete(MESSAGES))
    assert provider.seen == []


def test_without_the_flag_a_registered_provider_answers(register: Register, monkeypatch: pytest.MonkeyPatch) -> None:
    provider = register("local-llm", Provider([], tool_call_response("read", "{}")))
    monkeypatch.setenv("CLEW_FORBID_MODEL_CALLS", "0")
    assert not calls_forbidden()
    assert run(LiteLLMModel("local-llm/m").complete(MESSAGES)).tool_calls[0].name == "read"
    assert len(provider.seen) == 1


def test_model_from_name() -> None:
    assert model_from_name(None) is None
    assert model_from_name(" None ") is None
    model = model_from_name("openai/gpt-4o-mini", retries=1)
    assert isinstance(model, LiteLLMModel) and (model.name, model.retries) == ("openai/gpt-4o-mini", 1)
    with pytest.raises(InputError) as caught:
        model_from_name("  ")
    assert caught.value.field == "generator"


# --- clew.testing ----------------------------------------------------------------------------


def test_scripted_model_replays_and_records() -> None:
    fixed = ModelReply(content="exact", tool_calls=[], input_tokens=5, output_tokens=6, cost_usd=0.5, model="x")
    model = ScriptedModel(
        [
            reply_tool_call("read", {"key": "wal.md"}),
            reply_tool_calls([("grep", {"pattern": "WAL"}), ToolCall(id="mine", name="read", arguments="{oops")]),
            reply_text("WAL is a journal mode."),
            fixed,
        ]
    )
    assert isinstance(model, Model) and model.remaining == 4
    messages = [dict(message) for message in MESSAGES]

    first = run(model.complete(messages, TOOLS, tool_choice="auto"))
    assert first.tool_calls == [ToolCall(id="call_1_1", name="read", arguments='{"key": "wal.md"}')]
    assert first.input_tokens == count_tokens(json.dumps(MESSAGES, ensure_ascii=False))
    assert first.output_tokens == count_tokens(
        json.dumps({"content": None, "tool_calls": [t.model_dump() for t in first.tool_calls]})
    )
    assert (first.model, first.cost_usd) == ("scripted", None)

    messages.append({"role": "tool", "tool_call_id": "call_1_1", "content": "..."})
    second = run(model.complete(messages, TOOLS))
    assert [(c.id, c.name, c.arguments) for c in second.tool_calls] == [
        ("call_2_1", "grep", '{"pattern": "WAL"}'),
        ("mine", "read", "{oops"),
    ]
    assert run(model.complete(messages)).content == "WAL is a journal mode."
    assert run(model.complete(messages)) == fixed  # a ModelReply is replayed exactly as given
    assert model.remaining == 0

    messages[0]["content"] = "changed after the call"
    assert model.requests[0] == ModelRequest(messages=MESSAGES, tools=TOOLS, tool_choice="auto")
    assert len(model.requests[1].messages) == 3 and model.requests[2].tools is None

    with pytest.raises(ScriptExhausted, match="asked for reply 5 but only 4 were scripted") as caught:
        run(model.complete(messages))
    assert not isinstance(caught.value, AssertionError) and isinstance(caught.value, ClewError)


def test_scripted_model_raises_exception_entries() -> None:
    down = ModelError("scripted", "provider down", retryable=True, attempts=4)
    model = ScriptedModel([down, reply_text("back")])
    with pytest.raises(ModelError) as caught:
        run(model.complete(MESSAGES))
    assert caught.value is down
    assert run(model.complete(MESSAGES)).content == "back"
    assert len(model.requests) == 2


def test_scripted_model_rejects_malformed_entries_up_front() -> None:
    with pytest.raises(ValidationError):
        ScriptedModel([{"contents": "typo"}])
    with pytest.raises(TypeError, match="scripted reply 1"):
        ScriptedModel(["just a string"])


def test_function_model_answers_from_the_messages() -> None:
    def echo(messages: list[dict], tools: list[dict] | None) -> dict:
        question = messages[-1]["content"]
        return reply_tool_call("search", {"query": question}) if tools else reply_text(f"echo: {question}")

    async def later(messages: list[dict], tools: list[dict] | None) -> ModelReply:
        return ModelReply(content="async", tool_calls=[], input_tokens=1, output_tokens=1, cost_usd=None, model="f")

    model = FunctionModel(echo)
    assert isinstance(model, Model)
    assert run(model.complete(MESSAGES, TOOLS)).tool_calls[0].arguments == '{"query": "What is WAL?"}'
    reply = run(model.complete(MESSAGES))
    assert (reply.content, reply.model) == ("echo: What is WAL?", "function")
    assert reply.input_tokens == count_tokens(json.dumps(MESSAGES, ensure_ascii=False))
    assert [request.tools for request in model.requests] == [TOOLS, None]
    assert run(FunctionModel(later, name="f").complete(MESSAGES)).content == "async"


def test_a_program_that_asks_twice_with_a_model_gets_no_litellm_loop_warning(
    runbooks: Corpus, caplog: pytest.LogCaptureFixture
) -> None:
    """Each ``retrieve_sync`` with a model runs on a loop of its own; litellm's logging callbacks of
    its calls end with that loop (clew.llm.run_loop), so a second call carries nothing over: no
    'LoggingWorker: event loop changed' warning on the program's stderr, nothing left queued."""
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    request = {"query": "Who is paged for a SEV1?", "queries": [{"collection": "runbooks"}],
               "context_budget_tokens": 2000,
               "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
    model = LiteLLMModel("openai/gpt-4o-mini", mock_response="The on-call engineer is paged.")
    run_loop(asyncio.sleep(0))  # what earlier tests' loops left queued (this file's ``run`` does not settle)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="LiteLLM"):
        answers = [retrieve_sync(request, corpus=runbooks, model=model) for _ in range(3)]
    assert all(result.generation is not None for result in answers)
    assert [r.getMessage() for r in caplog.records if "event loop changed" in r.getMessage()] == []
    assert GLOBAL_LOGGING_WORKER.pending_count == 0
