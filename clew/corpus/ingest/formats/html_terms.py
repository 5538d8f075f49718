"""Definition-list terms as sections, for the HTML reader's block writer
(``clew.corpus.ingest.formats.html_blocks``): a ``dt`` opens a section one level below the section
around its list, and when its list has closed (or its ``dd`` starts) the writer settles what the
terms became: consecutive ``dt`` of one ``dd`` are one heading (``join_terms``), a short list is
text of the section around it (``TERM_UNITS_CHARS``), a term with nothing under it is a paragraph,
and a Sphinx API entry with nothing under its signature is a line of the section around it.

A page may write its terms without a ``dl``: a paragraph holding only a bold name, the name's description in a
blockquote under it (SQLite's compile.html, its 195 compile-time options). :func:`bold_terms` makes such runs the
definition lists they are, before the page is parsed.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_parts import _DList
from clew.corpus.ingest.parsed import Block, Link, Section, Table

TERM = -1
"""The level a ``dt`` container is opened with (its section's level is set when it closes)."""
MAX_TERM_GROUP = 8
"""``dt`` joined at most into one term by ``TermSections.join_terms``."""
TERM_UNITS_CHARS = 6000
"""A definition list with at least this much text has a unit per term; a shorter one (a few
modes of a pragma, the five conflict algorithms) reads better as the text of its section:
measured on the SQLite dev set, per-term units there lost two evidence phrases."""

_BOLD_TERM = re.compile(
    r"<p(?P<attrs>(?:\s[^>]*)?)>\s*"
    r"(?P<term><(?P<bold>b|strong)(?:\s[^>]*)?>(?P<name>(?:[^<]|</?(?:code|i|em|var|tt)(?:\s[^>]*)?>)*+)</(?P=bold)>)"
    r"\s*(?:</p>\s*)?<blockquote>(?P<body>(?:[^<]|<(?!/?blockquote\b)|<blockquote\b[^>]*>(?:[^<]|<(?!/?blockquote\b))*+"
    r"</blockquote>)*+)</blockquote>",
    re.IGNORECASE)
"""A term and its definition written without a ``dl``: ``<p><b>NAME</b></p><blockquote>...</blockquote>``. The
paragraph holds one ``b`` or ``strong`` and nothing else (inside it only text, ``code`` and ``i``/``em``/``var``/``tt``:
``SQLITE_MAX_MMAP_SIZE=<i>N</i>``); the blockquote (no attributes: a classed one may be an admonition) may hold
one level of blockquotes (SQLITE_DQS's table of settings). Bold inside a sentence, or a blockquote after a
paragraph of text, is not this shape."""
_TAG = re.compile(r"<[^>]*>")
_ITEM_OPENED = re.compile(r"<li\b[^>]*>\s*\Z", re.IGNORECASE)
"""A list item's first paragraph is its line (``- BugFixes``, a GitPython changelog's item over its sub-list):
no term."""
_BETWEEN_TERMS = re.compile(r"(?:\s|<a\s+(?:name|id)=\"[^\"<>]*\"\s*>\s*</a>)*", re.IGNORECASE)
"""What may lie between two such terms of one list: white space and empty anchors (``<a name="fdatasync"></a>``,
the next term's, which then names its section)."""


class TermSections:
    """The term sections of :class:`html_blocks.BlockWriter`, which holds the state declared here."""

    sections: list[Section]
    blocks: list[Block]
    tables: list[Table]
    links: list[Link]
    anchors: dict[str, int]
    _open: list[tuple[int, int, bool]]  # open sections: index, level, hidden <h>
    _terms: set[int]  # sections opened by a dt
    _defined: dict[int, Block]  # term headings a dd followed
    _dlists: list[_DList]  # the open definition lists, innermost last
    _parts: list[str]
    _length: int

    def _empty_entry_is_text(self, dlist: _DList) -> None:
        """An API entry with nothing under its signature (autodoc's undocumented members: Celery's
        reference pages have 1,363 in 4,427 sections) is a line of the section around it, which then
        lists them; a link to its id still lands on its line."""
        entry = dlist.entry
        if entry is None or entry != len(self.sections) - 1:
            return
        if any(block.section == entry and block.kind != "heading" for block in self.blocks[dlist.blocks:]):
            return
        parent = self.sections.pop().parent or 0
        for block in self.blocks[dlist.blocks:]:
            if block.section == entry:
                block.kind, block.section = "paragraph", parent

    def _small_list_is_text(self, dlist: _DList) -> bool:
        """A definition list shorter than ``TERM_UNITS_CHARS`` stays text in the section around it
        (return whether it did)."""
        created = range(dlist.sections, len(self.sections))
        if self._length - dlist.length >= TERM_UNITS_CHARS or not all(i in self._terms for i in created):
            return False
        around = self._open[-1][0]
        for block in self.blocks[dlist.blocks:]:
            if block.section >= dlist.sections:
                block.section = around
                if block.kind == "heading":
                    block.kind = "paragraph"
        for table in self.tables:
            if table.section >= dlist.sections:
                table.section = around
        self._terms.difference_update(created)
        del self.sections[dlist.sections:]
        return True

    def _empty_terms_are_text(self, dlist: _DList) -> None:
        """A term of a long list with nothing under it (no text, no section: a ``dt`` without a
        ``dd``, as in a DocBook "List of Tables" or a book's table of contents) is no unit: it becomes
        a paragraph of the section around it, which a walk then reads with its neighbours."""
        first = dlist.sections
        created = range(first, len(self.sections))
        holding = {block.section for block in self.blocks[dlist.blocks:]
                   if block.section >= first and self.sections[block.section].start != block.start}
        holding.update(section.parent for section in self.sections[first:] if section.parent is not None)
        empty = {i for i in created if i in self._terms and i not in holding}
        if not empty:
            return
        new: dict[int, int] = {}
        kept = first
        for i in created:
            if i not in empty:
                new[i] = kept
                kept += 1

        def moved(index: int) -> int:
            while index in empty:  # an empty term's text goes to the section around it
                index = self.sections[index].parent or 0
            return new.get(index, index)

        for block in self.blocks[dlist.blocks:]:
            if block.section in empty and block.kind == "heading":
                block.kind = "paragraph"
            block.section = moved(block.section)
        for table in self.tables:
            table.section = moved(table.section)
        for i in created:
            section = self.sections[i]
            if i not in empty and section.parent is not None:
                section.parent = moved(section.parent)
        self._terms = {moved(i) for i in self._terms if i not in empty}
        self.sections[first:] = [self.sections[i] for i in created if i not in empty]

    def join_terms(self) -> None:
        """A ``dd`` starts: the ``dt`` right before it, when more than one (a group of terms for one
        definition: an option's short and long names, Texinfo's ``@itemx``), become one heading, a
        line each, and one section named by all of them (``-a, --text``). Terms without a ``dd``
        after them (DocBook's index, a ``dl`` of ``dt`` only) stay apart, and so does a term whose own ``dd``
        held no text (javadoc's index: ``<dd>&nbsp;</dd>`` under a method without a description; task U5)."""
        if not self._dlists:
            return
        first = len(self.blocks)
        while first > 0 and first > len(self.blocks) - MAX_TERM_GROUP:
            block = self.blocks[first - 1]
            if (block.kind != "heading" or block.section not in self._terms or id(block) in self._defined
                    or block.section < self._dlists[-1].sections or self.sections[block.section].start != block.start):
                break
            first -= 1
        count = len(self.blocks) - first
        if count:  # the term this dd defines (a group's first, which the group joins into)
            self._defined[id(self.blocks[first])] = self.blocks[first]
        if count < 2:
            return
        head, tail = self.blocks[first], self.blocks[first + 1:]
        section = self.sections[head.section]
        cut = tail[0].start  # what lies from here on moves back one character per joined term
        # each joined term's part starts with the blank line _emit puts between two headings: one newline goes
        self._parts[-count + 1:] = [part[1:] for part in self._parts[-count + 1:]]
        starts = [block.start for block in tail]

        def moved(offset: int) -> int:
            return offset - sum(1 for start in starts if start <= offset)

        # markers at or after the cut were recorded with the joined terms: the last ones recorded
        for name in reversed(self.anchors):
            if self.anchors[name] < cut:
                break
            self.anchors[name] = moved(self.anchors[name])
        for link in reversed(self.links):
            if link.start < cut:
                break
            link.start = moved(link.start)
        self._length -= count - 1
        head.end = self._length
        for block in tail:
            joined = self.sections[block.section]
            section.heading += ", " + joined.heading
            section.anchors.extend(name for name in joined.anchors if name not in section.anchors)
            self._terms.discard(block.section)
        del self.blocks[first + 1:]
        del self.sections[head.section + 1:]
        while self._open[-1][0] > head.section:
            self._open.pop()
        if self._open[-1][0] != head.section:
            self._open.append((head.section, section.level, True))


def bold_terms(text: str) -> str:
    """Runs of ``_BOLD_TERM`` (only ``_BETWEEN_TERMS`` between them) as definition lists, one per run: the bold
    paragraph a ``dt`` (with the paragraph's attributes; the bold's own ``id`` stays inside it), its blockquote the
    ``dd``. A run is one list, so a long one has a unit per term and a short one stays text
    (``TERM_UNITS_CHARS``), as a ``dl`` written so would."""
    if "<blockquote>" not in text.lower():
        return text
    parts: list[str] = []
    done = 0  # the text before this is in parts
    run_end = -1  # where the open run's last term ended (-1: no run open)
    for found in _BOLD_TERM.finditer(text):
        start = found.start()
        if not _TAG.sub("", found["name"]).strip() or _ITEM_OPENED.search(text, max(0, start - 200), start):
            continue
        joins = run_end >= 0 and _BETWEEN_TERMS.fullmatch(text, run_end, start) is not None
        if run_end >= 0 and not joins:
            parts.append("</dl>")
        parts.append(text[done:start])
        if not joins:
            parts.append("<dl>")
        parts.append(f"<dt{found['attrs']}>{found['term']}</dt><dd>{found['body']}</dd>")
        done = run_end = found.end()
    if run_end >= 0:
        parts.append("</dl>")
    parts.append(text[done:])
    return "".join(parts)
