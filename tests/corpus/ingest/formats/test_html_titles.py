"""Pandoc's title block (``pandoc -s``, 2.17; task U19): its subtitle, authors, date and abstract are the document's
first paragraphs, its title the document's title and no section."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

HEAD = ('<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="" xml:lang="">\n<head>\n'
        '  <meta charset="utf-8" />\n  <meta name="generator" content="pandoc" />\n  <title>Budgets</title>\n</head>\n'
        '<body>\n')
BLOCK = ('<header id="title-block-header">\n<h1 class="title">Budgets</h1>\n<p class="subtitle">A short guide</p>\n'
         '<p class="author">Jane Roe</p>\n<p class="date">2026-12-07</p>\n<div class="abstract">\n'
         '<div class="abstract-title">Abstract</div>\nHow a walk stops.\n</div>\n</header>\n')
BODY = ('<nav id="TOC" role="doc-toc">\n<ul>\n<li><a href="#limits"><span class="toc-section-number">1</span>\n'
        'Limits</a></li>\n</ul>\n</nav>\n<section id="limits" class="level1" data-number="1">\n<h1 data-number="1">'
        '<span class="header-section-number">1</span>\nLimits</h1>\n<p>A walk stops when its budget binds.</p>\n'
        '</section>\n</body>\n</html>\n')


def test_a_pandoc_title_blocks_abstract_and_byline_are_read() -> None:
    """The title block (``header#title-block-header``) was chrome with every ``header``: the abstract, the page's
    summary, was lost with the subtitle, author and date. They are its first paragraphs now; the ``h1.title`` is the
    document's title, not a section over the page."""
    document = parse_html(HEAD + BLOCK + BODY)
    document.check()
    assert document.title == "Budgets"
    assert document.text == ("A short guide\n\nJane Roe\n\n2026-12-07\n\nAbstract\n\nHow a walk stops.\n\n"
                             "# 1 Limits\n\nA walk stops when its budget binds.")
    assert [(section.heading, section.level) for section in document.sections] == [("Budgets", 0), ("1 Limits", 1)]


def test_a_title_block_of_a_title_alone_adds_nothing() -> None:
    """A page whose title block holds only its title (with markup) reads as before, and a page that names no pandoc
    keeps its ``header`` chrome."""
    only = parse_html(HEAD + '<header id="title-block-header">\n<h1 class="title"><em>Budgets</em></h1>\n</header>\n'
                      + BODY)
    assert only.text.startswith("# 1 Limits")
    other = parse_html(HEAD.replace("pandoc", "other") + BLOCK + BODY)
    assert other.text.startswith("# 1 Limits")


SPHINX_ROOT = ('<!doctype html>\n<html class="no-js" lang="en">\n  <head><meta charset="utf-8"/>\n<'
               'link rel="index" title="Index" href="genindex.html" />\n    <!-- Generated with S'
               'phinx 5.3.0 and Furo 2022.12.07 -->\n        <title>{title}</title>\n</head>\n<body'
               '>\n<div class="page">\n<div class="main">\n<div class="content">\n<article role="mai'
               'n">\n<section id="structlog">\n<h1>structlog<a class="headerlink" href="#structlog'
               '" title="Permalink to this heading">#</a></h1>\n<p><em>Simple. Powerful. Fast. Pi'
               'ck three.</em></p>\n<p>Release <strong>22.3.0</strong></p>\n</section>\n</article>\n'
               '</div>\n</div>\n</div>\n</body>\n</html>\n')


def test_a_sphinx_root_page_is_titled_by_its_h1_not_the_projects_release() -> None:
    """Sphinx titles its root page with its default ``html_title`` alone, "<project> <release> documentation"
    (structlog 22.3.0's manual, Furo; task E13): the page's title was "structlog 22.3.0 documentation" over the
    ``h1`` "structlog". It is the ``h1`` now; a ``<title>`` that is not the ``h1``, a release and "documentation"
    stays the title."""
    assert parse_html(SPHINX_ROOT.format(title="structlog 22.3.0 documentation")).title == "structlog"
    assert parse_html(SPHINX_ROOT.format(title="structlog v1.0rc1 documentation")).title == "structlog"
    assert parse_html(SPHINX_ROOT.format(title="structlog handbook")).title == "structlog handbook"
    assert parse_html(SPHINX_ROOT.format(title="structlogger 2 documentation")).title == "structlogger 2 documentation"
