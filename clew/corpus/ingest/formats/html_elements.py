"""The block structure a kept element of an HTML page begins (``html._Builder``'s start tags): a heading, a
``pre``, a definition list's term, a table and its cells, a list and its items, an admonition and its label.

Split from html so that the next reader rule has room (review V17).
"""

from __future__ import annotations

from clew.corpus.ingest.formats.fences import code_div, html_language
from clew.corpus.ingest.formats.html_ahead import ReadAhead
from clew.corpus.ingest.formats.html_marks import FootnoteMarks
from clew.corpus.ingest.formats.html_members import MemberLevels, doxygen_fields
from clew.corpus.ingest.formats.html_parts import (
    _Admonition,
    _Container,
    _DList,
    _Item,
    _List,
    _Row,
    _Table,
    quote_admonition,
    table_cell,
)
from clew.corpus.ingest.formats.html_rules import (
    _HEADINGS,
    _LEVELS,
    BYLINE_CLASSES,
    CLOSED_PART_CLASSES,
    TABLE_BOX_CLASSES,
    TITLE_BOX_CLASSES,
    _attr,
    admonition,
    admonition_label,
    api_entry,
    field_list,
    footnote,
    grid_columns,
    note_list,
    table_title,
)
from clew.corpus.ingest.formats.html_stack import Entry, OpenElements
from clew.corpus.ingest.formats.html_terms import TERM


class ElementOpener(ReadAhead, FootnoteMarks, OpenElements):
    """The entries of kept elements (:meth:`_open_element`), on the reader's state (``html._Builder``)."""

    _collapsible: bool
    _members: MemberLevels | None
    _title_class: str | None
    _title_boxes: int

    def _open_element(self, tag: str, attrs: list[tuple[str, str | None]]) -> Entry:
        """The entry for a kept element, starting whatever block structure it begins."""
        if self._container is not None:
            return Entry(tag)  # flattened into the heading, pre or cell being read
        box = self._stack[-1] if self._stack and self._stack[-1].role == "table box" else None  # obj: titled
        if table_title(tag, attrs, in_table=bool(self._tables) and not self._tables[-1].columns,
                       in_box=box is not None and not box.obj):
            self._pending.extend(self._flush())
            if box is not None and tag != "caption":
                box.obj = True  # a box's first title only
            return self._enter(tag, _Container("caption", table=self._tables[-1] if tag == "caption" else None))
        if self._admonitions:
            inside = self._admonitions[-1]
            if (not inside.labelled and len(self.blocks) == inside.blocks and admonition_label(tag, attrs)
                    and not (tag == "th" and self._tables)):  # a data table's header cell is no label
                inside.labelled = True
                self._pending.extend(self._flush())
                return self._enter(tag, _Container("label"))
            if tag in _HEADINGS or tag == "dt":
                return Entry(tag)  # text of the admonition: it opens no section
        if tag in _HEADINGS and self._stack and self._stack[-1].role == "quote":  # > ## Note (quote_admonition)
            self._pending.extend(self._flush())
            if (quoted := quote_admonition(self._stack[-1], len(self.blocks))) is not None:
                self._admonitions.append(quoted)
                return self._enter(tag, _Container("label"))
        if admonition(tag, attrs) or (tag == "details" and self._collapsible):
            held = _Admonition(len(self.blocks), len(self.tables), footnote=footnote(attrs))
            self._admonitions.append(held)
            return Entry(tag, "admonition", held)
        title = (tag == "div" and self._title_class is not None
                 and self._title_class in (_attr(attrs, "class") or "").split())
        if tag in _HEADINGS and not BYLINE_CLASSES.isdisjoint((_attr(attrs, "class") or "").split()):
            return Entry(tag)  # an author's name: a paragraph, not a section
        if tag in _HEADINGS or title:
            self._pending.extend(self._flush())
            boxed = self._title_boxes and tag in _LEVELS and self._first_h1 is None  # DSSSL: an h1 came first
            level = 1 if title or boxed else _LEVELS.get(tag, 0)
            if self._members is not None and tag in _LEVELS:
                level = self._members.level(level, (_attr(attrs, "class") or "").split())
            heading = _Container("heading", level=level, anchor=_attr(attrs, "id"))
            return self._enter(tag, heading)
        fragment = tag == "div" and code_div(attrs, doxygen=self._members is not None)  # Doxygen's, div.mermaid
        if tag == "pre" or fragment:  # Doxygen: div.fragment of div.line; its language: its own, else a near box's
            self._pending.extend(self._flush())  # (div.highlight-bash > div.highlight, or the > table.highlighttable
            boxes = (entry.language for entry in reversed(self._stack[-5:]) if entry.language)  # > tr > td.code > div)
            return self._enter(tag, _Container("pre", language=html_language(attrs, pre=True) or next(boxes, "")))
        if tag == "dt" and self._dlists and (self._dlists[-1].fields or self._dlists[-1].notes):  # its value's label
            self._pending.extend(self._flush())
            self.end_label()
            return self._enter(tag, _Container("label", field=True, note=self._dlists[-1].notes))
        if tag == "dt" and self._dlists:  # a definition-list term: a unit of its own, under the section around its list
            self._pending.extend(self._flush())
            api = bool(self._dlists) and self._dlists[-1].api
            return self._enter(tag, _Container("heading", level=TERM, anchor=_attr(attrs, "id"), api=api))
        if tag == "dd":
            self.join_terms()
            return Entry(tag)
        if tag == "dl":
            dlist = _DList(len(self._open), len(self.sections), len(self.blocks), self._length, api_entry(attrs),
                           fields=field_list(attrs) or (self._members is not None and doxygen_fields(attrs)),
                           notes=note_list(tag, attrs))
            self._dlists.append(dlist)
            return Entry(tag, "dlist", dlist)
        if self._tables:
            table = self._tables[-1]
            grid = bool(table.columns) and tag == "div" and len(self._stack) == table.depth + 1  # a cell of a grid
            if grid or tag in ("td", "th"):
                if grid and table.row is not None and len(table.row.cells) >= table.columns:
                    self._end_row(table)
                cell = (table_cell(table, header="table-header" in (_attr(attrs, "class") or "").split()) if grid
                        else table_cell(table, header=tag == "th", attrs=attrs))
                cell.pieces = [*table.pending, *self._flush()]
                table.pending = []
                return self._enter(tag, cell)
            if tag == "tr":
                self._end_row(table)
                table.row = _Row([], table.thead)
                return Entry(tag, "row", table)
            if tag in ("thead", "tbody", "tfoot"):
                table.thead = tag == "thead"
                return Entry(tag, "thead" if tag == "thead" else "", table)
        columns = grid_columns(tag, attrs)
        if columns:
            table = _Table(columns=columns, depth=len(self._stack))
            self._tables.append(table)
            return Entry(tag, "table", table)
        if tag == "table":
            if self._shape is not None and self._shape.layout(in_admonition=bool(self._admonitions)):
                return Entry(tag)  # a frame around blocks, not data (html_layout.TableShape.layout)
            table = _Table(title=self._caption)
            self._caption = None
            self._tables.append(table)
            return Entry(tag, "table", table)
        if tag in ("ul", "ol"):
            opened = _List.open(tag, attrs, self._items_counted)
            self._lists.append(opened)
            return Entry(tag, "list", opened)
        if tag == "li":
            item = _Item(max(1, len(self._lists)), self._lists[-1].marker(attrs) if self._lists else "- ")
            self._items.append(item)
            return Entry(tag, "item", item)
        if tag == "div" and not TABLE_BOX_CLASSES.isdisjoint((_attr(attrs, "class") or "").split()):
            return Entry(tag, "table box")
        if tag == "div" and not CLOSED_PART_CLASSES.isdisjoint((_attr(attrs, "class") or "").split()):
            return Entry(tag, "part", (len(self.sections), list(self._open)))
        if tag == "div" and not TITLE_BOX_CLASSES.isdisjoint((_attr(attrs, "class") or "").split()):
            self._title_boxes += 1
            return Entry(tag, "title box")
        if tag == "div" and self._members is not None and "memitem" in (_attr(attrs, "class") or "").split():
            self._members.open_body()
            return Entry(tag, "member")
        if tag == "blockquote":  # a callout where a heading opens it (html_parts.quote_admonition)
            return Entry(tag, "quote", (len(self.blocks), len(self.tables)))
        return Entry(tag)

    def _enter(self, tag: str, container: _Container) -> Entry:
        self._container = container
        return Entry(tag, "container", container)
