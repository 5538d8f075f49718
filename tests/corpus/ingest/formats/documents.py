"""What the format tests read off a parsed document."""

from __future__ import annotations

from clew.corpus.ingest.parsed import ParsedDocument


def block_texts(document: ParsedDocument, kind: str | None = None) -> list[str]:
    """The text of each block (of one ``kind``), in order."""
    return [document.text[b.start : b.end] for b in document.blocks if kind is None or b.kind == kind]


def outline(document: ParsedDocument) -> list[tuple[str, int, int | None]]:
    """Each section's heading, level and parent."""
    return [(s.heading, s.level, s.parent) for s in document.sections]
