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
        "Budgets", "Budgets", "Budgets", "In detail", "Bounds on every request", "Footnotes"]
    assert document.text.startswith("# Budgets\n\nclew\n\n# Budgets\n\nEvery run")  # "Contents" went with its list
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
        "Budgets", "Budgets", "1 Budgets", "1.1 In detail", "2 Bounds on every request"]
    assert "1 Budgets\n1.1 In detail" not in document.text
    assert "Contents" not in document.text
    page = load_html("tex4ht/budgetsse1.html")
    assert page.text.startswith("### 1 Budgets\n\nEvery run is bounded")
    # its verbatim block's spaces are no-break spaces (clew&#x00A0;ask): spaces in the code block
    assert page.text.endswith('```\nclew ask --max-tool-calls 5 "question"\n```')
    assert "\xa0" not in page.text
    for chrome in ("[prev]", "[tail]", "[up]", "[front]"):
        assert chrome not in page.text, chrome


def test_a_contents_heading_goes_with_the_contents_it_held() -> None:
    """A heading whose section held only a dropped table of contents (into the page) is taken out, as Sphinx's
    and Texinfo's "Contents" go with the ``div`` that holds them; its anchor goes to the next section. It stays
    where its section keeps text or subsections, or where the contents lead to other pages (kept)."""
    toc = '<div class="toc"><a href="#a">A</a> <a href="#b">B</a></div>'
    document = parse_html(f'<h1>Book</h1><h2 id="contents">Contents</h2>{toc}<h2 id="a">A</h2><p>x</p>')
    assert [s.heading for s in document.sections[1:]] == ["Book", "A"]
    assert document.text == "# Book\n\n## A\n\nx"
    assert document.sections[2].anchors == ["a", "contents"]
    assert document.anchors["contents"] == document.sections[2].start
    ended = parse_html(f'<h1>Book</h1><p>x</p><h2>Contents</h2>{toc}')
    assert ended.text == "# Book\n\nx"
    assert [s.heading for s in ended.sections[1:]] == ["Book"]
    kept = [
        f'<h2>Contents</h2>{toc}<p>Read on.</p><h2 id="a">A</h2>',  # text after the list
        f'<h2>Contents</h2>{toc}<h3 id="a">A</h3><p>x</p>',  # a subsection
        '<h2>Contents</h2><div class="toc"><a href="one.html">One</a></div><h2>A</h2>',  # other pages
        '<h2>Returns</h2><nav>menu</nav><h2>A</h2>',  # other chrome: the heading is content
    ]
    for page in kept:
        assert parse_html(page).sections[1].heading in ("Contents", "Returns"), page


def test_a_no_break_space_in_code_is_a_space() -> None:
    """In a ``pre`` a no-break space reads as a space, as it does in a paragraph; the code keeps its other
    spacing (PostgreSQL's ``pre.synopsis`` of operators, gtk-doc's return type)."""
    page = '<p>a\xa0b</p><pre class="synopsis">\n&lt; \xa0 &lt;=\n  const gchar&#160;*\xa0\n</pre>'
    assert parse_html(page).text == "a b\n\n```\n<   <=\n  const gchar *\n```"
