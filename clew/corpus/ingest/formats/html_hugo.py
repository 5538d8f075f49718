"""Hugo's table of contents (``.TableOfContents``: ``<nav id="TableOfContents">``) with its theme's label before
it, and on a page Hugo built its theme's category links over the title and related pages after the page
(``hugo_theme_chrome``, task R15), made into HTML the reader reads well before the page is parsed
(``html_more.restructured``; task U22).

The ``nav`` is chrome and is dropped; the label a theme writes right before it ("What's on this Page", Hugo's own
documentation theme; "On this page", "Table of Contents") stayed, the page's first line: on the 89 of Hugo's
documentation pages with a table of contents the first passage held it and the page's category link, nothing more.
"""

from __future__ import annotations

import re
from html import unescape

TOC = '<nav id="TableOfContents">'
"""Where Hugo writes a page's table of contents (goldmark's, any theme)."""
TOC_LABELS = frozenset({"what's on this page", "on this page", "contents", "table of contents", "in this article"})
"""What a label before the table of contents says (casefolded, spaces collapsed, a typographic apostrophe straight,
a trailing colon left out)."""
_LABEL_MAX = 120
"""The longest element taken for a label: the search back from the ``nav`` goes no further."""


def hugo_toc_label(text: str) -> str:
    """``text`` without the element right before each :data:`TOC` (whitespace between) whose whole content is text
    that says one of :data:`TOC_LABELS`: ``<p class="b">What's on this Page</p>``. Linear in the page: each label is
    looked for in the :data:`_LABEL_MAX` characters before its ``nav``, the page joined once."""
    pieces: list[str] = []
    done = 0  # the text before it is in pieces
    at = text.find(TOC)
    while at >= 0:
        end = at
        while end > done and text[end - 1].isspace():
            end -= 1
        window = max(done, end - _LABEL_MAX)
        start = _label_start(text[window:end])
        if start is not None:
            pieces.append(text[done:window + start])
            done = end
        at = text.find(TOC, at + len(TOC))
    return "".join([*pieces, text[done:]]) if pieces else text


def _label_start(before: str) -> int | None:
    """Where the element that ``before`` ends with starts, if it is a label (:data:`TOC_LABELS`)."""
    if not before.endswith(">"):
        return None
    close = before.rfind("</")
    tag = before[close + 2:-1].strip().lower()
    if close < 0 or not tag.isalnum():
        return None
    content_end = before.rfind(">", 0, close)
    start = before.rfind("<" + tag, 0, content_end) if content_end > 0 else -1
    opening = before[start:content_end + 1]
    if start < 0 or opening[len(tag) + 1] not in " \t\n>" or ">" in opening[:-1]:
        return None  # no element of its own
    if "<" in before[content_end + 1:close]:
        return None  # one holding more than text
    label = " ".join(unescape(before[content_end + 1:close]).replace("\u2019", "'").split())
    return start if label.casefold().rstrip(":") in TOC_LABELS else None


GENERATOR = '<meta name="generator" content="Hugo'
"""What every page Hugo builds holds in its head (``hugo.Generator``, written by Hugo's themes)."""
_HEAD_MAX = 20_000
"""How far into a page the generator is looked for."""
_TAXONOMIES = ("/categories/", "/tags/")
"""Hugo's default taxonomies: a link into one lists the pages of a category or tag."""
_LINKS_MAX = 2000
"""The most text between a ``<header>`` and its ``<h1>`` looked at for taxonomy links (three links at most, 300
characters, on Hugo's documentation pages)."""
_SEE_ALSO = "<h2>See Also</h2>"
"""The heading of Hugo's related pages as its documentation theme writes them (``.Site.RegularPages.Related``, the
``related.html`` partial): no ``id``, which every heading Hugo renders from Markdown has (goldmark's
``autoHeadingID``)."""
_LINK_ITEMS = re.compile(r"(?:\s*+<li>\s*+<a [^<]*+</a>\s*+</li>)++\s*+")
"""A ``<ul>``'s items, each holding one link and nothing else (matched whole; linear: a link's text holds no ``<``).
A loop that cut each item off the rest of the list took time quadratic in the list (80,000 items 2.3 s)."""


def hugo_page(text: str) -> bool:
    """Whether ``text`` is a page Hugo built (:data:`GENERATOR` before its ``</head>``)."""
    head_end = text.find("</head>", 0, _HEAD_MAX)
    return text.find(GENERATOR, 0, head_end if head_end >= 0 else _HEAD_MAX) >= 0


def hugo_theme_chrome(text: str) -> str:
    """``text`` (a page Hugo built) without its theme's links to the page's categories or tags between a ``<header>``
    and the page's ``<h1>`` ("CONTENT MANAGEMENT", the first line of 411 of Hugo's documentation pages), and without
    the related pages' list after the page (:data:`_SEE_ALSO` and the ``<ul>`` of links under it: 181 pages, read as
    the page's last section; task R15). Linear in the page."""
    pieces: list[str] = []
    done = 0
    at = text.find("<header")
    while at >= 0:
        open_end = text.find(">", at)
        heading = text.find("<h1", open_end)
        if open_end < 0 or heading < 0:
            break
        if _only_taxonomy_links(text[open_end + 1:heading]):
            pieces.append(text[done:open_end + 1])
            done = heading
        at = text.find("<header", heading)
    at = text.find(_SEE_ALSO, done)
    if at >= 0:
        start = text.find("<", at + len(_SEE_ALSO))
        end = text.find("</ul>", start) if start >= 0 and text.startswith("<ul>", start) else -1
        if end >= 0 and _LINK_ITEMS.fullmatch(text, start + 4, end):
            pieces.append(text[done:at])
            done = end + len("</ul>")
    return "".join([*pieces, text[done:]]) if pieces else text


def _only_taxonomy_links(between: str) -> bool:
    """Whether ``between`` is one or more links into :data:`_TAXONOMIES` with nothing but whitespace around them."""
    rest = between.strip()
    if not rest or len(rest) > _LINKS_MAX:
        return False
    while rest:
        opening_end, close = rest.find(">"), rest.find("</a>")
        if not rest.startswith("<a ") or not 0 < opening_end < close or "<" in rest[opening_end + 1:close]:
            return False
        href_at = rest.find('href="', 0, opening_end)
        href = rest[href_at + 6:rest.find('"', href_at + 6)] if href_at >= 0 else ""
        if not any(path in href for path in _TAXONOMIES):
            return False
        rest = rest[close + 4:].lstrip()
    return True
