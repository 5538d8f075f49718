"""Token counting with tiktoken, offline.

Every budget in clew (chunk sizes, context budgets) is measured with one encoding,
``cl100k_base``, whose file litellm ships (see ``clew._offline``).
"""

from __future__ import annotations

from functools import lru_cache

import tiktoken

from clew import _offline  # noqa: F401  (sets TIKTOKEN_CACHE_DIR before the first load)

ENCODING_NAME = "cl100k_base"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    return tiktoken.get_encoding(ENCODING_NAME)


CACHED_CHARS = 8192
"""Texts up to this length keep their count (passages recur across runs: seeds, candidates)."""


def count_tokens(text: str) -> int:
    """Number of tokens in ``text`` (special-token strings are counted as plain text)."""
    if not text:
        return 0
    if len(text) <= CACHED_CHARS:
        return _count_cached(text)
    return len(encoding().encode_ordinary(text))


@lru_cache(maxsize=16384)
def _count_cached(text: str) -> int:
    return len(encoding().encode_ordinary(text))
