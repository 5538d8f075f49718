"""The shape every format parser produces, and the chunker consumes.

A parser turns raw bytes of one format into a :class:`ParsedDocument`: one normalised
``text`` plus the structure found in it, as half-open ``[start, end)`` character spans into
that text. Parsers never chunk and never count tokens; the chunker never looks at markup.

Invariants every parser keeps (``ParsedDocument.check`` verifies them):

- ``blocks`` are in reading order, do not overlap, and lie inside ``text``;
- ``sections[0]`` is the document root (level 0, no parent); every other section has a
  parent with a lower level, and appears after it;
- a block's ``section`` is the innermost section it sits in; a heading block belongs to the
  section it opens;
- table rows of one table are consecutive blocks, header rows first.
"""

from __future__ import annotations

import time
import zipfile
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Literal, TypeVar

T = TypeVar("T")


def pickled_by_fields(cls: type[T]) -> type[T]:
    """Pickle ``cls``, a slots dataclass, as its constructor's arguments.

    Parsing workers send every prepared document, with its blocks, sections, chunks and nodes, to
    the ingesting process; a slots dataclass's own pickling runs a Python function per object on
    either side, a tenth of the time the parent spent unpickling (docs/measurements/ingest-2026-12-04.md).
    """
    fields = attrgetter(*cls.__slots__)  # type: ignore[attr-defined]
    single = len(cls.__slots__) == 1  # type: ignore[attr-defined]

    def reduce(self: T) -> tuple[type[T], tuple[object, ...]]:
        values = fields(self)
        return cls, (values,) if single else values

    cls.__reduce__ = reduce  # type: ignore[assignment,method-assign]
    return cls


BlockKind = Literal["heading", "paragraph", "list_item", "code", "table_header", "table_row"]


@pickled_by_fields
@dataclass(slots=True)
class Block:
    """One unit the chunker may cut between (a paragraph, list item, table row, ...)."""

    start: int
    end: int
    kind: BlockKind
    section: int
    """Index into ``ParsedDocument.sections`` of the innermost section holding the block."""
    table: int | None = None
    """Index into ``ParsedDocument.tables`` for ``table_header`` / ``table_row`` blocks."""
    indivisible: bool = False
    """True for units that must never be split (fenced code, preformatted text)."""


@pickled_by_fields
@dataclass(slots=True)
class Section:
    heading: str
    level: int
    parent: int | None
    start: int
    """Offset of the heading (0 for the root)."""
    anchors: list[str] = field(default_factory=list)
    """Fragment identifiers (`#anchor`) that name this section."""
    end: int | None = None
    """Where it ends, when the parser knows (a definition-list term ends with its list); else at
    the next section of the same or a higher level."""


@pickled_by_fields
@dataclass(slots=True)
class Table:
    section: int
    title: str | None = None
    """Its title where the source gives one (an HTML ``caption``, DocBook's ``Table 3.1. ...``): the
    table's heading in the outline (its passages repeat it as their first header row)."""


@pickled_by_fields
@dataclass(slots=True)
class Link:
    start: int
    """Offset in ``text`` where the link's text begins."""
    href: str
    """The raw target as written in the source (relative path, ``#anchor``, URL)."""


class UnreadableDocument(Exception):
    """A file the parser cannot read at all (encrypted, broken, past a ``ParseBounds``); the message says why."""


MAX_PARSE_SECONDS = 120.0
MAX_PAGE_OBJECTS = 50_000
MAX_EXPANDED_MIB = 512


@dataclass(frozen=True, slots=True)
class ParseBounds:
    """What parsing one PDF or DOCX file may cost; past a bound the file is skipped with the reason
    (``UnreadableDocument``) and the other files of the ingest are stored."""

    seconds: float = MAX_PARSE_SECONDS
    """Wall-clock seconds to parse one file: checked between pages, lines, drawn paths and paragraphs,
    and held inside one parser call by ending the worker process the file is parsed in
    (``clew.corpus.ingest.parse_process``)."""
    page_objects: int = MAX_PAGE_OBJECTS
    """Objects (text runs, paths, images) on one PDF page: a page of a manual holds a few thousand;
    100,000 text objects on one page is a file built to stall a parser."""
    expanded_bytes: int = MAX_EXPANDED_MIB * 1024 * 1024
    """Bytes of a DOCX or EPUB file's parts once unzipped (a zip bomb expands a few hundred KB to GBs)."""

    def deadline(self) -> Deadline:
        return Deadline(self.seconds)

    def check_unzipped(self, archive: zipfile.ZipFile, parts: str) -> None:
        """Refuse a zip (a DOCX's parts, an EPUB's files) whose directory says it unzips to more than
        ``expanded_bytes``, before any of it is unzipped (zipfile stops a member past its stated size)."""
        expanded = sum(info.file_size for info in archive.infolist())
        if expanded > self.expanded_bytes:
            raise UnreadableDocument(f"its {parts} unzip to {expanded:,} bytes, over the {self.expanded_bytes:,}-byte "
                                     "limit: not ingested (a zip bomb?); raise the limit (--max-zip-expanded-mib)")


class Deadline:
    """The time one file's parse may take, from now; ``check`` raises once it is spent."""

    __slots__ = ("seconds", "ends")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def check(self, where: str) -> None:
        if time.monotonic() > self.ends:
            raise UnreadableDocument(f"parsing took longer than the {self.seconds:g} s limit (stopped at {where}): "
                                     "not ingested; raise the limit (--max-parse-seconds)")


@dataclass(slots=True)
class ParsedDocument:
    text: str
    blocks: list[Block]
    sections: list[Section]
    tables: list[Table] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    anchors: dict[str, int] = field(default_factory=dict)
    """Every fragment identifier in the document mapped to the text offset it marks."""
    title: str | None = None
    fields: dict[str, object] = field(default_factory=dict)
    """Top-level fields (title, status, acl, ...) stored with the document version."""
    pages: list[int] = field(default_factory=list)
    """Offset in ``text`` where each page begins (page 1 first); empty for formats without pages."""
    warnings: list[str] = field(default_factory=list)
    """What the parser could not take but the document survives (a scanned page without text)."""
    repairs: list[str] = field(default_factory=list)
    """What the parser changed to read the document (HTML nested too deep, flattened); nothing is lost."""

    def heading_path(self, section: int) -> list[str]:
        """Headings from the outermost section down to ``section`` (the root excluded)."""
        path: list[str] = []
        index: int | None = section
        while index is not None and index != 0:
            node = self.sections[index]
            path.append(node.heading)
            index = node.parent
        path.reverse()
        return path

    def check(self) -> None:
        """Raise ``ValueError`` naming the first broken invariant (used by parser tests)."""
        if not self.sections or self.sections[0].parent is not None or self.sections[0].level != 0:
            raise ValueError("sections[0] must be the document root (level 0, no parent)")
        for i, section in enumerate(self.sections[1:], start=1):
            parent = section.parent
            if parent is None or parent >= i or self.sections[parent].level >= section.level:
                raise ValueError(f"section {i} ({section.heading!r}) has a bad parent {parent}")
        previous_end = 0
        for i, block in enumerate(self.blocks):
            if not (previous_end <= block.start < block.end <= len(self.text)):
                raise ValueError(f"block {i} span [{block.start}, {block.end}) is out of order")
            if not 0 <= block.section < len(self.sections):
                raise ValueError(f"block {i} names a missing section {block.section}")
            if (block.table is None) != (block.kind not in ("table_header", "table_row")):
                raise ValueError(f"block {i} of kind {block.kind} has table={block.table}")
            previous_end = block.end
