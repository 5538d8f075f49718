"""The search tokenizer: identifiers, numbers and options stay whole and findable.

``SQLITE_BUSY``, ``max_wal_size``, ``5432``, ``3.23.41``, ``-k`` and ``--directory`` are each
one token, and a compound token also yields its parts (``max``, ``wal``, ``size``) so that
prose queries find identifiers too. Plain words are lower-cased and Snowball-stemmed
(English); a short stopword list is dropped. The same function tokenizes documents and
queries, for the search index (``clew.corpus.search``), the hashing embedder
(``clew.corpus.embedders``) and the answer check (``clew.agent.generate``): it sits below all three.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING, Any

import Stemmer

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# A word first, then an option: the same matches as with the option first (one begins with \w,
# the other with -), and the common case tries one branch instead of a lookbehind at every position
# (the word's possessive ``*+`` gives back nothing, and saves the backtracking states).
# Then a shell parameter: ``$*``, ``$@``, ``$#``, ``$?``, ``$$``, ``$!``, ``$-``, a positional ``$0``-``$9``
# (one digit, not one before more digits or a decimal point: "$10" and "$5.99" are prices, their
# numbers the terms, as before; "$5" is ``$5`` and its part ``5``), ``$name`` or ``${name}`` (a compound
# as a word is: ``$enable-shadows``, Sass's; ``$HOME/bin``), the same term, followed by the name's; and a few
# shell operators, each exactly: ``&&``, ``||``, ``|&``, ``>&1``/``>&2`` (so ``2>&1`` is ``2``, ``>&1``
# and its part ``1``: a ``2>&1`` token would cost every word a try, 9% of the regex's time), ``>>``
# (not inside ``>>>``, Python's prompt) and ``<<<``. Every branch begins with a literal or a class.
TOKEN = re.compile(r"[\w]+(?:[.\-:/][\w]+)*+|-(?<![\w-]-)-?[A-Za-z][\w-]*"
                    r"|\$(?:[*@#?$!\-]|\d(?!\w|\.\d)|[A-Za-z_]\w*(?:[.\-:/][\w]+)*+|\{[A-Za-z_]\w*\})"
                    r"|&&|\|[|&]|>(?:&\d|>(?<!>>>)(?!>))|<<<(?<!<<<<)(?!<)")
"""A token as written, before it becomes index terms (``tokenize``): what a query's words are matched as
(``clew.corpus.search.fields``, ``clew.agent.absent``)."""
_PARTS = re.compile(r"[A-Za-z]+|\d+")
_PLAIN = re.compile(r"[a-z]+")
STOPWORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there these "
    "they this to was will with what which who whom how when where why do does did can could should would "
    "i you he she we me my your our its from has have had been being than so".split()
)
_stemmer = Stemmer.Stemmer("english")


@lru_cache(maxsize=200_000)
def _word(token: str) -> tuple[str, ...]:
    """Index terms for one lower-cased raw token."""
    if _PLAIN.fullmatch(token):
        return () if token in STOPWORDS else (_stemmer.stemWord(token),)
    if token[0] == "$" and (token[1].isalpha() or token[1] in "_{"):  # $name or ${name}, then the name's terms
        name = token[2:-1] if token[1] == "{" else token[1:]
        return ("$" + name, *_word(name))
    terms = [token]
    parts = _PARTS.findall(token)
    if len(parts) > 1 or (parts and parts[0] != token):
        for part in parts:
            if part in STOPWORDS:
                continue
            terms.append(_stemmer.stemWord(part) if part.isalpha() else part)
    return tuple(terms)


def folded(text: str) -> str:
    """``text`` lower-cased, in Unicode's compatibility form (NFKC) where it is not ASCII: a ligature as its
    letters (tex4ht's and some PDFs' "\ufb01les" is "files"), full-width letters and digits as ASCII, a letter and
    its combining accent as one character (task U23). Documents and queries alike, so each finds the other."""
    return text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).lower()


def tokenize(text: str) -> list[str]:
    """Index terms of ``text`` in order (compound tokens are followed by their parts)."""
    out: list[str] = []
    for raw in TOKEN.findall(folded(text)):
        out.extend(_word(raw))
    return out


class _TermCache(dict[str, tuple[str, ...]]):
    """Raw token -> ``_word(raw)``. A dict whose misses fill it (``__missing__``), so that one C-level
    ``map`` of its ``__getitem__`` looks every token of a text up; emptied at ``_TERMS_MAX`` entries."""

    def __missing__(self, raw: str) -> tuple[str, ...]:
        if len(self) >= _TERMS_MAX:
            self.clear()
        terms = self[raw] = _word(raw)
        return terms


_TERMS_MAX = 200_000
_TERMS = _TermCache()


class _WordCache(dict[str, tuple[str, ...]]):
    """A lower-cased whitespace-delimited word -> the index terms of the tokens in it, in order (the
    same ``__missing__`` scheme as ``_TermCache``). No token spans whitespace (none of the characters
    a token may hold is one that ``str.split`` splits at, and a token's lookbehind accepts whitespace
    and a word's start alike), so the tokens of a text are the tokens of its words, in order: words
    repeat far more often than they are new, and a known one costs one lookup instead of the regex."""

    def __missing__(self, word: str) -> tuple[str, ...]:
        if len(self) >= _TERMS_MAX:
            self.clear()
        terms = self[word] = tuple(chain.from_iterable(map(_TERMS.__getitem__, TOKEN.findall(folded(word)))))
        return terms


_WORDS = _WordCache()


def count_terms(text: str) -> Counter[str]:
    """Index terms of ``text`` and how often each occurs: ``Counter(tokenize(text))`` (same counts,
    same order), without a Python call per token, and the token regex run only on words not seen
    lately (``_WordCache``: an ingest's term counting took 0.56 s for 20,000 generated chunks, 0.34 s
    of it the regex)."""
    return Counter(chain.from_iterable(map(_WORDS.__getitem__, text.lower().split())))


_ODD_SPACES = ("\x1c", "\x1d", "\x1e", "\x1f")
"""ASCII characters that ``str.split`` splits at and Arrow's ``ascii_split_whitespace`` does not."""


@dataclass(frozen=True, slots=True)
class TermPostings:
    """The index terms of many texts, as flat arrays: one posting per (text, distinct term), in text
    order. ``count_terms(texts[i])`` holds ``vocabulary[term[j]]: tf[j]`` for each ``j`` with
    ``text[j] == i``, and ``lengths[i]`` is its total (``sum`` of its counts)."""

    vocabulary: list[str]
    text: npt.NDArray[np.int64]
    term: npt.NDArray[np.int64]
    tf: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]


BULK_TEXTS = 4096
"""Texts whose words Arrow splits and counts at once: bounds the arrays of one step (the 20,000 chunks of
one batch at once: 95 MB more peak RSS than a ``Counter`` per chunk)."""


class _TermNumbers(dict[str, int]):
    """An index term -> its number in ``_TERM_NAMES`` (a new term gets the next), for ``count_terms_bulk``."""

    def __missing__(self, term: str) -> int:
        number = self[term] = len(_TERM_NAMES)
        _TERM_NAMES.append(term)
        return number


class _WordIndex(dict[str, int]):
    """A lower-cased word -> its place in the word table: the numbers (``_TERM_NUMBERS``) of ``_WORDS[word]``'s
    terms, in order, are ``_WORD_TERMS[_WORD_STARTS[i] : _WORD_STARTS[i + 1]]``. A step's distinct words become
    their places in one C-level ``map``, and numpy gathers their terms' numbers from the table: the same numbers
    as a tuple per word chained into an array, without a Python step per term (that chaining, 0.30 s of the 1.5 s
    the 100,000 generated chunks' terms took warm, and numbering each term of each distinct word per batch
    before it, 0.5 s, in ``docs/measurements/performance-2026-12-05.md``)."""

    def __missing__(self, word: str) -> int:
        index = self[word] = len(_WORD_STARTS) - 1
        _WORD_TERMS.extend(map(_TERM_NUMBERS.__getitem__, _WORDS[word]))
        _WORD_STARTS.append(len(_WORD_TERMS))
        return index


_TERM_NAMES: list[str] = []
_TERM_NUMBERS = _TermNumbers()
_WORD_INDEX = _WordIndex()
_WORD_TERMS = array("q")
_WORD_STARTS = array("q", [0])
_BULK_LOCK = threading.Lock()
"""Held by each ``count_terms_bulk``: its numbers stay valid for the whole call (the tables above are
emptied only between calls, at ``_TERMS_MAX``) and two threads never number one term twice."""


def _ascii_postings(texts: list[str], positions: list[int]) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The postings ``(text position, term number in _TERM_NAMES, tf)`` of ASCII texts (whose characters
    Arrow lower-cases and splits as Python does), sorted by position then term number."""
    # compute's functions by name: ``pyarrow.compute`` itself builds a Python wrapper for every
    # kernel at import (30-80 ms of each ingesting process); ``call_function`` is what they call.
    # The texts become Arrow through clew.corpus.columns: ``pyarrow.array`` imports pandas (40 MB)
    import numpy as np
    from pyarrow._compute import call_function

    from clew.corpus.columns import arrow_array

    words = call_function("ascii_split_whitespace", [call_function("ascii_lower", [arrow_array("text", texts)])])
    # Arrow's split keeps the empty words around leading, trailing and repeated whitespace that
    # ``str.split`` drops: they have no terms (``_WORDS[""]`` is empty), so the counts agree
    encoded = call_function("dictionary_encode", [call_function("list_flatten", [words])])
    occurrences = _ints(encoded.indices)  # each word's index among the distinct ones
    places = np.fromiter(map(_WORD_INDEX.__getitem__, encoded.dictionary.to_pylist()), dtype=np.int64,
                         count=len(encoded.dictionary))
    bounds = np.array(_WORD_STARTS, dtype=np.int64)  # copies (after the map above, which may add words):
    table = np.array(_WORD_TERMS, dtype=np.int64)  # no view left to block the next step's additions
    word = places[occurrences]  # each word occurrence's place in the table
    firsts = bounds[word]
    each = bounds[word + 1] - firsts  # terms of each word occurrence
    starts = np.repeat(firsts, each)
    starts += np.arange(len(starts)) - np.repeat(np.cumsum(each) - each, each)  # + the term's rank in its word
    owners = np.repeat(np.repeat(np.asarray(positions, dtype=np.int64), np.diff(_ints(words.offsets))), each)
    width = max(len(_TERM_NAMES), 1)
    owners *= width
    owners += table[starts]
    # ``np.unique`` without its sort of the whole step: the pairs come in runs of ascending positions, which
    # a stable sort (a merge of runs) orders in a third of the time
    owners.sort(kind="stable")
    runs = np.flatnonzero(np.diff(owners, prepend=-1))  # where each distinct pair starts
    pairs, tfs = owners[runs], np.diff(runs, append=len(owners))
    return pairs // width, pairs % width, tfs


def _ints(array: Any) -> npt.NDArray[Any]:
    """An Arrow integer array's values as numpy, read from its buffer (``to_numpy`` imports pandas)."""
    import numpy as np

    width = array.type.bit_width // 8
    return np.frombuffer(array.buffers()[1], dtype=f"<i{width}", count=len(array), offset=array.offset * width)


def count_terms_bulk(texts: Sequence[str]) -> TermPostings:
    """``count_terms`` of every text at once, for an ingest batch (the same counts, not their order).

    An ASCII text (whose lower-casing and whitespace Arrow treats as Python does: ``_ODD_SPACES``
    aside) is lower-cased, split and its words told apart by Arrow in C; only the distinct words
    are looked up (``_WordIndex``: their terms' numbers) and the (text, term) pairs counted by numpy.
    The vocabulary is in the order of those numbers (a term's first sight in this process). Any other text is
    counted by ``count_terms``. On 20,000 generated chunks: 0.20 s, against 0.60 s for their
    ``Counter``s and 0.26 s more to flatten those into postings (warm caches).
    """
    import numpy as np

    with _BULK_LOCK:
        if len(_TERM_NAMES) >= _TERMS_MAX or len(_WORD_INDEX) >= _TERMS_MAX:
            _TERM_NAMES.clear()
            _TERM_NUMBERS.clear()
            _WORD_INDEX.clear()
            del _WORD_TERMS[:]
            del _WORD_STARTS[1:]
        whole = "".join(texts)  # most batches: every text fits, told by one look at them all (4 scans in C)
        if whole.isascii() and not any(odd in whole for odd in _ODD_SPACES):
            bulk = list(range(len(texts)))
        else:
            bulk = [i for i, t in enumerate(texts) if t.isascii() and not any(odd in t for odd in _ODD_SPACES)]
        del whole
        parts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
        for first in range(0, len(bulk), BULK_TEXTS):
            positions = bulk[first : first + BULK_TEXTS]
            parts.append(_ascii_postings([texts[i] for i in positions], positions))
        if len(bulk) < len(texts):
            chosen = set(bulk)
            owned: list[int] = []
            terms: list[int] = []
            counts: list[int] = []
            for i, text in enumerate(texts):
                if i in chosen:
                    continue
                counter = count_terms(text)
                owned.extend([i] * len(counter))
                terms.extend(map(_TERM_NUMBERS.__getitem__, counter))
                counts.extend(counter.values())
            parts.append((np.array(owned, dtype=np.int64), np.array(terms, dtype=np.int64),
                          np.array(counts, dtype=np.int64)))
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return TermPostings([], empty, empty, empty, np.zeros(len(texts), dtype=np.int64))
        owner, term, tf = (np.concatenate(column) for column in zip(*parts))
        # the batch's own vocabulary: the numbers it uses, renumbered from 0 in the same order
        used = np.zeros(len(_TERM_NAMES), dtype=bool)
        used[term] = True
        numbers = np.flatnonzero(used)
        vocabulary = list(map(_TERM_NAMES.__getitem__, numbers.tolist()))
    local = np.cumsum(used) - 1
    if len(bulk) == len(texts):  # the steps' postings, in order, are already by position
        term = local[term]
    else:
        order = np.argsort(owner, kind="stable")
        owner, term, tf = owner[order], local[term[order]], tf[order]
    lengths = np.bincount(owner, weights=tf, minlength=len(texts)).astype(np.int64)
    return TermPostings(vocabulary, owner, term, tf, lengths)
