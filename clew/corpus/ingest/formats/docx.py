"""DOCX (Word): python-docx, rendered like HTML (see ``clew.corpus.ingest.formats.rendered``).

- Body paragraphs and tables are read in document order.
- A paragraph whose style is ``Title`` or ``Heading N`` (or a style based on one), or that
  carries an outline level, is a heading of that level (``Title`` is level 1 and the
  headings under it one lower); it opens a section.
- A paragraph with list numbering (``w:numPr``) or a ``List ...`` style is a list item,
  indented two spaces per numbering level; consecutive items join with one newline. An item of
  a numbered list reads ``"N. "`` with the number Word shows (:class:`_Numbering`), a bullet's
  ``"- "``.
- A paragraph in a code style (:data:`CODE_STYLES`, or a style based on one: pandoc's ``Source Code``,
  LibreOffice's ``Preformatted Text``, Word's ``HTML Preformatted``) is code: its lines (``w:br``)
  kept, consecutive code paragraphs (LibreOffice writes one a line, blank lines too) one code block,
  fenced as Markdown writes code (``fences``); a no-break space in them is a space.
- A footnote or endnote reference reads ``[N]`` (N counts the notes in the order the text refers
  to them, as Word numbers them); the note's text follows the paragraph (or table) that refers to
  it as a paragraph ``"[N] text"``: in the section it belongs to, not lost in ``footnotes.xml``.
- An admonition's title written as a paragraph of its own (pandoc's "Note", "Caution": docutils' labels,
  :data:`ADMONITION_LABELS`) reads with the paragraph after it, "Note: This document ...", as the HTML
  reader reads an admonition's label; alone where a heading, a list, code or a table follows.
- A table of contents is left out, as the HTML reader leaves a page's out: paragraphs in Word's ``TOC N``
  style (LibreOffice's ``Contents N``; a contents field in a ``w:sdt`` is not read at all), a paragraph of
  three or more links into the document with nothing but their numbers beside them (LibreOffice's DOCX
  of an HTML manual's contents, "1 Introduction / 1.1 TeX Live and ..."), and a "Contents" heading
  over one.
- A table is a table: its rows marked "repeat as header row" are its header, else its first
  row; merged cells are written once; a one-cell table is text (a layout box, not a table).
- Pages: where Word recorded its last layout (``w:lastRenderedPageBreak``) or an explicit page
  break, each page's start is kept, so passages carry page numbers; a file without either has
  no pages.
- A file that is not a Word document (not a zip, no main part) raises
  :class:`UnreadableDocument` with the reason; so does one past its :class:`ParseBounds`: parts
  that unzip to more than ``expanded_bytes``, or a parse that outlasts ``seconds``.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import TYPE_CHECKING, Any

from clew.corpus.ingest.formats.fences import fenced
from clew.corpus.ingest.formats.rendered import Renderer
from clew.corpus.ingest.parsed import Deadline, ParseBounds, ParsedDocument, UnreadableDocument

if TYPE_CHECKING:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CODE_STYLES = frozenset({"source code", "preformatted text", "html preformatted", "plain text", "macro text", "code"})
"""Paragraph style names (lower case) that mark code: pandoc's, LibreOffice's (from HTML's ``pre``), Word's."""
_CONTENTS_HEADINGS = frozenset({"contents", "table of contents"})
ADMONITION_LABELS = frozenset(
    {"Note", "Tip", "Hint", "Important", "Warning", "Caution", "Attention", "Danger", "Error", "See also"})


def parse_docx(data: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """Render a Word document into headings, paragraphs, list items and tables."""
    import docx  # python-docx, imported here: only DOCX ingestion needs it
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table
    from docx.text.paragraph import Paragraph
    from lxml.etree import XMLSyntaxError  # type: ignore[import-untyped]

    bounds = bounds or ParseBounds()
    deadline = bounds.deadline()
    _check_expanded(data, bounds)
    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, PackageNotFoundError, KeyError, ValueError, XMLSyntaxError) as error:
        # XMLSyntaxError: lxml's own limits stop an entity bomb, a huge text node or deep nesting
        raise UnreadableDocument(f"not a readable DOCX file ({type(error).__name__}: {error})") from error
    body = document.element.body
    dropped = _drop_entity_references(body)
    paged = body.find(f".//{_W}lastRenderedPageBreak") is not None or any(
        br.get(f"{_W}type") == "page" for br in body.iter(f"{_W}br"))
    renderer = Renderer()
    numbering = _Numbering(document)
    if paged:
        renderer.page()
    notes = _Notes(document, body)
    styles = _Styles()
    code: list[Paragraph] = []  # the code paragraphs read since the last other block
    label = _Label()
    has_title = False
    for number, element in enumerate(body.iterchildren(), start=1):
        deadline.check(f"body element {number}")
        tag = element.tag.rsplit("}", 1)[-1]
        if tag == "p" and CODE_STYLES.intersection(styles.names(paragraph := Paragraph(element, document))):
            if paged and not code:
                _page_turn(renderer, element)
            label.flush(renderer)
            code.append(paragraph)
            continue
        if code:
            _code(renderer, code, notes)
            code = []
        if tag == "p" and (_contents(paragraph, styles) or _contents_heading(paragraph, document, styles)):
            continue
        if tag == "p":
            has_title = _paragraph(renderer, paragraph, paged, has_title, numbering, styles, label)
        elif tag == "tbl":
            label.flush(renderer)
            _table(renderer, Table(element, document), deadline)
        if tag in ("p", "tbl"):
            notes.follow(renderer, element)
    if code:
        _code(renderer, code, notes)
    label.flush(renderer)
    title = (document.core_properties.title or "").strip() or None
    parsed = renderer.document(title=title)
    if dropped:
        parsed.repairs.append(f"{len(dropped)} entity reference(s) left unexpanded ({', '.join(sorted(dropped)[:5])}): "
                              "left out, the text around them kept")
    return parsed


def _drop_entity_references(body: Any) -> set[str]:
    """Remove the entity references lxml left unexpanded inside text nodes (python-docx reads a
    ``w:t``'s text up to its first child, losing the rest of the run); returns their names."""
    from lxml.etree import _Entity

    names: set[str] = set()
    for node in body.iter(f"{_W}t"):
        if not len(node):
            continue
        parts = [node.text or ""]
        for child in list(node):
            if isinstance(child, _Entity):
                names.add(child.text)
            else:
                parts.append("".join(child.itertext(with_tail=False)))
            parts.append(child.tail or "")
            node.remove(child)
        node.text = "".join(parts)
    return names


def _check_expanded(data: bytes, bounds: ParseBounds) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # not a zip: python-docx says so below
    with archive:
        bounds.check_unzipped(archive, "parts")


def _paragraph(renderer: Renderer, paragraph: Paragraph, paged: bool, has_title: bool, numbering: _Numbering,
               styles: _Styles, label: _Label) -> bool:
    element = paragraph._p
    if paged:
        _page_turn(renderer, element)
    text = " ".join(paragraph.text.split())
    if not text:
        return has_title
    level = _heading_level(paragraph, styles)
    depth = _list_depth(paragraph, styles) if level is None else None
    if level is None and depth is None:
        if label.text is None and text in ADMONITION_LABELS:
            label.text = text
        else:
            renderer.emit("paragraph", text if label.text is None else f"{label.text}: {text}")
            label.text = None
        return has_title
    label.flush(renderer)
    if level == 0:  # Title
        renderer.heading(text, 1)
        return True
    if level is not None:
        renderer.heading(text, level + 1 if has_title else level)
        return has_title
    if depth is not None:
        group = renderer.previous if renderer.blocks and renderer.blocks[-1].kind == "list_item" else (
            "list", len(renderer.blocks))
        renderer.emit("list_item", "  " * depth + numbering.marker(paragraph) + text, group=group)
    return has_title


class _Label:
    """An admonition's title paragraph, held for the paragraph after it."""

    def __init__(self) -> None:
        self.text: str | None = None

    def flush(self, renderer: Renderer) -> None:
        """The held title as a paragraph of its own (a heading, a list, code or a table follows it)."""
        if self.text is not None:
            renderer.emit("paragraph", self.text)
            self.text = None


def _page_turn(renderer: Renderer, element: Any) -> None:
    """A new page where Word broke the page before or in ``element`` (none before the first block)."""
    if renderer.blocks and (element.find(f".//{_W}lastRenderedPageBreak") is not None or any(
            br.get(f"{_W}type") == "page" for br in element.iter(f"{_W}br"))):
        renderer.page()


class _Styles:
    """The names of a paragraph's style and the styles it is based on (lower case), looked up once a style:
    python-docx finds a paragraph's style by a walk over all the document's styles."""

    def __init__(self) -> None:
        self._names: dict[str | None, tuple[str, ...]] = {}

    def names(self, paragraph: Paragraph) -> tuple[str, ...]:
        key = paragraph._p.style
        if key not in self._names:
            names: list[str] = []
            style = paragraph.style
            while style is not None and len(names) < 32:  # a loop of based-on styles ends
                names.append((style.name or "").strip().lower())
                style = style.base_style
            self._names[key] = tuple(names)
        return self._names[key]


def _contents(paragraph: Paragraph, styles: _Styles) -> bool:
    """Whether a paragraph is an entry (or all) of a table of contents (see the module's docstring)."""
    for name in styles.names(paragraph):
        kind, _, level = name.rpartition(" ")
        if kind in ("toc", "contents") and level.isdecimal():
            return True
    element = paragraph._p
    links = [link for link in element.iterchildren(f"{_W}hyperlink") if link.get(f"{_W}anchor")]
    if len(links) < 3:
        return False
    outside = " ".join(node.text or "" for node in element.iter(f"{_W}t") if not any(
        link.get(f"{_W}anchor") for link in node.iterancestors(f"{_W}hyperlink")))
    return all(len(word) <= 8 and not any(char.islower() for char in word) for word in outside.split())


def _contents_heading(paragraph: Paragraph, document: Any, styles: _Styles) -> bool:
    """A "Contents" heading over a table of contents (the next paragraph with text is one)."""
    from docx.text.paragraph import Paragraph

    if " ".join(paragraph.text.split()).lower() not in _CONTENTS_HEADINGS or _heading_level(paragraph, styles) is None:
        return False
    following = paragraph._p.getnext()
    while following is not None and following.tag == f"{_W}p" and not Paragraph(following, document).text.strip():
        following = following.getnext()
    return following is not None and following.tag == f"{_W}p" and _contents(Paragraph(following, document), styles)


def _code(renderer: Renderer, paragraphs: list[Paragraph], notes: _Notes) -> None:
    """One code block of consecutive code paragraphs' lines, less blank lines at its ends; then the notes they refer
    to, as after any paragraph (their references are marked ``[N]`` in the code)."""
    lines = [line.rstrip() for paragraph in paragraphs for line in paragraph.text.replace("\u00a0", " ").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if lines:
        renderer.emit("code", fenced("\n".join(lines))[0], indivisible=True)
    for paragraph in paragraphs:
        notes.follow(renderer, paragraph._p)


class _Notes:
    """Footnotes and endnotes: each reference in the body numbered in order and marked ``[N]`` in its
    run's text; :meth:`follow` emits the notes an element refers to after it."""

    def __init__(self, document: Any, body: Any) -> None:
        from docx.opc.constants import RELATIONSHIP_TYPE
        from docx.oxml.parser import parse_xml
        from docx.text.paragraph import Paragraph

        self._texts: dict[tuple[str, str], str] = {}  # (kind, w:id) -> the note's text
        for kind, relation in (("footnote", RELATIONSHIP_TYPE.FOOTNOTES), ("endnote", RELATIONSHIP_TYPE.ENDNOTES)):
            try:
                root = parse_xml(document.part.part_related_by(relation).blob)
            except (KeyError, ValueError, SyntaxError):  # no such part, or one that does not parse
                continue
            for note in root.iterchildren(f"{_W}{kind}"):
                if note.get(f"{_W}type") in (None, "normal"):
                    text = " ".join(" ".join(Paragraph(p, document.part).text.split()) for p in note.iter(f"{_W}p"))
                    self._texts[(kind, note.get(f"{_W}id") or "")] = " ".join(text.split())
        self._numbers: dict[tuple[str, str], int] = {}  # (kind, w:id) -> its number (a note is referred to once)
        if not self._texts:
            return
        for reference in body.iter(f"{_W}footnoteReference", f"{_W}endnoteReference"):
            key = _note_key(reference)
            if key in self._texts and key not in self._numbers:
                number = self._numbers[key] = len(self._numbers) + 1
                mark = reference.makeelement(f"{_W}t", {})
                mark.text = f"[{number}]"
                reference.addnext(mark)

    def follow(self, renderer: Renderer, element: Any) -> None:
        """The notes ``element`` refers to, each a paragraph ``"[N] text"`` after it."""
        if not self._numbers:
            return
        for reference in element.iter(f"{_W}footnoteReference", f"{_W}endnoteReference"):
            key = _note_key(reference)
            number, text = self._numbers.get(key), self._texts.get(key)
            if number is not None and text and reference.getnext() is not None and (
                    reference.getnext().text == f"[{number}]"):
                renderer.emit("paragraph", f"[{number}] {text}")


def _note_key(reference: Any) -> tuple[str, str]:
    """A footnote or endnote reference's note: (its kind, its ``w:id``)."""
    return ("footnote" if reference.tag == f"{_W}footnoteReference" else "endnote", reference.get(f"{_W}id") or "")


def _heading_level(paragraph: Paragraph, styles: _Styles) -> int | None:
    """0 for Title, 1-9 for a heading, None for body text."""
    for name in styles.names(paragraph):
        if name == "title":
            return 0
        match = _HEADING_STYLE.match(name)
        if match:
            return int(match.group(1))
    properties = paragraph._p.pPr
    outline = properties.find(f"{_W}outlineLvl") if properties is not None else None
    if outline is not None:
        value = outline.get(f"{_W}val")
        if value is not None and value.isdecimal() and int(value) < 9:
            return int(value) + 1
    return None


def _list_depth(paragraph: Paragraph, styles: _Styles) -> int | None:
    properties = paragraph._p.pPr
    numbering = properties.find(f"{_W}numPr") if properties is not None else None
    if numbering is not None:
        level = numbering.find(f"{_W}ilvl")
        value = level.get(f"{_W}val") if level is not None else "0"
        return int(value) if value and value.isdecimal() else 0
    names = styles.names(paragraph)
    return 0 if names and names[0].startswith("list") else None


class _Numbering:
    """Word's list numbering (``numbering.xml``), counted as Word counts it: a paragraph's ``w:numPr``
    (or its style's) names a list (``w:numId``) and a level (``w:ilvl``); the list's abstract
    definition gives each level's format and first number (``w:start``, or the list's
    ``w:startOverride``). Each item of a level adds one; an item of a level resets the levels below
    it. A ``bullet`` or ``none`` level reads ``"- "``; every numbered format reads ``"N. "``
    (``lowerLetter`` and ``lowerRoman`` stay numeric, as an HTML ``ol type="a"`` does)."""

    def __init__(self, document: Any) -> None:
        self._levels: dict[str, dict[int, tuple[bool, int]]] = {}  # numId -> level -> (numbered, start)
        self._counts: dict[str, dict[int, int]] = {}  # numId -> level -> its last number
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError):
            return
        abstract: dict[str, dict[int, tuple[bool, int]]] = {}
        for definition in root.iterchildren(f"{_W}abstractNum"):
            abstract[definition.get(f"{_W}abstractNumId") or ""] = {
                level: (fmt not in ("bullet", "none"), start)
                for level, fmt, start in map(_level, definition.iterchildren(f"{_W}lvl"))}
        for num in root.iterchildren(f"{_W}num"):
            link = num.find(f"{_W}abstractNumId")
            levels = dict(abstract.get(link.get(f"{_W}val") or "", {}) if link is not None else {})
            for override in num.iterchildren(f"{_W}lvlOverride"):
                restart = _integer(override.find(f"{_W}startOverride"))
                level = _integer(override, "ilvl")
                if restart is not None and level is not None:
                    levels[level] = (levels.get(level, (True, 1))[0], restart)
            self._levels[num.get(f"{_W}numId") or ""] = levels

    def marker(self, paragraph: Paragraph) -> str:
        """The marker of a list paragraph: ``"N. "`` at a numbered level, else ``"- "``."""
        found = _num_pr(paragraph)
        if found is None:
            return "- "
        num_id, level = found
        numbered, start = self._levels.get(num_id, {}).get(level, (False, 1))
        if not numbered:
            return "- "
        counts = self._counts.setdefault(num_id, {})
        number = counts[level] + 1 if level in counts else start
        counts[level] = number
        for deeper in [other for other in counts if other > level]:
            del counts[deeper]
        return f"{number}. "


def _level(element: Any) -> tuple[int, str, int]:
    """A ``w:lvl``'s level, format and first number."""
    fmt = element.find(f"{_W}numFmt")
    start = _integer(element.find(f"{_W}start"))
    return (_integer(element, "ilvl") or 0, (fmt.get(f"{_W}val") or "decimal") if fmt is not None else "decimal",
            1 if start is None else start)


def _integer(element: Any, name: str = "val") -> int | None:
    value = element.get(f"{_W}{name}") if element is not None else None
    return int(value) if value is not None and value.lstrip("-").isdecimal() and len(value) < 10 else None


def _num_pr(paragraph: Paragraph) -> tuple[str, int] | None:
    """The list (``w:numId``) and level of a paragraph, from its own ``w:numPr`` or its style's;
    None for a paragraph outside any list (``numId`` 0 takes a style's numbering away)."""
    properties = paragraph._p.pPr
    own = properties.find(f"{_W}numPr") if properties is not None else None
    num_id = own.find(f"{_W}numId") if own is not None else None
    level = _integer(own.find(f"{_W}ilvl")) if own is not None else None
    style = paragraph.style
    while num_id is None and style is not None:
        styled = style.element.pPr.find(f"{_W}numPr") if style.element.pPr is not None else None
        if styled is not None:
            num_id = styled.find(f"{_W}numId")
            level = level if level is not None else _integer(styled.find(f"{_W}ilvl"))
        style = style.base_style
    value = num_id.get(f"{_W}val") if num_id is not None else None
    return (value, level or 0) if value and value != "0" else None


def _table(renderer: Renderer, table: Table, deadline: Deadline) -> None:
    rows: list[list[str]] = []
    header_rows = 0
    for row in table.rows:
        deadline.check("a table row")
        cells: list[str] = []
        seen: list[object] = []
        for cell in row.cells:
            if any(cell._tc is other for other in seen):  # a merged cell is reported once per grid column
                continue
            seen.append(cell._tc)
            cells.append(" ".join(cell.text.split()))
        rows.append(cells)
        properties = row._tr.trPr
        if properties is not None and properties.find(f"{_W}tblHeader") is not None and header_rows == len(rows) - 1:
            header_rows += 1
    rows = [row for row in rows if any(row)]
    if not rows:
        return
    if len(rows) == 1 and len(rows[0]) == 1:  # a one-cell table is a box of text
        renderer.emit("paragraph", rows[0][0])
        return
    renderer.table(rows, header_rows or 1)
