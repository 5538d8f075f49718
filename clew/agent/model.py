"""The model client: one reply per call, with tool calls, usage and cost.

``Model`` is the protocol the agent talks to. ``LiteLLMModel`` is the real client: litellm's
``acompletion`` with clew's own retries (tenacity, exponential backoff with jitter) on rate
limits, timeouts, connection errors and 5xx answers, never on bad requests, context-window,
authentication or not-found errors. litellm's own retries are switched off so that every
attempt is clew's to count and to charge to a budget (``on_attempt``).

The fakes for tests live in ``clew.testing``. While ``CLEW_FORBID_MODEL_CALLS`` is set (the
test suite sets it), ``LiteLLMModel`` refuses any call that could reach a real model: only
calls answered by litellm's ``mock_response``/``mock_tool_calls`` or by a registered custom
provider whose name starts with ``clew-test`` go through.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from clew import _offline  # noqa: F401  (litellm must not fetch its cost map on import)
from clew.errors import InputError, ModelError
from clew.llm import (  # noqa: F401  (re-exported: part of this module's API)
    FORBID_ENV,
    FORBIDDEN_MESSAGE,
    TEST_PROVIDER_PREFIX,
    advice,
    answers_offline,
    calls_forbidden,
    import_litellm,
    is_retryable,
    pin_model_info,
)

if TYPE_CHECKING:
    from types import ModuleType

    from clew.config.model_options import ModelOptions


# Keyword arguments that clew sets itself; a caller passing them would undo retries or the call.
_RESERVED_KWARGS = ("model", "messages", "tools", "num_retries", "max_retries", "timeout")

AttemptCallback = Callable[[int, "BaseException | None"], None]


class ToolCall(BaseModel):
    """One tool call the model asked for."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    arguments: str = Field(description="the raw JSON text the model sent (it may be malformed)")


class ModelReply(BaseModel):
    """What one model call returned, and what it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    content: str | None
    tool_calls: list[ToolCall]
    input_tokens: int
    output_tokens: int
    cost_usd: float | None = Field(description="None when the provider's price is unknown")
    model: str
    attempts: int = Field(1, ge=1, description="attempts this reply took (a run charges the ones past the first "
                                              "as retries)")


@runtime_checkable
class Model(Protocol):
    """Anything the agent can ask for a reply: ``LiteLLMModel`` or a ``clew.testing`` fake."""

    name: str

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: str | None = None,
    ) -> ModelReply: ...


class _CallbackFailed(Exception):
    """Carries an exception raised by ``on_attempt`` past the retry loop, unwrapped."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class LiteLLMModel:
    """A model reached through litellm, e.g. ``LiteLLMModel("openai/gpt-4o-mini")``.

    ``retries`` is the number of attempts after the first. Before retry ``n`` (from 1) clew
    waits ``min(wait_initial * 2**(n-1), wait_max)`` seconds plus a random jitter of up to
    ``wait_initial``; ``wait_initial=0`` retries at once (tests). ``timeout`` bounds each attempt.
    ``on_attempt(attempt_number, error_or_None)`` hears of every attempt as it ends; if it
    raises (say, a budget ran out), no further attempt is made and its exception propagates
    as it is. Other keyword arguments go to ``litellm.acompletion`` unchanged
    (``api_base``, ``temperature``, ``mock_response`` ...). ``tool_choice`` is sent with every
    call that offers tools unless ``complete()`` names its own. ``tools_as_text`` also describes
    the tools in the system message and writes earlier tool calls into the assistant messages'
    text (:func:`tools_in_text`): for servers whose chat template drops both. ``LiteLLMModel.from_options``
    builds one from the configured :class:`~clew.config.model_options.ModelOptions`.
    """

    def __init__(
        self,
        model: str,
        *,
        retries: int = 3,
        timeout: float = 60,
        wait_initial: float = 1.0,
        wait_max: float = 30.0,
        on_attempt: AttemptCallback | None = None,
        tool_choice: str | None = None,
        tools_as_text: bool = False,
        tool_max_tokens: int | None = None,
        **litellm_kwargs: Any,
    ) -> None:
        if not model or not model.strip():
            raise InputError("model", "a model name must not be blank")
        if retries < 0:
            raise InputError("retries", f"must be 0 or more, got {retries}")
        if timeout <= 0:
            raise InputError("timeout", f"must be positive, got {timeout}")
        for field, value in (("wait_initial", wait_initial), ("wait_max", wait_max)):
            if value < 0:
                raise InputError(field, f"must not be negative, got {value}")
        reserved = sorted(set(litellm_kwargs) & set(_RESERVED_KWARGS))
        if reserved:
            raise InputError(
                reserved[0], "is set by LiteLLMModel itself (use retries=, timeout= or complete()'s arguments)"
            )
        self.name = model
        self.retries = retries
        self.timeout = timeout
        self.wait_initial = wait_initial
        self.wait_max = wait_max
        self.on_attempt = on_attempt
        self.tool_choice = tool_choice
        self.tools_as_text = tools_as_text
        self.tool_max_tokens = tool_max_tokens
        """``max_tokens`` of a call that offers tools (None: the same as any other call)."""
        self.litellm_kwargs = litellm_kwargs

    @classmethod
    def from_options(cls, model: str, options: ModelOptions, **kwargs: Any) -> LiteLLMModel:
        """The model ``options`` describe; ``kwargs`` (``on_attempt``, waits, litellm arguments) win over them."""
        settings: dict[str, Any] = {"retries": options.attempt_retries, "timeout": options.attempt_seconds,
                                    "tool_choice": options.tool_choice, "tools_as_text": options.tools_as_text,
                                    "tool_max_tokens": options.select_max_tokens,
                                    **options.litellm_kwargs()}
        return cls(model, **{**settings, **kwargs})

    def __repr__(self) -> str:
        return f"LiteLLMModel({self.name!r}, retries={self.retries}, timeout={self.timeout})"

    async def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: str | None = None,
    ) -> ModelReply:
        """One reply from the model, retrying transient failures; ``ModelError`` otherwise."""
        litellm = import_litellm()
        if calls_forbidden() and not answers_offline(litellm, self.name, self.litellm_kwargs):
            raise ModelError(self.name, FORBIDDEN_MESSAGE, retryable=False, attempts=0)
        pin_model_info(litellm, self.name)  # an Ollama model: only api_base is called
        request: dict[str, Any] = {
            **self.litellm_kwargs,
            "model": self.name,
            "messages": tools_in_text(messages, tools) if self.tools_as_text and tools else messages,
            "num_retries": 0,
            "max_retries": 0,
            "timeout": self.timeout,
        }
        if tools:
            request["tools"] = tools
            if self.tool_max_tokens is not None:
                request["max_tokens"] = self.tool_max_tokens
            choice = tool_choice if tool_choice is not None else self.tool_choice
            if choice is not None:
                request["tool_choice"] = choice

        # imported by a model call only: a run without a model (a cold `clew ask`) skips its 5-8 ms
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential, wait_random

        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1),
            wait=wait_exponential(multiplier=self.wait_initial, max=self.wait_max) + wait_random(0, self.wait_initial),
            retry=retry_if_exception(is_retryable),
            reraise=True,
        )
        attempts = 0
        callback_error: Exception | None = None
        try:
            async for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    response = await self._attempt(litellm, request, attempts)
        except _CallbackFailed as failed:
            callback_error = failed.error
        except Exception as error:  # every failure becomes a ModelError
            retryable = is_retryable(error)
            reason = "gave up after" if retryable else "failed on"
            message = f"{reason} attempt {attempts}: {type(error).__name__}: {error}"
            hint = advice(error)
            message += f" ({hint})" if hint else ""
            raise ModelError(self.name, message, retryable=retryable, attempts=attempts) from error
        if callback_error is not None:
            raise callback_error  # the caller's own error (say, a spent budget), as it was raised
        try:
            return _reply_from(litellm, response, self.name, attempts)
        except Exception as error:
            message = f"unreadable reply on attempt {attempts}: {type(error).__name__}: {error}"
            raise ModelError(self.name, message, retryable=False, attempts=attempts) from error

    async def _attempt(self, litellm: ModuleType, request: dict[str, Any], number: int) -> Any:
        try:
            response = await litellm.acompletion(**request)
        except Exception as error:
            self._report(number, error)
            raise
        self._report(number, None)
        return response

    def _report(self, number: int, error: BaseException | None) -> None:
        if self.on_attempt is None:
            return
        try:
            self.on_attempt(number, error)
        except Exception as callback_error:
            raise _CallbackFailed(callback_error) from callback_error


def _reply_from(litellm: ModuleType, response: Any, fallback_model: str, attempts: int) -> ModelReply:
    message = response.choices[0].message
    calls = []
    for index, call in enumerate(getattr(message, "tool_calls", None) or []):
        arguments = call.function.arguments
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        calls.append(ToolCall(id=call.id or f"call_{index}", name=call.function.name or "", arguments=arguments))
    usage = getattr(response, "usage", None)
    try:
        cost = float(litellm.completion_cost(completion_response=response))
    except Exception:  # noqa: BLE001  (an unpriced model is not an error)
        cost = None
    return ModelReply(
        content=message.content,
        tool_calls=calls,
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cost_usd=cost,
        model=getattr(response, "model", None) or fallback_model,
        attempts=attempts,
    )


def model_from_name(spec: str | None, options: ModelOptions | None = None, **kwargs: Any) -> Model | None:
    """The model a request or the CLI names: None (or "none") for no model, else a
    ``LiteLLMModel`` built from ``options`` (default: ``ModelOptions()``, temperature 0) and
    ``kwargs`` (``on_attempt``, waits, litellm arguments)."""
    from clew.config.model_options import ModelOptions

    if spec is None or spec.strip().lower() == "none":
        return None
    if not spec.strip():
        raise InputError("generator", "a model name must not be blank (use 'none' for no model)")
    return LiteLLMModel.from_options(spec.strip(), options or ModelOptions(), **kwargs)


def tools_in_text(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` for a server whose chat template leaves tools out of the prompt (SmolLM2 on
    llama.cpp drops both the tool list and the assistant's tool calls): the tools are listed in
    the system message with how to call one in text, and each earlier call is written into its
    assistant message as the JSON that :func:`calls_from_text` reads back."""
    lines = []
    for tool in tools:
        function = tool.get("function", tool)
        params = function.get("parameters", {}).get("properties", {})
        signature = ", ".join(f"{name}: {spec.get('type', 'any')}" for name, spec in params.items())
        lines.append(f"- {function['name']}({signature}): {function.get('description', '').strip()}")
    guide = ("Tools you can call. To call one, reply with only a JSON object "
             '{"name": "<tool>", "arguments": {...}}:\n' + "\n".join(lines))
    out = []
    for message in messages:
        if message.get("role") == "assistant" and message.get("tool_calls"):
            written = [json.dumps({"name": c["function"]["name"], "arguments": _arguments(c["function"]["arguments"])})
                       for c in message["tool_calls"]]
            message = {k: v for k, v in message.items() if k != "tool_calls"}
            message["content"] = "\n".join(filter(None, [message.get("content") or "", *written]))
        out.append(message)
    if out and out[0].get("role") == "system":
        out[0] = {**out[0], "content": f"{out[0].get('content') or ''}\n\n{guide}"}
    else:
        out.insert(0, {"role": "system", "content": guide})
    return out


def _arguments(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def calls_from_text(content: str | None, names: Iterable[str], shown: Iterable[str] = ()) -> list[ToolCall]:
    """A tool call a model wrote as text instead of a structured call (small local models do).

    The reply's content is, or contains (in a fenced block, or with doubled braces), one JSON
    object ``{"name": ..., "arguments": {...}}`` (``parameters`` is read as ``arguments``) whose
    name is one of ``names``; anything else gives no call. A call that stands in ``shown`` (the
    untrusted text the model was shown, whitespace aside) is an echo of a document, not the
    model's own call: it gives no call.
    """
    if not content or not content.strip():
        return []
    allowed = set(names)
    echoes = ["".join(text.split()) for text in shown]
    pieces = [m.group(1) for m in _FENCE.finditer(content)] + [content]
    for piece in pieces:
        text = piece.strip()
        for candidate in (text, text.replace("{{", "{").replace("}}", "}")):
            start, end = candidate.find("{"), candidate.rfind("}")
            if start < 0 or end <= start:
                continue
            try:
                value = json.loads(candidate[start:end + 1])
            except json.JSONDecodeError:
                continue
            if not isinstance(value, dict) or value.get("name") not in allowed:
                continue
            written = "".join(candidate[start:end + 1].split())
            if any(written in echo for echo in echoes):
                continue
            arguments = value.get("arguments", value.get("parameters", {}))
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments if isinstance(arguments, dict) else {}, ensure_ascii=False)
            return [ToolCall(id="text_call", name=value["name"], arguments=arguments)]
    return []
