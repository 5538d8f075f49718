"""The dialects a Markdown source is written in, read into the CommonMark the Markdown reader parses.

Directive containers (``:::tip``), Hugo shortcodes (``{{< note >}}``) and Docsify's helpers (``?> tip``) read as
their label; with ``mdx``, ESM lines and component tags are not text (``dialects``); nor are Liquid tags
(``{% raw %}``), ``{% highlight ruby %}`` opens a code block (``markdown_liquid``), MDN's ``{{domxref("X")}}`` is a
link to X (``markdown_kumascript``); API Documenter's breadcrumbs are not text (``dialects.api_documenter``); MyST's
roles and directives read as Sphinx renders them (``markdown_myst``); MkDocs' ``/// tip | Title`` blocks read as
their label and mkdocstrings' ``::: package.Class`` lines are not text (``markdown_blocks``).
"""

from __future__ import annotations

from clew.corpus.ingest.formats.dialects import (
    api_documenter,
    directive_containers,
    docsify_helpers,
    hugo_shortcodes,
    mdx_to_markdown,
)
from clew.corpus.ingest.formats.markdown_blocks import mkdocs_blocks
from clew.corpus.ingest.formats.markdown_kumascript import kumascript_macros
from clew.corpus.ingest.formats.markdown_liquid import liquid_tags
from clew.corpus.ingest.formats.markdown_myst import myst


def as_commonmark(text: str, *, mdx: bool, slug: object = None) -> str:
    """``text`` (front matter removed) as CommonMark; ``slug``: the front matter's, for MDN's macros."""
    if mdx:
        return mdx_to_markdown(text)
    text = myst(api_documenter(mkdocs_blocks(text)))
    return kumascript_macros(liquid_tags(hugo_shortcodes(directive_containers(docsify_helpers(text)))), slug)
