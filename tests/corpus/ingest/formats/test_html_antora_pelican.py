"""Site generators' chrome (task U25): Antora 3.1 (its default UI's markup) on git's AsciiDoc pages, Pelican 4 with its
default theme (notmyidea) on pymdown-extensions' Markdown, MkDocs Material's comments block on Griffe's site."""

from __future__ import annotations

from tests.corpus.ingest.formats.documents import block_texts, load_html, outline


def test_antoras_explore_panel_is_navigation() -> None:
    """Antora's default UI writes, beside each page's navigation tree, the panel that lists the site's components and
    versions (``div.nav-container > aside.nav > div.nav-panel-explore``: "Git" "2.39", then a list of them): the page
    read "Git2.39 / - Git / - 2.39" before its title. The whole side column is navigation; the page opens with its
    title and its sections are the article's."""
    document = load_html("antora/git-worktree.html")
    assert document.title == "git-worktree(1)"
    assert block_texts(document)[0] == "# git-worktree(1)"
    assert "2.39" not in document.text and "Edit this Page" not in document.text
    assert [heading for heading, _, _ in outline(document)] == ["git-worktree(1)", "git-worktree(1)", "NAME",
                                                               "SYNOPSIS", "DESCRIPTION"]


def test_pelicans_blogroll_and_social_widgets_are_chrome() -> None:
    """Pelican's default theme ends every page with its blogroll (``div.blogroll``: an ``h2`` "links" over
    ``LINKS``) and its social links (``div.social``: "social" over ``SOCIAL``): two sections of every article's
    outline, the links its last passages. They are left out; the article ends with its own options table."""
    document = load_html("pelican/extensions-tilde.html")
    headings = [heading for heading, _, _ in outline(document)]
    assert "links" not in headings and "social" not in headings
    assert headings[:3] == ["Tilde", "Tilde", "Overview"]
    assert "Python-Markdown" not in document.text and "Proudly powered" not in document.text
    assert block_texts(document)[-1].startswith("| punctuation | bool | False |")


def test_materials_comments_heading_is_chrome() -> None:
    """MkDocs Material's comment system (its documented Giscus block, ``h2#__comments`` over the script that loads
    the comments) read as a last section "Feedback" with no text. The heading is left out with the block; the page
    ends with its own last section."""
    document = load_html("mkdocs-material/griffe-loading.html")
    headings = [heading for heading, _, _ in outline(document)]
    assert "Feedback" not in headings
    assert headings[-1] == "Search paths"
    assert block_texts(document)[-1].startswith("If Griffe cannot find sources for the specified object")


def test_materials_title_leaves_out_the_site_name_in_its_header() -> None:
    """MkDocs Material titles a page "<navigation title> - <site name>" and writes the site's name in its header
    (the first ``div.md-header__topic``; the second is the page's). Where the page's ``h1`` is not the navigation
    title ("Loading APIs" under "Loading"), the title kept the site's name: 33 of Griffe's 80 pages ("Loading -
    Griffe"). The header's name is the site's, as a chrome ``h1`` is; the page is "Loading"."""
    assert load_html("mkdocs-material/griffe-loading.html").title == "Loading"
    assert load_html("mkdocs-material/budgets.html").title == "Budgets"
