"""The dialects a Markdown source is written in, read into the CommonMark the Markdown reader parses.

Directive containers (``:::tip``), Hugo shortcodes (``{{< note >}}``) and Docsify's helpers (``?> tip``) read as
their label; with ``mdx``, ESM lines and component tags are not text (``dialects``); nor are Liquid tags
(``{% raw %}``), ``{% highlight ruby %}`` opens a code block (``markdown_liquid``), MDN's ``{{domxref("X")}}`` is a
link to X (``markdown_kumascript``); API Documenter's breadcrumbs are not text (``dialects.api_documenter``); MyST's
roles and directives read as Sphinx renders them (``markdown_myst``); MkDocs' ``/// tip | Title`` blocks read as
their label and mkdocstrings' ``::: package.Class`` lines are not text (``markdown_blocks``); wikilinks
(``[[Page|text]]``) read as the links they stand for (``markdown_wikilinks``).
"""

from __future__ import annotations

from collections.abc import Mapping

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
from clew.corpus.ingest.formats.markdown_wikilinks import wikilinks


def as_commonmark(text: str, *, mdx: bool, slug: object = None, targets: Mapping[str, str] | None = None) -> str:
    """``text`` (front matter removed) as CommonMark; ``slug``: the front matter's, for MDN's macros; ``targets``:
    what its wikilinks name (``markdown_wikilinks.wikilink_targets``)."""
    if mdx:
        return mdx_to_markdown(text)
    text = myst(api_documenter(mkdocs_blocks(wikilinks(text, targets))))
    return kumascript_macros(liquid_tags(hugo_shortcodes(directive_containers(docsify_helpers(text)))), slug)
