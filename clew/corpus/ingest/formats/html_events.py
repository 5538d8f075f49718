"""Held events of the HTML reader (``html_ahead``), as its rewriting rules for generators walk and add to
them: an element's classes (:func:`classes`), the open elements as the walk goes (:func:`follow`) and an
element of text written in (:func:`text_element`: a member's or declaration's heading, ``html_pdoc`` and
``html_haddock``; a tab's label, ``html_jsdocs``)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html_rules import _VOID, Event, _attr

Parents = list[tuple[str, list[tuple[str, str | None]]]]
"""The elements open at a held event, outermost first: each one's tag and attributes."""


def classes(attrs: list[tuple[str, str | None]]) -> list[str]:
    """An element's classes (none without a ``class``)."""
    return (_attr(attrs, "class") or "").split()


def follow(parents: Parents, event: Event) -> None:
    """Keep ``parents`` in step with ``event``: a start (of no void element) opens one, an end closes the
    innermost (a stray end past the first element closes nothing)."""
    kind, tag, attrs = event
    if kind == "start" and tag not in _VOID:
        parents.append((tag, attrs))
    elif kind == "end" and tag not in _VOID and parents:
        parents.pop()


def text_element(tag: str, text: str) -> list[Event]:
    """The events of a ``tag`` element that holds only ``text``."""
    return [("start", tag, []), ("data", text, []), ("end", tag, [])]
