"""The inline text of Markdown, for the Markdown reader (``clew.corpus.ingest.formats.markdown``): a
heading's GitHub slug and attribute list, the plain text an inline sequence renders to, link labels
and link reference definitions, what an overloaded function's heading names, and which inline
tokens the reader has markdown-it parse (``read_needed_inlines``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

_ASCII_DROPPED = re.compile(r"[^a-z0-9 _-]")
_ATTRIBUTE = r"""(?:#[^\s{}]+|\.[\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s{}"']+))"""
HEADING_ATTRIBUTES = re.compile(r"(?:\s+#+)?\s*\{:?\s*(" + _ATTRIBUTE + r"(?:\s+" + _ATTRIBUTE + r")*)\s*\}\s*$")
_ID = re.compile(r"(?:^|\s)#([^\s{}]+)")
IAL_LINE = re.compile(r"""[ \t]{0,3}\{:(?:[^{}"'\n]|"[^"\n]*"|'[^'\n]*')*\}[ \t]*""")
"""A line that is a kramdown attribute list (``{: .note}``, ``{: #id}``, ``{:toc}``) or definition
(``{:refname: .class}``, ``{::options ... /}``): attributes of the block before it, not text."""
IAL_ID = re.compile(r"\{:[^}\n]*?(?<=[\s:])#([^\s{}]+)")
IAL_PREFIX = re.compile(r"""[ \t]{0,3}(\{:(?:[^{}"'\n]|"[^"\n]*"|'[^'\n]*')*\}[ \t]*)(?=\S)""")
"""An attribute list that opens a line of text (``{: .note} When defining ...``)."""


def heading_attributes(heading: str) -> tuple[str, list[str] | None]:
    """A heading's text without the attribute list at its end, and the ids it names: ``Linking to pages
    {#link}`` (Pandoc, PHP Markdown Extra, kramdown and Jekyll, Docusaurus, Hugo) or ``{: #link .class}``
    (kramdown, Python-Markdown's attr_list and MkDocs) is ``Linking to pages``, its fragment ``link``;
    None where the heading has no attribute list."""
    found = HEADING_ATTRIBUTES.search(heading) if "{" in heading else None  # the list is in braces
    if found is None or found.start() == 0:
        return heading, None
    return heading[: found.start()], _ID.findall(found.group(1))


def github_slug(heading: str) -> str:
    """The fragment GitHub gives a heading: lowercase, spaces to ``-``, punctuation dropped.

    Letters, digits, combining marks, ``-`` and ``_`` are kept. :func:`parse_markdown`
    numbers duplicates (``slug-1``, ``slug-2``, ...).
    """
    lowered = heading.strip().lower()
    if lowered.isascii():  # the common case, in C: ASCII letters and digits are the only L, N and M there
        return _ASCII_DROPPED.sub("", lowered).replace(" ", "-")
    kept: list[str] = []
    for char in lowered:
        if char == " ":
            kept.append("-")
        elif char in "-_" or unicodedata.category(char)[0] in "LNM":
            kept.append(char)
    return "".join(kept)


def inline_text(children: Sequence[Token]) -> str:
    """The text an inline sequence renders to, without markup (image alt text included)."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(inline_text(child.children) if child.children else child.content)
    return "".join(parts)


def overload_name(heading: str) -> str:
    """What a heading names before its parameter list (``http.get`` of ``http.get(url[, options])``), or ""."""
    name, paren, _ = heading.partition("(")
    return name.strip() if paren else ""


def link_labels(children: Sequence[Token]) -> Iterator[tuple[Token, str]]:
    """Every ``link_open`` among an inline's children, with the plain text of its label."""
    for position, child in enumerate(children):
        if child.type != "link_open":
            continue
        label: list[Token] = []
        for inner in children[position + 1 :]:
            if inner.type == "link_close":
                break
            label.append(inner)
        yield child, inline_text(label).strip()


_DEFINITION = re.compile(r" {0,3}\[[^\]]+\]:")


def reference_definitions(lines: list[str], groups: Sequence[Sequence[Token]]) -> list[tuple[int, int]]:
    """The line spans ``(first, stop)`` of link reference definitions (``[fs.rm()]: #fsrmpath``): the
    lines between top-level blocks that markdown-it read as definitions, which make no token. They
    are not text a reader sees (their links are resolved where they are used), so they are left
    out of the stored text: Node.js's API docs end with hundreds of them, which were chunks of their
    own that matched every function name."""
    spans: list[tuple[int, int]] = []
    covered = 0
    for start, stop in [*(group[0].map for group in groups if group[0].map), (len(lines), len(lines))]:
        gap = [number for number in range(covered, start) if lines[number].strip()]
        if gap and _DEFINITION.match(lines[gap[0]]):
            spans.append((gap[0], gap[-1] + 1))
        covered = max(covered, stop)
    return spans


def read_needed_inlines(state: StateCore) -> None:
    """markdown-it's core ``inline`` rule (every inline token's parts: text, links, emphasis, code spans),
    less the parts of a top-level paragraph that the reader never reads: its text is the source, so a
    paragraph's parts matter only for its links (written with ``[``, or autolinked with ``<``) and its raw
    HTML (a ``<``, and then any block may be rendered: the reader's ``add_html``). In a document without
    ``<``, a top-level paragraph without ``[`` keeps no parts (``children`` empty), and a top-level heading
    without a character that stops markdown-it's text rule gets the one text token that rule would make of
    it (only its text is read: ``inline_text``). List items (a definition list is rendered from its parts),
    table cells, quotes and every other heading are parsed. In the generated benchmark corpus 4 of every 9
    inline tokens are such paragraphs, and markdown-it's time there fell by about a sixth
    (docs/measurements/performance-2026-12-05.md, task IM)."""
    parse, md, env = state.md.inline.parse, state.md, state.env
    every = "<" in state.src
    # what stops markdown-it's text rule (markdown-it-py 4; None before): a heading without any of these
    # characters is one text token, its content, whatever the other rules are
    marks = getattr(md.inline, "terminator_re", None)
    previous: Token | None = None
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            if every or "[" in token.content or previous is None or previous.level:
                parse(token.content, md, env, token.children)
            elif previous.type == "heading_open" and marks is not None and marks.search(token.content) is None:
                plain = Token("text", "", 0)  # what the text rule's pending text becomes
                plain.content = token.content
                if plain.content:
                    token.children.append(plain)
            elif previous.type != "paragraph_open":
                parse(token.content, md, env, token.children)
        previous = token
