"""A question's two words that the documentation writes as one, and the reverse.

"strike through" asks for what a page calls ``strikethrough``; "git push" for the page ``git-push``;
"filename" for what another calls "file name"; "readonly" for ``read-only`` (one index term, besides its
parts). The query side of every keyword search (``bm25_search`` and the walk's ``QueryScorer``) adds, from
the words as the question writes them:

- for two adjacent plain words (the first no stopword, the second none but a particle: ``log in``), their
  concatenation (``strikethrough``) and their hyphenated form (``git-push``), when the scope's
  vocabulary holds it; a hyphenated question word is left as the tokenizer reads it (``built-in`` is
  ``built-in`` and ``built``: joining it to ``builtin`` and ``e-mail`` to ``email`` lost phrases);
- for a plain word the vocabulary does not hold, the hyphenated term it holds (``plug-in``), or else
  its split into two words of at least ``PART_MIN`` letters that it holds (``file`` + ``name``).

All of them are looked up in the one statistics query the search makes anyway (``term_stats``). A
joined term weighs ``JOIN_WEIGHT`` times the larger idf of the two words it stands for: it tips a
passage that writes the compound and holds the question's other words, without outranking one that
holds both words (its own idf, or the full larger idf, cost phrases where the compound is another
thing: ``timezone`` the setting for "time zone", ``packageName`` for "package name";
``docs/measurements/search-2026-12-04.md``). Split parts weigh their own idf. ``expanded`` shows each
extra term and the words it stands for (the search's ``applied``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import chain

from clew.corpus.reader import Scope
from clew.corpus.search.stats import TermStats, term_stats
from clew.corpus.tokenize import STOPWORDS, raw_tokens, word_terms

_PLAIN = re.compile(r"[a-z]+")
JOIN_WEIGHT = 0.25
"""A joined term's weight: this times the larger idf of the two words it stands for (see the module docstring)."""
PART_MIN = 4
"""Letters each part of a split needs (``file`` + ``name``; not ``strong`` + ``est``, ``up`` + ``load``),
unless the vocabulary holds the two parts hyphenated (``plug-in``)."""
PARTICLES = frozenset({"in", "on"})
"""Stopwords that may end a joined pair (``log in``, ``built in``, ``add on``); no other pair with a
stopword is joined (``for me`` is not ``form``, ``can one`` not ``canon``)."""


@dataclass(frozen=True, slots=True)
class QueryTerms:
    stats: TermStats
    """The statistics of every term the search scores (the query's own and the extra ones that occur)."""
    weights: dict[str, float]
    """Term -> its weight (idf), in term order: the query's own terms, then the extra ones."""
    expanded: dict[str, str]
    """Extra term -> the words of the query it stands for."""


def _stem(word: str) -> str | None:
    terms = word_terms(word)
    return terms[0] if len(terms) == 1 else None


def query_terms(scope: Scope, query: str) -> QueryTerms:
    """The query's terms, its compounds' and splits' where the scope's vocabulary holds them, weighted."""
    raws = raw_tokens(query)
    own = set(chain.from_iterable(map(word_terms, raws)))
    joins: dict[str, tuple[str, str]] = {}
    for a, b in zip(raws, raws[1:], strict=False):
        if (_PLAIN.fullmatch(a) and _PLAIN.fullmatch(b) and len(a) >= 3 and a not in STOPWORDS
                and (b not in STOPWORDS or b in PARTICLES)):
            for term in (_stem(a + b), f"{a}-{b}"):
                if term is not None and term not in own:
                    joins.setdefault(term, (a, b))
    splits: dict[str, list[tuple[str | None, str | None, str]]] = {}
    for raw in raws:
        if len(raw) >= 5 and _PLAIN.fullmatch(raw) and raw not in STOPWORDS:
            splits[raw] = [(_stem(raw[:i]), _stem(raw[i:]), f"{raw[:i]}-{raw[i:]}") for i in range(2, len(raw) - 1)]
    asked = own | set(joins) | {t for options in splits.values() for option in options for t in option if t}
    stats = term_stats(scope, asked)
    held = stats.terms

    def idf(term: str | None) -> float:
        return stats.idf(held[term][1]) if term is not None and term in held else 0.0

    weights = {term: idf(term) for term in sorted(own) if term in held}
    expanded: dict[str, str] = {}
    for term, (a, b) in sorted(joins.items()):
        if term in held:
            weights[term] = JOIN_WEIGHT * max(idf(_stem(a)), idf(_stem(b))) or idf(term)
            expanded[term] = f"{a} {b}"
    for raw, options in splits.items():
        if _stem(raw) in held:
            continue
        best: tuple[int, list[str]] | None = None  # (fit, terms): a held hyphenated form first, then even parts
        for x, y, hyphened in options:
            shorter = min(map(len, hyphened.split("-")))
            if hyphened in held:
                found, fit = [hyphened], 100 + shorter
            elif x in held and y in held and shorter >= PART_MIN:
                found, fit = [x, y], shorter
            else:
                continue
            if best is None or fit > best[0]:
                best = (fit, found)
        if best is not None:
            for term in best[1]:
                if term not in weights:
                    weights[term] = idf(term)
                    expanded[term] = raw
    return QueryTerms(stats, weights, expanded)
