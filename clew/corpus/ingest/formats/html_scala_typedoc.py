"""Scaladoc 2's pages, TypeDoc's before 0.20 (its ``default`` and ``minimal`` themes) and pdoc3's, made into the
HTML the reader reads well before they are parsed, as ``html_more.restructured`` makes others (task U13, issue 36:
Debian's scala-doc 2.11.12, the npm package dapjs 2.3.0, which ships its TypeDoc pages, and boltons by pdoc3 0.11.6).
docs/measurements/generators-2026-12-06.md has what was checked.

- Scaladoc 2 (known by its ``lib/template.css``): a page lists its members in an ``ol`` of ``li[name][visbl]``, each
  the member's ``h4.signature`` over its comment, read as a numbered list: every description began "22. Creates an
  already completed Future ..." under its heading. Each such list and item is a ``div``. A member's comment is
  written twice, its first sentence (``p.shortcomment``, shown while the member is folded) then the whole
  (``div.fullcomment``): every description read its first sentence twice, and every member has both (118,797 in the
  whole of scala-doc): the short one is left out. The member filter above the lists (``div#mbrsel``: "Ordering
  Alphabetic By Inheritance Inherited Future AnyRef Any Hide All Show All Visibility Public All", in each page's
  first passage) is navigation. The page's package (``p#owner``: "scala.concurrent", links to its packages) stood
  above the title, a passage of its own on every page, no section's: the title's first paragraph instead, as
  ``html_more`` makes javadoc's package line. At the page's end the views a script fills (``div#inheritedMembers``:
  "Inherited from AnyRef", "Inherited by implicit conversion any2stringadd from Future[T] to ...";
  ``div#groupedMembers``: "Ungrouped") are headings over nothing, a passage of headings only; such an empty
  ``div.parent``, ``div.conversion`` or ``div.group`` is left out (a group with its description stays). A member's
  parameters and attributes (``dl.paramcmts``: "T" over "the type of the value in the future", "returns" over "the
  newly created Future object"; ``dl.attributes``: "Definition Classes" over "AnyRef → Any") read each term as a line
  of its own over its definition, and an extract quoted "T" alone: they are field lists ("returns: the newly created
  Future object"), as docutils' are.
- TypeDoc before 0.20: a page has no ``h1``, its ``<title>`` "DAPLink | DAPjs API Documentation" (the site's name
  after the bar, as its tool bar's ``a.title`` names it) titled it in ``clew ls`` and every hit: titled by the part
  before the bar. Each parameter is an ``h5`` in ``ul.tsd-parameters``: every parameter was a section of its own
  ("flash > Parameters > buffer: BufferSource" over "The image to flash"); a list item, as TypeDoc 0.26 writes it
  ("- buffer: BufferSource" over its comment). The index of the page's members (``section.tsd-index-group``: "Index"
  over "Constructors", "Methods", ... each a list of links) keeps its heading "Index", its groups' headings are 0.26's
  ``.tsd-index-heading`` (``html_rules.BYLINE_CLASSES``: paragraphs), so that "Index > Methods" is no section beside
  "Methods" (without "Index" the lists joined the section before them, the README's last on ``globals.html``).
- pdoc3 (0.11; its ``<meta name="generator">``): a class is a ``dt`` under the page's ``h2`` "Classes", a section one
  level below it (``h3``'s), and pdoc3 heads the groups inside its ``dd`` ("Ancestors", "Methods", "Instance
  variables", ...) ``h3`` too: each group closed its class's section and stood beside it, boltons' ``LRI.clear``
  under "Classes > Methods", not its class. Those headings are ``h4``. (Its members' source:
  ``html_generators.GENERATOR_CLASSES``.)
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_pdoc import pdoc_title
from clew.corpus.ingest.formats.html_redoc import redoc_page

_SCALADOC = re.compile(r'<link href="(?:\.\./)*lib/template\.css"')
_SCALADOC_TAG = re.compile(r"<(/?)(ol|li)\b([^>]*)>")
_MEMBER = re.compile(r'^\s+name="[^"]*"\s+visbl="')
_SHORT = re.compile(r'<p class="shortcomment cmt">[^<]*+(?:<(?!/p>)[^<]*+)*+</p>(?=<div class="fullcomment">)')
_FILTER = '<div id="mbrsel">'
_EMPTY_VIEW = re.compile(
    r'<div class="(?:parent|group|conversion)" name="[^"]*">\s*<h3>(?:[^<]|<(?!/?h3\b|/?div\b))*+</h3>\s*</div>')
_OWNER = re.compile(r'(<p id="owner">(?:[^<]|<(?!/p>))*+</p>)(\s*)(<h1>(?:[^<]|<(?!/h1>))*+</h1>)')

_TYPEDOC = re.compile(r'<html class="(?:default|minimal) no-js">')
_TYPEDOC_TOOLBAR = 'class="tsd-page-toolbar"'
_TYPEDOC_TITLE = re.compile(r"<title>([^<|]*[^<|\s])\s+\|\s+([^<]*[^<\s])\s*</title>")
_TYPEDOC_PARAMETER = re.compile(r"(<li>\s*)<h5>((?:[^<]|<(?!/?h5\b))*+)</h5>")
"""A parameter's name and type (the only ``h5`` these themes write: each in an item of ``ul.tsd-parameters``)."""
_PDOC3 = '<meta name="generator" content="pdoc3 '
_PDOC3_GROUP = re.compile(
    r"<h3>(Ancestors|Subclasses|Class variables|Instance variables|Static methods|Methods|Inherited members)</h3>")
_TYPEDOC_INDEX = re.compile(r'(<section class="tsd-index-section[\w -]*">\s*)<h3>')


def api_pages(text: str) -> str:
    """``text`` made readable when its first lines are Scaladoc 2's, an old TypeDoc's or pdoc3's; else ``text``
    (pdoc's and pdoc3's titled by their module: ``html_pdoc.pdoc_title``; Redoc 2's pages: ``html_redoc``)."""
    text = redoc_page(text)
    head = text[:3000]
    if _SCALADOC.search(head) and _FILTER in text:
        return _scaladoc(text)
    if _TYPEDOC.search(head) and _TYPEDOC_TOOLBAR in text:
        return _typedoc(text)
    if _PDOC3 in head:
        text = _PDOC3_GROUP.sub(r"<h4>\1</h4>", text)
    return pdoc_title(text)


def _scaladoc(text: str) -> str:
    """A Scaladoc 2 page: its member lists and their items ``div``s, without the members' short comments, the member
    filter navigation. Scaladoc writes well-formed XHTML: each ``ol``/``li`` end tag closes the one open."""
    text = _SHORT.sub("", text.replace(_FILTER, '<div id="mbrsel" role="navigation">', 1))
    text = _EMPTY_VIEW.sub("", _OWNER.sub(r"\3\2\1", text, count=1))
    text = text.replace('<dl class="paramcmts block">', '<dl class="paramcmts block field-list">')
    text = text.replace('<dl class="attributes block">', '<dl class="attributes block field-list">')
    parts: list[str] = []
    done = 0
    open_tags: list[bool] = []  # whether each ol/li open at this point is a member list or a member
    for found in _SCALADOC_TAG.finditer(text):
        closing, tag, attrs = found[1] == "/", found[2].lower(), found[3]
        if closing:
            if open_tags and open_tags.pop():
                parts.append(text[done:found.start()] + "</div>")
                done = found.end()
            continue
        member = tag == "li" and bool(_MEMBER.match(attrs))
        if tag == "ol":
            member = bool(_MEMBER.match(text[found.end():found.end() + 200].lstrip()[3:]))
        open_tags.append(member)
        if member:
            parts.append(text[done:found.start()] + f"<div{attrs}>")
            done = found.end()
    return "".join(parts) + text[done:]


def _typedoc(text: str) -> str:
    """An old TypeDoc page: titled without the site's name, its parameters list items, its index headed as 0.26's."""
    title = _TYPEDOC_TITLE.search(text[:3000])
    if title is not None and f'class="title">{title[2]}</a>' in text:
        text = text[:title.start()] + f"<title>{title[1]}</title>" + text[title.end():]
    text = _TYPEDOC_PARAMETER.sub(r"\1<span>\2</span>", text)
    return _TYPEDOC_INDEX.sub(r'\1<h3 class="tsd-index-heading">', text)
