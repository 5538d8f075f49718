"""PDFs printed from HTML by engines that paint code boxes and list markers after a page's other text (task U28)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.formats.pdf_order import painted_in_layers, reading_order
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf, lines

FIXTURES = Path(__file__).parents[3] / "fixtures" / "pdf"


def _blocks(document: ParsedDocument) -> list[tuple[str, str]]:
    ends = [block.start for block in document.blocks[1:]] + [len(document.text)]
    return [(block.kind, " ".join(document.text[block.start:end].split()))
            for block, end in zip(document.blocks, ends, strict=True)]


def _section_of(document: ParsedDocument, needle: str) -> str:
    at = document.text.index(needle)
    return [section.heading for section in document.sections if section.start <= at][-1]


def test_weasyprint_code_blocks_and_bullets_read_where_the_page_shows_them() -> None:
    document = parse_pdf((FIXTURES / "weasyprint-order.pdf").read_bytes())
    blocks = _blocks(document)
    assert blocks[1:5] == [
        ("paragraph",
         "Begin by importing the widget module and opening a connection to the server you want to talk to."),
        ("code", '``` >>> import widget >>> conn = widget.connect("localhost", timeout=5) ```'),
        ("paragraph",
         "The connection stays open until you close it. Widget supports these features out of the box:"),
        ("list_item", "• Keep-alive and connection pooling")]
    assert blocks[5:7] == [("list_item", "• Automatic retries on reset connections"),
                           ("list_item", "• Streaming uploads")]
    assert blocks[-3:] == [
        ("paragraph", "Pass a timeout in seconds to stop waiting for a response that never comes:"),
        ("code", '``` >>> conn.get("/status", timeout=0.5) ```'),
        ("paragraph", "Nearly all production code should set a timeout on every request.")]
    assert _section_of(document, "import widget") == "Quickstart"


def test_wkhtmltopdf_code_blocks_read_in_their_sections() -> None:
    document = parse_pdf((FIXTURES / "wkhtmltopdf-order.pdf").read_bytes())
    blocks = _blocks(document)
    assert blocks[2] == ("code", '``` >>> import widget >>> conn = widget.connect("localhost", timeout=5) ```')
    assert blocks[-2:] == [("code", '``` >>> conn.get("/status", timeout=0.5) ```'),
                           ("paragraph", "Nearly all production code should set a timeout on every request.")]
    assert _section_of(document, "import widget") == "Quickstart"
    assert _section_of(document, 'conn.get("/status"') == "Timeouts"


def test_only_an_html_engine_s_pdf_is_reordered() -> None:
    assert painted_in_layers({"Producer": "WeasyPrint 70.0"})
    assert painted_in_layers({"Creator": "wkhtmltopdf 0.12.6", "Producer": "Qt 5.15.8"})
    assert not painted_in_layers({"Producer": "pdfTeX-1.40.24", "Creator": "LaTeX with hyperref"})
    assert not painted_in_layers({})
    # a page drawn out of order by anything else (a TeX figure's labels) keeps PDFium's order
    page = lines(b"The first paragraph of the page.", b"The second paragraph of the page.", top=400) + b" " + lines(
        b"A label drawn above them.", top=700)
    assert parse_pdf(hand_pdf([page])).text.index("second paragraph") < parse_pdf(hand_pdf([page])).text.index(
        "A label")


def _line(text: str, y: float, x: float, right: float) -> Line:
    return Line(text, 10.0, False, False, y, x, right)


def test_a_page_set_in_two_columns_keeps_its_order() -> None:
    left = [_line(f"left column line {n} of prose that fills it", 100 + 12 * n, 50, 290) for n in range(5)]
    right = [_line(f"right column line {n} of prose that fills it", 100 + 12 * n, 310, 550) for n in range(5)]
    painted = [*left, *right, _line("A box painted last", 60, 50, 550)]
    assert reading_order(painted) == painted


def test_lines_on_one_baseline_read_left_to_right_and_a_marker_joins_its_text() -> None:
    painted = [_line("Intro paragraph", 100, 50, 300), _line("First item", 112, 70, 200), _line("Second item", 124, 70,
               210), _line("After the list", 136, 50, 250), _line("1.", 112, 52, 62), _line("2.", 124, 52, 62)]
    assert [line.text for line in reading_order(painted)] == ["Intro paragraph", "1. First item", "2. Second item",
                                                              "After the list"]
    assert reading_order(painted)[1].x == 52


def test_a_print_page_s_table_of_contents_heading_is_no_title() -> None:
    """wkhtmltopdf on unpatched Qt writes no Title metadata, and a site's print page opens with its contents."""
    contents = b"BT /F1 20 Tf 72 720 Td (Table of Contents) Tj ET " + lines(b"1. Introduction", b"2. Installation",
                                                                            top=690)
    chapter = b"BT /F1 20 Tf 72 720 Td (Introduction) Tj ET " + lines(
        b"Griffe reads Python source code and inspects objects at runtime.", top=690)
    assert parse_pdf(hand_pdf([contents, chapter])).title == "Introduction"


def test_a_line_opening_with_smaller_inline_code_goes_on_with_its_paragraph() -> None:
    """A browser sets ``code`` at 0.85-0.9 em: a line that opened with it was measured at that size, and its
    paragraph broke in three there (Requests' "If you change the encoding ..." by WeasyPrint)."""
    document = parse_pdf((FIXTURES / "weasyprint-code-spans.pdf").read_bytes())
    assert [kind for kind, _ in _blocks(document)] == ["heading", "paragraph", "paragraph"]
    assert "the new value of r.encoding whenever you call r.text. You might want" in document.text


def test_wkhtmltopdf_s_drawn_discs_make_list_items() -> None:
    """Qt paints a ``ul``'s discs as paths, no text: the three features read as one paragraph with the sentence
    that introduces them (task U28)."""
    blocks = _blocks(parse_pdf((FIXTURES / "wkhtmltopdf-order.pdf").read_bytes()))
    assert blocks[3:7] == [
        ("paragraph", "The connection stays open until you close it. Widget supports these features out of the box:"),
        ("list_item", "• Keep-alive and connection pooling"), ("list_item", "• Automatic retries on reset connections"),
        ("list_item", "• Streaming uploads")]
