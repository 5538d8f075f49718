"""The words of a camelCase identifier as a unit's terms: the index's tokenizer splits ``or_insert`` into its
words but keeps ``SkipEmptyParts`` one term (``skipemptypart``), so a sentence naming ``Qt::SkipEmptyParts``
shared nothing with "skip empty parts" (task X13, U17's question 3)."""

from __future__ import annotations

import re

from clew.corpus.tokenize import tokenize

_CAMEL = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b")
"""A word of letters and digits with a capital after its first letter (``SkipEmptyParts``, ``fromISO``,
``getElementById``, ``HTML``: ``_HUMP`` finds one part in an all-capital word, so it gives no terms); not a word
capitalised once (``Returns``) nor a name with an underscore (``SQLITE_BUSY``: the tokenizer splits it). One capital
and any letters after it, so that a run of capitals is read once: the form with a group repeating ``[A-Z]+`` took
time exponential in the run ("a" and 30 capitals and "_": minutes)."""
_HUMP = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
"""A camelCase word's parts: a capitalised or lower-case run, a run of capitals before the next part's capital
(``ISO`` in ``fromISOString``), a number."""


def camel_terms(text: str) -> list[str]:
    """The terms of each camelCase word's parts in ``text``, word after word (each word's parts in order, so
    that its adjacent words are adjacent terms); [] when it has none."""
    terms: list[str] = []
    for word in _CAMEL.findall(text):
        parts = _HUMP.findall(word)
        if len(parts) > 1:
            terms.extend(tokenize(" ".join(parts)))
    return terms
