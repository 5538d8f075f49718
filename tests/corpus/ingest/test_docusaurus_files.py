"""Files a Docusaurus 3 build writes beside its pages (task E10: undici 8.14.1's docs, Docusaurus 3.10.2, classic
preset with the local search theme ``@easyops-cn/docusaurus-search-local`` 0.55.3)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files

_NAVBAR = ('<nav aria-label="Main" class="theme-layout-navbar navbar navbar--fixed-top"><div class="navbar__inner">'
           '<a class="navbar__brand" href="/"><b class="navbar__title text--truncate">Undici</b></a>'
           '<a class="navbar__item navbar__link" href="/">Docs</a><div class="navbarSearchContainer_sxfj">'
           '<input placeholder="Search" aria-label="Search" class="navbar__search-input searchInput_CxQ_" value="">'
           '</div></div></nav>')
_FOOTER = ('<footer class="theme-layout-footer footer footer--dark"><div class="footer__copyright">'
           'Copyright © Matteo Collina and Undici contributors</div></footer>')


def _site_page(title: str, main: str) -> str:
    return (f'<!doctype html><html lang="en" dir="ltr"><head><meta name="generator" content="Docusaurus v3.10.2">'
            f'<title data-rh="true">{title}</title></head><body><div role="region" aria-label="Skip to main content">'
            f'<a class="skipToContent_fXgn" href="#__docusaurus_skipToContent_fallback">Skip to main content</a>'
            f'</div>{_NAVBAR}<div id="__docusaurus_skipToContent_fallback" class="theme-layout-main main-wrapper">'
            f'{main}</div>{_FOOTER}</body></html>')


SEARCH_PAGE = _site_page(
    "Search the documentation",
    '<div class="container margin-vert--lg"><h1>Search the documentation</h1><div class="row"><div class="col col--12">'
    '<input type="search" class="searchQueryInput_C7Oi" aria-label="Search" autocomplete="off" autofocus="" name="q"'
    ' value=""></div></div><section></section></div>')

ABOUT_SEARCH = _site_page(
    "Search | Guide",
    '<main><article><h1>Search</h1>' + "".join(
        f"<p>Section {n}: the search box finds pages by their words; type a term, pick a result, and the page opens at"
        " the heading that holds it, with the matched words marked in the text.</p>" for n in range(6))
    + "</article></main>")


def test_a_docusaurus_search_page_is_left_out(tmp_path: Path) -> None:
    """Docusaurus' search page (``/search``, written as ``search/index.html`` by the local search theme, as by the
    Algolia one) is an empty form that the browser fills: it was a document "Search the documentation" reading
    "Skip to main content". It is left out as ``search.html`` is; a page named so with text of its own stays."""
    site = write_files(tmp_path / "build", {
        "index.html": _site_page("undici | Undici",
                                 "<main><article><h1>undici</h1><p>An HTTP/1.1 client.</p></article></main>"),
        "search/index.html": SEARCH_PAGE,
        "guide/search/index.html": ABOUT_SEARCH,
    })
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["guide/search/index.html", "index.html"]
    generated = next(problem for problem in found.problems if "generated" in problem.message)
    assert "1 **/search/index.html" in generated.message
