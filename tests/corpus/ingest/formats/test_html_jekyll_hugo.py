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
