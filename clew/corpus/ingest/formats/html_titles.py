"""Two generators' title blocks made into HTML the reader reads well, before the page is parsed
(``html_more.restructured``; task U19): Org mode's subtitle inside its title, pandoc's title block. And a page
titled with its site's name, whose own title is its first other heading (:func:`site_title`, task U22).
"""

from __future__ import annotations

import re

ORG = re.compile(r'<meta name="generator" content="Org[ -]mode"', re.IGNORECASE)
"""A page of Org mode's HTML export ("Org Mode" since 9.5, "Org mode" before it, "Org-mode" in 8)."""
_ORG_SUBTITLE = re.compile(r'(<h1 class="title">[^<]*+)<br ?/?>\s*+<span class="subtitle">([^<]*+)</span>\s*+</h1>')
"""Org mode's title with its subtitle (its XHTML export, the default: ``h1.title`` holding ``<br />`` and
``span.subtitle``): read as one heading, "The Org Manual Release 9.5", every passage's first heading; the subtitle
is made the paragraph under the title, as the HTML5 export writes them apart (``h1.title`` then ``p.subtitle``)."""

PANDOC = re.compile(r'<meta name="generator" content="pandoc"', re.IGNORECASE)
"""A page pandoc wrote standalone (``-s``)."""
_PANDOC_TITLE_BLOCK = '<header id="title-block-header">'
"""Pandoc's title block, chrome as a ``header`` is: its subtitle, authors, date and abstract (``div.abstract``, the
document's summary) were lost. Read as the document's first paragraphs now, less its ``h1.title``
(``_PANDOC_TITLE``), which is the document's title."""
_PANDOC_TITLE = re.compile(r"\s*+<h1 class=\"title\">.*?</h1>", re.DOTALL)


def org_title(text: str) -> str:
    """The page with its title's subtitle (:data:`_ORG_SUBTITLE`) the paragraph after the title."""
    return _ORG_SUBTITLE.sub(r'\1</h1>\n<p class="subtitle">\2</p>', text, count=1)


def pandoc_title_block(text: str) -> str:
    """The page with pandoc's title block (:data:`_PANDOC_TITLE_BLOCK`) a ``div`` less its title."""
    start = text.find(_PANDOC_TITLE_BLOCK)
    end = text.find("</header>", start)
    if start < 0 or end < 0:
        return text
    block = text[start + len(_PANDOC_TITLE_BLOCK):end]
    title = _PANDOC_TITLE.match(block)
    block = block[title.end():] if title is not None else block
    return f'{text[:start]}<div class="title-block">{block}</div>{text[end + len("</header>"):]}'


def og_site_name(attrs: list[tuple[str, str | None]]) -> str | None:
    """The site's name a ``<meta property="og:site_name" content="...">`` gives (jekyll-seo-tag, Hugo's and most
    themes' Open Graph tags), else None."""
    values = dict(attrs)
    name = (values.get("content") or "").strip() if values.get("property") == "og:site_name" else ""
    return name or None


def site_title(title: str | None, site: str | None, first_h1: str | None) -> str | None:
    """The page's title where ``title`` is its site's (``site``, :func:`og_site_name`) or the site's with its tagline
    after it ("Fastify | Fast and low overhead web framework, for Node.js": jekyll-seo-tag's fallback for a page
    without a title of its own): the page's first ``h1`` where it is not the site's name; else ``title``. fastify's
    Serverless guide (Markdown built by Jekyll with minima), whose source opens with ``<h1 align="center">Serverless
    </h1>``, was titled with the site's title and tagline. An ``h1`` that is the site's name keeps it (a home page's,
    or fastify's banner ``<h1 align="center">Fastify</h1>`` over every other page: the two alike), and so does a page
    without an ``h1`` (Jekyll's home page, whose first heading is "Simple"; fastify's Prototype-Poisoning guide)."""
    if not title or not site or not (title == site or any(title.startswith(site + sep) for sep in _SEPARATORS)):
        return title
    return first_h1 if first_h1 and first_h1.strip() != site else title


_SEPARATORS = (" | ", " — ", " – ", " - ", " · ", ": ")
