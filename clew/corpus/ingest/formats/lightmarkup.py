"""reStructuredText and AsciiDoc: their section titles, and paragraphs between blank lines.

The document text is the source itself (newlines normalised, tables written as pipe rows), so
spans point at it, as in Markdown. Only the titles are read; everything else is paragraphs (or code, below).

- reStructuredText: a title is a line underlined (optionally also overlined) by one
  punctuation character repeated at least as long as the title. Levels follow the order in
  which the adornment styles (character, with or without overline) first appear, as docutils
  assigns them.
- AsciiDoc: a line ``= Title``, ``== Section``, ... (up to six ``=``) is a title of that level,
  and so is a two-line title, a line underlined by ``=``, ``-``, ``~``, ``^`` or ``+`` (levels 1
  to 5) within two characters of its length, after a blank line (git's manual pages:
  ``git-stash(1)`` over ``============``, ``NAME`` over ``----``). Delimited listing and literal
  blocks (``----``, ``....``) are code blocks, kept whole.

Links and anchors: an AsciiDoc block anchor line (``[[summary]]``) and a reStructuredText label
(``.. _whitespace-control:``, lower-cased as Sphinx does) name the block after them; AsciiDoc's
``linkgit:git-add[1]`` links to the page of that name beside this one (``git-add.txt`` in a
``.txt`` file, ``git-add.adoc`` in an AsciiDoc one) and ``<<summary>>`` to an anchor of the page (``[[summary]]``
or ``[#summary]``); ``<<info,INFO>>`` and Antora's ``xref:page.adoc#id[text]`` read as their text and link to
the anchor or page (``asciidoc_xrefs``);
reStructuredText's ``:doc:`intro``` links to ``intro.rst`` beside it and ``:ref:`label``` to a
label of the page, or (Sphinx's labels are global) to the label of another page found with it, as
a ``:doc:`` from the root (``/templates``) to that page: the pages' labels are read together,
before each is parsed (:func:`rst_targets`). Links inside code are not links. Read without them,
git's 1,614 ``linkgit:`` references were text only (task U6: 12 links resolved over 298 pages).

AsciiDoc's ``include::`` and conditionals, and reStructuredText's ``.. include::``, are applied as the file is
read, before it gets here (``clew.corpus.ingest.includes``): the text parsed is the page with its includes in place.

A ``.txt`` file is often one of the two (git's ``Documentation/*.txt`` is AsciiDoc, Python's old
``*.txt`` docs reStructuredText): :func:`parse_plain` reads it as AsciiDoc when it opens with an
AsciiDoc title (either form) over a section title of the next level, as reStructuredText when it
opens with an underlined title and holds an explicit markup line (``.. note::``, ``.. _target:``),
and as plain text otherwise (with the underlined or numbered section headings its lines show:
``text.parse_headed_text``).

reStructuredText code is a code block, kept whole: a code directive (``.. code-block:: bash``,
``.. code::``, ``.. sourcecode::``) with its indented body, and the literal block a paragraph
ending in ``::`` introduces (its indented lines). A hyperlink target line (``.. _install:``) is
not text. An object description with a body (``.. confval:: name``, ``.. py:function:: f(x)``, autodoc's
``.. autoclass:: C``) is a section named by its signature (its signature lines, one under the other, by
all of them), under the section it stands in, holding its indented body, as the HTML reader reads Sphinx's
API entries, its option and field lines as Sphinx shows them (``:type: int`` "Type: int", ``rst_roles``); one
without a body stays a line. A ``.. glossary::`` is its entries, each term (the terms of an entry one after the other,
a ``: key`` left out) a section holding its description, as object descriptions are.
A ``.. toctree::`` is its entries, a list item each,
linking to the page it names
(``intro`` to ``intro.rst``, ``Title <intro>`` too, a URL to it); the directive and its options
(``:maxdepth: 2``) are not text.

Tables (reStructuredText's grid, simple, ``list-table`` and ``csv-table``; AsciiDoc's ``|===``) are
written again as pipe rows before the page is read, a row a line (``lightmarkup_tables``): a
``table_header`` block for the header rows, a ``table_row`` block a row.

Admonitions are one paragraph block with their label, whatever they hold: a reStructuredText
directive (``.. note::``, ``.. warning::``, ``.. seealso::``, ...) with its indented body, and
an AsciiDoc admonition block (``[NOTE]`` over a ``====`` delimited block). AsciiDoc's
paragraph form (``NOTE: text``) already is one paragraph.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from typing import Literal

from clew.corpus.ingest.formats.asciidoc_xrefs import xref_href, xref_lines
from clew.corpus.ingest.formats.lightmarkup_tables import (
    ASCIIDOC_FENCE,
    RST_CODE,
    SourceTable,
    asciidoc_tables,
    indented_end,
    rst_tables,
)
from clew.corpus.ingest.formats.rst_roles import field_line, role_text, version_note
from clew.corpus.ingest.formats.text import line_span, line_starts, normalize_newlines, parse_headed_text, root_section
from clew.corpus.ingest.parsed import Block, BlockKind, Link, ParsedDocument, Section, Table

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+\s*$")
_ASCIIDOC_TITLE = re.compile(r"^(={1,6})\s+(\S(?:.*\S)?)\s*$")  # not "\S.*?\s*$": quadratic in a line's blanks
_RST_ADMONITION = re.compile(
    r"^(\s*)\.\.\s+(?:admonition|attention|caution|danger|error|hint|important|note|tip|warning|seealso)::", re.I)
_RST_OBJECT = re.compile(
    r"^(\s*)\.\.[ \t]+((?:py:|c:|cpp:|js:|rst:|std:)?(?:confval|attribute|function|method|class|exception|data|"
    r"decorator|staticmethod|classmethod|property|envvar|describe|object|member|macro|type|var|directive|role|"
    r"auto(?:class|function|method|attribute|exception|data|decorator|property)))::[ \t]+(\S.*?)\s*$")
"""An object description (Sphinx's ``.. confval:: name``, ``.. py:function:: f(x)``, autodoc's ``.. autoclass:: C``):
a section named by its signature, holding its indented body."""
_RST_TOCTREE = re.compile(r"^(\s*)\.\.\s+toctree::\s*$")
_RST_GLOSSARY = re.compile(r"^(\s*)\.\.\s+glossary::\s*$")
_GLOSSARY_KEY = re.compile(r"[ \t]+:[ \t]+\S.*$")
_RST_OPTION = re.compile(r"^:[\w-]+:(?:\s.*)?$")
_RST_TITLED = re.compile(r"^[^<>]*<([^<>]+)>$")
_RST_TARGET = re.compile(r"^\.\.\s+_[^:]*:\s*$")
_ASCIIDOC_ADMONITION = re.compile(r"^\[(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$")
_ASCIIDOC_EXAMPLE = re.compile(r"^={4,}\s*$")
_ASCIIDOC_UNDERLINE = re.compile(r"^([=~^+-])\1+\s*$")
_ASCIIDOC_LEVELS = "=-~^+"
_ASCIIDOC_ATTRIBUTES = re.compile(r"^(?:\[\[[^\]]*\]\]|\[[\w.#%,\"= -]*\]|:!?[\w-]+!?:(?:\s.*)?)\s*$")
"""A block anchor (``[[summary]]``), a block's attribute list (``[verse]``, ``[source,c]``) or an
attribute entry (``:sectanchors:``) on a line of its own, before a paragraph or a title: not text."""
_RST_EXPLICIT = re.compile(r"^\.\.\s+(?:[\w:-]+::|_[^:]*:)", re.M)
_ADOC_ANCHOR = re.compile(r"^\[(?:\[([\w:.-]+)(?:,[^\]]*)?\]|#([\w:.-]+)(?:[.%,][^\]]*)?)\][ \t]*$", re.M)
_ADOC_LINK = re.compile(r"linkgit:([\w.-]+)\[\d*\]|<<([\w:.-]+)(?:,[^>\n]*)?>>")
_RST_LABEL = re.compile(r"^\.\.[ \t]+_([^:`\n]+):[ \t]*$", re.M)
_RST_LINK = re.compile(r":doc:`(?:[^`<\n]*<)?([^`<>\n]+?)>?`|:ref:`(?:[^`<\n]*<)?([^`<>\n]+?)>?`")
_NEXT_TEXT = re.compile(r"\S")
_SNIFF_LINES = 40
"""How many of a ``.txt`` file's first lines :func:`parse_plain` looks at for its titles."""


class _Sections:
    """Blocks and sections of a source-text document, built in order."""

    def __init__(self, text: str, tables: list[SourceTable]) -> None:
        self.text = text
        self.starts = line_starts(text)
        self.blocks: list[Block] = []
        self.sections: list[Section] = [root_section()]
        self.tables: list[Table] = []
        self.table_at = {table.first: table for table in tables}
        """The tables written as pipe rows (``lightmarkup_tables``), by their first line."""
        self.open = [0]
        self.title: str | None = None

    def block(self, first: int, stop: int, kind: BlockKind, table: int | None = None) -> int | None:
        start, end = line_span(self.text, self.starts, first, stop)
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if kind != "code":
            while start < end and self.text[start].isspace():
                start += 1
        if start >= end:
            return None
        self.blocks.append(Block(start, end, kind, self.open[-1], table, indivisible=kind == "code"))
        return start

    def entry(self, name: str, line: int, body: int, stop: int) -> bool:
        """Open the section of an object description (``.. confval:: name``) whose lines are ``line`` to
        ``body``, its body to ``stop``, under the open section; False where it would be deeper than six levels."""
        parent = self.open[-1]
        level = self.sections[parent].level + 1
        if level > 6:
            return False
        section = Section(heading=" ".join(name.split()), level=level, parent=parent, start=0)
        self.sections.append(section)
        self.open.append(len(self.sections) - 1)
        start = self.block(line, body, "heading")
        section.start = start if start is not None else self.starts[line]
        section.end = self.starts[stop] - 1 if stop < len(self.starts) else len(self.text)
        return True

    def table(self, first: int) -> int | None:
        """The table whose rows start at line ``first``, a block a row (the last header row with the
        ``| --- |`` line after it): the line after it, None where no table starts there."""
        found = self.table_at.get(first)
        if found is None:
            return None
        self.tables.append(Table(section=self.open[-1], title=found.title))
        line = first
        for position in range(found.rows):
            header = position < found.header
            stop = line + (2 if position == found.header - 1 else 1)
            self.block(line, stop, "table_header" if header else "table_row", len(self.tables) - 1)
            line = stop
        return found.stop

    def heading(self, title: str, level: int, first: int, stop: int) -> None:
        while len(self.open) > 1 and self.sections[self.open[-1]].level >= level:
            self.open.pop()
        section = Section(heading=" ".join(title.split()), level=level, parent=self.open[-1], start=0)
        self.sections.append(section)
        self.open.append(len(self.sections) - 1)
        start = self.block(first, stop, "heading")
        section.start = start if start is not None else self.starts[first]
        if self.title is None:
            self.title = section.heading

    def document(self) -> ParsedDocument:
        self.sections[0].heading = self.title or ""
        return ParsedDocument(text=self.text, blocks=self.blocks, sections=self.sections, tables=self.tables,
                              title=self.title, fields={"title": self.title} if self.title else {})


def _blank(line: str) -> bool:
    return not line.strip()


def parse_rst(source: str, targets: Mapping[str, str] | None = None) -> ParsedDocument:
    """A reStructuredText page; ``targets``: the hrefs of what its roles name in other pages (:func:`rst_targets`)."""
    lines, tables = rst_tables(_entry_fields(normalize_newlines(source).split("\n")),
                               lambda line: role_text(version_note(line)))
    text = "\n".join(lines)
    doc = _Sections(text, tables)
    styles: list[tuple[str, bool]] = []
    run: int | None = None  # first line of the paragraph being read
    i = 0
    literal = False  # the last paragraph ended in "::": an indented block after it is code
    toc_links: list[Link] = []
    entries: list[int] = []  # the line after the body of each object description open around this line
    glossary: tuple[int, int] | None = None  # the open glossary's terms' indent and the line after it
    while i < len(lines):
        line = lines[i]
        if entries and i >= entries[-1]:  # an object description's body ends
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            entries.pop()
            doc.open.pop()
            continue
        opened = _RST_GLOSSARY.match(line) if not (literal and run is None) else None  # not one in a literal block
        if opened is not None:  # its options are not text; its terms are read below
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            stop = indented_end(lines, i + 1, len(opened.group(1)))
            first = next((j for j in range(i + 1, stop) if not _blank(lines[j])
                          and not _RST_OPTION.match(lines[j].strip())), stop)
            glossary = (len(lines[first]) - len(lines[first].lstrip()), stop) if first < stop else None
            i = first
            continue
        if (glossary is not None and i < glossary[1] and not _blank(line)
                and len(line) - len(line.lstrip()) == glossary[0]):  # a term: a section holding its description
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            last = i + 1
            while last < len(lines) and not _blank(lines[last]) and len(lines[last]) - len(lines[last].lstrip()) == \
                    glossary[0]:
                last += 1
            stop = indented_end(lines, last, glossary[0])
            terms = (_GLOSSARY_KEY.sub("", lines[j].strip()) for j in range(i, last))  # "term 1 : A": "term 1"
            if doc.entry(", ".join(terms), i, last, stop):
                entries.append(stop)
                i = last
                continue
        described = _RST_OBJECT.match(line)
        if described is not None:
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            names, last = [described.group(3)], i + 1  # signature lines of one description: one section
            while last < len(lines) and (more := _RST_OBJECT.match(lines[last])) is not None:
                if more.group(1) != described.group(1):
                    break
                names.append(more.group(3))
                last += 1
            stop = indented_end(lines, last, len(described.group(1)))
            if stop == last:  # no body: its line, as written
                doc.block(i, last, "paragraph")
                i = last
                continue
            if doc.entry(", ".join(names), i, last, stop):
                entries.append(stop)
                i = last
                continue
        if i in doc.table_at:
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            i = doc.table(i) or i + 1
            continue
        directive = _RST_ADMONITION.match(line) or RST_CODE.match(line)
        if directive is not None:  # the directive and its indented body: one block
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            stop = indented_end(lines, i + 1, len(directive.group(1)))
            doc.block(i, stop, "code" if RST_CODE.match(line) else "paragraph")
            i = stop
            continue
        toctree = _RST_TOCTREE.match(line)
        if toctree is not None:  # its entries, a list item each linking to its page; its options not text
            if run is not None:
                doc.block(run, i, "paragraph")
            run, literal = None, False
            stop = indented_end(lines, i + 1, len(toctree.group(1)))
            for entry in range(i + 1, stop):
                name = lines[entry].strip()
                if name and not _RST_OPTION.match(name):
                    start = doc.block(entry, entry + 1, "list_item")
                    href = _toctree_href(name)
                    if start is not None and href is not None:
                        toc_links.append(Link(start, href))
            i = stop
            continue
        if run is None and _RST_TARGET.match(line):
            literal = False
            i += 1
            continue
        if run is None and literal and not _blank(line) and line[0].isspace():
            stop = indented_end(lines, i, 0)
            doc.block(i, stop, "code")
            literal = False
            i = stop
            continue
        found = _rst_title(lines, i)
        if found is not None:
            first, stop, title, style = found
            if run is not None and run < first:
                doc.block(run, first, "paragraph")
            run = None
            if style not in styles:
                styles.append(style)
            doc.heading(title, min(6, styles.index(style) + 1), first, stop)
            i = stop
            continue
        if _blank(line):
            if run is not None:
                doc.block(run, i, "paragraph")
                literal = lines[i - 1].rstrip().endswith("::")
            run = None
        elif run is None:
            run, literal = i, False
        i += 1
    if run is not None:
        doc.block(run, len(lines), "paragraph")
    document = _wire(doc.document(), _RST_LABEL, _RST_LINK,
                     lambda found, anchors: _rst_href(found, anchors, targets or {}))
    if toc_links:
        document.links = sorted([*document.links, *toc_links], key=lambda link: link.start)
    return document


def _entry_fields(lines: list[str]) -> list[str]:
    """``lines`` with the option and field lines of each object description's body (``:type: int``, ``:param x:``,
    at the body's own indent) as Sphinx shows them (``rst_roles.field_line``)."""
    out = list(lines)
    for i, line in enumerate(lines):
        described = _RST_OBJECT.match(line) if ".. " in line else None
        if described is None:
            continue
        body = next((j for j in range(i + 1, len(lines)) if not _blank(lines[j])
                     and not _RST_OBJECT.match(lines[j])), len(lines))
        indent = len(lines[body]) - len(lines[body].lstrip()) if body < len(lines) else 0
        if indent <= len(described.group(1)):
            continue
        for j in range(body, indented_end(lines, body, len(described.group(1)))):
            if lines[j][:indent].isspace() and lines[j][indent:indent + 1] == ":":
                out[j] = field_line(lines[j])
    return out


def _toctree_href(entry: str) -> str | None:
    """Where a toctree entry (``intro``, ``Title <intro>``, a URL) leads: the page beside this one
    (``intro.rst``) or the URL; None for ``self``, a glob and a path from the root."""
    titled = _RST_TITLED.match(entry)
    target = titled.group(1) if titled else entry
    if "://" in target:
        return target
    if target == "self" or target.startswith("/") or any(ch in target for ch in "*?["):
        return None
    return target + ".rst"


def _rst_title(lines: list[str], i: int) -> tuple[int, int, str, tuple[str, bool]] | None:
    """A title starting at line ``i`` (its overline, or the title line): (first, stop, title, style)."""
    over = _ADORNMENT.match(lines[i])
    if over and i + 2 < len(lines) and not _blank(lines[i + 1]):
        under = _ADORNMENT.match(lines[i + 2])
        title = lines[i + 1].strip()
        if under and under.group(1) == over.group(1) and len(lines[i + 2].rstrip()) >= len(title):
            return i, i + 3, title, (over.group(1), True)
    if _blank(lines[i]) or over or i + 1 >= len(lines) or (i > 0 and not _blank(lines[i - 1])):
        return None
    under = _ADORNMENT.match(lines[i + 1])
    title = lines[i].strip()
    if under and len(lines[i + 1].rstrip()) >= len(lines[i].rstrip()) and len(lines[i + 1].strip()) >= 2:
        return i, i + 2, title, (under.group(1), False)
    return None


def parse_asciidoc(source: str, suffix: str = ".adoc", targets: Mapping[str, str] | None = None) -> ParsedDocument:
    """An AsciiDoc page; ``suffix``: its file's, which ``linkgit:`` names its siblings by; ``targets``: the hrefs
    of the pages its ``xref:`` references name (``asciidoc_xrefs.xref_targets``)."""
    lines, tables = asciidoc_tables(normalize_newlines(source).split("\n"))
    lines, refs = xref_lines(lines, targets)
    text = "\n".join(lines)
    doc = _Sections(text, tables)
    run: int | None = None
    fence: tuple[str, int] | None = None  # the open delimiter and its line
    admonition: tuple[str, int] | None = None  # an admonition block's delimiter and its [LABEL] line
    underline = -1  # the line under a two-line title, read with it
    table_end = 0  # the line after the table being read
    for i, line in enumerate(lines):
        if i == underline or i < table_end:
            continue
        if i in doc.table_at and fence is None and admonition is None:
            if run is not None:
                doc.block(run, i, "paragraph")
            run = None
            table_end = doc.table(i) or 0
            continue
        if admonition is not None:
            if line.strip() == admonition[0] and i > admonition[1] + 1:
                doc.block(admonition[1], i + 1, "paragraph")
                admonition = None
            continue
        if fence is not None:
            if line.strip() == fence[0]:
                doc.block(fence[1], i + 1, "code")
                fence = None
            continue
        if (run is None and _ASCIIDOC_ADMONITION.match(line) and i + 1 < len(lines)
                and _ASCIIDOC_EXAMPLE.match(lines[i + 1])):
            admonition = (lines[i + 1].strip(), i)
            continue
        if run is None and _ASCIIDOC_ATTRIBUTES.match(line):
            continue
        level = _asciidoc_two_line(lines, i) if run is None else None
        if level is not None:
            doc.heading(line, level, i, i + 2)
            underline = i + 1
            continue
        delimiter = ASCIIDOC_FENCE.match(line)
        title = _ASCIIDOC_TITLE.match(line) if run is None else None
        if delimiter or title or _blank(line):
            if run is not None:
                doc.block(run, i, "paragraph")
            run = None
        if delimiter:
            fence = (line.strip(), i)
        elif title:
            doc.heading(title.group(2), len(title.group(1)), i, i + 1)
        elif not _blank(line) and run is None:
            run = i
    if admonition is not None:
        doc.block(admonition[1], len(lines), "paragraph")
    elif fence is not None:
        doc.block(fence[1], len(lines), "code")
    elif run is not None:
        doc.block(run, len(lines), "paragraph")

    def href(found: re.Match[str], anchors: dict[str, int]) -> str | None:
        if found.group(1):
            return found.group(1) + suffix
        return "#" + found.group(2) if found.group(2) in anchors else None

    document = _wire(doc.document(), _ADOC_ANCHOR, _ADOC_LINK, href)
    xrefs = [Link(doc.starts[ref.line] + ref.column, found) for ref in refs
             if (found := xref_href(ref, document.anchors, targets or {})) is not None]
    if xrefs:
        document.links = sorted([*document.links, *xrefs], key=lambda link: link.start)
    return document


def _rst_href(found: re.Match[str], anchors: dict[str, int], targets: Mapping[str, str]) -> str | None:
    if found.group(1):  # :doc:
        name = found.group(1).strip()
        return targets.get(name) if name.startswith("/") else name + ".rst"
    label = " ".join(found.group(2).lower().split())
    return "#" + label if label in anchors else targets.get(label)


def rst_targets(texts: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """For each reStructuredText page of ``texts`` (a key -> its text: the pages found together), the
    hrefs, relative to it, of what its roles name in other pages: ``{label: "other.rst#label"}`` for a
    ``:ref:`` to a label another page defines (Sphinx's labels are global; the first page by key
    defining it), ``{"/intro": "../intro.rst"}`` for a ``:doc:`` from the root: the topmost folder
    above the page holding an ``index.rst`` (Sphinx's source folder), else the folder ingested."""
    labels: dict[str, str] = {}
    for key in sorted(texts):
        for found in _RST_LABEL.finditer(texts[key]):
            labels.setdefault(" ".join(found.group(1).lower().split()), key)
    indexes = {key.rsplit("/", 1)[0] if "/" in key else "" for key in texts if key.rsplit("/", 1)[-1] == "index.rst"}
    out: dict[str, dict[str, str]] = {}
    for key, text in texts.items():
        folder = posixpath.dirname(key)
        found_here: dict[str, str] = {}
        for found in _RST_LINK.finditer(text):
            if found.group(1) and found.group(1).strip().startswith("/"):
                name = found.group(1).strip()
                root = next((f for f in sorted(indexes, key=len) if not f or folder == f or folder.startswith(f + "/")),
                            "")
                found_here[name] = posixpath.relpath(posixpath.join(root, name.lstrip("/") + ".rst"), folder or ".")
            elif found.group(2):
                label = " ".join(found.group(2).lower().split())
                if labels.get(label, key) != key:
                    target = posixpath.relpath(labels[label], folder or ".")
                    found_here[label] = f"{target}#{label}"
        if found_here:
            out[key] = found_here
    return out


def _wire(document: ParsedDocument, anchor: re.Pattern[str], link: re.Pattern[str],
          href: Callable[[re.Match[str], dict[str, int]], str | None]) -> ParsedDocument:
    """``document`` with the anchors ``anchor`` defines (each at the text after it) and the links ``link``
    finds outside code (``href``: a match's target, None for none)."""
    text = document.text
    for found in anchor.finditer(text):
        after = _NEXT_TEXT.search(text, found.end())
        name = found.group(1) or found.group(2) if anchor is _ADOC_ANCHOR else " ".join(found.group(1).lower().split())
        document.anchors.setdefault(name, after.start() if after else found.start())
    code = [(b.start, b.end) for b in document.blocks if b.kind == "code"]
    for found in link.finditer(text):
        if any(start <= found.start() < end for start, end in code):
            continue
        target = href(found, document.anchors)
        if target:
            document.links.append(Link(start=found.start(), href=target))
    return document


def _asciidoc_two_line(lines: list[str], i: int) -> int | None:
    """The level of a two-line title at line ``i`` (after a blank line, an attribute line or the start), else None."""
    if i + 1 >= len(lines) or _blank(lines[i]) or (
            i > 0 and not _blank(lines[i - 1]) and not _ASCIIDOC_ATTRIBUTES.match(lines[i - 1])):
        return None
    under = _ASCIIDOC_UNDERLINE.match(lines[i + 1])
    title = lines[i].strip()
    if under is None or _ASCIIDOC_UNDERLINE.match(title) or not any(ch.isalnum() for ch in title):
        return None
    if abs(len(lines[i + 1].rstrip()) - len(lines[i].rstrip())) > 2:
        return None
    return _ASCIIDOC_LEVELS.index(under.group(1)) + 1


def rst_titled(source: str) -> bool:
    """Whether a reStructuredText ``source`` holds a section title (after a label or an include too: a page;
    the partial a page includes has none)."""
    lines = normalize_newlines(source).split("\n")
    return any(_rst_title(lines, i) is not None for i in range(len(lines)))


def plain_kind(source: str) -> Literal["asciidoc", "rst", "text"]:
    """What a ``.txt`` file is, by its opening (see the module's doc)."""
    text = normalize_newlines(source)
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines[:_SNIFF_LINES]) if not _blank(line)), None)
    if first is None:
        return "text"
    opening = _after_explicit(lines, first)
    if opening is not None and _rst_title(lines, opening) is not None and _RST_EXPLICIT.search(text) is not None:
        return "rst"
    top = _ASCIIDOC_TITLE.match(lines[first])
    two = _asciidoc_two_line(lines, first)
    if (top is not None and len(top.group(1)) == 1
            and any(line.startswith("== ") for line in lines[first + 1:])):
        return "asciidoc"
    if two == 1 and (any(line.startswith("== ") for line in lines[first + 2:])
                     or any(_asciidoc_two_line(lines, i) == 2 for i in range(first + 2, len(lines) - 1))):
        return "asciidoc"
    return "text"


def _after_explicit(lines: list[str], first: int) -> int | None:
    """The first line at or after ``first`` past the explicit markup blocks that open a page (docutils' own
    ``docs/user/*.txt`` open with ``.. include:: ../header.txt`` over their title), within the lines sniffed."""
    i = first
    while i < min(len(lines), _SNIFF_LINES) and (lines[i].startswith(".. ") or lines[i].rstrip() == ".."):
        i += 1
        while i < len(lines) and (_blank(lines[i]) or lines[i][:1] in (" ", "\t")):
            i += 1
    return i if i < len(lines) else None


def parse_plain(source: str, targets: Mapping[str, str] | None = None) -> ParsedDocument:
    """A ``.txt`` file: AsciiDoc, reStructuredText (with ``targets``, as :func:`parse_rst`) or plain text,
    by its opening (see the module's doc)."""
    kind = plain_kind(source)
    if kind == "rst":
        return parse_rst(source, targets)
    return parse_asciidoc(source, ".txt", targets) if kind == "asciidoc" else parse_headed_text(source)
