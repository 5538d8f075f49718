"""A Docsify site's sidebar and navbar (``_sidebar.md``, ``_navbar.md``) are its navigation, not pages: Docsify
shows them beside every page and never as one, and each was a document of links ("Sidebar", pino's docs, task U24).
Its ``index.html`` is the shell Docsify fills with the Markdown: its own text ("Loading ...") was a document. A file
of either name where no Docsify site is (an ``index.html`` that loads Docsify beside a ``README.md``) is a page."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

DOCSIFY_SITE = {  # what `docsify init` writes, with pino's pages and a sidebar (task U24)
    "index.html": "<!DOCTYPE html><html><head><meta charset=utf-8><title>Pino</title></head><body>"
                  "<div id=app>Loading ...</div><script>window.$docsify = { name: 'pino', loadSidebar: true, "
                  "loadNavbar: true }</script><script src=\"//cdn.jsdelivr.net/npm/docsify@5\"></script></body></html>",
    "README.md": "# pino\n\nVery low overhead JavaScript logger.\n",
    "_sidebar.md": "* [Readme](/)\n* [API](docs/api.md)\n* [Redaction](docs/redaction.md)\n",
    "_navbar.md": "* [GitHub](https://example.org/pino)\n",
    "docs/api.md": "# API\n\n## logger.level\n\nSet this property to the desired logging level.\n",
    "docs/redaction.md": "# Redaction\n\nUse the `redact` option to hide secrets.\n",
    "docs/_sidebar.md": "* [API](docs/api.md)\n",
}


def test_a_docsify_site_s_sidebar_and_navbar_are_left_out_as_navigation(tmp_path: Path) -> None:
    site = write_files(tmp_path / "sites" / "pino", DOCSIFY_SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site.parent], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["pino/README.md", "pino/docs/api.md", "pino/docs/redaction.md"]
    line = next(p for p in report.problems if "navigation" in p.message)
    assert line.warning and line.message.startswith(
        "3 site navigation files (a Docsify sidebar or navbar: links to the other pages: pino/_navbar.md, "
        "pino/_sidebar.md, pino/docs/_sidebar.md) and 1 Docsify page shell (the page Docsify fills with the Markdown "
        "beside it: pino/index.html) not ingested: pages for browsers")
    assert report.excluded == 4


def test_a_sidebar_file_outside_a_docsify_site_is_a_page_and_a_negated_pattern_takes_one_back(tmp_path: Path) -> None:
    notes = write_files(tmp_path / "notes", {"_sidebar.md": "* [Plan](plan.md)\n", "plan.md": "# Plan\n\nShip it.\n"})
    site = write_files(tmp_path / "pino", DOCSIFY_SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [notes], collection="notes", chunk_tokens=220)
        ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!_navbar.md"])
        assert document_keys(corpus, "notes") == ["_sidebar.md", "plan.md"]
        assert document_keys(corpus, "docs") == ["README.md", "_navbar.md", "docs/api.md", "docs/redaction.md"]


def test_an_index_page_that_loads_docsify_without_a_readme_beside_it_is_a_page(tmp_path: Path) -> None:
    """No README.md, no Docsify home page: a page that mentions Docsify's script is read as any page."""
    page = ("<html><head><title>Tools</title></head><body><h1>Tools</h1><p>We publish with docsify.js and write "
            "<code>window.$docsify</code> settings.</p></body></html>")
    site = write_files(tmp_path / "notes", {"index.html": page, "_sidebar.md": "* [Tools](/)\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["_sidebar.md", "index.html"]
