"""Two generators' title blocks made into HTML the reader reads well, before the page is parsed
(``html_more.restructured``; task U19): Org mode's subtitle inside its title, pandoc's title block.
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
