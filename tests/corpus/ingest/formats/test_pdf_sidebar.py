"""A page printed by an HTML engine with a sidebar beside its text (``pdf_order``, task V7)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.formats.pdf_order import reading_order

FIXTURES = Path(__file__).parents[3] / "fixtures" / "pdf"


def _line(text: str, y: float, x: float, right: float) -> Line:
    return Line(text, 10.0, False, False, y, x, right)


def test_a_sidebar_beside_the_text_is_read_apart_from_it() -> None:
    """A site's sidebar of short links (each under a quarter of the text's width) beside its text, printed by
    wkhtmltopdf with a code box painted last: sorted top to bottom, each link was read between two lines of the text
    ("Advanced usage" inside the first paragraph, "Community" inside the code); now the sidebar, then the text with
    its code where the page shows it. Each link and each paragraph is a <p> of its own in the page printed, and reads
    as one since sizes are the font's times its matrix's scale (wkhtmltopdf's 15 x 0.576, task R22)."""
    document = parse_pdf((FIXTURES / "wkhtmltopdf-sidebar.pdf").read_bytes())
    ends = [block.start for block in document.blocks[1:]] + [len(document.text)]
    blocks = [(block.kind, " ".join(document.text[block.start:end].split()))
              for block, end in zip(document.blocks, ends, strict=True)]
    assert blocks == [
        *[("paragraph", link) for link in ("Navigation", "Quickstart", "Advanced usage", "Authentication",
                                           "Community", "API reference")],
        ("heading", "# Quickstart"),
        ("paragraph", "Begin by importing the widget module and opening a connection to the server you want to talk "
                      "to, with the options that suit it best."),
        ("code", '``` >>> import widget >>> conn = widget.connect("localhost", timeout=5) ```'),
        ("paragraph", "The connection stays open until you close it, and every request you send goes over it without "
                      "a new handshake."),
        ("paragraph", "Pass a timeout in seconds to stop waiting for a response that never comes, as every production "
                      "client should.")]


def test_blocks_that_no_line_crosses_are_each_put_in_order_and_a_table_s_cells_in_rows() -> None:
    side = [_line(name, 100 + 19 * n, 14, 60 + 4 * n) for n, name in enumerate(("Home", "Guide", "API", "About"))]
    text = [_line(f"line {n} of the page's text beside the sidebar", 100 + 10 * n, 140, 560) for n in range(6)]
    code = _line(">>> code painted last", 125, 144, 300)
    assert reading_order([*side, *text, code]) == [*side, *text[:3], code, *text[3:]]
    # a table's cells stand on the baselines of the cells beside them: rows, read top to bottom, left to right
    cells = [_line(f"cell {row} {column}", 100 + 12 * row, 50 + 150 * column, 120 + 150 * column)
             for column in range(3) for row in range(4)]
    assert reading_order([*cells, _line("1.", 60, 30, 40)]) == [_line("1.", 60, 30, 40), *sorted(
        cells, key=lambda line: (line.y, line.x))]
    # a list's markers stand apart from their items, and a paragraph above crosses the gap: reordered
    items = [_line(f"item {n}", 112 + 12 * n, 70, 200) for n in range(3)]
    markers = [_line("•", 112 + 12 * n, 52, 58) for n in range(3)]
    listed = [_line("The paragraph over the list", 100, 50, 300), *items, *markers]
    assert [line.text for line in reading_order(listed)] == ["The paragraph over the list", "• item 0", "• item 1",
                                                             "• item 2"]
