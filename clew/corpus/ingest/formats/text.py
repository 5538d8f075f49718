"""Plain text: paragraphs separated by blank lines, no title; headings only where a line is underlined or numbered
as a section (:func:`parse_headed_text`, for `.txt` files and READMEs).

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


_UNDERLINE = re.compile(r"([=\-~^*#])\1{2,}[ \t]*")
_NUMBERED = re.compile(r"(\d{1,3}(?:\.\d{1,3})*)\.?[ \t]+([^\W\d_].{0,118})")
_MAX_NUMBERED = 160
"""The longest numbered heading, in characters (a title of one or two lines)."""
_MIN_HEADINGS = 2
"""A text's headings of either kind are taken only when it has at least this many (a lone underlined title
is no outline)."""


def parse_headed_text(source: str) -> ParsedDocument:
    """Plain text (a ``.txt`` file, a ``README`` or ``FAQ``) with the headings its lines show: a line underlined with
    ``===``, ``---``, ``~~~`` ... (levels by the order the underlines first appear; text right under the
    underline goes on as a paragraph; a title with a run of spaces is a table's columns), or, in a text with
    more of them, a numbered line standing alone (``2.8. Does chronyd have an ntpdate mode?``, as a manual
    rendered to text numbers its sections; level by its parts). A numbered line is a heading only where the
    numbers go up through the text, the line does not end a sentence (``.``, ``,``, ``;``, ``:``) and what
    follows it is text or a heading below it, never the next number: a numbered list of one-line paragraphs
    stays paragraphs. A numbered title may wrap once (160 characters at most; a second line that is itself
    numbered is no wrap) and stand one space in (`` 1.`` over ``10.``). Either kind counts only where a text has
    two or more (a lone underlined title stays a paragraph). Everything else is :func:`parse_text`'s."""
    plain = parse_text(source)
    text = plain.text
    spans = [(b.start, b.end) for b in plain.blocks]
    (headings, bodies), numbered = _underlined(text, spans), _numbered(text, spans)
    if len(numbered) > len(headings):  # a table's column titles over a rule are no outline of a numbered FAQ
        headings, bodies = numbered, {}
    if not headings:
        return plain
    document = ParsedDocument(text=text, blocks=[], sections=[root_section()])
    open_sections = [0]
    for index, (start, end) in enumerate(spans):
        found = headings.get(index)
        if found is None:
            document.blocks.append(Block(start=start, end=end, kind="paragraph", section=open_sections[-1]))
            continue
        title_end, level = found
        while len(open_sections) > 1 and document.sections[open_sections[-1]].level >= level:
            open_sections.pop()
        heading = " ".join(text[start:title_end].split())
        document.sections.append(Section(heading=heading, level=level, parent=open_sections[-1], start=start))
        open_sections.append(len(document.sections) - 1)
        document.blocks.append(Block(start=start, end=title_end, kind="heading", section=open_sections[-1]))
        if index in bodies:
            document.blocks.append(Block(*bodies[index], kind="paragraph", section=open_sections[-1]))
    return document


_Spans = dict[int, tuple[int, int]]


def _underlined(text: str, spans: list[tuple[int, int]]) -> tuple[_Spans, _Spans]:
    """Paragraphs that open with a title line over an underline, each with where its title ends and its level,
    and the span of the lines under the underline, where there are any (by the same paragraph index)."""
    found: dict[int, tuple[int, int]] = {}
    order: list[str] = []
    bodies: dict[int, tuple[int, int]] = {}
    for index, (start, end) in enumerate(spans):
        lines = text[start:end].split("\n")
        if len(lines) < 2:
            continue
        title, under = lines[0].rstrip(), lines[1]
        match = _UNDERLINE.fullmatch(under)
        if (match is None or not title or title[0].isspace() or not any(c.isalpha() for c in title)
                or len(under.rstrip()) < len(title) - 3 or "  " in title):  # "Name  Stratum  Poll": columns
            continue
        if match.group(1) not in order:
            order.append(match.group(1))
        found[index] = (start + len(title), min(6, order.index(match.group(1)) + 1))
        if len(lines) > 2:  # text right under the underline goes on as a paragraph
            rest = trim_span(text, start + len(lines[0]) + len(under) + 2, end)
            if rest[0] < rest[1]:
                bodies[index] = rest
    return (found, bodies) if len(found) >= _MIN_HEADINGS else ({}, {})


def _numbered(text: str, spans: list[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Paragraphs of a line or two numbered as sections, in order (see :func:`parse_headed_text`)."""
    candidates: dict[int, tuple[int, ...]] = {}
    for index, (start, end) in enumerate(spans):
        line = text[start:end]
        first, _, wrapped = line.partition("\n")  # a title wrapped once, as a text rendering wraps it
        match = _NUMBERED.fullmatch(first)
        indent = text[text.rfind("\n", 0, start) + 1:start]  # a number under 10 may be aligned right: " 1."
        if (match is None or line[-1] in ".,;:" or indent not in ("", " ") or len(line) > _MAX_NUMBERED
                or "\n" in wrapped or wrapped[:1].isspace() or _NUMBERED.fullmatch(wrapped)):
            continue
        candidates[index] = tuple(int(part) for part in match.group(1).split("."))
    found: dict[int, tuple[int, int]] = {}
    last: tuple[int, ...] = ()
    for index, number in sorted(candidates.items()):
        after = candidates.get(index + 1)
        if after is not None and after[: len(number)] != number:  # the next number, no text: a list item
            continue
        if number <= last:
            continue
        found[index] = (spans[index][1], min(6, len(number)))
        last = number
    return found if len(found) >= _MIN_HEADINGS else {}
