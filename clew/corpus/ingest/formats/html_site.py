"""The site's name as a page writes it, and the page's title told apart from it (``html._Builder``).

A site's name sits in the page's chrome, dropped as chrome is: the first ``h1`` there (MkDocs', Sphinx themes'
header) or a JavaScript doc generator's name box (``html_jsdocs.site_name_box``); Open Graph's
``<meta property="og:site_name">`` names it too. A ``<title>`` that is the page's first ``h1`` followed by the site's
name (Sphinx's "functools — ... — Python 3.11.2 documentation") is that ``h1`` (``html_page_title.page_title``);
one that is the site's name, or the site's with its tagline, is the page's first ``h1`` (``html_titles.site_title``).
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_jsdocs import site_name_box
from clew.corpus.ingest.formats.html_page_title import page_title
from clew.corpus.ingest.formats.html_rules import collapse
from clew.corpus.ingest.formats.html_titles import og_site_name, site_title


class SiteName:
    """The site's name, read from a page's chrome and meta tags while the page is parsed."""

    def __init__(self) -> None:
        self._parts: list[str] | None = None  # the text of the element being read as the site's name
        self._tag = "h1"  # what holds the site's name: an h1 in dropped chrome, or html_jsdocs.site_name_box
        self._chrome: str | None = None  # the site's name (the text of the first such element in dropped chrome)
        self._meta: str | None = None  # <meta property="og:site_name">

    def meta(self, attrs: list[tuple[str, str | None]]) -> None:
        self._meta = self._meta or og_site_name(attrs)

    def start(self, tag: str, attrs: list[tuple[str, str | None]], dropped: bool) -> None:
        """An element opens; ``dropped``: inside chrome being dropped."""
        if (tag == "h1" or site_name_box(tag, attrs)) and dropped and self._chrome is None:
            self._parts, self._tag = [], tag

    def end(self, tag: str) -> None:
        if tag == self._tag and self._parts is not None:
            self._chrome = collapse(list(self._parts))[0] or None
            self._parts = None

    def data(self, data: str) -> None:
        """Text inside dropped chrome."""
        if self._parts is not None:
            self._parts.append(data)

    def title(self, title: str | None, first_h1: str | None) -> str | None:
        """The page's title from its ``<title>`` and its first ``h1``, less the site's name."""
        return site_title(page_title(title, first_h1, self._chrome), self._meta, first_h1)
