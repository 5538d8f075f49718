"""Chrome of Quarto's HTML pages (websites and books) that only the whole element tells, read ahead by
``html_ahead`` (task U33: a Quarto 1.5 course site and a Quarto 1.4 book).

- A code cell folded by ``code-fold`` is ``details.code-fold`` whose ``summary`` is the toggle's label, "Code" by
  default (``code-summary``): a paragraph "Code" over every such cell, 308 of them in the course site's 31 pages. The
  label is left out, the cell's code kept.
- ``code-tools`` writes, beside the page's title, a menu of the page's code (``ul.dropdown-menu`` labelled by the
  button ``#quarto-code-tools-menu``, an attribute Quarto spells ``aria-labelelledby``): "Show All Code", "Hide All
  Code", "View Source", a list under the title of every such page. The menu is left out (its button is, as buttons
  are). A ``dropdown-menu`` of another page (Bootstrap's own examples of a menu) is read as before.
- The title block's metadata (``div.quarto-title-meta``) labels each value by a ``div.quarto-title-meta-heading``
  ("Author", "Published", "Affiliation") beside its ``div.quarto-title-meta-contents``: four paragraphs "Author",
  "E. Pedapati", "Published", "June 30, 2023" under a book's title. Each label and its value are one paragraph,
  "Author: E. Pedapati" (the labels in order, each with the next value).

Quarto's tab sets (``div.panel-tabset``) are read as the other generators' are: ``html_jsdocs.tab_panels``.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import text_element
from clew.corpus.ingest.formats.html_rules import _VOID, Event

_CODE_TOOLS_MENU = "quarto-code-tools-menu"
_MENU_LABELS = frozenset({"aria-labelelledby", "aria-labelledby"})
_META, _META_LABEL, _META_VALUE = "quarto-title-meta", "quarto-title-meta-heading", "quarto-title-meta-contents"


def _classes(attrs: list[tuple[str, str | None]]) -> list[str]:
    return " ".join(value or "" for name, value in attrs if name == "class").lower().split()


def quarto_chrome_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is read ahead as Quarto's (above): a folded code cell, the code tools' menu or the title
    block's metadata."""
    if tag == "details":
        return "code-fold" in _classes(attrs)
    if tag == "div":
        return _META in _classes(attrs)
    return tag == "ul" and any(name in _MENU_LABELS and value == _CODE_TOOLS_MENU for name, value in attrs)


def quarto_chrome(events: list[Event]) -> list[Event]:
    """The held events of :func:`quarto_chrome_start`'s element without its chrome: none for the code tools'
    menu; a folded cell without its ``summary`` (the first one, directly inside the ``details``); the title block's
    metadata as paragraphs "label: value"."""
    if events[0][1] == "ul":
        return []
    if events[0][1] == "div":
        return _title_meta(events)
    kept: list[Event] = []
    depth = 0
    summary = 0  # the depth of the summary while inside it, else 0; -1 once it has ended
    for event in events:
        kind, tag, _ = event
        opens = kind == "start" and tag not in _VOID
        depth += opens
        if opens and tag == "summary" and depth == 2 and summary == 0:
            summary = depth
        if summary <= 0:
            kept.append(event)
        if kind == "end" and tag not in _VOID:
            if depth == summary:
                summary = -1
            depth -= 1
    return kept


def _title_meta(events: list[Event]) -> list[Event]:
    """``div.quarto-title-meta``'s labels and values (their texts, a value's paragraphs joined by ", ") as paragraphs
    "label: value"; a value without a label stands alone."""
    labels: list[str] = []
    values: list[str] = []
    parts: list[str] | None = None  # the texts of the label or value being read
    kind, depth, opened = "", 0, 0
    for event_kind, tag, attrs in events:
        opens = event_kind == "start" and tag not in _VOID
        depth += opens
        if opens and parts is None and tag == "div" and {_META_LABEL, _META_VALUE} & set(_classes(attrs)):
            kind, opened, parts = (_META_LABEL if _META_LABEL in _classes(attrs) else _META_VALUE), depth, []
        elif event_kind == "data" and parts is not None:
            parts.append(tag)
        elif opens and parts is not None and tag == "p":
            parts.append("\n")
        if event_kind == "end" and tag not in _VOID:
            if parts is not None and depth == opened:
                text = ", ".join(" ".join(piece.split()) for piece in "".join(parts).split("\n") if piece.strip())
                (labels if kind == _META_LABEL else values).append(text)
                parts = None
            depth -= 1
    kept: list[Event] = []
    for at, value in enumerate(values):
        kept += text_element("p", f"{labels[at]}: {value}" if at < len(labels) and labels[at] else value)
    return kept
