"""Chrome of Quarto's HTML pages (websites and books) that only the whole element tells, read ahead by
``html_ahead`` (task U33: a Quarto 1.5 course site and a Quarto 1.4 book).

- A code cell folded by ``code-fold`` is ``details.code-fold`` whose ``summary`` is the toggle's label, "Code" by
  default (``code-summary``): a paragraph "Code" over every such cell, 308 of them in the course site's 31 pages. The
  label is left out, the cell's code kept.
- ``code-tools`` writes, beside the page's title, a menu of the page's code (``ul.dropdown-menu`` labelled by the
  button ``#quarto-code-tools-menu``, an attribute Quarto spells ``aria-labelelledby``): "Show All Code", "Hide All
  Code", "View Source", a list under the title of every such page. The menu is left out (its button is, as buttons
  are). A ``dropdown-menu`` of another page (Bootstrap's own examples of a menu) is read as before.

Quarto's tab sets (``div.panel-tabset``) are read as the other generators' are: ``html_jsdocs.tab_panels``.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_rules import _VOID, Event

_CODE_TOOLS_MENU = "quarto-code-tools-menu"
_MENU_LABELS = frozenset({"aria-labelelledby", "aria-labelledby"})


def _classes(attrs: list[tuple[str, str | None]]) -> list[str]:
    return " ".join(value or "" for name, value in attrs if name == "class").lower().split()


def quarto_chrome_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is read ahead as Quarto's (above): a folded code cell or the code tools' menu."""
    if tag == "details":
        return "code-fold" in _classes(attrs)
    return tag == "ul" and any(name in _MENU_LABELS and value == _CODE_TOOLS_MENU for name, value in attrs)


def quarto_chrome(events: list[Event]) -> list[Event]:
    """The held events of :func:`quarto_chrome_start`'s element without its chrome: none for the code tools'
    menu; a folded cell without its ``summary`` (the first one, directly inside the ``details``)."""
    if events[0][1] == "ul":
        return []
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
