"""The page a question names, for the extract (task X28, rule N1).

Search puts the passages of the page a query names first (``clew.corpus.search.written``, task X24), but the
extract scored a unit without knowing its page: for "what does ssh -L do" ssh-keygen(1)'s ``-L`` ("Prints the
contents of one or more certificates.") outranked ssh(1)'s, both under an option term ``-L``. A passage's page is
named when its document's name (its title less a man page's section, case folded: ``ssh(1)`` -> ``ssh``) is one of
the names the question writes (a word, or two or three consecutive words joined by a space or a hyphen, options
left out: ``git status -s`` writes ``git``, ``status``, ``git status`` and ``git-status``). Of the pages named,
only those of the longest name count (``git-status(1)``, not ``git(1)``); the units of their passages weigh
``1 + NAMED`` times as much.
"""

from __future__ import annotations

from collections.abc import Mapping

from clew.agent.declarations import option_term, other_case_terms
from clew.agent.units import Unit
from clew.corpus.search.written import named, page_name, written_options

_DASH = " \u2014 "
"""Between a page's name and its description in its title (an em dash between spaces)."""
NAMED = 0.5
"""Bonus share for a unit of a passage whose page the question names (``named_pages``)."""


def document_of(evidence_id: str) -> str:
    """The document version a passage id names (its ordinal cut off)."""
    return evidence_id.rpartition(":")[0]


def named_pages(question: str, titles: Mapping[str, str | None]) -> frozenset[str]:
    """The evidence ids of ``titles`` (each passage's document title) whose page ``question`` names, by the
    longest name it writes that a page of the evidence has; none when it names no page of the evidence, or
    writes no command-line option (N2: as search orders the page named first only then)."""
    if not written_options(question):
        return frozenset()
    names = named(question)[0]
    pages = {e: name for e, title in titles.items() for name in _names(title) if name in names}
    longest = max(map(len, pages.values()), default=0)
    return frozenset(e for e, name in pages.items() if len(name) == longest)


def _names(title: str | None) -> tuple[str, ...]:
    """The names a title gives its page: the title less a man page's section, case folded, and for a title
    ``NAME — description`` (a Sphinx module's page: ``abc — Abstract Base Classes``) its ``NAME`` too."""
    name = page_name(title)
    head = name.split(_DASH, 1)[0].strip() if name is not None and _DASH in name else None
    return tuple(n for n in (name, head) if n)


def under_option(unit: Unit, wanted: set[str], options: frozenset[str]) -> bool:
    """N3: a unit under the term of an option the question writes, in its letter case (ssh(1)'s "Specifies that
    connections to the given TCP port ..." under ``-L [bind_address:]port:host:hostport, ...`` for ``ssh -L``): a fact
    with its key, as a field list's item whose key the question names."""
    if not options or unit.kind == "row" or not unit.header:
        return False
    return bool(option_term(unit.header)[1] & wanted - other_case_terms(options, unit.header.rsplit("\n", 1)[-1]))
