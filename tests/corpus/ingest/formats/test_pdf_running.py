"""PDF page edges: running headers and footers (``pdf_layout.drop_running_lines``), code going on over a page break."""

from __future__ import annotations

import re

import pytest

from clew.corpus.ingest.formats import pdf_layout
from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.pdf_layout import Line, Listing, continued_code, indented
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


def test_a_listing_going_on_over_a_page_break_is_one_code_block() -> None:
    """Starlette's WebSocket test example by Typst and Requests' SOCKS proxies by WeasyPrint broke at a page end
    into two code blocks, the imports apart from the test (task U28)."""
    def code(*texts: bytes, top: int) -> bytes:
        return b"BT /F2 9 Tf 72 %d Td 12 TL " % top + b" ".join(b"(" + t + b") Tj T*" for t in texts) + b" ET"
    first = lines(b"You can also test WebSocket sessions with the test client.", top=700) + b" " + code(
        b"from starlette.testclient import TestClient", b"from starlette.websockets import WebSocket", top=100)
    second = code(b"def test_app():", b"    client = TestClient(app)", top=740) + b" " + lines(
        b"The operations on the session are plain function calls.", top=680)
    document = parse_pdf(hand_pdf([first, second]))
    blocks = [document.text[block.start:block.end] for block in document.blocks if block.kind == "code"]
    assert blocks == ["```\nfrom starlette.testclient import TestClient\nfrom starlette.websockets import WebSocket\n"
                      "def test_app():\n    client = TestClient(app)\n```"]
    assert document.pages[1] < document.text.index("def test_app")


def test_page_numbers_a_hair_apart_across_a_rounding_boundary_are_one_height() -> None:
    """Page numbers set a little further in than the running band are the page's number where three pages print
    theirs at one height; the heights were rounded to 2 pt first, so 691.00 and 690.98 pt from the top (PDFium's
    float noise) fell on either side of a boundary and no height held three: the numbers read as text (task R18)."""
    pages = [lines(b"Each widget has a style and a size.", top=700) + b" BT /F1 9 Tf 300 %s Td (%d) Tj ET" % (y, n)
             for n, y in enumerate([b"101", b"101.02", b"101", b"101.02"], 1)]
    text = parse_pdf(hand_pdf(pages)).text
    assert text.count("Each widget has a style and a size.") == 4
    assert not any(digit in text for digit in "1234")



def _at(text: bytes, y: int, x: int = 72, size: int = 9) -> bytes:
    return b" BT /F1 %d Tf %d %d Td (%s) Tj ET" % (size, x, y, text)


def test_a_header_a_little_below_the_running_band_that_ends_with_the_page_number_is_dropped() -> None:
    """Ghostscript's colour management guide (MiKTeX pdfTeX) heads each page but its first with "Artifex Software
    Inc. www.artifex.com 3" 101 pt down a Letter page (12.8%, past the 10% band): it read as a paragraph on each of
    its 41 pages (task S4's sweep)."""
    body = [lines(b"Ghostscript manages colour with ICC profiles on page %d." % n, top=600) for n in range(4)]
    pages = [body[0]] + [b + _at(b"Artifex Software Inc. www.artifex.com %d" % n, 691) for n, b in enumerate(body) if n]
    text = parse_pdf(hand_pdf(pages)).text
    assert text.count("Ghostscript manages colour") == 4 and "Artifex" not in text


def test_the_ams_running_heads_and_a_first_page_number_at_the_foot_are_dropped() -> None:
    """The AMS packages' documentation (amsart, pdfTeX) heads even pages "2 THE AMSCD PACKAGE" and odd ones
    "3. IMPLEMENTATION 5" (section 3, page 5) 106 pt down a Letter page, and numbers the first page at its foot, 95 pt
    up (12%): all read as text in seven of the 37 TeX Live documents swept (task S4). A line there that begins with
    a number not the page's stays."""
    heads = [b"", b"2 THE WIDGET PACKAGE", b"2. USAGE 3", b"4 THE WIDGET PACKAGE"]
    pages = [lines(b"Widgets come in three sizes, told on page %d." % n, top=600) + (_at(head, 686) if head else b"")
             for n, head in enumerate(heads)]
    pages[0] += lines(b"Each size has its own box, lid and label, and a widget of one size fits no other box.",
                      top=560) + _at(b"1", 95, x=290)  # the text's middle
    pages[2] += _at(b"12 widgets fit in a box.", 100, size=11)
    text = parse_pdf(hand_pdf(pages)).text
    assert text.count("Widgets come in three sizes") == 4 and "12 widgets fit in a box." in text
    assert not re.search(r"PACKAGE|USAGE|^1$", text, re.MULTILINE)



def test_a_running_head_of_a_section_a_page_long_is_dropped_at_the_heads_height() -> None:
    """Apache FOP (Erlang's PDFs) heads each page with its section's title, 9.3% down the page: "1.3 Getting Started"
    on each of its pages went (at one height on three pages), but a section a page long ("1.1 Introduction") or a
    module's two pages ("ssl_crl_cache_api") kept theirs, read as a code block above the text: 15 of 16 Erlang PDFs
    (task S4's sweep). A page's first or last line at the height where half the pages' heads stand is one too."""
    heads = [b"1.1 Introduction", b"1.2 Getting Started", b"1.2 Getting Started", b"1.2 Getting Started", b"1.3 Usage"]
    pages = [lines(b"Widgets are started on page %d of the guide." % n, top=650) + _at(head, 718)
             for n, head in enumerate(heads)]
    text = parse_pdf(hand_pdf(pages)).text
    assert text.count("Widgets are started") == 5 and not re.search(r"Introduction|Getting Started|Usage", text)


def _code(*texts: bytes, top: int, x: int = 72, size: int = 9) -> bytes:
    return b"BT /F2 %d Tf %d %d Td %d TL " % (size, x, top, size + 3) + b" ".join(
        b"(" + t + b") Tj T*" for t in texts) + b" ET"


def _code_blocks(pages: list[bytes]) -> list[str]:
    document = parse_pdf(hand_pdf(pages))
    return [document.text[block.start:block.end] for block in document.blocks if block.kind == "code"]


def test_a_listings_lines_on_the_next_page_keep_their_indentation_from_its_left_edge() -> None:
    """The lines of a listing going on over a page break were indented from their own page's leftmost line, so a
    function's body continued on the next page lost its indentation (U28's leftover). A two-sided document's pages
    stand apart by their margins (Erlang's manuals: 14 pt), so the pages' margins place them (task R18)."""
    prose = (b"You can also test WebSocket sessions with the test client.", b"Use it as a context manager.",
             b"The session is closed on leaving the block.")
    for shift in (0, 14, -14):
        first = lines(*prose, top=700) + b" " + _code(b"def test_app():", b"    client = TestClient(app)", top=100)
        second = _code(b"    with client.websocket_connect(\"/\") as websocket:",
                       b"        data = websocket.receive_text()", top=740, x=72 + shift) + b" " + lines(
            b"The operations on the session are plain function calls.", b"Each waits for the application.",
            b"A test ends when the block does.", top=680).replace(b" 72 680 Td", b" %d 680 Td" % (72 + shift))
        assert _code_blocks([first, second]) == [
            "```\ndef test_app():\n    client = TestClient(app)\n    with client.websocket_connect(\"/\") as websocket:"
            "\n        data = websocket.receive_text()\n```"], shift


def test_two_listings_meeting_at_a_page_break_stay_apart_where_their_size_differs() -> None:
    """b3c3940 joined any code block opening a page to one that ended the page before: a listing, then on the next
    page its output in a smaller size, read as one (task R18)."""
    first = lines(b"Run the script and read what it prints.", top=700) + b" " + _code(
        b"for name in names:", b"    print(name)", top=100)
    smaller = _code(b"alice", b"bob", top=740, size=7) + b" " + lines(b"Each name is on a line of its own.", top=680)
    assert _code_blocks([first, smaller]) == ["```\nfor name in names:\n    print(name)\n```", "```\nalice\nbob\n```"]


def test_a_listing_over_many_pages_is_measured_line_by_line_not_whole_at_each_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """a773673 re-measured a listing's every line at each page it went on over (``indented`` of them all): a source
    listing of 400 pages of 60 lines took 2.0 s, 1,000 pages 12 s (review V8). Each line is measured once now, and
    each page's lines read as ``indented`` of the whole listing writes them (the median character width, the leftmost
    edge)."""
    def page(number: int) -> list[Line]:  # indents of 0-3 levels, a blank line, widths varying by page
        width = 5.4 + (number % 7) * 0.01
        return [Line(f"line {number}.{i}" if i % 9 else "", 9.0, False, True, 100.0 + 12 * i,
                     72.0 + (i % 4) * 4 * width - (number == 5), 72.0 + (i % 4) * 4 * width + 9 * width)
                for i in range(30)]
    pages = [page(number) for number in range(40)]
    whole = [indented([line for lines in pages[: number + 1] for line in lines])[-30:] for number in range(40)]
    measured: list[int] = []
    char_widths = pdf_layout._char_widths
    monkeypatch.setattr(pdf_layout, "_char_widths", lambda lines: measured.append(len(lines)) or char_widths(lines))
    listing = Listing()
    listing.start(pages[0], 72.0)
    assert [continued_code(listing, lines, 72.0) for lines in pages[1:]] == whole[1:]
    assert sum(measured) == 40 * 30
