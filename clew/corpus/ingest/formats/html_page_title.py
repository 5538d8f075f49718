"""The title of an HTML page from its ``<title>``, its first ``h1`` and its site's name (``html_site.SiteName``).

Split from html_rules so that the next reader rule has room (review V17).
"""

from __future__ import annotations

import re

_TITLE_SEPARATORS = (" — ", " – ", " - ", " | ", " · ", " • ", " :: ", ": ")  # " • ": pkgdown's "Grouped data • dplyr"
_SPHINX_UNTITLED = "<no title>"
"""What Sphinx writes as the title of a page without a heading, before the site's name ("<no title> — Cython
0.29.32 documentation", the Cython examples' README; task U15): no title, as a page without a ``<title>``."""
_SOURCE_NAME = re.compile(r"[\w.-]*\.(?:rst|txt)")
"""What docutils writes as the title of a page whose text has no title of its own (raw HTML before its first
section, xapian-doc 1.4's ``index.html`` and ``internals.html``): its source file's name, ``index.rst``
(task S5). No title, so the first ``h1``, "Xapian - the open source search engine"; kept where the page has no
``h1`` (an author may title a page so: "requirements.txt"; task L2)."""

_SPHINX_ROOT = re.compile(r".+ v?\d[\w.+-]* documentation")
"""Sphinx's default ``html_title`` ("<project> <release> documentation"), a root page's ``<title>``: where it opens
with the page's ``h1`` ("structlog"), the ``h1`` is the page's title (task L4)."""

_MKDOCS_INDEX = "Index"
"""MkDocs' title of a folder's ``index.md`` that the navigation names no title and that opens with no ``h1`` (a
source link first): its file's name ("Index - PyMdown Extensions Documentation" over the ``h1`` "Blocks"; task E9)."""


def page_title(title: str | None, first_h1: str | None, site: str | None = None) -> str | None:
    """The page's title: its first ``h1`` where the ``<title>`` is that heading with the site's name
    after it (Sphinx's "functools — ... — Python 3.11.2 documentation"); the ``<title>`` less the
    site's name where the ``h1`` of the page's chrome (``site``) is that name and ends it (Node.js's
    "File system | Node.js v18.20.4 Documentation" under a header's "Node.js v18.20.4
    documentation"); the name once where the ``<title>`` is one name twice (a home page titled
    "<page>: <site>" as every page, gtk-doc's); the ``<title>``'s part before the site's name where the
    ``h1`` ends with it (TypeDoc's "clamp | clew-budgets" over "Function clamp"), unless the ``<title>`` is the
    ``h1`` after the site's name (R's package pages: "R: Support for Parallel computation in R", whose ``h1`` ends
    with "R", were titled "R"; task R7); the ``h1`` where the ``<title>`` is a name, then the ``h1``'s last words
    (Doxygen titles every class's list of members "Eigen: Member List" over the ``h1`` "Eigen::AlignedBox<
    _Scalar, _AmbientDim > Member List": 155 of libeigen3-doc 3.4's 475 pages so titled; task S5); else the
    ``<title>``. Sphinx's ``<no title>`` is none, and so is docutils' source file's name (:data:`_SOURCE_NAME`)
    where an ``h1`` can take its place: with none it is kept, as an author's "requirements.txt" is (task L2)."""
    if title is not None and (title == _SPHINX_UNTITLED or (first_h1 and _SOURCE_NAME.fullmatch(title))
                              or any(title.startswith(_SPHINX_UNTITLED + sep) for sep in _TITLE_SEPARATORS)):
        title = None
    if title is None:
        return first_h1
    if first_h1 and any(title.endswith(sep + first_h1) and title[: -len(sep + first_h1)].strip()
                        for sep in _TITLE_SEPARATORS):  # the site's name first: R's "R: Support for Parallel ..."
        return first_h1
    for sep in _TITLE_SEPARATORS:  # a home page: its name twice ("ATK - Accessibility Toolkit: ATK - ...")
        head, found, tail = title.partition(sep)
        if found and head.strip() and (head.strip() == tail.strip() or (first_h1 or "").endswith(" " + head.strip())):
            return head.strip()
    if first_h1 and (title == first_h1 or any(title.startswith(first_h1 + sep) for sep in _TITLE_SEPARATORS)
                     or (title.startswith(first_h1 + " ") and _SPHINX_ROOT.fullmatch(title))):
        return first_h1
    if first_h1 and any(found and head.strip() and tail.strip() and first_h1.endswith(" " + tail.strip())
                        for head, found, tail in (title.partition(sep) for sep in _TITLE_SEPARATORS)):
        return first_h1  # the site's name, then the h1's last words: Doxygen's "Eigen: Member List" (task S5)
    if site:
        for sep in _TITLE_SEPARATORS:
            head, found, tail = title.rpartition(sep)
            if found and head.strip() and tail.strip().casefold() == site.casefold():
                return first_h1 if first_h1 and head.strip() == _MKDOCS_INDEX else head.strip()
    return title
