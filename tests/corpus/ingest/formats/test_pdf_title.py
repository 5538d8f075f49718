"""A PDF's title where its first page draws a logo as text (task R6, issue 36): Debian's asymptote-doc ships
asymptote.pdf, whose cover sets the title "Asymptote: the Vector Graphics / Language" in 20.7 pt and under it the
project's logo, an included drawing (a form XObject) whose word "symptote" is text in 24.8 pt: the largest line, so
the title was "symptote". The PDFs are written here with pypdfium2, the logo as a form XObject as TeX includes one."""

from __future__ import annotations

import ctypes
import io

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from clew.corpus.ingest.formats.pdf import parse_pdf

HEIGHT = 792.0


def _text(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, text: str, size: float, top: float,
          font: bytes = b"Helvetica") -> None:
    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, font, size)
    encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 72, HEIGHT - top)
    raw.FPDFPage_InsertObject(page.raw, obj)


def cover_with_logo(*, logo_in_figure: bool) -> bytes:
    """A two-page manual: a cover with the title on two lines (20 pt, bold), a version line and a 30-pt logo word
    under them, drawn inside a form XObject (``logo_in_figure``) or as the page's own text; then a page of body text."""
    logo = pdfium.PdfDocument.new()
    pdf = pdfium.PdfDocument.new()
    cover = pdf.new_page(612, HEIGHT)
    _text(pdf, cover, "Asymptote: the Vector Graphics", 20, 230, b"Helvetica-Bold")
    _text(pdf, cover, "Language", 20, 257, b"Helvetica-Bold")
    _text(pdf, cover, "For version 2.85", 11, 280)
    if logo_in_figure:
        drawing = logo.new_page(200, 100)
        _text(logo, drawing, "symptote", 30, HEIGHT - 40)
        drawing.gen_content()
        xobject = raw.FPDF_NewXObjectFromPage(pdf.raw, logo.raw, 0)
        form = raw.FPDF_NewFormObjectFromXObject(xobject)
        raw.FPDFPageObj_Transform(form, 1, 0, 0, 1, 200, 300)
        raw.FPDFPage_InsertObject(cover.raw, form)
        raw.FPDF_CloseXObject(xobject)
    else:
        _text(pdf, cover, "symptote", 30, 350)
    cover.gen_content()
    page = pdf.new_page(612, HEIGHT)
    _text(pdf, page, "Asymptote is a descriptive vector graphics language.", 11, 100)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    logo.close()
    return buffer.getvalue()


def test_a_logo_drawn_as_text_in_a_figure_is_not_the_title() -> None:
    document = parse_pdf(cover_with_logo(logo_in_figure=True))
    assert document.title == "Asymptote: the Vector Graphics Language"  # its two lines, one left edge
    assert "Asymptote is a descriptive vector graphics language." in document.text


def test_the_largest_text_of_the_page_itself_is_still_the_title() -> None:
    """Only text inside a figure is passed over: the same word set by the page itself, larger than the rest, is the
    title as before (the first page's largest line). Centred lines of the title's size under it are not joined to it
    (camlidl-manual.pdf's "Camlidl user's manual" over "Version 1.04": test_pdf.py)."""
    assert parse_pdf(cover_with_logo(logo_in_figure=False)).title == "symptote"
