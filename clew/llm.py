"""What every litellm caller in clew shares: which errors to retry, and the test guard.

A leaf module (it imports litellm only when asked), used by the agent's model client and by
the litellm embedder alike.
"""

from __future__ import annotations

import os
from types import ModuleType

FORBID_ENV = "CLEW_FORBID_MODEL_CALLS"
TEST_PROVIDER_PREFIX = "clew-test"
FORBIDDEN_MESSAGE = f"real model calls are forbidden in tests ({FORBID_ENV})"


def calls_forbidden() -> bool:
    """True while ``CLEW_FORBID_MODEL_CALLS`` is set to anything but empty, 0, false or no."""
    return os.environ.get(FORBID_ENV, "").strip().lower() not in ("", "0", "false", "no")


def answers_offline(litellm: ModuleType, model: str, kwargs: dict) -> bool:
    """Whether litellm answers a call without reaching any model server: a mock answer, or a
    registered custom provider whose name starts with ``clew-test``."""
    if kwargs.get("mock_response") is not None or kwargs.get("mock_tool_calls") or kwargs.get("mock_timeout"):
        return True
    provider = kwargs.get("custom_llm_provider") or (model.split("/", 1)[0] if "/" in model else "")
    if not provider.startswith(TEST_PROVIDER_PREFIX):
        return False
    return provider in {entry.get("provider") for entry in litellm.custom_provider_map or []}


def import_litellm() -> ModuleType:
    from clew import _offline  # noqa: F401  (no cost-map fetch on import)

    import litellm

    # litellm prints help banners to stdout on errors; stdout belongs to the caller (MCP stdio).
    litellm.suppress_debug_info = True
    return litellm


def is_retryable(error: BaseException) -> bool:
    """Whether another attempt may succeed: rate limits, timeouts, connection errors, 5xx."""
    litellm = import_litellm()
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
