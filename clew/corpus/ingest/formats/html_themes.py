"""The HTML reader's rules for the themes that Python projects publish their documentation with:
Sphinx with Furo, pydata-sphinx-theme, sphinx-rtd-theme or sphinx-book-theme, and MkDocs Material
(``clew.corpus.ingest.formats.html``; measured on the npm dev set rendered by each, see
docs/measurements/structure-2026-12-05.md, task R1).

- Their chrome classes are in ``html_rules.DROP_CLASSES``: these themes put some of their chrome
  inside the page's main content element, which the reader keeps.
- A content tab set of pymdown-extensions' ``tabbed`` (MkDocs Material; ``alternate_style``, the
  style Material asks for) writes all its tab labels first, in one ``div.tabbed-labels``, and then
  the tabs' blocks (``div.tabbed-content > div.tabbed-block``): read as written, "Command line",
  "Python" stood together above both code blocks. :func:`tab_set` moves each label to the start of
  its block, as a paragraph of its own (the shape sphinx-design's tabs and Material's older style
  have already), so that each tab reads as its label, then its content.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_rules import _VOID, Event, _attr

_TAB_SET = "tabbed-set"
_LABELS = "tabbed-labels"
_BLOCK = "tabbed-block"


def _classes(attrs: list[tuple[str, str | None]]) -> list[str]:
    return (_attr(attrs, "class") or "").split()


def tab_set_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element starts a content tab set whose labels are written apart from its blocks."""
    return tag == "div" and _TAB_SET in _classes(attrs)


def tab_set(events: list[Event]) -> list[Event]:
    """The events of a tab set (:func:`tab_set_start`, its start to its end) with each label moved
    into its block (see the module docstring); unchanged when the labels and the blocks do not pair
    up one to one (another style, or a set this rule does not know)."""
    labels: list[list[Event]] = []
    blocks: list[int] = []  # the index of each of the set's own blocks' start
    without: list[Event] = []  # the events without the labels' div
    depth = 0
    in_labels = 0  # the depth of the labels' div while inside it, else 0
    label: list[Event] | None = None
    for event in events:
        kind, tag, attrs = event
        opens = kind == "start" and tag not in _VOID
        if opens:
            depth += 1
        if in_labels:
            if kind == "start" and tag == "label" and depth == in_labels + 1:
                label = []
            elif kind == "end" and tag == "label" and label is not None and depth == in_labels + 1:
                labels.append(label)
                label = None
            elif label is not None:
                label.append(event)
        elif opens and depth == 2 and _LABELS in _classes(attrs):
            in_labels = depth
        elif opens and depth == 3 and _BLOCK in _classes(attrs):
            blocks.append(len(without))
            without.append(event)
        else:
            without.append(event)
        if kind == "end" and tag not in _VOID:
            if in_labels and depth == in_labels:
                in_labels = 0
            depth -= 1
    if not labels or len(labels) != len(blocks):
        return events
    for at, text in reversed(list(zip(blocks, labels, strict=True))):
        without[at + 1:at + 1] = [("start", "p", []), *text, ("end", "p", [])]
    return without
