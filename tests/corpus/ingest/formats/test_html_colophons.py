"""Colophons and footnotes of the GNU and LaTeX converters (task R6, issue 36): texi2any's "This document was
generated ... using texi2any" footer and its footnotes, HeVeA's footer and its footnotes. tests/fixtures/html/README.md
says where each fixture comes from; docs/measurements/generators-2026-12-06.md what was checked."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline


def test_a_texi2any_page_has_no_colophon_and_its_footnote_reads_as_one_paragraph() -> None:
    """texi2any 6.8 (``-c PROGRAM_NAME_IN_FOOTER=1``) ends every page with "This document was generated on *date*
    using texi2any.", which was the page's last passage; a footnote's number (``h5``, "(1)") was a heading over its
    text, and the mark in the text was glued to its word ("files1")."""
    document = load_html("texi2any/frob.html")
    assert "generated" not in document.text and "December" not in document.text
    assert "which frobs files [1]." in document.text
    paragraphs = block_texts(document, "paragraph")
    assert paragraphs[-1] == "[1] A frobbed file is one that was changed on purpose."
    assert [heading for heading, _, _ in outline(document)][-1] == "Footnotes"
    assert "(1)" not in document.text


def test_the_texinfo_footer_is_kept_on_another_generator_s_page() -> None:
    """The footer is taken out of pages whose ``meta`` names texi2any or makeinfo only: a page that quotes it
    (another generator's, or none) keeps it as text."""
    footer = ('<p><font size="-1">\n  This document was generated on <em>December 6, 2026</em> using '
              '<a href="https://example.invalid/texinfo/"><em>texi2any</em></a>.\n</font></p>')
    page = f"<html><head><title>T</title></head><body><h1>T</h1><p>Text.</p>{footer}</body></html>"
    assert parse_html(page).text.endswith("using texi2any.")
    texinfo = page.replace("<title>", '<meta name="Generator" content="texi2any"><title>')
    assert parse_html(texinfo).text.endswith("Text.")
    seven = texinfo.replace('<font size="-1">', '<span class="program-in-footer">').replace("</font>", "</span>")
    assert parse_html(seven).text.endswith("Text.")


def test_a_hevea_page_has_no_colophon_and_its_footnote_reads_as_one_paragraph() -> None:
    """HeVeA 2.36: its notes (``dl.thefootnotes``, the number the term) read "[1]" and the text as two paragraphs,
    where docutils' read "[1] text"; "This document was translated from LaTeX by HeVeA." was the last passage."""
    document = load_html("hevea/budgets.html")
    assert block_texts(document, "paragraph")[-1] == "[1] See how a run ends."
    assert "translated" not in document.text and "HEVEA" not in document.text
    assert document.text.endswith("A budget stops the walk only when it binds.\n\n[1] See how a run ends.")
