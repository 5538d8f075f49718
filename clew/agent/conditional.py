"""The condition a question states, and a unit that opens with it (task X30, rule IF1).

"If none of the except clauses of a try statement matches, where does Python look next" is answered by "If no except
clause matches the exception, the search for an exception handler continues in the surrounding code ...", and "What
does @functools.lru_cache(maxsize=None) do to the cache size?" by "If maxsize is set to None, the LRU feature is
disabled and the cache can grow without bound." Both lost to units sharing as many of the question's words; a unit
whose opening condition restates the question's is a fact with its key, as a table row under the key asked is.
"""

from __future__ import annotations

import re

from clew.corpus.tokenize import tokenize

_ASKED = re.compile(r"\b(?:if|when|whenever|unless|once)\b([^,;?]*)", re.IGNORECASE)
"""A condition the question states: from its conjunction to the next ``,``, ``;``, ``?`` or the question's end."""
_KEYWORD = re.compile(r"\b[A-Za-z_]\w*=[\w.'\"-]+")
"""A keyword argument the question writes (``maxsize=None``): a condition of its own."""
_OPENING = re.compile(r"\s*(?:if|when|whenever|unless|once|in case|in the event)\b([^,;:]*)", re.IGNORECASE)
"""A unit's opening condition: its conjunction, up to its first ``,``, ``;``, ``:`` or its end."""
SHARED = 2
"""How many terms of one question condition a unit's opening condition holds to restate it."""


def asked_conditions(question: str, wanted: set[str]) -> tuple[frozenset[str], ...]:
    """The question terms of each condition ``question`` states (``_ASKED``, ``_KEYWORD``) that has ``SHARED`` or
    more of them."""
    spans = [m.group(1) for m in _ASKED.finditer(question)] + _KEYWORD.findall(question)
    terms = (frozenset(wanted.intersection(tokenize(span))) for span in spans)
    return tuple(t for t in terms if len(t) >= SHARED)


def states_condition(text: str, conditions: tuple[frozenset[str], ...]) -> bool:
    """Whether ``text`` (a unit's own words, a field item's after its key) opens with a condition holding ``SHARED``
    or more terms of one of ``conditions``."""
    if not conditions or (match := _OPENING.match(text)) is None:
        return False
    opening = set(tokenize(match.group(1)))
    return any(len(opening & condition) >= SHARED for condition in conditions)
