"""The rules of the HTML renderer (clew.corpus.ingest.formats.html): which tags are inline, dropped,
closed implicitly, and how runs of text are collapsed or kept verbatim.

Split from the renderer so that the renderer reads as one state machine over these tables.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_generators import _TEXINFO, _TEXINFO_INDEX, GENERATOR_CLASSES, GENERATOR_TITLES
from clew.corpus.ingest.formats.html_more import more_chrome
from clew.corpus.ingest.formats.html_notebook import folded_cell, notebook_chrome
from clew.corpus.ingest.formats.html_sweep import swept_chrome

INLINE_TAGS = frozenset(
    "a abbr b big cite code em font i img kbd nobr q s samp small span strike strong sub sup tt u var"
    " variable"
    " acronym bdi bdo data dfn mark time object".split()
)
"""Tags that do not break text: the dev sets' reference extractor's, and the other phrasing
elements of HTML that hold words of a sentence (DocBook writes every ``SQL`` in PostgreSQL's
manual as ``<acronym>``; Asciidoctor an inline SVG image as ``<object>`` holding its alt text). A phrase
inside one element of the narrower set is inside one here too."""
DROP_TAGS = frozenset("noscript template head nav header footer form select button".split())
"""Dropped with everything inside; a ``header`` inside the main content or a sectioning element
(``article``, ``section``, ``aside``) is that part's own header (its title) and is kept."""
INLINE_DROPPED = frozenset({"button"})
"""``DROP_TAGS`` that are phrasing content: dropped with what they hold, but, as ``INLINE_TAGS``, ending no
paragraph. The Jupyter Notebook's own tutorials say where to click with the toolbar's icon in the sentence ("This is
done by clicking on the <button><i class="fa fa-repeat"></i></button> in the toolbar above."), which split the
sentence into two paragraphs (task U30)."""
PHRASING = INLINE_TAGS | INLINE_DROPPED
"""Tags that end no paragraph."""
DROP_CLASSES = frozenset(
    # the SQLite pages' banner and menus
    "nosearch menu"
    # page chrome: Sphinx (sidebar, related bar, footer), Read the Docs, MkDocs, Docusaurus,
    # Javadoc 8 (top/sub/bottom navigation bars), DocBook (navigation header and footer)
    " sphinxsidebar related footer searchbox breadcrumb breadcrumbs wy-breadcrumbs wy-nav-side"
    " rst-footer-buttons md-header md-sidebar md-footer md-tabs md-search theme-doc-sidebar-container"
    " theme-doc-toc-desktop theme-doc-toc-mobile theme-doc-breadcrumbs theme-doc-footer pagination-nav"
    " topnav subnav bottomnav skipnav navheader navfooter"
    # heading permalinks and source links, which are not text
    " headerlink hash-link header-anchor anchorjs-link zola-anchor viewcode-link"
    # Haddock's "#" after each declaration (a.selflink; its "Source" link: html_sweep), the "Instances details"
    # and "Instance details" labels it shows only where scripts are off (summary.hide-when-js-enabled)
    " selflink hide-when-js-enabled"
    # gi-docgen's (GNOME's API references since GLib 2.76, GTK 4) "[src]" link after a heading to the source line
    " srclink"
    # mdBook's hidden lines of a Rust example (the set-up a reader does not see unless asked); the line
    # numbers Pygments writes beside code (Sphinx's and MkDocs' linenos: td.linenos, span.linenos)
    " boring linenos"
    # gtk-doc's Top | Description | Object Hierarchy bar (table.navigation); RDoc's "click to toggle source"
    " navigation method-click-advice"
    # gtk-doc's column of line numbers beside a highlighted example (table.listing_frame > td.listing_lines:
    # a code block "1 2" before the example's, task U8)
    " listing_lines"
    # mandoc's (man pages as HTML) running header and footer: "TAR(1) | GNU TAR Manual | TAR(1)" above the page
    # (table.head), its date and source below it (table.foot)
    " head-ltitle head-vol head-rtitle foot-date foot-os"
    # BoostBook's copyright and license at the foot of every page (div.copyright-footer, task S2)
    " copyright-footer"
    # Publican's (DocBook: Red Hat's and Fedora's guides, the Debian Administrator's Handbook) Prev / Up /
    # Home / Next bars above and below every page
    " docnav"
    # Pandoc's link from a footnote back to where it is cited, the glyph "↩︎" (docutils' backlink, role
    # doc-backlink too, is a footnote's label and stays)
    " footnote-back"
    # mkdocstrings' badges after an API object's name in its heading ("readers instance-attribute",
    # "bounds classmethod"): the section is the object's name
    " doc-labels"
    # pydata-sphinx-theme and sphinx-book-theme, inside main: the sidebars beside the article ("On this page",
    # "Edit on GitHub", "Show Source"), the bar above it (the book theme's repository, "Suggest edit" and
    # download buttons), the book theme's print-only copy of the title and page toc (div.onlyprint); MkDocs
    # Material's "Edit this page" / "View source" icons (links out of the site) and the page's revision date
    " bd-sidebar-primary bd-sidebar-secondary bd-header-article onlyprint md-content__button md-source-file"
    # Antora's default UI: the side column (div.nav-container: the navigation tree and the panel of the site's
    # components and versions, read "Git2.39 - Git - 2.39" before every page's title); Pelican's default theme
    # (notmyidea): the blogroll and social links under every article, sections "links" and "social" (task U25)
    " nav-container blogroll social"
    # SiSU's (Debian's live-manual, HTML and EPUB) number before every paragraph, a link to itself (label.ocn: "4",
    # "5", ... a paragraph each, one before every chapter's heading; task E1)
    " ocn"
    # Scribble's (Racket's documentation): the column of the manual's contents beside every page (div.tocset: "►
    # The Racket Guide" over a table of its chapters, then the page's part of it) and the bars "top contents ← prev up
    # next →" above and below the page (div.navsettop, div.navsetbottom): the first passage of each of racket-doc
    # 8.7's 356 Guide and Reference pages (task S5)
    " tocset navsettop navsetbottom".split()
)
"""An element with one of these classes is dropped with everything inside (chrome, permalinks)."""
DROP_IDS = frozenset({"footer", "titlearea", "banner", "package-header", "postamble", "__comments", "aside-container",
                      "mathjaxlink"})
"""An element with one of these ids is dropped like a ``DROP_CLASSES`` one: AsciiDoc's ``div#footer``
("Last updated ..."), Doxygen's ``div#titlearea`` (the project's name above every page), Publican's
``div#banner`` ("Download the ebook" above every page of the Debian Administrator's Handbook), Haddock's
``div#package-header`` (the package's name and synopsis, its Source / Contents / Index menu), Org mode's
``div#postamble`` ("Author: ...", "Created: 2026-12-07 Mon 04:59", "Validate" after every exported page), MkDocs
Material's ``h2#__comments`` (its comment system's heading, "Feedback" over Giscus' script: an empty last section of
every page of Griffe's site, task U25), Rspress' ``div#aside-container`` (its "ON THIS PAGE" beside the page: the label
was the page's last line, task U35), GAPDoc's ``p#mathjaxlink`` ("[MathJax on]", a link to the chapter's MathJax
copy under its bars: task S5)."""
DROP_ROLES = frozenset({"navigation", "search", "banner", "contentinfo"})
"""ARIA landmarks of page chrome: dropped like ``nav``, ``header`` and ``footer``."""
_FOREIGN = frozenset({"svg", "math"})
_SKIPPED = frozenset({"script", "style"}) | _FOREIGN
"""Skipped by counting their own tag: raw text (script, style) or foreign XML (svg, math: ``_FOREIGN``, which ends no
paragraph, as an icon inside a link or a formula inside a sentence ends none)."""
_VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())
_HEAD_CONTENT = frozenset("base link meta noscript script style template title".split())
_LEVELS = {f"h{level}": level for level in range(1, 7)}
_HEADINGS = frozenset({*_LEVELS, "h"})
# The HTML parsing algorithm's "special" elements, scope boundaries and p-closing tags.
_SPECIAL = frozenset(
    "address applet area article aside base basefont bgsound blockquote body br button caption center col"
    " colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3"
    " h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav"
    " noembed noframes noscript object ol p param plaintext pre script section select source style summary"
    " table tbody td template textarea tfoot th thead title tr track ul wbr xmp".split()
)
_SCOPE = frozenset("applet caption html table td th marquee object template".split())
_BUTTON_SCOPE = _SCOPE | {"button"}
_LIST_SCOPE = _SCOPE | {"ul", "ol"}
_TABLE_SCOPE = frozenset({"html", "table", "template"})
_CLOSES_P = frozenset(
    "address article aside blockquote center details dialog dir div dl dd dt fieldset figcaption figure"
    " footer form h1 h2 h3 h4 h5 h6 h header hgroup hr li listing main menu nav ol p plaintext pre search"
    " section summary table ul xmp".split()
)
_ENDS_HEADING = frozenset(
    "address article aside blockquote center dd div dl dt fieldset figure form h1 h2 h3 h4 h5 h6 h li main"
    " ol p pre section table td th tr ul".split()
)
_BREAKS_SVG = frozenset(
    "b big blockquote body br center code dd div dl dt em h1 h2 h3 h4 h5 h6 hr i li ol p pre s small span"
    " strong sub sup table tt u ul".split()
)
"""HTML tags that end an unclosed ``svg``/``math`` (the HTML algorithm's foreign-content breakout)."""
_ROW_PARENTS = frozenset({"table", "thead", "tbody", "tfoot"})
_LIST_ITEM_SCOPE = _SPECIAL - {"address", "div", "p"}
_SKIPPED_LINKS = ("javascript:", "mailto:")
_LEADING_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)+")

Marker = tuple[str, str]
"""``("anchor", name)`` or ``("link", href)``: placed at the offset where the next text starts."""
Piece = str | Marker
Placed = list[tuple[Marker, int]]
LINE_BREAK: Marker = ("break", "")
"""A ``<br>`` in a paragraph or list item: :func:`collapse` joins the text around it with a newline
(one, however many ``<br>`` follow each other; none at the start or end), not a space."""


def collapse(pieces: list[Piece]) -> tuple[str, Placed, list[Marker]]:
    """Join text pieces with whitespace collapsed to single spaces and stripped (a newline where a
    ``LINE_BREAK`` lies between two words).

    Each marker is placed at the offset of the text that follows it; markers with no text
    after them come back separately, to be placed by whatever text comes next.
    """
    out: list[str] = []
    length = 0
    space = False
    newline = False
    placed: Placed = []
    waiting: list[Marker] = []
    for piece in pieces:
        if not isinstance(piece, str):
            if piece is LINE_BREAK:
                newline = True
            else:
                waiting.append(piece)
            continue
        words = piece.split()
        if not words:
            space = space or bool(piece)
            continue
        if length and (newline or space or piece[0].isspace()):
            out.append("\n" if newline else " ")
            length += 1
        newline = False
        if waiting:
            placed.extend((marker, length) for marker in waiting)
            waiting = []
        chunk = " ".join(words)
        out.append(chunk)
        length += len(chunk)
        space = piece[-1].isspace()
    return "".join(out), placed, waiting


def verbatim(pieces: list[Piece]) -> tuple[str, Placed, list[Marker]]:
    """Like :func:`collapse` for ``pre``: text kept as is, less leading blank lines and trailing space; a
    no-break space (U+00A0) is a space, as :func:`collapse` reads it outside ``pre``. TeX4ht writes every space
    of a ``verbatim`` block so (``clew&#x00A0;ask``), PostgreSQL's manual some between the operators of its
    ``pre.synopsis`` lists ("<  <=  ="), gtk-doc one in each return type ("const gchar *"); a copied command
    or a search for its words met U+00A0 (task R5)."""
    parts: list[str] = []
    markers: Placed = []
    length = 0
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(piece)
            length += len(piece)
        else:
            markers.append((piece, length))
    text = "".join(parts).replace("\xa0", " ")
    lead = _LEADING_BLANK_LINES.match(text)
    cut = lead.end() if lead else 0
    body = text[cut:].rstrip()
    placed: Placed = [(marker, max(0, at - cut)) for marker, at in markers if at - cut < len(body)]
    waiting = [marker for marker, at in markers if at - cut >= len(body)]
    return body, placed, waiting


def _attr(attrs: list[tuple[str, str | None]], name: str) -> str | None:
    """An attribute's value, stripped; ``class`` lower-cased, as browsers match it in the quirks mode of
    older pages: DocBook's DSSSL stylesheets (PostgreSQL's manual before version 10, the Linux
    Documentation Project's HOWTOs) write ``DIV CLASS="NAVHEADER"``, ``CLASS="NOTE"``, ``CLASS="TOC"``."""
    for key, value in attrs:
        if key == name and value is not None and value.strip():
            return value.strip().lower() if name == "class" else value.strip()
    return None


BYLINE_CLASSES = frozenset(
    {"author", "corpauthor", "editor", "othercredit", "subtitle", "instances", "tsd-index-heading", "titlerest",
     "date"})
"""A heading with one of these classes names a person or subtitles the book, not a part of the text:
DocBook's title page writes each author as ``h3.author`` (debian-reference, maint-guide, the Debian
Administrator's Handbook, PostgreSQL's ``index.html``) and the book's subtitle as ``h2.subtitle``
(Publican), which opened a section holding the book's copyright, abstract and table of contents.
Haddock labels a type's instances ``h4.instances`` ("Instances") inside the type's box, the declarations
after it no heading of their own: its section held every later declaration up to the next heading.
TypeDoc's index of a page's members labels its groups ``h5.tsd-index-heading`` ("Index") and
``h3.tsd-index-heading`` ("Constructors", "Methods"), the same headings as the groups below it. HeVeA
(LaTeX to HTML) writes ``maketitle``'s author and date as ``h3.titlerest`` under the title's ``h1.titlemain``, R
Markdown (``html_vignette``, ``html_document``) as ``h4.author`` and ``h4.date`` (a section "November, 2014" under
magrittr's title; task U32). Such a heading is a paragraph."""
CLOSED_PART_CLASSES = frozenset({"legalnotice"})
"""A ``div`` of one of these classes is a part of the title page whose headings end with it: DocBook's
and Publican's legal notice (``div.legalnotice > h1.legalnotice``, "Legal Notice", as high as the book's
title) opened a section that held what follows it, the abstract and the book's table of contents. At
the part's end the sections open before it are open again."""
TITLE_BOX_CLASSES = frozenset({"refnamediv"})
"""A ``div`` of one of these classes holds the page's title as its heading, which is read as an ``h1``:
DocBook's reference entries (manual pages: PostgreSQL's SQL commands, gtk-doc's API pages) write the
entry's name as an ``h2`` in ``div.refnamediv``, the same tag as the entry's own sections (Synopsis,
Description), which then stood beside the title instead of under it."""
TABLE_BOX_CLASSES = frozenset({"table"})
"""A ``div`` of one of these classes holds a table and its title: DocBook's formal table,
``div.table > p.title`` ("Table 9.9. SQL String Functions and Operators") then
``div.table-contents > table`` (PostgreSQL, the Debian Administrator's Handbook, debian-reference)."""


def table_title(tag: str, attrs: list[tuple[str, str | None]], *, in_table: bool, in_box: bool) -> bool:
    """Whether an element is a table's title: a data table's ``caption`` (Sphinx, AsciiDoc, pandoc),
    or a ``p`` or an element of class ``title`` or ``table-title`` directly inside a ``TABLE_BOX_CLASSES``
    ``div`` (DocBook XSL's ``p.title``, ``div.table-title`` in its HTML5 output; its DSSSL stylesheets'
    ``P`` holding a bold "Table 5-1. ..."). The title is read as the table's first header row, so that
    every passage of the table carries it."""
    if tag == "caption":
        return in_table
    return in_box and (tag == "p" or not {"title", "table-title"}.isdisjoint((_attr(attrs, "class") or "").split()))


def generator_name(attrs: list[tuple[str, str | None]]) -> str | None:
    """The generator a ``<meta name="generator" content="...">`` names: its first word, lower-cased."""
    name = _attr(attrs, "name")
    content = _attr(attrs, "content")
    if name is None or name.lower() != "generator" or content is None:
        return None
    return content.split()[0].lower()


def generator_classes(attrs: list[tuple[str, str | None]]) -> frozenset[str] | None:
    """The chrome classes of the generator a ``<meta name="generator" content="...">`` names, if known."""
    generator = generator_name(attrs)
    return None if generator is None else GENERATOR_CLASSES.get(generator)


def generator_title(attrs: list[tuple[str, str | None]]) -> str | None:
    """The title class (``GENERATOR_TITLES``) of the generator a ``<meta name="generator">`` names, if any."""
    generator = generator_name(attrs)
    return None if generator is None else GENERATOR_TITLES.get(generator)


def _dropped_class(attrs: list[tuple[str, str | None]], generator: frozenset[str] = frozenset(), tag: str = "") -> bool:
    """Chrome by its class (``DROP_CLASSES``, or ``generator``: the page's generator's chrome classes, see
    ``GENERATOR_CLASSES``; a Texinfo index's ``table`` of class ``_TEXINFO_INDEX``, ``tag`` the element's), by
    ``html_sweep.swept_chrome`` (a permalink class but on a link, Haddock's source link, text that cannot be
    selected), ``html_more.more_chrome`` (YARD's and RDoc's) and ``html_notebook.notebook_chrome`` (a Jupyter notebook's
    prompts and copy buttons), by its id (``DROP_IDS``) or its role
    (``DROP_ROLES``)."""
    classes = (_attr(attrs, "class") or "").split()
    if not (DROP_CLASSES.isdisjoint(classes) and generator.isdisjoint(classes)):
        return True
    if generator is _TEXINFO and tag == "table" and any(_TEXINFO_INDEX.fullmatch(name) for name in classes):
        return True
    if swept_chrome(classes, _attr(attrs, "href"), _attr(attrs, "style"), tag):
        return True
    if more_chrome(classes) or notebook_chrome(classes, tag):
        return True
    if _attr(attrs, "id") in DROP_IDS:
        return True
    role = _attr(attrs, "role")
    return role is not None and role.lower() in DROP_ROLES


ADMONITION_CLASSES = frozenset(
    "admonition admonitionblock theme-admonition markdown-alert note tip warning caution important danger attention"
    " hint custom-block"
    # Bootstrap's boxes: its docs' callouts (``div.bd-callout.bd-callout-warning``, a heading then text, task R19),
    # Foundation's and other themes' ``div.callout``, and ``div.alert`` (Docsy's alerts, a notebook's notes)
    " bd-callout callout alert"
    # Org mode's HTML export: a footnote (``div.footdef``: its number, then ``div.footpara``), read as a footnote
    " footdef".split()
)
"""A block with one of these classes (Sphinx, MkDocs, Docusaurus, GitHub, DocBook, VitePress, AsciiDoc, Bootstrap;
MkDocs writes a collapsible one as ``details.note``, labelled by its ``summary``), an ``aside`` or ``role="note"``
is an admonition: one block of the section it sits in, with its label."""
LABEL_CLASSES = frozenset(
    {"admonition-title", "markdown-alert-title", "title", "custom-block-title", "starlight-aside__title",
     "callout-header"})
"""The label of an admonition (``p.admonition-title``, DocBook's ``h3.title``, VitePress's
``p.custom-block-title``, Starlight's ``p.starlight-aside__title``); Docusaurus's is a
class that starts with ``admonitionHeading``. Else the admonition's first heading or header cell
(DocBook's graphical form) is its label."""
_ADMONITION_TAGS = frozenset({"div", "aside", "section", "blockquote", "details"})


def admonition(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    if tag not in _ADMONITION_TAGS:
        return False
    if tag == "aside":  # docutils' list of footnotes is no admonition; each footnote in it is one
        return "footnote-list" not in (_attr(attrs, "class") or "").split()
    role = _attr(attrs, "role")
    if role is not None and role.lower() == "note":
        return True
    if tag == "div" and role == "doc-biblioentry":  # a docutils citation: one block, its label first, as a footnote
        return True
    classes = (_attr(attrs, "class") or "").split()
    if tag == "details" and folded_cell(classes):
        return False
    return not ADMONITION_CLASSES.isdisjoint(classes) or any(c.startswith("admonition_") for c in classes)


_GRID_WIDTHS = {"two-column-summary": 2, "three-column-summary": 3, "four-column-summary": 4}


def grid_columns(tag: str, attrs: list[tuple[str, str | None]]) -> int:
    """The width of a table written as a grid of ``div`` cells, 0 for any other element: javadoc
    (JDK 16 and later) writes its summary tables as ``div.summary-table.three-column-summary``."""
    if tag != "div":
        return 0
    classes = (_attr(attrs, "class") or "").split()
    if "summary-table" not in classes:
        return 0
    return next((_GRID_WIDTHS[c] for c in classes if c in _GRID_WIDTHS), 0)


def footnote(attrs: list[tuple[str, str | None]]) -> bool:
    """A docutils footnote or citation (``aside.footnote``, ``div.citation``, docutils 0.18 and later) or Org
    mode's (``div.footdef``, task U19): its label (``[1]``, an inline ``span.label``, Org's ``a.footnum``)
    opens its first paragraph."""
    return not _NOTES.isdisjoint((_attr(attrs, "class") or "").split())


_NOTES = frozenset({"footnote", "citation", "footdef"})


def admonition_label(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether what opens first in an admonition is its label: a heading, a ``th`` (the header
    cell of DocBook's graphical admonition, beside the icon cell) or a ``LABEL_CLASSES`` element."""
    if tag in _HEADINGS or tag in ("th", "summary"):
        return True
    classes = (_attr(attrs, "class") or "").split()
    return not LABEL_CLASSES.isdisjoint(classes) or any(c.startswith("admonitionheading") for c in classes)


Event = tuple[str, str, list[tuple[str, str | None]]]
"""An ``html.parser`` callback as the renderer reads a table ahead: ``("start", tag, attrs)``,
``("startend", tag, attrs)``, ``("end", tag, [])`` or ``("data", text, [])``."""
TOC_CLASSES = frozenset(
    "toc list-of-tables list-of-figures list-of-examples list-of-procedures tableofcontents".split())
"""Classes of a ``div`` that lists the parts of a book: DocBook's tables of contents and its lists
of tables, figures, examples and procedures; TeX4ht's ``div.tableofcontents`` (task R4)."""


TOC_IDS = frozenset({"toc", "SEC_Contents", "SEC_Overview", "table-of-contents"})
"""Ids of a ``div`` that is a table of contents: AsciiDoc's ``div#toc``; Texinfo's "Table of Contents"
and "Short Table of Contents" (``div.Contents_element#SEC_Contents`` in makeinfo 6,
``div.element-contents`` in 7), each with its ``h2`` inside; Haddock's ``div#table-of-contents`` (a
module's "Contents", its section headings as links ``#g:1``)."""


def page_toc_start(attrs: list[tuple[str, str | None]]) -> bool:
    """A ``div`` that is a table of contents: ``TOC_CLASSES`` (DocBook, Publican), ``TOC_IDS``, or Docusaurus's
    ``<TOCInline>`` (``div.tableOfContentsInline_<hash>``, a CSS module's class, around ``ul.table-of-contents``)."""
    classes = (_attr(attrs, "class") or "").split()
    return (not TOC_CLASSES.isdisjoint(classes) or _attr(attrs, "id") in TOC_IDS
            or any(c.startswith("tableofcontentsinline") for c in classes))


def page_toc(events: list[Event]) -> bool:
    """Whether a table of contents (its events) only repeats the headings of the page it is on: it has
    links, each with a fragment, all into one page (DocBook writes ``functions-string.html#FORMAT``
    on that very page). Such a TOC is dropped, as the SQLite pages' is: the sections carry their
    headings and anchors. A TOC with a link to another page (a chapter's list of its section pages)
    is kept: its links lead a walk to those pages."""
    pages: set[str] = set()
    for kind, tag, attrs in events:
        if kind == "start" and tag == "a":
            href = _attr(attrs, "href")
            if href is None:
                continue
            page, _, fragment = href.partition("#")
            if not fragment:
                return False
            pages.add(page)
    return len(pages) == 1


API_DOMAINS = frozenset({"py", "c", "cpp", "js", "std", "rst"})
_API_LEGACY = frozenset(
    "function class method attribute data exception classmethod staticmethod decorator decoratormethod property"
    " describe object envvar cmdoption opcode macro member type var".split()
)


def api_entry(attrs: list[tuple[str, str | None]]) -> bool:
    """A ``dl`` of a Sphinx object description (``dl.py.function``, ``dl.c.macro``, ``dl.std.envvar``,
    and before Sphinx 4 ``dl.function``, ``dl.describe``): each entry is a section."""
    classes = (_attr(attrs, "class") or "").split()
    if len(classes) >= 2 and classes[0] in API_DOMAINS:
        return True
    return len(classes) == 1 and classes[0] in _API_LEGACY


def field_list(attrs: list[tuple[str, str | None]]) -> bool:
    """A docutils field list (``dl.field-list``: a page's ``:Author:``, an API entry's ``Parameters:``,
    ``Returns:``, ``Raises:``; the html5 writer's ``dl.docinfo``, task R6): each term names the field its definition
    holds."""
    return not _FIELD_LISTS.isdisjoint((_attr(attrs, "class") or "").split())


_FIELD_LISTS = frozenset({"field-list", "docinfo"})


def note_list(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """A footnote or citation of docutils 0.17 and earlier (``dl.footnote``, ``dl.citation``), or HeVeA's notes
    (``dl.thefootnotes``, task R6): its term is the label (``1``; the page's style sheet adds the brackets) of its
    first paragraph."""
    return tag == "dl" and (footnote(attrs) or "thefootnotes" in (_attr(attrs, "class") or "").split())


def signature_part(attrs: list[tuple[str, str | None]]) -> str:
    """``"name"`` for the name of a Sphinx signature (``sig-name``, ``descname``), ``"prename"`` for
    its module or class (``sig-prename``, ``descclassname``), else ``""``."""
    classes = (_attr(attrs, "class") or "").split()
    if "sig-name" in classes or "descname" in classes:
        return "name"
    if "sig-prename" in classes or "descclassname" in classes:
        return "prename"
    return ""


PERMALINK_TEXTS = frozenset({"", "¶", "#", "§", "🔗", "⚓", "∞", "\u200b"})
"""What a heading's last same-page link (``<a href="#...">``) holds when it is a permalink."""
