"""A site's lists of links to its own pages (Pelican's ``archives.html``, ``tags.html``, ``categories.html``,
``authors.html``: a heading over links, each perhaps with a date or a count) are pages for browsers: Pelican's default
theme on pymdown-extensions' pages wrote four of them beside U25's lists of posts (task R15). A page with text of its
own under the same structure, or whose links leave the site, is a page."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files


def _page(title: str, content: str) -> str:
    """A page as Pelican's default theme (notmyidea) writes it: the site's banner and navigation, the content
    section, the blogroll."""
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" /><meta name="generator" content="Pelican" />'
            f'<title>{title}</title></head><body id="index" class="home"><header id="banner" class="body"><h1><a '
            'href="/">PyMdown Extensions</a></h1><nav><ul><li><a href="/category/about.html">about</a></li><li><a '
            'href="/category/extensions.html">extensions</a></li></ul></nav></header><!-- /#banner -->\n'
            f'    <section id="content" class="body">\n{content}\n    </section>\n<section id="extras" class="body">'
            '<div class="blogroll"><h2>links</h2><ul><li><a href="https://www.mkdocs.org/">MkDocs</a></li></ul></div>'
            '</section><footer id="contentinfo" class="body"><address id="about" class="vcard body">Proudly powered '
            'by <a rel="nofollow" href="https://getpelican.com/">Pelican</a>.</address></footer></body></html>')


KEYS = ('<article><header><h1 class="entry-title"><a href="/extensions-keys.html" rel="bookmark">Keys</a></h1>'
        '</header><div class="entry-content"><h2 id="overview">Overview</h2><p>Keys is an extension to make entering '
        'and styling keyboard key presses easier.</p></div></article>')
SITE = {
    "extensions-keys.html": _page("Keys - PyMdown Extensions", KEYS),
    "archives.html": _page("PyMdown Extensions", '        <h1>Archives for PyMdown Extensions</h1>\n\n        <dl>\n'
                           '                <dt>Thu 01 January 2026</dt>\n                <dd><a href="/about-changelog'
                           '.html">Changelog</a></dd>\n                <dt>Thu 01 January 2026</dt>\n'
                           '                <dd><a href="/extensions-keys.html">Keys</a></dd>\n        </dl>'),
    "categories.html": _page("PyMdown Extensions - Categories", '        <h1>Categories for PyMdown Extensions</h1>\n'
                             '        <ul>\n                <li><a href="/category/about.html">about</a> (9)</li>\n'
                             '                <li><a href="/category/extensions.html">extensions</a> (35)</li>\n'
                             '        </ul>'),
    "tags.html": _page("PyMdown Extensions - Tags", "        <h1>Tags for PyMdown Extensions</h1>\n        <ul>\n"
                       "        </ul>"),
    # the same structure with a sentence of its own, and links that leave the site: pages
    "about.html": _page("About - PyMdown Extensions", '<h1 class="entry-title">About</h1><p>See the <a href="/'
                        'extensions-keys.html">Keys</a> page for key presses.</p>'),
    "elsewhere.html": _page("Elsewhere - PyMdown Extensions", '<h1>Elsewhere</h1><ul><li><a href="https://python-'
                            'markdown.github.io/">Python-Markdown</a></li></ul>'),
}


def test_a_sites_lists_of_links_are_left_out_as_pages_for_browsers(tmp_path: Path) -> None:
    site = write_files(tmp_path / "site", SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["about.html", "elsewhere.html", "extensions-keys.html"]
    line = next(p for p in report.problems if "links" in p.message)
    assert line.warning and line.message.startswith(
        "3 lists of links (only links to the site's pages: archives.html, categories.html, tags.html) not ingested: "
        "pages for browsers")
    assert report.excluded == 3


def test_a_negated_pattern_takes_a_list_of_links_back(tmp_path: Path) -> None:
    site = write_files(tmp_path / "site", SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!archives.html"])
        assert "archives.html" in document_keys(corpus)
        assert "tags.html" not in document_keys(corpus)


def test_a_definition_list_whose_terms_are_not_closed_is_a_page(tmp_path: Path) -> None:
    """HTML lets a ``dt`` end where the next ``dt`` or ``dd`` opens: read as still open, the term made every word
    after it a label, and a glossary of its own text was left out as a list of links (review V6 of 0344756)."""
    site = write_files(tmp_path / "site", {
        "glossary.html": _page("Glossary - PyMdown Extensions", '<h1>Glossary</h1><dl><dt>Keys<dd>An extension that '
                               'styles <a href="/extensions-keys.html">key presses</a>.<dt>Caret<dd>Inserts text.'
                               "</dl>"),
        "archives.html": SITE["archives.html"].replace("</dt>", ""),
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["glossary.html"]
    assert report.excluded == 1


def test_a_page_of_headings_without_links_is_a_page(tmp_path: Path) -> None:
    """A list of links holds links: a page whose content is a heading over a figure, or over a table of numbers, has
    no words of its own either, and was left out as a list of links (review V6 of 0344756)."""
    site = write_files(tmp_path / "site", {
        "architecture.html": _page("Architecture - PyMdown Extensions", '<h1>Architecture</h1><img src="arch.png" '
                                   'alt="The extensions and the parser">'),
        "timings.html": _page("Timings - PyMdown Extensions", "<h1>Timings</h1><table><tr><td>12.5</td><td>300</td>"
                              "</tr></table>"),
        "categories.html": SITE["categories.html"],
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["architecture.html", "timings.html"]
    assert report.excluded == 1
