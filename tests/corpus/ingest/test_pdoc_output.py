"""What ``pdoc`` writes beside a package's pages (task U27): rich 15.0.0's API by pdoc 16.0.0."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files

PDOC_OUTPUT = {
    "index.html": '<!doctype html>\n<html>\n<head>\n    <meta charset="utf-8">\n'
                  '    <meta http-equiv="refresh" content="0; url=./rich.html"/>\n</head>\n</html>\n',
    "rich.html": '<!doctype html>\n<html lang="en">\n<head>\n    <meta name="generator" content="pdoc 16.0.0"/>\n'
                 "    <title>rich API documentation</title>\n</head>\n<body>\n"
                 '<main class="pdoc"><section class="module-info"><h1 class="modulename">rich</h1>'
                 '<div class="docstring"><p>Rich text and beautiful formatting in the terminal.</p></div>'
                 "</section></main>\n</body>\n</html>\n",
}


def test_a_refresh_page_without_a_body_is_a_redirect_page(tmp_path: Path) -> None:
    """pdoc's ``index.html`` for several modules is a head with a refresh to the first and no ``<body>``: it was no
    redirect page (its words were counted only after a ``<body>``), and ingest said "skipped ...: no text content after
    parsing". It is left out with the other pages for browsers, as a redirect."""
    site = write_files(tmp_path / "api", PDOC_OUTPUT)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["rich.html"]
    browser = next(problem for problem in found.problems if "redirect" in problem.message)
    assert "index.html" in browser.message and browser.warning
    long_page = dict(PDOC_OUTPUT, **{"index.html": PDOC_OUTPUT["index.html"].replace(
        "</head>", "</head>\n<p>" + "A page of its own, whose text a refresh does not make a redirect. " * 8 + "</p>")})
    assert [key for _, key in find_files([write_files(tmp_path / "own", long_page)], "**/*").files] == [
        "index.html", "rich.html"]
