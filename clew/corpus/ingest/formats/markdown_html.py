"""Raw HTML in Markdown, for the Markdown reader (``clew.corpus.ingest.formats.markdown``): which
top-level blocks hold it, how far a block that leaves an element open runs (to the block that
closes it), and the ``<a id>`` / ``<a name>`` anchors written in it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence

from markdown_it.token import Token

from clew.corpus.ingest.formats.text import line_span

_HTML_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?>")
_UNBALANCED_OK = frozenset("area base br col embed hr img input link meta param source track wbr"
                           " p li dt dd tr td th thead tbody tfoot option".split())
"""Tags whose end a raw HTML block need not write (void, or ended implicitly): they open nothing that
holds the Markdown after them."""
MAX_HTML_RUN = 1000
"""Top-level blocks at most between a raw HTML block that leaves an element open and the one that
closes it; further apart, the opening block is read alone."""
_HTML_ANCHOR = re.compile(
    r"""<a\s[^>]*?\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))""", re.IGNORECASE
)


def has_html(group: Sequence[Token]) -> bool:
    """Whether a top-level block's tokens hold raw HTML (an HTML block, or inline HTML)."""
    return any(token.type == "html_block" or (token.type == "inline" and any(
        child.type == "html_inline" for child in token.children or [])) for token in group)


def _open_elements(html: str, open_: Counter[str]) -> None:
    """Count in ``open_`` the elements ``html`` opens, less those it closes (``<details>`` before the
    Markdown it holds opens one, the ``</details>`` after it closes one); an end tag that closes
    nothing open is ignored."""
    for match in _HTML_TAG.finditer(html):
        tag = match.group(2).lower()
        if tag in _UNBALANCED_OK or match.group(0).endswith("/>"):
            continue
        if not match.group(1):
            open_[tag] += 1
        elif open_[tag] > 1:
            open_[tag] -= 1
        else:
            del open_[tag]


def end_tags(groups: Sequence[Sequence[Token]]) -> dict[str, list[int]]:
    """tag -> the index of the top-level group of each of its end tags in a raw HTML block, in order."""
    ends: dict[str, list[int]] = {}
    for index, group in enumerate(groups):
        if group[0].type == "html_block":
            for match in _HTML_TAG.finditer(group[0].content):
                if match.group(1):
                    ends.setdefault(match.group(2).lower(), []).append(index)
    return ends


def html_stop(groups: Sequence[Sequence[Token]], index: int, ends: dict[str, list[int]]) -> int | None:
    """Where the run of top-level groups read as HTML from ``groups[index]`` ends, or None when that
    group holds no raw HTML. A raw HTML block that leaves elements open (``<details>``, ``<div
    align="center">``) runs on to the block that closes them (``MAX_HTML_RUN`` groups at most); when
    none does, it is read alone. ``ends`` (``end_tags``) tells at once whether enough end tags follow:
    scanning to the end for each of 4,000 ``<div>`` never closed took 10 s."""
    group = groups[index]
    if not has_html(group):
        return None
    open_: Counter[str] = Counter()
    if group[0].type == "html_block":
        _open_elements(group[0].content, open_)
    for tag, count in open_.items():
        later = ends.get(tag, [])
        if len(later) - bisect_right(later, index) < count:
            return index + 1
    stop = index + 1
    while open_ and stop < len(groups) and stop - index <= MAX_HTML_RUN:
        if groups[stop][0].type == "html_block":
            _open_elements(groups[stop][0].content, open_)
        stop += 1
    return index + 1 if open_ else stop


def html_tokens(groups: Sequence[Sequence[Token]]) -> list[Token]:
    """The tokens of a run of top-level groups read as HTML (``html_stop``), an indented code block
    inside an open ``<table>`` made raw HTML: a blank line ends a CommonMark HTML block, and the
    indented cell text after it (Jekyll's docs: ``<td><p>``, a blank line, then ``The relative path
    to the file, e.g. <code>/assets/img/image.jpg</code>``) would be a code block of tags. Markdown
    processors that keep an HTML element whole to its end tag (kramdown, Python-Markdown) read it
    as the cell's text; fenced code and other Markdown in a cell stay Markdown, as GitHub reads them."""
    tokens: list[Token] = []
    open_: Counter[str] = Counter()
    for group in groups:
        first = group[0]
        if first.type == "code_block" and open_["table"]:
            tokens.append(Token("html_block", "", 0, content=first.content, map=first.map, block=True))
            continue
        if first.type == "html_block":
            _open_elements(first.content, open_)
        tokens.extend(group)
    return tokens


def html_anchors(text: str, starts: list[int], group: Sequence[Token]) -> Iterator[tuple[str, int]]:
    """``<a id=..>`` / ``<a name=..>`` in a top-level block's HTML blocks and inline HTML, with their
    offsets in ``text`` (whose lines start at ``starts``).

    A tag is looked for in its token's lines; one that is not found there (written
    across a container's markers) gets the first of those lines.
    """
    cursor = 0
    for token in group:
        if token.map is None or token.type not in ("html_block", "inline"):
            continue
        low, high = line_span(text, starts, *token.map)
        cursor = max(cursor, low)
        pieces = [token] if token.type == "html_block" else token.children or []
        for piece in pieces:
            if piece.type not in ("html_block", "html_inline"):
                continue
            for match in _HTML_ANCHOR.finditer(piece.content):
                name = next(value for value in match.groups() if value is not None)
                found = text.find(match.group(0), cursor, high)
                if found >= 0:
                    cursor = found + len(match.group(0))
                if name:
                    yield name, found if found >= 0 else low
