"""How clew reaches a model: one set of options shared by the CLI, the Python API, the servers
and evals.

::

    model = "openai/smollm2"                  # a litellm model string
    [model_options]
    api_base = "http://127.0.0.1:8080/v1"     # any OpenAI-compatible server
    api_key_env = "LLAMA_API_KEY"             # the variable holding the key (omit: none needed)
    temperature = 0                           # the default: reproducible runs
    max_tokens = 512                          # an answer (the default)
    select_max_tokens = 128                   # a reply that offers tools: a choice, a tool call (the default)
    timeout_seconds = 300                     # per attempt (default 60; 300 for a server on loopback)
    retries = 1                               # after the first, transient errors only (default 3; 1 on loopback)
    tool_choice = "auto"                      # sent with every call that offers tools
    tools_as_text = true                      # for a chat template without tools (SmolLM2)
    [model_options.extra]                     # any other litellm keyword argument
    seed = 42

The same keys come from ``CLEW_MODEL_OPTIONS__API_BASE`` and friends (the server
configuration's environment) and from ``--model-option KEY=VALUE`` on the command line
(``--model-option extra.seed=42`` for an extra one). A value is read as JSON where it parses
(``0``, ``true``, ``"auto"``), else as the text given.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from clew.errors import InputError, input_error_from

NO_KEY = "no-key"
"""The API key sent to an ``api_base`` when no ``api_key_env`` is named: local servers take any
key, and litellm must not send a key from the environment (say ``OPENAI_API_KEY``) to them."""
RESERVED_EXTRA = ("model", "messages", "tools", "num_retries", "max_retries", "timeout", "api_key")


class ModelOptions(BaseModel):
    """Options for every call to the configured model."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    api_base: str | None = None
    """The server's base URL, e.g. ``http://127.0.0.1:8080/v1`` (llama.cpp, vLLM, Ollama)."""
    api_key_env: str | None = None
    """The environment variable that holds the API key (never the key itself)."""
    temperature: float | None = Field(0.0, ge=0, le=2)
    """Sampling temperature; 0 by default so that runs repeat. None: the server's default."""
    max_tokens: int | None = Field(512, ge=1, le=100_000)
    """Tokens the model may write in an answer (None: the server's default; a small local model
    left without a bound wrote 1,300 tokens of loop)."""
    select_max_tokens: int | None = Field(128, ge=1, le=100_000)
    """Tokens the model may write in a reply that offers tools (a choice or a tool call)."""
    timeout_seconds: float | None = Field(None, gt=0, le=3600)
    """The bound of one attempt (None: 60 s, or 300 s for a server on this machine, where a
    small model on a CPU took 25-100 s for a 3,000-token prompt)."""
    retries: int | None = Field(None, ge=0, le=10)
    """Attempts after the first, on rate limits, timeouts, connection errors and 5xx only (None:
    3, or 1 for a server on this machine: a retry there waits as long as the attempt did)."""

    @property
    def local(self) -> bool:
        """The model server runs on this machine (``api_base`` on loopback)."""
        from clew.llm import on_loopback

        return on_loopback(self.api_base)

    @property
    def attempt_seconds(self) -> float:
        return self.timeout_seconds if self.timeout_seconds is not None else 300.0 if self.local else 60.0

    @property
    def attempt_retries(self) -> int:
        return self.retries if self.retries is not None else 1 if self.local else 3
    tool_choice: Literal["auto", "required", "none"] | None = None
    """Sent with every call that offers tools (some servers leave tools out of the prompt without it)."""
    tools_as_text: bool = False
    """Also list the tools in the system message and write earlier tool calls as JSON text: for
    a server whose chat template drops tools (SmolLM2 on llama.cpp's server does)."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """Other litellm keyword arguments (``seed``, ``top_p``, ``extra_headers`` ...)."""

    @field_validator("api_base", "api_key_env")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be blank")
        return value

    @field_validator("extra")
    @classmethod
    def _not_reserved(cls, value: dict[str, Any]) -> dict[str, Any]:
        for name in value:
            if name in RESERVED_EXTRA:
                raise ValueError(f"{name!r} is set by clew itself (use the model, timeout_seconds, retries or "
                                 "api_key_env option)")
        return value

    def with_options(self, pairs: Iterable[str]) -> ModelOptions:
        """These options with ``KEY=VALUE`` pairs on top (the command line's ``--model-option``)."""
        data = self.model_dump(exclude_unset=True)
        data["extra"] = dict(self.extra)
        for pair in pairs:
            key, value = parse_pair(pair)
            if key.startswith("extra."):
                data["extra"][key.removeprefix("extra.")] = value
            elif key in ModelOptions.model_fields and key != "extra":
                data[key] = value
            else:
                known = ", ".join(n for n in ModelOptions.model_fields if n != "extra")
                raise InputError("model_option", f"unknown model option {key!r} (known: {known}; extra.NAME for "
                                 "any other litellm argument)")
        return model_options(data, field="model_option")

    def litellm_kwargs(self) -> dict[str, Any]:
        """The keyword arguments every call sends (the API key read from ``api_key_env`` now)."""
        kwargs: dict[str, Any] = dict(self.extra)
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        if self.api_key_env is not None:
            key = os.environ.get(self.api_key_env, "")
            if not key.strip():
                raise InputError("model_options.api_key_env",
                                 f"the environment variable {self.api_key_env} (the model's API key) is not set")
            kwargs["api_key"] = key
        elif self.api_base is not None:
            kwargs["api_key"] = NO_KEY
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        return kwargs


def parse_pair(pair: str) -> tuple[str, Any]:
    """``"temperature=0"`` -> ``("temperature", 0)``: the value as JSON where it parses, else as text."""
    key, sep, raw = pair.partition("=")
    key = key.strip()
    if not sep or not key:
        raise InputError("model_option", f"expected KEY=VALUE, got {pair!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def model_options(data: ModelOptions | dict[str, Any] | None, *, field: str = "model_options") -> ModelOptions:
    """Validated options; an error names the option."""
    if isinstance(data, ModelOptions):
        return data
    try:
        return ModelOptions.model_validate(data or {})
    except ValidationError as error:
        raise input_error_from(error, field, ModelOptions) from error
