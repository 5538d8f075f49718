"""Static-site generators' pages (task U22): Jekyll 4.3 with minima (kramdown, Rouge) on fastify's Markdown docs,
Hugo 0.111 on Hugo's own documentation site."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline


def test_a_heading_that_opens_a_blockquote_is_its_label() -> None:
    """fastify writes its callouts as Markdown's ``> ## Note`` (kramdown: ``<blockquote><h2 id="note">Note</h2>``):
    read as a section, "Note" held every later section of the page ("Your first plugin" and the 8 after it, 20 of
    Getting-Started's 25 passages); now the quote is one block of its section, its heading the label, as an
    admonition's. A quote without a heading stays paragraphs and code."""
    document = load_html("jekyll/fastify-getting-started.html")
    assert outline(document)[2:] == [("Getting Started", 2, 1), ("Install", 3, 2), ("Your first plugin", 3, 2)]
    texts = block_texts(document)
    note = next(text for text in texts if text.startswith("Note: The above examples"))
    assert "fastify.listen({ port: 3000, host: '0.0.0.0' }" in note and note.endswith("exposing the application.")
    assert "If you are using ECMAScript Modules (ESM) in your project, be sure to include “type”: “module” in your" \
           " package.json." in texts
    assert '```js\n{\n "type": "module"\n}\n```' in texts


def test_a_heading_after_a_quotes_first_block_still_opens_a_section() -> None:
    """Only a heading that opens the quote labels it: one after a paragraph of the quote is a heading as before."""
    document = parse_html("<html><head><title>T</title></head><body><h1>T</h1><blockquote><p>Quoted.</p>"
                          "<h2>Later</h2><p>Text.</p></blockquote><blockquote>\n  <h3>Tip</h3>\n  <p>Short.</p>"
                          "</blockquote></body></html>")
    document.check()
    assert outline(document) == [("T", 0, None), ("T", 1, 0), ("Later", 2, 1)]
    assert block_texts(document)[-1] == "Tip: Short."


def test_jekylls_improve_this_page_link_is_chrome() -> None:
    """Jekyll's documentation site writes "Improve this page" (a link into GitHub's editor, an icon before it) above
    every page's title: each docs page's first passage was that line alone. It is left out; the page opens with its
    title."""
    document = load_html("jekyll/jekyll-variables.html")
    assert "Improve this page" not in document.text
    assert block_texts(document)[0] == "# Variables"
    assert not any("/edit/" in link.href for link in document.links)


def test_hugos_last_updated_line_and_edit_link_are_chrome() -> None:
    """Hugo's documentation theme ends every page with an ``h6`` "Last updated: <date>" and "Improve this page" (a
    link into GitHub's editor): the page's last passage, a section under "See Also". The link is left out, and the
    heading with it, as a heading left with nothing but a table of contents is."""
    document = load_html("hugo-docs/front-matter.html")
    assert "Improve this page" not in document.text and "Last updated" not in document.text
    assert block_texts(document)[-1] == "- JSON Spec"


def test_an_edit_link_in_a_sentence_is_text() -> None:
    """A link into the editor that says more than an edit label is the sentence's ("Go ahead and edit it ...")."""
    document = parse_html('<html><head><title>T</title></head><body><h1>T</h1><p>Go ahead and <a href="https://github.'
                          'com/jekyll/jekyll/edit/master/docs/_docs/ci.md">edit it</a> if you want.</p><p><a href='
                          '"https://gitlab.com/g/p/-/edit/main/README.md">Edit this page</a></p></body></html>')
    document.check()
    assert block_texts(document) == ["# T", "Go ahead and edit it if you want."]
    assert [link.href for link in document.links] == ["https://github.com/jekyll/jekyll/edit/master/docs/_docs/ci.md"]


def test_a_link_to_a_host_urlsplit_refuses_is_read() -> None:
    """Groonga's tutorial links ``http://[:PORT_NUMBER]/...`` (a placeholder): the edit-link check reads such a link
    without ``urllib.parse.urlsplit``, which raises on it."""
    document = parse_html('<html><body><p>Open <a href="http://[:PORT_NUMBER]/index.html">the page</a>.</p>'
                          '</body></html>')
    document.check()
    assert document.text == "Open the page."


def test_the_label_of_hugos_table_of_contents_goes_with_it() -> None:
    """Hugo writes a page's table of contents as ``nav#TableOfContents`` (dropped, as every ``nav``); the label its
    theme writes right before it ("What's on this Page", a ``p``) stayed, every page's first line. It goes with the
    table of contents; other text before it stays."""
    document = load_html("hugo-docs/front-matter.html")
    assert "on this Page" not in document.text
    assert block_texts(document)[1].startswith("Hugo allows you to add front matter in yaml, toml, or json")
    document = parse_html('<html><body><h1>T</h1><div><h4>Table of Contents:</h4>\n<nav id="TableOfContents"><ul><li>'
                          '<a href="#a">A</a></li></ul></nav></div><p>Related</p><nav id="TableOfContents"></nav>'
                          '<h2 id="a">A</h2><p>Text.</p></body></html>')
    document.check()
    assert block_texts(document) == ["# T", "Related", "## A", "Text."]


def test_a_badge_reads_as_a_word_of_its_own() -> None:
    """Jekyll's documentation writes a version badge right after a heading's text (``span.version-badge``, spaced by
    the style sheet): "Theme Variables4.3.0" read as one word; now "Theme Variables 4.3.0". Bootstrap's ``span.badge``
    after a space reads as before."""
    document = load_html("jekyll/jekyll-variables.html")
    assert outline(document)[-1] == ("Theme Variables 4.3.0", 2, 1)
    document = parse_html('<h1>Example heading <span class="badge badge-secondary">New</span></h1><p>Messages<span '
                          'class="badge">4</span>.</p>')
    document.check()
    assert block_texts(document) == ["# Example heading New", "Messages 4."]


_MINIMA_HEAD = ('<html><head><title>Fastify | Fast and low overhead web framework, for Node.js</title>'
                '<meta property="og:title" content="Fastify" /><meta property="og:site_name" content="Fastify" />'
                '</head><body><header class="site-header"><a class="site-title" href="/">Fastify</a></header>'
                '<main class="page-content"><article class="post"><header class="post-header">'
                '<h1 class="post-title"></h1></header><div class="post-content">')


def test_a_page_titled_with_its_sites_name_takes_its_h1() -> None:
    """jekyll-seo-tag titles a page without a title of its own with the site's title and tagline ("Fastify | Fast and
    low overhead web framework, for Node.js", ``og:site_name`` "Fastify"): fastify's Serverless guide, whose source
    opens with ``<h1 align="center">Serverless</h1>``, was titled so. Its first ``h1`` that is not the site's name is
    the title; an ``h1`` that is the site's name keeps the site's title where text follows it (a home page's), and so
    does a page without an ``h1`` (a home page whose first heading is "Simple"). fastify's banner over every page,
    with its heading right after it, gives way to that heading (task R16, ``html_titles.banner_title``)."""
    serverless = parse_html(_MINIMA_HEAD + '<h1 align="center">Serverless</h1><p>Run serverless.</p><h2 id="aws">AWS'
                            '</h2><p>Text.</p></div></article></main></body></html>')
    home = parse_html(_MINIMA_HEAD + '<h2 id="simple">Simple</h2><p>Text.</p></div></article></main></body></html>')
    for document in (serverless, home):
        document.check()
    assert serverless.title == "Serverless"
    assert home.title == "Fastify | Fast and low overhead web framework, for Node.js"
    assert load_html("jekyll/fastify-getting-started.html").title == "Getting Started"
    own = _MINIMA_HEAD.replace("Fastify | Fast and low overhead web framework, for Node.js", "Principles | Fastify")
    own += "<h1>Principles</h1><p>Text.</p></div></article></main></body></html>"
    assert parse_html(own).title == "Principles"


def test_hugos_category_link_over_the_title_and_its_related_pages_are_chrome() -> None:
    """Hugo's documentation theme writes the page's category ("CONTENT MANAGEMENT", a link to
    ``/categories/content-management``) in the ``header`` above its ``h1``: every page's first line; and its related
    pages after the page, ``<h2>See Also</h2>`` over a list of links (no ``id``: every heading Hugo renders from
    Markdown has one), read as the page's last section. On a page Hugo built (its generator ``meta``) both are left
    out (task R15); elsewhere, and a See Also of the page's own Markdown, they stay."""
    document = load_html("hugo-docs/front-matter.html")
    assert block_texts(document)[0] == "# Front Matter"
    assert "CONTENT MANAGEMENT" not in document.text and "See Also" not in document.text
    assert outline(document)[-1] == ("Front Matter Format Specs", 2, 1)
    body = ('<body><main><div class="documentation-copy"><header class="flex-none w-100"><a href="/categories/'
            'templates" class="f6 fw8 mb0 link mid-gray dim mr3">TEMPLATES</a>\n<h1 class="lh-title">Lookup Order'
            '</h1></header><p>Text.</p>\n<h2 id="see-also">See Also</h2>\n<ul><li><a href="/a/">A</a></li></ul>\n'
            '<h2>See Also</h2>\n<ul>\n\t<li><a href="/b/">B</a></li>\n</ul></div></main></body></html>')
    hugo = parse_html('<html><head><meta name="generator" content="Hugo 0.111.3"><title>T</title></head>' + body)
    hugo.check()
    assert block_texts(hugo) == ["# Lookup Order", "Text.", "## See Also", "- A"]
    other = parse_html("<html><head><title>T</title></head>" + body)
    other.check()
    assert block_texts(other) == ["TEMPLATES", "# Lookup Order", "Text.", "## See Also", "- A", "## See Also", "- B"]
