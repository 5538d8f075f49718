"""The words of a camelCase identifier as a unit's terms: the index's tokenizer splits ``or_insert`` into its
words but keeps ``SkipEmptyParts`` one term (``skipemptypart``), so a sentence naming ``Qt::SkipEmptyParts``
shared nothing with "skip empty parts" (task X13, U17's question 3)."""

from __future__ import annotations

import re

from clew.corpus.tokenize import tokenize

_CAMEL = re.compile(r"\b[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+|[A-Z]+(?![a-z]))+[A-Za-z0-9]*\b")
"""A word with a capital after its first letter's lower-case run (``SkipEmptyParts``, ``fromISO``,
``getElementById``); not an all-capital name (``SQLITE_BUSY``) nor a word capitalised once (``Returns``)."""
_HUMP = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def camel_terms(text: str) -> list[str]:
    """The terms of each camelCase word's parts in ``text``, word after word (each word's parts in order, so
    that its adjacent words are adjacent terms); [] when it has none."""
    terms: list[str] = []
    for word in _CAMEL.findall(text):
        parts = _HUMP.findall(word)
        if len(parts) > 1:
            terms.extend(tokenize(" ".join(parts)))
    return terms
