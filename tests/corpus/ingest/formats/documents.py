"""What the format tests read off a parsed document."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.parsed import ParsedDocument

HTML_FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "html"


def load_html(name: str) -> ParsedDocument:
    """An HTML fixture of tests/fixtures/html, parsed and checked against the document invariants."""
    document = parse_html((HTML_FIXTURES / name).read_text(encoding="utf-8"))
    document.check()
    return document


def block_texts(document: ParsedDocument, kind: str | None = None) -> list[str]:
    """The text of each block (of one ``kind``), in order."""
    return [document.text[b.start : b.end] for b in document.blocks if kind is None or b.kind == kind]


def outline(document: ParsedDocument) -> list[tuple[str, int, int | None]]:
    """Each section's heading, level and parent."""
    return [(s.heading, s.level, s.parent) for s in document.sections]
