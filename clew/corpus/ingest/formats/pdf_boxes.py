"""Tables in a ruled box whose columns are drawn by space alone (task U9), for the PDF reader's table finder.

LaTeX's ``tabular{|ccl|}`` with ``\\hline`` draws a box and rules between row groups, but no line between its
columns: gnuplot's manual sets its operator and format tables so ("Unary Operators" over "Symbol Example
Explanation" and a row per operator). The finder saw a box of one column and read it as text, every row of it joined
into one list item ("- -a unary minus + +a unary plus ..."). Inside such a box the columns are the vertical bands no
character of any row crosses, each at least :data:`COLUMN_GAP` wide; a line above the first row that spans them (a
caption set in a box of its own) stays text above the table and is its title (its heading in the outline). A box of
prose (no band), of code (half its lines or more in a fixed-pitch face: a framed listing, whose odd glyph, DocBook's
"←-", may make a line look otherwise), one with text beside it on its lines (a column of a larger grid: the Debian
Reference's table of mail commands) or of fewer than two rows is no table.

The strokes the table finder starts from are read here as well (``ruled_grid``), while the reader has the page open
for its lines: pages that draw no grid are not opened again.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.parsed import Deadline

COLUMN_GAP = 6.0
"""Points of space between two columns at least (LaTeX's column separation is 12 pt; a word space about 3.3 pt)."""
_SAME_LINE = 2.0
"""Points between the baselines of two characters of one line at most."""
Grid = tuple[list[dict[str, Any]], list[dict[str, Any]]] | str
"""A page's horizontal and vertical strokes as pdfplumber edges, or the error PDFium's drawing gave (``ruled_grid``)."""


@dataclass(slots=True)
class PdfTable:
    """A table found on a page: its box (points from the page's top) and its rows, the first the header."""

    top: float
    bottom: float
    x0: float
    x1: float
    rows: list[list[str]]
    title: str | None = None


def boxed_rows(textpage: pdfium.PdfTextPage, box: tuple[float, float, float, float], height: float,
               lines: list[Line]) -> tuple[float, list[list[str]], str | None] | None:
    """The top of the first row, the rows and the caption of the ruled ``box`` (x0, top, x1, bottom from the page's
    top) whose columns are drawn by space alone; None where the box holds no such table."""
    x0, top, x1, bottom = box
    beside = [line for line in lines if top - 1 <= line.y <= bottom + 1]
    inside = [line for line in beside if x0 - 1 <= line.x <= x1 + 1]
    if len(inside) < len(beside):  # text beside the box: it is a column of a grid the finder did not join
        return None
    if len(inside) < 2 or 2 * sum(line.mono for line in inside) >= len(inside):  # a framed listing
        return None
    rows = _text_lines(textpage, box, height)
    captions: list[str] = []
    while rows and len(segments(rows[0][1])) == 1:  # a caption over the table (or a box of prose)
        low, high = _extent(rows.pop(0)[1])
        captions.append(_cell(textpage, (x0, low, x1, high), height))
    if len(rows) < 2:
        return None
    bands = segments([span for _, spans in rows for span in spans])
    if len(bands) < 2:
        return None
    extents = [_extent(spans) for _, spans in rows]
    cells = [[_cell(textpage, (left, low, right, high), height) for left, right in bands] for low, high in extents]
    if sum(1 for row in cells for cell in row if cell) < 0.5 * len(cells) * len(bands):
        return None
    return extents[0][0], cells, " ".join(captions) or None


_Span = tuple[float, float, float, float]
"""A character's box: left, top, right, bottom (points from the page's top)."""


def _text_lines(textpage: pdfium.PdfTextPage, box: tuple[float, float, float, float],
                 height: float) -> list[tuple[float, list[_Span]]]:
    """The characters inside ``box`` (not spaces) in lines by their baselines, top to bottom."""
    x0, top, x1, bottom = box
    left, right, low, high = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    x, y = ctypes.c_double(), ctypes.c_double()
    found: list[tuple[float, _Span]] = []
    for index in range(textpage.count_chars()):
        if chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index)).isspace():
            continue
        pdfium_c.FPDFText_GetCharBox(textpage.raw, index, left, right, low, high)
        span = (left.value, height - high.value, right.value, height - low.value)
        if span[0] < x0 - 1 or span[2] > x1 + 1 or span[1] < top - 1 or span[3] > bottom + 1 or span[2] <= span[0]:
            continue
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, index, x, y)
        found.append((height - y.value, span))
    lines: list[tuple[float, list[_Span]]] = []
    for baseline, span in sorted(found, key=lambda item: item[0]):
        if lines and baseline - lines[-1][0] <= _SAME_LINE:
            lines[-1][1].append(span)
        else:
            lines.append((baseline, [span]))
    return lines


def segments(spans: list[_Span]) -> list[tuple[float, float]]:
    """The horizontal extents the spans cover, joined where less than :data:`COLUMN_GAP` apart."""
    joined: list[tuple[float, float]] = []
    for left, _, right, _ in sorted(spans):
        if joined and left - joined[-1][1] < COLUMN_GAP:
            joined[-1] = (joined[-1][0], max(joined[-1][1], right))
        else:
            joined.append((left, right))
    return joined


def _extent(spans: list[_Span]) -> tuple[float, float]:
    """The top and bottom of a line's characters."""
    return min(span[1] for span in spans), max(span[3] for span in spans)


def _cell(textpage: pdfium.PdfTextPage, box: tuple[float, float, float, float], height: float) -> str:
    """The text of the characters inside ``box`` (left, top, right, bottom from the page's top), spaces collapsed."""
    left, top, right, bottom = box
    text = textpage.get_text_bounded(left=left - 0.5, bottom=height - bottom - 0.5, right=right + 0.5,
                                     top=height - top + 0.5)
    return " ".join(text.replace("\xad", "").split())


def ruled_grid(page: pdfium.PdfPage, height: float, deadline: Deadline, index: int) -> Grid | None:
    """The page's strokes where they may draw a table: a grid of at least two rows, and two columns or a box (its
    columns drawn by space alone: ``boxed_rows``); else None. Where the drawing is degenerate, the error (the page's
    tables are not read). The reader takes them while the page is open for its lines (task P5: opening every page
    with text a second time for its strokes)."""
    try:
        horizontal, vertical = _strokes(page, height, deadline, index)
    except (ValueError, ZeroDivisionError) as error:
        return str(error)
    if len({round(e["top"]) for e in horizontal}) < 3 or len({round(e["x0"]) for e in vertical}) < 2:
        return None
    return horizontal, vertical


def _strokes(page: pdfium.PdfPage, height: float, deadline: Deadline,
             index: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Horizontal and vertical segments of the page's paths, as pdfplumber edges (top-left origin)."""
    horizontal: list[dict[str, Any]] = []
    vertical: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    for obj in page.get_objects(max_depth=2):
        deadline.check(f"page {index + 1}")
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = obj.get_bounds()
        if right - left < 2 and top - bottom < 2:
            continue
        m = obj.get_matrix()
        points: list[tuple[float, float]] = []
        start: tuple[float, float] | None = None
        for i in range(pdfium_c.FPDFPath_CountSegments(obj.raw)):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj.raw, i)
            pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
            point = (m.a * x.value + m.c * y.value + m.e, m.b * x.value + m.d * y.value + m.f)
            kind = pdfium_c.FPDFPathSegment_GetType(segment)
            if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
                start = point
            elif kind == pdfium_c.FPDF_SEGMENT_LINETO and points:
                _edge(points[-1], point, height, horizontal, vertical)
            if pdfium_c.FPDFPathSegment_GetClose(segment) and start is not None:
                _edge(point, start, height, horizontal, vertical)
            points.append(point)
    return horizontal, vertical


def _edge(a: tuple[float, float], b: tuple[float, float], height: float, horizontal: list[dict[str, Any]],
          vertical: list[dict[str, Any]]) -> None:
    (x0, y0), (x1, y1) = a, b
    if abs(y0 - y1) < 1 and abs(x1 - x0) >= 3:
        top = height - (y0 + y1) / 2
        horizontal.append({"object_type": "line_edge", "orientation": "h", "x0": min(x0, x1), "x1": max(x0, x1),
                           "top": top, "bottom": top, "width": abs(x1 - x0), "height": 0})
    elif abs(x0 - x1) < 1 and abs(y1 - y0) >= 3:
        left = (x0 + x1) / 2
        vertical.append({"object_type": "line_edge", "orientation": "v", "x0": left, "x1": left,
                         "top": height - max(y0, y1), "bottom": height - min(y0, y1), "width": 0,
                         "height": abs(y1 - y0)})


_NOT_CELL_TEXT = str.maketrans({"\ufffe": None, "\x02": None, "\xad": None, "\x00": None})
"""PDFium's marks of a line-end hyphen (U+FFFE, older builds U+0002), soft hyphens and NULs: no text of a cell."""


def cell_text(text: str) -> str:
    """A table cell's text as PDFium gives it (ruled or set by space alone), its white space made single."""
    return " ".join(text.translate(_NOT_CELL_TEXT).split())
