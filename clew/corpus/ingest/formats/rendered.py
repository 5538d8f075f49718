"""Build a :class:`ParsedDocument` whose text is rendered, not the source (PDF, DOCX).

Binary formats have no source text to point into, so their parsers render one, the way the
HTML renderer does: blocks separated by a blank line, consecutive items of one list and rows
of one table by a single newline; a heading is ``"#" * level + " " + text`` and opens a
section under the nearest open section of a lower level; a table's header rows end with a
``"| --- |"`` separator line. Pages (where the format has them) are recorded as the offset at
which each page's text begins, and each page ``N`` is also the anchor ``page=N`` (the PDF
fragment identifier), so that ``manual.pdf#page=12`` links resolve.
"""

from __future__ import annotations

from clew.corpus.ingest.formats.text import root_section
from clew.corpus.ingest.parsed import Block, BlockKind, ParsedDocument, Section, Table


class Renderer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.blocks: list[Block] = []
        self.sections: list[Section] = [root_section()]
        self.tables: list[Table] = []
        self.anchors: dict[str, int] = {}
        self.pages: list[int] = []
        self.open: list[int] = [0]  # open sections, outermost first
        self.previous: tuple[str, int] | None = None  # what joins the next block with "\n"
        self.first_heading: str | None = None
        self.tail = ""
        """The text of the last block."""

    @property
    def section(self) -> int:
        return self.open[-1]

    def page(self) -> None:
        """A new page begins with the next block."""
        self.pages.append(self.length + (2 if self.blocks else 0))

    def heading(self, text: str, level: int, anchors: list[str] | None = None, *, marked: bool = True) -> None:
        """Open a section; ``marked=False`` writes its heading as its text alone, as the HTML reader writes a
        definition's term (``html_terms``)."""
        text = " ".join(text.split())
        if not text:
            return
        level = max(1, min(6, level))
        while len(self.open) > 1 and self.sections[self.open[-1]].level >= level:
            self.open.pop()
        section = Section(heading=text, level=level, parent=self.open[-1], start=0, anchors=list(anchors or []))
        self.sections.append(section)
        self.open.append(len(self.sections) - 1)
        section.start = self.emit("heading", "#" * level + " " + text if marked else text)
        for name in section.anchors:
            self.anchors.setdefault(name, section.start)
        if self.first_heading is None and marked:  # a term names no document
            self.first_heading = text

    def emit(self, kind: BlockKind, text: str, *, group: tuple[str, int] | None = None,
             table: int | None = None, indivisible: bool = False) -> int:
        """Append one block; blocks of the same ``group`` (a list, a table) join with one newline."""
        joined = ("table", table) if table is not None else group
        separator = "" if not self.blocks else "\n" if joined is not None and joined == self.previous else "\n\n"
        self.previous = joined
        start = self.length + len(separator)
        self.parts.append(separator + text)
        self.length = start + len(text)
        self.tail = text
        self.blocks.append(Block(start, self.length, kind, self.section, table, indivisible))
        if self.pages and self.pages[-1] > start:  # the page began at a single-newline join
            self.pages[-1] = start
        return start

    def extend(self, text: str, *, drop: int = 0) -> None:
        """Continue the last block (a paragraph going on over a page break), less its last ``drop``
        characters (a hyphen that joined two halves of a word)."""
        block = self.blocks[-1]
        self.length -= drop
        if self.pages and self.pages[-1] > self.length:  # the new page starts inside this block
            self.pages[-1] = self.length
        self.parts[-1] = self.parts[-1][: len(self.parts[-1]) - drop] + text
        self.tail = self.tail[: len(self.tail) - drop] + text
        self.length += len(text)
        block.end = self.length

    def table(self, rows: list[list[str]], header_rows: int, title: str | None = None) -> None:
        rows = [[" ".join((cell or "").split()) for cell in row] for row in rows]
        rows = [row for row in rows if any(row)]
        if not rows:
            return
        index = len(self.tables)
        self.tables.append(Table(section=self.section, title=title))  # the title: its heading in the outline
        columns = max(len(row) for row in rows)
        header_rows = min(header_rows, len(rows))
        for position, row in enumerate(rows):  # a "|" in a cell written "\|", as the HTML reader writes it
            text = "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
            if position == header_rows - 1:
                text += "\n|" + " --- |" * columns
            self.emit("table_header" if position < header_rows else "table_row", text, table=index)

    def document(self, title: str | None = None) -> ParsedDocument:
        title = title or self.first_heading
        self.sections[0].heading = title or ""
        text = "".join(self.parts)
        pages = [min(start, len(text)) for start in self.pages]
        for number, start in enumerate(pages, start=1):
            if start < len(text):
                self.anchors.setdefault(f"page={number}", start)
        return ParsedDocument(
            text=text, blocks=self.blocks, sections=self.sections, tables=self.tables, anchors=self.anchors,
            title=title, fields={"title": title} if title else {}, pages=pages,
        )
