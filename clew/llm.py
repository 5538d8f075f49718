"""What every litellm caller in clew shares: which errors to retry, and the test guard.

A leaf module (it imports litellm only when asked), used by the agent's model client and by
the litellm embedder alike.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Coroutine
from types import ModuleType
from typing import Any, TypeVar
from urllib.parse import urlparse

T = TypeVar("T")

FORBID_ENV = "CLEW_FORBID_MODEL_CALLS"
TEST_PROVIDER_PREFIX = "clew-test"
FORBIDDEN_MESSAGE = f"real model calls are forbidden in tests ({FORBID_ENV})"


def calls_forbidden() -> bool:
    """True while ``CLEW_FORBID_MODEL_CALLS`` is set to anything but empty, 0, false or no."""
    return os.environ.get(FORBID_ENV, "").strip().lower() not in ("", "0", "false", "no")


LOOPBACK = ("localhost", "::1")


def on_loopback(url: object) -> bool:
    """Whether ``url`` names a server on this machine (127.0.0.0/8, localhost, ::1)."""
    if not isinstance(url, str) or not url.strip():
        return False
    host = urlparse(url if "//" in url else f"//{url}").hostname or ""
    return host.startswith("127.") or host in LOOPBACK


def answers_offline(litellm: ModuleType, model: str, kwargs: dict[str, Any]) -> bool:
    """Whether litellm answers a call without reaching a model server off this machine: a mock
    answer, an ``api_base`` on loopback, or a registered custom provider whose name starts
    with ``clew-test``."""
    if kwargs.get("mock_response") is not None or kwargs.get("mock_tool_calls") or kwargs.get("mock_timeout"):
        return True
    if on_loopback(kwargs.get("api_base")):
        return True  # a server on this machine (the real-server tests): nothing leaves it
    provider = kwargs.get("custom_llm_provider") or (model.split("/", 1)[0] if "/" in model else "")
    if not provider.startswith(TEST_PROVIDER_PREFIX):
        return False
    return provider in {entry.get("provider") for entry in litellm.custom_provider_map or []}


def import_litellm() -> ModuleType:
    import litellm

    from clew import _offline  # noqa: F401  (no cost-map fetch on import)

    # litellm prints help banners to stdout on errors; stdout belongs to the caller (MCP stdio).
    litellm.suppress_debug_info = True
    return litellm


def run_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` for work that may call a model, and let litellm finish the logging
    callbacks of those calls before the loop closes.

    litellm queues a callback per call on the running loop. Left pending when ``asyncio.run`` ends,
    it is carried onto the next loop of the process with a warning on stderr (``LoggingWorker: event
    loop changed``): a program calling ``retrieve_sync`` twice, an eval's questions each on a loop of
    their own, a test runner's captured streams closed under it. Settling them here takes well under
    a millisecond when no callback is configured; one still running after 5 s is left to the next loop."""
    import asyncio

    found: list[T] = []

    async def whole() -> None:
        try:
            # through a list, not as the main task's result: Python 3.11's ``asyncio.run`` formats the
            # repr of its finished main task, and a walk's result's repr is about a tenth of a warm walk
            found.append(await coroutine)
        finally:
            await settle_model_logs()

    asyncio.run(whole())
    return found[0]


async def settle_model_logs(timeout_s: float = 5.0) -> None:
    """Wait (at most ``timeout_s``) for litellm's queued logging callbacks of this loop; nothing when
    litellm was never imported."""
    if "litellm" not in sys.modules:
        return
    import asyncio

    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    try:
        await asyncio.wait_for(GLOBAL_LOGGING_WORKER.flush(), timeout_s)
    except TimeoutError:
        return


OLLAMA_PROVIDERS = ("ollama", "ollama_chat")


def pin_model_info(litellm: ModuleType, model: str) -> None:
    """Make litellm read an Ollama model's information from its own table, not from a server.

    For an ``ollama/`` (or ``ollama_chat/``) model missing from litellm's cost map, litellm asks
    Ollama's ``/api/show`` for it before and after each call (its responses-API check and its cost
    calculator), at ``OLLAMA_API_BASE`` or ``localhost:11434``: never at the ``api_base`` the call
    was given. Registering the model (free, a chat model, no known window) answers those look-ups
    locally, so the configured ``api_base`` is the only server a call reaches."""
    provider, _, name = model.partition("/")
    if provider not in OLLAMA_PROVIDERS or not name:
        return
    known = {key.lower() for key in litellm.model_cost}
    if not {model.lower(), name.lower(), f"ollama/{name}".lower(), f"ollama_chat/{name}".lower()} & known:
        # straight into the table: litellm.register_model itself asks the server first
        litellm.model_cost[f"{provider}/{name}"] = {
            "litellm_provider": "ollama", "mode": "chat", "input_cost_per_token": 0.0, "output_cost_per_token": 0.0,
            "max_tokens": None, "max_input_tokens": None, "max_output_tokens": None}


MISSING_KEY = ("missing credentials", "api_key client option must be set", "api key is required")
"""How a client says that no API key was given (litellm reports it as a server error)."""


def missing_key(error: BaseException) -> bool:
    text = str(error).lower()
    return any(phrase in text for phrase in MISSING_KEY)


def is_retryable(error: BaseException) -> bool:
    """Whether another attempt may succeed: rate limits, timeouts, connection errors, 5xx; never
    a configuration error (a missing or refused key, a bad request, an unknown model)."""
    litellm = import_litellm()
    if missing_key(error):
        return False
    never = (
        litellm.BadRequestError,  # ContextWindowExceededError and ContentPolicyViolationError too
        litellm.AuthenticationError,
        litellm.PermissionDeniedError,
        litellm.NotFoundError,
        litellm.UnprocessableEntityError,
    )
    if isinstance(error, never):
        return False
    transient = (litellm.RateLimitError, litellm.Timeout, litellm.APIConnectionError,
                 litellm.InternalServerError, litellm.ServiceUnavailableError, litellm.BadGatewayError)
    if isinstance(error, transient):
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and status >= 500


def advice(error: BaseException) -> str:
    """What to set or change after a failure that retrying cannot fix ("" when there is nothing to say)."""
    litellm = import_litellm()
    if missing_key(error) or isinstance(error, (litellm.AuthenticationError, litellm.PermissionDeniedError)):
        return ("set model_options.api_key_env to the environment variable that holds the API key "
                "(or, for a local server, model_options.api_base: it is sent a placeholder key)")
    if isinstance(error, litellm.ContextWindowExceededError):
        return ("the request is larger than the model's context window: lower context_budget_tokens, or serve "
                "the model with a larger window")
    if isinstance(error, litellm.NotFoundError):
        return "check the model name (for an OpenAI-compatible server: openai/<name> and model_options.api_base)"
    if isinstance(error, litellm.Timeout):
        return "raise model_options.timeout_seconds (one attempt's bound)"
    return ""
