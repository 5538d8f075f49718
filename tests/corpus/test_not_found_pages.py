"""A site's not-found page (``404.html``) is left out as generated (task U24): MkDocs, Sphinx's notfound page,
Docusaurus, VitePress, Jekyll and Hugo write one beside the pages, and it was a document ("Page Not Found / We could
not find what you were looking for.", Docusaurus on undici)."""

from __future__ import annotations

from pathlib import Path

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
    assert line.warning and "404.html) not ingested" in line.message and "(e.g. '!404.html')" in line.message
    assert (report.excluded, report.documents) == (1, 1)


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
