"""Doxygen's member summaries (``table.memberdecls``), rewritten before the HTML renderer reads them,
and the levels of its member headings (:class:`MemberLevels`).

Doxygen (1.8 and 1.9) lists a page's members in tables of one shape: a ``tr.heading`` row whose
cell holds the group's ``h2`` ("Typedefs", "Functions"), then per member a ``tr.memitem`` row (the
declaration over two cells: ``int`` | ``mdb_env_open (MDB_env *env, ...)``), an optional
``tr.memdesc`` row (its brief description, in the second cell of the next row) and an empty
``tr.separator`` row. Read as it is, the ``h2`` inside a cell makes it a layout table and every
cell a paragraph of its own: ``int``, ``mdb_env_open (...)``, ``Open an environment handle.``.

:func:`member_table` rewrites such a table's events (``html_rules.Event``) into what a reader
sees: each group's heading (in a ``tr.heading`` row, or any row whose cell holds a heading) as a
heading before its members (a section), and the members as a table with a row each, declaration
and description side by side (``| int | mdb_env_open (...) | Open an environment handle. |``); a
group of one member is one paragraph. Separator rows are dropped, a declaration column empty in
every row (module and page lists) is left out, and rows without a description get an empty cell
where others have one.

A member's declaration above its description (``div.memproto > table.memname``) is a table too:
the name and an opening parenthesis, then a row per parameter (``SDL_Window *`` | ``window,``) and
a row for the closing one. Read as it is, it was a table of empty and one-word cells (``| void
SDL_SetWindowTitle | ( | SDL_Window * | window, |``, task U14); :func:`declaration` reads it as
one line of code, ``void SDL_SetWindowTitle(SDL_Window * window, const char * title)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clew.corpus.ingest.formats.html_rules import Event, _attr

_BLANKS = re.compile(r"\s+")
_START_TABLE: Event = ("start", "table", [])
_END_TABLE: Event = ("end", "table", [])


def is_member_table(event: Event) -> bool:
    """Whether ``event`` starts a Doxygen member summary table."""
    kind, tag, attrs = event
    return kind == "start" and tag == "table" and "memberdecls" in (_attr(attrs, "class") or "").split()


def is_declaration_table(event: Event) -> bool:
    """Whether ``event`` starts a Doxygen member's declaration (``table.memname``)."""
    kind, tag, attrs = event
    return kind == "start" and tag == "table" and "memname" in (_attr(attrs, "class") or "").split()


def declaration(events: list[Event]) -> list[Event]:
    """The events of a declaration table rewritten as one line of code (a ``pre``): its cells'
    inner events in order (their links kept), blanks collapsed, a space between two cells except
    after an opening parenthesis, before a cell that is one (a macro's ``NAME(``) and before a closing
    one or a comma."""
    out: list[Event] = [("start", "pre", [])]
    written = ""
    for _, cells in _rows(events[1:]):
        for cell in cells:
            text = " ".join("".join(data for kind, data, _ in cell if kind == "data").split())
            if not text:
                continue
            if written and not written.endswith("(") and not text.startswith((")", ",")) and text != "(":
                out.append(("data", " ", []))
            out.extend(_collapsed(cell))
            written = text
    out.append(("end", "pre", []))
    return out


def _collapsed(cell: list[Event]) -> list[Event]:
    """A cell's events with each run of blanks (no-break spaces among them) one space, none at its ends."""
    out: list[Event] = []
    last = -1  # the index in out of the last text
    for kind, data, attrs in cell:
        if kind == "data":
            text = _BLANKS.sub(" ", data)
            if last < 0 or out[last][1].endswith(" "):
                text = text.lstrip(" ")
            if not text:
                continue
            last = len(out)
        out.append((kind, text if kind == "data" else data, attrs))
    if last >= 0:
        out[last] = ("data", out[last][1].rstrip(" "), [])
    return out


def doxygen_fields(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a ``dl`` of a Doxygen page is one of a member's labelled paragraphs (``dl.section``: "Returns",
    "Since", "See also", "Note", "Warning", a ``\\par``'s own title), one term over its definition: a field list
    ("Returns: a timer ID or 0 if an error occurs"), as docutils' "Returns:" is (task U14). Each term was a line of
    its own over its definition, and an extract quoted "Returns" alone."""
    return "section" in (_attr(attrs, "class") or "").split()


def member_table(events: list[Event]) -> list[Event]:
    """The events of a member table (from its start tag to its end tag, or to the end of ``events``),
    rewritten as the module docstring says."""
    out: list[Event] = []
    group: list[list[list[Event]]] = []  # the current group's rows, each a list of cells' inner events
    for kind, cells in _rows(events[1:]):
        if kind == "heading" or any(_heading(cell) for cell in cells):
            _flush(group, out)
            group = []
            out.extend(event for cell in cells for event in cell)
        elif kind == "memdesc":
            if group:
                group[-1].append(cells[-1])
        elif kind != "separator" and any(_has_text(cell) for cell in cells):
            group.append(cells)
    _flush(group, out)
    return out


def _rows(events: list[Event]) -> list[tuple[str, list[list[Event]]]]:
    """The table's rows in order: the kind of each (``heading``, ``memitem``, ``memdesc``,
    ``separator``, or the row's first class) and its cells' inner events. Nested tables stay inside
    the cell that holds them; what lies outside any cell is dropped (``tbody``, whitespace)."""
    rows: list[tuple[str, list[list[Event]]]] = []
    cells: list[list[Event]] | None = None
    cell: list[Event] | None = None
    depth = 0  # tables open inside a cell
    for event in events:
        kind, tag, attrs = event
        if tag == "table" and kind != "data":
            if depth == 0 and kind == "end":
                break  # the member table ends
            if kind == "start":
                depth += 1
            elif kind == "end":
                depth -= 1
        if depth or (cell is not None and not (kind != "data" and tag in ("td", "th", "tr"))):
            if cell is not None:
                cell.append(event)
            continue
        if kind == "start" and tag == "tr":
            cells, cell = [], None
            row_class = (_attr(attrs, "class") or "").split()
            rows.append((row_class[0].partition(":")[0] if row_class else "", cells))
        elif kind == "start" and tag in ("td", "th") and cells is not None:
            cell = []
            cells.append(cell)
        elif kind == "end" and tag in ("td", "th", "tr"):
            cell = None
    return rows


_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())


def _heading(cell: list[Event]) -> bool:
    """Whether a cell holds a heading (a group's title row: ``tr.heading``, or a row without a class
    whose cell holds an ``h3``, as a struct's "Data Fields" has)."""
    return any(kind == "start" and tag in _HEADINGS for kind, tag, _ in cell)


def _has_text(cell: list[Event]) -> bool:
    return any(kind == "data" and text.strip() for kind, text, _ in cell)


def _flush(group: list[list[list[Event]]], out: list[Event]) -> None:
    """Write a group's member rows: a table, or one paragraph for a single member."""
    if not group:
        return
    if not any(_has_text(row[0]) for row in group if len(row) > 1):  # no declaration in the first column
        group = [row[1:] if len(row) > 1 else row for row in group]
    width = max(len(row) for row in group)
    if len(group) == 1:
        out.append(("start", "p", []))
        for cell in group[0]:
            out.extend(cell)
            out.append(("data", " ", []))
        out.append(("end", "p", []))
        return
    out.append(_START_TABLE)
    for row in group:
        out.append(("start", "tr", []))
        for cell in [*row, *([[]] * (width - len(row)))]:
            out.append(("start", "td", []))
            out.extend(cell)
            out.append(("end", "td", []))
        out.append(("end", "tr", []))
    out.append(_END_TABLE)


@dataclass(slots=True)
class MemberLevels:
    """The levels of the headings of a Doxygen page. Doxygen writes a group heading
    (``h2.groupheader``: "Function Documentation") and then every member's heading with the same
    tag (``h2.memtitle``), which left the group an empty section beside its members. A member
    heading is read one level below the last group heading, and a heading inside a member's body
    (``div.memitem``: a struct's "Data Fields", its ``h4.groupheader`` "Field Documentation") at
    least one level below the member; a body's group headings end with it."""

    group: int = 0
    """The level given to the last group heading (0: none yet)."""
    member: int = 0
    """The level given to the last member heading."""
    bodies: list[tuple[int, int]] = field(default_factory=list)
    """The member bodies open, innermost last: (its member's level, ``group`` when it opened)."""

    def level(self, level: int, classes: list[str]) -> int:
        """The level of a heading written ``h<level>`` with ``classes``."""
        floor = self.bodies[-1][0] + 1 if self.bodies else 1
        if "memtitle" in classes:
            self.member = min(6, max(self.group + 1 if self.group else level, floor))
            return self.member
        level = min(6, max(level, floor))
        if "groupheader" in classes:
            self.group = level
        return level

    def open_body(self) -> None:
        self.bodies.append((self.member, self.group))

    def close_body(self) -> None:
        if self.bodies:
            self.group = self.bodies.pop()[1]
