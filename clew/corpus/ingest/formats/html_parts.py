"""What the HTML renderer holds while it reads (``clew.corpus.ingest.formats.html_blocks``): the open
definition lists, admonitions, containers (a heading, ``pre`` or cell being read), tables, rows,
lists and list items (with their numbers); and what is done to a table's rows before they are
written (a cell that spans rows repeated in each, a bold first row taken as the header)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clew.corpus.ingest.formats.html_rules import Event, Marker, Piece, Placed, _attr
from clew.corpus.ingest.formats.html_stack import Entry


@dataclass(slots=True, eq=False)
class _DList:
    depth: int  # sections open at its start
    sections: int  # len(sections) at its start
    blocks: int
    length: int
    api: bool = False  # a Sphinx object description: a section per entry, whatever its length
    entry: int | None = None  # api: the section its first term opened
    fields: bool = False  # a docutils field list: each term is a label of its definition's first block
    notes: bool = False  # docutils' footnotes before 0.18: each term is a bracketed label, as fields' are


@dataclass(slots=True, eq=False)
class _Admonition:
    blocks: int  # len(blocks) at its start
    tables: int
    labelled: bool = False
    footnote: bool = False  # a docutils footnote: the text before its first block is its label


def quote_admonition(parent: Entry | None, blocks: int) -> _Admonition | None:
    """A heading opens ``parent``, a ``blockquote`` (role ``quote``, its ``obj`` the counts of blocks and tables
    at its start) with no block before it: the quote is a callout, Markdown's ``> ## Note`` as kramdown, goldmark
    and markdown-it write it, and the heading its label, as an admonition's (fastify's docs: "Note", "⚠ Security
    Notice"; task U22). Read as a section, such a heading held every later section of its level or below: "Note"
    held 20 of Getting-Started's 25 passages. The entry becomes the admonition's; None where the heading is not
    the quote's first block."""
    if parent is None or parent.role != "quote" or parent.obj[0] != blocks:
        return None
    _, tables = parent.obj
    held = _Admonition(blocks, tables, labelled=True)
    parent.role, parent.obj = "admonition", held
    return held


@dataclass(slots=True, eq=False)
class _Container:
    """An element whose whole content is one block (heading, pre) or one table cell."""

    kind: str  # "heading", "pre", "cell", "label" (an admonition's or a field's) or "caption" (a table's title)
    pieces: list[Piece] = field(default_factory=list)
    level: int = 0  # headings: 1..6, 0 for the hidden <h>
    anchor: str | None = None  # headings: their own id
    api: bool = False  # a term of a Sphinx object description: pieces hold ("open", part) / ("close", "")
    permalink: int = -1  # headings: where the last same-page link starts in pieces
    header: bool = False  # cells: th
    span: int = 1  # cells: colspan
    rowspan: int = 1  # cells: rowspan
    bold: int = 0  # cells: b/strong elements open
    bold_text: bool = False  # cells: text inside b/strong
    plain_text: bool = False  # cells: text outside b/strong
    broken: bool = False  # cells: a block (p, div, li) ended after text; the next text starts a sentence
    table: _Table | None = None  # cells: the table they belong to
    field: bool = False  # labels: a field list's name (its value's first block takes it)
    note: bool = False  # labels: an old footnote's, written in brackets
    language: str = ""  # pre: the code's language, for its opening fence (``fences``)


def table_cell(table: _Table, *, header: bool, attrs: list[tuple[str, str | None]] | None = None) -> _Container:
    """A cell of ``table``; a ``td``/``th``'s ``attrs`` give its colspan and rowspan (1-999; else 1)."""
    cell = _Container("cell", header=header, table=table)
    if attrs is not None:
        cell.span, cell.rowspan = _span(_attr(attrs, "colspan")), _span(_attr(attrs, "rowspan"))
    return cell


def _span(value: str | None) -> int:
    return int(value) if value is not None and value.isdecimal() and 0 < int(value) < 1000 else 1


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
    columns: int = 0
    """A grid of ``div`` cells (javadoc's ``div.summary-table``): its width; 0 for a ``<table>``."""
    depth: int = 0
    """A grid: the open elements outside it (its cells are the ``div`` one deeper)."""
    title: tuple[str, Placed] | None = None
    """Its title (a ``caption``, DocBook's ``p.title``), written as its first header row."""


_INTEGER = re.compile(r"\s*([+-]?\d{1,9})")
"""An ``ol``'s ``start``, an ``li``'s ``value``: HTML's rules for parsing integers (leading spaces, a sign,
digits; what follows the digits is ignored), nine digits at most."""


def _integer(value: str | None) -> int | None:
    match = _INTEGER.match(value) if value is not None else None
    return int(match.group(1)) if match else None


@dataclass(slots=True, eq=False)
class _List:
    """An open ``ul`` or ``ol``. An ``ol``'s items are numbered as a browser numbers them: from its
    ``start`` (1 by default), an item's ``value`` resetting the count, down by one per item when it is
    ``reversed`` (from its number of items, ``reversed_items``, without a ``start``). ``type="a"``,
    ``"A"``, ``"i"``, ``"I"`` (and Sphinx's ``loweralpha`` classes) stay numeric: "b. " would read as a
    sentence's first word, and the numbers keep the order a question refers to ("step 2")."""

    ordered: bool
    next: int = 1  # the number of its next item
    step: int = 1  # -1 when reversed

    @classmethod
    def open(cls, tag: str, attrs: list[tuple[str, str | None]], items: int | None = None) -> _List:
        """The list a ``ul`` or ``ol`` start tag opens; ``items``: the number of items of a ``reversed``
        one (``reversed_items``)."""
        if tag != "ol":
            return cls(False)
        reversed_ = any(key == "reversed" for key, _ in attrs)
        start = _integer(_attr(attrs, "start"))
        if start is None:
            start = (items or 0) if reversed_ else 1
        return cls(True, start, -1 if reversed_ else 1)

    def marker(self, attrs: list[tuple[str, str | None]]) -> str:
        """The marker of its next item (an ``li`` start tag's ``attrs``): ``"N. "`` in an ``ol``, else ``"- "``."""
        if not self.ordered:
            return "- "
        value = _integer(_attr(attrs, "value"))
        number = self.next if value is None else value
        self.next = number + self.step
        return f"{number}. "


def counts_down(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """An ``ol reversed`` without ``start``: its first number is its number of items, known at its end."""
    return (tag == "ol" and any(key == "reversed" for key, _ in attrs)
            and _integer(_attr(attrs, "start")) is None)


def reversed_items(events: list[Event]) -> list[int]:
    """The number of items of each list among ``events`` that ``counts_down``, in the order they start:
    the ``li`` started while it is the innermost open list (an ``li`` of a list nested in one of its
    items is that list's)."""
    counts: list[int] = []
    open_: list[tuple[str, int | None]] = []  # tag, index in counts (None: a list not counted)
    for kind, tag, attrs in events:
        if kind == "start" and tag in ("ol", "ul"):
            if counts_down(tag, attrs):
                counts.append(0)
                open_.append((tag, len(counts) - 1))
            else:
                open_.append((tag, None))
        elif kind == "start" and tag == "li" and open_:
            counted = open_[-1][1]
            if counted is not None:
                counts[counted] += 1
        elif kind == "end" and tag in ("ol", "ul"):
            tags = [open_tag for open_tag, _ in open_]
            if tag in tags:  # it closes the lists opened inside it too
                del open_[len(tags) - 1 - tags[::-1].index(tag):]
    return counts


@dataclass(slots=True, eq=False)
class _Item:
    depth: int
    marker: str = "- "  # "- ", or "N. " in an ol (``_List.marker``)
    marked: bool = False  # its marker has been written


def bold_header(row: _Row, table: _Table) -> bool:
    """A first row whose cells with text (two or more) are all bold, in a table without header cells:
    the header as a Markdown README or an older page writes it (``<td><b>Name</b></td>``)."""
    written = [cell for cell in row.cells if cell.bold_text or cell.plain_text]
    if len(written) < 2 or any(cell.plain_text for cell in written):
        return False
    return not any(row.thead or any(cell.header for cell in row.cells) for row in table.rows)


def fill_rowspans(rows: list[_Row]) -> None:
    """Repeat a cell that spans rows (``rowspan``) in each row it covers, at its column, so that every
    row is whole: a row read alone (a chunk, a passage) has its key, and its cells stand under their
    headers (a DocBook table's ``morerows``; a two-row header whose first cell spans both). The copy
    holds the text, not the anchors and links, which stay with the cell where it was written."""
    carried: dict[int, tuple[_Container, int]] = {}  # column -> (cell, rows it still covers)
    for row in rows:
        if not carried and all(cell.rowspan == 1 for cell in row.cells):
            continue
        cells: list[_Container] = []
        written = iter(row.cells)
        column = 0
        while True:
            if column in carried:
                spanning = carried[column][0]
                cells.append(_Container("cell", pieces=[p for p in spanning.pieces if isinstance(p, str)],
                                        header=spanning.header, span=spanning.span))
                column += spanning.span
                continue
            cell = next(written, None)
            if cell is None:
                later = [c for c in carried if c > column]
                if not later:
                    break
                column = min(later)  # a spanning cell after the row's last: it still stands in its column
                continue
            if cell.rowspan > 1:
                carried[column] = (cell, cell.rowspan)
            cells.append(cell)
            column += cell.span
        for at in list(carried):
            cell, left = carried[at]
            if left <= 1:
                del carried[at]
            else:
                carried[at] = (cell, left - 1)
        row.cells = cells


def fill_colspans(rows: list[_Row]) -> None:
    """Repeat a cell that spans columns (``colspan``) in each column it covers, after the rows are whole
    (``fill_rowspans``), so that each row has the table's columns and a value stands under every header
    it belongs to: the grid's ``Gutter width | 30px`` over five breakpoints, DocBook's ``Existing Lock
    Mode`` over eight lock modes. The table's width is its widest row without a spanning cell (the widest
    row when every row has one), so an oversized ``colspan="100"`` covers what is left of its row. A row's
    lone cell spanning the whole table (a label over a group of rows) is written once, the columns after it
    left empty. The copies hold the text, not the anchors and links (as ``fill_rowspans``'s)."""
    if all(cell.span == 1 for row in rows for cell in row.cells):
        return
    plain = [len(row.cells) for row in rows if all(cell.span == 1 for cell in row.cells)]
    width = max(plain) if plain else max(sum(cell.span for cell in row.cells) for row in rows)
    for row in rows:
        if all(cell.span == 1 for cell in row.cells):
            continue
        lone = len(row.cells) == 1
        cells: list[_Container] = []
        for cell in row.cells:
            covers = max(1, min(cell.span, width - len(cells)))
            cell.span = 1
            cells.append(cell)
            for _ in range(covers - 1):
                pieces: list[Piece] = [] if lone else [p for p in cell.pieces if isinstance(p, str)]
                cells.append(_Container("cell", pieces=pieces, header=cell.header))
        row.cells = cells


def drop_empty_columns(rows: list[_Row]) -> None:
    """Leave out a column that is empty in every row, its header's cell included, after the rows and columns are
    whole (``fill_rowspans``, ``fill_colspans``): gtk-doc's annotations column, written for every parameter table
    and empty where no parameter has an annotation, read "| filename | the filename to read to/write from |  |"
    (550 of libsoup 2.74's passages; task R24). A column with text in any row stays, as does a table with no
    text at all. The anchors and links of a cell left out go with the cell before it in its row (else the cell
    after it, else a blank cell of their own: a short row's), where they mark the same place: the start of the
    next text."""
    width = max((len(row.cells) for row in rows), default=0)
    empty = [column for column in range(width)
             if all(column >= len(row.cells) or _blank(row.cells[column]) for row in rows)]
    if not empty or len(empty) == width:
        return
    for row in rows:
        kept = [cell for column, cell in enumerate(row.cells) if column not in empty]
        held = [piece for cell in row.cells for piece in cell.pieces if not isinstance(piece, str)]
        if not kept and held:  # every cell of a short row left out: one blank cell keeps the row's anchors
            row.cells[0].pieces[:] = held  # for the next row, as a blank row's are (review V17)
            row.cells = row.cells[:1]
            continue
        for column in (column for column in empty if column < len(row.cells)):
            markers = [piece for piece in row.cells[column].pieces if not isinstance(piece, str)]
            before = [cell for at, cell in enumerate(row.cells[:column]) if at not in empty]
            if before:
                before[-1].pieces.extend(markers)
            elif kept:
                after = next(cell for at, cell in enumerate(row.cells) if at > column and at not in empty)
                after.pieces[:0] = markers
        row.cells = kept


def _blank(cell: _Container) -> bool:
    """A cell without text: whitespace at most (gtk-doc's ``<td class="parameter_annotations"> </td>``)."""
    return all(not isinstance(piece, str) or not piece.strip() for piece in cell.pieces)


SENTENCE_ENDS = frozenset(".:;!?")
"""What ends a block's text in a cell without a sentence end added (``end_sentence``)."""


def end_sentence(pieces: list[Piece]) -> None:
    """Several blocks in one cell (Bootstrap's ``<p>`` after ``<p>`` in an option's description) read as
    sentences: the text read so far gets a ``.`` unless it ends with punctuation (``SENTENCE_ENDS``).
    Glued with a space, "... manual trigger type If a number is supplied ..." ran two sentences into one."""
    for at in range(len(pieces) - 1, -1, -1):
        piece = pieces[at]
        if isinstance(piece, str) and piece.strip():
            text = piece.rstrip()
            if text[-1] not in SENTENCE_ENDS:
                pieces[at] = text + "." + piece[len(text):]
            return


def link_target(href: str) -> str:
    """An ``<a href>`` as the page's link records it. Sphinx's singlehtml builder writes a reference into
    another source file as ``#document-messages#messages`` (the source file's id, then the label's): two
    fragments, which name no id of the page (task U32: 116 of the 128 in-page links of Babel's manual landed
    on its first passage); the label after the last ``#`` is the section the reference names. Another
    fragment holding a ``#`` is kept: SQLite's ``fileformat2.html##sqltab`` names its ``<a name="#sqltab">``."""
    path, _, fragment = href.partition("#")
    if fragment.startswith("document-") and "#" in fragment:
        return f"{path}#{fragment.rpartition('#')[2]}"
    return href
