"""A banner over every page (task R16): fastify 4.29.1's documentation opens each Markdown page with the project's
name, ``<h1 align="center">Fastify</h1>``, then the page's own heading; as source, built by Jekyll (minima,
jekyll-seo-tag) or by VitePress, 35-38 of its 41 pages were titled "Fastify". The heading after the banner is the
page's title; a home page whose banner stands over text keeps the project's name."""

from __future__ import annotations

import subprocess
import sys

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_titles import banner_title
from clew.corpus.ingest.formats.markdown import parse_markdown

SERVER = ('<h1 align="center">Fastify</h1>\n\n## Factory\n<a id="factory"></a>\n\n'
          "The Fastify module exports a factory function that is used to create new\n"
          "<code><b>Fastify server</b></code> instances.\n\n### `http`\n\nDefault: `null`\n")
TESTING = ('<h1 style="text-align: center;">Fastify</h1>\n\n# Testing\n<a id="testing"></a>\n\n'
           "Testing is one of the most important parts of developing an application.\n")
HOME = ('<h1 align="center">Fastify</h1>\n\nThe documentation for Fastify is split into two categories:\n\n'
        "- [Reference documentation](./Reference/Index.md)\n- [Guides](./Guides/Index.md)\n\n## Where To Start\n\n"
        "Complete newcomers to Fastify should first read our Getting Started guide.\n")

JEKYLL = ('<!DOCTYPE html>\n<html lang="en"><head>\n  <meta charset="utf-8">\n'
          "<title>Fastify | Fast and low overhead web framework, for Node.js</title>\n"
          '<meta name="generator" content="Jekyll v4.3.1" />\n<meta property="og:title" content="Fastify" />\n'
          '<meta property="og:site_name" content="Fastify" />\n</head><body>'
          '<header class="site-header" role="banner"><div class="wrapper">'
          '<a class="site-title" rel="author" href="/">Fastify</a></div></header>\n'
          '<main class="page-content" aria-label="Content">\n      <div class="wrapper">\n'
          '        <article class="post">\n'
          '  <header class="post-header">\n    <h1 class="post-title"></h1>\n  </header>\n\n'
          '  <div class="post-content">\n    <h1 align="center">Fastify</h1>\n\n<h2 id="factory">Factory</h2>\n'
          '<p><a id="factory"></a></p>\n\n<p>The Fastify module exports a factory function that is used to create new\n'
          "<code><b>Fastify server</b></code> instances.</p>\n  </div>\n</article></div></main></body></html>\n")
VITEPRESS = ('<!DOCTYPE html>\n<html lang="en-US" dir="ltr">\n  <head>\n    <meta charset="utf-8">\n'
             "    <title>Fastify</title>\n"
             '    <meta name="generator" content="VitePress v1.6.4">\n  </head>\n  <body>\n    <div id="app">'
             '<header class="VPNav"><div class="VPNavBarTitle"><a class="title" href="/" data-v-1168a8e4>'
             '<!--[--><!--]--><!----><span data-v-1168a8e4>Fastify</span><!--[--><!--]--></a></div></header>'
             '<div class="content"><main class="main"><div style="position:relative;" class="vp-doc _Reference_Server">'
             '<div><h1 align="center">Fastify</h1><h2 id="factory" tabindex="-1">Factory <a class="header-anchor" '
             'href="#factory" aria-label="Permalink to &quot;Factory&quot;">\u200b</a></h2><p><a id="factory"></a></p>'
             "<p>The Fastify module exports a factory function that is used to create new <code><b>Fastify server</b>"
             "</code> instances.</p></div></div></main></div></div>\n  </body>\n</html>\n")


def test_the_heading_after_a_centred_banner_titles_a_markdown_page() -> None:
    """fastify's Testing guide (``style="text-align: center;"``, then ``# Testing``, where the banner, an ``h1``
    with nothing under it, reads as a paragraph) was titled "Fastify". Its Server page as source (``## Factory`` after
    the banner) keeps it: the page alone cannot tell the banner from a page's own centred title over its first
    section (SQLite's, below), nor, with a logo beside it, from a repository's README over its first section."""
    testing = parse_markdown(TESTING)
    testing.check()
    assert (testing.title, [section.heading for section in testing.sections]) == ("Testing", ["Testing", "Testing"])
    logo = ('<div align="center">\n  <a href="https://fastify.dev"><img src="logo.png" alt="logo"></a>\n'
            "  <h1>Fastify</h1>\n</div>\n\n")
    server = parse_markdown(logo + SERVER[SERVER.index("## Factory"):])
    server.check()
    assert server.title == "Fastify"
    readme = parse_markdown('<div align="center">\n  <img src="logo.svg" alt="Widget logo">\n  <h1>Widget</h1>\n'
                            "</div>\n\n## Features\n\nWidget does things.\n")
    assert readme.title == "Widget"
    assert parse_markdown(SERVER).title == "Fastify"


def test_the_heading_after_the_banner_titles_the_page_built_by_jekyll_or_vitepress() -> None:
    """The same page built: Jekyll's ``<title>`` is the site's with its tagline (jekyll-seo-tag), VitePress's the
    banner's text; the site's name is the banner's (``og:site_name``, the navbar's link home), so the heading after
    the banner titles the page."""
    for page in (JEKYLL, VITEPRESS):
        document = parse_html(page)
        document.check()
        assert (document.title, document.sections[0].heading) == ("Factory", "Factory")


def test_the_banner_titles_the_page_a_mirror_saved() -> None:
    """fastify's VitePress site saved by HTTrack 3.49 (task U29): its comments before ``<head>``, its links made
    relative, the navbar's link home ``../index.html`` (``index.html`` on the home page, as wget
    ``--convert-links`` writes it too). 28 of 44 pages were titled "Fastify" (their build folder's: "Factory", ...)."""
    mirrored = VITEPRESS.replace(
        "<html lang=\"en-US\" dir=\"ltr\">\n  <head>",
        "<html lang=\"en-US\" dir=\"ltr\">\n  \n<!-- Mirrored from 127.0.0.1:18762/Reference/Server.html by HTTrack "
        "Website Copier/3.x [XR&CO'2014], Mon, 07 Dec 2026 10:39:17 GMT -->\n<head>")
    assert mirrored != VITEPRESS
    for home in ("../index.html", "../../index.html", "../", "./index.html", "index.html"):
        page = mirrored.replace('class="title" href="/"', f'class="title" href="{home}"')
        assert page != mirrored
        document = parse_html(page)
        document.check()
        assert (home, document.title, document.sections[0].heading) == (home, "Factory", "Factory")
    other = parse_html(mirrored.replace('class="title" href="/"', 'class="title" href="../guide.html"'))
    assert other.title == "Fastify"  # a link elsewhere names no site


def test_a_home_page_banner_over_text_and_an_uncentred_heading_keep_their_titles() -> None:
    """The home page's banner stands over text: it stays "Fastify". An ``h1`` that is not centred, or a front
    matter's title, is the page's own title; a centred ``h1`` after another heading is no banner; a ``div`` banner
    holding the logo and the name is one."""
    assert parse_markdown(HOME).title == "Fastify"
    assert parse_markdown(TESTING.replace(' style="text-align: center;"', "")).title == "Fastify"
    assert parse_markdown("---\ntitle: Fastify\n---\n" + TESTING).title == "Fastify"
    assert parse_markdown("## Intro\n\nText.\n\n" + TESTING).title == "Fastify"  # the first h1, as before
    assert parse_markdown('<div align="center">\n  <h1>Fastify</h1>\n  <p>Fast.</p>\n</div>\n\n# Factory\n').title == (
        "Fastify")
    unchanged = parse_html(JEKYLL.replace('<h2 id="factory">Factory</h2>', "<p>Text.</p>"))
    assert banner_title(unchanged, JEKYLL).title == unchanged.title


def test_a_pages_own_centred_title_over_its_first_section_is_no_banner() -> None:
    """SQLite's pages centre their own title (``<h1 align="center">Rowid Tables</h1>`` then ``<h2>1.0
    Definition</h2>``; the eval set's rowidtable.html): no logo, no ``h1`` after it, and the site is not named so
    (its home link holds the logo), so the page keeps its title."""
    page = ('<html><head><title>Rowid Tables</title></head><body><div class="nosearch">'
            '<a href="index.html"><img class="logo" src="images/sqlite370_banner.gif" alt="SQLite"></a>'
            '<div><span class="tagline">Small. Fast. Reliable.</span></div></div>\n'
            '<h1 align="center">Rowid Tables</h1>\n\n<h2>1.0 Definition</h2>\n\n<p>A "rowid table" is any table in an'
            " SQLite schema that is not a virtual table.</p>\n</body></html>\n")
    assert parse_html(page).title == "Rowid Tables"
    assert parse_markdown(SERVER.replace("Fastify</h1>", "Rowid Tables</h1>")).title == "Rowid Tables"


LINEAR_SCRIPT = r"""
from clew.corpus.ingest.formats.html_titles import _BANNER, _CENTRED, _HEADING, _banner, _site_named
n = 200_000
print(_BANNER.search('<div align="center">' + "<div " * (n // 5)) is None,
      _BANNER.search('<h1 align="center">a</h1>' + "<!-- -->" * (n // 8)) is None,
      _site_named('<meta property="og:site_name" ' * (n // 30), "a"), _site_named('<a href="/">' * (n // 12), "a"),
      _CENTRED.search('style="' * (n // 7)) is None, _HEADING.search("#" * n) is None,
      _banner('<p align="center">' + "<img src=x>" * (n // 11) + "<h1>a" * (n // 5)) is None, flush=True)
"""


def test_the_banner_patterns_take_time_linear_in_a_page() -> None:
    """The banner's and the site's name's patterns on runs of tags that never close, in a child process: the first
    draft's ``<meta\\s[^>]*?\\bproperty=...[^>]*?\\bcontent=`` had not finished the ``og:site_name`` run below in
    100 s, its ``<div\\s[^>]*+>`` read the ``<div`` run in 2.2 s (quadratic); now each is a tag read at a time."""
    done = subprocess.run([sys.executable, "-c", LINEAR_SCRIPT], capture_output=True, text=True, timeout=60,
                          check=False)
    assert (done.returncode, done.stdout.split()) == (0, ["True"] * 2 + ["False"] * 2 + ["True"] * 3), done.stderr
