"""PDF: the size a character is set in, as PDFium reads it."""

from __future__ import annotations

import math

import pypdfium2.raw as pdfium_c


def font_size(textpage: pdfium_c.FPDF_TEXTPAGE, index: int) -> float:
    """The size character ``index`` of a page's text (``textpage``: PDFium's, raw) is set in: its font's size times
    the vertical scale of its matrix. PDFium's font size alone is the size the text object names; a PDF that scales
    its text by the matrix instead names size 1 (Acrobat Distiller's from dvips: txfontsdoc's body text, 1 x 10.91;
    task R22), where every line read as 1 pt, each its own paragraph, and a capital after a letter as a margin note
    more than a size away ("The T" / "X Fonts"). Where the matrix does not scale (pdfTeX, most writers) it is the
    font's size."""
    size: float = pdfium_c.FPDFText_GetFontSize(textpage, index)
    matrix = pdfium_c.FS_MATRIX()
    if size and pdfium_c.FPDFText_GetMatrix(textpage, index, matrix):
        scale = math.hypot(matrix.c, matrix.d)
        if scale > 0 and abs(scale - 1) > 1e-3:
            size *= scale
    return size
