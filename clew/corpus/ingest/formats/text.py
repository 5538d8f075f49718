"""Plain text: paragraphs separated by blank lines, no headings, no title.

Also home to the small line helpers the other text-based parsers share (newline
normalisation, line offsets, trimming a span to its non-whitespace characters).
"""

from __future__ import annotations

import re

from clew.corpus.ingest.parsed import Block, ParsedDocument, Section

_NEWLINE = re.compile(r"\r\n?")


def normalize_newlines(source: str) -> str:
    """``source`` with every ``"\\r\\n"`` and lone ``"\\r"`` turned into ``"\\n"``; nothing else changes."""
    return _NEWLINE.sub("\n", source)


def line_starts(text: str) -> list[int]:
    """Offset of the first character of every line; lines end at ``"\\n"`` only.

    A text ending in ``"\\n"`` has a last, empty line starting at ``len(text)``.
    """
    return [0, *(match.end() for match in re.finditer("\n", text))]


def line_span(text: str, starts: list[int], first: int, stop: int) -> tuple[int, int]:
    """The span of lines ``[first, stop)``, without the newline that ends the last one."""
    first = min(first, len(starts) - 1)
    end = starts[stop] - 1 if stop < len(starts) else len(text)
    return starts[first], max(end, starts[first])


def trim_span(text: str, start: int, end: int, *, left: bool = True) -> tuple[int, int]:
    """Shrink ``[start, end)`` past whitespace at its end (and at its start when ``left``).

    A span of whitespace only comes back empty (``start == end``).
    """
    while end > start and text[end - 1].isspace():
        end -= 1
    while left and start < end and text[start].isspace():
        start += 1
    return start, end


def root_section(title: str | None = None) -> Section:
    """``sections[0]`` of every parsed document."""
    return Section(heading=title or "", level=0, parent=None, start=0)


def parse_text(source: str) -> ParsedDocument:
    """One ``paragraph`` block per run of non-blank lines; the root is the only section."""
    text = normalize_newlines(source)
    starts = line_starts(text)
    runs: list[tuple[int, int]] = []  # [first, stop) line ranges of the paragraphs
    first: int | None = None
    for index in range(len(starts)):
        start, end = line_span(text, starts, index, index + 1)
        if start == end or text[start:end].isspace():
            if first is not None:
                runs.append((first, index))
            first = None
        elif first is None:
            first = index
    if first is not None:
        runs.append((first, len(starts)))
    blocks: list[Block] = []
    for run_first, run_stop in runs:
        start, end = trim_span(text, *line_span(text, starts, run_first, run_stop))
        blocks.append(Block(start=start, end=end, kind="paragraph", section=0))
    return ParsedDocument(text=text, blocks=blocks, sections=[root_section()])
