"""The PDF reader on pages cut from real LaTeX package documentation (task R22: the leftovers of tasks E7 and L1).
The fixtures and their licences: ``tests/fixtures/pdf/README.md``."""

from __future__ import annotations

from clew.corpus.ingest.formats.pdf import parse_pdf
from tests.conftest import FIXTURES

PDFS = FIXTURES / "pdf"


def _blocks(name: str) -> list[tuple[str, str]]:
    document = parse_pdf((PDFS / name).read_bytes())
    return [(block.kind, document.text[block.start:block.end].strip()) for block in document.blocks]


def test_text_scaled_by_its_matrix_reads_at_its_size_not_as_one_point_letters() -> None:
    """txfontsdoc's first page (Acrobat Distiller from dvips) sets every font at size 1 and scales it by the text
    matrix (10.91 for the body). Read at size 1, a capital after a letter stood more than a size away, a margin note,
    and each line was a paragraph of its own: "The T" / "X Fonts", "3 A Problem: D" / "V" / "I" / "P" / "S Partial
    ...". At the font's size times its matrix's scale the title is the page's heading and each contents entry one
    line."""
    blocks = _blocks("txfonts-distiller.pdf")
    assert blocks[0] == ("heading", "# The TX Fonts [∗]")
    texts = [text for _, text in blocks]
    assert "3 A Problem: DVIPS Partial Font Downloading 3" in texts
    assert "7.3 PDFTEX/PDFLATEX and Standard Postscript Fonts … 9" in [text.strip() for text in texts]
    assert not [text for text in texts if len(text) == 1]
    assert ("heading", "## Contents") in blocks


def test_a_footnote_symbol_after_a_word_reads_as_a_mark_as_a_number_does() -> None:
    """LaTeX marks a title's ``\\thanks`` with a symbol, raised and smaller, set against the word: "The textcase
    package∗", "David Carlisle†", their notes "∗This file has version number ..." at the page's foot. A number reads
    " [2]"; the symbol stayed glued to its word. Now " [∗]", and the notes still open with their symbols."""
    blocks = _blocks("textcase-footnotes.pdf")
    assert blocks[0] == ("heading", "# The textcase package [∗]")
    assert blocks[1] == ("heading", "### David Carlisle [†] 2022/07/10")
    texts = [text for _, text in blocks]
    assert any(text.startswith("∗This file has version number") for text in texts)
    assert any(text.startswith("†Reorganisation") for text in texts)
    assert _blocks("txfonts-distiller.pdf")[0] == ("heading", "# The TX Fonts [∗]")


def test_a_page_number_above_the_bottom_band_is_dropped_where_it_runs_with_the_pages() -> None:
    """booktabs (LaTeX's article on A4 paper, a text block for letter's) prints its page numbers 83% down the page,
    above the bands where running lines are looked for (the bottom 10%, a bare number the bottom 15%): each stayed as
    a paragraph "2", "3", "4", and the page's text going on over the break stopped at it. A page's lowest line that
    is a bare number, centred, running with the page index, is the page number wherever it stands; the paragraph goes
    on over the page break. The footnote's mark "3" set on a line of its own mid-page stays."""
    document = parse_pdf((PDFS / "booktabs-pages.pdf").read_bytes())
    texts = [document.text[block.start:block.end].strip() for block in document.blocks]
    assert [text for text in texts if text.isdigit()] == ["3"]
    assert any("you could use struts to improve the spacing. But you should not have to think" in text
               for text in texts)


def test_a_footnote_set_in_typewriter_type_is_a_note_not_code() -> None:
    """camlidl's manual (LaTeX) gives a URL as a footnote, its raised number a line of its own and its text in
    typewriter type: "1 http://caml.inria.fr/ocaml/htmlman/index.html" was a one-line code block (the extract scores
    code 0), as were etoolbox's, grffile's and lineno's notes. A note is prose whatever its face: a paragraph, and the
    next page's text does not join it."""
    blocks = _blocks("camlidl-manual.pdf")
    assert ("paragraph", "1 http://caml.inria.fr/ocaml/htmlman/index.html") in blocks
    assert ("paragraph", "2 http://msdn.microsoft.com") in blocks
    assert any(kind == "paragraph" and text.startswith("programs, either by dynamic linking") for kind, text in blocks)


def test_a_typewriter_note_s_next_line_is_prose_too() -> None:
    """polyglossia's note 10 is a URL in typewriter type over two lines, its number hung left of the second: the first
    line read as a note since the note rule above, its rest "hyphenation-styles" stayed code; and on a page whose
    number is left in (a page cut alone), the note was not below every line of the body's size, so code. Both are
    prose now."""
    blocks = _blocks("polyglossia-note.pdf")
    url = "https://github.com/gregorio-project/hyphen-la/blob/master/doc/README.md#"
    assert ("paragraph", f"10 Refer to {url}") in blocks
    assert ("paragraph", "hyphenation-styles") in blocks
    assert not [text for kind, text in blocks if kind == "code"]
