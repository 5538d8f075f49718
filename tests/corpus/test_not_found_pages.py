"""A site's not-found page (``404.html``) is left out (task U24): MkDocs, Sphinx's notfound page, Docusaurus,
VitePress, Jekyll and Hugo write one beside the pages, and it was a document ("Page Not Found / We could not find what
you were looking for.", Docusaurus on undici). By what it says, not by its name (task R17): a page of that name with
text of its own is a document."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from clew.corpus.ingest import browser_pages
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

DOCUSAURUS_BUILD = {  # the shape of Docusaurus 3's classic preset (undici's docs, task U24)
    "404.html": "<html><head><title>Undici</title></head><body><nav class=navbar>Undici Docs</nav>"
                "<main class=container><h1 class=hero__title>Page Not Found</h1>"
                "<p>We could not find what you were looking for.</p><p>Please contact the owner of the site that "
                "linked you to the original URL and let them know their link is broken.</p></main></body></html>",
    "api/Errors/index.html": "<html><head><title>Errors | Undici</title></head><body><article><h1>Errors</h1>"
                             "<p>Undici exposes a variety of error objects.</p></article></body></html>",
}


def test_a_site_s_not_found_page_is_left_out_as_generated(tmp_path: Path) -> None:
    site = write_files(tmp_path / "sites" / "undici", DOCUSAURUS_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site.parent], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["undici/api/Errors/index.html"]
    (line,) = report.problems
    assert line.warning and line.message.startswith(
        "1 not-found page (the page a server answers a missing one with: undici/404.html) not ingested")
    assert "--exclude '!404.html'" in line.message
    assert (report.excluded, report.documents) == (1, 1)


SPHINX_CHROME = ('<div class="sphinxsidebar"><h3>Navigation</h3><ul><li><a href="/getting-started.html">Getting '
                 'started</a></li><li><a href="/api.html">API reference</a></li></ul><form class="search"><input '
                 'type="text" name="q"></form></div><div class="footer">&copy; Copyright 2025, Hynek Schlawack. '
                 'Created using Sphinx 7.2.6.</div>')
NOT_FOUND_PAGES = {  # each generator's, as the trials' builds wrote it (less scripts and styles)
    "sphinx": ('<html><head><title>Page not found &#8212; structlog</title></head><body><div class="body">'
               "<h1>Page not found</h1><p>Unfortunately we couldn't find the content you were looking for.</p>"
               f"</div>{SPHINX_CHROME}</body></html>"),
    "vitepress": ('<html><head><title>404 | Fastify</title><meta name="generator" content="VitePress v1.6.4">'
                  '</head><body><div id="app"></div></body></html>'),
    "hugo": ('<html><head><title>404 Page not found</title><meta name="generator" content="Hugo 0.111.3"></head>'
             "<body><main><h1>The page you're looking for doesn't exist. Perhaps you'd like to gopher something "
             "else?</h1><p>Sorry.</p></main>" + SPHINX_CHROME + "</body></html>"),
    "material": ('<html><head><title>structlog</title><meta name="generator" content="mkdocs-1.6.1, '
                 'mkdocs-material-9.8.2"></head><body><article class="md-content__inner"><h1>404 - Not found</h1>'
                 "</article>" + SPHINX_CHROME + "</body></html>"),
}
HOME = ('<html><head><title>structlog 25.1.0 documentation</title></head><body><div class="body"><h1>structlog'
        '</h1><p>structlog is the production-ready logging solution for Python.</p></div>' + SPHINX_CHROME +
        "</body></html>")


@pytest.mark.parametrize("generator", sorted(NOT_FOUND_PAGES))
def test_each_generators_not_found_page_is_left_out_by_what_it_says(tmp_path: Path, generator: str) -> None:
    site = write_files(tmp_path / "site", {"404.html": NOT_FOUND_PAGES[generator], "index.html": HOME})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["index.html"]
    assert report.excluded == 1


def test_a_page_named_404_with_text_of_its_own_is_a_document(tmp_path: Path) -> None:
    """A reference of HTTP's status codes, a page each: ``404.html`` is the page on "404 Not Found", no site's
    not-found page, and was left out by its name alone."""
    pages = {
        "404.html": "<html><head><title>404 Not Found - HTTP status codes</title></head><body><nav><a href="
                    '"403.html">403 Forbidden</a> <a href="405.html">405 Method Not Allowed</a></nav><main><h1>404 Not '
                    "Found</h1><p>The HTTP 404 Not Found client error response status code indicates that the server "
                    "cannot find the requested resource. Links that lead to a 404 page are often called broken or "
                    "dead links and can be subject to link rot.</p><p>A 404 status code only indicates that the "
                    "resource is missing: not whether the absence is temporary or permanent. If a resource is "
                    "permanently removed, use the 410 Gone status instead.</p></main></body></html>",
        "403.html": "<html><head><title>403 Forbidden - HTTP status codes</title></head><body><nav><a href="
                    '"403.html">403 Forbidden</a> <a href="405.html">405 Method Not Allowed</a></nav><main><h1>403 '
                    "Forbidden</h1><p>The server understood the request but refuses to authorize it.</p></main>"
                    "</body></html>",
    }
    site = write_files(tmp_path / "http", pages)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["403.html", "404.html"]
    assert report.excluded == 0


def test_a_negated_pattern_takes_a_not_found_page_back(tmp_path: Path) -> None:
    site = write_files(tmp_path / "undici", DOCUSAURUS_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!404.html"])
        assert document_keys(corpus) == ["404.html", "api/Errors/index.html"]
    assert report.excluded == 0


def test_a_not_found_page_left_out_still_makes_its_folder_a_site_for_its_assets(tmp_path: Path) -> None:
    """Docusaurus' ``assets/js/*.js.LICENSE.txt`` are a site's assets where the site's root holds an HTML page; on
    undici's build (no home page) that page was 404.html alone, so leaving it out took the licences in."""
    site = write_files(tmp_path / "undici", {**DOCUSAURUS_BUILD,
                                             "assets/js/main.07ed6d9c.js.LICENSE.txt": "/*! react-dom MIT */"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["api/Errors/index.html"]
    assert report.excluded == 2
    assert any("assets/js/main.07ed6d9c.js.LICENSE.txt" in line.message for line in report.problems)


def test_a_short_page_on_404_that_its_site_links_to_is_a_document(tmp_path: Path) -> None:
    """An HTTP reference's "404 Not Found" in two sentences (RFC 9110's): 28 words its index does not hold, under
    ``NOT_FOUND_OWN_WORDS``, so it was left out as the site's not-found page; its index lists it, as no generator
    links to its not-found page (task V7)."""
    nav = ('<nav><a href="index.html">HTTP status codes</a> <a href="403.html">403</a> <a href="404.html">404</a>'
           "</nav>")
    site = write_files(tmp_path / "http", {
        "index.html": f"<html><head><title>HTTP status codes</title></head><body>{nav}<main><h1>HTTP status codes"
                      '</h1><ul><li><a href="403.html">403 Forbidden</a></li><li><a href="./404.html#top">404 Not '
                      "Found</a></li></ul></main></body></html>",
        "404.html": f"<html><head><title>404 Not Found - HTTP status codes</title></head><body>{nav}<main><h1>404 "
                    "Not Found</h1><p>The origin server did not find a current representation for the target "
                    "resource or is not willing to disclose that one exists.</p><p>A 404 status code does not "
                    "indicate whether this lack of representation is temporary or permanent.</p></main></body></html>",
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["404.html", "index.html"]
    assert report.excluded == 0


def test_a_prefetched_script_named_after_the_not_found_page_is_no_link_to_it(tmp_path: Path) -> None:
    """VuePress 2 prefetches ``/assets/404.html-IInCLvZl.js`` on every page: no link to its not-found page."""
    home = HOME.replace("<head>", '<head><link rel="prefetch" href="/assets/404.html-IInCLvZl.js" as="script">')
    site = write_files(tmp_path / "site", {"404.html": NOT_FOUND_PAGES["material"], "index.html": home})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["index.html"]


class _CountedPath(PurePosixPath):
    """A ``PurePosixPath`` that counts the paths made from a key."""

    made = 0

    def __new__(cls, *parts: str) -> _CountedPath:
        _CountedPath.made += 1
        return super().__new__(cls, *parts)


def test_each_page_s_folder_is_found_once_however_many_not_found_pages_a_site_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A site of many versions, each with its not-found page: every page's folder was found again for each of them
    (40 versions of 502 pages: 10 s)."""
    pages = {f"v{version}/{name}": NOT_FOUND_PAGES["material"] if name == "404.html" else HOME
             for version in range(8) for name in ["404.html", "index.html", *(f"api/p{n}.html" for n in range(8))]}
    site = write_files(tmp_path / "site", pages)
    files = sorted((file, file.relative_to(site).as_posix()) for file in site.rglob("*.html"))
    monkeypatch.setattr(browser_pages, "PurePosixPath", _CountedPath)
    assert browser_pages._not_found(files, lambda file: True, 1 << 20) == [f"v{version}/404.html"
                                                                           for version in range(8)]
    assert _CountedPath.made <= len(files)
