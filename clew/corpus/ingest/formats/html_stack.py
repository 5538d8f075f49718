"""The stack of open elements of the HTML reader (``clew.corpus.ingest.formats.html``).

End tags are matched the way the HTML parsing algorithm matches them: an end tag closes the
nearest open element it names, and everything opened inside it, unless an element that bounds
its scope (``html_rules._SCOPE`` and its variants) comes first; a stray end tag closes nothing.
What closing an element does to the document (a section, a table, a list ends) is the
reader's: :class:`OpenElements` calls it back for each element as it leaves the stack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from clew.corpus.ingest.formats.html_rules import _BUTTON_SCOPE, _LEVELS, _LIST_SCOPE, _SCOPE, _SPECIAL, _TABLE_SCOPE

MAX_DEPTH = 512
"""Open elements at most: a deeper element is flattened into the one around it (text, links and
anchors kept) and the document reports a repair. Without a bound, 100,000 nested ``<div>`` cost
time quadratic in the depth."""


@dataclass(slots=True, eq=False)
class Entry:
    """One open element; ``role`` says what closing it does (see ``html._Builder._close``)."""

    tag: str
    role: str = ""
    obj: Any = None
    """By role: the ``_Container`` (container), ``_Table`` (table, row, thead) or ``_Item`` (item)."""
    language: str = ""
    """A ``div``'s code language (``fences.html_language``: Sphinx's ``highlight-python``), for a ``pre`` in it."""


class OpenElements:
    """The open elements, innermost last; ``on_close`` is called for each one as it is closed."""

    def __init__(self, on_close: Callable[[Entry], None]) -> None:
        self._stack: list[Entry] = []
        self._open_tags: Counter[str] = Counter()  # tag -> how many of the stack's entries have it
        self._on_close = on_close
        self._flattened: Counter[str] = Counter()  # tag -> elements opened past MAX_DEPTH, not yet closed
        self.flattened = 0
        """Elements not opened because ``MAX_DEPTH`` elements were open (see ``depth_repairs``)."""

    def _flatten(self, tag: str) -> bool:
        """Whether an element ``tag`` is not opened, ``MAX_DEPTH`` elements being open: its content
        joins the element around it, and its end tag is matched by name (``_flattened_end``)."""
        if len(self._stack) < MAX_DEPTH:
            return False
        self._flattened[tag] += 1
        self.flattened += 1
        return True

    def _flattened_end(self, tag: str) -> bool:
        """Whether an end tag ends an element that ``_flatten`` did not open (it then closes nothing)."""
        if not self._flattened[tag]:
            return False
        self._flattened[tag] -= 1
        return True

    def depth_repairs(self) -> list[str]:
        """The document's repair, should elements have been flattened."""
        return [] if not self.flattened else [
            f"HTML nested deeper than {MAX_DEPTH} elements: {self.flattened} element(s) below that depth were "
            "flattened into the element around them (their text, links and anchors are kept)"]

    def _push(self, entry: Entry) -> None:
        self._stack.append(entry)
        self._open_tags[entry.tag] += 1

    def _pop_to(self, index: int) -> None:
        """Close every open element from the top of the stack down to ``index`` (included)."""
        stack = self._stack
        while len(stack) > index:
            entry = stack.pop()
            self._open_tags[entry.tag] -= 1
            self._on_close(entry)

    def _pop_entry(self, target: object) -> None:
        """Close the open element ``target`` (an entry, or the object an entry holds) and all inside it."""
        for index in range(len(self._stack) - 1, -1, -1):
            entry = self._stack[index]
            if entry is target or entry.obj is target:
                self._pop_to(index)
                return

    def _close_named(self, tag: str) -> None:
        """Handle an end tag: close the nearest open element it names, if it is in scope."""
        if tag in _LEVELS:
            self._close_within(_LEVELS, _SCOPE)
        elif tag == "li":
            self._close_within(("li",), _LIST_SCOPE)
        elif tag == "p":
            self._close_within(("p",), _BUTTON_SCOPE)
        elif tag in ("td", "th", "tr", "thead", "tbody", "tfoot", "table", "caption"):
            self._close_within((tag,), _TABLE_SCOPE - {tag})
        elif tag in _SPECIAL:
            self._close_within((tag,), _SCOPE)
        else:  # any other tag: the nearest one, unless a special element is in the way
            self._close_within((tag,), _SPECIAL)

    def _close_within(
        self, names: Collection[str], barriers: Collection[str], *, inclusive: bool = True
    ) -> str | None:
        """Close the nearest open element in ``names`` (or, not ``inclusive``, only what is inside
        it) unless a barrier comes first; return the tag found."""
        if not any(self._open_tags[name] for name in names):
            return None  # without this, every <div> looked for an open <p> through the whole stack
        stack = self._stack
        for index in range(len(stack) - 1, -1, -1):
            open_tag = stack[index].tag
            if open_tag in names:
                self._pop_to(index if inclusive else index + 1)
                return open_tag
            if open_tag in barriers:
                return None
        return None
