"""HTML: a Markdown-like rendering built with the standard library's ``html.parser``.

The document text is rendered, not the source; how each element is written out (headings and
their sections, definition-list terms, list items, code, tables, paragraphs) is described in
``clew.corpus.ingest.formats.html_blocks``. Inline tags (``INLINE_TAGS``) do not break text; every
other tag does.

Page chrome is not content. Where a page has a main content element (``main``,
``role="main"``, ``itemprop="articleBody"``, Sphinx's ``div.body``, ``article``, YUI's ``div#yui-main``:
see ``html_root.content_root``), only what lies inside such elements is read (the ``<title>``
aside); a page without one is read whole (should such an element turn out to hold no text, the
page is read again, whole).

Dropped with everything inside (text, links, anchors), wherever they are: ``DROP_TAGS``
(``nav``, ``footer``, ``header`` outside the main content and any ``article``, ``section`` or
``aside``, ``form``, ...), ``script``, ``style``, ``svg``, ``math``, ``head`` (its ``title`` is
kept as the title), the landmarks ``role="navigation"``, ``"search"``, ``"banner"`` and
``"contentinfo"``, and any element with a class of ``DROP_CLASSES``: the chrome of Sphinx
(``div.sphinxsidebar``, ``div.related``, ``div.footer``), Read the Docs, MkDocs, Docusaurus,
Javadoc and DocBook (``div.navheader``, ``div.navfooter``), and heading permalinks
(``a.headerlink``, Doxygen's ``span.permalink``); in a page whose ``<meta name="generator">`` names a generator of
``GENERATOR_CLASSES``, that generator's chrome classes too (Texinfo's ``div.header`` navigation
bar and ``ul.section-toc`` node menus); a heading's last same-page link that holds only ``¶``, ``#`` or the like is
dropped too. ``button`` is dropped: in the SQLite pages it only holds the "hide"/"show" toggles
of the syntax diagrams. The SQLite pages' table of contents (``div.fancy_toc``) sits inside
``div.nosearch`` with the page's banner title and is dropped with it: it only repeats the page's
own headings as same-page links, which the sections already carry (with their anchors). For the
same reason a ``div.toc`` / ``div#toc`` (DocBook, Publican, AsciiDoc) whose links all lead into one
page, each to a fragment, is dropped (``html_rules.page_toc``); one that lists other pages is kept. A
heading left with no text by it (HeVeA's, LaTeX2HTML's and TeX4ht's "Contents", written before the list)
goes with it (``html_blocks.BlockWriter.end_bare_heading``).

The title is the ``<title>``, except where it is the first ``h1`` followed by the site's name
(Sphinx's "functools — ... — Python 3.11.2 documentation"): then it is that ``h1``; a page
without a ``<title>`` takes its first ``h1``.

A table is read ahead to its end before it is rendered: a layout table (a frame around blocks,
``html_layout.TableShape.layout``: a one-cell box around a ``pre``, an admonition's icon beside
its text, ...) is not a data table, and its cells are read as the blocks they hold.

Unclosed ``li``, ``p``, ``dt``/``dd``, ``td``/``th`` and ``tr`` are closed the way the HTML
parsing algorithm closes them, with a small stack of open elements (``html_stack``); malformed input never
raises.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.fences import html_language
from clew.corpus.ingest.formats.html_ahead import ReadAhead, read_ahead_start
from clew.corpus.ingest.formats.html_elements import ElementOpener
from clew.corpus.ingest.formats.html_foreign import ForeignSkip
from clew.corpus.ingest.formats.html_marks import FootnoteMarks, note_definitions, task_box
from clew.corpus.ingest.formats.html_members import MemberLevels
from clew.corpus.ingest.formats.html_more import restructured
from clew.corpus.ingest.formats.html_root import content_root, may_have_content_root
from clew.corpus.ingest.formats.html_rules import (
    _BREAKS_SVG,
    _BUTTON_SCOPE,
    _CLOSES_P,
    _ENDS_HEADING,
    _FOREIGN,
    _HEAD_CONTENT,
    _LIST_ITEM_SCOPE,
    _ROW_PARENTS,
    _SKIPPED,
    _VOID,
    DROP_TAGS,
    INLINE_DROPPED,
    LINE_BREAK,
    PHRASING,
    _attr,
    _dropped_class,
    collapse,
    generator_classes,
    generator_name,
    generator_title,
    signature_part,
)
from clew.corpus.ingest.formats.html_rustdoc import rustdoc_title
from clew.corpus.ingest.formats.html_scala_typedoc import api_pages
from clew.corpus.ingest.formats.html_site import SiteName
from clew.corpus.ingest.formats.html_stack import Entry, OpenElements
from clew.corpus.ingest.formats.html_terms import bold_terms
from clew.corpus.ingest.formats.html_titles import banner_title
from clew.corpus.ingest.formats.text import normalize_newlines
from clew.corpus.ingest.parsed import ParsedDocument


def parse_html(source: str, *, embedded: bool = False, collapsible: bool = False) -> ParsedDocument:
    """Render an HTML page into blocks, sections, tables, links and anchors (never raises on bad markup).

    ``embedded``: HTML inside Markdown, where an image outside a heading reads as its ``alt`` text,
    as an image written ``![alt](src)`` keeps its alt text. In a page, images are not text (the dev
    set's reference extractor, like a reader, does not see them; DocBook's admonition icons would
    repeat their label). ``collapsible``: a ``<details>`` is a collapsible admonition (one block
    labelled by its ``<summary>``), as MkDocs' ``???`` is; Markdown asks for it where the details
    hold no heading. Else a ``<details>`` without an admonition class is a container: rustdoc wraps
    every method, its heading and its examples in one."""
    text = note_definitions(restructured(api_pages(normalize_newlines(source))))  # man pages, RDoc, mdBook's notes
    text = bold_terms(text)  # <p><b>NAME</b></p><blockquote>: a term and its definition (html_terms)
    if may_have_content_root(text):
        builder = _Builder(content_only=True, embedded=embedded, collapsible=collapsible)
        builder.feed(text)
        builder.close()
        if builder.roots_seen and builder.blocks:
            return builder.document() if embedded else banner_title(builder.document(), text)
    builder = _Builder(embedded=embedded, collapsible=collapsible)
    builder.feed(text)
    builder.close()
    return builder.document() if embedded else banner_title(builder.document(), text)


class _Builder(ElementOpener):
    """The stack of open elements (:class:`OpenElements`) over ``html.parser``'s callbacks (tables and
    the like read ahead first: :class:`ReadAhead`); what it reads becomes blocks through :class:`BlockWriter`."""

    def __init__(self, *, content_only: bool = False, embedded: bool = False, collapsible: bool = False) -> None:
        FootnoteMarks.__init__(self)
        OpenElements.__init__(self, self._close)
        ReadAhead.__init__(self, self._contents_dropped)
        self._embedded = embedded
        """HTML inside Markdown: images read as their alt text (see ``parse_html``)."""
        self._collapsible = collapsible
        """``<details>`` are admonitions (see ``parse_html``)."""
        self._content_only = content_only
        """Read only what lies inside the page's main content elements."""
        self._roots_open = 0
        self.roots_seen = 0
        """Main content elements met (``html_root.content_root``)."""
        self._skip_tag: str | None = None
        self._skip_depth = 0
        self._foreign = ForeignSkip()
        self._chrome = 0  # dropped elements open
        self._drop = self._chrome + content_only  # > 0: what is read now is dropped (chrome, or outside the content)
        self._head: Entry | None = None
        self._title_parts: list[str] | None = None
        self._title: str | None = None
        self._generator: frozenset[str] = frozenset()  # the page's generator's chrome classes (GENERATOR_CLASSES)
        self._title_class: str | None = None  # the class of the page's title div (html_generators.GENERATOR_TITLES)
        self._title_boxes = 0  # TITLE_BOX_CLASSES elements open: a heading inside is the page's title (h1)
        self._members: MemberLevels | None = None  # a Doxygen page's heading levels (html_members)
        self._rustdoc = False  # a page rustdoc wrote: its title less " - Rust" (html_rustdoc)
        self._site = SiteName()

    def parse_starttag(self, i: int) -> int:
        """A start tag; past the content of a skipped ``svg`` or ``math`` it starts where nothing in it is
        read (``html_foreign``: the same parse, without tokenizing it)."""
        end = super().parse_starttag(i)
        if end > 0 and self._skip_depth == 1 and self.lasttag == self._skip_tag and not self._ahead.holding:
            return self._foreign.past(self.rawdata, end, self.lasttag)
        return end

    def updatepos(self, i: int, j: int) -> int:
        """Go on at ``j`` without counting lines for ``getpos``, which nothing here reads (the same parse, tested)."""
        return j

    # --- html.parser callbacks ---------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if (self._ahead.holding or read_ahead_start(tag, attrs)) and self._read_ahead(("start", tag, attrs)):
            return
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth += 1
            if self._skip_tag in ("script", "style") or tag not in _BREAKS_SVG:
                return
            self._skip_tag = None
        if self._title_parts is not None:
            if tag in PHRASING:
                return
            self._end_title()
        if tag == "title":
            if self._title is None:
                self._title_parts = []
            return
        if self._head is not None and tag not in _HEAD_CONTENT:
            self._pop_entry(self._head)  # content without </head> or <body>: the head has ended
        if tag in PHRASING:
            dropped = not self._drop and (tag in INLINE_DROPPED  # none: no class
                                          or (bool(attrs) and _dropped_class(attrs, self._generator, tag)))
            if (self._drop or dropped) and (tag in _VOID or self._too_deep(tag, attrs)):
                return  # a dropped img has no end tag: on the stack it kept the a or span around it open
            if self._drop:
                self._site.start(tag, attrs, True)  # a site's name in a link (html_jsdocs.site_name_box)
                self._push(Entry(tag))
            elif dropped:
                self._push_dropped(tag)
            else:
                self._inline(tag, attrs)
            return
        if tag == "br" or tag == "wbr":
            if tag == "br" and not self._drop:
                self._line_break()
            return
        if tag in ("html", "body"):
            if not self._drop:
                self._markers(tag, attrs)
            return
        if tag not in _FOREIGN:  # svg, math: no text of their own, inline where they stand (an icon in a link, U26)
            self._item_boundary(tag)
        if tag in _SKIPPED:
            self._skip_tag, self._skip_depth = tag, 1
            return
        if tag in _VOID:
            if tag == "meta":
                self._generator = generator_classes(attrs) or self._generator
                self._title_class = generator_title(attrs) or self._title_class
                if self._members is None and generator_name(attrs) == "doxygen":
                    self._members = MemberLevels()
                self._rustdoc = self._rustdoc or generator_name(attrs) == "rustdoc"
                self._site.meta(attrs)
            if not self._drop:
                self._markers(tag, attrs)
                if tag == "input" and self._open_tags["li"]:
                    self._box = task_box(attrs)  # written before the item's words (FootnoteMarks._add)
            return
        self._close_implied(tag)
        if self._too_deep(tag, attrs):
            return
        self._site.start(tag, attrs, bool(self._drop))
        if self._chrome:
            self._push(Entry(tag))
        elif ((tag in DROP_TAGS and not (tag == "header" and self._sectioning()))
              or (bool(attrs) and _dropped_class(attrs, self._generator, tag))):
            entry = self._push_dropped(tag)
            if tag == "head":
                self._head = entry
        elif self._drop and not content_root(tag, attrs):  # outside the main content
            self._push(Entry(tag))
        else:
            self._markers(tag, attrs)
            entry = self._open_element(tag, attrs)
            if tag in ("div", "figure"):
                entry.language = html_language(attrs, figure=tag == "figure")
            if not entry.role and content_root(tag, attrs):
                entry.role = "root"
                self._roots_open += 1
                self.roots_seen += 1
                if self._content_only and self._roots_open == 1:
                    self._drop -= 1
            self._push(entry)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._ahead.holding:
            self._read_ahead(("startend", tag, attrs))
            return
        if self._skip_tag is not None:
            return  # <path/> and friends inside svg
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._ahead.holding:
            self._read_ahead(("end", tag, []))
            return
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth -= 1
                if self._skip_depth == 0:
                    self._skip_tag = None
            return
        self._site.end(tag)
        if tag == "title":
            if self._title_parts is not None:
                self._end_title()
            return
        if self._flattened_end(tag):  # the end of an element opened below MAX_DEPTH
            if tag not in PHRASING:
                self._boundary()
            return
        if tag in PHRASING:
            container = self._container
            self._power = self._power and tag != "sup"  # an empty sup: the text after it is no power
            self.end_mark(tag)
            if self._drop:
                self._close_named(tag)
            elif container is not None and container.kind == "cell" and tag in ("b", "strong") and container.bold:
                container.bold -= 1
            elif container is not None and container.api:
                container.pieces.append(("close", ""))
            return
        if tag in _VOID or tag in ("html", "body"):
            if tag == "br" and not self._drop:  # </br> is read as <br>, as browsers do
                self._line_break()
            return
        self._item_boundary(tag)
        self._close_named(tag)

    def handle_data(self, data: str) -> None:
        if self._ahead.holding:
            self._read_ahead(("data", data, []))
            return
        if self._skip_tag is not None:
            return
        if self._title_parts is not None:
            self._title_parts.append(data)
        elif not self._drop:
            # a div read as pre (Doxygen's div.fragment): its div.line elements end their lines, the source's line
            # breaks between them are not the code's (the rare case tested first: this runs for every text)
            if (container := self._container) is not None and container.kind == "pre" and "\n" in data \
                    and data.isspace() and self._stack and (inner := self._stack[-1]).tag == "div" \
                    and inner.obj is container:
                return
            self._add(data)
        else:
            self._site.data(data)

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """``<![...]>``: the standard parser raises on unknown keywords; skip those like HTML does."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:  # a bogus comment in HTML: it ends at the next ">"
            end = self.rawdata.find(">", i + 3)
            return -1 if end < 0 else end + 1

    def close(self) -> None:
        super().close()
        if self._ahead.holding:  # a table left open at the end of the page
            self._replay(self._ahead.release())
        self._skip_tag = None
        if self._title_parts is not None:
            self._end_title()
        self._boundary()
        self._pop_to(0)
        self._route(self._flush())
        self.end_bare_heading(0)
        for marker in self._pending:
            self._record(marker, self._length)
        self._pending = []

    def document(self) -> ParsedDocument:
        title = self._site.title(self._title, self._first_h1)
        return self._rendered(rustdoc_title(title) if self._rustdoc else title, self.depth_repairs())

    # --- the stack of open elements ------------------------------------------------------

    def _push_dropped(self, tag: str) -> Entry:
        entry = Entry(tag, "drop")
        self._drop += 1
        self._chrome += 1
        self._push(entry)
        return entry

    def _sectioning(self) -> bool:
        """Inside the main content or a sectioning element (where a ``header`` is that part's own)."""
        tags = self._open_tags
        return bool(self._roots_open or tags["article"] or tags["section"] or tags["aside"] or tags["main"])

    def _inline(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """A kept inline element: its anchors and link; inside a heading, where a permalink may start;
        inside a Sphinx signature, which part of it (``html_rules.signature_part``) opens."""
        container = self._container
        if container is not None and container.kind == "cell" and tag in ("b", "strong"):
            container.bold += 1
        if container is not None and container.kind == "pre" and tag == "code" and not container.language:
            container.language = html_language(attrs)  # highlight.js, Hugo, Asciidoctor: pre > code.language-x
        if container is not None and container.kind == "heading":
            if container.api:
                container.pieces.append(("open", signature_part(attrs)))
            elif tag == "a" and (_attr(attrs, "href") or "").startswith("#"):
                container.permalink = len(container.pieces)
        if tag == "i" and self._admonitions:
            self._icon_label(attrs)
        elif tag == "sup":
            self._exponent()
        self._markers(tag, attrs)
        if tag == "img" and self._embedded and (container is None or container.kind != "heading"):
            alt = _attr(attrs, "alt")  # a logo in a heading is not part of its name
            if alt and alt.strip():
                self._add(alt)

    def _line_break(self) -> None:
        """``<br>``: a line break in a paragraph or list item and inside ``pre``, a space in a heading or cell."""
        container = self._container
        if container is None:
            self._add(LINE_BREAK)
        else:
            self._add("\n" if container.kind == "pre" else " ")

    def _too_deep(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """An element past ``MAX_DEPTH`` (``html_stack.OpenElements._flatten``): its anchors and links
        join the element around it too."""
        if not self._flatten(tag):
            return False
        if not self._drop:
            self._markers(tag, attrs)
        return True

    def _close(self, entry: Entry) -> None:
        """Finish what ``entry`` started; called as it leaves the stack."""
        role = entry.role
        if not role:
            return
        if role == "drop":
            self._drop -= 1
            self._chrome -= 1
            if entry is self._head:
                self._head = None
        elif role == "part":
            self.end_part(entry.obj)
        elif role == "title box":
            self._title_boxes -= 1
        elif role == "table box":
            self._end_caption()
        elif role == "member" and self._members is not None:
            self._members.close_body()
        elif role == "root":
            self._roots_open -= 1
            if self._content_only and self._roots_open == 0:
                self._drop += 1
        elif role == "admonition":
            self._end_admonition(entry.obj)
        elif role == "container":
            self._close_container(entry.obj)
        elif role == "row":
            self._end_row(entry.obj)
        elif role == "thead":
            entry.obj.thead = False
        elif role == "table":
            self._tables.remove(entry.obj)
            self._emit_table(entry.obj)
        elif role == "dlist":  # its terms end with it
            self._end_dlist(entry.obj)
        elif role == "list":
            self._lists.remove(entry.obj)
            if not self._lists:
                self._list_group += 1
        elif role == "item":
            self._items.remove(entry.obj)
            if not self._items and not self._lists:
                self._list_group += 1

    def _close_implied(self, tag: str) -> None:
        """Close what a start tag implicitly ends: an open li, dt/dd, p, cell, row or heading."""
        container = self._container
        if container is not None and container.kind == "heading" and tag in _ENDS_HEADING:
            self._pop_entry(container)
        if tag == "li":
            self._close_within(("li",), _LIST_ITEM_SCOPE)
        elif tag in ("dd", "dt"):
            self._close_within(("dd", "dt"), _LIST_ITEM_SCOPE)
        elif tag in ("td", "th", "tr", "thead", "tbody", "tfoot"):
            # a cell closes the open cell, a row the open row, a row group everything in the table
            parents = _ROW_PARENTS | {"tr"} if tag in ("td", "th") else _ROW_PARENTS if tag == "tr" else {"table"}
            found = self._close_within(parents, ("html", "template"), inclusive=False)
            if tag in ("td", "th") and found is not None and found != "tr":
                self._push(self._open_element("tr", []) if not self._drop else Entry("tr"))
        if tag in _CLOSES_P:
            self._close_within(("p",), _BUTTON_SCOPE)

    def _end_title(self) -> None:
        title, _, _ = collapse(list(self._title_parts or []))
        self._title_parts = None
        if title:
            self._title = title
