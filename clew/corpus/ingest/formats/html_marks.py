"""Marks in the HTML reader's text (``clew.corpus.ingest.formats.html``) that point at a note: footnote
marks (:class:`FootnoteMarks`) and Asciidoctor's callout numbers (:func:`callout_list`).

A footnote mark is read as `` [1]``: a space, then its label in brackets, whatever the generator wrote.
Pandoc writes ``installer<a class="footnote-ref" role="doc-noteref"><sup>1</sup></a>``, DocBook
``<sup>[<a class="footnote">1</a>]</sup>`` or ``<a class="footnote"><sup class="footnote">[14]</sup></a>``,
Asciidoctor ``<sup class="footnote">[<a class="footnote">1</a>]</sup>``, mdBook
``<sup class="footnote-reference"><a>1</a></sup>``, MediaWiki ``<sup class="reference"><a>[1]</a></sup>``,
docutils ``<a class="footnote-reference" role="doc-noteref">[1]</a>``, TeX4ht ``<span class="footnote-mark"><a>
<sup>1</sup></a></span>``, LaTeX2HTML ``<a id="tex2html1" href="#foot10"><sup>1</sup></a>`` and HeVeA
``<sup><a id="text1" href="#note1">1</a></sup>`` (the last two without a class: :data:`NOTE_LINKS`), Org mode
``<sup><a id="fnr.1" class="footref" href="#fn.1">1</a></sup>``. Read as
they stand, most glue the
label to the word before it ("installer1"), and a term glued to a digit is not the term for search. The
mark is kept rather than dropped: the note it points at is labelled the same way (docutils' and
DocBook's notes read ``[1] ...``), so a reader of the text can find it, and the mark's link to the note
stays where the reader makes links. A ``sup`` that is a footnote mark is no power (``_exponent``).
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_blocks import BlockWriter
from clew.corpus.ingest.formats.html_rules import Event, Piece, _attr

MARK_CLASSES = {
    "a": frozenset({"footnote-ref", "footnote-reference", "footnote", "footref", "footnum"}),
    "sup": frozenset({"footnote", "footnoteref", "footnote-reference", "reference"}),
    "span": frozenset({"footnote-mark"}),
}
"""A footnote mark's outermost element, by tag: pandoc's and docutils' ``a``, DocBook's ``a.footnote``
(inside a ``sup`` or around one), Asciidoctor's ``sup.footnote`` (``sup.footnoteref`` when the note was
cited before), mdBook's ``sup.footnote-reference``, MediaWiki's ``sup.reference``, TeX4ht's
``span.footnote-mark`` (in the text, and before the note's text on its page), Org mode's ``a.footref`` (in a
``sup``) and its note's number ``a.footnum`` (task U19). An ``a`` with
``role="doc-noteref"`` is one too, and so is one of :data:`NOTE_LINKS`."""

NOTE_LINKS = frozenset(
    {("tex2html", "foot"), ("", "tex2html"), ("text", "note"), ("note", "text"), ("DOCF", "FOOT"), ("FOOT", "DOCF")})
"""Footnote marks by their link alone, for generators that give them no class: (the ``a``'s ``id``, the
fragment of its ``href``), each less its number. LaTeX2HTML: the mark ``<a id="tex2html1" href="#foot10">``
(``footnode.html#foot10`` on a split document's page), and the note's link back to it (``href="#tex2html1"``,
no id; the ``tex2html`` ids of its contents lead to ``#SECTION...``). HeVeA: the mark ``<a id="text1"
href="#note1">`` and the note's label ``<a id="note1" href="#text1">``. Texinfo (task R6): the mark ``<a id="DOCF1"
href="#FOOT1"><sup>1</sup></a>`` and the note's number ``<a id="FOOT1" href="#DOCF1">(1)</a>``."""

_NUMBERED = re.compile(r"(.*?)\d+")

_MDBOOK_NOTE = re.compile(
    r'<div class="footnote-definition"( id="[^"<>]*")?>\s*<sup class="footnote-definition-label">([^<>]{1,8})</sup>')


def note_definitions(text: str) -> str:
    """``text`` with mdBook's notes (pulldown-cmark's ``div.footnote-definition``, its number a
    ``sup.footnote-definition-label`` before the note's paragraphs) written as docutils' are, a footnote whose
    label ``[1]`` opens its first paragraph: "[1] Stack probes support is missing ...", where the number read
    as a paragraph "1" of its own, apart from the note (task E8: The rustc book's platform tables)."""
    if 'class="footnote-definition"' not in text:
        return text
    return _MDBOOK_NOTE.sub(r'<div class="footnote footnote-definition" role="note"\1><span class="label">[\2]</span> ',
                            text)


def footnote_mark(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether ``tag`` with ``attrs`` starts a footnote mark (``MARK_CLASSES``, ``NOTE_LINKS``)."""
    if tag == "a" and ((_attr(attrs, "role") or "").lower() == "doc-noteref" or _note_link(attrs)):
        return True
    return tag in MARK_CLASSES and not MARK_CLASSES[tag].isdisjoint((_attr(attrs, "class") or "").split())


def _note_link(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an ``a``'s ``id`` and ``href`` are a footnote mark's of :data:`NOTE_LINKS`."""
    href = _attr(attrs, "href") or ""
    fragment = _NUMBERED.fullmatch(href.partition("#")[2]) if "#" in href else None
    anchor = _attr(attrs, "id")
    named = _NUMBERED.fullmatch(anchor) if anchor is not None else None
    if fragment is None or (anchor is not None and named is None):
        return False
    return (named.group(1) if named is not None else "", fragment.group(1)) in NOTE_LINKS


class FootnoteMarks(BlockWriter):
    """The writer that reads a footnote mark's label as `` [label]`` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._mark: str | None = None  # the tag of the footnote mark being read, whose end ends it
        self._mark_text = False  # its label's text has started: ``[`` is written
        self._mark_ended = False  # a mark just ended: a "]" that DocBook writes after it is its own
        self._box: str | None = None  # a task's check box (:func:`task_box`), written before the next words

    def _markers(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._mark is None and tag in MARK_CLASSES and footnote_mark(tag, attrs):
            self._mark, self._mark_text = tag, False
            self._drop_open_bracket()
            last = self._last_text()
            if last and not last[-1].isspace():
                super()._add(" ")  # before the mark's link and anchors: they start at its "["
            self._power = False  # a footnote's sup is no power
        super()._markers(tag, attrs)

    def _item_boundary(self, tag: str) -> None:
        """``_boundary`` at a start or end tag ``tag``; where it opens or ends a list or an item, a check box no
        words came after (an empty task: ``- [ ]``) is its item's text, not the next words' wherever they are (the
        next item's, a heading's: review V15). A ``label``'s end (Material's, around the box) leaves it waiting."""
        if self._box is not None and tag in ("li", "ul", "ol"):
            box, self._box = self._box, None
            self._add(box)
        self._boundary()

    def _add(self, piece: Piece) -> None:
        if not isinstance(piece, str):
            super()._add(piece)
            return
        if self._box is not None and piece.strip():  # after the label around the box (Material's) has ended
            piece, self._box = f"{self._box} {piece.lstrip()}", None
        if self._mark_ended:  # "]" after DocBook's mark is the mark's own; a word right after it is apart
            self._mark_ended = False
            piece = piece[1:] if piece.startswith("]") else " " + piece if piece[:1].isalnum() else piece
        if self._mark is None:
            super()._add(piece)
            return
        label = " ".join(piece.replace("[", " ").replace("]", " ").split())
        if not label:
            return
        if not self._mark_text:
            self._mark_text = True
            label = "[" + label
        super()._add(label)

    def end_mark(self, tag: str) -> None:
        """An inline element ``tag`` has ended: the footnote mark it started ends with it (`` [1`` gets ``]``)."""
        if tag == self._mark:
            self._end_mark()

    def _boundary(self) -> None:
        self._end_mark()  # a mark is inline: a block boundary ends it (a mark's end flattened away)
        super()._boundary()

    def _end_mark(self) -> None:
        if self._mark is not None:
            written, self._mark = self._mark_text, None
            if written:
                super()._add("]")
                self._mark_ended = True

    def _pieces(self) -> list[Piece]:
        container = self._container
        return container.pieces if container is not None else self._run

    def _last_text(self) -> str:
        return next((piece for piece in reversed(self._pieces()) if isinstance(piece, str) and piece), "")

    def _drop_open_bracket(self) -> None:
        """DocBook's ``<sup>[<a class="footnote">``: the ``[`` before the mark is the mark's own."""
        pieces = self._pieces()
        for index in range(len(pieces) - 1, -1, -1):
            piece = pieces[index]
            if isinstance(piece, str) and piece:
                if piece.endswith("["):
                    pieces[index] = piece[:-1]
                return


def is_callout_table(events: list[Event]) -> bool:
    """Whether the held ``events`` (a table's, from its start tag) are a callout list: Asciidoctor's with
    font icons (``div.colist > table``) or DocBook XSL's (``table[summary="Callout list"]``: Publican's,
    BoostBook's, PostgreSQL's); every row two cells, the first holding the mark (:func:`_callout_number`)."""
    rows = _rows(events)
    docbook = _attr(events[0][2], "summary") == _DOCBOOK_CALLOUTS
    return bool(rows) and all(len(cells) == 2 and _callout_number(cells[0], docbook) is not None for cells in rows)


def callout_list(events: list[Event]) -> list[Event]:
    """Asciidoctor's callout list with font icons, ``<tr><td><i class="conum" data-value="1"></i><b>1</b>
    </td><td>Prints ...</td></tr>``, rewritten as the list its form without icons writes
    (``div.colist > ol > li``): ``1. Prints ...``, not a table of numbers and texts."""
    rows = _rows(events)
    first = _callout_number(rows[0][0], _attr(events[0][2], "summary") == _DOCBOOK_CALLOUTS) if rows else None
    start: list[tuple[str, str | None]] = [] if first in (None, "1") else [("start", first)]
    out: list[Event] = [("start", "ol", start)]
    for cells in rows:
        out.extend([("start", "li", []), *cells[1], ("end", "li", [])])
    out.append(("end", "ol", []))
    return out


_DOCBOOK_CALLOUTS = "Callout list"
_DOCBOOK_MARK = re.compile(r"\((\d+)\)|(\d+)")


def _callout_number(cell: list[Event], docbook: bool) -> str | None:
    """The callout number of a cell that holds Asciidoctor's ``i.conum[data-value]``, or None; in a DocBook
    callout list, of a cell whose text is its mark, ``(1)``, or whose one image is (``<img class="callout"
    alt="1">``, Publican's and BoostBook's), a link to the mark in the example around either."""
    if docbook:
        text = "".join(tag for kind, tag, _ in cell if kind == "data").strip()
        alts = [
            _attr(attrs, "alt") or "" for kind, tag, attrs in cell if kind in ("start", "startend") and tag == "img"
        ]
        mark = _DOCBOOK_MARK.fullmatch(text or (alts[0] if len(alts) == 1 else ""))
        return (mark.group(1) or mark.group(2)) if mark else None
    for kind, tag, attrs in cell:
        if kind in ("start", "startend") and tag == "i" and "conum" in (_attr(attrs, "class") or "").split():
            value = _attr(attrs, "data-value")
            return value if value and value.isdecimal() else None
    return None


def _rows(events: list[Event]) -> list[list[list[Event]]]:
    """A flat table's rows, each its cells' inner events; none for a table that holds a table."""
    rows: list[list[list[Event]]] = []
    cell: list[Event] | None = None
    for kind, tag, attrs in events[1:]:
        if kind in ("start", "startend") and tag == "table":
            return []
        if kind == "start" and tag == "tr":
            rows.append([])
            cell = None
        elif kind == "start" and tag in ("td", "th"):
            if not rows:
                rows.append([])
            cell = []
            rows[-1].append(cell)
        elif kind == "end" and tag in ("td", "th", "tr", "table"):
            cell = None
        elif cell is not None:
            cell.append((kind, tag, attrs))
    return rows


def task_box(attrs: list[tuple[str, str | None]]) -> str | None:
    """A task list's check box read as its Markdown source writes it: ``[x]`` checked, ``[ ]`` not (task E9).
    Python-Markdown's tasklist, GitHub and goldmark write ``<li><input type="checkbox" disabled checked> item``,
    MkDocs Material ``<li><label class="task-list-control"><input ...><span></span></label> item``; read
    without it, a list of done and open tasks was a list of items. Only a check box: a radio button (a tab's
    control) or a text field is none. Written with the words after it: Material's ``label`` around the box ends a
    paragraph."""
    if (_attr(attrs, "type") or "").strip().lower() != "checkbox":
        return None
    return "[x]" if any(name.lower() == "checked" for name, _ in attrs) else "[ ]"
