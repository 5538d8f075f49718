"""The HTML a man page's macros write (``formats.man``, ``formats.man_mdoc``): the shape mandoc gives a page, which
the HTML reader reads as clew reads every man page (``html_man``): a section per ``.SH``/``.Sh`` (``h2``), a
subsection per ``.SS``/``.Ss`` (``h3``), an option list's every term with its description (``dl``, ``dt``, ``dd``),
bulleted and numbered lists, displays as ``pre``, tbl tables as tables with their header row.

:class:`Page` is the writer: it keeps the paragraph being filled, a display in no-fill mode, and the lists open at
each indent (``.RS``/``.RE``, a list inside an item). :func:`tbl_table` reads a ``.TS``/``.TE`` table.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from clew.corpus.ingest.formats.roff import Font, Line, inline_html, split_args

TERM_CHARS = 120
"""The longest paragraph read as a term when an indented block follows it (DocBook's man pages write an option as a
paragraph and its description as an ``.RS`` block after it): a longer one is text, and so is a sentence (ending in
``.``: nsswitch.conf(5)'s "... named libnss_SERVICE.so.X that resides in /lib." over an example) or an introduction
(ending in ``:``, "For example:")."""


@dataclass(slots=True)
class _Level:
    """One indent: the list open at it (``dl``, ``ul``, ``ol`` or None), whether an item of it is open, and whether a
    paragraph break came since (the list then ends unless an item follows)."""

    kind: str | None = None
    item: bool = False
    body: bool = False
    broken: bool = False


@dataclass(slots=True)
class Page:
    """A man page being written as HTML (see the module docstring)."""

    out: list[str] = field(default_factory=list)
    para: list[str] = field(default_factory=list)
    pre: list[str] | None = None
    levels: list[_Level] = field(default_factory=lambda: [_Level()])
    section: str = ""
    name_line: str = ""
    """The text of the NAME section's first paragraph (the page's name as written, ``ls - list ...``)."""

    # --- text ------------------------------------------------------------------------------------------
    def text(self, inline: str) -> None:
        """A line of text (HTML), filled into the paragraph or kept as a line of the display."""
        if self.pre is not None:
            self.pre.append(inline)
            return
        if inline.strip():
            self.para.append(inline)

    def line_break(self) -> None:
        if self.pre is None and self.para:
            self.para.append("<br>")

    def paragraph(self, *, ends_list: bool = False) -> None:
        """A paragraph break (in a display, a blank line); ``ends_list``: the lists at this indent end unless an item
        comes next (``.PP``)."""
        if self.pre is not None:
            self.pre.append("")
            return
        self._flush()
        if ends_list:
            self.levels[-1].broken = True

    # --- headings ------------------------------------------------------------------------------------
    def heading(self, level: int, inline: str) -> None:
        """A section (``h2``) or subsection (``h3``) heading; every list and indent ends."""
        self._flush()
        self.end_display()
        while len(self.levels) > 1:
            self.outdent()
        self._close_lists(self.levels[0])
        title = _words(inline)
        if level == 2:
            self.section = html.unescape(re.sub(r"<[^>]*>", "", title)).upper()
        self.out.append(f"<h{level}>{title}</h{level}>")

    # --- lists ---------------------------------------------------------------------------------------
    def item(self, kind: str, term: str = "") -> None:
        """An item of a list of ``kind`` (``dl``: ``term`` its ``dt``; ``ul``, ``ol``) at the current indent."""
        self._flush()
        self.end_display()
        level = self.levels[-1]
        if level.kind != kind:
            self._close_lists(level)
            self.out.append(f"<{kind}>")
            level.kind = kind
        else:
            self._close_item(level)
        level.broken = False
        if kind == "dl":
            self.out.append(f"<dt>{_words(term)}</dt>")
            level.item, level.body = True, False
        else:
            self.out.append("<li>")
            level.item, level.body = True, True

    def end_list(self) -> None:
        """The lists at the current indent end."""
        self._flush()
        self.end_display()
        self._close_lists(self.levels[-1])

    def indent(self, *, term_allowed: bool = True) -> None:
        """``.RS``: what follows is indented, inside the item open here; a short paragraph just before it is the term
        of what it holds (``TERM_CHARS``; DocBook's man pages)."""
        self.end_display()
        level = self.levels[-1]
        term = " ".join(self.para).strip()
        words = html.unescape(re.sub(r"<[^>]*>", "", term)).strip()
        if (
            term_allowed
            and words
            and len(words) <= TERM_CHARS
            and not words.endswith((":", "."))
            and not (level.kind in ("ul", "ol") and not level.broken)
        ):
            self.para = []
            self.item("dl", term)
        else:
            self._flush()
        self._body()
        self.levels.append(_Level())

    def outdent(self) -> None:
        """``.RE``: the indent of the last ``.RS`` ends, its lists with it."""
        self._flush()
        self.end_display()
        if len(self.levels) > 1:
            self._close_lists(self.levels.pop())

    # --- displays and tables ---------------------------------------------------------------------------
    def display(self) -> None:
        """No-fill mode (``.nf``, ``.EX``, ``.Bd -literal``): lines kept as they are, in a ``pre``."""
        if self.pre is None:
            self._flush()
            self._body()
            self.pre = []

    def end_display(self) -> None:
        if self.pre is None:
            return
        lines, self.pre = self.pre, None
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if lines:
            code = re.sub(r"</?[bi]>", "", "\n".join(line.rstrip() for line in lines))
            self.out.append(f"<pre>{code}</pre>")

    def block(self, markup: str) -> None:
        """A block of HTML of its own (a table) at the current indent."""
        self._flush()
        self.end_display()
        self._body()
        self.out.append(markup)

    def html(self, title: str) -> str:
        """The page: ``title`` its title, what was written its body."""
        self._flush()
        self.end_display()
        while len(self.levels) > 1:
            self.outdent()
        self._close_lists(self.levels[0])
        return (
            f"<html><head><title>{html.escape(title, quote=False)}</title></head><body>"
            + "\n".join(self.out)
            + "</body></html>"
        )

    # --- the state ------------------------------------------------------------------------------------
    def _body(self) -> None:
        """Content comes at the current indent: an item open waiting for its description opens its ``dd``; a list
        broken by a paragraph break ends."""
        level = self.levels[-1]
        if level.broken and level.kind is not None:
            self._close_lists(level)
        level.broken = False
        if level.kind == "dl" and level.item and not level.body:
            self.out.append("<dd>")
            level.body = True

    def _flush(self) -> None:
        if self.pre is not None or not self.para:
            return
        inner = _words(" ".join(self.para).replace(" <br> ", "<br>"))
        self.para = []
        if inner:
            if self.section == "NAME" and not self.name_line:
                self.name_line = html.unescape(re.sub(r"<[^>]*>", "", inner))
            self._body()
            self.out.append(f"<p>{inner}</p>")

    def _close_item(self, level: _Level) -> None:
        if level.item:
            if level.kind == "dl":
                self.out.append("</dd>" if level.body else "")
            else:
                self.out.append("</li>")
        level.item = level.body = False

    def _close_lists(self, level: _Level) -> None:
        if level.kind is None:
            return
        self._close_item(level)
        self.out.append(f"</{level.kind}>")
        level.kind = None
        level.broken = False


def _words(inline: str) -> str:
    return " ".join(inline.split())


_REFERENCE = re.compile(
    r"(?<![\w.:+-])(?P<name>(?:<[bi]>)?(?P<word>[A-Za-z_][\w.:+-]*[\w+])(?:</[bi]>)?)"
    r"\s?\((?P<section>[0-9][a-z0-9]*|n|l)\)"
)
"""A reference to a man page as man(7) pages write it: ``<b>grep</b>(1)``, ``grep(1)``."""


def linked(inline: str, targets: dict[str, str]) -> str:
    """``inline`` with each reference to a page of ``targets`` (``grep(1)``) made a link to it."""
    if not targets or "(" not in inline:
        return inline

    def link(found: re.Match[str]) -> str:
        href = targets.get(f"{found['word']}({found['section']})")
        if href is None:
            return found.group(0)
        return f'<a href="{html.escape(href)}">{found.group(0)}</a>'

    return _REFERENCE.sub(link, inline)


def page_title(name: str, section: str, name_line: str) -> str:
    """The page's title, ``name(section)``: the name as the NAME section writes it where that is the same name
    (``LS`` -> ``ls``), else as the title writes it."""
    name = " ".join(inline_html(name, Font()).split())
    name = html.unescape(re.sub(r"<[^>]*>", "", name))
    written = re.split(r"[\s,]", name_line.strip(), maxsplit=1)[0] if name_line.strip() else ""
    if written and written.lower() == name.lower():
        name = written
    section = html.unescape(re.sub(r"<[^>]*>", "", inline_html(section, Font()))).strip()
    if not name:
        return written
    return f"{name}({section})" if section else name


# --- tbl ------------------------------------------------------------------------------------------------

_TAB = re.compile(r"tab\s*\(\s*(.)\s*\)", re.IGNORECASE)


def table_line(line: Line) -> str:
    """A line as it was written (a request's name back before its text): a tbl table's lines, for :func:`tbl_table`."""
    return line.text if line.name is None else f".{line.name} {line.text}"


def tbl_table(lines: list[str], inline: Callable[[str], str]) -> str:
    """A tbl table (the lines between ``.TS`` and ``.TE``) as an HTML table, ``inline`` reading each cell. Its header
    is the rows before a ``.TH`` (a ``.TS H`` table), else the rows whose formats come before a rule in the formats
    (``l c c l``, ``____``, ``lB c c l.``: signal(7)), else its first row where the first row's format is bold, or a
    rule (``_``, ``=``) follows the first row: what a reader sees as the header."""
    at = 0
    separator = "\t"
    if lines and lines[0].rstrip().endswith(";"):
        found = _TAB.search(lines[0])
        separator = found[1] if found else separator
        at = 1
    formats: list[str] = []
    while at < len(lines):
        formats.append(lines[at])
        at += 1
        if lines[at - 1].rstrip().endswith("."):
            break
    rows: list[list[str]] = []
    head = 0
    rule_after_first = False
    for line in _logical_rows(lines[at:], separator):
        stripped = line.strip()
        if stripped.startswith(".TH"):
            head = len(rows)
        elif stripped.startswith("."):
            continue
        elif not stripped.replace(separator, "").strip(" _=|"):
            rule_after_first = rule_after_first or len(rows) == 1
        else:
            rows.append(line.split(separator))
    if not rows:
        return ""
    bold_first = len(formats) > 1 and "b" in formats[0].lower()
    ruled = next((at for at, line in enumerate(formats) if not line.strip().rstrip(".").strip("_=| \t")), 0)
    if not head and 0 < ruled < len(rows):  # a rule in the format after the first rows ("l c c l", "____", ...)
        head = ruled
    if not head and len(rows) > 1 and (rule_after_first or bold_first):
        head = 1
    out = ["<table>"]
    for index, cells in enumerate(rows):
        tag = "th" if index < head else "td"
        out.append("<tr>" + "".join(f"<{tag}>{_words(inline(piece))}</{tag}>" for piece in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _logical_rows(lines: list[str], separator: str) -> list[str]:
    """The table's data lines, each text block (``T{`` to ``T}``, lines of one cell) joined into its row."""
    rows: list[str] = []
    at = 0
    while at < len(lines):
        row = lines[at]
        at += 1
        while row.rstrip().endswith("T{"):
            block: list[str] = []
            while at < len(lines) and not lines[at].startswith("T}"):
                block.append(_cell_line(lines[at]).replace(separator, " "))
                at += 1
            rest = lines[at][2:] if at < len(lines) else ""
            at += 1
            row = row.rstrip()[:-2] + " ".join(block) + rest
        rows.append(row)
    return rows


_CELL_FONTS = {"B": "B", "I": "I", "BR": "BR", "RB": "RB", "IR": "IR", "RI": "RI", "BI": "BI", "IB": "IB"}


def _cell_line(line: str) -> str:
    """A line of a text block (``T{``) as text: a font macro's words in its fonts (``.BR printf (),`` as
    ``\\fBprintf\\fR(),``), another request's words (a layout request's none)."""
    if line[:1] not in ".'":
        return line
    name, _, rest = line[1:].strip().partition(" ")
    args = split_args(rest)
    fonts = _CELL_FONTS.get(name)
    if fonts is None:
        return "" if len(name) <= 2 and name.islower() else " ".join(args)
    if len(fonts) == 1:
        return f"\\f{fonts}{' '.join(args)}\\fR"
    return "".join(f"\\f{fonts[index % 2]}{arg}" for index, arg in enumerate(args)) + "\\fR"
