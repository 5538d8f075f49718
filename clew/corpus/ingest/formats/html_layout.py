"""Layout tables: what an HTML page's tables are, read ahead of the renderer (``html_ahead``): a frame
around blocks (a one-cell box around an example, a page layout) or a table of data."""

from __future__ import annotations

from dataclasses import dataclass

from clew.corpus.ingest.formats.html_rules import Event, _attr

LAYOUT_CONTENT = frozenset("pre ul ol dl table blockquote h1 h2 h3 h4 h5 h6".split())
"""Block content that makes a table without header cells a layout table when one of its cells
holds it (a paragraph or a ``div`` does not: Sphinx and DocBook wrap every data cell in one)."""
_LAYOUT_ROLES = frozenset({"presentation", "none"})
_LAYOUT_CLASSES = frozenset({"simplelist", "blockquote"})
"""DocBook XSL's frames: a ``simplelist`` (a list of words, one a row or in columns) and a ``blockquote`` with
its attribution (the quote in a cell between two empty ones, ``--`` and the source right-aligned below)."""


@dataclass(slots=True)
class TableShape:
    """What :func:`table_shapes` has read of one table."""

    role: bool = False  # role="presentation" or "none", or a class of _LAYOUT_CLASSES
    rows: int = 0  # rows with text in their cells
    header: bool = False  # a th, thead or caption
    blocks: bool = False  # a cell holds LAYOUT_CONTENT
    icon: bool = False  # a cell holds an image and no text
    row_text: bool = False  # the row being read has text in a cell
    row_cells: int = 0  # cells with text in the row being read
    row_classed: bool = False  # a cell of the row being read has a class
    wide: bool = False  # the last row with text has two cells with text or more, one with a class
    in_cell: bool = False
    cell_text: bool = False
    cell_image: bool = False

    def layout(self, *, in_admonition: bool) -> bool:
        """A layout table: a frame around text rather than data. Its cells are read as the blocks
        they hold (a ``pre`` stays a code block, a list its items) instead of as a row of cells.

        A layout table has no row with text, or a single row with text in one cell (a one-cell box
        around an example, as the SQLite pages frame theirs; a navigation bar of text and icons), or
        ``role="presentation"`` or
        ``"none"``, or no header cell (``th``, ``thead``, ``caption``) while a cell holds
        ``LAYOUT_CONTENT`` (a code block, a list, a heading, a nested table: the page layouts of
        javadoc, old DocBook and man2html). Inside an admonition a table with an icon cell (an
        image, no text) is the admonition's frame: DocBook's graphical admonitions put the icon
        beside the label and the text. A single row of two text cells or more and no block content is
        data where its cells are named by a class (what each cell holds): gtk-doc's parameters of a
        one-parameter function (``td.parameter_name``, ``td.parameter_description``), qdoc's summary of a
        class's one signal (``td.memItemLeft``: type, ``td.memItemRight``: signature); layout rows set
        only widths and alignments (groff's indented option, DocBook's one callout, mdoc's synopsis), and
        an admonition's one row is its frame (Asciidoctor's ``td.icon`` label beside ``td.content``).
        """
        single = self.rows == 1 and (not self.wide or in_admonition)
        return (self.rows == 0 or single or self.role or (self.blocks and not self.header)
                or (in_admonition and self.icon))

    def end_cell(self) -> None:
        if self.in_cell:
            self.row_text = self.row_text or self.cell_text
            self.row_cells += self.cell_text
            self.icon = self.icon or (self.cell_image and not self.cell_text)
        self.in_cell = self.cell_text = self.cell_image = False

    def end_row(self) -> None:
        self.end_cell()
        self.rows += self.row_text
        if self.row_text:
            self.wide = self.row_cells > 1 and self.row_classed
        self.row_text = self.row_classed = False
        self.row_cells = 0


def table_shapes(events: list[Event]) -> list[TableShape]:
    """The shape of each table that starts among ``events``, in order (nested ones included)."""
    shapes: list[TableShape] = []
    open_shapes: list[TableShape] = []
    for kind, tag, attrs in events:
        top = open_shapes[-1] if open_shapes else None
        if kind == "data":
            if top is not None and top.in_cell and tag.strip():
                top.cell_text = True
            continue
        if kind != "end":
            if tag == "table":
                if top is not None and top.in_cell:
                    top.blocks = True
                role = (_attr(attrs, "role") or "").lower() in _LAYOUT_ROLES
                shapes.append(TableShape(role=role or _attr(attrs, "class") in _LAYOUT_CLASSES))
                open_shapes.append(shapes[-1])
            elif top is None:
                pass
            elif tag == "tr":
                top.end_row()
            elif tag in ("td", "th"):
                top.end_cell()
                top.in_cell = True
                top.row_classed = top.row_classed or bool(_attr(attrs, "class"))
                top.header = top.header or tag == "th"
            elif tag in ("thead", "caption"):
                top.header = True
            elif top.in_cell and tag in LAYOUT_CONTENT:
                top.blocks = True
            elif top.in_cell and tag == "img":
                top.cell_image = True
        if kind != "start" and tag == "table" and open_shapes:
            open_shapes.pop().end_row()
    for shape in open_shapes:
        shape.end_row()
    return shapes
