"""EPUB (EPUB 2 and 3 books: Sphinx's ``epub`` builder, pandoc, Asciidoctor EPUB3, Calibre): one document a book.

- An ``.epub`` is a zip (the standard library's ``zipfile``): ``META-INF/container.xml`` names the OPF package,
  whose spine gives the reading order of its XHTML files and whose metadata (``dc:title``) the book's title.
- Each XHTML file of the spine is read by the HTML reader (``parse_html``: its tables, code, admonitions and
  chrome rules), in spine order, into one document: its headings are the book's sections. A file whose text
  starts before its first heading (a pandoc title page, a chapter without a heading) is headed by its title in
  the book's contents (EPUB 3 ``nav``, EPUB 2 ``toc.ncx``), else by its ``<title>``, else by its file's name.
  The contents document itself is not read (it repeats the headings), nor a spine file that is the contents
  written as a page (EPUB 2, ``_contents_page``: its headings, or each of its entries, link to other files).
- Links between the book's files are resolved inside the book: ``ch2.xhtml#usage`` becomes ``#usage``, an
  anchor of this document. A file's start is the anchor named by its path in the package (``text/ch2.xhtml``);
  an ``id`` already taken by an earlier file is renamed ``<that path>#<id>`` (Sphinx repeats section ids from
  page to page). Links to the book's images and styles are left out; links out of the book are kept.
- Caps (``ParseBounds``): files that unzip to more than ``expanded_bytes`` in all (a zip bomb), a parse that
  outlasts ``seconds``. A book whose spine files are encrypted (``META-INF/encryption.xml``: DRM) is skipped
  with that reason; one whose encryption covers only fonts (IDPF font obfuscation) is read. A file that is not
  a zip, or has no package, raises :class:`UnreadableDocument` with the reason.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_charset import declared_charset
from clew.corpus.ingest.parsed import (
    Block,
    Deadline,
    Link,
    ParseBounds,
    ParsedDocument,
    Section,
    Table,
    UnreadableDocument,
)

_CONTAINER = "META-INF/container.xml"
_ENCRYPTION = "META-INF/encryption.xml"
_XHTML_TYPES = frozenset({"application/xhtml+xml", "text/html"})
_MARKER = re.compile(r"\s*(?:[-*+]|\d+[.)])?\s*")
"""A list item's marker as the HTML reader writes it ("- ", "  2. "): a contents entry opens with its link."""


@dataclass(frozen=True, slots=True)
class _Chapter:
    path: str
    """Its path in the zip."""
    name: str
    """Its path in the package (relative to the OPF file): the anchor of its start."""
    parsed: ParsedDocument


def parse_epub(data: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """Read a book's spine, in order, into one document (see the module's description)."""
    bounds = bounds or ParseBounds()
    deadline = bounds.deadline()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise UnreadableDocument(f"not a readable EPUB file (not a zip: {error})") from error
    with archive:
        bounds.check_unzipped(archive, "files")
        try:
            return _read_book(archive, deadline)
        # LookupError: an XML file that declares an encoding Python does not know (encoding="bogus")
        except (zipfile.BadZipFile, ElementTree.ParseError, EOFError, OSError, ValueError, LookupError) as error:
            raise UnreadableDocument(f"not a readable EPUB file ({type(error).__name__}: {error})") from error


def _read_book(archive: zipfile.ZipFile, deadline: Deadline) -> ParsedDocument:
    names = set(archive.namelist())
    if _CONTAINER not in names:
        raise UnreadableDocument(f"not a readable EPUB file (no {_CONTAINER})")
    container = ElementTree.fromstring(archive.read(_CONTAINER))
    rootfile = next((e.get("full-path") for e in container.iter() if _local(e.tag) == "rootfile"), None)
    if not rootfile or rootfile not in names:
        raise UnreadableDocument(f"not a readable EPUB file (its package {rootfile or '(none named)'} is missing)")
    package = ElementTree.fromstring(archive.read(rootfile))
    base = posixpath.dirname(rootfile)
    manifest: dict[str, tuple[str, str, str]] = {}  # id -> (path in the zip, media type, properties)
    for item in package.iter():
        if _local(item.tag) == "item" and item.get("id") and item.get("href"):
            path = posixpath.normpath(posixpath.join(base, unquote(item.get("href", ""))))
            manifest[item.get("id", "")] = (path, item.get("media-type", ""), item.get("properties", ""))
    spine_element = next((e for e in package.iter() if _local(e.tag) == "spine"), None)
    spine = [manifest[ref.get("idref", "")] for ref in (spine_element if spine_element is not None else [])
             if _local(ref.tag) == "itemref" and ref.get("idref", "") in manifest]
    spine = [(path, kind, props) for path, kind, props in spine if kind in _XHTML_TYPES and path in names]
    if not spine:
        raise UnreadableDocument("not a readable EPUB file (its spine names no XHTML file)")
    encrypted = _encrypted(archive, names)
    if locked := [path for path, _, _ in spine if path in encrypted]:
        raise UnreadableDocument(f"encrypted (DRM: {_ENCRYPTION} covers {len(locked)} of its {len(spine)} "
                                 f"chapters, {locked[0]} first): not ingested")
    navs = [path for path, _, props in manifest.values() if "nav" in props.split()]
    ncx = spine_element.get("toc") if spine_element is not None else None
    if ncx in manifest:
        navs.append(manifest[ncx][0])
    titles = _contents_titles(archive, [n for n in navs if n in names])
    chapters: list[_Chapter] = []
    for number, (path, _, props) in enumerate(spine, start=1):
        deadline.check(f"spine file {number} ({path})")
        if "nav" in props.split():
            continue  # the book's contents: the headings again
        raw = archive.read(path)
        utf16 = raw.startswith((b"\xff\xfe", b"\xfe\xff"))  # EPUB allows UTF-16 XHTML, marked by its BOM
        codec = "utf-16" if utf16 else declared_charset(raw) or "utf-8"
        text = raw.decode(codec, errors="replace").removeprefix("\ufeff")
        name = posixpath.relpath(path, base) if base else path
        parsed = parse_html(text)
        if not _contents_page(parsed, path, {p for p, _, _ in spine}):
            chapters.append(_Chapter(path, name, parsed))
    title = next((e.text.strip() for e in package.iter() if _local(e.tag) == "title" and e.text and e.text.strip()),
                 None)
    return _Book(chapters, titles, title).document()


def _local(tag: str | object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _contents_page(parsed: ParsedDocument, path: str, spine: set[str]) -> bool:
    """Whether a spine file is the book's contents written as a page of its own (EPUB 2 has no ``nav``): three or more
    of its headings, and at least half, link to other files of the spine (SiSU's ``index.xhtml``: ``h4.toc > a``), or
    each of its other blocks, two or more, opens with such a link after its list marker (pandoc's EPUB 2
    ``nav.xhtml``, a Sphinx master page that is a toctree alone; one with a paragraph of its own is read)."""
    others = spine - {path}
    starts = []
    for link in parsed.links:
        parts = urlsplit(link.href)
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), unquote(parts.path)))
        if parts.path and not parts.scheme and not parts.netloc and target in others:
            starts.append(link.start)
    headings = [b for b in parsed.blocks if b.kind == "heading"]
    linked = sum(any(b.start <= at < b.end for at in starts) for b in headings)
    if linked >= 3 and linked * 2 >= len(headings):
        return True
    entries = [b for b in parsed.blocks if b.kind != "heading"]
    opening = set(starts)
    return len(entries) >= 2 and all(_after_marker(parsed.text, b) in opening for b in entries)


def _after_marker(text: str, block: Block) -> int:
    marker = _MARKER.match(text, block.start, block.end)
    return marker.end() if marker else block.start


def _encrypted(archive: zipfile.ZipFile, names: set[str]) -> set[str]:
    """The zip paths ``META-INF/encryption.xml`` says are encrypted (none without one)."""
    if _ENCRYPTION not in names:
        return set()
    root = ElementTree.fromstring(archive.read(_ENCRYPTION))
    return {posixpath.normpath(unquote(e.get("URI", ""))) for e in root.iter() if _local(e.tag) == "CipherReference"}


def _contents_titles(archive: zipfile.ZipFile, navs: list[str]) -> dict[str, str]:
    """Each file's title in the book's contents (EPUB 3 nav's links, EPUB 2 NCX's navPoints): zip path ->
    the title of the first entry that points at it. Contents that are not well-formed XML (or declare an
    encoding Python does not know) give none."""
    titles: dict[str, str] = {}
    for nav in navs:
        try:
            root = ElementTree.fromstring(archive.read(nav))
        except (ElementTree.ParseError, LookupError):  # LookupError: an encoding Python does not know
            continue
        base = posixpath.dirname(nav)
        for element in root.iter():
            tag = _local(element.tag)
            if tag == "a" and element.get("href"):
                href, label = element.get("href", ""), " ".join("".join(element.itertext()).split())
            elif tag == "navPoint":
                content = next((e for e in element if _local(e.tag) == "content"), None)
                text = next((e for e in element.iter() if _local(e.tag) == "text"), None)
                href = content.get("src", "") if content is not None else ""
                label = " ".join("".join(text.itertext()).split()) if text is not None else ""
            else:
                continue
            parts = urlsplit(href)
            if label and parts.path and not parts.scheme:
                titles.setdefault(posixpath.normpath(posixpath.join(base, unquote(parts.path))), label)
    return titles


class _Book:
    """Chapters joined into one document: offsets, sections, tables, anchors and links renumbered."""

    def __init__(self, chapters: list[_Chapter], titles: dict[str, str], title: str | None) -> None:
        self.chapters = chapters
        self.titles = titles
        self.title = title
        self.paths = {c.path: c for c in chapters}
        self.anchor_names: dict[tuple[str, str], str] = {}  # (zip path, id or "") -> this document's anchor
        taken: set[str] = set()
        for chapter in chapters:
            self.anchor_names[(chapter.path, "")] = chapter.name
            taken.add(chapter.name)
        for chapter in chapters:
            for anchor in chapter.parsed.anchors:
                name = anchor if anchor not in taken else f"{chapter.name}#{anchor}"
                taken.add(name)
                self.anchor_names[(chapter.path, anchor)] = name

    def document(self) -> ParsedDocument:
        pieces: list[str] = []
        offset = 0
        sections = [Section(heading="", level=0, parent=None, start=0)]
        blocks: list[Block] = []
        tables: list[Table] = []
        links: list[Link] = []
        anchors: dict[str, int] = {}
        notes: list[str] = []
        repairs: list[str] = []
        for chapter in self.chapters:
            parsed = chapter.parsed
            if not parsed.blocks:
                anchors[chapter.name] = offset
                continue
            if pieces:
                pieces.append("\n\n")
                offset += 2
            anchors[chapter.name] = offset
            lead = 0  # the section this file's text before its first heading belongs to
            if any(b.section == 0 for b in parsed.blocks):
                heading = (self.titles.get(chapter.path) or parsed.title
                           or posixpath.splitext(posixpath.basename(chapter.path))[0])
                heading = " ".join(heading.split())
                lead = len(sections)
                sections.append(Section(heading=heading, level=1, parent=0, start=offset))
                line = "# " + heading  # as the HTML reader writes an h1
                blocks.append(Block(offset, offset + len(line), "heading", lead))
                pieces.append(line + "\n\n")
                offset += len(line) + 2
            first = len(sections)
            mapped = [lead] + [first + i for i in range(len(parsed.sections) - 1)]
            for section in parsed.sections[1:]:
                parent = mapped[section.parent] if section.parent is not None else 0
                level = section.level if parent == 0 or sections[parent].level < section.level else (
                    sections[parent].level + 1)
                sections.append(Section(
                    heading=section.heading, level=level, parent=parent, start=section.start + offset,
                    anchors=[self.anchor_names[(chapter.path, a)] for a in section.anchors
                             if (chapter.path, a) in self.anchor_names],
                    end=None if section.end is None else section.end + offset))
            table_base = len(tables)
            tables.extend(Table(mapped[t.section], t.title) for t in parsed.tables)
            blocks.extend(Block(b.start + offset, b.end + offset, b.kind, mapped[b.section],
                                None if b.table is None else b.table + table_base, b.indivisible)
                          for b in parsed.blocks)
            for anchor, at in parsed.anchors.items():
                anchors.setdefault(self.anchor_names[(chapter.path, anchor)], at + offset)
            links.extend(Link(link.start + offset, href) for link in parsed.links
                         if (href := self._href(chapter, link.href)) is not None)
            notes.extend(f"{chapter.name}: {w}" for w in parsed.warnings)
            repairs.extend(f"{chapter.name}: {r}" for r in parsed.repairs)
            pieces.append(parsed.text)
            offset += len(parsed.text)
        return ParsedDocument(text="".join(pieces), blocks=blocks, sections=sections, tables=tables, links=links,
                              anchors=anchors, title=self.title, warnings=notes, repairs=repairs)

    def _href(self, chapter: _Chapter, href: str) -> str | None:
        """A link as this document reads it: ``#anchor`` into the book, as written out of it, None for a link to
        one of the book's files that is no chapter (an image, a style sheet)."""
        try:
            parts = urlsplit(href.strip())
        except ValueError:
            return href
        if parts.scheme or parts.netloc:
            return href
        path = chapter.path
        if parts.path:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(chapter.path), unquote(parts.path)))
        if path not in self.paths:
            return None if parts.path else href
        fragment = unquote(parts.fragment)
        return "#" + self.anchor_names.get((path, fragment), self.anchor_names[(path, "")])
