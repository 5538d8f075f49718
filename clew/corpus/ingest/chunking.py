"""Cut a parsed document into passages (chunks) that respect its structure.

Rules, in order of strength:

- chunks tile the document text: in reading order, no gaps, no overlaps;
- a chunk is cut only between blocks (paragraphs, list items, table rows) or, inside a
  block longer than the target, at a sentence or word boundary: never inside a word;
- a heading travels with the content that follows it, and so does a lead-in: a short block
  (at most ``LEAD_IN_CHARS`` characters) that does not end a sentence, followed by a longer
  block of the same section, such as a list item's bold title or a definition term
  (``SQLITE_MAX_MMAP_SIZE=N`` before its description). Without this rule such a title ended
  one chunk while its text opened the next, and a link to its anchor led to the wrong chunk;
- but a heading with nothing under it (the next block is outside its section: old TypeDoc's
  ``Returns Array<string | symbol>`` of ``eventNames``, its last line) ends the text before it, of
  its parent's member, and the chunk lists its section; it opened the next section's chunk
  (``flash``'s). After headings that travel with it (``eventNames`` over it alone), or after a
  table, it is their unit's last block, a unit of its own; before any text (a page's title over
  its first section's) it travels with what follows;
- a table always starts a new chunk and the text after it starts another; table chunks are
  cut between rows, and every table chunk after the first repeats the header row(s), stored
  apart from the body so that body offsets still point into the document text;
- but the text right before a table, of the same section, opens the table's first chunk when it
  is a paragraph or the section's opening text (its heading and the block after it, one unit),
  short (at most a ``LEAD_IN_SHARE`` of a chunk) and fits with the header rows, if any, and the first
  row (``_lead_into_tables``): "### Options" / "Options can be passed via data attributes or
  JavaScript." was a chunk of 19-41 tokens apart from its table, and so was a lead-in further into
  its section ("Performs the following translations in decoding by default:" after a class's first
  paragraph), and Doxygen's "Parameters" label ended a function's passage while its headerless
  table of parameters opened the next; not with ``merge_sections``, where it shares a chunk with the
  sections before it;
- but a chunk under ``SMALL_TOKENS`` that continues the section of the chunk before it joins that chunk
  when both fit in one, else the chunk after it (of its section, repeating no header) on the same terms
  (``_join_small``; not with ``merge_sections``): a table's chunk starts and ends at the table, so
  Doxygen's one-row parameter table (11 tokens with its "Parameters" label) and its "Returns: always
  NULL" line (5) were passages of their own after their function's description;
- a chunk that would end right before a nested list item (one indented under an earlier item) ends
  instead before the outermost of that item's ancestors it holds (not as its first unit) whose start
  leaves it half full, so the next chunk opens with the parent's first line over its sub-items:
  undici's RetryOptions passage opened with ``  - callback {Function}``, a sub-item of the ``retry``
  option that ended the chunk before, and neither search nor the walk saw it with its parent;
- by default a chunk never crosses a section; with ``merge_sections`` small consecutive
  sections share a chunk up to the target, and the chunk lists every section it spans;
- no chunk exceeds ``chunk_tokens`` unless it is one indivisible unit (a code block, a
  single table row, a single word), and such a chunk is flagged ``oversize``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from clew.budgets.tokens import count_tokens, count_tokens_bulk
from clew.corpus.ingest.parsed import Block, ParsedDocument, pickled_by_fields

DEFAULT_CHUNK_TOKENS = 220
CHUNKER_REVISION = 8
"""Part of a version's chunking signature: a document ingested by an older chunker is re-chunked."""
LEAD_IN_CHARS = 120
LEAD_IN_KINDS = frozenset({"paragraph", "list_item", "code"})
LEAD_IN_SHARE = 0.2
"""A table's lead-in of at most this share of a chunk (44 tokens at 220) opens the table's first
chunk (a third, 75 tokens, moved the walk's seeds on sqlite-docs)."""
SMALL_TOKENS = 25
"""A chunk under this many tokens joins its neighbour of the same section when both fit (``_join_small``)."""
_LIST_ITEM = re.compile(r"( *)(?:[-*+\u2022]|\d+[.)])\s")
"""A list item's first line as the readers write it: its nesting as indentation, then its marker."""
_SENTENCE_END = re.compile(r"[.!?;:](?=\s)")
_SPACE = re.compile(r"\s")


@pickled_by_fields
@dataclass(slots=True)
class Chunk:
    start: int
    end: int
    kind: Literal["text", "table"]
    sections: list[int]
    """Every section whose content the chunk holds, in order (parsed section indices)."""
    table: int | None
    header: str
    """Header rows repeated in front of the body (table chunks after the first), else ''."""
    token_count: int
    oversize: bool = False

    def display_text(self, text: str) -> str:
        body = text[self.start : self.end]
        return f"{self.header}\n{body}" if self.header else body


@dataclass(slots=True)
class _Unit:
    start: int
    end: int
    section: int
    table: int | None
    header: bool
    indivisible: bool
    tokens: int = 0
    opens: bool = False
    """The unit starts an item: it begins with a lead-in or at an anchor (a link target)."""
    paragraph: bool = False
    """Its last block is a paragraph (what a table's lead-in is, further into a section)."""
    depth: int | None = None
    """The indentation of its first line when it begins with a list item (a nested item's is deeper than
    its parent's), else None."""
    closed: list[int] = field(default_factory=list)
    """The sections of the headings with nothing under them that end the unit (``_units``)."""


@dataclass(slots=True)
class _Builder:
    text: str
    limit: int
    chunks: list[Chunk] = field(default_factory=list)

    def pack(self, units: list[_Unit], kind: Literal["text", "table"], header: str = "") -> None:
        """Fill chunks greedily with whole units."""
        i = 0
        while i < len(units):
            n, tokens = self.fit(units, i, header)
            self.emit(units[i : i + n], kind, header, tokens)
            i += n

    def fit(self, units: list[_Unit], first: int, header: str) -> tuple[int, int]:
        """How many units from ``first`` on fit in one chunk (at least one), and its tokens."""
        used = count_tokens(header) + 1 if header else 0
        n = 0
        item_start = item_used = 0  # the last unit that opens an item, and the tokens before it
        before: list[int] = []  # the tokens before each unit of the chunk
        # by index: units[first:] copies, islice skips, the units before ``first`` for every chunk (quadratic)
        for index in range(first, len(units)):
            unit = units[index]
            if n and used + unit.tokens > self.limit:
                break
            if n and unit.opens:
                item_start, item_used = n, used
            before.append(used)
            used += unit.tokens
            n += 1
        # rather than end inside an item that does not fit, end before it when half full
        cut_inside = first + n < len(units) and not units[first + n].opens
        if cut_inside and item_start and item_used * 2 >= self.limit:
            n, used = item_start, item_used
        parent = _before_parent(units, first, n, before, self.limit) if first + n < len(units) else 0
        if parent:  # rather than end inside the sub-list of an item it could take whole, end before the item
            n, used = parent, before[parent]
        if n == 1 and not header:
            return 1, units[first].tokens  # the unit's own count is exact
        if not header and all(self.clean_seam(units[index].start) for index in range(first + 1, first + n)):
            return n, used  # the sum is exact at such seams (and within the limit: the loop kept it so)
        # Elsewhere unit sums can be off by a token or two at the seams; trust the exact count.
        tokens = self.count(units[first], units[first + n - 1], header)
        while n > 1 and tokens > self.limit:
            n -= 1
            tokens = self.count(units[first], units[first + n - 1], header)
        return n, tokens

    def clean_seam(self, offset: int) -> bool:
        """Whether the tokens of text cut at ``offset`` add up to the tokens of the whole, exactly:
        where a line break ends the text before and no whitespace starts the text after.

        cl100k_base's pre-tokenizer (``clew.budgets.tokens``) splits text into pieces before BPE, and
        none of its patterns matches a line break followed by anything but whitespace (letters may
        follow one optional character other than a line break, punctuation one optional space), while
        the whitespace run that ends in that line break is one piece whether the text goes on
        (``\\s*[\\r\\n]``) or ends there (``\\s++$``). So the pieces on either side are the same
        alone as together, and so are their tokens (``tests/corpus/ingest/test_chunking.py`` checks it).
        Units mostly meet at such seams (a block runs to the next block's start), so a chunk of
        several units is counted once, unit by unit, instead of again as a whole.
        """
        return self.text[offset - 1] == "\n" and not self.text[offset].isspace()

    def count(self, first: _Unit, last: _Unit, header: str) -> int:
        body = self.text[first.start : last.end]
        return count_tokens(f"{header}\n{body}" if header else body)

    def emit(self, units: list[_Unit], kind: Literal["text", "table"], header: str, tokens: int) -> None:
        sections: list[int] = []
        for unit in units:
            for section in (unit.section, *unit.closed):
                if section not in sections:
                    sections.append(section)
        table = next((u.table for u in units if u.table is not None), None)  # after a table's lead-in
        self.chunks.append(
            Chunk(units[0].start, units[-1].end, kind, sections, table, header, tokens, tokens > self.limit)
        )

    def pack_table(self, units: list[_Unit]) -> None:
        """The first chunk holds the header rows, if any, in its body (after the table's lead-in, if
        it has one: ``_lead_into_tables``); later chunks repeat them."""
        heads = [u for u in units if u.header]
        rows = [u for u in units if not u.header and u.table is not None]
        if not rows or (not heads and units[0].table is not None):
            self.pack(units, "table")
            return
        n, tokens = self.fit(units, 0, "")
        first = (units[0].table is None) + len(heads) + 1
        if n < first:  # the lead-in and the header rows never travel without a row
            n = first
            tokens = self.count(units[0], units[n - 1], "")
        self.emit(units[:n], "table", "", tokens)
        header = self.text[heads[0].start : heads[-1].end].rstrip() if heads else ""
        self.pack(units[n:], "table", header)


def _before_parent(units: list[_Unit], first: int, n: int, before: list[int], limit: int) -> int:
    """How many units the chunk of ``units[first : first + n]`` keeps when the unit after it is a nested
    list item: up to the outermost of its ancestor items in the chunk (after its first unit) whose start
    leaves the chunk half full; else 0 (the cut stays). The ancestors are the list items before it, each
    less indented than the one after it, back to the first unit that is no list item."""
    depth = units[first + n].depth
    if not depth:
        return 0
    ancestors: list[int] = []
    for k in range(n - 1, 0, -1):
        own = units[first + k].depth
        if own is None:
            break
        if own < depth:
            ancestors.append(k)
            depth = own
            if not depth:
                break
    return next((k for k in reversed(ancestors) if before[k] * 2 >= limit), 0)


def chunk_document(
    doc: ParsedDocument, *, chunk_tokens: int = DEFAULT_CHUNK_TOKENS, merge_sections: bool = False
) -> list[Chunk]:
    return chunk_documents([doc], chunk_tokens=chunk_tokens, merge_sections=merge_sections)[0]


def chunk_documents(
    docs: Sequence[ParsedDocument], *, chunk_tokens: int = DEFAULT_CHUNK_TOKENS, merge_sections: bool = False
) -> list[list[Chunk]]:
    """``chunk_document`` of each document (the same chunks), the tokens of all their blocks counted at
    once (``count_tokens_bulk``: each distinct word of them all looked up once; the 120,000 blocks of the
    100k generated corpus, 256 files at a time: 1.5 s of CPU against 2.7 s block by block)."""
    if chunk_tokens < 16:
        raise ValueError(f"chunk_tokens must be at least 16, got {chunk_tokens}")
    units = [_units(doc) if doc.text else [] for doc in docs]
    counts = iter(count_tokens_bulk([doc.text[u.start : u.end] for doc, held in zip(docs, units) for u in held]))
    out: list[list[Chunk]] = []
    for doc, held in zip(docs, units):
        for unit in held:
            unit.tokens = next(counts)
        out.append(_chunk(doc, _fitted(doc.text, held, chunk_tokens), chunk_tokens, merge_sections))
    return out


def _chunk(doc: ParsedDocument, units: list[_Unit], chunk_tokens: int, merge_sections: bool) -> list[Chunk]:
    text = doc.text
    if not text:
        return []
    if not units:
        return [Chunk(0, len(text), "text", [0], None, "", count_tokens(text))]
    builder = _Builder(text, chunk_tokens)
    segments = _segments(units, merge_sections)
    for segment in segments if merge_sections else _lead_into_tables(segments, chunk_tokens):
        if segment[-1].table is None:  # a table's segment may open with its lead-in
            builder.pack(segment, "text")
        else:
            builder.pack_table(segment)
    return builder.chunks if merge_sections else _join_small(builder.chunks, text, chunk_tokens)


def _join_small(chunks: list[Chunk], text: str, limit: int) -> list[Chunk]:
    """Each chunk under ``SMALL_TOKENS`` joined with the chunk before it when it continues that chunk's
    section and both fit in ``limit`` (counted as one, with the earlier chunk's repeated header), else with
    the chunk after it on the same terms when that one continues its section and repeats no header."""
    out: list[Chunk] = []
    for chunk in chunks:
        if out and (chunk.token_count < SMALL_TOKENS or (out[-1].token_count < SMALL_TOKENS and not chunk.header)):
            joined = _joined(out[-1], chunk, text, limit)
            if joined is not None:
                out[-1] = joined
                continue
        out.append(chunk)
    return out


def _joined(first: Chunk, second: Chunk, text: str, limit: int) -> Chunk | None:
    """``first`` and ``second`` (the chunk right after it, of the section it ends in) as one chunk, or None."""
    two_tables = first.table is not None and second.table is not None and first.table != second.table
    if second.sections[0] != first.sections[-1] or two_tables:
        return None  # another section, or two tables
    body = text[first.start : second.end]
    tokens = count_tokens(f"{first.header}\n{body}" if first.header else body)
    if tokens > limit:
        return None
    kind: Literal["text", "table"] = "table" if "table" in (first.kind, second.kind) else "text"
    sections = first.sections + [s for s in second.sections if s not in first.sections]
    table = first.table if first.table is not None else second.table
    return Chunk(first.start, second.end, kind, sections, table, first.header, tokens)


def _units(doc: ParsedDocument) -> list[_Unit]:
    """Blocks as tiling units: each runs to the next block's start; headings join what follows (their
    tokens not counted yet), a heading with nothing under it what comes before (``_empty``)."""
    text, blocks = doc.text, doc.blocks
    units: list[_Unit] = []
    anchored = {content_start(text, offset) for offset in doc.anchors.values()}
    lead_ins: set[int] = set()
    kinds = {block.start: block.kind for block in blocks}  # a unit's first block: a list item or not
    pending_start: int | None = 0  # the first unit also takes any text before the first block
    for i, block in enumerate(blocks):
        end = blocks[i + 1].start if i + 1 < len(blocks) else len(text)
        start = block.start if pending_start is None else pending_start
        if i + 1 < len(blocks) and block.kind == "heading":
            if not units or not _empty(doc, block, blocks[i + 1]):  # before any text (a title) it travels on
                pending_start = start
                continue
            if pending_start is None and units[-1].table is None:
                units[-1].end = end
                units[-1].closed.append(block.section)
                continue
        if i + 1 < len(blocks) and _leads_in(text, block, blocks[i + 1]):
            pending_start = start
            lead_ins.add(start)
            continue
        pending_start = None
        opens = start in lead_ins or start in anchored or block.start in anchored
        item = _LIST_ITEM.match(text, start) if kinds.get(start) == "list_item" else None
        units.append(_Unit(start, end, block.section, block.table, block.kind == "table_header", block.indivisible,
                           opens=opens, paragraph=block.kind == "paragraph",
                           depth=None if item is None else len(item.group(1))))
    return units


def _empty(doc: ParsedDocument, heading: Block, following: Block) -> bool:
    """Whether nothing is under ``heading``: the block after it is outside the section it opens."""
    section: int | None = following.section
    while section is not None and section != heading.section:
        section = doc.sections[section].parent
    return section is None


def _fitted(text: str, units: list[_Unit], limit: int) -> list[_Unit]:
    """The counted units, each divisible one of more than ``limit`` tokens cut into pieces (``_split``)."""
    out: list[_Unit] = []
    for unit in units:
        if unit.tokens <= limit or unit.indivisible or unit.table is not None:
            out.append(unit)
            continue
        pieces = _split(text, unit, limit)
        pieces[-1].closed = unit.closed
        for piece in pieces:
            piece.tokens = count_tokens(text[piece.start : piece.end])
            out.append(piece)
    return out


def content_start(text: str, offset: int) -> int:
    """The first non-space character at or after ``offset`` (an anchor marks what follows it)."""
    while offset < len(text) - 1 and text[offset].isspace():
        offset += 1
    return offset


def _leads_in(text: str, block: Block, following: Block) -> bool:
    """A short block that introduces a longer one of the same section (a title, a term)."""
    if block.kind not in LEAD_IN_KINDS or following.kind not in LEAD_IN_KINDS or block.section != following.section:
        return False
    own = text[block.start : block.end].strip()
    if not own or len(own) > LEAD_IN_CHARS or own[-1] in ".!?;":
        return False
    return following.end - following.start > 2 * len(own)


def _split(text: str, unit: _Unit, limit: int) -> list[_Unit]:
    """Cut a divisible unit of more than ``limit`` tokens at sentence, else word, boundaries.

    Linear in the unit's length: every count looks at a window of about one piece, never at
    the whole rest of the unit (counting the rest before each cut made a 2 MB paragraph quadratic).
    """
    chars_per_token = (unit.end - unit.start) / unit.tokens
    pieces: list[_Unit] = []
    start = unit.start
    while _longer_than(text, start, unit.end, limit, chars_per_token):
        # guess a cut from the average token width, then shrink until the piece fits
        width = int(limit * chars_per_token)
        cut = None
        while width > 0:
            cut = _boundary(text, start, min(start + width, unit.end))
            if cut is not None and count_tokens(text[start:cut]) <= limit:
                break
            width = int(width * 0.85)
            cut = None
        if cut is None:  # one word longer than the limit: keep it whole (flagged oversize)
            space = _SPACE.search(text, start + 1, unit.end)
            cut = space.end() if space else unit.end
            while cut < unit.end and text[cut].isspace():
                cut += 1
        if cut >= unit.end:
            break
        pieces.append(_Unit(start, cut, unit.section, None, False, False))
        start = cut
    pieces.append(_Unit(start, unit.end, unit.section, None, False, False))
    return pieces


def _longer_than(text: str, start: int, end: int, limit: int, chars_per_token: float) -> bool:
    """Whether ``text[start:end]`` holds more than ``limit`` tokens, counting growing prefixes
    (from about two pieces' width) rather than the whole span."""
    window = int(2 * limit * chars_per_token) + 64
    while True:
        stop = min(end, start + window)
        if count_tokens(text[start:stop]) > limit:
            return True
        if stop == end:
            return False
        window *= 2


def _boundary(text: str, start: int, hard: int) -> int | None:
    """The best cut in ``(start, hard]``: after a sentence in the last half, else a space."""
    window = text[start:hard]
    half = len(window) // 2
    best = None
    for match in _SENTENCE_END.finditer(window):
        if match.end() >= half:
            best = match.end()
    if best is None:
        space = window.rfind(" ")
        newline = window.rfind("\n")
        best = max(space, newline)
        if best <= 0:
            return None
    # include the whitespace after the cut in the earlier piece
    cut = start + best
    while cut < hard and text[cut].isspace():
        cut += 1
    return cut if cut > start else None


def _lead_into_tables(segments: list[list[_Unit]], limit: int) -> list[list[_Unit]]:
    """A text segment's last unit opens the table segment after it when it is the table's lead-in
    (``_leads_into``)."""
    out: list[list[_Unit]] = []
    for i, segment in enumerate(segments):
        text = segments[i - 1] if i and segments[i - 1][0].table is None else None
        earlier = segments[i - 2] if i > 1 else None
        if segment[0].table is not None and text is not None and _leads_into(text, segment, limit, earlier):
            if len(text) == 1:
                out.pop()
            else:
                out[-1] = text[:-1]
            segment = [text[-1], *segment]
        out.append(segment)
    return out


def _leads_into(text: list[_Unit], table: list[_Unit], limit: int, earlier: list[_Unit] | None) -> bool:
    """Whether the text segment's last unit opens the table segment after it: a unit of the table's
    section that is a paragraph (wherever it sits in the section: "The following table lists ...:")
    or the section's opening text (the heading and the block after it: the first unit of a section
    other than the root), at most ``LEAD_IN_SHARE`` of ``limit``, that fits with the table's header
    rows (none or some: Doxygen's and AsciiDoc's labelled tables have none) and first row;
    ``earlier``: the segment before ``text``."""
    lead = text[-1]
    if lead.section != table[0].section or lead.tokens > LEAD_IN_SHARE * limit:
        return False
    before = text[-2] if len(text) > 1 else earlier[-1] if earlier else None
    opening = lead.section != 0 and (before is None or before.section != lead.section)
    if not (lead.paragraph or opening):
        return False
    heads = sum(1 for u in table if u.header)
    return heads < len(table) and lead.tokens + sum(u.tokens for u in table[: heads + 1]) <= limit


def _segments(units: list[_Unit], merge_sections: bool) -> list[list[_Unit]]:
    segments: list[list[_Unit]] = []
    for unit in units:
        if segments:
            last = segments[-1][-1]
            same_kind = unit.table == last.table
            same_section = merge_sections or unit.section == last.section or unit.table is not None
            if same_kind and same_section:
                segments[-1].append(unit)
                continue
        segments.append([unit])
    return segments
