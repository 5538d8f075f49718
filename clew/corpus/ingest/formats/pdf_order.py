"""PDF: a page's lines in reading order where the engine painted them out of it (task U28).

PDFium reads a page's text in the order it was drawn. TeX, word processors and Typst draw a page top to bottom, but
browser engines printing HTML draw it by CSS's painting layers: WeasyPrint and wkhtmltopdf (Qt WebKit) paint a
code block's box (positioned for its copy button, or ``overflow: auto``) and WeasyPrint the list markers
(``::marker``) after the page's other text, so Requests' quickstart read every example below its page's last
paragraph, into the next section, and its bullets as a paragraph ``• • • •`` of their own.

Only such an engine's PDFs are reordered (``painted_in_layers``: its name as the Producer or Creator), since TeX's
figures hold their labels in any order, and a page of LuaTeX's manual that went back up to them read a margin note
into a hyphenated word. A page is put in reading order, top to bottom, when its text goes back up within one column
(a line that starts more than a line above the one drawn before it, their spans across the page overlapping, or a
list marker) and the page is not set in columns (lines side by side, each wider than a quarter of the text's width:
a two-column page goes back up to its second column, and keeps PDFium's order). Blocks side by side that no line
crosses (a site's sidebar of short links beside its text, as a browser prints it) are each put in order on their own,
left then right: sorted together, each link read between two lines of the text (task V7); where most lines of the
right block stand on a baseline of the left's (a table's cells) they are rows, put in order as one. Lines on one
baseline read left to right, and a list marker drawn alone joins the text beside it (``•`` + ``Keep-Alive &
Connection Pooling``), as one line, read with the text's look. wkhtmltopdf draws a ``ul``'s discs as paths, no text:
a small square path just left of a line, level with its text, is its bullet (``drawn_bullets``; task U28).
"""

from __future__ import annotations

import ctypes
import re
from bisect import bisect_right
from dataclasses import replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_layout import Line

LIST_MARKER = re.compile(r"[•◦▪‣∙●○■□–-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|[ivxlc]{1,6}[.)]")
"""A list item's marker alone on its line: a bullet, ``1.``, ``(a)``, ``iv.``."""
_LAYERED = re.compile(r"WeasyPrint|wkhtmltopdf")
"""The engines seen painting so (task U28: WeasyPrint 70, wkhtmltopdf 0.12.6 on Qt 5.15); Typst draws in order."""
_SIDE_BY_SIDE = 3
"""Lines of the page's right half beside lines of its left half, each wider than a quarter of the text: columns."""
_BASELINE = 0.3
"""Lines whose tops are less than this share of their size apart stand on one baseline."""


def painted_in_layers(metadata: dict[str, str]) -> bool:
    """Whether the PDF's Producer or Creator is an HTML engine that paints text out of reading order."""
    return any(_LAYERED.search(metadata.get(field) or "") for field in ("Producer", "Creator"))


def drawn_bullets(page: pdfium.PdfPage, lines: list[Line]) -> list[Line]:
    """``lines`` with "• " before each line that a small square path (2-8 pt, a disc or a square drawn as a
    ``ul``'s marker) stands just left of (within 1.5 of the line's size), level with its text: a list item, its text
    prose or code (Griffe's ``obj.is_kind("class")``)."""
    if not lines:
        return lines
    height = page.get_height()
    marks = []
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    for index in range(pdfium_c.FPDFPage_CountObjects(page.raw)):  # the page's own (raw: a third of the helper's time)
        obj = pdfium_c.FPDFPage_GetObject(page.raw, index)
        if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        width = right.value - left.value
        if 2 <= width <= 8 and abs(width - (top.value - bottom.value)) <= 1:
            marks.append((left.value, right.value, height - (top.value + bottom.value) / 2))
    if not marks:
        return lines
    out = []
    for line in lines:
        mark = next((m for m in marks if 0 <= line.x - m[1] <= 1.5 * line.size
                     and line.y - line.size <= m[2] <= line.y), None)
        out.append(line if mark is None else replace(line, text=f"\u2022 {line.text}", x=mark[0], mono=False))
    return out


def reading_order(lines: list[Line]) -> list[Line]:
    """``lines`` (PDFium's order) top to bottom where the page went back up in one column (see the module)."""
    if not _back_up(lines) or _columns(lines):
        return lines
    apart = _blocks_apart(lines)
    if apart is not None:  # a sidebar beside the text: each block in its own order (a table's cells: rows, below)
        left = [line for line in lines if line.x + line.right < 2 * apart]
        right = [line for line in lines if line.x + line.right >= 2 * apart]
        if _beside(left, right, within=_BASELINE) * 2 < len(right):
            return reading_order(left) + reading_order(right)
    ordered = sorted(lines, key=lambda line: line.y)
    out: list[Line] = []
    start = 0
    while start < len(ordered):
        row = [ordered[start]]
        end = start + 1
        while end < len(ordered) and ordered[end].y - row[0].y <= _BASELINE * max(row[0].size, ordered[end].size):
            row.append(ordered[end])
            end += 1
        row.sort(key=lambda line: line.x)
        out.extend(_markers_joined(row))
        start = end
    return out


def _back_up(lines: list[Line]) -> bool:
    return any(after.y < before.y - 1.5 * max(before.size, after.size)
               and (after.x < before.right and before.x < after.right or LIST_MARKER.fullmatch(after.text) is not None)
               for before, after in zip(lines, lines[1:], strict=False))


def _columns(lines: list[Line]) -> bool:
    left, right = min(line.x for line in lines), max(line.right for line in lines)
    middle, quarter = (left + right) / 2, (right - left) / 4
    wide = [line for line in lines if line.right - line.x > quarter]
    return _beside([line for line in wide if line.right <= middle],
                   [line for line in wide if line.x >= middle]) >= _SIDE_BY_SIDE


def _blocks_apart(lines: list[Line]) -> float | None:
    """The middle of the first gap across the page that no line but a list marker crosses, with ``_SIDE_BY_SIDE``
    lines of its right beside lines of its left (a sidebar, a table's columns), else None."""
    spans = sorted((line.x, line.right) for line in lines if LIST_MARKER.fullmatch(line.text) is None)
    reach = spans[0][1] if spans else 0.0
    for x, right in spans[1:]:
        if x > reach and _beside([line for line in lines if line.right <= reach],
                                 [line for line in lines if line.x >= x]) >= _SIDE_BY_SIDE:
            return (reach + x) / 2
        reach = max(reach, right)
    return None


def _beside(left: list[Line], right: list[Line], *, within: float = 1.0) -> int:
    """How many lines of ``right`` stand beside a line of ``left``: their tops less than ``within`` of the right
    line's size apart."""
    tops = sorted(line.y for line in left)
    beside = 0
    for line in right:
        at = bisect_right(tops, line.y - within * line.size)
        beside += at < len(tops) and tops[at] < line.y + within * line.size
    return beside


def _markers_joined(row: list[Line]) -> list[Line]:
    out: list[Line] = []
    for line in row:
        if out and LIST_MARKER.fullmatch(out[-1].text) and out[-1].right <= line.x:
            marker = out.pop()
            line = replace(line, text=f"{marker.text} {line.text}", x=marker.x)
        out.append(line)
    return out
