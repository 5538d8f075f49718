"""clew: a retrieval agent that searches a structured corpus, then navigates it."""

from clew import _offline  # noqa: F401  (must run before litellm or tiktoken load)

__version__ = "0.1.0"
__all__ = ["__version__"]
