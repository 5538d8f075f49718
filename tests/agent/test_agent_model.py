"""The agent over litellm's real code path, offline: retries are counted, bad requests fail the run."""

import asyncio
from collections.abc import Callable
from typing import Any

import litellm
import pytest
from litellm import CustomLLM, ModelResponse

from clew.agent.api import retrieve
from clew.agent.prompts import shown_ids
from clew.corpus.store import Corpus

from .conftest import tree_request

pytestmark = pytest.mark.filterwarnings(
    # pydantic warns once about litellm's TypedDicts (ReadOnly fields) on the first acompletion
    r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"
)


class Flaky(CustomLLM):
    """Fails with the scripted errors in turn, then answers citing the first evidence id it was shown."""

    def __init__(self, failures: list[Exception]) -> None:
        super().__init__()
        self.failures = failures
        self.calls = 0
        self.seen: list[dict] = []
        """The keyword arguments of every call (``optional_params`` holds temperature, tools ...)."""

    async def acompletion(self, *args: object, **kwargs: Any) -> ModelResponse:
        self.calls += 1
        self.seen.append(kwargs)
        if self.failures:
            raise self.failures.pop(0)
        shown = kwargs["messages"][-1]["content"]
        evidence_id = shown_ids(shown)[0]
        message = {"role": "assistant", "content": f"Page the incident commander [{evidence_id}]."}
        return ModelResponse(model="flaky", choices=[{"index": 0, "message": message, "finish_reason": "stop"}],
                             usage={"prompt_tokens": 50, "completion_tokens": 8, "total_tokens": 58})


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[Exception]], Flaky]:
    """Installs a Flaky provider; retries follow at once (tenacity's backoff would sleep 1, 2, 4 s)."""
    real_sleep = asyncio.sleep

    async def no_wait(seconds: float, *args: object) -> object:
        return await real_sleep(0, *args)

    monkeypatch.setattr(asyncio, "sleep", no_wait)

    def install(failures: list[Exception]) -> Flaky:
        handler = Flaky(failures)
        monkeypatch.setattr(
            litellm, "custom_provider_map", [{"provider": "clew-test-flaky", "custom_handler": handler}]
        )
        return handler

    return install


def test_transient_model_errors_are_retried_then_the_run_answers(
    runbooks: Corpus, provider: Callable[[list[Exception]], Flaky]
) -> None:
    handler = provider([litellm.RateLimitError(message="slow down", llm_provider="clew-test-flaky", model="m")])
    request = tree_request("who is paged for SEV1", "runbooks")
    request["generator"] = "clew-test-flaky/m"
    result = asyncio.run(retrieve(request, corpus=runbooks))
    assert result.status == "ok", result.detail
    assert handler.calls == 2 and result.usage.retries == 1 and result.usage.model_calls == 1
    assert result.generation is not None and result.generation.model == "clew-test-flaky/m"
    assert result.generation.citations


def test_a_bad_request_is_not_retried_and_fails_the_run(
    runbooks: Corpus, provider: Callable[[list[Exception]], Flaky]
) -> None:
    bad = litellm.BadRequestError(message="malformed", model="m", llm_provider="clew-test-flaky")
    handler = provider([bad])
    request = tree_request("who is paged for SEV1", "runbooks")
    request["generator"] = "clew-test-flaky/m"
    result = asyncio.run(retrieve(request, corpus=runbooks))
    assert (result.status, result.stop_reason) == ("failed", "model_error")
    assert handler.calls == 1 and result.usage.retries == 0
    assert result.hits  # what the walk found is still reported
