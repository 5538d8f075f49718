"""Model options: one configuration for every caller; what is sent, what is never retried."""

import asyncio
from pathlib import Path
from typing import Any

import litellm
import pytest

from clew.agent.api import retrieve
from clew.agent.model import LiteLLMModel, model_from_name
from clew.config.model_options import NO_KEY, ModelOptions, model_options
from clew.config.settings import load_config
from clew.corpus.store import Corpus
from clew.errors import InputError, ModelError
from clew.llm import on_loopback

from .conftest import tree_request
from .test_agent_model import provider  # noqa: F401  (the fixture)

pytestmark = pytest.mark.filterwarnings(
    r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"
)


def test_defaults_make_runs_repeatable_and_bound_what_a_model_writes() -> None:
    options = ModelOptions()
    assert options.litellm_kwargs() == {"temperature": 0.0, "max_tokens": 512}
    model = model_from_name("openai/m", options)
    assert isinstance(model, LiteLLMModel)
    assert (model.retries, model.timeout, model.litellm_kwargs) == (3, 60.0, {"temperature": 0.0, "max_tokens": 512})
    assert model.tool_max_tokens == 128  # a choice or a tool call needs few tokens
    local = model_from_name("openai/m", ModelOptions(api_base="http://127.0.0.1:8090/v1"))
    assert isinstance(local, LiteLLMModel) and (local.retries, local.timeout) == (1, 300.0)  # a CPU-served model
    asked = model_from_name("openai/m", ModelOptions(api_base="http://127.0.0.1:8090/v1", retries=2,
                                                     timeout_seconds=30))
    assert isinstance(asked, LiteLLMModel) and (asked.retries, asked.timeout) == (2, 30.0)
    unbounded = model_from_name("openai/m", ModelOptions(max_tokens=None, select_max_tokens=None))
    assert isinstance(unbounded, LiteLLMModel) and "max_tokens" not in unbounded.litellm_kwargs
    assert unbounded.tool_max_tokens is None


def test_a_call_that_offers_tools_is_bounded_by_select_max_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[dict] = []

    async def fake(**kwargs: object) -> object:
        sent.append(kwargs)
        return litellm.ModelResponse(choices=[{"message": {"role": "assistant", "content": "No idea."}}])

    model = model_from_name("openai/m", ModelOptions(api_base="http://127.0.0.1:9/v1", select_max_tokens=40))
    monkeypatch.setattr(litellm, "acompletion", fake)
    asyncio.run(model.complete([{"role": "user", "content": "choose"}], [{"type": "function", "function": {
        "name": "finish", "parameters": {"type": "object", "properties": {}}}}]))
    asyncio.run(model.complete([{"role": "user", "content": "answer"}], None))
    assert [call["max_tokens"] for call in sent] == [40, 512]


def test_command_line_pairs_are_read_as_json_where_they_parse() -> None:
    options = ModelOptions(api_base="http://127.0.0.1:8080/v1").with_options(
        ["temperature=0.2", "max_tokens=64", "retries=0", "tool_choice=auto", "timeout_seconds=5", "extra.seed=42",
         "extra.stop=[\"</s>\"]", "extra.user=alice"])
    assert (options.temperature, options.max_tokens, options.retries, options.tool_choice) == (0.2, 64, 0, "auto")
    assert options.extra == {"seed": 42, "stop": ["</s>"], "user": "alice"}
    model = LiteLLMModel.from_options("openai/smollm2", options)
    assert (model.timeout, model.retries, model.tool_choice) == (5.0, 0, "auto")
    assert model.litellm_kwargs == {"seed": 42, "stop": ["</s>"], "user": "alice", "api_base": "http://127.0.0.1:8080/v1",
                                    "api_key": NO_KEY, "temperature": 0.2, "max_tokens": 64}


@pytest.mark.parametrize(("pairs", "field", "words"), [
    (["temprature=0"], "model_option", "unknown model option 'temprature'"),
    (["temperature"], "model_option", "expected KEY=VALUE"),
    (["temperature=hot"], "model_option.temperature", "valid number"),
    (["retries=-1"], "model_option.retries", "greater than or equal to 0"),
    (["tool_choice=always"], "model_option.tool_choice", "'auto', 'required' or 'none'"),
    (["extra.api_key=sk-123"], "model_option.extra", "'api_key' is set by clew itself"),
])
def test_a_bad_option_names_itself(pairs: list[str], field: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        ModelOptions().with_options(pairs)
    assert caught.value.field == field and words in caught.value.message


def test_the_key_comes_from_the_named_variable_and_a_missing_one_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    options = model_options({"api_base": "http://127.0.0.1:1/v1", "api_key_env": "CLEW_TEST_KEY"})
    monkeypatch.delenv("CLEW_TEST_KEY", raising=False)
    with pytest.raises(InputError) as caught:
        options.litellm_kwargs()
    assert caught.value.field == "model_options.api_key_env" and "CLEW_TEST_KEY" in caught.value.message
    monkeypatch.setenv("CLEW_TEST_KEY", "sk-local")
    assert options.litellm_kwargs()["api_key"] == "sk-local"


def test_clew_toml_and_the_environment_configure_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toml = tmp_path / "clew.toml"
    toml.write_text('model = "openai/smollm2"\n[model_options]\napi_base = "http://127.0.0.1:8080/v1"\n'
                    'max_tokens = 128\n[model_options.extra]\nseed = 7\n')
    monkeypatch.setenv("CLEW_MODEL_OPTIONS__TIMEOUT_SECONDS", "120")
    config = load_config(toml)
    assert config.model == "openai/smollm2"
    assert (config.model_options.api_base, config.model_options.max_tokens) == ("http://127.0.0.1:8080/v1", 128)
    assert (config.model_options.timeout_seconds, config.model_options.extra) == (120.0, {"seed": 7})
    toml.write_text('[model_options]\napi_bse = "http://127.0.0.1:8080/v1"\n')
    with pytest.raises(InputError) as caught:
        load_config(toml)
    assert caught.value.field == "model_options.api_bse"


def test_only_loopback_servers_pass_the_test_guard() -> None:
    assert on_loopback("http://127.0.0.1:8080/v1") and on_loopback("http://localhost:11434") and on_loopback("[::1]:80")
    assert not on_loopback("https://api.example.com/v1") and not on_loopback("http://10.0.0.1/v1")
    remote = LiteLLMModel("openai/m", api_base="http://192.0.2.1/v1", api_key="k")
    with pytest.raises(ModelError, match="forbidden in tests"):
        asyncio.run(remote.complete([{"role": "user", "content": "hi"}]))


def test_options_reach_litellm(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    handler = provider([])
    request = tree_request("who is paged for SEV1", "runbooks")
    request["generator"] = "clew-test-flaky/m"
    options = {"temperature": 0, "max_tokens": 32, "extra": {"seed": 5}}
    result = asyncio.run(retrieve(request, corpus=runbooks, model_options=options))
    assert result.status == "ok", result.detail
    sent = handler.seen[0]["optional_params"]
    assert (sent["temperature"], sent["max_tokens"], sent["seed"]) == (0, 32, 5)


def test_tool_choice_is_sent_with_every_call_that_offers_tools(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    handler = provider([])
    request = tree_request("who is paged for SEV1", "runbooks", selection="agentic")
    request["generator"] = "clew-test-flaky/m"
    asyncio.run(retrieve(request, corpus=runbooks, model_options={"tool_choice": "auto"}))
    with_tools = [kw for kw in handler.seen if kw["optional_params"].get("tools")]
    assert with_tools and all(kw["optional_params"]["tool_choice"] == "auto" for kw in with_tools)
    without = [kw for kw in handler.seen if not kw["optional_params"].get("tools")]
    assert all("tool_choice" not in kw["optional_params"] for kw in without)


def test_a_missing_api_key_is_a_configuration_error_never_retried(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    # what litellm raises for an OpenAI-compatible server when no key is set (an InternalServerError)
    missing = litellm.InternalServerError(
        message="OpenAIException - Missing credentials. Please pass an `api_key`, or set the `OPENAI_API_KEY` "
                "environment variable.", llm_provider="clew-test-flaky", model="m")
    handler = provider([missing, missing, missing, missing])
    request = tree_request("who is paged for SEV1", "runbooks")
    request["generator"] = "clew-test-flaky/m"
    result = asyncio.run(retrieve(request, corpus=runbooks))
    assert (result.status, result.stop_reason) == ("failed", "model_error")
    assert handler.calls == 1 and result.usage.retries == 0
    assert "failed on attempt 1" in result.detail and "model_options.api_key_env" in result.detail


def test_an_authentication_error_says_what_to_set(provider: Any) -> None:  # noqa: F811
    provider([litellm.AuthenticationError(message="invalid key", llm_provider="clew-test-flaky", model="m")])
    model = LiteLLMModel("clew-test-flaky/m", wait_initial=0)
    with pytest.raises(ModelError) as caught:
        asyncio.run(model.complete([{"role": "user", "content": "hi"}]))
    assert caught.value.attempts == 1 and not caught.value.retryable
    assert "api_key_env" in caught.value.message


def test_tools_as_text_lists_the_tools_and_writes_earlier_calls_back() -> None:
    from clew.agent.model import calls_from_text, tools_in_text
    from clew.agent.selection import SELECT_TOOLS

    messages = [{"role": "system", "content": "Rules."}, {"role": "user", "content": "Question: q"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "c1", "type": "function",
                     "function": {"name": "navigate", "arguments": '{"evidence_id": "ev1:c:1:1:2"}'}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "Invalid choice"}]
    sent = tools_in_text(messages, SELECT_TOOLS)
    assert sent[0]["content"].startswith("Rules.\n\nTools you can call.")
    assert "- navigate(evidence_id: string): Visit one offered candidate" in sent[0]["content"]
    assert "- finish(): Stop walking" in sent[0]["content"]
    assert "tool_calls" not in sent[2]
    (call,) = calls_from_text(sent[2]["content"], ["navigate", "finish"])
    assert (call.name, call.arguments) == ("navigate", '{"evidence_id": "ev1:c:1:1:2"}')
    assert messages[2]["tool_calls"] and messages[0]["content"] == "Rules."  # the run's own messages are untouched
    assert tools_in_text([{"role": "user", "content": "q"}], SELECT_TOOLS)[0]["role"] == "system"


def test_tools_as_text_reaches_the_server_in_the_system_message(runbooks: Corpus, provider: Any) -> None:  # noqa: F811
    handler = provider([])
    request = tree_request("who is paged for SEV1", "runbooks", selection="agentic")
    request["generator"] = "clew-test-flaky/m"
    asyncio.run(retrieve(request, corpus=runbooks, model_options={"tools_as_text": True}))
    first = handler.seen[0]["messages"]
    assert "Tools you can call." in first[0]["content"] and "- finish()" in first[0]["content"]
