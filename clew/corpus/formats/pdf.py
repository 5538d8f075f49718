"""PDF: text with positions from pypdfium2 (PDFium), tables from pdfplumber, rendered like HTML.

- **Lines.** PDFium's text of each page, split into the lines it reports, each with its font
  size, weight, fixed pitch and position (of its first visible character).
- **Running headers and footers** are dropped: a line in the top or bottom 10% of its page
  that is a bare page number (``12``, ``xiv``, ``Page 3 of 9``) or whose text, digits aside,
  recurs in that band on at least three pages.
- **Sections.** From the document outline (bookmarks) where it has one: each entry opens a
  section at its level, at the line on its page that carries its title (else at the page's
  first line). Without an outline, from heading-like lines: a line at least 15% larger than
  the body text (the most used size), or bold and 8% larger, is a heading; the larger, the
  higher (levels by size).
- **Blocks.** Lines join into a paragraph until a heading, a gap larger than 1.45 lines, a
  change of font size, or a bullet (``•``, ``-``, ``1.``) which starts a list item. Runs of
  fixed-pitch lines are a code block, kept line by line. A word hyphenated at a line end is
  joined again (``conver-`` + ``sion``); a paragraph that goes on over a page break is one block.
- **Tables.** Ruled tables: the horizontal and vertical strokes of a page's paths (read from
  PDFium) go to pdfplumber's table finder as explicit lines, and each cell's text is PDFium's
  text inside the cell (letting pdfplumber parse the page itself, through pdfminer, took
  seven times as long as all the rest). A table of at least two rows and two columns whose
  cells are mostly filled replaces the lines inside its box, its first row as the header.
- **Pages.** Every page's start offset is kept (``ParsedDocument.pages``), so each passage
  knows the pages it spans. A page without a text layer but with images is reported as
  scanned (no OCR); a document with no text at all is refused with that reason.
- Encrypted (password) and broken files raise :class:`UnreadableDocument` with the reason.
"""

from __future__ import annotations

from typing import Any, cast

import ctypes
import re
from collections import Counter
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.formats.rendered import Renderer
from clew.corpus.parsed import ParsedDocument, UnreadableDocument

MARGIN = 0.10
"""Share of the page height, at the top and the bottom, where running headers and footers live."""
HEADING_RATIO = 1.15
BOLD_HEADING_RATIO = 1.08
"""A bold line this much larger than the body text is a heading too (LaTeX's 12 pt over 10.95 pt)."""
_BOLD_FONT = re.compile(r"bold|black|heavy|demi|cmbx")
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s*)?(?:#|[ivxlcdm]+)(?:\s*(?:of|/)\s*#)?\W*$", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[•◦▪‣∙●○■□–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S")
_SOFT_HYPHENS = str.maketrans({"\ufffe": "\xad", "\x02": "\xad"})
"""PDFium marks a hyphen it found at a line end as U+FFFE (older builds U+0002): a soft hyphen."""
_FIXED_PITCH = 1


@dataclass(slots=True)
class _Line:
    text: str
    size: float
    bold: bool
    mono: bool
    y: float  # distance from the top of the page down to the line's baseline
    x: float


def parse_pdf(data: bytes) -> ParsedDocument:
    """Render a PDF into blocks, sections, tables and pages (see the module docstring)."""
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        message = str(error)
        if "password" in message.lower():
            raise UnreadableDocument("encrypted PDF: a password is needed to read it") from error
        raise UnreadableDocument(f"not a readable PDF ({message.rstrip('.')})") from error
    try:
        return _parse(pdf)
    finally:
        pdf.close()


def _parse(pdf: pdfium.PdfDocument) -> ParsedDocument:
    warnings: list[str] = []
    pages: list[list[_Line]] = []
    heights: list[float] = []
    for index in range(len(pdf)):
        page = pdf[index]
        heights.append(page.get_height())
        lines = _lines(page)
        if not lines and _has_images(page):
            warnings.append(f"page {index + 1}: no text layer (a scanned image?); not OCR'd, nothing ingested from it")
        pages.append(lines)
        page.close()
    if not any(pages):
        if warnings:
            raise UnreadableDocument("no text layer on any page (a scanned PDF?); clew does no OCR")
        raise UnreadableDocument("no text on any page")
    _drop_running_lines(pages, heights)
    tables = _tables(pdf, pages, warnings)
    outline = _outline(pdf, len(pages))
    body = _body_size(pages)
    renderer = Renderer()
    heading_levels = {} if outline else _heading_levels(pages, body)
    for index, lines in enumerate(pages):
        renderer.page()
        marks = outline.get(index, [])
        _render_page(renderer, lines, marks, heading_levels, body, tables.get(index, []))
    title = (pdf.get_metadata_dict().get("Title") or "").strip() or None
    document = renderer.document(title=title)
    document.warnings = warnings
    return document


def _lines(page: pdfium.PdfPage) -> list[_Line]:
    """The page's text lines, in PDFium's reading order, with the look of their first character."""
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        if count <= 0:
            return []
        text = textpage.get_text_range()
        if len(text) != count:  # characters outside the BMP: no index mapping, read them one by one
            text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i)) for i in range(count))
        height = page.get_height()
        flags, x, y = ctypes.c_int(), ctypes.c_double(), ctypes.c_double()
        lines: list[_Line] = []
        position = 0
        for raw in re.split(r"\r\n|\r|\n", text):
            start, position = position, position + len(raw)
            length = len(raw)
            position += 2 if text.startswith("\r\n", position) else 1
            line = " ".join(raw.replace("\x00", "").translate(_SOFT_HYPHENS).split())
            if not line:
                continue
            first = start + (length - len(raw.lstrip()))
            size = pdfium_c.FPDFText_GetFontSize(textpage.raw, first)
            weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, first)
            name = ctypes.create_string_buffer(96)
            pdfium_c.FPDFText_GetFontInfo(textpage.raw, first, name, 96, ctypes.byref(flags))
            font = name.value.decode("latin-1", "replace").lower()
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, first, ctypes.byref(x), ctypes.byref(y))
            mono = bool(flags.value & _FIXED_PITCH) or "courier" in font or "mono" in font
            lines.append(
                _Line(
                    line,
                    round(size, 1),
                    weight >= 500 or bool(_BOLD_FONT.search(font)),
                    mono,
                    height - y.value,
                    x.value,
                )
            )
        return lines
    finally:
        textpage.close()


def _has_images(page: pdfium.PdfPage) -> bool:
    return any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects(max_depth=2))


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _drop_running_lines(pages: list[list[_Line]], heights: list[float]) -> None:
    bands: Counter[str] = Counter()
    marked: list[list[tuple[int, str]]] = []
    for lines, height in zip(pages, heights):
        here = [(i, _key(line.text)) for i, line in enumerate(lines)
                if line.y <= height * MARGIN or line.y >= height * (1 - MARGIN)]
        marked.append(here)
        bands.update({key for _, key in here})
    for lines, here in zip(pages, marked):
        drop = {i for i, key in here if _PAGE_NUMBER.match(key) or bands[key] >= 3}
        if drop:
            lines[:] = [line for i, line in enumerate(lines) if i not in drop]


def _body_size(pages: list[list[_Line]]) -> float:
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_like(line: _Line, body: float) -> bool:
    return bool(body) and len(line.text) <= 150 and not line.mono and (
        line.size >= body * HEADING_RATIO or (line.bold and line.size >= body * BOLD_HEADING_RATIO))


def _heading_levels(pages: list[list[_Line]], body: float) -> dict[float, int]:
    """Font size -> heading level for the sizes of heading-like lines: the larger, the higher."""
    sizes = sorted({line.size for lines in pages for line in lines if _heading_like(line, body)}, reverse=True)
    return {size: min(6, rank + 1) for rank, size in enumerate(sizes)}


def _outline(pdf: pdfium.PdfDocument, page_count: int) -> dict[int, list[tuple[str, int]]]:
    """Page index -> the outline entries on it, (title, level 1-6), in document order."""
    marks: dict[int, list[tuple[str, int]]] = {}
    last = -1
    try:
        bookmarks = list(pdf.get_toc(max_depth=6))
    except pdfium.PdfiumError:
        return {}
    for bookmark in bookmarks:
        destination = bookmark.get_dest()
        index = destination.get_index() if destination is not None else None
        title = " ".join((bookmark.get_title() or "").split())
        if index is None or not title or not 0 <= index < page_count or index < last:
            continue
        last = index
        marks.setdefault(index, []).append((title, min(6, bookmark.level + 1)))
    return marks


@dataclass(slots=True)
class _PdfTable:
    top: float
    bottom: float
    x0: float
    x1: float
    rows: list[list[str]]


def _tables(pdf: pdfium.PdfDocument, pages: list[list[_Line]], warnings: list[str]) -> dict[int, list[_PdfTable]]:
    """Ruled tables: the page's axis-aligned strokes (from PDFium's path objects) go through
    pdfplumber's table finder as explicit lines; each cell's text is PDFium's text inside it."""
    from pdfplumber.page import Page
    from pdfplumber.table import TableFinder  # imported here: only documents with ruled pages pay for it

    found: dict[int, list[_PdfTable]] = {}
    for index, lines in enumerate(pages):
        if not lines:
            continue
        page = pdf[index]
        try:
            height = page.get_height()
            horizontal, vertical = _strokes(page, height)
            # a grid of at least two rows and two columns; boxes around code have only two columns of strokes
            if len({round(e["top"]) for e in horizontal}) < 3 or len({round(e["x0"]) for e in vertical}) < 3:
                continue
            settings = {"vertical_strategy": "explicit", "horizontal_strategy": "explicit",
                        "explicit_vertical_lines": vertical, "explicit_horizontal_lines": horizontal}
            # pdfplumber reads only the box's size and its explicit lines from the page it is given
            finder = TableFinder(cast("Page", _PageBox(page.get_width(), height)), settings)
            textpage = page.get_textpage()
            try:
                for table in finder.tables:
                    rows = [[_cell_text(textpage, cell, height) for cell in row.cells] for row in table.rows]
                    cells = [cell for row in rows for cell in row]
                    if len(rows) < 2 or max(len(row) for row in rows) < 2:
                        continue
                    if sum(1 for cell in cells if cell) < 0.5 * len(cells):
                        continue
                    x0, top, x1, bottom = table.bbox
                    found.setdefault(index, []).append(_PdfTable(top, bottom, x0, x1, rows))
            finally:
                textpage.close()
        except (ValueError, ZeroDivisionError) as error:  # a degenerate drawing: its lines stay text
            warnings.append(f"page {index + 1}: tables not read ({error}); their text is kept as paragraphs")
        finally:
            page.close()
    return found


@dataclass(slots=True)
class _PageBox:
    """What pdfplumber's table finder asks of a page when every line is given explicitly."""

    width: float
    height: float

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        return (0, 0, self.width, self.height)


def _strokes(page: pdfium.PdfPage, height: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Horizontal and vertical segments of the page's paths, as pdfplumber edges (top-left origin)."""
    horizontal: list[dict[str, Any]] = []
    vertical: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    for obj in page.get_objects(max_depth=2):
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
            pdfium_c.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y))
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


def _cell_text(textpage: pdfium.PdfTextPage, cell: tuple[float, float, float, float] | None, height: float) -> str:
    if cell is None:  # a cell merged into its neighbour
        return ""
    x0, top, x1, bottom = cell
    text = textpage.get_text_bounded(left=x0, bottom=height - bottom, right=x1, top=height - top)
    return " ".join(text.translate(_SOFT_HYPHENS).replace("\xad", "").split())


def _render_page(renderer: Renderer, lines: list[_Line], marks: list[tuple[str, int]],
                 heading_levels: dict[float, int], body: float, tables: list[_PdfTable]) -> None:
    pending = list(marks)
    if pending and not any(_starts_heading(line.text, pending[0][0]) for line in lines):
        title, level = pending.pop(0)  # the entry's title is not on its page: the section starts here
        renderer.heading(title, level)
    paragraph: list[_Line] = []
    kind = "paragraph"
    first = True  # the next block is the page's first: it may continue the last page's paragraph
    heading_size: float | None = None  # the size of the heading just written (a heading on two lines)
    rest = ""  # what an outline entry's title has beyond the line that began it

    def flush() -> None:
        nonlocal paragraph, first
        if paragraph:
            _emit(renderer, paragraph, kind, continues=first)
            first = False
        paragraph = []

    for line in lines:
        table = next((t for t in tables if t.top - 2 <= line.y <= t.bottom + 2 and t.x0 - 2 <= line.x <= t.x1 + 2),
                     None)
        if table is not None:
            flush()
            if table.rows:
                renderer.table(table.rows, 1)
                table.rows = []
            first, heading_size = False, None
            continue
        if rest and alnum(line.text) and rest.startswith(alnum(line.text)):  # the entry's title goes on
            rest = rest[len(alnum(line.text)):]
            renderer.extend(" " + line.text)
            renderer.sections[-1].heading += " " + line.text
            continue
        rest = ""
        if pending and _starts_heading(line.text, pending[0][0]):
            flush()
            title, level = pending.pop(0)
            renderer.heading(line.text if len(line.text) <= len(title) + 20 else title, level)
            if alnum(title).startswith(alnum(line.text)):
                rest = alnum(title)[len(alnum(line.text)):]
            first, heading_size = False, None
            continue
        if line.size in heading_levels and _heading_like(line, body):
            flush()
            if heading_size == line.size:
                renderer.extend(" " + line.text)  # a heading set on two lines
                renderer.sections[-1].heading += " " + line.text
            else:
                renderer.heading(line.text, heading_levels[line.size])
                heading_size = line.size
            first = False
            continue
        heading_size = None
        line_kind = "code" if line.mono else "list_item" if _BULLET.match(line.text) else "paragraph"
        if paragraph:
            last = paragraph[-1]
            if (line.y - last.y > 1.5 * max(last.size, line.size) or abs(line.size - last.size) >= 1
                    or line_kind == "list_item" or (line_kind == "code") != (kind == "code")
                    or (kind == "list_item" and line.x < paragraph[0].x - 1)):
                flush()
        if not paragraph:
            kind = line_kind
        paragraph.append(line)
    flush()
    for table in tables:  # a table whose box held no line of text still goes in, after the page's text
        if table.rows:
            renderer.table(table.rows, 1)


def alnum(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


def _starts_heading(text: str, title: str) -> bool:
    """Whether a line carries an outline entry's title (the whole line, or it begins with it)."""
    a, b = alnum(text), alnum(title)
    if not a or not b:
        return False
    return a == b or (len(b) >= 8 and (a.startswith(b) or (b.startswith(a) and len(a) >= 8)))


def _emit(renderer: Renderer, lines: list[_Line], kind: str, *, continues: bool) -> None:
    if kind == "code":
        renderer.emit("code", "\n".join(line.text.replace("\xad", "-") for line in lines), indivisible=True)
        return
    text = lines[0].text
    for line in lines[1:]:
        text = _join(text, line.text)
    last = renderer.blocks[-1] if renderer.blocks else None
    tail = renderer.tail
    if (continues and kind == "paragraph" and last is not None and last.kind in ("paragraph", "list_item")
            and not tail.rstrip("\xad").endswith((".", ":", "!", "?")) and text[:1].islower()):
        hyphenated = tail.endswith("\xad") or (tail.endswith("-") and len(tail) > 1 and tail[-2].isalpha())
        renderer.extend(_clean(text) if hyphenated else " " + _clean(text), drop=1 if hyphenated else 0)
        return
    if renderer.blocks and tail.endswith("\xad"):
        renderer.extend("", drop=1)  # a soft hyphen ending the last block: nothing follows it
    text = _clean(text)
    if kind == "list_item":
        group = renderer.previous if last is not None and last.kind == "list_item" else ("list", len(renderer.blocks))
        renderer.emit("list_item", text, group=group)
    else:
        renderer.emit("paragraph", text)


def _clean(text: str) -> str:
    """Soft hyphens inside a paragraph are dropped; one at its very end waits for a continuation."""
    return text[:-1].replace("\xad", "") + text[-1:] if text else text


def _join(text: str, more: str) -> str:
    """Two lines of one paragraph: a word hyphenated across them is joined again."""
    if text.endswith("\xad"):
        return text[:-1] + more
    if text.endswith("-") and len(text) > 1 and text[-2].isalpha() and more[:1].islower():
        return text[:-1] + more
    return text + " " + more
