"""PDF: a page's lines into blocks (``clew.corpus.ingest.formats.pdf`` reads the lines, see its docstring): headings
by size, paragraphs, list items, code blocks, a definition's term, the page's tables in place, and text going on
over a page break."""

from __future__ import annotations

import re
from dataclasses import dataclass

from clew.corpus.ingest.formats.fences import fenced
from clew.corpus.ingest.formats.pdf_boxes import PdfTable
from clew.corpus.ingest.formats.pdf_hyphens import clean, join_lines
from clew.corpus.ingest.formats.pdf_layout import (
    ADMONITION_LABEL,
    Line,
    Listing,
    code_blank_lines,
    continued_code,
    indented,
    index_entry,
    leader_line,
    shorten_leader,
    unwrapped,
)
from clew.corpus.ingest.formats.pdf_outline import Mark
from clew.corpus.ingest.formats.rendered import Renderer

HEADING_RATIO = 1.15
BOLD_HEADING_RATIO = 1.08
"""A bold line this much larger than the body text is a heading too (LaTeX's 12 pt over 10.95 pt)."""
_BULLET = re.compile(r"^(?:[•◦▪‣∙●○■□–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S")
_PAGE_AT_END = re.compile(r"\D\s+(?:\d{1,4}|[ivxlcdm]{1,7})$", re.IGNORECASE)
"""A line of a navigation page that ends with a page number (``Chapter 10 Writing Flowables 98``): an entry."""
_PAGE_FOOT = re.compile(r"\d{1,3}(?:$| ?[A-Z‘“]| ?[a-z]+://)|[∗*†‡§¶‖]{1,2} ?[^\W\d_]")
"""What a page's last block opens with where the next page's first line does not go on with it: a footnote, opened
by its number or symbol and then its first word (``pdf._NOTE_NUMBER``; a number read with a space after it), or a number
alone (a page number the running lines left, a note's number). The page's text above them goes on there: a paragraph
of its own then, not the note's (textcase's "which produces" read after its "†Reorganisation ..." note, booktabs'
"has been established ..." after its page number, task L1). A paragraph of the text that opens with a quantity ("10
seconds is ...") or a section sign ("§ 12 applies ...") is none of these: it goes on (review V14). A note that is a
URL ("1 http://caml.inria.fr/...", a paragraph since task R22) is a note."""


@dataclass(slots=True)
class TermSections:
    """The definition list's term open as a section, as the HTML reader opens one a ``dt`` (``html_terms``): a term on
    a line of its own (:func:`_term_lines`) opens a section one level below the section around its list, which its
    description's lines, indented under it, fill. The next term at the list's margin opens the next; a line standing
    no further in than the term's margin (the text after the list, an inline row), a heading or an outline mark ends
    it. Kept over page breaks, as a list goes on over them."""

    section: int | None = None  # the term's section while its description goes on
    x: float = 0.0  # the term's left edge, from its page's margin
    column: float = 0.0  # its description's left edge, from the margin

    def open(self, renderer: Renderer, line: Line, under: Line, margin: float | None) -> bool:
        """Open ``line``'s term, ``under`` its description's first line, as a section; False where the section around
        it is at the deepest level."""
        around = renderer.sections[renderer.section]
        level = (around.level if self.section is None else around.level - 1) + 1
        if level > 6:
            return False
        self.close(renderer)
        renderer.heading(clean(line.text), level, marked=False)
        self.section, self.x, self.column = renderer.section, line.x - (margin or 0.0), under.x - (margin or 0.0)
        return True

    def close(self, renderer: Renderer, line: Line | None = None, margin: float | None = None) -> None:
        """End the open term's section (at ``line`` when it stands no further in than the term's margin)."""
        if self.section is None or (line is not None and line.x - (margin or 0.0) >= self.x + line.size):
            return
        renderer.sections[self.section].end = renderer.length
        if renderer.open[-1] == self.section:
            renderer.open.pop()
        self.section = None


def heading_like(line: Line, body: float) -> bool:
    return bool(body) and len(line.text) <= 150 and not line.mono and (
        line.size >= body * HEADING_RATIO or (line.bold and line.size >= body * BOLD_HEADING_RATIO))


def heading_levels(pages: list[list[Line]], body: float) -> dict[float, int]:
    """Font size -> heading level for the sizes of heading-like lines: the larger, the higher."""
    sizes = sorted({line.size for lines in pages for line in lines if heading_like(line, body)}, reverse=True)
    return {size: min(6, rank + 1) for rank, size in enumerate(sizes)}


def render_page(renderer: Renderer, lines: list[Line], marks: list[Mark], heading_levels: dict[float, int],
                 body: float, tables: list[PdfTable], *, listing: Listing,
                 items: list[tuple[float, float]] | None = None, wraps: float | None = None,
                 margin: float | None = None, navigation: bool = False, last_page: int = 9999,
                 gaps: dict[float, float] | None = None, term: TermSections | None = None) -> None:
    term = TermSections() if term is None else term
    pending = list(marks)  # the outline's sections opening on this page, in reading order
    paragraph: list[Line] = []
    kind = "paragraph"
    first = True  # the next block is the page's first: it may continue the last page's paragraph
    heading_size: float | None = None  # the size of the heading just written (a heading on two lines)

    asides: list[Line] = []  # margin notes beside the paragraph: after it
    terms = _term_lines(lines)

    def flush() -> None:
        nonlocal paragraph, first
        if paragraph:
            lines = paragraph if kind != "code" or wraps is None else unwrapped(paragraph, wraps)
            _emit(renderer, lines, kind, continues=first, listing=listing, margin=margin,
                  items=[] if items is None else items)
            first = False
        paragraph = []
        for note in asides:
            renderer.emit("paragraph", clean(note.text))
        asides.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if pending and pending[0].line <= i:
            mark = pending.pop(0)
            flush()
            term.close(renderer)
            renderer.heading(mark.heading or mark.title, mark.level)
            first, heading_size = False, None
            if mark.span:
                i += mark.span
                if mark.rest:  # a run-in heading: its line goes on as text
                    i -= 1
                    lines[i] = Line(mark.rest, line.size, False, line.mono, line.y, line.x, line.right)
            continue
        i += 1
        table = next((t for t in tables if t.top - 2 <= line.y <= t.bottom + 2 and t.x0 - 2 <= line.x <= t.x1 + 2),
                     None)
        if table is not None:
            flush()
            if table.rows:
                renderer.table(table.rows, 1, table.title)
                table.rows = []
            first, heading_size = False, None
            continue
        if line.inset or (line.size in heading_levels and heading_like(line, body)):
            flush()
            term.close(renderer)
            if heading_size == line.size and not line.inset:
                renderer.extend(" " + line.text)  # a heading set on two lines
                renderer.sections[-1].heading += " " + line.text
            else:  # an inset one is a man page's subheading (pdf_layout.mark_inset_headings)
                level = min(6, len(heading_levels) + 1) if line.inset else heading_levels[line.size]
                renderer.heading(line.text, level)
                heading_size = None if line.inset else line.size
            first = False
            continue
        heading_size = None
        if line.aside and paragraph:
            asides.append(line)
            continue
        if not line.mono and leader_line(line.text):  # an entry of a table of contents or an index
            line = Line(shorten_leader(line.text), line.size, line.bold, line.mono, line.y, line.x, line.right)
            line_kind = "list_item"
        elif navigation and not line.mono and (_PAGE_AT_END.search(line.text)
                                               or index_entry(line.text, last_page)):  # no leader
            line_kind = "list_item"
        else:
            line_kind = "code" if line.mono else "list_item" if _BULLET.match(line.text) else "paragraph"
        if i - 1 in terms:  # a definition's term on a line of its own: a section (TermSections) or a paragraph
            flush()
            if term.open(renderer, line, lines[i], margin):
                first = False
                continue
            _emit(renderer, [line], "paragraph", continues=False, listing=listing, margin=margin,
                  items=[] if items is None else items)
            first = False
            continue
        if term.section is not None and line.x - (margin or 0.0) < term.x + line.size:
            if paragraph and paragraph[0].x - (margin or 0.0) >= term.column - 1:
                flush()  # the description's last paragraph: its term's
            term.close(renderer, line, margin)  # a paragraph indented on its first line only: after the list
        if paragraph:
            last = paragraph[-1]
            limit = max(1.5 * max(last.size, line.size), (gaps or {}).get(line.size, 0.0))  # pdf_layout
            gap = line.y - (last.end or last.y)
            if kind == line_kind == "code" and limit < gap and line.size == last.size and (
                    blanks := 1 if gap <= 2.5 * line.size else code_blank_lines(paragraph, gap)):
                paragraph.extend(Line("", line.size, False, True, line.y, line.x) for _ in range(blanks))
            elif (gap > limit or abs(line.size - last.size) >= 1
                    or line_kind == "list_item" or (line_kind == "code") != (kind == "code")
                    or (line.note and line.size < body)  # a footnote (pdf_notes.numbered_notes)
                    or (kind == "list_item" and line.x < paragraph[0].x - 1)):
                flush()
        if not paragraph:
            kind = line_kind
        paragraph.append(line)
    flush()
    for mark in pending:  # sections that open below the page's last line
        renderer.heading(mark.title, mark.level)
    for table in tables:  # a table whose box held no line of text still goes in, after the page's text
        if table.rows:
            renderer.table(table.rows, 1, table.title)


def _term_lines(lines: list[Line]) -> set[int]:
    """The indexes of the lines that are a definition list's term set in code on a line of its own, its
    description indented under it: Texinfo's ``@table @code`` and ``@vtable`` in pdfTeX (the Bash Reference Manual's
    "HISTCONTROL" at the table's edge, "A colon-separated list ..." 57.6 pt in, task E7). Its first two lines of
    prose both stand two ems or more in from the term, so a paragraph whose first line alone is indented (LaTeX's
    ``\\parindent``) after a line of code leaves that code alone."""
    found: set[int] = set()
    for at, line in enumerate(lines[:-1]):
        before = lines[at - 1] if at else None
        if not line.mono or (before is not None and before.mono and abs(before.x - line.x) < 1
                             and line.y - (before.end or before.y) <= 1.5 * line.size):
            continue  # a line of a code block
        under = [lines[at + 1]]
        if (at + 2 < len(lines) and not lines[at + 2].mono
                and lines[at + 2].y - (under[0].end or under[0].y) <= 1.5 * line.size):
            under.append(lines[at + 2])  # the description's second line, where it has one
        if (under[0].y - (line.end or line.y) <= 1.5 * line.size and abs(under[0].size - line.size) < 1
                and not under[0].aside and not _BULLET.match(under[0].text)
                and all(not prose.mono and prose.x >= line.x + 2 * line.size for prose in under)):
            found.add(at)
    return found


def _item_depth(edges: list[tuple[float, float]], x: float, y: float, size: float) -> int:
    """How deep a list item whose marker stands at ``x`` (from the page's margin), ``y`` down, is in its list:
    ``edges`` holds the left edges of the items open above it, outermost first, each with its last item's ``y``, and
    is updated. Further in than the last by half a size, below it, and by four sizes at most (beyond, another
    column), it opens a level; left of it, it is an item of the level it stands at. Typst's "‣" items under a "•" one
    (U33's book) read as its siblings; now each is indented two spaces a level, as the HTML reader writes a nested
    list. Items side by side on one line (a grammar's "- hex4 - hex4" read as items) are one level."""
    while edges and x < edges[-1][0] - size / 2:
        edges.pop()
    if edges and (x > edges[-1][0] + 4 * size or abs(y - edges[-1][1]) < size / 2):
        edges.clear()
    if not edges or x > edges[-1][0] + size / 2:
        edges.append((x, y))
    edges[-1] = (edges[-1][0], y)
    return len(edges) - 1


def _emit(renderer: Renderer, lines: list[Line], kind: str, *, continues: bool, listing: Listing,
          margin: float | None, items: list[tuple[float, float]]) -> None:
    if kind == "code":
        fence = renderer.tail[renderer.tail.rfind("\n") + 1 :]
        after_code = bool(renderer.blocks) and renderer.blocks[-1].kind == "code"
        if continues and after_code and (texts := continued_code(listing, lines, margin)) is not None:
            code = "\n".join(texts)
            if fenced(code)[1] <= len(fence) + 1:
                renderer.extend(f"\n{code}\n{fence}", drop=len(fence) + 1)  # a listing going on over a page break
                return
        code = "\n".join(indented(lines))
        renderer.emit("code", fenced(code)[0], indivisible=True)  # fenced as Markdown writes code (``fences``)
        listing.start(lines, margin)
        return
    text = lines[0].text
    for line in lines[1:]:
        text = join_lines(text, line.text)
    last = renderer.blocks[-1] if renderer.blocks else None
    tail = renderer.tail
    if (continues and kind == "paragraph" and last is not None and last.kind in ("paragraph", "list_item")
            and not tail.rstrip("\xad").endswith((".", ":", "!", "?")) and text[:1].islower()
            and not _PAGE_FOOT.match(tail)):
        hyphenated = tail.endswith("\xad") or (tail.endswith("-") and len(tail) > 1 and tail[-2].isalpha())
        renderer.extend(clean(text) if hyphenated else " " + clean(text), drop=1 if tail.endswith("\xad") else 0)
        return
    if renderer.blocks and tail.endswith("\xad"):
        renderer.extend("", drop=1)  # a soft hyphen ending the last block: nothing follows it
    text = clean(text)
    if kind == "list_item":
        group = renderer.previous if last is not None and last.kind == "list_item" else ("list", len(renderer.blocks))
        if group != renderer.previous:
            items.clear()
        depth = _item_depth(items, lines[0].x - (margin or 0.0), lines[0].y, lines[0].size)
        renderer.emit("list_item", "  " * depth + text, group=group)
    elif last is not None and last.kind == "paragraph" and ADMONITION_LABEL.fullmatch(tail):
        renderer.extend(" " + text)  # an admonition's label over its text (pdf_layout.ADMONITION_LABEL)
    else:
        renderer.emit("paragraph", text)
