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
  "Author: E. Pedapati" (the labels in order, each with the next value). Authors with affiliations stand in a grid
  of their own beside it (``div.quarto-title-meta-author``, Quarto 1.3 and later): its labels ("Authors",
  "Affiliations"), then each author's cell and their affiliations'. The grid is one paragraph, "Authors: Norah
  Jones (Carnegie Mellon University), Bill Gates (Microsoft)".

Quarto's tab sets (``div.panel-tabset``) are read as the other generators' are: ``html_jsdocs.tab_panels``.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import classes, text_element
from clew.corpus.ingest.formats.html_rules import _VOID, Event

_CODE_TOOLS_MENU = "quarto-code-tools-menu"
_MENU_LABELS = frozenset({"aria-labelelledby", "aria-labelledby"})
_META, _META_LABEL, _META_VALUE = "quarto-title-meta", "quarto-title-meta-heading", "quarto-title-meta-contents"
_AUTHORS = "quarto-title-meta-author"


def quarto_chrome_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is read ahead as Quarto's (above): a folded code cell, the code tools' menu or the title
    block's metadata or its author grid."""
    if tag == "details":
        return "code-fold" in classes(attrs)
    if tag == "div":
        return bool({_META, _AUTHORS} & set(classes(attrs)))
    return tag == "ul" and any(name in _MENU_LABELS and value == _CODE_TOOLS_MENU for name, value in attrs)


def quarto_chrome(events: list[Event]) -> list[Event]:
    """The held events of :func:`quarto_chrome_start`'s element without its chrome: none for the code tools'
    menu; a folded cell without its ``summary`` (the first one, directly inside the ``details``); the title block's
    metadata as paragraphs "label: value"; the author grid as one paragraph."""
    if events[0][1] == "ul":
        return []
    if events[0][1] == "div":
        labels, values = _labels_and_values(events)
        return _author_grid(labels, values) if _AUTHORS in classes(events[0][2]) else _title_meta(labels, values)
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


def _labels_and_values(events: list[Event]) -> tuple[list[str], list[str]]:
    """The texts of the labels (``div.quarto-title-meta-heading``) and the values (``div.quarto-title-meta-contents``)
    in the held events, in order; a value's paragraphs joined by ", "."""
    labels: list[str] = []
    values: list[str] = []
    parts: list[str] | None = None  # the texts of the label or value being read
    kind, depth, opened = "", 0, 0
    for event_kind, tag, attrs in events:
        opens = event_kind == "start" and tag not in _VOID
        depth += opens
        if opens and parts is None and tag == "div" and {_META_LABEL, _META_VALUE} & set(classes(attrs)):
            kind, opened, parts = (_META_LABEL if _META_LABEL in classes(attrs) else _META_VALUE), depth, []
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
    return labels, values


def _title_meta(labels: list[str], values: list[str]) -> list[Event]:
    """``div.quarto-title-meta``'s values as paragraphs "label: value"; a value without a label stands alone."""
    kept: list[Event] = []
    for at, value in enumerate(values):
        kept += text_element("p", f"{labels[at]}: {value}" if at < len(labels) and labels[at] else value)
    return kept


def _author_grid(labels: list[str], values: list[str]) -> list[Event]:
    """``div.quarto-title-meta-author``'s values, a row of ``len(labels)`` cells for each author, as one paragraph
    "Authors: A (affiliation), B": the rest of a row in parentheses (left out when empty)."""
    width = max(1, len(labels))
    rows = [values[at:at + width] for at in range(0, len(values), width)]
    authors = []
    for name, *rest in rows:
        more = "; ".join(cell for cell in rest if cell)
        authors.append(f"{name} ({more})" if more else name)
    text = ", ".join(author for author in authors if author)
    if not text:
        return []
    return text_element("p", f"{labels[0]}: {text}" if labels and labels[0] else text)
