"""Block rendering for the HTML renderer (``clew.corpus.ingest.formats.html``): how the text read
inside an element is written out as blocks of the document text, and where its anchors and
links land. :class:`BlockWriter` holds the rendered document as it grows; the parser in
``html`` decides from its stack of open elements when a run of text, a container (heading,
``pre``, cell) or a table ends, and calls in here.

The document text is rendered, not the source: blocks are separated by a blank line, except
consecutive list items of one list and consecutive rows of one table (a single newline).

- ``h1``..``h6`` are ``heading`` blocks, ``"#" * level + " " + text``; each opens a section.
  The hidden ``<h>`` headings of the SQLite pragma page (one per pragma) are headings one
  level below the enclosing ``h1``..``h6``. A heading inside ``html_rules.TITLE_BOX_CLASSES``
  (DocBook's ``div.refnamediv``) is an ``h1``: the page's title, over the sections after it.
- ``dt`` (a definition-list term) is a ``heading`` block, its text without ``#``, that opens a
  section one level below the section around its list; its ``dd`` text is that section's,
  and the terms' sections end with their ``dl``. So every term with its definition is a unit
  of its own (a node the tree tools reach; an ``id`` on the ``dt`` names it). Consecutive ``dt``
  (a group of terms for one ``dd``: ``-a`` and ``--text``) are one heading, a line each, and one
  section named by all of them (``-a, --text``; ``html_terms``). A list with less
  than ``html_terms.TERM_UNITS_CHARS`` of text is left as paragraphs of the section around it, and so is a
  term with nothing under it (a ``dt`` without ``dd``: a book's "List of Tables", the leaves of
  its table of contents, an index entry), which would be a section without text. A ``dt`` outside
  any ``dl`` (gtk-doc's API index) is a paragraph.
- ``li`` is a ``list_item``, ``"- " + text`` (``"N. " + text`` in an ``ol``, numbered as a browser
  numbers it: ``html_parts._List``), indented two spaces per nesting level; text of the same item
  after a nested block is a further ``list_item`` indented under the marker.
- ``pre`` is an indivisible ``code`` block, kept verbatim between Markdown's fence lines (```` ```bash ````,
  its language where the page names one: ``fences``); one inside a data table's cell is flattened
  into the cell's text unfenced (a fence line would break the row), one inside a list item is a
  block of its own after the item's text, fenced.
- javadoc's summary tables (``div.summary-table.three-column-summary``, a grid of ``div`` cells,
  ``div.table-header`` the header's) are tables too, a row every N cells.
- every ``tr`` is a ``table_header`` or ``table_row`` block, ``"| cell | cell |"`` (a cell that
  spans rows is repeated in each row it covers, at its column, one that spans columns in each
  column it covers: ``html_parts.fill_colspans``; a ``|`` in a cell is written
  ``\\|``, as Markdown does, so the row keeps its columns); leading
  header rows (in ``thead``, or only ``th`` cells; in a table without either, a first row whose
  cells are all bold) end with a ``"| --- |"`` separator line. A table's title (its ``caption``;
  DocBook's ``div.table > p.title``, ``html_rules.table_title``) is its first ``table_header``
  block, as written ("Table 9.9. SQL String Functions and Operators"): the chunker repeats header
  rows in every passage of a table, and a title written as a paragraph before the table ended the
  text passage before it. A title whose box holds no data table stays a paragraph.
  A layout table (``html_layout.TableShape.layout``: a single row, a one-cell box around a
  ``pre``, cells holding code or lists without a header, an admonition's frame) is not a table:
  the parser reads its cells as the blocks they hold (a ``pre`` stays a code block). In a data
  table, a table inside a cell, or anything else inside a cell, is flattened into the cell's text.
- a Sphinx object description (``dl.py.function``, ``dl.c.macro``, ...: see
  ``html_rules.api_entry``) has a section per entry, whatever its length, titled by the name in
  its signature (``functools.lru_cache``: the ``sig-prename`` and ``sig-name`` parts, without a
  decorator's ``@``), nested under the entry around it (a method under its class); the heading
  block is the whole signature. Further ``dt`` of the same entry (overloads) are paragraphs of
  its section and add their ids to its anchors. An entry with nothing under its signature (no text,
  no entry inside) is a paragraph of the section around it, its id kept.
- an admonition (``html_rules.admonition``: Sphinx's ``div.admonition``, DocBook's ``div.note``,
  ``aside``, ``role="note"``, ...) is one ``paragraph`` block of the section it sits in, its
  label first (``"Note: ..."``; inside a list item a line of the item, ``"  Note: ..."``, task U18): its headings
  (DocBook's ``h3.title``) and terms open no section.
  docutils' ``aside.footnote-list`` is none, each ``aside.footnote`` in it is: ``"[2] This is why ..."``;
  so is a citation (``div.citation``), and docutils 0.17's ``dl.footnote`` terms label their text so.
- a docutils field list (``dl.field-list``: ``Author:``, ``Parameters:``) opens no section: a field's
  name is its value's label (``"Returns: the sum"``, also in a list item's line), or a line before a list.
- all other text is a ``paragraph``. Inline tags (``INLINE_TAGS``: the dev set's reference
  extractor's and HTML's other phrasing elements such as ``acronym``) do not break text; every
  other tag does. ``<br>`` is a line break in a paragraph or list item (the item's next line
  indented under its marker), a space in a heading or table cell, a newline inside ``pre``;
  ``</br>`` is read as ``<br>``. Whitespace is collapsed outside ``pre``.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.fences import fenced
from clew.corpus.ingest.formats.html_parts import (
    _Admonition,
    _Container,
    _DList,
    _Item,
    _List,
    _Row,
    _Table,
    bold_header,
    drop_empty_columns,
    end_sentence,
    fill_colspans,
    fill_rowspans,
    link_target,
)
from clew.corpus.ingest.formats.html_rules import (
    _SKIPPED_LINKS,
    Marker,
    Piece,
    Placed,
    _attr,
    collapse,
    verbatim,
)
from clew.corpus.ingest.formats.html_signatures import signature_name, without_permalink
from clew.corpus.ingest.formats.html_terms import TERM, TermSections
from clew.corpus.ingest.formats.text import root_section
from clew.corpus.ingest.parsed import Block, BlockKind, Link, ParsedDocument, Section, Table

_ITEM_MARK = re.compile(r"- |\d+\. ")
"""How a list item's first line starts after its indentation (``_List.marker``: "- " or "N. ")."""

FOOTNOTE_LABEL_CHARS = 12
"""A footnote's text before its first block is its label when it is at most this long (``[1]``, ``[*]``)."""


class BlockWriter(TermSections):
    """The document rendered so far, and the open sections, lists and tables its next block joins."""

    def __init__(self) -> None:
        self._container: _Container | None = None
        self._run: list[Piece] = []  # text and markers of the paragraph or list item being read
        self._tables: list[_Table] = []
        self._items: list[_Item] = []
        self._lists: list[_List] = []  # the open ul and ol, innermost last
        self._list_group = 0  # changes whenever the outermost list closes
        self._pending: list[Marker] = []  # markers waiting for the next block
        self._power = False  # a sup after a number opened: its text may be a power (``_exponent``)
        self._parts: list[str] = []
        self._length = 0
        self._previous: tuple[str, int] | None = None  # what joins the next block with "\n"
        self._open: list[tuple[int, int, bool]] = [(0, 0, False)]  # open sections: index, level, hidden <h>
        self._dlists: list[_DList] = []  # the open definition lists, innermost last
        self._admonitions: list[_Admonition] = []  # the open admonitions, innermost last
        self._label: tuple[str, Placed] | None = None  # an admonition's label, waiting for its first block
        self._field_label = False  # that label is a field list's name
        self._caption: tuple[str, Placed] | None = None  # a table's title read before it, waiting for the table
        self._terms: set[int] = set()  # sections opened by a dt
        self._defined: dict[int, Block] = {}  # term headings a dd followed (by id; held, so no id is reused)
        self._first_h1: str | None = None
        self._bare: tuple[int, str | None] | None = None  # a heading, a dropped TOC after it (_contents_dropped)
        self.blocks: list[Block] = []
        self.sections: list[Section] = [root_section()]
        self.tables: list[Table] = []
        self.links: list[Link] = []
        self.anchors: dict[str, int] = {}

    def _end_dlist(self, dlist: _DList) -> None:
        """A definition list has closed: the sections of its terms end with it."""
        for index, _, _ in self._open[dlist.depth:]:
            if self.sections[index].end is None:
                self.sections[index].end = self._length
        del self._open[max(dlist.depth, 1):]
        if dlist in self._dlists:
            self._dlists.remove(dlist)
        if dlist.fields or dlist.notes:
            self.end_label()
        if dlist.api:
            self._empty_entry_is_text(dlist)
        elif not self._small_list_is_text(dlist):
            self._empty_terms_are_text(dlist)

    def end_part(self, opened: tuple[int, list[tuple[int, int, bool]]]) -> None:
        """A part whose headings end with it (``html_rules.CLOSED_PART_CLASSES``) has closed: the sections
        it opened end here, and those open when it began (``opened``: the count, the open ones) are again."""
        count, before = opened
        for section in self.sections[count:]:
            if section.end is None:
                section.end = self._length
        self._open = before

    def end_label(self) -> None:
        """A label no block took (an admonition's or a field's with nothing after it) is a paragraph."""
        if self._label is not None:
            label, placed = self._label
            self._label = None
            self._emit("paragraph", label, placed)

    def _end_admonition(self, admonition: _Admonition) -> None:
        """An admonition has closed: what it holds becomes one paragraph, its label first."""
        self.end_label()
        if admonition in self._admonitions:
            self._admonitions.remove(admonition)
        if self._admonitions:
            return  # the outermost one merges
        inner = self.blocks[admonition.blocks:]
        if inner:  # inside a list item, lines of the item (its label on the first, ``_emit``): it stays in the list
            line = bool(self._items) and all(block.kind == "list_item" for block in inner)
            del self.blocks[admonition.blocks:]
            kind: BlockKind = "list_item" if line else "paragraph"
            self.blocks.append(Block(inner[0].start, inner[-1].end, kind, inner[0].section))
            del self.tables[admonition.tables:]
            self._previous = self._previous if line else None

    def _add(self, piece: Piece) -> None:
        if self._power and isinstance(piece, str):
            self._power = False  # the text of a sup after a number (``_exponent``)
            if piece[:1].isalnum() or piece[:1] == "-":
                self._add("^")
        container = self._container
        if container is not None:
            if container.kind == "cell" and container.broken and isinstance(piece, str) and piece.strip():
                container.broken = False
                end_sentence(container.pieces)
            container.pieces.append(piece)
            if container.kind == "cell" and isinstance(piece, str) and piece.strip():
                if container.bold:
                    container.bold_text = True
                else:
                    container.plain_text = True
        else:
            self._run.append(piece)

    def _markers(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and self._line_link(attrs):
            return
        for key, value in attrs:
            if value is None or not value.strip():
                continue
            if key == "id" or (key == "name" and tag == "a"):
                self._add(("anchor", value.strip()))
            elif key == "href" and tag == "a" and not value.strip().lower().startswith(_SKIPPED_LINKS):
                if not self._own_heading(value):
                    self._add(("link", link_target(value)))

    def _own_heading(self, href: str) -> bool:
        """A heading's link to its own id: mdBook wraps every heading's text in one (``<h2 id="lto"><a
        class="header" href="#lto">lto</a></h2>``), as VuePress 2 does in ``a.header-anchor``. It leads
        nowhere: in The rustc book 775 of 1,160 link edges were a passage's to itself (task E8)."""
        container = self._container
        return (container is not None and container.kind == "heading" and container.anchor is not None
                and href.strip() == "#" + container.anchor.strip())

    def _line_link(self, attrs: list[tuple[str, str | None]]) -> bool:
        """Pandoc's code line: ``<span id="cb3-2"><a href="#cb3-2" aria-hidden="true"></a>`` in a
        ``pre``, a link to its own line for a browser's address bar. Neither the link nor the line's
        id is the page's: every line of every example was an anchor and a link to itself."""
        container = self._container
        href = (_attr(attrs, "href") or "").strip()
        if container is None or container.kind != "pre" or not href.startswith("#"):
            return False
        if (_attr(attrs, "aria-hidden") or "").strip().lower() != "true":
            return False
        pieces = container.pieces
        if pieces and pieces[-1] == ("anchor", href[1:]):
            pieces.pop()
        return True

    def _icon_label(self, attrs: list[tuple[str, str | None]]) -> None:
        """Asciidoctor's admonition with ``:icons: font`` names its kind only in the icon's title
        (``td.icon > i.fa.icon-note[title=Note]``): that title is the admonition's label."""
        inside = self._admonitions[-1]
        title = (_attr(attrs, "title") or "").strip()
        classes = (_attr(attrs, "class") or "").split()
        if title and not inside.labelled and len(self.blocks) == inside.blocks and any(
                c.startswith("icon-") for c in classes):
            inside.labelled = True
            self._pending.extend(self._flush())
            self._label = (title, [])

    def _exponent(self) -> None:
        """A ``sup`` right after a digit or ``)`` whose text opens with a letter, digit or ``-`` is a power:
        ``2<sup>31</sup>-1`` reads ``2^31-1``, not ``231-1`` (SQLite's limits, PostgreSQL's, the Rust book's
        ``2<sup>n - 1</sup>``). After a word a ``sup`` is a footnote's mark (``operator<sup>1</sup>``), and
        ``)<sup>?</sup>`` a grammar's repetition (the Rust reference): both are left as they are."""
        container = self._container
        pieces = container.pieces if container is not None else self._run
        last = next((piece for piece in reversed(pieces) if isinstance(piece, str) and piece), "")
        self._power = last[-1:].isdigit() or last.endswith(")")

    def _boundary(self) -> None:
        """A tag that is not inline: ends the paragraph being read (a space inside a heading; inside a
        cell a space, and a sentence end should text follow: ``html_parts.end_sentence``; a line break
        inside ``pre`` unless its text is at a line's start already: ``<pre>x<dt>y``)."""
        container = self._container
        if container is not None:
            if container.kind == "cell" and (container.bold_text or container.plain_text):
                container.broken = True  # text after this block gets a sentence end before it
            if container.kind != "pre":
                container.pieces.append(" ")
            elif not _at_line_start(container.pieces):
                container.pieces.append("\n")
        elif self._run and not self._footnote_label():
            self._route(self._flush())

    def _footnote_label(self) -> bool:
        """The run read so far is a footnote's label (``[1]``, before its first block): that block's label."""
        inside = self._admonitions[-1] if self._admonitions else None
        if inside is None or not inside.footnote or len(self.blocks) != inside.blocks or self._label is not None:
            return False
        text, placed, waiting = collapse(self._run)
        if not text or len(text) > FOOTNOTE_LABEL_CHARS or "\n" in text:
            return False
        self._run = []
        self._label, self._field_label = (text, placed), False
        self._route(waiting)
        return True

    def _route(self, markers: list[Marker]) -> None:
        """Markers with no text after them: for the next cell inside a table, else the next block."""
        if markers:
            (self._tables[-1].pending if self._tables else self._pending).extend(markers)

    def _flush(self) -> list[Marker]:
        """Emit the run read so far as a paragraph or list item; return its markers left waiting."""
        if not self._run:
            return []
        text, placed, waiting = collapse(self._run)
        self._run = []
        if text:
            if self._items:
                item = self._items[-1]
                prefix = "  " * (item.depth - 1) + (" " * len(item.marker) if item.marked else item.marker)
                item.marked = True
                if "\n" in text:  # lines after a <br> are indented under the item's marker
                    text, placed = _indent_lines(text, placed, " " * len(prefix))
                self._emit("list_item", prefix + text, [(marker, at + len(prefix)) for marker, at in placed])
            else:
                self._emit("paragraph", text, placed)
        return waiting

    def _close_container(self, container: _Container) -> None:
        self._container = None
        table = container.table
        if container.kind == "caption":
            text, placed, waiting = collapse(container.pieces)
            if text and table is not None:  # a caption: its table's
                table.title = (text, placed)
            elif text:  # DocBook's p.title: the next table's (html_rules.table_title)
                self._end_caption()  # one no table took yet (a box inside a box) stays text
                self._caption = (text, placed)
            self._route(waiting)
        elif table is not None:  # a cell
            if table.row is None:
                table.row = _Row([], table.thead)
            table.row.cells.append(container)
        elif container.kind == "pre":
            text, placed, waiting = verbatim(container.pieces)
            if text:
                text, at = fenced(text, container.language)
                placed = [(marker, at + offset if offset else 0) for marker, offset in placed]  # an id: the fence
                self._emit("code", text, placed, indivisible=True)
            self._route(waiting)
        elif container.kind == "label":
            text, placed, waiting = collapse(container.pieces)
            if container.note and text and not text.startswith("["):
                text, placed = f"[{text}]", [(marker, at + 1) for marker, at in placed]
            if text:
                self.end_label()  # an admonition's label that opens with another (MkDocs' nested ???): its own
                self._label = (text, placed)
                self._field_label = container.field
            self._route(waiting)
        else:
            self._emit_heading(container)

    def _emit_heading(self, heading: _Container) -> None:
        name = signature_name(heading.pieces) if heading.api else ""
        text, placed, waiting = collapse(without_permalink(heading))
        if not text:
            self._route(waiting)
            return
        dlist = self._dlists[-1] if heading.api and self._dlists else None
        overload = dlist is not None and dlist.entry is not None
        level = 0 if overload else self._heading_level(heading.level)
        if not overload:
            self.end_bare_heading(level)
        names = [heading.anchor] if heading.anchor else []
        for kind, anchor in [*self._pending, *(marker for marker, _ in placed)]:
            if kind == "anchor" and anchor not in names:
                names.append(anchor)
        if dlist is not None and dlist.entry is not None:  # an overload: text of the entry's section
            entry = self.sections[dlist.entry]
            entry.anchors.extend(anchor for anchor in names if anchor not in entry.anchors)
            self._emit("paragraph", text, placed)
            self._route(waiting)
            return
        while self._open[-1][1] >= level:
            self._open.pop()
        index = len(self.sections)
        section = Section(heading=name or text, level=level, parent=self._open[-1][0], start=0, anchors=names)
        self.sections.append(section)
        self._open.append((index, level, heading.level in (0, TERM)))
        if dlist is not None:
            dlist.entry = index
        elif heading.level == TERM:
            self._terms.add(index)
        prefix = "" if heading.level == TERM else "#" * level + " "
        section.start = self._emit("heading", prefix + text, [(m, at + len(prefix)) for m, at in placed])
        if heading.level == 1 and self._first_h1 is None:
            self._first_h1 = text
        self._route(waiting)

    def _heading_level(self, level: int) -> int:
        """The level of the section a heading of ``level`` opens (``_Container.level``)."""
        if not level:  # hidden <h>: one level below the enclosing h1..h6
            return min(6, next(lvl for _, lvl, hidden in reversed(self._open) if not hidden) + 1)
        if level == TERM:  # one level below the section around its list
            base = min(self._dlists[-1].depth, len(self._open)) if self._dlists else len(self._open)
            return self._open[max(base, 1) - 1][1] + 1
        return level

    def _contents_dropped(self) -> None:
        """A table of contents into the page was dropped (``html_rules.page_toc``): should the last block be a
        heading with nothing after it yet, its section may be left without text (:meth:`end_bare_heading`)."""
        last = self.blocks[-1] if self.blocks else None
        index = len(self.sections) - 1
        if (self._container is None and last is not None and last.kind == "heading" and last.end == self._length
                and last.start == self.sections[index].start and index not in self._terms
                and not any(isinstance(p, str) and p.strip() for p in self._run)):
            self._bare = (index, self._first_h1)

    def end_bare_heading(self, level: int) -> None:
        """A heading of ``level`` starts (0: the page ends). A section whose heading is still the last block,
        with only a table of contents dropped after it (:meth:`_contents_dropped`), ends here without text
        or subsections where ``level`` is its own or above: its heading is taken out, as Sphinx's and
        Texinfo's "Contents" go with their table of contents, which holds them. HeVeA, LaTeX2HTML and TeX4ht
        write the heading before the list or ``div`` (task R5). Its anchors go to the next block; links in
        it go with it. A heading whose text is only other chrome stays (YARD's undocumented method, whose
        source listing is dropped; TypeDoc's "Returns Budget")."""
        if self._bare is None:
            return
        (index, first_h1), self._bare = self._bare, None
        last = self.blocks[-1]
        if (index != len(self.sections) - 1 or last.start != self.sections[index].start or last.end != self._length
                or level > self.sections[index].level):
            return
        del self.blocks[-1]
        del self.sections[index]
        self._open = [entry for entry in self._open if entry[0] != index]
        self._first_h1 = first_h1
        self._length -= len(self._parts.pop())
        self._previous = None
        moved = [name for name, at in self.anchors.items() if at >= last.start]
        for name in moved:
            del self.anchors[name]
        self._pending[:0] = [("anchor", name) for name in moved]
        self.links = [link for link in self.links if link.start < last.start]

    def _end_row(self, table: _Table) -> None:
        if table.row is not None and table.row.cells:
            table.rows.append(table.row)
        table.row = None

    def _end_caption(self) -> None:
        """A table's title that no table took (a box around something else): a paragraph."""
        if self._caption is not None:
            caption, self._caption = self._caption, None
            self._emit("paragraph", *caption)

    def _emit_table(self, table: _Table) -> None:
        self._end_row(table)
        fill_rowspans(table.rows)
        fill_colspans(table.rows)
        drop_empty_columns(table.rows)
        carry: list[Marker] = []
        rows: list[tuple[str, Placed, bool, int]] = []  # text, markers, header, columns
        cells: list[tuple[str, Placed]] = []  # the one row's cells, should the table have a single row
        for row in table.rows:
            texts: list[str] = []
            placed: Placed = []
            at = 2
            for cell in row.cells:
                text, cell_placed, carry = collapse([*carry, *cell.pieces])
                cells.append((text, cell_placed))
                text, cell_placed = _escape_pipes(text, cell_placed)
                placed.extend((marker, at + offset) for marker, offset in cell_placed)
                texts.append(text)
                at += len(text) + 3
            if any(texts):
                header = row.thead or all(cell.header for cell in row.cells) or (
                    not rows and len(table.rows) > 1 and bold_header(row, table))
                rows.append(("| " + " | ".join(texts) + " |", placed, header, sum(c.span for c in row.cells)))
            else:
                cells = cells[: len(cells) - len(row.cells)]
        if len(rows) <= 1 and table.title is not None:
            self._emit("paragraph", *table.title)
        if len(rows) == 1 and sum(1 for text, _ in cells if text) < 2:  # one text cell after all: text
            for text, placed in cells:
                if text:
                    self._emit("paragraph", text, placed)
        elif rows:
            headers = 0
            while headers < len(rows) and rows[headers][2]:
                headers += 1
            index = len(self.tables)
            self.tables.append(Table(section=self._open[-1][0], title=None if table.title is None else table.title[0]))
            if table.title is not None:  # the title first, a header row of its own: each passage repeats it
                self._emit("table_header", *table.title, table=index)
            for position, (text, placed, _, _) in enumerate(rows):
                if position == headers - 1:
                    columns = max(row[3] for row in rows[:headers])
                    text += "\n|" + " --- |" * columns
                kind: BlockKind = "table_header" if position < headers else "table_row"
                self._emit(kind, text, placed, table=index)
        self._route([*carry, *table.pending])

    def _emit(
        self, kind: BlockKind, text: str, placed: Placed, *, table: int | None = None, indivisible: bool = False
    ) -> int:
        """Append one block to the text; place the markers waiting for it; return its start."""
        if self._caption is not None:
            self._end_caption()  # a table's title followed by something else
        if self._label is not None:  # an admonition's or a field's label goes before its first paragraph
            label, label_placed = self._label
            self._label = None
            # a field's value or an admonition inside a list item is the item's text after a nested block, indented
            indent = len(text) - len(text.lstrip(" ")) if kind == "list_item" else 0
            if indent and not self._field_label and _ITEM_MARK.match(text, indent):
                indent = 0  # an admonition opening with a nested list: its label a line above it
            if kind != "paragraph" and not indent:  # a field's name a line over its list: "Parameters:" (Sphinx 4's
                colon = ":" if self._field_label and label[-1] not in ":.!?]" else ""  # style sheet adds the colon)
                self._emit("paragraph", label + colon, label_placed)
            else:
                prefix = text[:indent] + label + (" " if label[-1] in ":.!?]" else ": ")
                text = prefix + text[indent:]
                placed = [*((marker, at + indent) for marker, at in label_placed),
                          *((marker, at + len(prefix) - indent) for marker, at in placed)]
        joined = ("list", self._list_group) if kind == "list_item" else ("table", table) if table is not None else None
        separator = "" if not self.blocks else "\n" if joined is not None and joined == self._previous else "\n\n"
        self._previous = joined
        start = self._length + len(separator)
        self._parts.append(separator + text)
        self._length = start + len(text)
        for marker in self._pending:
            self._record(marker, start)
        self._pending = []
        for marker, at in placed:
            self._record(marker, start + at)
        self.blocks.append(Block(start, self._length, kind, self._open[-1][0], table, indivisible))
        return start

    def _record(self, marker: Marker, at: int) -> None:
        kind, value = marker
        if kind == "anchor":
            self.anchors.setdefault(value, at)
        else:
            self.links.append(Link(start=at, href=value))

    def _rendered(self, title: str | None, repairs: list[str]) -> ParsedDocument:
        """The document, once the parser has closed every element."""
        self.sections[0].heading = title or ""
        self.links.sort(key=lambda link: link.start)
        return ParsedDocument(
            text="".join(self._parts),
            blocks=self.blocks,
            sections=self.sections,
            tables=self.tables,
            links=self.links,
            anchors=self.anchors,
            title=title,
            fields={"title": title} if title else {},
            repairs=repairs,
        )


def _escape_pipes(text: str, placed: Placed) -> tuple[str, Placed]:
    """A cell's text as a pipe-table row holds it: a ``|`` in it written ``\\|``, as Markdown does, so
    that it does not end the cell (Bootstrap's option types, ``string | element | false``, shifted
    every later cell of their row), its markers moved with the text they precede."""
    if "|" not in text:
        return text, placed
    bars = [at for at, char in enumerate(text) if char == "|"]
    return text.replace("|", "\\|"), [(marker, at + sum(1 for bar in bars if bar < at)) for marker, at in placed]


def _at_line_start(pieces: list[Piece]) -> bool:
    """Whether the text read so far (markers aside) is empty or ends a line."""
    last = next((piece for piece in reversed(pieces) if isinstance(piece, str) and piece), "")
    return last == "" or last.endswith("\n")


def _indent_lines(text: str, placed: Placed, indent: str) -> tuple[str, Placed]:
    """``text`` with ``indent`` after each newline, and its markers moved with the text they precede."""
    breaks = [at for at, char in enumerate(text) if char == "\n"]
    moved = [(marker, at + len(indent) * sum(1 for line in breaks if line < at)) for marker, at in placed]
    return text.replace("\n", "\n" + indent), moved
