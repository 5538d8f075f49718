"""LaTeX converted to HTML (task R4, issue 36): LaTeX2HTML 2023 (Debian's latex2html, ``latex2html -noimages -split
0``) and TeX4ht (Debian's texlive-plain-generic, ``htlatex``; ``"html,2"`` split into pages) of a LaTeX article
written for the tests after clew's docs/concepts/budgets.md: tables of contents, colophon and page links are not
text."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts, load_html


def test_a_latex2html_page_reads_without_its_contents_and_colophon() -> None:
    """LaTeX2HTML writes the page's own table of contents (``ul.TofC``, its sections as same-page links) under
    "Contents", and ends every document with "About this document ...": its title, "This document was generated
    using the LaTeX2HTML translator Version 2023", the command line and the date."""
    document = load_html("latex2html/budgets.html")
    assert document.title == "Budgets"
    assert [s.heading for s in document.sections] == [
        "Budgets", "Budgets", "Contents", "Budgets", "In detail", "Bounds on every request", "Footnotes"]
    for chrome in ("About this document", "LaTeX2HTML", "command line", "translation was initiated"):
        assert chrome not in document.text, chrome
    assert block_texts(document, "list_item") == ["- one", "- two"]
    assert "| max_tool_calls | 20 | 1-20 |" in block_texts(document, "table_row")


def test_the_colophon_is_kept_on_another_generators_page() -> None:
    """Only a page converted by LaTeX2HTML (its comment in the page's first lines) loses the section."""
    page = '<H1><A ID="SECTION0004">About this document ...</A></H1>This document was made by hand.<BR><HR>'
    assert parse_html(page).text == "# About this document ...\n\nThis document was made by hand."
    assert parse_html("<!--Converted with LaTeX2HTML 2023 -->" + page).text == ""


def test_a_tex4ht_page_reads_without_its_contents_and_page_links() -> None:
    """TeX4ht writes the page's own contents (``div.tableofcontents``, same-page links a ``br`` apart, read as a
    paragraph "1 Budgets 1.1 In detail 2 Bounds on every request"); split into pages, "[next] [tail] [up]" links
    (``div.crosslinks``) above and below each page's text."""
    document = load_html("tex4ht/budgets.html")
    assert [s.heading for s in document.sections] == [
        "Budgets", "Budgets", "Contents", "1 Budgets", "1.1 In detail", "2 Bounds on every request"]
    assert "1 Budgets\n1.1 In detail" not in document.text
    page = load_html("tex4ht/budgetsse1.html")
    assert page.text.startswith("### 1 Budgets\n\nEvery run is bounded")
    assert page.text.replace("\xa0", " ").endswith('```\nclew ask --max-tool-calls 5 "question"\n```')  # nbsp: left
    for chrome in ("[prev]", "[tail]", "[up]", "[front]"):
        assert chrome not in page.text, chrome
