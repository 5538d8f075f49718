"""An mdBook book as the generator writes it (rust-doc 1.63's books, task E8): a page per chapter, each with the
sidebar of every chapter (``nav#sidebar > ol.chapter``, the reader's chapter marked ``class="active"``), and the
book's ``index.html``, which is its first chapter again unless that chapter is ``index.html`` itself (Rust by
Example's ``README.md``)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import find_files
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

CHAPTERS = {"what-is-rustc.html": "What is rustc?", "lints/index.html": "Lints", "json.html": "JSON Output"}
TEXT = {
    "What is rustc?": "Welcome to The rustc book! rustc is the compiler for the Rust programming language, provided "
                      "by the project itself. Compilers take your source code and produce binary code.",
    "Lints": "In software, a lint is a tool used to flag suspicious or incorrect code. rustc contains a number of "
             "lints, and when it compiles your code, it will also run the lints.",
    "JSON Output": "This chapter documents the JSON structures emitted by rustc. JSON may be enabled with the "
                   "--error-format=json flag.",
}


def page(at: str, title: str, *, first: str = "what-is-rustc.html", active: str | None = None) -> str:
    """A page of the book at ``at`` showing chapter ``title``, its sidebar's chapters led by ``first``; ``active``:
    the chapter the sidebar marks (the page's own, None on a copy)."""
    root = "../" * at.count("/")
    chapters = {first: CHAPTERS.get(first, "Introduction"), **CHAPTERS}
    mark = ' class="active"'
    items = "".join(f'<li class="chapter-item expanded "><a href="{root}{href}"{mark if href == active else ""}>'
                    f'<strong aria-hidden="true">{n}.</strong> {name}</a></li>'
                    for n, (href, name) in enumerate(chapters.items(), 1))
    anchor = title.lower().replace(" ", "-").strip("?")
    return (f'<!DOCTYPE HTML>\n<html lang="en" class="sidebar-visible no-js light">\n    <head>\n'
            f"        <!-- Book generated using mdBook -->\n        <meta charset=\"UTF-8\">\n"
            f"        <title>{title} - The rustc book</title>\n    </head>\n    <body>\n"
            f'        <nav id="sidebar" class="sidebar" aria-label="Table of contents">\n'
            f'            <div class="sidebar-scrollbox">\n                <ol class="chapter">{items}</ol>\n'
            f"            </div>\n        </nav>\n"
            f'        <div id="page-wrapper" class="page-wrapper"><div class="page">'
            f'<div id="menu-bar" class="menu-bar sticky bordered"><h1 class="menu-title">The rustc book</h1></div>'
            f'<div id="content" class="content"><main>\n<h1 id="{anchor}"><a class="header" href="#{anchor}">'
            f"{title}</a></h1>\n<p>{TEXT.get(title, 'An introduction of its own. ' * 8)}</p>\n"
            f"</main></div></div></div>\n    </body>\n</html>\n")


def book(folder: Path, index: str | None = None) -> Path:
    files = {at: page(at, title, active=at) for at, title in CHAPTERS.items()}
    files["index.html"] = index if index is not None else page("index.html", "What is rustc?")
    return write_files(folder, files)


def test_the_book_s_index_html_copy_of_its_first_chapter_is_left_out_in_one_line(tmp_path: Path) -> None:
    """The rustc book's ``index.html`` is ``what-is-rustc.html`` again (38 chapters, 39 documents before); the
    chapter, which every sidebar links, is kept."""
    found = find_files([book(tmp_path / "rustc")], "**/*")
    assert sorted(key for _, key in found.files) == ["json.html", "lints/index.html", "what-is-rustc.html"]
    assert [problem.message for problem in found.problems] == [
        "the same page as what-is-rustc.html (mdBook writes a book's first chapter again as its index.html): "
        "ingested once, as that file"]
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path / "rustc"], collection="docs", chunk_tokens=220)
        assert sorted(document_keys(corpus)) == ["json.html", "lints/index.html", "what-is-rustc.html"]
    assert report.documents == 3


def test_a_first_chapter_in_a_folder_of_its_own_is_kept_and_the_root_copy_left_out(tmp_path: Path) -> None:
    """The embedded book's first chapter is ``intro/index.html``: its own sidebar leads to itself."""
    files = {"intro/index.html": page("intro/index.html", "Introduction", first="intro/index.html",
                                      active="intro/index.html"),
             "index.html": page("index.html", "Introduction", first="intro/index.html"),
             "json.html": page("json.html", "JSON Output", first="intro/index.html", active="json.html")}
    found = find_files([write_files(tmp_path / "embedded", files)], "**/*")
    assert sorted(key for _, key in found.files) == ["intro/index.html", "json.html"]


def test_an_index_html_that_is_the_first_chapter_itself_or_another_page_is_kept(tmp_path: Path) -> None:
    """Rust by Example's first chapter is ``index.html`` (its sidebar leads there); an ``index.html`` whose text is
    not its first chapter's (a page written by hand) stays, as does every page without mdBook's mark."""
    by_example = write_files(tmp_path / "rbe", {
        "index.html": page("index.html", "Introduction", first="index.html", active="index.html"),
        "json.html": page("json.html", "JSON Output", first="index.html", active="json.html")})
    assert sorted(key for _, key in find_files([by_example], "**/*").files) == ["index.html", "json.html"]
    own = book(tmp_path / "own", index=page("index.html", "Welcome"))
    assert "index.html" in [key for _, key in find_files([own], "**/*").files]
    unmarked = book(tmp_path / "unmarked", index=page("index.html", "What is rustc?").replace(
        "<!-- Book generated using mdBook -->", ""))
    assert "index.html" in [key for _, key in find_files([unmarked], "**/*").files]
