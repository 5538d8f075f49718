"""Page chrome by rules (clew's HTML parser) against a main-content extractor (trafilatura), as JSON.

trafilatura is not a dependency of clew: ``pip install trafilatura lxml_html_clean`` to run this.
The pages, as Debian and the SQLite site ship them (not committed)::

    cd /tmp && apt-get download python3.11-doc debian-reference-en
    dpkg-deb -x python3.11-doc_*.deb python3.11-doc && dpkg-deb -x debian-reference-en_*.deb debian-reference-en
    python benchmarks/chrome.py --sphinx /tmp/python3.11-doc/usr/share/doc/python3.11/html \\
        --docbook /tmp/debian-reference-en/usr/share/debian-reference --sqlite ../shared/evals/sqlite-docs/corpus

Each generator names where its main content is and what its chrome is (``GENERATORS``). The
reference is read by lxml: the main content without ``script``, ``style``, ``svg``, ``math``,
heading permalinks (``a.headerlink``; Docusaurus's ``a.hash-link``, VitePress's ``a.header-anchor``, TypeDoc's
``a.tsd-anchor-icon``, mandoc's ``a.permalink`` and mdBook's ``a.header``, which wrap the heading's text: the text
stays, the link to the heading itself is none) and
in-page tables of contents (which only repeat the headings, so count as neither content nor chrome);
a code block is read a line per ``div`` (Docusaurus and Starlight write each line as one, without a newline
between them). The Docusaurus, VitePress and Starlight pages (``--docusaurus`` etc.) are the npm dev set built by
each: docs/measurements/generators-2026-12-06.md has the recipe; so are the MkDocs Material and Sphinx +
MyST pages with Furo, pydata-sphinx-theme, sphinx-rtd-theme and sphinx-book-theme (``--material``, ``--furo``,
``--pydata``, ``--rtd``, ``--book``; the recipe: docs/measurements/structure-2026-12-05.md, task R1). The pages
of gtk-doc, Haddock, mandoc, qdoc and TypeDoc (``--gtkdoc`` etc.) are Debian's or built for task R3's sweep
(docs/measurements/generators-2026-12-06.md says which); so are YARD's, RDoc's, groff's, man2html's, LaTeX2HTML's,
TeX4ht's and HeVeA's (``--yard`` etc., tasks R4 and R5: /tmp/r4/sets) and task R6's (texi2any, YODL, Erlang/OTP,
docutils' html4css1 and html5 writers, ocamldoc, odoc, the Go pages, pydoctor, GitBook, Asciidoctor, AsciiDoc:
/tmp/r6/sets; JSDoc, documentation.js and ESDoc, task R7). ``--only NAME,...`` measures some of them.
Every page is read by clew's ``parse_html`` and by trafilatura's ``bare_extraction`` (formatting, tables
and links kept; once as it comes, once with ``favor_recall``), and the report gives, per generator and
extractor:

- ``chrome_strings_left`` / ``chrome_words_left``: the text runs of the chrome (text nodes, each
  page's distinct ones, those that also occur in the main content left out) still in the output;
- ``main_words_kept``: the share of the main content's words (a multiset) in the output;
- ``headings_kept``: its h1-h6 (not an admonition's title) present as headings with the same
  text (trailing ``¶`` aside);
  ``permalinks_left``: output headings that still end with a pilcrow;
- ``tables_kept``: its data tables (``DATA_TABLES``, more than one cell) whose words, in order,
  are within one table of the output;
- ``code_kept``: its ``pre`` blocks whose lines (stripped, blank ones left out), in order and
  still lines, are within one code block of the output;
- ``list_items_kept``: its ``li`` whose first paragraph's first eight words are within one list
  item of the output;
- ``links_kept``: its ``a[href]`` whose href is a link of the output (a multiset);
- ``ms_per_page``: the extraction alone (clew's parse, trafilatura's extraction without
  serialisation), mean over the pages.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import lxml.etree  # noqa: E402  # type: ignore[import-untyped]
import lxml.html  # noqa: E402  # type: ignore[import-untyped]

from clew.corpus.ingest.formats.html import parse_html  # noqa: E402
from clew.corpus.ingest.sources import find_files  # noqa: E402

try:
    import trafilatura  # type: ignore[import-untyped,unused-ignore]
except ImportError as missing:
    trafilatura = None
    TRAFILATURA_MISSING: str | None = (
        f"trafilatura is not installed ({missing}): pip install trafilatura lxml_html_clean")
else:
    TRAFILATURA_MISSING = None

BLOCKS = frozenset(
    "address article aside blockquote br caption dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header"
    " hr li main nav ol p pre section table tbody td th thead tr ul"
    # a VitePress code group's tab labels, side by side above its code blocks
    " label"
    # trafilatura's own elements (and its code blocks, ``code`` outside a paragraph: see ``spaced_text``)
    " cell head item list quote row".split()
)
BLOCK_PARENTS = frozenset({"body", "main", "div", "list", "item", "quote"})
WORD = re.compile(r"\w+")
ITEM_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
ADMONITION = ("ancestor::div[@class='note' or @class='tip' or @class='warning' or @class='caution'"
              " or @class='important']")
"""Inside a DocBook admonition: its title (``h3.title``) is a label, not a heading, and its
table (the icon beside the text, with admonition graphics) is not a data table."""
HEADINGS = f".//*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6][not({ADMONITION})]"
DATA_TABLES = f".//table[not(ancestor::table) and not({ADMONITION})]"
"""Tables that hold data; a one-cell box around a ``pre``, as the SQLite pages frame their
examples, is left out apart (more than one cell)."""
SKIP = ("//script | //style | //*[local-name()='svg' or local-name()='math'] | //a[contains(@class,'headerlink')"
        " or contains(@class,'hash-link') or contains(@class,'header-anchor') or contains(@class,'tsd-anchor-icon')]")
WRAPPING_PERMALINKS = ("//a[contains(concat(' ', @class, ' '), ' permalink ')"
                       " or contains(concat(' ', @class, ' '), ' header ')]")
"""mandoc's and mdBook's heading permalinks, around the heading's text: the text stays, the link goes."""


@dataclass(frozen=True, slots=True)
class Generator:
    main: str
    """XPath of the main content element(s)."""
    chrome: str
    """XPath of the chrome elements (navigation bars, sidebars, banners, footers)."""
    toc: str
    """XPath of in-page tables of contents: neither content nor chrome."""


PYDATA_CHROME = (
    "//aside[contains(@class,'bd-header-announcement')] | //header[contains(@class,'bd-header')]"
    " | //div[contains(@class,'bd-sidebar-primary')] | //div[contains(@class,'bd-header-article')]"
    # beside the article, inside main: "On this page" (its toc is left to ``toc``), "Edit on GitHub", "Show Source"
    " | //div[contains(@class,'bd-sidebar-secondary')] | //footer")
"""pydata-sphinx-theme's chrome, the book theme's too (it is built on it)."""
GENERATORS = {
    "sphinx": Generator(
        main="//div[@role='main']",
        chrome="//div[contains(@class,'sphinxsidebar') or contains(@class,'related') or @class='footer'"
               " or @class='mobile-nav']",
        toc="//div[contains(@class,'contents') and contains(@class,'topic')]",
    ),
    "docbook": Generator(
        main="//body",
        chrome="//div[@class='navheader' or @class='navfooter']",
        toc="//div[@class='toc' or @class='list-of-tables' or @class='list-of-figures']",
    ),
    "sqlite": Generator(main="//body", chrome="//div[@class='nosearch']", toc="//div[@class='fancy_toc']"),
    # The JavaScript generators (the npm dev set built by each: docs/measurements/generators-2026-12-06.md)
    "docusaurus": Generator(
        main="//div[contains(@class,'theme-doc-markdown')]",
        chrome="//nav[contains(@class,'navbar')] | //aside[contains(@class,'theme-doc-sidebar-container')]"
               " | //nav[contains(@class,'theme-doc-breadcrumbs')] | //nav[contains(@class,'pagination-nav')]"
               " | //footer",
        toc="//div[contains(@class,'theme-doc-toc-desktop') or contains(@class,'theme-doc-toc-mobile')]",
    ),
    "vitepress": Generator(
        main="//div[contains(@class,'vp-doc')]",
        chrome="//header[contains(@class,'VPNav')] | //div[contains(@class,'VPLocalNav')]"
               " | //aside[contains(@class,'VPSidebar')] | //footer"
               " | //div[contains(@class,'vp-doc')]//span[@class='lang']",  # the code block's language
        toc="//nav[contains(@class,'VPDocAsideOutline')]",
    ),
    "starlight": Generator(
        main="//h1[@id='_top'] | //div[contains(@class,'sl-markdown-content')]",
        chrome="//header[contains(@class,'header')] | //nav[contains(@class,'sidebar')] | //main//footer"
               # beside each heading its permalink with hidden text ("Section titled ..."); "Terminal window"
               " | //a[contains(@class,'sl-anchor-link')] | //span[contains(@class,'sr-only')]",
        toc="//div[contains(@class,'right-sidebar')] | //mobile-starlight-toc",
    ),
    # The Python themes (the npm dev set built by each: docs/measurements/structure-2026-12-05.md, task R1)
    "material": Generator(
        main="//article[contains(@class,'md-content__inner')]",
        chrome="//header[contains(@class,'md-header')] | //div[contains(@class,'md-sidebar--primary')]"
               " | //aside[contains(@class,'md-banner')] | //footer"
               " | //a[contains(@class,'md-content__button')]",  # "Edit this page", "View source" (icons)
        toc="//div[contains(@class,'md-sidebar--secondary')]",
    ),
    "furo": Generator(
        main="//article[@role='main']",
        chrome="//div[contains(@class,'announcement')] | //header[contains(@class,'mobile-header')]"
               " | //aside[contains(@class,'sidebar-drawer')] | //div[contains(@class,'content-icon-container')]"
               " | //footer",
        toc="//aside[contains(@class,'toc-drawer')]",
    ),
    "pydata": Generator(
        main="//article[contains(@class,'bd-article')]",
        chrome=PYDATA_CHROME,
        toc="//nav[@id='pst-page-toc-nav']",
    ),
    "rtd": Generator(
        main="//div[@itemprop='articleBody']",
        chrome="//nav[contains(@class,'wy-nav-side')] | //nav[contains(@class,'wy-nav-top')]"
               " | //div[@role='navigation'] | //footer",
        toc="//div[contains(@class,'contents') and contains(@class,'topic')]",
    ),
    "book": Generator(
        main="//article[contains(@class,'bd-article')]",
        # and the print-only copy of the page's title and table of contents above the article
        chrome=PYDATA_CHROME + " | //div[contains(@class,'onlyprint')]",
        toc="//nav[@id='pst-page-toc-nav']",
    ),
    # More generators as Debian ships them or builds them (docs/measurements/generators-2026-12-06.md, task R3)
    "gtkdoc": Generator(main="//body", chrome="//table[@class='navigation']", toc="//div[@class='toc']"),
    "haddock": Generator(
        main="//div[@id='content']",
        chrome="//div[@id='package-header'] | //div[@id='footer'] | //a[@class='selflink']"
               " | //a[@class='link' and contains(@href,'src')]"  # "Source" beside every declaration
               " | //summary[contains(@class,'hide-when-js-enabled')]",  # "Instance(s) details"
        toc="//div[@id='table-of-contents']",
    ),
    "mandoc": Generator(main="//div[@class='manual-text']", chrome="//table[@class='head' or @class='foot']",
                        toc="//nav[@id='toc']"),
    "qdoc": Generator(
        main="//div[contains(@class,'mainContent')]",
        # the brief's link "More..." to the Detailed Description, the links to the member lists (task U17)
        chrome="//div[@class='navigationbar'] | //div[@class='footer'] | //a[@href='#details'][.='More...']"
               " | //ul[li/a[contains(@href,'-members.html')]]",
        toc="//div[@class='sidebar']",
    ),
    "typedoc": Generator(
        main="//div[@class='col-content']",
        chrome="//header | //footer | //div[contains(@class,'col-sidebar')] | //ul[@class='tsd-breadcrumb']"
               " | //aside[contains(@class,'tsd-sources')] | //code[contains(@class,'tsd-tag')]",
        toc="//section[contains(@class,'tsd-index-group')]",
    ),
    # Task R4's generators (docs/measurements/generators-2026-12-06.md): YARD (ruby-cri-doc, ruby-mocha-doc), RDoc's
    # Darkfish (ruby-rubymail-doc, ruby-tioga-doc); a method's source listing is hidden until clicked
    "yard": Generator(
        main="//div[@id='content']",
        chrome="//div[@id='header'] | //div[@id='footer'] | //a[@class='summary_toggle']"
               " | //a[@class='inheritanceTree'] | //ul[@class='fullTree'] | //table[@class='source_code']",
        toc="//div[@id='toc']",
    ),
    "rdoc": Generator(
        main="//main",
        chrome="//nav | //footer | //div[contains(@class,'method-source-code')]"
               " | //span[@class='method-click-advice'] | //a[@href='#top']",
        toc="//div[@id='table-of-contents']",
    ),
    # Task R4's and R5's other generators (Debian's packages or a document built by each; /tmp/r4/sets). Their chrome
    # and contents are loose in the body: groff's index of links above its first rule (a table of contents),
    # man2html's "Return to Main Contents" and its index after the page, LaTeX2HTML's navigation panel and colophon
    # ("About this document ..."), TeX4ht's crosslinks, HeVeA's colophon after its last rule
    "groff": Generator(main="//body", chrome="/..", toc="//body/a[starts-with(@href,'#')][not(preceding-sibling::hr)]"),
    "man2html": Generator(
        # the colophon's link to man2html itself (a reference to another page is man2html?1+name: content)
        main="//body", chrome="//a[contains(@href,'index.html')] | //a[substring(@href, string-length(@href) - 7)"
                              " = 'man2html']",
        toc="//a[@name='index']/following-sibling::h2[1] | //a[@name='index']/following-sibling::dl[1]"),
    "latex2html": Generator(
        main="//body",
        chrome="//div[@class='navigation'] | //h1[contains(.,'About this document')] | //p[contains(.,'This document"
               " was generated using')] | //p[contains(.,'command line arguments were')] | //p[contains(.,'translation"
               " was initiated')] | //h1[contains(.,'About this document')]/following-sibling::strong",
        toc="//ul[@class='TofC'] | //ul[@class='ChildLinks']"),
    "tex4ht": Generator(main="//body", chrome="//div[@class='crosslinks']", toc="//div[@class='tableofcontents']"),
    "hevea": Generator(main="//body", chrome="//hr[@class='horizontal-rule']/following-sibling::blockquote",
                       toc="//ul[@class='toc']"),
    # Task R6's generators (/tmp/r6/sets: Debian's pages or built from clew's docs; the recipe on the same page).
    # texi2any's navigation (6.8: table.header; 7: div.nav-panel) and its colophon ("This document was generated on
    # ... using texi2any", and zsh's own small print after it); YODL's chapter links (the Z shell's FAQ: a list
    # between two rules above and below each chapter); both in the zsh set
    "texi2any": Generator(
        main="//body",
        chrome="//table[@class='header'] | //div[@class='header'] | //div[@class='nav-panel'] | //p[font]"
               " | //body/font",
        toc="//table[@class='menu'] | //ul[@class='mini-toc'] | //div[@class='contents']"
            " | //div[@class='shortcontents']"),
    "yodl": Generator(
        main="//body",
        chrome="//body/ul[preceding-sibling::*[1][self::hr] and following-sibling::*[1][self::hr]]"
               " | //table[@class='header'] | //div[@class='header'] | //p[font] | //body/font",
        toc="//table[@class='menu'] | //ul[@class='mini-toc']"),
    "erlang": Generator(
        main="//div[@id='content']",
        chrome="//div[@class='topbar'] | //aside[@id='leftnav'] | //div[@id='content']//div[@class='footer']"
               " | //div[@class='title-anchors']",
        toc="/.."),
    "docutils": Generator(
        main="//div[@class='document']",
        chrome="//div[@class='header'] | //div[@class='footer']",
        toc="//div[contains(@class,'contents')]"),
    "docutils5": Generator(main="//main", chrome="//header | //footer", toc="//nav[contains(@class,'contents')]"),
    "ocamldoc": Generator(main="//body", chrome="//div[@class='navbar']", toc="/.."),
    "odoc": Generator(
        main="//header[contains(@class,'odoc-preamble')] | //div[contains(@class,'odoc-content')]",
        chrome="//nav[contains(@class,'odoc-nav')]",
        toc="//nav[contains(@class,'odoc-toc')]"),
    "golang": Generator(main="//body", chrome="/..", toc="//div[@id='nav'] | //div[@id='TOC']"),
    "pydoctor": Generator(
        main="//main",
        # the sidebar lists the package's modules and this one's members; a member's permalink (a.headerLink)
        chrome="//nav[contains(@class,'mainnavbar')] | //footer | //div[@id='show-private']"
               " | //div[@class='sidebarcontainer'] | //a[@class='headerLink']",
        toc="/.."),
    "gitbook": Generator(
        main="//div[contains(@class,'page-inner')]",
        chrome="//div[contains(@class,'book-summary')] | //div[contains(@class,'book-header')]"
               " | //div[contains(@class,'search-results')] | //a[contains(@class,'navigation')]",
        toc="/.."),
    "asciidoctor": Generator(
        main="//div[@id='header']/h1 | //div[@id='content'] | //div[@id='footnotes']",
        chrome="//div[@id='footer']", toc="//div[@id='toc']"),
    "asciidoc": Generator(
        main="//div[@id='header']/h1 | //div[@id='header']/div[@class='sectionbody'] | //div[@id='content']"
             " | //div[@id='footnotes']",
        chrome="//div[@id='footer']", toc="//div[@id='toc']"),
    # Task R7's: JSDoc 4.0's default template (npm jsdoc, of tests/fixtures/html/jsdoc/budget.js: /tmp/r7/jsdoc/out)
    # An optional parameter's raised "opt" in a member's signature ("amount<span>opt</span>") is no word of the page's
    # (the reference read "amountopt"); clew writes the parameter "[amount]" (task U15)
    "jsdoc": Generator(main="//div[@id='main']", chrome="//nav | //footer | //*[@class='tag-source']"
                       " | //span[@class='signature-attributes']", toc="/.."),
    # documentation.js 14's default theme (npm documentation, of the same module; its one page, index.html, which
    # pages() leaves out, copied to /tmp/r7/docjs/pages/page.html)
    "documentationjs": Generator(main="//div[@id='split-right']",
                                 chrome="//div[@id='split-left'] | //a[contains(@class,'caret-right')]", toc="/.."),
    # ESDoc 1.1 with its standard plugin (npm esdoc, of the same module as an ES module: /tmp/r7/esdoc/out)
    "esdoc": Generator(main="//div[@class='content']",
                       chrome="//header | //nav[@class='navigation'] | //footer | //span[@data-ice='source']",
                       toc="/.."),
}
PY_THEMES = ("material", "furo", "pydata", "rtd", "book")
SWEEP = ("gtkdoc", "haddock", "mandoc", "qdoc", "typedoc")
MORE = ("yard", "rdoc", "groff", "man2html", "latex2html", "tex4ht", "hevea")
LATER = {"texi2any": "texi2any", "yodl": "zsh", "erlang": "erlang", "docutils": "docutils", "docutils5": "docutils5",
         "ocamldoc": "ocamldoc", "odoc": "odoc", "golang": "golang", "pydoctor": "pydoctor", "gitbook": "gitbook",
         "asciidoctor": "asciidoctor", "asciidoc": "asciidoc", "jsdoc": "/tmp/r7/jsdoc/out",
         "documentationjs": "/tmp/r7/docjs/pages", "esdoc": "/tmp/r7/esdoc/out"}
"""Task R6's generators and their folders under /tmp/r6/sets (and R7's JSDoc, documentation.js and ESDoc)."""


@dataclass(slots=True)
class Units:
    """What an extractor gave back (or what the reference holds), reduced to comparable pieces."""

    words: Counter[str]
    text: str
    """The words, lower case, joined by single spaces and padded with one on each side."""
    headings: list[str]
    tables: list[str]
    code: list[str]
    items: list[str]
    links: Counter[str]


@dataclass(slots=True)
class Tally:
    pages: int = 0
    seconds: float = 0.0
    empty_pages: int = 0
    counts: dict[str, list[int]] = field(default_factory=dict)
    left_examples: Counter[str] = field(default_factory=Counter)

    def add(self, name: str, kept: int, total: int) -> None:
        pair = self.counts.setdefault(name, [0, 0])
        pair[0] += kept
        pair[1] += total

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pages": self.pages, "ms_per_page": round(1000 * self.seconds / max(self.pages, 1), 2)}
        if self.empty_pages:
            out["pages_with_no_output"] = self.empty_pages
        for name, (kept, total) in self.counts.items():
            out[name] = {"kept": kept, "of": total, "share": round(kept / total, 4) if total else None}
        for name in ("chrome_strings_left", "chrome_words_left", "permalinks_left"):
            if name in out:
                out[name] = out[name]["kept"] if name == "permalinks_left" else {
                    "left": out[name]["kept"], "of": out[name]["of"]}
        if self.left_examples:
            out["chrome_left_most_often"] = [text for text, _ in self.left_examples.most_common(8)]
        return out


def words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def joined(text: str) -> str:
    return " " + " ".join(words(text)) + " "


def spaced_text(element: Any, skip: frozenset[str] = frozenset(), gap: str = " ") -> str:
    """The element's text with ``gap`` at every block boundary (lxml's text_content runs blocks together), comments
    left out."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        if not isinstance(node.tag, str):  # a comment (HeVeA's "TOC section", TeX4ht's "l. 21"): not text
            parts.append(node.tail or "")
            return
        tag = node.tag
        parent = node.getparent()
        block = tag in BLOCKS or tag == "code" and parent is not None and parent.tag in BLOCK_PARENTS
        if block:
            parts.append(gap)
        if tag not in skip:
            parts.append(node.text or "")
            for child in node:
                walk(child)
        if block:
            parts.append(gap)
        parts.append(node.tail or "")

    tail = element.tail
    element.tail = None
    walk(element)
    element.tail = tail
    return "".join(parts)


def code_lines(text: str) -> str:
    """A code block's lines, stripped, blank ones left out; a no-break space is a space (TeX4ht writes a verbatim
    block's spaces so; clew reads them as spaces)."""
    return "\n".join(line.strip() for line in text.replace("\xa0", " ").splitlines() if line.strip())


def heading(text: str) -> str:
    return " ".join(text.split()).rstrip("¶#").strip()


def units(text: str, headings: Iterable[str], tables: Iterable[str], code: Iterable[str], items: Iterable[str],
          links: Iterable[str]) -> Units:
    found = words(text)
    return Units(Counter(found), " " + " ".join(found) + " ", [heading(h) for h in headings],
                 [joined(t) for t in tables], [code_lines(c) for c in code],
                 [joined(ITEM_MARK.sub("", i)) for i in items], Counter(links))


def reference(source: bytes, generator: Generator) -> tuple[Units, set[str]]:
    """The main content's units, and the chrome's distinct text runs that the main content does not hold."""
    tree = lxml.html.document_fromstring(source, parser=lxml.html.HTMLParser(encoding="utf-8"))
    for element in tree.xpath(SKIP):
        element.drop_tree()
    for element in tree.xpath(WRAPPING_PERMALINKS):
        element.drop_tag()
    runs = {" ".join(run.split()) for chrome in tree.xpath(generator.chrome) for run in chrome.itertext()}
    for element in tree.xpath(f"{generator.chrome} | {generator.toc}"):
        element.drop_tree()
    mains = tree.xpath(generator.main)
    text = " ".join(spaced_text(main) for main in mains)
    main_words = " " + " ".join(words(text)) + " "
    chrome = {run for run in runs if words(run) and joined(run) not in main_words}

    def each(path: str) -> list[Any]:
        return [element for main in mains for element in main.xpath(path)]

    return units(
        text,
        [spaced_text(h) for h in each(HEADINGS)],
        [spaced_text(t) for t in each(DATA_TABLES) if len(t.xpath(".//td | .//th")) > 1],
        [spaced_text(p, gap="\n") for p in each(".//pre")],  # a line per div (Docusaurus, Starlight)
        [" ".join(first_words(li)) for li in each(".//li")],
        [a.get("href") for a in each(".//a[@href]")],
    ), chrome


def first_words(item: Any) -> list[str]:
    """The first eight words of a list item's first paragraph (its nested lists left out)."""
    runs = (words(run) for run in spaced_text(item, frozenset({"ul", "ol"}), gap="\0").split("\0"))
    return next((run for run in runs if run), [])[:8]


FENCE_INFO = re.compile(r"^(`{3,})\S+$", re.M)


def by_clew(text: str) -> Units:
    doc = parse_html(text)
    tables: dict[int, list[str]] = {}
    for block in doc.blocks:
        if block.table is not None:
            tables.setdefault(block.table, []).append(doc.text[block.start:block.end])
    text = FENCE_INFO.sub(r"\1", doc.text)  # a code fence's language is markup, not words (VitePress's label is chrome)
    return units(text, [s.heading for s in doc.sections[1:]], ["\n".join(rows) for rows in tables.values()],
                 [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "code"],
                 [doc.text[b.start:b.end] for b in doc.blocks if b.kind == "list_item"],
                 [link.href for link in doc.links])


def by_trafilatura(text: str, *, favor_recall: bool) -> Units:
    if trafilatura is None:
        raise SystemExit(TRAFILATURA_MISSING)
    document = trafilatura.bare_extraction(text, include_formatting=True, include_tables=True, include_links=True,
                                           include_comments=False, include_images=False, with_metadata=False,
                                           favor_recall=favor_recall)
    body = None if document is None else document.body
    if body is None:
        return units("", [], [], [], [], [])
    return units(spaced_text(body), [spaced_text(h) for h in body.iter("head")],
                 [spaced_text(t) for t in body.iter("table")], ["".join(c.itertext()) for c in body.iter("code")],
                 [spaced_text(i, frozenset({"list"})) for i in body.iter("item")],
                 [ref.get("target") for ref in body.iter("ref") if ref.get("target")])


def compare(tally: Tally, ref: Units, chrome: set[str], out: Units) -> None:
    left = [run for run in chrome if joined(run) in out.text]
    tally.add("chrome_strings_left", len(left), len(chrome))
    tally.add("chrome_words_left", sum(len(words(run)) for run in left), sum(len(words(run)) for run in chrome))
    tally.left_examples.update(left)
    tally.add("main_words_kept", sum((ref.words & out.words).values()), sum(ref.words.values()))
    tally.add("headings_kept", sum((Counter(ref.headings) & Counter(out.headings)).values()), len(ref.headings))
    tally.add("permalinks_left", sum(1 for h in out.headings if h != " ".join(h.split()).rstrip("¶")), 0)
    tally.add("tables_kept", sum(any(t in o for o in out.tables) for t in ref.tables), len(ref.tables))
    tally.add("code_kept", sum(any(c in o for o in out.code) for c in ref.code if c), sum(1 for c in ref.code if c))
    items = [i for i in ref.items if i.strip()]
    tally.add("list_items_kept", sum(any(i in o for o in out.items) for i in items), len(items))
    tally.add("links_kept", sum((ref.links & out.links).values()), sum(ref.links.values()))


def pages(folder: Path, name: str, count: int) -> list[Path]:
    """``count`` pages spread evenly over what ingestion would take (sorted; the book's index page left out)."""
    files = [file for file, key in find_files([folder], "**/*.html").files if not key.startswith("index.")]
    if len(files) <= count:
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


def measure(folder: Path, name: str, count: int) -> dict[str, Any]:
    generator = GENERATORS[name]
    extractors: dict[str, Callable[[str], Units]] = {"clew": by_clew}
    if trafilatura is not None:
        extractors["trafilatura"] = lambda text: by_trafilatura(text, favor_recall=False)
        extractors["trafilatura_favor_recall"] = lambda text: by_trafilatura(text, favor_recall=True)
    tallies = {key: Tally() for key in extractors}
    taken = pages(folder, name, count)
    for path in taken:
        source = path.read_bytes()
        text = source.decode("utf-8", errors="replace")
        ref, chrome = reference(source, generator)
        for key, extract in extractors.items():
            started = time.perf_counter()
            out = extract(text)
            tallies[key].seconds += time.perf_counter() - started
            tallies[key].pages += 1
            tallies[key].empty_pages += not out.text.strip()
            compare(tallies[key], ref, chrome, out)
    return {"folder": str(folder), "pages": [str(p.relative_to(folder)) for p in taken][:3] + (
        ["..."] if len(taken) > 3 else []), **{key: tally.report() for key, tally in tallies.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sphinx", type=Path, default=Path("/tmp/python3.11-doc/usr/share/doc/python3.11/html"))
    parser.add_argument("--docbook", type=Path, default=Path("/tmp/debian-reference-en/usr/share/debian-reference"))
    parser.add_argument("--sqlite", type=Path, default=ROOT.parent / "shared" / "evals" / "sqlite-docs" / "corpus")
    for name in ("docusaurus", "vitepress", "starlight"):
        parser.add_argument(f"--{name}", type=Path, default=Path(f"/tmp/r2-sets/{name}/corpus"))
    for name, built in zip(PY_THEMES, ("mkdocs-material", "furo", "pydata", "rtd", "book"), strict=True):
        parser.add_argument(f"--{name}", type=Path, default=Path(f"/tmp/r1-sets/{built}/corpus"))
    for name in SWEEP:
        parser.add_argument(f"--{name}", type=Path, default=Path(f"/tmp/r3/sets/{name}"))
    for name in MORE:
        parser.add_argument(f"--{name}", type=Path, default=Path(f"/tmp/r4/sets/{name}"))
    for name, folder in LATER.items():
        parser.add_argument(f"--{name}", type=Path, default=Path("/tmp/r6/sets") / folder)
    parser.add_argument("--pages", type=int, default=40, help="pages per generator at most, spread evenly")
    parser.add_argument("--only", default="", help="comma-separated generators to measure (default: all)")
    args = parser.parse_args()
    if args.pages < 1:
        parser.error(f"--pages must be at least 1, not {args.pages}")
    only = [name for name in args.only.split(",") if name]
    unknown = sorted(set(only) - set(GENERATORS))
    if unknown:
        parser.error(f"--only names unknown generators {unknown}; known: {', '.join(GENERATORS)}")
    report: dict[str, Any] = {}
    report["trafilatura"] = TRAFILATURA_MISSING or trafilatura.__version__
    for name in only or GENERATORS:
        folder: Path = getattr(args, name)
        report[name] = measure(folder, name, args.pages) if folder.is_dir() else {"skipped": f"no folder {folder}"}
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
