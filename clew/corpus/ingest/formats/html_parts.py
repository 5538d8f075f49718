"""What the HTML renderer holds while it reads (``clew.corpus.ingest.formats.html_blocks``): the open
definition lists, admonitions, containers (a heading, ``pre`` or cell being read), tables, rows and
list items; and what is done to a table's rows before they are written (a cell that spans rows
repeated in each, a bold first row taken as the header)."""

from __future__ import annotations

from dataclasses import dataclass, field

from clew.corpus.ingest.formats.html_rules import Marker, Piece, Placed


@dataclass(slots=True, eq=False)
class _DList:
    depth: int  # sections open at its start
    sections: int  # len(sections) at its start
    blocks: int
    length: int
    api: bool = False  # a Sphinx object description: a section per entry, whatever its length
    entry: int | None = None  # api: the section its first term opened


@dataclass(slots=True, eq=False)
class _Admonition:
    blocks: int  # len(blocks) at its start
    tables: int
    labelled: bool = False


@dataclass(slots=True, eq=False)
class _Container:
    """An element whose whole content is one block (heading, pre) or one table cell."""

    kind: str  # "heading", "pre", "cell", "label" (an admonition's) or "caption" (a table's title)
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


@dataclass(slots=True, eq=False)
class _Item:
    depth: int
    marked: bool = False  # its "- " has been written


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
