"""Files beside the pages of two builds of task U32's trial: Sphinx's dirhtml builder (Babel 2.18's docs, Sphinx
9.0.4) and pkgdown 2.0.7 (dplyr 1.0.10's site, Bootstrap 5)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files


def _page(title: str, text: str) -> str:
    return f"<!DOCTYPE html><html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>{text}</p></main>"


DIRHTML = {
    "index.html": _page("Babel", "Babel is an integrated collection of utilities that assist in internationalizing."),
    "numbers/index.html": _page("Number Formatting", "Support for locale-specific formatting and parsing of numbers."),
    "genindex/index.html": _page("Index", "A | B | C"),
    "genindex-A/index.html": _page("Index – A", "add_location() (babel.messages.catalog.Message method)"),
    "py-modindex/index.html": _page("Python Module Index", "babel.core babel.dates babel.languages"),
}

PKGDOWN = {
    "index.html": _page("A Grammar of Data Manipulation • dplyr", "dplyr is a grammar of data manipulation."),
    "articles/colwise.html": _page("Column-wise operations • dplyr", "It's often useful to perform the same operation"),
    "deps/data-deps.txt": '<script src="deps/jquery-3.6.1/jquery-3.6.1.min.js"></script>\n'
    '<link href="deps/bootstrap-5.2.2/bootstrap.min.css" rel="stylesheet" />\n',
    "deps/bootstrap-5.2.2/bootstrap.min.css": "/*! Bootstrap v5.2.2 */",
}


def test_dirhtml_indexes_are_generated_files(tmp_path: Path) -> None:
    """The dirhtml builder writes every page as folder/index.html, its indexes too: ``genindex/index.html`` (every
    object of the API as a link) and ``py-modindex/index.html`` were ingested as documents "Index" and "Python Module
    Index", where the html builder's ``genindex.html`` and ``py-modindex.html`` are left out."""
    site = write_files(tmp_path / "dirhtml", DIRHTML)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["index.html", "numbers/index.html"]
    generated = next(problem for problem in found.problems if "generated" in problem.message)
    assert generated.message.startswith(
        "3 generated files (a documentation tool's indexes, search page, sources or "
        "assets: 1 genindex, 1 genindex-*, 1 py-modindex)"
    )


def test_pkgdown_deps_are_the_site_assets(tmp_path: Path) -> None:
    """pkgdown writes ``deps/data-deps.txt`` (the script and style tags its pages load) beside its Bootstrap and
    jQuery: a text file ingested as a document "Data deps"."""
    site = write_files(tmp_path / "docs", PKGDOWN)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files if key.endswith((".html", ".txt"))] == ["articles/colwise.html", "index.html"]
