"""A PDF's ruled tables: the page's axis-aligned strokes (``pdf_boxes.ruled_grid``) go through pdfplumber's table
finder as explicit lines, and each cell's text is PDFium's text inside the cell (``clew.corpus.ingest.formats.pdf``
replaces the lines inside a table's box by its rows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import pypdfium2 as pdfium

from clew.corpus.ingest.formats.pdf_boxes import Grid, PdfTable, boxed_rows, cell_text
from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.parsed import Deadline


def ruled_tables(pdf: pdfium.PdfDocument, pages: list[list[Line]], grids: dict[int, Grid], warnings: list[str],
                 deadline: Deadline) -> dict[int, list[PdfTable]]:
    """Ruled tables: the page's axis-aligned strokes (from PDFium's path objects) go through
    pdfplumber's table finder as explicit lines; each cell's text is PDFium's text inside it. A first row of one
    cell across the table (gnuplot's "Graph Border Encoding" over "Bit plot splot") is its title, as a boxed
    table's caption (``pdf_boxes``: text above the table), not a header row of one cell and empty ones (task R9).
    ``grids``: the strokes of the pages, read with their lines (``pdf_boxes.ruled_grid``)."""
    from pdfplumber.page import Page
    from pdfplumber.table import TableFinder  # imported here: only documents with ruled pages pay for it

    found: dict[int, list[PdfTable]] = {}
    for index, lines in enumerate(pages):
        grid = grids.get(index)
        if not lines or grid is None:
            continue
        if isinstance(grid, str):
            warnings.append(f"page {index + 1}: tables not read ({grid}); their text is kept as paragraphs")
            continue
        deadline.check(f"page {index + 1}")  # pdfplumber's finder on a dense grid may take a while
        horizontal, vertical = grid
        page = pdf[index]
        try:
            height = page.get_height()
            settings = {"vertical_strategy": "explicit", "horizontal_strategy": "explicit",
                        "explicit_vertical_lines": vertical, "explicit_horizontal_lines": horizontal}
            # pdfplumber reads only the box's size and its explicit lines from the page it is given
            finder = TableFinder(cast("Page", _PageBox(page.get_width(), height)), settings)
            textpage = page.get_textpage()
            try:
                for table in finder.tables:
                    rows = [[_cell_text(textpage, cell, height) for cell in row.cells] for row in table.rows]
                    cells = [cell for row in rows for cell in row]
                    x0, top, x1, bottom = table.bbox
                    title = None
                    if max(len(row) for row in rows) < 2 and (boxed := boxed_rows(textpage, table.bbox, height, lines)):
                        top, rows, title = boxed
                    elif len(rows) < 2 or max(len(row) for row in rows) < 2:
                        continue
                    elif sum(1 for cell in cells if cell) < 0.5 * len(cells):
                        continue
                    elif len(rows) > 2 and all(cell is None for cell in table.rows[0].cells[1:]) and rows[0][0]:
                        # a cell across the table over its header: its caption, text above the table
                        title, rows, top = rows[0][0], rows[1:], table.rows[1].bbox[1]
                        title = " ".join(line.text for line in lines if table.bbox[1] <= line.y <= top
                                         and x0 - 2 <= line.x <= x1 + 2) or title  # the line (no stray descender)
                    found.setdefault(index, []).append(PdfTable(top, bottom, x0, x1, rows, title))
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


def _cell_text(textpage: pdfium.PdfTextPage, cell: tuple[float, float, float, float] | None, height: float) -> str:
    if cell is None:  # a cell merged into its neighbour
        return ""
    x0, top, x1, bottom = cell
    text = textpage.get_text_bounded(left=x0, bottom=height - bottom, right=x1, top=height - top)
    return cell_text(text)
