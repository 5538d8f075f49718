"""DocBook XSL's index page is left out as a generated index, as Sphinx's ``genindex.html`` is (task G1): its terms,
a ``dt`` each linking to where the term is treated, read as one heading of up to 86 terms before a term with
sub-entries ("acldefault, System Information Functions and Operators, aclexplode, ...")."""

from __future__ import annotations

import shutil
from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.peek import generated_sign
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES, document_keys

BOOKINDEX = FIXTURES / "html" / "postgresql" / "bookindex.html"  # PostgreSQL 15's, DocBook XSL
ATK_INDEX = FIXTURES / "html" / "gtk-doc" / "atk-api-index-full.html"  # ATK 2.46's, gtk-doc 1.33 on DocBook XSL

ONE_PAGE_BOOK = (  # a book on one page: its index at the end is a part of the page, which stays
    '<html><head><title>Widget Guide</title><meta name="generator" content="DocBook XSL Stylesheets V1.79.2"></head>'
    '<body><div class="book"><div class="titlepage"><h1 class="title">Widget Guide</h1></div>'
    '<div class="chapter"><h2 class="title"><a name="ch01"></a>Installing</h2><p>Unpack the widget and run '
    "<code>widget --setup</code>.</p></div>"
    '<div class="index"><h2 class="title">Index</h2><dl><dt>setup, <a class="indexterm" href="#ch01">Installing'
    "</a></dt></dl></div></div></body></html>"
)


def test_docbook_s_index_pages_are_known_by_their_first_bytes() -> None:
    assert [generated_sign(page) for page in (BOOKINDEX, ATK_INDEX)] == ["DocBook index", "DocBook index"]
    for page in ("docbook-note.html", "gtk-doc/atk-index.html", "gtk-doc/atk-action.html", "publican-book.html"):
        assert generated_sign(FIXTURES / "html" / page) is None, page


def test_the_index_is_left_out_reported_with_the_generated_files_and_taken_back_by_name(tmp_path: Path) -> None:
    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(BOOKINDEX, book / "bookindex.html")
    shutil.copy(ATK_INDEX, book / "api-index-full.html")
    shutil.copy(FIXTURES / "html" / "docbook-note.html", book / "ch02s03.html")
    (book / "guide.html").write_text(ONE_PAGE_BOOK, encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [book], collection="docs")
        assert document_keys(corpus) == ["ch02s03.html", "guide.html"]
        assert report.excluded == 2
        [line] = [p.message for p in report.problems if "generated" in p.message]
        assert line == (
            "2 generated files (a documentation tool's indexes, search page, sources or assets: 2 DocBook index) not "
            "ingested; take them in with --exclude '!NAME' or a '!NAME' line in .clewignore "
            "(e.g. '!api-index-full.html')"
        )
        ingest_paths(corpus, [book], collection="docs", exclude=["!bookindex.html"])
        assert document_keys(corpus) == ["bookindex.html", "ch02s03.html", "guide.html"]


# DocBook XSL's docbook.xsl (one page, no chunks): the book's index at its end, div.index around its title page and
# the inner div.index of its letters
ONE_PAGE_INDEX = (
    '<html><head><title>Widget Guide</title><meta name="generator" content="DocBook XSL Stylesheets V1.79.2"></head>'
    '<body><div class="book"><div class="titlepage"><div><div><h1 class="title"><a name="id1"></a>Widget Guide</h1>'
    '</div></div><hr></div><div class="chapter"><div class="titlepage"><div><div><h2 class="title"><a name="ch01"></a>'
    "Chapter 1. Installing</h2></div></div></div><p>Unpack the widget and run <code>widget --setup</code>.</p></div>"
    '<div class="index"><div class="titlepage"><div><div><h2 class="title"><a name="id2"></a>Index</h2></div></div>'
    '</div><div class="index"><div class="indexdiv"><h3>S</h3><dl><dt>setup, <a class="indexterm" href="#ch01">'
    "Installing</a></dt><dt>widget</dt><dd><dl><dt>setup of, <a class=\"indexterm\" href=\"#ch01\">Installing</a></dt>"
    "</dl></dd></dl></div></div></div></div></body></html>"
)


def test_a_one_page_book_leaves_its_index_out_and_an_index_page_read_keeps_it() -> None:
    document = parse_html(ONE_PAGE_INDEX)
    assert document.text == "# Widget Guide\n\n## Chapter 1. Installing\n\nUnpack the widget and run widget --setup."
    assert parse_html(ONE_PAGE_BOOK).text.endswith("Unpack the widget and run widget --setup.")
    taken_back = parse_html(BOOKINDEX.read_text(encoding="utf-8"))  # '!bookindex.html': the index is its text
    assert "acldefault" in taken_back.text
