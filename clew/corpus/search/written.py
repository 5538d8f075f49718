"""What a question writes that the index folds: an option's letter case, and the page it names.

The index folds case (``clew.corpus.tokenize``): ``-L`` and ``-l`` are one term, and the question's
``ssh`` is a term of ``ssh-keygen(1)``'s title as much as of ``ssh(1)``'s. Where a query writes a
command-line option, each retriever's window is put in order by two rules (task X24), each a
permutation of some of its passages among their own positions (a passage outside the group never moves):

- the passages holding one of the query's options in any letter case: those that hold none of them only
  in another case come first (``-L`` asked: ssh(1)'s ``-L`` before ssh-keygen(1)'s ``-l``);
- then the passages whose document's name shares a word with the query: the documents the query names come
  first (``ssh -L`` names ``ssh(1)``, not ``ssh-keygen(1)``; ``git status -s`` names ``git-status(1)``).

A query without an option costs one regular-expression scan; one with an option, a scan of each window
passage's text for the options it writes (the passages are fetched once, for this and for the hits).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from clew.corpus import ids
from clew.corpus.reader import Passage
from clew.corpus.search.index import document_title, index_text
from clew.corpus.tokenize import STOPWORDS, TOKEN, folded

Row = tuple[int, int, int, float]
_SECTION = re.compile(r"\s*\(\w{1,4}\)$")
"""A man page's section after its name: ``ssh(1)``, ``printf(3p)``."""
_PARTS = re.compile(r"[^\W_]+")


def written_options(query: str) -> frozenset[str]:
    """The command-line options ``query`` writes, as written (``-L``, ``--porcelain``)."""
    return frozenset(t for t in TOKEN.findall(query) if t[0] == "-" and any(c.isalpha() for c in t))


def document_name(fields: dict[str, object]) -> str | None:
    """A document's name: its title less a man page's section, case folded (``ssh(1)`` -> ``ssh``)."""
    return page_name(document_title(fields))


def page_name(title: str | None) -> str | None:
    """The name a document's ``title`` gives it: less a man page's section, case folded (``ssh(1)`` -> ``ssh``)."""
    return folded(_SECTION.sub("", title)) if title else None


def named(query: str) -> tuple[frozenset[str], frozenset[str]]:
    """The names ``query`` gives (a word, or two or three consecutive words joined by a space or a hyphen)
    and its words' parts (stopwords left out), from its tokens other than options."""
    words = [t for t in TOKEN.findall(folded(query)) if t[0] != "-"]
    names = {joiner.join(words[i:i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)
             for joiner in (" ", "-")}
    parts = {p for w in words for p in _PARTS.findall(w) if p not in STOPWORDS}
    return frozenset(names), frozenset(parts)


def _first(rows: list[Row], group: Sequence[bool], first: Sequence[bool]) -> list[Row]:
    """``rows`` with the group's members that are ``first`` ahead of the others, in the group's positions."""
    slots = [i for i, member in enumerate(group) if member]
    members = [i for i in slots if first[i]] + [i for i in slots if not first[i]]
    out = list(rows)
    for slot, member in zip(slots, members, strict=True):
        out[slot] = rows[member]
    return out


@lru_cache(maxsize=256)
def _held(options: frozenset[str]) -> re.Pattern[str]:
    """The options of ``options`` as a text writes them, in any letter case, each a whole token (as ``TOKEN``
    reads one: no word character or hyphen on either side)."""
    alternatives = "|".join(sorted((re.escape(o) for o in options), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def other_case(options: frozenset[str], text: str) -> tuple[bool, frozenset[str]]:
    """Whether ``text`` holds one of ``options`` (a query's, as written) in any letter case, and those it holds only
    in another case than written (``-L`` asked, ``-l`` written), as ``options`` writes them."""
    found = set(_held(options).findall(text))
    lowered = {f.lower() for f in found}
    return bool(found), frozenset(o for o in options if o.lower() in lowered and o not in found)


def order_as_written(query: str, ranked: dict[str, list[Row]], passages: dict[str, Passage]) -> dict[str, list[Row]]:
    """Each retriever's list in the order the two rules above give (``ranked`` itself when the query writes
    no option). ``passages``: the lists' passages by evidence id (those missing do not move)."""
    options = written_options(query)
    if not options:
        return ranked
    names, parts = named(query)
    holds: dict[str, tuple[bool, bool]] = {}  # evidence id -> (holds an option in any case, none only in another)
    naming: dict[str, tuple[bool, bool]] = {}  # evidence id -> (its name shares a word, the query names it)
    for key, passage in passages.items():
        found, other = other_case(options, index_text(passage.heading_path, passage.header, passage.body,
                                                      document_title(passage.fields)))
        holds[key] = (found, not other)
        name = document_name(passage.fields)
        naming[key] = (bool(name and parts.intersection(_PARTS.findall(name))), name in names)
    out: dict[str, list[Row]] = {}
    for retriever, rows in ranked.items():
        case = [holds.get(ids.chunk_id(d, v, o), (False, False)) for d, v, o, _ in rows]
        rows = _first(rows, [c[0] for c in case], [c[1] for c in case])
        name_of = [naming.get(ids.chunk_id(d, v, o), (False, False)) for d, v, o, _ in rows]
        out[retriever] = _first(rows, [n[0] for n in name_of], [n[1] for n in name_of])
    return out
