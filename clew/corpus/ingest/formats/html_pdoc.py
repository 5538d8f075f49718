"""The HTML reader's rule for pdoc's API pages (``clew.corpus.ingest.formats.html``; pdoc 16, measured on
clew's own modules: docs/measurements/structure-2026-12-05.md, task R1).

pdoc writes a module's page as ``main.pdoc``: the module's ``h1`` and docstring, then one
``section[id]`` per member (``id`` its name: ``normalize``, ``Limits``) and in a class one
``div.classattr[id]`` per member (``Limits.max_tool_calls``). A member's signature is a ``div.attr``
(``def normalize(text: str) -> str:``), not a heading, so the whole page was one section, every
docstring under the module's title. And beside each signature, hidden until "View Source" is
clicked (``label.view-source-button``), sits the member's source, the module's whole source beside
its docstring (``div.pdoc-code``, each line with its number and a link to it): the docstrings a
second time, among the code.

:func:`pdoc_page` rewrites the held events of ``main.pdoc``: a member's ``div.attr`` is preceded by a
heading holding the member's qualified name (its box's id; ``h2`` for a module's member, ``h3`` for
a class's), so that its signature and docstring are its section; the "View Source" labels and the
source listings (a ``div.pdoc-code`` that is a child of a member's box or of the module's
``section.module-info``, not a docstring's example) are left out.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import Parents, classes, follow, text_element
from clew.corpus.ingest.formats.html_rules import _VOID, Event, _attr

_BOXES = {"section": "h2", "div": "h3"}
"""A member's box, and the heading its name is read as: ``section[id]`` (a module's member),
``div.classattr[id]`` (a class's)."""


def pdoc_main(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is pdoc's ``main.pdoc`` (the page's content, read ahead and rewritten)."""
    return tag == "main" and "pdoc" in classes(attrs)


def _box(tag: str, attrs: list[tuple[str, str | None]]) -> str | None:
    """The member's name when the element is a member's box, else None."""
    name = _attr(attrs, "id")
    if name is None or tag not in _BOXES or (tag == "div" and "classattr" not in classes(attrs)):
        return None
    return name


def _source_parent(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a source listing in this element is a member's or the module's (not a docstring's code)."""
    return _box(tag, attrs) is not None or (tag == "section" and "module-info" in classes(attrs))


def pdoc_page(events: list[Event]) -> list[Event]:
    """The events of ``main.pdoc`` rewritten as the module docstring says."""
    out: list[Event] = []
    parents: Parents = []
    left_out = 0  # the depth of the element being left out, else 0
    for event in events:
        kind, tag, attrs = event
        opens = kind == "start" and tag not in _VOID
        if left_out:
            if kind == "end" and tag not in _VOID and len(parents) == left_out:
                left_out = 0
            follow(parents, event)
            continue
        if opens and ((tag == "div" and "pdoc-code" in classes(attrs) and parents and _source_parent(*parents[-1]))
                      or (tag == "label" and "view-source-button" in classes(attrs))):  # a listing, its button
            follow(parents, event)
            left_out = len(parents)
            continue
        if opens and tag == "div" and "attr" in classes(attrs) and parents:
            name = _box(*parents[-1])
            if name is not None:
                out.extend(text_element(_BOXES[parents[-1][0]], name))
        follow(parents, event)
        out.append(event)
    return out
