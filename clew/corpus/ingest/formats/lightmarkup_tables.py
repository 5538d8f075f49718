"""Tables of reStructuredText and AsciiDoc pages, for their reader (``clew.corpus.ingest.formats.lightmarkup``).

A table is read as the built page shows it: rows of cells, its header rows first. Its lines in the
page's text are written again as Markdown's pipe rows, one line a row (a cell's continuation lines
joined with spaces), the header rows followed by a ``| --- |`` line, so that each row is a block
of its own and every passage of the table repeats its header; the rest of the text stays as written.

- reStructuredText: grid tables (``+---+---+`` borders, ``+===+`` under the header rows) and simple
  tables (``=====  =====`` borders, a third border under the header), read by docutils' own table
  parsers (spans included: a cell spanning columns is written once); the ``list-table`` directive
  (a bullet list of rows, each a bullet list of cells; ``:header-rows:``) and the ``csv-table``
  directive (``:header:``, ``:header-rows:``, ``:delim:``; its rows in the body, or a ``:file:``'s, which
  ``clew.corpus.ingest.includes`` writes there); the directives' argument is the table's title, as is the
  ``table`` directive's, whose body is a grid or simple table (its directive and option lines are not text).
- AsciiDoc: a ``|===`` block; its columns from the ``cols`` attribute (``[cols="1,2"]``,
  ``[cols=2*]``) else from its first line's cells; its header row where ``options="header"`` or
  ``%header`` says so, or, as Asciidoctor reads it, where the first line holds a whole row and a
  blank line follows it (``%noheader`` none); a cell starts at every ``|`` not escaped, its specifier
  (``2+|``, ``.3+h|``, ``a|``) is not text, and a cell spanning rows stands in each row it covers; a block
  title over it (``.Defaults``) is its title.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from docutils.parsers.rst.tableparser import DataError, GridTableParser, SimpleTableParser
from docutils.statemachine import StringList


@dataclass(frozen=True, slots=True)
class SourceTable:
    """A table written again in a page's lines: its rows are the lines ``first`` to ``first + rows``
    (plus the ``| --- |`` line after the header rows)."""

    first: int
    header: int
    rows: int
    title: str | None

    @property
    def stop(self) -> int:
        return self.first + self.rows + (1 if self.header else 0)


_GRID_BORDER = re.compile(r"^(\s*)\+(?:-+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^(\s*)=+(?: +=+)+\s*$")
RST_CODE = re.compile(r"^(\s*)\.\.\s+(?:code-block|code|sourcecode|parsed-literal)::", re.I)
"""A reStructuredText directive of code, its indent the group: its body is read as it is (no table, role or line
rewritten; one block of code)."""
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(list-table|csv-table)::[ \t]*(.*?)\s*$")
_TABLE = re.compile(r"^(\s*)\.\.\s+table::[ \t]*(.*?)\s*$")
_OPTION = re.compile(r"^:([\w-]+):(?:\s+(.*))?$")
_ADOC_TABLE = re.compile(r"^\|={3,}\s*$")
ASCIIDOC_FENCE = re.compile(r"^(-{4,}|\.{4,})\s*$")
"""An AsciiDoc listing or literal block's delimiter (``----``, ``....``), the group: its lines are read as they are."""
_ADOC_TITLE = re.compile(r"^\.([^.\s].*?)\s*$")
_ADOC_ATTRIBUTES = re.compile(r"^\[([^\]]*)\]\s*$")
_ADOC_CELL = re.compile(r"(?:(?<!\S)((?:(?:\d+(?:\.\d*)?|(?:\d*\.)?\d+)[*+])?[<^>]?(?:\.[<^>])?[adehlmsv]?))?(?<!\\)\|")
"""A cell's start, as Asciidoctor parts them: every ``|`` not escaped (``|a|b`` is two cells), its specifier before
it (``2+``, ``.2+``, ``a``) where a space or the line's start is before that."""


def _row_line(cells: list[str], indent: str, rewrite: Callable[[str], str]) -> str:
    return indent + "| " + " | ".join(rewrite(" ".join(cell.split())).replace("|", "\\|") for cell in cells) + " |"


def _written(lines: list[str], first: int, stop: int, rows: list[list[str]], header: int, title: str | None,
             indent: str, out: list[str], tables: list[SourceTable], rewrite: Callable[[str], str] = str) -> None:
    """Write ``rows`` in place of ``lines[first:stop]`` at the end of ``out``; the original lines when none."""
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows:
        out.extend(lines[first:stop])
        return
    header = min(header, len(rows))
    columns = max(len(row) for row in rows)
    tables.append(SourceTable(len(out), header, len(rows), title))
    for position, row in enumerate(rows):
        out.append(_row_line(row, indent, rewrite))
        if position == header - 1:
            out.append(indent + "|" + " --- |" * columns)


def _blank(line: str) -> bool:
    return not line.strip()


def rst_tables(lines: list[str], rewrite: Callable[[str], str] = str) -> tuple[list[str], list[SourceTable]]:
    """``lines`` of a reStructuredText page with its tables written as pipe rows, and where they are;
    ``rewrite``: what becomes of every other line outside code (its roles: ``rst_roles``), table rows too."""
    out: list[str] = []
    tables: list[SourceTable] = []
    title: str | None = None  # a ``table`` directive's, for the table in its body
    i = 0
    while i < len(lines):
        captioned = _TABLE.match(lines[i])
        if captioned is not None and (first := _captioned_table(lines, i, len(captioned.group(1)))):
            title, i = captioned.group(2) or None, first  # the directive and its options are not text
            continue
        after_blank = i == 0 or _blank(lines[i - 1])
        grid = _GRID_BORDER.match(lines[i]) if after_blank else None
        simple = _SIMPLE_BORDER.match(lines[i]) if after_blank and grid is None else None
        directive = _DIRECTIVE.match(lines[i])
        if RST_CODE.match(lines[i]) or (lines[i].rstrip().endswith("::") and not lines[i].lstrip().startswith("..")):
            stop = indented_end(lines, i + 1, len(lines[i]) - len(lines[i].lstrip()))
            out.append(lines[i] if RST_CODE.match(lines[i]) else rewrite(lines[i]))  # "like this::": prose
            out.extend(lines[i + 1:stop])  # code, or a literal block: tables written there are examples
            i = max(stop, i + 1)
            continue
        if grid is not None:
            stop = i + 1
            while stop < len(lines) and lines[stop].lstrip()[:1] in ("+", "|") and not _blank(lines[stop]):
                stop += 1
            parsed = _docutils(GridTableParser(), lines[i:stop], len(grid.group(1)))
        elif simple is not None:
            stop = _simple_end(lines, i)
            parsed = _docutils(SimpleTableParser(), lines[i:stop], len(simple.group(1))) if stop else None
        elif directive is not None:
            stop = indented_end(lines, i + 1, len(directive.group(1)))
            options, body = _options(lines[i + 1:stop])
            reader = _list_table if directive.group(2) == "list-table" else _csv_table
            found = reader(body, options) if "file" not in options and "url" not in options else None
            if found is not None:
                _written(lines, i, stop, found[0], found[1], directive.group(3) or None, directive.group(1), out,
                         tables, rewrite)
                i = stop
                continue
            parsed = None
        else:
            parsed = None
        if parsed is not None:
            indent = (grid or simple).group(1)  # type: ignore[union-attr]
            _written(lines, i, stop, parsed[0], parsed[1], title, indent, out, tables, rewrite)
            title = None
            i = stop
            continue
        out.append(rewrite(lines[i]))
        title = None
        i += 1
    return out, tables


def _captioned_table(lines: list[str], first: int, indent: int) -> int:
    """The line of the grid or simple table a ``table`` directive at ``first`` holds in its body, after its
    options and a blank line; 0 where its body holds none."""
    j = first + 1
    while j < len(lines) and _OPTION.match(lines[j].strip()) and len(lines[j]) - len(lines[j].lstrip()) > indent:
        j += 1
    while j < len(lines) and _blank(lines[j]):
        j += 1
    opens = j < len(lines) and _blank(lines[j - 1]) and len(lines[j]) - len(lines[j].lstrip()) > indent and (
        _GRID_BORDER.match(lines[j]) or _SIMPLE_BORDER.match(lines[j]))
    return j if opens else 0


def _docutils(parser: GridTableParser | SimpleTableParser, block: list[str],
              indent: int) -> tuple[list[list[str]], int] | None:
    """Rows and header rows of a grid or simple table docutils' parser reads; None where it refuses it."""
    try:
        _widths, head, body = parser.parse(StringList([line[indent:].rstrip() for line in block]))
    except (DataError, IndexError, ValueError):
        return None
    rows = [[" ".join(cell[3]) for cell in row if cell is not None] for row in [*head, *body]]
    return rows, len(head)


def _simple_end(lines: list[str], first: int) -> int:
    """The line after a simple table opening at ``first``: its last border, the one a blank line (or
    the page's end) follows; 0 for none before a blank line."""
    for j in range(first + 1, len(lines)):
        if _blank(lines[j]):
            return 0
        if _SIMPLE_BORDER.match(lines[j]) and (j + 1 == len(lines) or _blank(lines[j + 1])):
            return j + 1
    return 0


def indented_end(lines: list[str], first: int, indent: int) -> int:
    """The line after the block of lines from ``first`` indented more than ``indent`` (a directive's body; blank
    lines inside it included, trailing ones not)."""
    stop, j = first, first
    while j < len(lines) and (_blank(lines[j]) or len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
        if not _blank(lines[j - 1]):
            stop = j
    return stop


def _options(body: list[str]) -> tuple[dict[str, str], list[str]]:
    """A directive's option list (``:header-rows: 1``) and the content after it, dedented."""
    width = min((len(line) - len(line.lstrip()) for line in body if not _blank(line)), default=0)
    lines = [line[width:] for line in body]
    options: dict[str, str] = {}
    i = 0
    while i < len(lines) and (found := _OPTION.match(lines[i])) is not None:
        options[found.group(1)] = (found.group(2) or "").strip()
        i += 1
    return options, lines[i:]


def _header_rows(options: dict[str, str]) -> int:
    value = options.get("header-rows", "0")
    return int(value) if value.isdigit() else 0


def _list_table(body: list[str], options: dict[str, str]) -> tuple[list[list[str]], int] | None:
    """A ``list-table``'s rows: ``* - cell`` opens a row, ``- cell`` under it a cell, deeper lines continue one."""
    rows: list[list[str]] = []
    for line in body:
        stripped = line.strip()
        if not stripped:
            continue
        if line.startswith("* ") or line.rstrip() == "*":
            rows.append([])
            stripped = stripped[1:].strip()
            if not stripped:
                continue
        if not rows:
            return None
        if stripped == "-" or stripped.startswith("- ") and len(line) - len(line.lstrip()) <= 2:
            rows[-1].append(stripped[1:].strip())
        elif rows[-1]:
            rows[-1][-1] += " " + stripped
        else:
            return None
    return (rows, _header_rows(options)) if rows else None


def _csv_table(body: list[str], options: dict[str, str]) -> tuple[list[list[str]], int] | None:
    """A ``csv-table``'s rows, its ``:header:`` first."""
    delimiter = options.get("delim", ",")
    delimiter = {"tab": "\t", "space": " "}.get(delimiter, delimiter[:1] or ",")
    dialect = {"delimiter": delimiter, "skipinitialspace": True, "quotechar": '"', "escapechar": "\\"}
    header = list(csv.reader([options["header"]], **dialect)) if options.get("header") else []  # type: ignore[arg-type]
    rows = [row for row in csv.reader([line for line in body if not _blank(line)], **dialect)]  # type: ignore[arg-type]
    if not rows and not header:
        return None
    return [*header, *rows], len(header) or _header_rows(options)


def asciidoc_tables(lines: list[str]) -> tuple[list[str], list[SourceTable]]:
    """``lines`` of an AsciiDoc page with its ``|===`` tables written as pipe rows, and where they are."""
    out: list[str] = []
    tables: list[SourceTable] = []
    i = 0
    while i < len(lines):
        fence = ASCIIDOC_FENCE.match(lines[i])
        if fence is not None:  # a listing or literal block: a table written there is an example
            stop = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == fence.group(1)), len(lines) - 1)
            out.extend(lines[i:stop + 1])
            i = stop + 1
            continue
        if not _ADOC_TABLE.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        stop = next((j for j in range(i + 1, len(lines)) if _ADOC_TABLE.match(lines[j])), 0)
        if not stop:  # not closed: not a table
            out.extend(lines[i:])
            break
        above = 0  # the attribute list and block title lines over the table, in either order
        while above < min(2, len(out)) and (_ADOC_ATTRIBUTES.match(out[-1 - above])
                                            or _ADOC_TITLE.match(out[-1 - above])):
            above += 1
        heads = out[len(out) - above:]
        attributes = next((mark.group(1) for line in heads if (mark := _ADOC_ATTRIBUTES.match(line))), "")
        title = next((mark.group(1) for line in heads if (mark := _ADOC_TITLE.match(line))), None)
        read = _adoc_rows(lines[i + 1:stop], attributes)
        if read is None:
            out.extend(lines[i:stop + 1])
        else:
            if title is not None:  # the block title (".Defaults") is the table's, not a paragraph
                del out[len(out) - above + next(n for n, line in enumerate(heads) if _ADOC_TITLE.match(line))]
            _written(lines, i, stop + 1, read[0], read[1], title, "", out, tables)
        i = stop + 1
    return out, tables


def _adoc_columns(attributes: str) -> int:
    """How many columns a ``cols`` attribute names (``"1,2"``: 2, ``3*``: 3); 0 without one."""
    found = re.search(r"\bcols\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^,\s\]]*))", attributes)
    if found is None:
        return 0
    value = next(group for group in found.groups() if group is not None)
    if value.strip().isdigit():  # cols=3: three columns
        return int(value)
    count = 0
    for spec in value.replace(";", ",").split(","):
        repeat = re.match(r"\s*(\d+)\*", spec)
        count += int(repeat.group(1)) if repeat else 1 if spec.strip() else 0
    return count


def _adoc_rows(body: list[str], attributes: str) -> tuple[list[list[str]], int] | None:
    """A ``|===`` block's rows and header rows (see the module's doc); None where its cells are not ``|`` cells."""
    cells: list[tuple[str, int, int]] = []  # text, columns and rows spanned
    first_line_cells = 0
    header_blank = False
    for number, line in enumerate(body):
        if not cells and _blank(line):
            continue
        marks = list(_ADOC_CELL.finditer(line))
        if not marks or marks[0].start() != 0:
            if not cells:
                return None
            cells[-1] = (cells[-1][0] + " " + line.strip(), *cells[-1][1:])
            continue
        for position, mark in enumerate(marks):
            end = marks[position + 1].start() if position + 1 < len(marks) else len(line)
            spanned = re.match(r"(\d*)(?:\.(\d*))?\+", mark.group(1) or "")  # columns.rows: 2+, .3+, 2.3+
            across, down = (int(spanned.group(1) or 1), int(spanned.group(2) or 1)) if spanned else (1, 1)
            cells.append((line[mark.end():end].strip().replace("\\|", "|"), across, down))
        if not first_line_cells:
            first_line_cells = len(marks)
            header_blank = number + 1 < len(body) and _blank(body[number + 1])
    columns = _adoc_columns(attributes) or first_line_cells
    if not cells or columns < 1:
        return None
    return _filled(cells, columns), _adoc_header(attributes, header_blank and first_line_cells == columns)


def _filled(cells: list[tuple[str, int, int]], columns: int) -> list[list[str]]:
    """``cells`` (text, columns and rows spanned) in rows of ``columns``; a cell that spans rows is repeated in each
    row it covers, at its column, as the HTML reader does (``html_parts.fill_rowspans``): a row read alone is whole."""
    rows: list[list[str]] = []
    carried: dict[int, list[Any]] = {}  # column -> [text, columns spanned, rows it still covers]
    column = columns  # the first cell opens a row

    def carry() -> None:  # the cells spanning down into the row at ``column``
        nonlocal column
        while column in carried:
            held = carried[column]
            rows[-1].append(held[0])
            held[2] -= 1
            if not held[2]:
                del carried[column]
            column += held[1]

    for text, across, down in cells:
        if column >= columns:
            rows.append([])
            column = 0
        carry()
        if column >= columns:  # the row was the spanning cells': the cell opens the next
            rows.append([])
            column = 0
            carry()
        rows[-1].append(text)
        if down > 1:
            carried[column] = [text, across, down - 1]
        column += across
    if rows:
        carry()
    return rows


def _adoc_header(attributes: str, implicit: bool) -> int:
    """A ``|===`` block's header rows (see the module's doc): its first line a whole row, a blank line after it."""
    options = attributes.replace('"', "")
    if "noheader" in options:
        header = 0
    elif re.search(r"%header|options=[\w,]*header", options) or implicit:
        header = 1
    else:
        header = 0
    return header
