"""Where an HTML page's main content is (``main``, ``article``, ``role="main"``, ``itemprop="articleBody"``,
Sphinx's ``div.body``, YUI's ``div#yui-main``): the HTML reader first asks :func:`may_have_content_root` of the
whole page, then :func:`content_root` of each start tag, and reads only what lies inside such elements."""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_rules import _attr

_CONTENT_HINT = re.compile(
    r"""[<rRiIcC\u0130\u0131](?i:(?<=<)(?:main|article)\b|(?<!\w.)(?:(?<=r)ole\s*=\s*["']?main\b"""
    r"""|(?<=i)temprop\s*=\s*["']?articleBody\b|(?<=i)d\s*=\s*["']?yui-main\b|(?<=c)lass\s*=\s*["']?(?:[^"'>]*\s)?body[\s"'>]))"""
)
r"""Where a page may have a main content element (see :func:`content_root`): such a page is first
read for that element's content alone. Case-insensitive: ``<main``, ``<article``, or ``role``,
``itemprop``, ``id``, ``class`` starting a word (``(?<!\w.)`` after its first letter is ``\b`` before it).
The first letter is matched outside ``(?i:...)`` as a plain set (every letter that matches ``<``, r,
i or c ignoring case), so that the regex engine skips ahead to those characters: searched as
``(?i)<(?:main|article)\b|\brole...``, it tried every alternative at every position of every
page, the most expensive line of an HTML ingest (the SQLite set read twice, 14.8 MB: 0.93 s, now
0.12 s; the same answers there and on 300,000 random strings)."""


_HINT_PARTS = tuple(re.compile(part) for part in (
    r"""class\s*=\s*["']?(?:[^"'>]*\s)?body[\s"'>]""", r"""role\s*=\s*["']?main""", r"<(?:main|article)",
    r"""itemprop\s*=\s*["']?articlebody""", r"""id\s*=\s*["']?yui-main"""))
"""What ``_CONTENT_HINT`` finds, in lower case and without its word boundaries: each searched alone for its
first letters as written (a plain string the regex engine skips ahead to) in an ASCII page lower-cased."""


def may_have_content_root(source: str) -> bool:
    """Whether ``_CONTENT_HINT`` finds a main content element's mark. An ASCII page in whose lower-cased text none
    of ``_HINT_PARTS`` is found has none (in ASCII, what the hint matches ignoring case is what a part matches
    lower-cased): the SQLite pages (58 of their 64 are ASCII), 7.2 MB, 0.07 s searched with the hint, 0.02 s so.
    Lower-casing other text costs about what the hint does (4 ns a character)."""
    if source.isascii():
        lowered = source.lower()
        if not any(part.search(lowered) for part in _HINT_PARTS):
            return False
    return _CONTENT_HINT.search(source) is not None


def content_root(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """The page's main content: ``main``, ``role="main"``, ``itemprop="articleBody"``, Sphinx's
    ``div.body``, an ``article``, or YUI grids' main block ``div#yui-main`` (Django's Sphinx theme: its banner and
    link bars in ``div#hd`` and ``div#ft``, its sidebar in a ``div.yui-b`` beside the main block)."""
    if tag in ("main", "article"):
        return True
    role = _attr(attrs, "role")
    if role is not None and role.lower() == "main":
        return True
    if _attr(attrs, "itemprop") == "articleBody" or _attr(attrs, "id") == "yui-main":
        return True
    classes = _attr(attrs, "class")
    return classes is not None and "body" in classes.split()
