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
one line of code, ``void SDL_SetWindowTitle(SDL_Window * window, const char * title)``. A C or C++
member's labels beside it (``table.mlabels``: the declaration's table in one cell, "inline", "static",
"virtual" in the next) follow that line: ``static int f(int e) [inline] [static]``
(:func:`labelled_declaration`, task R11).

Doxygen ends each member's description with "Definition at line 95 of file SDL_video.h."
(``p.definition``): where its source is, read as a sentence of every member's passage. Users ask which
header declares a member: :func:`definition` keeps the file as a field, "Defined in: SDL_video.h" (its
link kept), as ``dl.section``'s "Returns" is one (task R11).
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


def is_labels_table(event: Event) -> bool:
    """Whether ``event`` starts a Doxygen member's declaration with its labels (``table.mlabels``)."""
    kind, tag, attrs = event
    return kind == "start" and tag == "table" and "mlabels" in (_attr(attrs, "class") or "").split()


def labelled_declaration(events: list[Event]) -> list[Event]:
    """The events of a labels table (``table.mlabels``) rewritten as its declaration's line of code
    (:func:`declaration`) with each label (``span.mlabel``) after it in brackets; the events unchanged where it
    holds no ``table.memname``."""
    start = next((i for i, event in enumerate(events) if i and is_declaration_table(event)), None)
    if start is None:
        return events
    depth, end = 0, len(events)
    for i in range(start, len(events)):
        kind, tag, _ = events[i]
        if tag == "table" and kind in ("start", "end"):
            depth += 1 if kind == "start" else -1
            if depth == 0:
                end = i + 1
                break
    labels: list[str] = []
    within = 0  # span elements open inside a span.mlabel
    for kind, tag, attrs in events[end:]:
        if kind == "start" and tag == "span" and (within or "mlabel" in (_attr(attrs, "class") or "").split()):
            if not within:
                labels.append("")
            within += 1
        elif kind == "end" and tag == "span" and within:
            within -= 1
        elif kind == "data" and within:
            labels[-1] += tag
    line = declaration(events[start:end])
    words = " ".join(f"[{label}]" for label in (" ".join(label.split()) for label in labels) if label)
    return [*line[:-1], ("data", " " + words, []), line[-1]] if words else line


_DEFINITION = re.compile(r"Definition at line \d+ of file .+\.")


def definition_start(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a start tag begins Doxygen's "Definition at line N of file X." (``p.definition``)."""
    return tag == "p" and "definition" in (_attr(attrs, "class") or "").split()


def definition(events: list[Event]) -> list[Event]:
    """The events of a ``p.definition`` rewritten as a field, "Defined in" over the file's link (the last link);
    the events unchanged where its text is not Doxygen's sentence."""
    text = " ".join("".join(data for kind, data, _ in events if kind == "data").split())
    starts = [i for i, (kind, tag, _) in enumerate(events) if kind == "start" and tag == "a"]
    if not _DEFINITION.fullmatch(text) or not starts:
        return events
    end = next((i for i in range(starts[-1], len(events)) if events[i][:2] == ("end", "a")), None)
    if end is None:
        return events
    return [("start", "dl", [("class", "section")]), ("start", "dt", []), ("data", "Defined in", []),
            ("end", "dt", []), ("start", "dd", []), *events[starts[-1]:end + 1], ("end", "dd", []), ("end", "dl", [])]


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
