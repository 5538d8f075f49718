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
          font: bytes = b"Helvetica", x: float = 72) -> None:
    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, font, size)
    encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, HEIGHT - top)
    raw.FPDFPage_InsertObject(page.raw, obj)


def _saved(pdf: pdfium.PdfDocument) -> bytes:
    """``pdf`` as a file's bytes (and closed)."""
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    return buffer.getvalue()


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
    saved = _saved(pdf)
    logo.close()
    return saved


def test_a_logo_drawn_as_text_in_a_figure_is_not_the_title() -> None:
    document = parse_pdf(cover_with_logo(logo_in_figure=True))
    assert document.title == "Asymptote: the Vector Graphics Language"  # its two lines, one left edge
    assert "Asymptote is a descriptive vector graphics language." in document.text


def test_the_largest_text_of_the_page_itself_is_still_the_title() -> None:
    """Only text inside a figure is passed over: the same word set by the page itself, larger than the rest, is the
    title as before (the first page's largest line). Centred lines of the title's size under it are not joined to it
    (camlidl-manual.pdf's "Camlidl user's manual" over "Version 1.04": test_pdf.py)."""
    assert parse_pdf(cover_with_logo(logo_in_figure=False)).title == "symptote"


def _placed(pdf: pdfium.PdfDocument, page: pdfium.PdfPage, text: str, size: float, top: float, align: str) -> None:
    """``text`` on a line whose left edge (``align="left"``), right edge (``"right"``, at 540 pt) or centre
    (``"centre"``, 306 pt: a 612-pt page's) is set."""
    obj = raw.FPDFPageObj_NewTextObj(pdf.raw, b"Helvetica-Bold", size)
    encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
    raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
    left, bottom, right, top_edge = (ctypes.c_float() for _ in range(4))
    raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top_edge)
    width = right.value - left.value
    x = {"left": 72.0, "right": 540.0 - width, "centre": 306.0 - width / 2}[align]
    raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, HEIGHT - top)
    raw.FPDFPage_InsertObject(page.raw, obj)


def cover(first: str, second: str, align: str) -> bytes:
    """A cover whose 24-pt title is ``first`` over ``second`` (aligned by ``align``, 29 pt apart), then a page of
    11-pt body text from 72 to 540 pt (a text block 468 pt wide)."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    _placed(pdf, page, first, 24, 600, align)
    _placed(pdf, page, second, 24, 629, align)
    page.gen_content()
    page = pdf.new_page(612, HEIGHT)
    for row in range(8):
        _text(pdf, page, "The release handler keeps a system running while its code is upgraded in place, "
                         "one module at a time.", 11, 100 + 14 * row)
    page.gen_content()
    return _saved(pdf)


def test_a_title_wrapped_on_its_right_edge_or_centre_is_read_whole() -> None:
    """Erlang/OTP's manuals (Debian's erlang-doc 25.2.3) set a long title flush right on two lines: sasl-4.2.pdf's
    "System Architecture Support Libraries" over "(SASL)" was titled by its first line. A line of the title's size
    under it on its right edge or centre continues it where the line above fills 0.6 of the text block or more."""
    assert parse_pdf(cover("System Architecture Support Libraries", "(SASL)", "right")).title == (
        "System Architecture Support Libraries (SASL)")
    assert parse_pdf(cover("Simple Network Management Protocol", "(SNMP)", "centre")).title == (
        "Simple Network Management Protocol (SNMP)")


def test_a_short_centred_title_over_a_version_line_stays_alone() -> None:
    """camlidl-manual.pdf's centred "Camlidl user's manual" (0.33 of its text block) over "Version 1.04" in the same
    size: a short line did not wrap, so the line under it is no part of it."""
    assert parse_pdf(cover("Camlidl user's manual", "Version 1.04", "centre")).title == "Camlidl user's manual"
    assert parse_pdf(cover("Camlidl user's manual", "Version 1.04", "right")).title == "Camlidl user's manual"


def man_page(name: str) -> bytes:
    """A man page as ``groff -man -Tpdf`` writes one (task U21, apt's pages): no Title metadata, no outline, the
    headings bold in 10.9 pt over the body's 10 at the left margin, each paragraph indented under its heading."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    rows = [("NAME", 72, b"Times-Bold"), (name, 108, b"Times-Roman"), ("SYNOPSIS", 72, b"Times-Bold"),
            ("apt-get [-asqdyfmubV] [-o=config_string] {update | upgrade | install pkg}", 108, b"Times-Roman"),
            ("DESCRIPTION", 72, b"Times-Bold"),
            ("apt-get is the command-line tool for handling packages.", 108, b"Times-Roman")]
    for row, (text, x, font) in enumerate(rows):
        _text(pdf, page, text, 10.9 if x == 72 else 10, 100 + 14 * row, font, x)
    page.gen_content()
    return _saved(pdf)


def test_a_man_page_is_titled_by_its_name_paragraph_not_its_first_heading() -> None:
    """groff's PDF of apt-get(8) was titled "NAME" (its first heading, the first of the largest lines); its NAME
    paragraph names it, as html_man titles a pod2html page. The NAME heading and its paragraph stay in the text."""
    document = parse_pdf(man_page("apt-get - APT package handling utility -- command-line interface"))
    assert document.title == "apt-get - APT package handling utility -- command-line interface"
    assert "NAME\n\napt-get - APT package handling utility" in document.text
