"""Hugo's table of contents (``.TableOfContents``: ``<nav id="TableOfContents">``) with its theme's label before
it, made into HTML the reader reads well before the page is parsed (``html_more.restructured``; task U22).

The ``nav`` is chrome and is dropped; the label a theme writes right before it ("What's on this Page", Hugo's own
documentation theme; "On this page", "Table of Contents") stayed, the page's first line: on the 89 of Hugo's
documentation pages with a table of contents the first passage held it and the page's category link, nothing more.
"""

from __future__ import annotations

from html import unescape

TOC = '<nav id="TableOfContents">'
"""Where Hugo writes a page's table of contents (goldmark's, any theme)."""
TOC_LABELS = frozenset({"what's on this page", "on this page", "contents", "table of contents", "in this article"})
"""What a label before the table of contents says (casefolded, spaces collapsed, a typographic apostrophe straight,
a trailing colon left out)."""
_LABEL_MAX = 120
"""The longest element taken for a label: the search back from the ``nav`` goes no further."""


def hugo_toc_label(text: str) -> str:
    """``text`` without the element right before each :data:`TOC` (whitespace between) whose whole content is text
    that says one of :data:`TOC_LABELS`: ``<p class="b">What's on this Page</p>``. Linear in the page: each label is
    looked for in the :data:`_LABEL_MAX` characters before its ``nav``, the page joined once."""
    pieces: list[str] = []
    done = 0  # the text before it is in pieces
    at = text.find(TOC)
    while at >= 0:
        end = at
        while end > done and text[end - 1].isspace():
            end -= 1
        window = max(done, end - _LABEL_MAX)
        start = _label_start(text[window:end])
        if start is not None:
            pieces.append(text[done:window + start])
            done = end
        at = text.find(TOC, at + len(TOC))
    return "".join([*pieces, text[done:]]) if pieces else text


def _label_start(before: str) -> int | None:
    """Where the element that ``before`` ends with starts, if it is a label (:data:`TOC_LABELS`)."""
    if not before.endswith(">"):
        return None
    close = before.rfind("</")
    tag = before[close + 2:-1].strip().lower()
    if close < 0 or not tag.isalnum():
        return None
    content_end = before.rfind(">", 0, close)
    start = before.rfind("<" + tag, 0, content_end) if content_end > 0 else -1
    opening = before[start:content_end + 1]
    if start < 0 or opening[len(tag) + 1] not in " \t\n>" or ">" in opening[:-1]:
        return None  # no element of its own
    if "<" in before[content_end + 1:close]:
        return None  # one holding more than text
    label = " ".join(unescape(before[content_end + 1:close]).replace("\u2019", "'").split())
    return start if label.casefold().rstrip(":") in TOC_LABELS else None
