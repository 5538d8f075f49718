"""Live demos in Markdown: raw HTML that shows a component working, which is no text of the page.

Component libraries' docs (Bootstrap, Foundation, Primer and their kind, in Hugo, Jekyll or MkDocs)
put a working example in the Markdown as raw HTML and its source right after it as a fenced code
block, and a dialog's demo as an element the page keeps hidden until a button opens it. Read as
text, such HTML is filler ("Modal title", "Placeholder content for the scrollspy example"), and its
headings open sections that take the real section's code under them. A top-level run of raw HTML
(``markdown_html.html_stop``) is a live demo, left out of the text, when

- its outer element is hidden (``aria-hidden="true"``, ``hidden``, ``style="display: none"``) and
  holds it all: a reader of the page never sees it; or
- the next block is fenced code that repeats its markup: at least ``SHARED_CLASSES`` of the class
  names written in the run are written in that code (the demo beside its source, which stays).

Raw HTML without class names (a README's centred logo, a ``<details>``, a ``<table>`` of content)
is never taken for a demo by the second rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

SHARED_CLASSES = 0.5
"""The share of a run's class names that the code after it must write for the run to be its demo."""
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)((?:\s[^>]*)?)>")
_CLASS = re.compile(r"""\bclass(?:Name)?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_HIDDEN = re.compile(
    r"""\saria-hidden\s*=\s*["']?true\b|\shidden(?=[\s/>=]|$)|\sstyle\s*=\s*["'][^"']*display\s*:\s*none""",
    re.IGNORECASE)
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


def live_demo(lines: Sequence[str], groups: Sequence[Sequence[Token]], index: int, stop: int) -> bool:
    """Whether the raw HTML run ``groups[index:stop]`` (source ``lines``) is a live demo (see above)."""
    first, last = groups[index][0].map, groups[stop - 1][0].map
    if groups[index][0].type != "html_block" or first is None or last is None:
        return False
    html = "\n".join(lines[first[0]:last[1]])
    if _hidden_whole(html):
        return True
    if stop >= len(groups) or groups[stop][0].type != "fence":
        return False
    shown = _classes(html)
    return bool(shown) and len(shown & _classes(groups[stop][0].content)) >= SHARED_CLASSES * len(shown)


def _classes(html: str) -> set[str]:
    return {name for found in _CLASS.finditer(html) for name in (found.group(1) or found.group(2) or "").split()}


def _hidden_whole(html: str) -> bool:
    """Whether ``html`` is one element whose start tag hides it, with nothing but blanks after its end."""
    depth, tag = 0, ""
    for found in _TAG.finditer(html):
        name = found.group(2).lower()
        if not depth:
            if tag or found.group(1) or not _HIDDEN.search(found.group(3)) or html[:found.start()].strip():
                return False
            if name in _VOID or found.group(3).rstrip().endswith("/"):
                return not html[found.end():].strip()
            tag = name
        if name != tag:
            continue
        depth += -1 if found.group(1) else 1
        if not depth:
            return not html[found.end():].strip()
    return False
