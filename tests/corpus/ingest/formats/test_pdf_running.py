"""PDF running headers and footers: what is one and what is not (``pdf_layout.drop_running_lines``)."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf, lines


def test_a_heading_at_the_top_of_two_pages_and_the_foot_of_a_third_is_no_running_header() -> None:
    """wkhtmltopdf's margins are narrow: Griffe's two chapters titled "Docstrings" open their pages and a section
    "Docstrings" fell at the foot of another, all three in the pages' outer tenth, and all three were dropped as a
    running header. One recurs at one height; the header above them all still goes."""
    def page(top: bytes, body: bytes, foot: bytes = b"") -> bytes:
        header = b"BT /F1 9 Tf 72 770 Td (Widget manual) Tj ET "
        heading = b"BT /F1 16 Tf 72 %d Td (Docstrings) Tj ET " % (742 if top else 32)
        return header + (heading if top else b"") + lines(body, top=700) + (heading if foot else b"")
    pages = [page(b"top", b"Each has a style."), page(b"top", b"Each style has its sections."),
             page(b"", b"Each object has a docstring.", foot=b"foot")]
    text = parse_pdf(hand_pdf(pages)).text
    assert text.count("Docstrings") == 3 and "Widget manual" not in text
