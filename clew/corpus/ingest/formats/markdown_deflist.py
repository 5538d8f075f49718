"""MDN's definition lists in Markdown, for the Markdown reader (``clew.corpus.ingest.formats.markdown``).

MDN Web Docs writes a definition list as a bullet list whose items each hold the term and, as their
first nested item, the description, which starts with ``: ``::

    - `type`
      - : The type of control to render.

MDN's builder turns it into ``<dl><dt id="type"><code>type</code></dt><dd>...</dd></dl>``, and pages
link to the terms (``#type``, ``#value``). Such a list is rendered to that HTML here, so the HTML
reader reads it as it reads any definition list: each term with its description as one unit (a
section of its own in a long list), the term an anchor named as MDN names it: by its code (a
badge's label such as ``Optional`` left out), else its text, spaces as ``_``. Only a list all of
whose items have this shape is one (a term paragraph, then a nested list whose first item's text
starts with ``: ``); any other list is left as it is. Further nested items of an entry, and the
blocks after its nested list, belong to its description; a definition list in a description is
one too, and a GitHub alert there (``> [!NOTE]``) reads as an admonition, as at the top level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape as html_escape

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

_MARK = ": "
_SPACES = re.compile(r"\s+")
_RENDERER = RendererHTML()
GITHUB_ALERT = re.compile(r"<blockquote>\s*<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.IGNORECASE)
"""A GitHub alert's opening (``> [!NOTE]``) as markdown-it renders it."""


def definition_list_html(group: Sequence[Token], options: OptionsDict) -> str | None:
    """The HTML of a top-level block ``group`` (its tokens, parsed with ``options``) when it is an MDN
    definition list; None otherwise."""
    if not group or group[0].type != "bullet_list_open" or _entries(group) is None:
        return None
    return _render(list(group), _RENDERER, options)


def _close(tokens: Sequence[Token], index: int) -> int:
    """The index of the token that closes the one that opens at ``index``."""
    depth = 0
    for position in range(index, len(tokens)):
        depth += tokens[position].nesting
        if depth == 0:
            return position
    return len(tokens) - 1


def _entries(tokens: Sequence[Token]) -> list[tuple[int, int, int]] | None:
    """For a bullet list's tokens, each item's ``(open, nested list open, item close)`` indices when every
    item is a term paragraph followed by a nested list whose first item's text starts with ``: ``."""
    entries: list[tuple[int, int, int]] = []
    index = 1
    while index < len(tokens) - 1:
        item = tokens[index]
        if item.type != "list_item_open":
            return None
        close = _close(tokens, index)
        nested = index + 4
        if not (close > nested + 3 and tokens[index + 1].type == "paragraph_open"
                and tokens[nested].type == "bullet_list_open" and tokens[nested + 1].type == "list_item_open"
                and tokens[nested + 2].type == "paragraph_open"
                and tokens[nested + 3].content.startswith(_MARK)):
            return None
        entries.append((index, nested, close))
        index = close + 1
    return entries or None


def _term_id(inline: Token) -> str:
    """MDN's id for a term: its code (``message`` for ``- `message` {{optional_inline}}``, whose badge reads
    ``Optional``), else its text, white space as ``_``."""
    children = inline.children or []
    code = next((child.content for child in children if child.type == "code_inline"), None)
    text = code if code is not None else "".join(child.content for child in children if child.type == "text")
    return _SPACES.sub("_", text.strip())


def _unmarked(inline: Token) -> Token:
    """A copy of the description's first inline without its ``: ``."""
    copy = inline.copy()
    children = [child.copy() for child in inline.children or []]
    if children and children[0].type == "text":
        children[0].content = children[0].content[len(_MARK):].lstrip()
    copy.children, copy.content = children, inline.content[len(_MARK):].lstrip()
    return copy


def _definition_list(tokens: list[Token], entries: list[tuple[int, int, int]], renderer: RendererHTML,
                     options: OptionsDict) -> str:
    parts = ["<dl>\n"]
    for start, nested, close in entries:
        term = tokens[start + 2]
        name = _term_id(term)
        anchor = f' id="{html_escape(name)}"' if name else ""
        parts.append(f"<dt{anchor}>{renderer.renderInline(term.children or [], options, {})}</dt>\n<dd>\n")
        first_close = _close(tokens, nested + 1)
        nested_close = _close(tokens, nested)
        description = tokens[nested + 2:first_close]
        description[1] = _unmarked(description[1])
        if first_close + 1 < nested_close:  # more nested items: a list in the description
            description += [tokens[nested], *tokens[first_close + 1:nested_close + 1]]
        description += tokens[nested_close + 1:close]
        parts.append(_render(description, renderer, options))
        parts.append("</dd>\n")
    parts.append("</dl>\n")
    return "".join(parts)


def _render(tokens: list[Token], renderer: RendererHTML, options: OptionsDict) -> str:
    """``tokens`` as HTML, a definition list among them (at any depth outside one) as ``<dl>``."""
    parts: list[str] = []
    pending: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "bullet_list_open":
            close = _close(tokens, index)
            entries = _entries(tokens[index:close + 1])
            if entries is not None:
                parts.append(renderer.render(pending, options, {}))
                pending = []
                parts.append(_definition_list(tokens[index:close + 1], entries, renderer, options))
                index = close + 1
                continue
        pending.append(token)
        index += 1
    parts.append(renderer.render(pending, options, {}))
    return GITHUB_ALERT.sub(lambda found: f'<blockquote class="admonition"><p class="admonition-title">'
                                    f"{found.group(1).capitalize()}</p><p>", "".join(parts))
