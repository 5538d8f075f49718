"""Tables drawn by space alone, without a box or a rule (task R12), for the PDF reader.

luaotfload's manual (LuaTeX) sets its table 1 as a ``tabular`` without rules: a system's name, then its font paths,
a path cell wrapped onto lines of its own under the second column. PDFium reads each row's first line as one line
("Windows %WINDIR%\\Fonts", "Linux /usr/local/etc/fonts/fonts.conf and") and the wrapped lines alone, set in a
fixed-pitch face: the table read as a paragraph and code blocks ("/etc/fonts/fonts.conf"), its rows torn apart.

Such a table is read where its columns are certain, else its lines stay text in their reading order:

- a run of at least ``ROWS`` lines one under the other (each at most ``LEADING`` of its size under the last), none a
  heading (larger than the body text) or a margin note, each ending well short of the page's text block (``SHORT``
  of its sizes: a line of prose fills it), the first in a proportional face and fewer than half in a fixed-pitch
  one (a listing is code), with no other text beside it on its lines (a page in two columns, a note in the margin),
  its lines not starting inside a ruled table of the page, nor on a table of contents or an index;
- the run's characters fall into columns, vertical bands no character crosses, at least ``pdf_boxes.COLUMN_GAP``
  apart, two or more (``pdf_boxes.segments``);
- every column's text starts at its band's left edge (within ``ALIGN``) in at least ``ROWS`` rows: a row begins at a
  line with text in the first column, and a line without (a wrapped cell) goes on with the row above it.

A column of one text in every row (bullets), or a first column of list markers (``1.``, ``2.``, ``3.``: an ordered
list a browser or LaTeX's enumerate sets apart from its text), makes a list, no table. The table's first row is its
header, as the reader writes every table (``Renderer.table``).
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_boxes import PdfTable, cell_text, segments
from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.formats.pdf_order import LIST_MARKER

ROWS = 3
"""Rows a column's text must start at its left edge in, and lines a run must hold, for a table without rules."""
LEADING = 1.6
"""How far (in font sizes) a line of the run is under the one above it at most: a blank line ends the run."""
SHORT = 2.0
"""How far (in its font sizes) short of the text block's right edge every line of the run ends at least."""
ALIGN = 2.0
"""Points between a column's left edge and where its text starts in a row, at most."""
HEADING = 1.08
"""A line this much larger than the body text is no table row (``pdf.BOLD_HEADING_RATIO``)."""


Spaced = tuple[PdfTable, float]
"""A table set by space alone and the largest font size of its lines (``add_spaced`` weighs it by the body text's)."""


def spaced_tables(textpage: pdfium.PdfTextPage, lines: list[Line], height: float) -> list[Spaced]:
    """The tables set by space alone among a page's ``lines`` (see the module docstring), read while the reader has
    the page's text open (opening pages again for them cost a tenth of the parse); the text block's right edge is
    where the page's rightmost line ends of those set no smaller than most of its characters (a page mostly of code
    in a smaller face than its prose has it where the prose ends)."""
    sizes: Counter[float] = Counter()
    for each in lines:
        sizes[each.size] += len(each.text)
    most = sizes.most_common(1)[0][0] if sizes else 0.0
    edge = max((each.right for each in lines if each.size >= most), default=0.0)

    def fits(line: Line) -> bool:
        return not line.aside and line.right < edge - SHORT * line.size

    tables: list[Spaced] = []
    run: list[Line] = []
    for line in [*lines, None]:
        if line is not None and fits(line) and run and 0 < line.y - run[-1].y <= LEADING * max(line.size, run[-1].size):
            run.append(line)
            continue
        if len(run) >= ROWS and _may_be_table(run, lines) and (table := _table(textpage, run, height)) is not None:
            tables.append((table, max(row.size for row in run)))
        run = [line] if line is not None and fits(line) else []
    return tables


def add_spaced(tables: dict[int, list[PdfTable]], spaced: dict[int, list[Spaced]], navigation: set[int],
               body: float) -> None:
    """Add to ``tables`` (the ruled tables by page index) the ``spaced`` ones (``spaced_tables``) set no larger than
    the ``body`` text (not headings) whose lines start outside them, but on tables of contents and indexes
    (``navigation``: pages in two columns)."""
    for index, found in spaced.items():
        ruled = tables.get(index, [])
        keep = [table for table, size in found if index not in navigation and size < body * HEADING and not any(
            table.top <= other.bottom and other.top <= table.bottom and other.x0 - 3 <= table.x0 <= other.x1 + 1
            for other in ruled)]  # where a ruled table holds the lines' starts, as the reader gives it the lines
        if keep:
            tables.setdefault(index, []).extend(keep)


def _may_be_table(run: list[Line], lines: list[Line]) -> bool:
    left = min(line.x for line in run)
    starts = sum(1 for line in run if line.x - left <= ALIGN)
    beside = sum(1 for line in lines if run[0].y - 1 <= line.y <= run[-1].y + 1)
    return (starts >= ROWS and run[0].x - left <= ALIGN and not run[0].mono
            and 2 * sum(line.mono for line in run) < len(run) and beside == len(run))


def _table(textpage: pdfium.PdfTextPage, run: list[Line], height: float) -> PdfTable | None:
    """The run's table where its columns are certain (the module docstring), else None. A line with text in the
    first column only may be a first cell wrapped (the Debian Reference's "View log for system services and kernel
    from" over "the last boot ”journalctl -b --system”") as well as a row of empty cells: not certain."""
    found = [_words(textpage, line) for line in run]
    bands = segments([(left, 0.0, right, 0.0) for words in found for left, right, _, _ in words])
    if len(bands) < 2:
        return None
    rows: list[list[list[list[int]]]] = []  # a row's words: band by band, line by line, PDFium's indexes
    starts: list[list[float]] = [[] for _ in bands]  # where each column's text starts, row by row
    for words in found:
        columns = [[at for left, right, *ends in words if low - 0.5 <= left and right <= high + 0.5 for at in ends]
                   for low, high in bands]
        if columns[0] and not any(columns[1:]):
            return None
        if columns[0]:
            rows.append([[] for _ in bands])
        elif not rows:
            return None
        for at, (row, here) in enumerate(zip(rows[-1], columns, strict=True)):
            if here and not any(row):  # the column's first text in this row: where it starts
                starts[at].append(min(left for left, _, index, _ in words if index == here[0]))
            row.append(here)
    if len(rows) < ROWS:
        return None
    for (low, _), lefts in zip(bands, starts, strict=True):  # each column starts at its left edge in ROWS rows
        if 2 * len(lefts) < len(rows) or sum(1 for left in lefts if left - low <= ALIGN) < ROWS:
            return None
    cells = [[" ".join(filter(None, (_text(textpage, line) for line in column))) for column in row] for row in rows]
    if any(len({row[at] for row in cells}) == 1 for at in range(len(bands))):  # a bullet's column: a list
        return None
    if all(LIST_MARKER.fullmatch(row[0]) for row in cells):  # numbered (1. 2. 3.): a list too (task U28)
        return None
    left, right = min(line.x for line in run), max(line.right for line in run)
    return PdfTable(run[0].y - 1, run[-1].y + 1, left - 1, right + 1, cells)


def _words(textpage: pdfium.PdfTextPage, line: Line) -> list[tuple[float, float, int, int]]:
    """The line's words, each as the left edge of its first character's box, the right edge of its last's, and the
    PDFium indexes of its first and last characters. A column's gap is a space PDFium puts there (or makes up), so
    the boxes of a word's inner characters are not asked for (2.6x faster than every character's on Gutenprint's
    manual); two columns PDFium read as one word are one column, and the run no table."""
    first, last = line.chars
    count = last - first + 1
    text = textpage.get_text_range(first, count) if count > 0 else ""
    if len(text) != count:  # a character outside the BMP: PDFium's indexes one by one
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index)) for index in range(first, last + 1))
    left, right, low, high = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    words: list[tuple[float, float, int, int]] = []
    for word in _WORD.finditer(text):
        pdfium_c.FPDFText_GetCharBox(textpage.raw, first + word.start(), left, right, low, high)
        start = left.value
        pdfium_c.FPDFText_GetCharBox(textpage.raw, first + word.end() - 1, left, right, low, high)
        if right.value > start:
            words.append((start, right.value, first + word.start(), first + word.end() - 1))
    return words


def _text(textpage: pdfium.PdfTextPage, indexes: list[int]) -> str:
    """PDFium's text from the first to the last of ``indexes`` (one line's characters in a column)."""
    if not indexes:
        return ""
    text = textpage.get_text_range(min(indexes), max(indexes) - min(indexes) + 1)
    return cell_text(text)


_WORD = re.compile(r"\S+")
