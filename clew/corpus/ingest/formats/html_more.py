"""Chrome of the Ruby documentation generators, for ``html_rules._dropped_class`` (task R4, issue 36): YARD and
RDoc (its Darkfish theme), as Debian ships their pages (ruby-cri-doc and ruby-mocha-doc; ruby-rubymail-doc and
ruby-tioga-doc); and the pages made into the HTML the reader reads well before they are parsed
(:func:`restructured`: man pages by groff and man2html, ``html_man``; RDoc's method headings).
docs/measurements/generators-2026-12-06.md has what was checked.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_man import man_html

CHROME_CLASSES = frozenset(
    # YARD 0.9: "collapse" beside each summary's heading ("Instance Method Summary collapse"), "show all" and the
    # whole ancestry it unfolds (hidden until then) in the class's box, a method's source listing with its column
    # of line numbers (hidden until "View source")
    "summary_toggle inheritancetree fulltree source_code"
    # RDoc 6 (Darkfish): a method's source listing (hidden until "click to toggle source")
    " method-source-code"
    # TeX4ht (htlatex, a document split into pages): "[next] [tail] [up]" above and below each page's text
    " crosslinks".split()
)
"""Chrome classes of these generators, beside ``html_rules.DROP_CLASSES``."""

def more_chrome(classes: list[str]) -> bool:
    """Whether an element of these classes is chrome. (YARD's breadcrumbs above the title, "Index (C) » Cri »
    Command", are ``div#menu``: an id a member's anchor may have, qdoc's ``h3.fn#menu`` "QMenu
    *QPushButton::menu() const"; they stay.)"""
    return not CHROME_CLASSES.isdisjoint(classes)


_DARKFISH = '<script src="../js/darkfish.js"'
_DARKFISH_TOP = '<script src="./js/darkfish.js"'
_METHOD_HEADING = re.compile(r'<div class="(method-heading[^"]*)">(.*?)</div>', re.DOTALL)
"""RDoc's heading of a method or attribute (``div.method-heading``: ``span.method-name``, ``span.method-args``, the
"click to toggle source" advice), one per ``div.method-detail``, under the heading of its group ("Public Instance
Methods"): not a heading, so every method of a class was one section. An ``h3`` instead, as YARD's
``h3.signature`` is a heading: each method its own section."""
_GROUP = re.compile(r"(<header>\s*)<h3>(.*?)</h3>(\s*</header>)", re.DOTALL)
"""A group's heading ("Constants", "Attributes", "Public Instance Methods"): an ``h3`` after the class's description,
whose own headings are ``h1`` (RDoc markup's ``=``), so that every group was a subsection of the description's last
heading ("Conventions" held RMail::Header's methods). The groups are ``h2``, the description's headings one level
down (``_DESCRIPTION``): the class's ``h1`` holds both."""
_DESCRIPTION = re.compile(r'<section class="description">.*?</section>', re.DOTALL)
_LEVEL = re.compile(r"<(/?)h([1-5])\b")
_TOP_LINK = ' <a href="#top">&uarr;</a>'
"""RDoc's "↑" after every heading of a description (``<h1>Overview<span><a href="#...">¶</a> <a href="#top">↑</a>
</span></h1>``): a link back to the page's top, after which the "¶" was not the heading's last link, and both
stayed ("Overview¶ ↑"); taken out, the "¶" is the trailing permalink every heading loses."""


_LATEX2HTML = "<!--Converted with LaTeX2HTML"
_LATEX2HTML_ABOUT = re.compile(
    r'<H1><A ID="SECTION\d+">\s*About this document \.\.\.</A>\s*</H1>.*?(?=<BR><HR>|</BODY>)', re.DOTALL)
"""LaTeX2HTML's colophon, the last section of every document it converts (unless ``-info 0``): "About this document
..." with the document's title, "This document was generated using the LaTeX2HTML translator Version 2023", the
command line and the date: a section of the page's outline, its own page when the document is split."""


def restructured(text: str) -> str:
    """``text`` as the reader should read it (each generator known by its page's first lines, checked once per
    page): a man page by groff or man2html (``html_man``), an RDoc page with its groups, methods and description
    headings leveled and without its headings' links back to the top, a LaTeX2HTML page without its colophon."""
    text = man_html(text)
    head = text[:3000]
    if _DARKFISH in head or _DARKFISH_TOP in head:
        return _darkfish(text)
    if _LATEX2HTML in head:
        return _LATEX2HTML_ABOUT.sub("", text, count=1)
    return text


def _darkfish(text: str) -> str:
    """An RDoc (Darkfish) page: its description's headings one level down, its groups' headings ``h2``, each
    method's heading an ``h3``, and no "↑" links."""
    text = _DESCRIPTION.sub(lambda box: _LEVEL.sub(lambda h: f"<{h[1]}h{int(h[2]) + 1}", box[0]),
                            text.replace(_TOP_LINK, ""))
    text = _GROUP.sub(r"\1<h2>\2</h2>\3", text)
    return _METHOD_HEADING.sub(r'<h3 class="\1">\2</h3>', text)
