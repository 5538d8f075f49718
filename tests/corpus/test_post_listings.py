"""A blog-style site's lists of posts (Pelican's ``index.html``, ``index2.html``, ``category/*.html``,
``author/*.html``: each a page of other pages' articles, in full or summarised) are pages for browsers: Pelican's
default theme on pymdown-extensions' 50 pages wrote 17 of them, and a search for one page's words found it four times,
three of them on list pages (task U25). A list is told by its hAtom marks: two entries (``hentry``) or two
publication dates (``published``); a post's own page has one of each."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files


def _post(slug: str, title: str, text: str) -> str:
    """A post's own page as Pelican's default theme (notmyidea) writes it."""
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} - PyMdown Extensions</title>'
            '</head><body id="index" class="home"><header id="banner" class="body"><h1><a href="/">PyMdown '
            'Extensions</a></h1></header><section id="content" class="body"><article><header><h1 class='
            f'"entry-title"><a href="/{slug}.html" rel="bookmark" title="Permalink to {title}">{title}</a></h1>'
            '</header><div class="entry-content"><footer class="post-info"><abbr class="published" title="2026-01-'
            '01T00:00:00+00:00">Published: Thu 01 January 2026</abbr></footer>'
            f'<h2 id="overview">Overview</h2><p>{text}</p></div></article></section></body></html>')


def _summary(slug: str, title: str, text: str) -> str:
    return (f'<li><article class="hentry"><header><h1><a href="/{slug}.html" rel="bookmark" title="Permalink to '
            f'{title}">{title}</a></h1></header><div class="entry-content"><footer class="post-info"><abbr class='
            f'"published" title="2026-01-01T00:00:00+00:00">Published: Thu 01 January 2026</abbr></footer>'
            f'<p>{text}</p><a class="readmore" href="/{slug}.html">read more</a></div></article></li>')


KEYS = "Keys is an extension to make entering and styling keyboard key presses easier."
TILDE = "Tilde adds the ability to insert subscripts and to delete text with double tildes."
CARET = "Caret adds the ability to insert superscripts and inserted text."

SITE = {
    "extensions-keys.html": _post("extensions-keys", "Keys", KEYS),
    "extensions-tilde.html": _post("extensions-tilde", "Tilde", TILDE),
    "extensions-caret.html": _post("extensions-caret", "Caret", CARET),
    # the first page of the list: the newest post in full (aside#featured), the next ones summarised
    "index.html": ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>PyMdown Extensions</title></head><body>'
                   '<aside id="featured" class="body"><article><h1 class="entry-title"><a href="/extensions-keys.html"'
                   '>Keys</a></h1><footer class="post-info"><abbr class="published" title="2026-01-01T00:00:00+00:00">'
                   f'Published: Thu 01 January 2026</abbr></footer><p>{KEYS}</p></article></aside><section id="content"'
                   ' class="body"><h1>Other articles</h1><hr /><ol id="posts-list" class="hfeed">'
                   + _summary("extensions-tilde", "Tilde", TILDE) + "</ol></section></body></html>"),
    "category/extensions2.html": ('<!DOCTYPE html><html><head><title>PyMdown Extensions - extensions</title></head>'
                                  '<body><section id="content" class="body"><ol id="posts-list" class="hfeed">'
                                  + _summary("extensions-tilde", "Tilde", TILDE)
                                  + _summary("extensions-caret", "Caret", CARET) + "</ol></section></body></html>"),
}


def test_a_sites_lists_of_posts_are_left_out_as_pages_for_browsers(tmp_path: Path) -> None:
    site = write_files(tmp_path / "site", SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["extensions-caret.html", "extensions-keys.html", "extensions-tilde.html"]
    line = next(p for p in report.problems if "list" in p.message)
    assert line.warning and line.message.startswith(
        "2 lists of posts (other pages' articles again: category/extensions2.html, index.html) not ingested: pages "
        "for browsers")
    assert report.excluded == 2


def test_a_post_page_with_one_entry_is_a_page_and_a_negated_pattern_takes_a_list_back(tmp_path: Path) -> None:
    """A post's own page (one entry, one date) is read; ``!index.html`` takes the list back."""
    site = write_files(tmp_path / "site", SITE)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!index.html"])
        assert document_keys(corpus) == ["extensions-caret.html", "extensions-keys.html", "extensions-tilde.html",
                                         "index.html"]
