"""HTML: a Markdown-like rendering built with the standard library's ``html.parser``.

The document text is rendered, not the source: blocks are separated by a blank line, except
consecutive list items of one list and consecutive rows of one table (a single newline).

- ``h1``..``h6`` are ``heading`` blocks, ``"#" * level + " " + text``; each opens a section.
  The hidden ``<h>`` headings of the SQLite pragma page (one per pragma) are headings one
  level below the enclosing ``h1``..``h6``.
- ``dt`` (a definition-list term) is a ``heading`` block, its text without ``#``, that opens a
  section one level below the section around its list; its ``dd`` text is that section's,
  and the terms' sections end with their ``dl``. So every term with its definition is a unit
  of its own (a node the tree tools reach; an ``id`` on the ``dt`` names it). A list with less
  than ``TERM_UNITS_CHARS`` of text is left as paragraphs of the section around it.
- ``li`` is a ``list_item``, ``"- " + text``, indented two spaces per nesting level; text of
  the same item after a nested block is a further ``list_item`` indented under the marker.
- ``pre`` is an indivisible ``code`` block, kept verbatim.
- every ``tr`` is a ``table_header`` or ``table_row`` block, ``"| cell | cell |"``; leading
  header rows (in ``thead``, or only ``th`` cells) end with a ``"| --- |"`` separator line.
  A table of a single row (a one-cell box, an admonition's icon and text) is not a table:
  each of its cells is a ``paragraph``.
  A table inside a cell, or anything else inside a cell, is flattened into the cell's text.
- all other text is a ``paragraph``. Inline tags (``INLINE_TAGS``, the same set as the
  dev set's reference extractor) do not break text; every other tag does; ``<br>`` is a
  space (a newline inside ``pre``). Whitespace is collapsed outside ``pre``.

Dropped with everything inside (text, links, anchors): ``DROP_TAGS``, ``script``, ``style``,
``svg``, ``math``, ``head`` (its ``title`` is kept as the title), and any element whose class
list holds ``nosearch`` or ``menu``. ``button`` is dropped too: in the SQLite pages it only
holds the "hide"/"show" toggles of the syntax diagrams. The SQLite pages' table of contents
(``div.fancy_toc``) sits inside ``div.nosearch`` with the page's banner title and is dropped
with it: it only repeats the page's own headings as same-page links, which the sections
already carry (with their anchors).

Unclosed ``li``, ``p``, ``dt``/``dd``, ``td``/``th`` and ``tr`` are closed the way the HTML
parsing algorithm closes them, with a small stack of open elements; malformed input never
raises.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from clew.corpus.formats.html_rules import (
    DROP_TAGS,
    INLINE_TAGS,
    Marker,
    Piece,
    Placed,
    _BREAKS_SVG,
    _BUTTON_SCOPE,
    _CLOSES_P,
    _ENDS_HEADING,
    _HEADINGS,
    _HEAD_CONTENT,
    _LEVELS,
    _LIST_ITEM_SCOPE,
    _LIST_SCOPE,
    _ROW_PARENTS,
    _SCOPE,
    _SKIPPED,
    _SKIPPED_LINKS,
    _SPECIAL,
    _TABLE_SCOPE,
    _VOID,
    _attr,
    _dropped_class,
    collapse,
    verbatim,
)
from clew.corpus.formats.text import normalize_newlines, root_section
from clew.corpus.parsed import Block, BlockKind, Link, ParsedDocument, Section, Table



def parse_html(source: str) -> ParsedDocument:
    """Render an HTML page into blocks, sections, tables, links and anchors (never raises on bad markup)."""
    builder = _Builder()
    builder.feed(normalize_newlines(source))
    builder.close()
    return builder.document()


MAX_DEPTH = 512
"""Open elements at most: a deeper element is flattened into the one around it (text, links and
anchors kept) and the document reports a repair. Without a bound, 100,000 nested ``<div>`` cost
time quadratic in the depth."""
TERM = -1
"""The level a ``dt`` container is opened with (its section's level is set when it closes)."""
TERM_UNITS_CHARS = 6000
"""A definition list with at least this much text has a unit per term; a shorter one (a few
modes of a pragma, the five conflict algorithms) reads better as the text of its section:
measured on the SQLite dev set, per-term units there lost two evidence phrases."""


@dataclass(slots=True, eq=False)
class _DList:
    depth: int  # sections open at its start
    sections: int  # len(sections) at its start
    blocks: int
    length: int


@dataclass(slots=True, eq=False)
class _Entry:
    """One open element; ``role`` says what closing it does (see ``_Builder._close``)."""

    tag: str
    role: str = ""
    obj: Any = None
    """By role: the ``_Container`` (container), ``_Table`` (table, row, thead) or ``_Item`` (item)."""


@dataclass(slots=True, eq=False)
class _Container:
    """An element whose whole content is one block (heading, pre) or one table cell."""

    kind: str  # "heading", "pre" or "cell"
    pieces: list[Piece] = field(default_factory=list)
    level: int = 0  # headings: 1..6, 0 for the hidden <h>
    anchor: str | None = None  # headings: their own id
    header: bool = False  # cells: th
    span: int = 1  # cells: colspan
    table: _Table | None = None  # cells: the table they belong to


@dataclass(slots=True, eq=False)
class _Row:
    cells: list[_Container]
    thead: bool


@dataclass(slots=True, eq=False)
class _Table:
    rows: list[_Row] = field(default_factory=list)
    row: _Row | None = None
    thead: bool = False
    pending: list[Marker] = field(default_factory=list)
    """Markers seen in the table outside any cell: they go to the next cell."""


@dataclass(slots=True, eq=False)
class _Item:
    depth: int
    marked: bool = False  # its "- " has been written


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self._stack: list[_Entry] = []
        self._open_tags: Counter[str] = Counter()  # tag -> how many of the stack's entries have it
        self._flattened: Counter[str] = Counter()  # tag -> elements opened past MAX_DEPTH, not yet closed
        self.flattened = 0
        """Elements not opened because ``MAX_DEPTH`` elements were open (see ``document``)."""
        self._skip_tag: str | None = None
        self._skip_depth = 0
        self._drop = 0  # dropped elements open
        self._head: _Entry | None = None
        self._title_parts: list[str] | None = None
        self._title: str | None = None
        self._first_h1: str | None = None
        self._container: _Container | None = None
        self._run: list[Piece] = []  # text and markers of the paragraph or list item being read
        self._tables: list[_Table] = []
        self._items: list[_Item] = []
        self._list_depth = 0
        self._list_group = 0  # changes whenever the outermost list closes
        self._pending: list[Marker] = []  # markers waiting for the next block
        self._parts: list[str] = []
        self._length = 0
        self._previous: tuple[str, int] | None = None  # what joins the next block with "\n"
        self._open: list[tuple[int, int, bool]] = [(0, 0, False)]  # open sections: index, level, hidden <h>
        self._lists_open: list[int] = []  # for each open dl: how many sections were open at its start
        self._terms: set[int] = set()  # sections opened by a dt
        self.blocks: list[Block] = []
        self.sections: list[Section] = [root_section()]
        self.tables: list[Table] = []
        self.links: list[Link] = []
        self.anchors: dict[str, int] = {}

    # --- html.parser callbacks ---------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth += 1
            if self._skip_tag in ("script", "style") or tag not in _BREAKS_SVG:
                return
            self._skip_tag = None
        if self._title_parts is not None:
            if tag in INLINE_TAGS:
                return
            self._end_title()
        if tag == "title":
            if self._title is None:
                self._title_parts = []
            return
        if self._head is not None and tag not in _HEAD_CONTENT:
            self._pop_entry(self._head)  # content without </head> or <body>: the head has ended
        if tag in INLINE_TAGS:
            if (self._drop or _dropped_class(attrs)) and self._too_deep(tag, attrs):
                return
            if self._drop:
                self._push(_Entry(tag))
            elif _dropped_class(attrs):
                self._push_dropped(tag)
            else:
                self._markers(tag, attrs)
            return
        if tag == "br" or tag == "wbr":
            if tag == "br" and not self._drop:
                self._add(" " if self._container is None or self._container.kind != "pre" else "\n")
            return
        if tag in ("html", "body"):
            if not self._drop:
                self._markers(tag, attrs)
            return
        self._boundary()
        if tag in _SKIPPED:
            self._skip_tag, self._skip_depth = tag, 1
            return
        if tag in _VOID:
            if not self._drop:
                self._markers(tag, attrs)
            return
        self._close_implied(tag)
        if self._too_deep(tag, attrs):
            return
        if self._drop:
            self._push(_Entry(tag))
        elif tag in DROP_TAGS or _dropped_class(attrs):
            entry = self._push_dropped(tag)
            if tag == "head":
                self._head = entry
        else:
            self._markers(tag, attrs)
            self._push(self._open_element(tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skip_tag is not None:
            return  # <path/> and friends inside svg
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skip_tag is not None:
            if tag == self._skip_tag:
                self._skip_depth -= 1
                if self._skip_depth == 0:
                    self._skip_tag = None
            return
        if tag == "title":
            if self._title_parts is not None:
                self._end_title()
            return
        if self._flattened[tag]:  # the end of an element opened below MAX_DEPTH
            self._flattened[tag] -= 1
            if tag not in INLINE_TAGS:
                self._boundary()
            return
        if tag in INLINE_TAGS:
            if self._drop:
                self._close_named(tag)
            return
        if tag in _VOID or tag in ("html", "body"):
            return
        self._boundary()
        self._close_named(tag)

    def handle_data(self, data: str) -> None:
        if self._skip_tag is not None:
            return
        if self._title_parts is not None:
            self._title_parts.append(data)
        elif not self._drop:
            self._add(data)

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """``<![...]>``: the standard parser raises on unknown keywords; skip those like HTML does."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:  # a bogus comment in HTML: it ends at the next ">"
            end = self.rawdata.find(">", i + 3)
            return -1 if end < 0 else end + 1

    def close(self) -> None:
        super().close()
        self._skip_tag = None
        if self._title_parts is not None:
            self._end_title()
        self._boundary()
        self._pop_to(0)
        self._route(self._flush())
        for marker in self._pending:
            self._record(marker, self._length)
        self._pending = []

    def document(self) -> ParsedDocument:
        title = self._title or self._first_h1
        self.sections[0].heading = title or ""
        self.links.sort(key=lambda link: link.start)
        repairs = [] if not self.flattened else [
            f"HTML nested deeper than {MAX_DEPTH} elements: {self.flattened} element(s) below that depth were "
            "flattened into the element around them (their text, links and anchors are kept)"]
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

    # --- the stack of open elements ------------------------------------------------------

    def _push_dropped(self, tag: str) -> _Entry:
        entry = _Entry(tag, "drop")
        self._drop += 1
        self._push(entry)
        return entry

    def _push(self, entry: _Entry) -> None:
        self._stack.append(entry)
        self._open_tags[entry.tag] += 1

    def _too_deep(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        """At ``MAX_DEPTH`` open elements, an element is not opened: its content (and its anchors
        and links) joins the element around it, and its end tag is matched by name."""
        if len(self._stack) < MAX_DEPTH:
            return False
        self._flattened[tag] += 1
        self.flattened += 1
        if not self._drop:
            self._markers(tag, attrs)
        return True

    def _open_element(self, tag: str, attrs: list[tuple[str, str | None]]) -> _Entry:
        """The entry for a kept element, starting whatever block structure it begins."""
        if self._container is not None:
            return _Entry(tag)  # flattened into the heading, pre or cell being read
        if tag in _HEADINGS:
            self._pending.extend(self._flush())
            heading = _Container("heading", level=_LEVELS.get(tag, 0), anchor=_attr(attrs, "id"))
            return self._enter(tag, heading)
        if tag == "pre":
            self._pending.extend(self._flush())
            return self._enter(tag, _Container("pre"))
        if tag == "dt":  # a definition-list term: a unit of its own, under the section around its list
            self._pending.extend(self._flush())
            return self._enter(tag, _Container("heading", level=TERM, anchor=_attr(attrs, "id")))
        if tag == "dl":
            self._lists_open.append(len(self._open))
            return _Entry(tag, "dlist", _DList(len(self._open), len(self.sections), len(self.blocks), self._length))
        if self._tables:
            table = self._tables[-1]
            if tag in ("td", "th"):
                span = _attr(attrs, "colspan")
                cell = _Container("cell", header=tag == "th", table=table)
                cell.span = int(span) if span is not None and span.isdecimal() and 0 < int(span) < 1000 else 1
                cell.pieces = [*table.pending, *self._flush()]
                table.pending = []
                return self._enter(tag, cell)
            if tag == "tr":
                self._end_row(table)
                table.row = _Row([], table.thead)
                return _Entry(tag, "row", table)
            if tag in ("thead", "tbody", "tfoot"):
                table.thead = tag == "thead"
                return _Entry(tag, "thead" if tag == "thead" else "", table)
        if tag == "table":
            table = _Table()
            self._tables.append(table)
            return _Entry(tag, "table", table)
        if tag in ("ul", "ol"):
            self._list_depth += 1
            return _Entry(tag, "list")
        if tag == "li":
            item = _Item(max(1, self._list_depth))
            self._items.append(item)
            return _Entry(tag, "item", item)
        return _Entry(tag)

    def _enter(self, tag: str, container: _Container) -> _Entry:
        self._container = container
        return _Entry(tag, "container", container)

    def _close(self, entry: _Entry) -> None:
        """Finish what ``entry`` started; called as it leaves the stack."""
        role = entry.role
        if not role:
            return
        if role == "drop":
            self._drop -= 1
            if entry is self._head:
                self._head = None
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
            dlist: _DList = entry.obj
            for index, _, _ in self._open[dlist.depth:]:
                if self.sections[index].end is None:
                    self.sections[index].end = self._length
            del self._open[max(dlist.depth, 1):]
            if dlist.depth in self._lists_open:
                self._lists_open.remove(dlist.depth)
            self._small_list_is_text(dlist)
        elif role == "list":
            self._list_depth -= 1
            if self._list_depth == 0:
                self._list_group += 1
        elif role == "item":
            self._items.remove(entry.obj)
            if not self._items and self._list_depth == 0:
                self._list_group += 1

    def _small_list_is_text(self, dlist: _DList) -> None:
        """A definition list shorter than ``TERM_UNITS_CHARS`` stays text in the section around it."""
        created = range(dlist.sections, len(self.sections))
        if self._length - dlist.length >= TERM_UNITS_CHARS or not all(i in self._terms for i in created):
            return
        around = self._open[-1][0]
        for block in self.blocks[dlist.blocks:]:
            if block.section >= dlist.sections:
                block.section = around
                if block.kind == "heading":
                    block.kind = "paragraph"
        for table in self.tables:
            if table.section >= dlist.sections:
                table.section = around
        self._terms.difference_update(created)
        del self.sections[dlist.sections:]

    def _pop_to(self, index: int) -> None:
        """Close every open element from the top of the stack down to ``index`` (included)."""
        stack = self._stack
        while len(stack) > index:
            entry = stack.pop()
            self._open_tags[entry.tag] -= 1
            self._close(entry)

    def _pop_entry(self, target: object) -> None:
        """Close the open element ``target`` (an entry, or the object an entry holds) and all inside it."""
        for index in range(len(self._stack) - 1, -1, -1):
            entry = self._stack[index]
            if entry is target or entry.obj is target:
                self._pop_to(index)
                return

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
                self._push(self._open_element("tr", []) if not self._drop else _Entry("tr"))
        if tag in _CLOSES_P:
            self._close_within(("p",), _BUTTON_SCOPE)

    def _close_named(self, tag: str) -> None:
        """Handle an end tag: close the nearest open element it names, if it is in scope."""
        if tag in _LEVELS:
            self._close_within(_LEVELS, _SCOPE)
        elif tag == "li":
            self._close_within(("li",), _LIST_SCOPE)
        elif tag == "p":
            self._close_within(("p",), _BUTTON_SCOPE)
        elif tag in ("td", "th", "tr", "thead", "tbody", "tfoot", "table", "caption"):
            self._close_within((tag,), _TABLE_SCOPE - {tag})
        elif tag in _SPECIAL:
            self._close_within((tag,), _SCOPE)
        else:  # any other tag: the nearest one, unless a special element is in the way
            self._close_within((tag,), _SPECIAL)

    def _close_within(
        self, names: Collection[str], barriers: Collection[str], *, inclusive: bool = True
    ) -> str | None:
        """Close the nearest open element in ``names`` (or, not ``inclusive``, only what is inside
        it) unless a barrier comes first; return the tag found."""
        if not any(self._open_tags[name] for name in names):
            return None  # without this, every <div> looked for an open <p> through the whole stack
        stack = self._stack
        for index in range(len(stack) - 1, -1, -1):
            open_tag = stack[index].tag
            if open_tag in names:
                self._pop_to(index if inclusive else index + 1)
                return open_tag
            if open_tag in barriers:
                return None
        return None

    # --- text, markers and blocks --------------------------------------------------------

    def _add(self, piece: Piece) -> None:
        if self._container is not None:
            self._container.pieces.append(piece)
        else:
            self._run.append(piece)

    def _markers(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value is None or not value.strip():
                continue
            if key == "id" or (key == "name" and tag == "a"):
                self._add(("anchor", value.strip()))
            elif key == "href" and tag == "a" and not value.strip().lower().startswith(_SKIPPED_LINKS):
                self._add(("link", value))

    def _end_title(self) -> None:
        title, _, _ = collapse(list(self._title_parts or []))
        self._title_parts = None
        if title:
            self._title = title

    def _boundary(self) -> None:
        """A tag that is not inline: ends the paragraph being read (a space inside a cell or heading)."""
        container = self._container
        if container is not None:
            if container.kind != "pre":
                container.pieces.append(" ")
        elif self._run:
            self._route(self._flush())

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
                prefix = "  " * (item.depth - 1) + ("  " if item.marked else "- ")
                item.marked = True
                self._emit("list_item", prefix + text, [(marker, at + len(prefix)) for marker, at in placed])
            else:
                self._emit("paragraph", text, placed)
        return waiting

    def _close_container(self, container: _Container) -> None:
        self._container = None
        table = container.table
        if table is not None:  # a cell
            if table.row is None:
                table.row = _Row([], table.thead)
            table.row.cells.append(container)
        elif container.kind == "pre":
            text, placed, waiting = verbatim(container.pieces)
            if text:
                self._emit("code", text, placed, indivisible=True)
            self._route(waiting)
        else:
            self._emit_heading(container)

    def _emit_heading(self, heading: _Container) -> None:
        text, placed, waiting = collapse(heading.pieces)
        if not text:
            self._route(waiting)
            return
        level = heading.level
        if not level:  # hidden <h>: one level below the enclosing h1..h6
            level = min(6, next(lvl for _, lvl, hidden in reversed(self._open) if not hidden) + 1)
        elif level == TERM:  # one level below the section around its list
            base = min(self._lists_open[-1], len(self._open)) if self._lists_open else len(self._open)
            level = self._open[max(base, 1) - 1][1] + 1
        while self._open[-1][1] >= level:
            self._open.pop()
        names = [heading.anchor] if heading.anchor else []
        for kind, name in [*self._pending, *(marker for marker, _ in placed)]:
            if kind == "anchor" and name not in names:
                names.append(name)
        index = len(self.sections)
        section = Section(heading=text, level=level, parent=self._open[-1][0], start=0, anchors=names)
        self.sections.append(section)
        self._open.append((index, level, heading.level in (0, TERM)))
        if heading.level == TERM:
            self._terms.add(index)
        prefix = "" if heading.level == TERM else "#" * level + " "
        section.start = self._emit("heading", prefix + text, [(m, at + len(prefix)) for m, at in placed])
        if heading.level == 1 and self._first_h1 is None:
            self._first_h1 = text
        self._route(waiting)

    def _end_row(self, table: _Table) -> None:
        if table.row is not None and table.row.cells:
            table.rows.append(table.row)
        table.row = None

    def _emit_table(self, table: _Table) -> None:
        self._end_row(table)
        carry: list[Marker] = []
        rows: list[tuple[str, Placed, bool, int]] = []  # text, markers, header, columns
        cells: list[tuple[str, Placed]] = []  # the one row's cells, should the table have a single row
        for row in table.rows:
            texts: list[str] = []
            placed: Placed = []
            at = 2
            for cell in row.cells:
                text, cell_placed, carry = collapse([*carry, *cell.pieces])
                placed.extend((marker, at + offset) for marker, offset in cell_placed)
                texts.append(text)
                cells.append((text, cell_placed))
                at += len(text) + 3
            if any(texts):
                header = row.thead or all(cell.header for cell in row.cells)
                rows.append(("| " + " | ".join(texts) + " |", placed, header, sum(c.span for c in row.cells)))
            else:
                cells = cells[: len(cells) - len(row.cells)]
        if len(rows) == 1:  # a layout box (an admonition, a framed note): its cells are text
            for text, placed in cells:
                if text:
                    self._emit("paragraph", text, placed)
        elif rows:
            headers = 0
            while headers < len(rows) and rows[headers][2]:
                headers += 1
            index = len(self.tables)
            self.tables.append(Table(section=self._open[-1][0]))
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
