"""How the PDF reader assembles lines from PDFium's characters (task R12, U16's leftovers on dblatex's and
luaotfload's manuals). The PDFs are written by hand (``test_pdf_text.hand_pdf``)."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf
from tests.conftest import FIXTURES
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf, lines


def test_a_running_header_joined_to_turned_text_under_it_is_still_a_running_header() -> None:
    """dblatex's manual sets a wide table turned a quarter (a landscape page); PDFium puts no line break between the
    page's running header and the turned text, and the header read as the table's first words: "DocBook to LaTeX
    Publishing 27 / 127 Column 1 Column 2 ...". The line is cut where the text turns; the header is chrome again."""
    def page(number: int, body: bytes) -> bytes:
        return b"BT /F1 10 Tf 72 750 Td (Publishing Guide %d / 5) Tj ET " % number + body

    turned = (b"BT /F1 10 Tf 0 -1 1 0 80 700 Tm (Column 1) Tj 0 -1 1 0 80 560 Tm (Column 2) Tj "
              b"0 -1 1 0 92 700 Tm (left aligned) Tj 0 -1 1 0 92 560 Tm (right aligned) Tj ET")
    pages = [page(number, lines(b"Body text of page %d goes here." % number)) for number in (1, 2, 4, 5)]
    pages.insert(2, page(3, turned))
    text = parse_pdf(hand_pdf(pages)).text
    assert "Publishing Guide" not in text
    assert "Column 1 Column 2 left aligned right aligned" in text


def test_a_logo_with_a_mirrored_glyph_reads_in_the_order_its_glyphs_are_set() -> None:
    """TeX's XeTeX logo sets a mirrored E, lowered, between its X and its T; PDFium reads the characters in the order
    they are drawn and makes up a space: "X TEEX" (luaotfload's manual, 18 times). The word reads left to right,
    "XETEX", as the TeX logo reads "TEX"; capitals after a capital and a space, no glyph mirrored, stay as they are."""
    content = (b"BT /F1 10 Tf 72 700 Td (Loading fonts the ) Tj ET BT /F1 10 Tf 157 700 Td (X) Tj ET "
               b"BT /F1 10 Tf 1 0 0 1 170 700 Tm (T) Tj 1 0 0 1 175.5 698 Tm (E) Tj "
               b"1 0 0 1 181 700 Tm (X way, as in A BC, is allowed too.) Tj ET "
               b"BT /F1 10 Tf -1 0 0 1 170 698 Tm (E) Tj ET")
    assert parse_pdf(hand_pdf([content])).text == "Loading fonts the XETEX way, as in A BC, is allowed too."


def test_a_footnote_reads_with_its_number_and_each_note_is_a_paragraph() -> None:
    """A page's footnotes (task S4's sweep, P1): ltfilehook-doc's fourth page (LaTeX 2022, pdfTeX) sets note 1's raised
    number where PDFium reads it as a line of its own, above its note's baseline, as texinfo does in R's five
    manuals; note 2's number PDFium reads with its text, "2For that reason". Each read as the paragraph "1" and the
    two notes as one paragraph ("... in front of the \\include. 2For that reason ..."). Now each note is a paragraph,
    opened by its number."""
    document = parse_pdf((FIXTURES / "pdf" / "ltfilehook-footnotes.pdf").read_bytes())
    paragraphs = [document.text[b.start : b.end] for b in document.blocks if b.kind == "paragraph"]
    assert "1" not in paragraphs
    assert ("1 If you want to execute code before the first \\clearpage there is no need to use a hook—you can write "
            "it directly in front of the \\include.") in paragraphs
    assert any(text.startswith("2 For that reason another \\clearpage is executed after these hooks") for text in
               paragraphs)
    assert "but before is has switched back writing to the main .aux file." in document.text  # the text above stays


def test_footnotes_marked_with_symbols_are_paragraphs_of_their_own() -> None:
    """LaTeX marks a title's ``\\thanks`` with symbols (∗ † ‡ ...), not numbers: textcase's first page (texlive's
    documentation, pdfTeX) sets "∗This file has version number v1.03" and "†Reorganisation to suppport ...", each
    raised and smaller, over two lines at the page's foot. They read as one paragraph, the second note glued to the
    first (as on everysel's, everyshi's, grffile's and ragged2e's first pages: task L1). Each is now a paragraph,
    opened by its symbol, as a numbered note is by its number."""
    document = parse_pdf((FIXTURES / "pdf" / "textcase-footnotes.pdf").read_bytes())
    paragraphs = [document.text[b.start : b.end] for b in document.blocks if b.kind == "paragraph"]
    assert "∗This file has version number v1.03, last revised 2022/07/10." in paragraphs
    assert ("†Reorganisation to suppport skipping a wider class of things than just math done by Donald Arseneau"
            in paragraphs)
    assert any(text.startswith("If, instead, the standard \\MakeUppercase were used here") for text in paragraphs)


def test_text_going_on_over_a_page_break_does_not_join_the_page_s_footnote() -> None:
    """A page whose body stops mid-sentence above its footnotes: the next page's first line ("goes on here") was read
    as the last note's ("... Maintained by Marei Peischl goes on here"; textcase's "which produces" after its
    "†Reorganisation ..." note, task L1), and the notes, marked with symbols, as one paragraph. Each note is a
    paragraph, opened by its symbol as it is, and the text that goes on is a paragraph of its own."""
    foot = (b"BT /F1 6 Tf 72 100 Td 3 Ts (*) Tj 0 Ts /F1 8 Tf (The version number of this file is v2.1.) Tj ET "
            b"BT /F1 6 Tf 72 90 Td 3 Ts (\xb2) Tj 0 Ts /F1 8 Tf (Maintained by Marei Peischl) Tj ET")
    document = parse_pdf(hand_pdf([
        lines(b"The name is a tribute to the file-naming convention of certain systems.",
              b"Sometimes a section of text should not be uppercased: mark it with a command, and the text") + foot,
        lines(b"goes on here, after the break, as the reader expects."),
    ]))
    assert [document.text[b.start : b.end] for b in document.blocks] == [
        "The name is a tribute to the file-naming convention of certain systems. Sometimes a section of text should "
        "not be uppercased: mark it with a command, and the text",
        "*The version number of this file is v2.1.",
        "\u2020Maintained by Marei Peischl",
        "goes on here, after the break, as the reader expects.",
    ]


def test_a_paragraph_opening_with_a_number_or_a_section_sign_goes_on_over_the_page_break() -> None:
    """The page's last block is a note or a page number where it opens with a number or a symbol and then a capital
    (``2 For that reason``, ``†Reorganisation``) or is the number alone; a paragraph of the text that opens with a
    quantity ("10 seconds is ...") or a section sign ("§ 12 applies ...") goes on over the break as any other does
    (review V14: each read the next page's words as a paragraph of their own)."""
    for first in (b"10 seconds is the default timeout of every request made by the client, after which the",
                  b"\xa7 12 applies to every contract signed before the date given above, and the"):
        document = parse_pdf(hand_pdf([lines(b"Some text above on a line of its own.") + b" " + lines(first, top=600),
                                       lines(b"connection is closed and the request fails.")]))
        assert [document.text[b.start : b.end] for b in document.blocks][1:] == [
            first.decode("latin-1") + " connection is closed and the request fails."]
    note = b"BT /F1 6 Tf 72 100 Td 3 Ts (3) Tj 0 Ts /F1 8 Tf (The version number of this file is v2.1.) Tj ET"
    document = parse_pdf(hand_pdf([lines(b"The text stops in the middle of a sentence and the") + b" " + note,
                                   lines(b"sentence goes on here, after the break.")]))
    assert [document.text[b.start : b.end] for b in document.blocks] == [
        "The text stops in the middle of a sentence and the", "3 The version number of this file is v2.1.",
        "sentence goes on here, after the break."]
