"""Turn one source into the rows of one document version (pure: no database access)."""

from __future__ import annotations

import hashlib
import json
import posixpath
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from clew.corpus.ingest.chunking import CHUNKER_REVISION, Chunk, chunk_document, content_start
from clew.corpus.ingest.doc_names import documentation_name
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.info import parse_info
from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc, parse_plain, parse_rst
from clew.corpus.ingest.formats.man import parse_man
from clew.corpus.ingest.formats.markdown import parse_markdown, parse_mdx
from clew.corpus.ingest.parsed import ParseBounds, ParsedDocument, pickled_by_fields
from clew.corpus.ingest.peek import read_name
from clew.corpus.prose import reads_as_prose
from clew.corpus.search.index import INDEX_REVISION, document_title, index_text


@dataclass(frozen=True, slots=True)
class ChunkingConfig:
    chunk_tokens: int
    merge_sections: bool

    def signature(self) -> str:
        return (f"chunker={CHUNKER_REVISION};index={INDEX_REVISION};tokens={self.chunk_tokens};"
                f"merge={int(self.merge_sections)}")


@pickled_by_fields
@dataclass(slots=True)
class NodeRow:
    ordinal: int
    parent: int | None
    kind: str
    heading: str | None
    level: int
    heading_path: list[str]
    start: int
    end: int
    first_chunk: int | None = None
    last_chunk: int | None = None


@dataclass(slots=True)
class PreparedDocument:
    key: str
    format: str
    source: str | None
    parsed: ParsedDocument
    chunks: list[Chunk]
    nodes: list[NodeRow]
    anchors: dict[str, int]
    """Fragment identifier -> chunk ordinal."""
    links: list[tuple[int, str]]
    """(chunk ordinal, target 'key' or 'key#anchor' resolved against this key), deduplicated."""
    content_hash: str
    chunking: str
    fields: dict[str, object] = field(default_factory=dict)
    named: str | None = None
    """The title made from the file's name (``name_title``) where the document gives none."""

    def index_texts(self) -> list[str]:
        """What BM25 sees of each chunk (``index_text``): its terms are counted for a whole batch at
        once by the writer (``count_terms_bulk``), not here, chunk by chunk. A title made from the
        file's name (``name_title``) leads the path as a title field would."""
        title = document_title(self.fields) or self.named
        text = self.parsed.text
        return [index_text(self.parsed.heading_path(c.sections[0]), c.header, text[c.start : c.end], title)
                for c in self.chunks]

    @property
    def title(self) -> str | None:
        title = self.fields.get("title")
        return title if isinstance(title, str) else self.parsed.title or self.named


NAMED_FORMATS = frozenset({"markdown", "mdx", "text", "rst", "asciidoc", "html", "pdf", "docx", "epub", "info"})
"""The formats whose files are titled by their name when they give no title (``name_title``): every format a file
is read as, a JSON Lines record not (its key is no file's). An HTML page with neither a ``<title>`` nor an ``h1``
(task S2: it was listed untitled where Markdown was named), a PDF or DOCX file with neither a metadata title nor a
heading (task S3) are titled so too."""
_NAME_SUFFIXES = (".md", ".markdown", ".mdown", ".mdx", ".txt", ".text", ".rst", ".adoc", ".asciidoc",
                  ".html", ".htm", ".xhtml", ".pdf", ".docx", ".epub", ".info")


def name_title(key: str) -> str | None:
    """A title from a file's name, as MkDocs titles a page without one: the name without its
    suffix, dashes and underscores as spaces, a lower-case name's first letter a capital
    ("getting-started.md" -> "Getting started"); a documentation file without a suffix (``NEWS``,
    ``doc_names.documentation_name``) by its name as written. None for a key without one of the suffixes of
    ``NAMED_FORMATS`` (a JSON Lines record's key, ``"42"``), and for an index page's name (``index.md``,
    ``README.md``, ``index.html``, ``README``), which names its folder's page: the folder's name then."""
    parts = [p for p in key.split("/") if p]
    name = read_name(parts[-1]) if parts else ""  # a gzip file by the name it holds: NEWS.txt.gz
    if documentation_name(name):  # NEWS, ChangeLog as named; a README its folder's, as README.md
        return parts[-2] if name.lower() == "readme" and len(parts) > 1 else name
    if not name.lower().endswith(_NAME_SUFFIXES):
        return None
    stem = name.rsplit(".", 1)[0]
    if stem.lower() in ("index", "readme", "_index") and len(parts) > 1:
        stem = parts[-2]
    words = " ".join(stem.replace("-", " ").replace("_", " ").split())
    return (words.capitalize() if words.islower() else words) or None


def parse_pdf(content: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """``formats.pdf.parse_pdf``, imported by the first PDF: its reader (pypdfium2, pdfplumber, the layout rules)
    and the DOCX reader's (below) are 45 ms of CPU a process that reads neither (``clew ingest`` of a Markdown
    folder, ``clew serve`` until an upload of one)."""
    from clew.corpus.ingest.formats.pdf import parse_pdf as read

    return read(content, bounds)


def parse_docx(content: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """``formats.docx.parse_docx``, imported by the first DOCX file (``parse_pdf``)."""
    from clew.corpus.ingest.formats.docx import parse_docx as read

    return read(content, bounds)


def parse_openapi(content: str) -> ParsedDocument:
    """``formats.openapi.parse_openapi``, imported by the first OpenAPI description (``parse_pdf``)."""
    from clew.corpus.ingest.formats.openapi import parse_openapi as read

    return read(content)


def parse_epub(content: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """``formats.epub.parse_epub``, imported by the first EPUB file (``parse_pdf``)."""
    from clew.corpus.ingest.formats.epub import parse_epub as read

    return read(content, bounds)


PARSERS: dict[str, Callable[[Any], ParsedDocument]] = {
    "markdown": parse_markdown, "html": parse_html, "text": parse_plain, "pdf": parse_pdf, "docx": parse_docx,
    "epub": parse_epub, "rst": parse_rst, "asciidoc": parse_asciidoc, "mdx": parse_mdx, "info": parse_info,
    "man": parse_man, "openapi": parse_openapi,
}


def parse(fmt: str, content: str | bytes, bounds: ParseBounds | None = None,
          targets: dict[str, str] | None = None) -> ParsedDocument:
    """Parse one source (bytes for PDF, DOCX and EPUB, parsed within ``bounds``: by default ``ParseBounds()``);
    raises ``UnreadableDocument`` for a file that cannot be read. ``targets``: what a reStructuredText
    page's roles name in other pages (``lightmarkup.rst_targets``), an AsciiDoc page's ``xref:`` references
    (``asciidoc_xrefs.xref_targets``), a man page's and an Info manual's references (``man.man_targets``,
    ``info.info_targets``), a Markdown page's wikilinks (``markdown_wikilinks.wikilink_targets``)."""
    if fmt == "man":
        return parse_man(content, targets)  # type: ignore[arg-type]
    if fmt == "info":
        return parse_info(content, targets)  # type: ignore[arg-type]
    if targets and fmt in ("rst", "text", "asciidoc"):
        if fmt == "asciidoc":
            return parse_asciidoc(content, targets=targets)  # type: ignore[arg-type]
        return (parse_rst if fmt == "rst" else parse_plain)(content, targets)  # type: ignore[arg-type]
    if targets and fmt == "markdown":  # what its wikilinks name (markdown_wikilinks.wikilink_targets)
        return parse_markdown(content, targets=targets)  # type: ignore[arg-type]
    if fmt == "pdf":
        return parse_pdf(content, bounds)  # type: ignore[arg-type]
    if fmt == "docx":
        return parse_docx(content, bounds)  # type: ignore[arg-type]
    if fmt == "epub":
        return parse_epub(content, bounds)  # type: ignore[arg-type]
    return PARSERS[fmt](content)


def prepare(
    key: str, fmt: str, parsed: ParsedDocument, config: ChunkingConfig, *, source: str | None = None,
    chunks: list[Chunk] | None = None,
) -> PreparedDocument:
    """One document's rows; ``chunks``: its ``chunk_document`` under ``config`` when already cut (by
    ``chunk_documents``, with other documents)."""
    if chunks is None:
        chunks = chunk_document(parsed, chunk_tokens=config.chunk_tokens, merge_sections=config.merge_sections)
    starts = [c.start for c in chunks]

    def chunk_at(offset: int) -> int:
        return max(bisect_right(starts, offset) - 1, 0)

    fields = dict(parsed.fields)
    untitled = fmt in NAMED_FORMATS and not parsed.title and not document_title(fields)
    named = name_title(key) if untitled else None
    fields_json = json.dumps(fields, sort_keys=True, default=str)
    links: list[tuple[int, str]] = []
    seen: set[tuple[int, str]] = set()
    for link in parsed.links:
        target = resolve_href(key, link.href)
        if target is None:
            continue
        item = (chunk_at(link.start), target)
        if item not in seen:
            seen.add(item)
            links.append(item)
    nodes = _nodes(parsed, chunks, named)
    anchors = _anchors(parsed, chunks, chunk_at)
    # the hash covers what is stored of the document, its structure too: a reader that now finds a heading, a
    # table or a link in the same text makes a new version on the next ingest (a re-ingest after an upgrade
    # picks the better reading up; the same reading twice is unchanged)
    shape = repr(([(c.start, c.end, c.kind, c.sections, c.table, c.header) for c in chunks],
                  [(n.parent, n.kind, n.heading, n.level, n.start, n.end) for n in nodes],
                  sorted(anchors.items()), links, parsed.title, named))
    digest = hashlib.sha256()
    for part in (fmt, config.signature(), fields_json, parsed.text, shape):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return PreparedDocument(
        key=key,
        format=fmt,
        source=source,
        parsed=parsed,
        chunks=chunks,
        nodes=nodes,
        anchors=anchors,
        links=links,
        content_hash=digest.hexdigest(),
        chunking=config.signature(),
        fields=fields,
        named=named,
    )


LEAD = ""
"""The anchor a link without a ``#fragment`` lands on: the document's first passage that reads as
prose (``clew.corpus.prose.reads_as_prose``), where a reader starts the page: past its
contents, a synopsis of commands or a bare heading. A document with none keeps its first."""


def _anchors(parsed: ParsedDocument, chunks: list[Chunk], chunk_at: Callable[[int], int]) -> dict[str, int]:
    anchors = {anchor: chunk_at(content_start(parsed.text, offset)) for anchor, offset in parsed.anchors.items()}
    lead = next((i for i, c in enumerate(chunks) if reads_as_prose(parsed.text[c.start : c.end])), None)
    if lead is not None:
        anchors.setdefault(LEAD, lead)
    return anchors


def resolve_href(key: str, href: str) -> str | None:
    """A link target as ``key`` or ``key#anchor`` relative to the linking key.

    External URLs are kept as written (they stay dangling), and so is an href that is no URL at
    all (``http://HOST[:PORT]/``, a placeholder whose brackets read as a broken IPv6 address): one
    such link never costs its document. Empty links give None.
    """
    href = href.strip()
    if not href:
        return None
    try:
        parts = urlsplit(href)
    except ValueError:
        return href
    if parts.scheme or parts.netloc:
        return href
    path, fragment = unquote(parts.path), unquote(parts.fragment)
    if path:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(key), path))
    else:
        path = key
    return f"{path}#{fragment}" if fragment else path


def _nodes(parsed: ParsedDocument, chunks: list[Chunk], named: str | None) -> list[NodeRow]:
    text_end = len(parsed.text)
    sections = parsed.sections
    nodes: list[NodeRow] = []
    # A section ends where the next section of the same or a higher level begins.
    ends = [text_end] * len(sections)
    stack: list[int] = []
    for i, section in enumerate(sections[1:], start=1):
        while stack and sections[stack[-1]].level >= section.level:
            ends[stack.pop()] = section.start
        stack.append(i)
    for i, section in enumerate(sections):
        if section.end is not None:
            ends[i] = section.end
    for i, section in enumerate(sections):
        kind = "document" if i == 0 else "section"
        heading = (parsed.title or section.heading or named or None) if i == 0 else section.heading
        nodes.append(
            NodeRow(i, section.parent, kind, heading, section.level, parsed.heading_path(i), section.start, ends[i])
        )
    base = len(sections)
    for j, table in enumerate(parsed.tables):
        nodes.append(
            NodeRow(base + j, table.section, "table", table.title, sections[table.section].level + 1,
                    parsed.heading_path(table.section), text_end, 0)
        )
    starts = [c.start for c in chunks]
    for node in nodes[:base]:
        node.first_chunk = max(bisect_right(starts, node.start) - 1, 0) if chunks else None
        node.last_chunk = max(bisect_right(starts, max(node.end - 1, node.start)) - 1, 0) if chunks else None
    for ordinal, chunk in enumerate(chunks):
        if chunk.table is None:
            continue
        node = nodes[base + chunk.table]
        if node.first_chunk is None:
            node.first_chunk, node.start = ordinal, chunk.start
        node.last_chunk, node.end = ordinal, chunk.end
    for node in nodes[base:]:
        if node.first_chunk is None:  # a table without rows: an empty span at its section
            node.start = node.end = nodes[node.parent or 0].start
    return nodes


def node_of(chunk: Chunk, table_base: int) -> int:
    """The innermost structure node holding ``chunk``: its table, else its first section."""
    return table_base + chunk.table if chunk.table is not None else chunk.sections[0]
