"""Token counting with tiktoken, offline.

Every budget in clew (chunk sizes, context budgets) is measured with one encoding,
``cl100k_base``, whose file litellm ships (see ``clew._offline``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import tiktoken

from clew import _offline  # noqa: F401  (sets TIKTOKEN_CACHE_DIR before the first load)
from clew.budgets import bpe_cache

ENCODING_NAME = "cl100k_base"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The encoding, loaded once per process, from clew's cache of its ranks (``bpe_cache``)."""
    return bpe_cache.load(ENCODING_NAME)


CACHED_CHARS = 8192
"""Texts up to this length keep their count (passages recur across runs: seeds, candidates)."""


def count_tokens(text: str) -> int:
    """Number of tokens in ``text`` (special-token strings are counted as plain text)."""
    if not text:
        return 0
    if len(text) <= CACHED_CHARS:
        return _count_cached(text)
    return len(encoding().encode_ordinary(text))


class Counted(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def token_count(self) -> int: ...


def passage_tokens(passage: Counted) -> int:
    """A stored passage's tokens: the count its chunk was given at ingest, with this encoding over
    the same text (equal to ``count_tokens(passage.text)`` on every passage of both dev sets), so
    that a walk needs no encoding loaded (0.1-0.2 s of a cold ``clew ask``). A passage without a
    count (none stored) is counted."""
    if passage.token_count > 0 or not passage.text:
        return passage.token_count
    return count_tokens(passage.text)


@lru_cache(maxsize=16384)
def _count_cached(text: str) -> int:
    return len(encoding().encode_ordinary(text))
