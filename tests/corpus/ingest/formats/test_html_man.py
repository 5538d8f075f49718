"""Man pages as groff (``-Thtml``) and man2html write them (task R4, issue 36): the same man(7) page, written for
the tests after ``clew ingest --help``, rendered by each (tests/fixtures/html/README.md), reads with the same
outline and text, no index or header above it and no index or footer below it."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_man import man_html
from tests.corpus.ingest.formats.documents import HTML_FIXTURES, block_texts, load_html

OUTLINE = ["CLEW-INGEST", "CLEW-INGEST", "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "Where to", "Chunking",
           "Pruning", "EXIT STATUS", "SEE ALSO"]


def test_a_groff_man_page_reads_without_its_index_and_with_its_subsections() -> None:
    """groff writes the page's index (its headings as links, a ``br`` apart) under the title, which read as a
    paragraph "NAME SYNOPSIS ..."; a subsection's heading (``.SS``) as a bold paragraph joined by a ``br`` to
    the option (or the paragraph) after it, which read "Where to --db path", one paragraph, no section."""
    document = load_html("groff/clew-ingest.html")
    assert document.title == "CLEW-INGEST"
    assert [s.heading for s in document.sections] == OUTLINE
    assert [s.level for s in document.sections][5:9] == [2, 3, 3, 3]
    assert "NAME\nSYNOPSIS" not in document.text
    assert block_texts(document)[8:14] == [
        "### Where to", "--db path", "DuckDB corpus file (default: database in clew.toml).", "--collection name",
        "Collection to ingest into (default: the corpus’s only collection).", "### Chunking"]
    assert "These options decide how files are cut into passages." in block_texts(document, "paragraph")
    assert document.tables == []  # the short tag "-q" beside its text was a layout table


def test_groff_option_tags_are_definition_terms() -> None:
    """Each tag followed by text indented further (a paragraph, or a short tag's layout table row) is a ``dt``,
    its text the ``dd``: terms, as mandoc's and man2html's, which the reader makes sections in a long list."""
    page = man_html((HTML_FIXTURES / "groff/clew-ingest.html").read_text(encoding="utf-8"))
    assert page.count("<dt>") == 5
    assert "<dt><b>--db</b> <i>path</i></dt><dd>" in page
    assert "<dt><b>-q</b></dt><dd><p>Print nothing but errors.</p></dd>" in page
    assert "<h3>Chunking</h3><p>These options decide how files are cut into passages.\n</p><dl><dt><b>" in page
    text = "Word " * 300
    terms = "".join(f'<p style="margin-left:11%;"><b>--opt{n}</b></p>\n<p style="margin-left:22%;">{text}</p>\n'
                    for n in range(6))
    long_list = parse_html(f'<meta name="generator" content="groff -Thtml"><h2>OPTIONS</h2>\n{terms}')
    assert [(s.heading, s.level) for s in long_list.sections[2:]] == [(f"--opt{n}", 3) for n in range(6)]


def test_a_man2html_page_reads_as_the_groff_page_does() -> None:
    """man2html titles the page "Man page of CLEW-INGEST", writes its section, date and "Index" and "Return to
    Main Contents" links under the ``h1``, and the index (a ``dl`` of the headings) and "This document was
    created by man2html ... Time: ..." after it: all chrome."""
    document = load_html("man2html/clew-ingest.html")
    groff = load_html("groff/clew-ingest.html")
    assert document.title == "CLEW-INGEST"
    assert [s.heading for s in document.sections] == OUTLINE
    for chrome in ("Section: User Commands", "Return to Main Contents", "Index", "man2html", "Time:"):
        assert chrome not in document.text, chrome
    assert document.text == groff.text.replace("’", "'")


def test_other_pages_are_left_as_they_are() -> None:
    """The check is made once per page, on its first lines (and man2html's last): another page is not copied."""
    page = "<title>Man page of X</title><h1>X</h1>Section: 1<hr><p>text</p><hr>"
    assert man_html(page) is page
    other = "<html><h1>grep</h1><a href='#a'>a</a><br><hr>"
    assert man_html(other) is other


def test_groffs_rules_in_underscores_are_not_text_nor_a_synopsis_line_a_heading() -> None:
    """Tcl's pages draw a rule above and below the synopsis and under an argument list (``\\l``), which groff
    writes as 78 underscores: a paragraph of its own ("clew_open ____" was the page's first passage), the end
    of the synopsis's last paragraph, the end of a table cell. In the synopsis, the bold "#include <clew.h>" with
    space above it was taken for a subsection's heading (107 of Tcl's C API pages); a ``.SS`` elsewhere still is."""
    document = load_html("groff/clew_open.html")
    assert "__" not in document.text
    assert [s.heading for s in document.sections] == [
        "clew_open", "clew_open", "NAME", "SYNOPSIS", "ARGUMENTS", "DESCRIPTION", "Read-only files", "EXAMPLE",
        "SEE ALSO"]
    texts = block_texts(document)
    assert texts[:7] == ["# clew_open", "## NAME", "clew_open, clew_close - open and close a corpus file",
                         "## SYNOPSIS", "#include <clew.h>", "clew_corpus *\nclew_open(path, flags)",
                         "int\nclew_close(corpus)"]
    assert "A corpus that clew_open returned." in texts


def test_a_groff_display_in_no_fill_mode_is_one_code_block() -> None:
    """Tcl's pages set their examples between ``.CS`` and ``.CE`` (``.RS`` and ``.nf``), which groff writes as
    paragraphs indented past the text, a ``br`` after each line and a new paragraph at each blank line: they
    read as paragraphs, a C comment's lines as sentences ("* Open the file without a writer's lock: ..."). The
    display is one code block, a line each, its blank line kept, a bold name that groff opened before a line's
    ``br`` on the next line and groff's quotes as typed; a paragraph with a ``.br`` in its text stays one."""
    document = load_html("groff/clew_open.html")
    code = [document.text[b.start : b.end] for b in document.blocks if b.kind == "code"]
    assert code == ["```\nclew_corpus *corpus;\nint status = 0;\n\n/*\n"
                    "* Open the file without a writer's lock: many readers\n* may hold it at once.\n*/\n"
                    'corpus = clew_open("docs.duckdb", CLEW_READ_ONLY);\nif (corpus == NULL) {\nstatus = 1;\n'
                    "} else {\nclew_close(corpus);\n}\nreturn status;\n```"]
    assert block_texts(document)[-5:-3] == ["## EXAMPLE", "Open a corpus read-only and close it:"]
    prose = "Word " * 30
    filled = parse_html('<meta name="generator" content="groff -Thtml"><h2>NOTES</h2>\n'
                        f'<p style="margin-left:11%; margin-top: 1em">{prose}</p>\n'
                        f'<p style="margin-left:22%; margin-top: 1em">{prose} <br>\nMore words.</p>\n')
    assert [b.kind for b in filled.blocks] == ["heading", "paragraph", "paragraph"]


def test_an_untitled_pod2html_page_is_titled_by_its_name_paragraph() -> None:
    """pod2html writes ``<title></title>`` where the NAME heading holds an index entry (``=head1 NAME
    X<clew search>``: perlre, perlfunc, perlop and 17 more of Perl's pages), and the page was titled "NAME"; the
    NAME paragraph is its title, as pod2html titles the others. A titled page keeps its title."""
    document = load_html("pod2html/clew-search.html")
    assert document.title == "clew search - search a corpus's passages"
    assert [s.heading for s in document.sections][1:4] == ["NAME", "SYNOPSIS", "DESCRIPTION"]
    assert load_html("pod2html/clew-ingest.html").title == "clew ingest - ingest files into a corpus"
    untitled = '<link rev="made" href="mailto:a@b" />\n<title></title><h1 id="NAME">NAME</h1>\n<p></p><h1>X</h1>'
    assert man_html(untitled) is untitled


def test_a_pod2html_item_group_is_one_term() -> None:
    """pod2html writes each ``=item`` of a group (``--db path`` and ``-d path``; perlfunc's three ``sort`` forms,
    perlvar's ``$EVAL_ERROR`` and ``$@``) as a ``dt`` with an empty ``dd``: only the last was the entry's term, the
    others paragraphs of the entry before it. The group is one term, a line each."""
    document = load_html("pod2html/clew-search.html")
    texts = block_texts(document)
    assert texts[-4:-1] == ["--db path\n-d path", "DuckDB corpus file (default: database in clew.toml).", "# SEE ALSO"]
    assert "--db path" not in block_texts(document, "paragraph")
