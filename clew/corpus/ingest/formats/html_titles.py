"""Two generators' title blocks made into HTML the reader reads well, before the page is parsed
(``html_more.restructured``; task U19): Org mode's subtitle inside its title, pandoc's title block. And a page
titled with its site's name, whose own title is its first other heading (:func:`site_title`, task U22), and one
opening with a banner, whose title is the heading after it (:func:`banner_title`, task R16).
"""

from __future__ import annotations

import re
from html import unescape

from clew.corpus.ingest.parsed import ParsedDocument

ORG = re.compile(r'<meta name="generator" content="Org[ -]mode"', re.IGNORECASE)
"""A page of Org mode's HTML export ("Org Mode" since 9.5, "Org mode" before it, "Org-mode" in 8)."""
_ORG_SUBTITLE = re.compile(r'(<h1 class="title">[^<]*+)<br ?/?>\s*+<span class="subtitle">([^<]*+)</span>\s*+</h1>')
"""Org mode's title with its subtitle (its XHTML export, the default: ``h1.title`` holding ``<br />`` and
``span.subtitle``): read as one heading, "The Org Manual Release 9.5", every passage's first heading; the subtitle
is made the paragraph under the title, as the HTML5 export writes them apart (``h1.title`` then ``p.subtitle``)."""
_ORG_HEADER = re.compile(
    r'<header>\s*+(<h1 class="title">[^<]*+</h1>)\s*+(?:<p class="subtitle"[^<>]*+>([^<]*+)</p>\s*+)?</header>')
"""Org mode's HTML5 export (``org-html-html5-fancy``) of the title and subtitle: a ``header`` (chrome, so the title
was read from ``<title>`` only and the subtitle lost; task U19's leftover) holding ``h1.title`` and
``p.subtitle`` (``role="doc-subtitle"`` since Org 9.5). Read as the XHTML export's are (task R17): the title, then
the subtitle the paragraph under it, before the first chapter: the document's, not a chapter's text or a heading."""

PANDOC = re.compile(r'<meta name="generator" content="pandoc"', re.IGNORECASE)
"""A page pandoc wrote standalone (``-s``)."""
_PANDOC_TITLE_BLOCK = '<header id="title-block-header">'
"""Pandoc's title block, chrome as a ``header`` is: its subtitle, authors, date and abstract (``div.abstract``, the
document's summary) were lost. Read as the document's first paragraphs now, less its ``h1.title``
(``_PANDOC_TITLE``), which is the document's title."""
_PANDOC_TITLE = re.compile(r"\s*+<h1 class=\"title\">.*?</h1>", re.DOTALL)


def org_title(text: str) -> str:
    """The page with its title's subtitle (:data:`_ORG_SUBTITLE`) the paragraph after the title, and the HTML5
    export's title ``header`` (:data:`_ORG_HEADER`) its title and that paragraph."""
    found = _ORG_HEADER.search(text)
    if found is not None:
        subtitle = "" if found.group(2) is None else f'\n<p class="subtitle">{found.group(2)}</p>'
        return f"{text[:found.start()]}{found.group(1)}{subtitle}{text[found.end():]}"
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


_FILLER = r"(?:\s|<(?:img|a|/a|br|picture|/picture|source)\b[^<>]*+>)*+"
"""What a banner holds beside its name: images (the logo), their links, line breaks."""
_BANNER = re.compile(
    r"(?:<(p|div)(\s[^<>]*+)>" + _FILLER + r")?<h1(\s[^<>]*+)?>([^<]++)</h1>(?(1)" + _FILLER + r"</\1>)"
    r"(?:\s|<!--(?:[^-]|-(?!->))*+-->)*+(<h[1-6][\s>]|#{1,6}[ \t])", re.IGNORECASE)
"""A banner (:func:`banner_title`) with the heading right after it: an ``h1`` (its attributes: group 3, its text:
group 4), alone or in a ``p`` / ``div`` (group 1, its attributes: group 2) holding only it and images, then blank
lines or comments, then a heading (group 5: ``<h2``, or Markdown's ``## ``)."""
_H1 = re.compile(r"<h1[\s>]", re.IGNORECASE)
_HEADING = re.compile(r"<h[1-6][\s>]|^#{1,6}[ \t]", re.IGNORECASE | re.MULTILINE)
_CENTRED = re.compile(r"""\balign\s*+=\s*+["']?center\b|\bstyle\s*+=\s*+["'][^"']*?\btext-align\s*+:\s*+center\b""",
                      re.IGNORECASE)
_SITE_NAMES = re.compile(r"<(meta|a)\s([^<>]*+)>", re.IGNORECASE)
"""Where a page names its site: Open Graph's ``og:site_name`` (jekyll-seo-tag), a link to the site's home (minima's
``a.site-title``, VitePress's ``a.title``; its text less tags): ``/``, or relative as a mirror rewrites it
(``../index.html``: wget ``--convert-links`` and HTTrack, task U29)."""
_OG_SITE = re.compile(r"""\bproperty\s*+=\s*+["']og:site_name["']""", re.IGNORECASE)
_CONTENT = re.compile(r"""\bcontent\s*+=\s*+["']([^"'<>]*+)["']""", re.IGNORECASE)
_HOME = re.compile(r"""\bhref\s*+=\s*+["'](?:/|\.\.?/(?:\.\./)*+(?:index\.html)?|index\.html)["']""", re.IGNORECASE)


def banner_title(document: ParsedDocument, source: str) -> ParsedDocument:
    """``document`` titled with the heading after its banner, where its source opens with one (task R16).

    A banner is an ``h1`` written in HTML and centred (``align="center"``, ``style="text-align: center"``, on itself
    or on a ``p`` / ``div`` that holds only it and images) that names the project over every page, not the page:
    fastify's ``<h1 align="center">Fastify</h1>`` then ``## Server``. Told from a page's own centred title (SQLite's
    ``<h1 align="center">Rowid Tables</h1>`` then ``<h2>1.0 Definition</h2>``) by one of: an ``h1`` after it
    (fastify's Testing guide, ``# Testing``); in a built page, the site's name (:data:`_SITE_NAMES`) its text. A
    logo beside the name is no sign: a repository's README opens so (``<div align="center"><img ...><h1>Widget</h1>
    </div>`` over ``## Features``), and keeps its name (V6's review). Where the heading after it follows with
    nothing between (blank lines, comments) and the page is titled with the banner's text (or with that text and a
    tagline after it, jekyll-seo-tag's "Fastify | Fast and low ..."), that heading is the page's title. A home page
    whose banner stands over text ("The documentation for Fastify is split ...") keeps its name; so does a page with
    a table of contents between (fastify's Warnings), and fastify's Markdown source where an ``h2`` follows: the
    page alone cannot tell it from SQLite's shape."""
    if "<h1" not in source and "<H1" not in source:
        return document
    match = _banner(source)
    if match is None or not _CENTRED.search((match.group(2) or "") + " " + (match.group(3) or "")):
        return document
    name, title = " ".join(unescape(match.group(4)).split()), document.title or ""
    if not name or not (title == name or any(title.startswith(name + sep) for sep in _SEPARATORS)):
        return document
    if not (match.group(5).lower().startswith(("<h1", "# ", "#\t")) or _site_named(source, name)):
        return document
    at = next((index for index, section in enumerate(document.sections[1:], start=1) if section.heading.strip()), 0)
    if at and document.sections[at].heading == name:  # the banner, the page's first heading: the next one
        at = at + 1 if at + 1 < len(document.sections) else 0
    elif _HEADING.search(source, 0, match.start()):  # the banner a paragraph (Markdown's h1 without text under it)
        return document  # but a heading before it: not the page's first
    if not at or not document.sections[at].heading.strip():
        return document
    document.title = document.sections[0].heading = document.sections[at].heading
    if "title" in document.fields:
        document.fields = {**document.fields, "title": document.title}
    return document


def _banner(source: str) -> re.Match[str] | None:
    """:data:`_BANNER` at the page's first ``h1`` that is one, tried at each ``h1`` and at the ``p`` / ``div`` just
    before it (a search of the whole page took 5.2 s of CPU over the 241 MB of the pages hashed, this 0.22 s). An
    ``h1`` inside a comment is not tried: each try reads the comments after its ``h1``, so tries at those inside them
    took time quadratic in the page (review V6)."""
    comment_at, comment_end = source.find("<!--"), 0  # the next comment's opening; where the last one read ends
    for h1 in _H1.finditer(source):
        at = h1.start()
        while 0 <= comment_at < at:
            close = source.find("-->", comment_at + 4)
            comment_end = len(source) if close < 0 else close + 3
            comment_at = source.find("<!--", comment_end)
        if at < comment_end:
            continue
        for start in sorted({source.rfind("<p", max(at - 2000, 0), at), source.rfind("<div", max(at - 2000, 0), at)}):
            match = _BANNER.match(source, start) if start >= 0 else None
            if match is not None and match.group(1) is not None:
                return match
        match = _BANNER.match(source, at)
        if match is not None:
            return match
    return None


def _site_named(source: str, name: str) -> bool:
    """Whether the page names its site ``name`` (:data:`_SITE_NAMES`)."""
    for found in _SITE_NAMES.finditer(source):
        attributes = found.group(2)
        if found.group(1).lower() == "meta":
            content = _CONTENT.search(attributes) if _OG_SITE.search(attributes) else None
            text = content.group(1) if content is not None else ""
        elif _HOME.search(attributes):
            end = source.find("</a>", found.end(), found.end() + 1000)
            text = _TAG.sub("", source[found.end():end]) if end >= 0 else ""
        else:
            continue
        if " ".join(unescape(text).split()) == name:
            return True
    return False


_TAG = re.compile(r"<[^<>]*+>")
