"""groff's PDF of a man page (``groff -man -Tpdf``, task R13): its ``.SH`` headings bold in 10.9 pt at the left margin
(72 pt), its text in 10 pt indented under them (108 pt), its ``.SS`` subheadings bold in 10 pt between the two (87
pt), and an option's or command's name (``.TP``) bold in 10 pt on the text's edge with its description further in
(128 pt). The subheadings read as the first words of the paragraph under them ("Proxy Configuration The environment
variable http_proxy ..."); the names must stay text."""

from __future__ import annotations

import ctypes
import io

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from clew.corpus.ingest.formats.pdf import parse_pdf

HEIGHT = 792.0
BOLD, ROMAN = b"Times-Bold", b"Times-Roman"


def _man_page(rows: list[tuple[str, float, bytes]]) -> bytes:
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, HEIGHT)
    top = 84.0
    for text, x, font in rows:
        heading = text.isupper()  # NAME, OPTIONS: the .SH headings
        top += 16.8 if heading or (font == BOLD and x < 108) else 12.0
        obj = raw.FPDFPageObj_NewTextObj(pdf.raw, font, 10.9 if heading else 10)
        encoded = ctypes.create_string_buffer((text + "\x00").encode("utf-16-le"))
        raw.FPDFText_SetText(obj, ctypes.cast(encoded, ctypes.POINTER(ctypes.c_ushort)))
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, HEIGHT - top)
        raw.FPDFPage_InsertObject(page.raw, obj)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    return buffer.getvalue()


ROWS = [
    ("NAME", 72, BOLD), ("apt-transport-http - APT transport for downloading via HTTP", 108, ROMAN),
    ("COMMANDS", 72, BOLD),
    ("autoremove", 108, BOLD), ("autoremove is used to remove packages that were automatically installed", 128, ROMAN),
    ("to satisfy dependencies for other packages and are now no longer needed.", 128, ROMAN),
    ("OPTIONS", 72, BOLD),
    ("Various options can be set in an apt.conf(5) file to modify its behavior.", 108, ROMAN),
    ("Proxy Configuration", 87, BOLD),
    ("The environment variable http_proxy is supported for system wide configuration.", 108, ROMAN),
    ("--no-cache", 108, BOLD), ("Tells the proxy not to use its cached response under any circumstances.", 128, ROMAN),
    ("Connection Configuration", 87, BOLD),
    ("The option Acquire::http::Timeout sets the timeout timer used by the method.", 108, ROMAN),
]


def test_a_man_pages_subheadings_are_headings_under_its_sections() -> None:
    """apt-transport-http(1)'s "Proxy Configuration" opened the paragraph under it; now a heading one level under
    OPTIONS, and the paragraph its text."""
    document = parse_pdf(_man_page(ROWS))
    headings = [(section.heading, section.level) for section in document.sections if section.level]
    assert headings == [("NAME", 1), ("COMMANDS", 1), ("OPTIONS", 1), ("Proxy Configuration", 2),
                        ("Connection Configuration", 2)]
    assert "\n\nThe environment variable http_proxy is supported" in document.text
    assert "Proxy Configuration The environment" not in document.text


def test_an_option_name_on_the_texts_edge_stays_text() -> None:
    """apt-get's ``autoremove`` and an option ``--no-cache`` are bold at the text's edge (108 pt), their descriptions
    further in: no heading, whether the section opens with one (COMMANDS) or not (OPTIONS)."""
    document = parse_pdf(_man_page(ROWS))
    names = {section.heading for section in document.sections}
    assert "autoremove" not in names and "--no-cache" not in names
    assert "autoremove" in document.text and "--no-cache" in document.text


def test_a_bold_line_where_headings_and_text_share_their_edge_stays_text() -> None:
    """Where the text under the headings starts on their edge (LaTeX's, texinfo's), no line is between: a bold line
    in the body's size a little in stays text."""
    rows = [(text, 72 if x == 108 else (96 if x == 87 else x), font) for text, x, font in ROWS]
    headings = [section.heading for section in parse_pdf(_man_page(rows)).sections]
    assert "Proxy Configuration" not in headings
