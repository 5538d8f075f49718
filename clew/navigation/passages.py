"""What the navigation tools share: opening a start, building items, fitting a budget.

Every tool starts from an evidence id or a document reference and answers with a status:

- ``malformed``: the id does not decode, or names the wrong kind of thing for the tool;
- ``unavailable``: nothing readable has this id. A version that does not exist and one the
  caller may not read give the same status and the same detail, from the same query;
- ``failed``: the store could not be read (the detail says why);
- ``no_match`` / ``ok``: the start was read; the move found nothing / something.

An item's text is the passage as a reader sees it (``Skeleton.display_text``), less the
marks of its Markdown headings (``## Data retention`` reads ``Data retention``) and its
trailing blank lines; what is stored and indexed, and the item's ``location``, are unchanged.
A heading line is one a section node starts at, so a ``# comment`` in a code block is kept.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from clew.corpus import ids
from clew.corpus.documents import document_or_keys_meant
from clew.corpus.reader import Scope
from clew.corpus.structure import DocumentVersion, Skeleton
from clew.errors import MalformedEvidenceId
from clew.navigation.models import NO_DOCUMENT, UNAVAILABLE, Item, Location, Status, TruncationReason

PASSAGE_ONLY = "expected a passage id (ev1:c:<document>:<version>:<ordinal>)"
_ATX_OPEN = re.compile(r"#{1,6}(?:[ \t]+|$)")
"""An ATX heading's opening marks (CommonMark: 1-6 ``#`` and a space, or the end of the line)."""
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+$")
"""Its optional closing marks (``## Title ##``)."""


@dataclass(frozen=True, slots=True)
class Opened:
    """A start that could be read, or the status that says why not."""

    status: Status
    detail: str | None = None
    doc: DocumentVersion | None = None
    ordinal: int | None = None
    """The passage (for a chunk id) or, for a node id, the node's ordinal."""
    kind: str | None = None


def failed(error: duckdb.Error) -> Opened:
    return Opened("failed", f"the corpus could not be read: {error}")


def open_id(scope: Scope, evidence_id: str, kinds: str = "c") -> Opened:
    """Decode an evidence id of one of ``kinds`` and open its version under ``scope``."""
    try:
        decoded = ids.decode(evidence_id)
    except MalformedEvidenceId as error:
        return Opened("malformed", error.message)
    if decoded.kind not in kinds:
        return Opened("malformed", PASSAGE_ONLY if kinds == "c" else f"expected an id of kind {' or '.join(kinds)}")
    try:
        doc = scope.document(decoded.document, decoded.version)
    except duckdb.Error as error:
        return failed(error)
    if doc is None:
        return Opened("unavailable", UNAVAILABLE)
    ordinal = decoded.ordinal
    size = len(doc.skeleton.chunks) if decoded.kind == "c" else len(doc.skeleton.nodes)
    if ordinal is not None and ordinal >= size:
        return Opened("unavailable", UNAVAILABLE)
    return Opened("ok", None, doc, ordinal, decoded.kind)


def open_document(scope: Scope, document: str) -> Opened:
    """A document reference: any evidence id (its version) or a key (its current version).

    A reference that starts with ``ev1:`` is read as an evidence id, anything else as a key, or as
    the title of exactly one readable document (``clew.corpus.documents.document_meant``). A key
    that names none says so, with the keys meant where there are some (``keys_meant``: of readable
    documents only, so a denied key and a missing one read the same).
    """
    if document.strip().startswith(f"{ids.PREFIX}:"):
        return open_id(scope, document, "csd")
    try:
        doc, near = document_or_keys_meant(scope, document)
    except duckdb.Error as error:
        return failed(error)
    if doc is None:
        return Opened("unavailable", NO_DOCUMENT + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    return Opened("ok", None, doc, None, "d")


def item(doc: DocumentVersion, ordinal: int, section: int | None = None) -> Item:
    """Passage ``ordinal`` as an item; ``section`` makes it stand for that section."""
    sk = doc.skeleton
    chunk = sk.chunks[ordinal]
    path = sk.nodes[section].heading_path if section is not None else sk.heading_path(ordinal)
    return Item(
        evidence_id=doc.chunk_id(ordinal),
        document_key=doc.key,
        heading_path=list(path),
        kind=chunk.kind,  # type: ignore[arg-type]
        text=item_text(sk, ordinal),
        location=Location(char_start=chunk.start, char_end=chunk.end, page_numbers=sk.page_numbers(ordinal)),
        section_id=None if section is None else doc.node_id(section),
    )


def item_text(sk: Skeleton, ordinal: int) -> str:
    """Passage ``ordinal`` as an item shows it: its display text without the marks of its
    Markdown (ATX) heading lines, and without trailing whitespace."""
    chunk = sk.chunks[ordinal]
    body = _unmarked(sk, chunk.start, chunk.end)
    header = _header_text(sk, chunk.table_node, chunk.header)
    return (f"{header}\n{body}" if header else body).rstrip()


def _header_text(sk: Skeleton, table: int | None, header: str) -> str:
    """A table passage's repeated header as its item shows it. A table right under its heading
    repeats that heading with its header rows (the chunker's header starts where the table's first
    passage does, and a heading joins what follows): its marks go as they do in the first passage."""
    first = sk.nodes[table].first_chunk if header and table is not None else None
    if first is None:
        return header
    start = sk.chunks[first].start
    return _unmarked(sk, start, start + len(header)) if sk.text.startswith(header, start) else header


def _unmarked(sk: Skeleton, begin: int, end: int) -> str:
    """The version's text in ``[begin, end)`` without the marks of the ATX heading lines in it."""
    starts = _heading_starts(sk)
    parts: list[str] = []
    at = begin
    for start in starts[bisect_left(starts, begin):bisect_left(starts, end)]:
        stop = sk.text.find("\n", start, end)
        stop = end if stop < 0 else stop
        line = sk.text[start:stop]
        opening = _ATX_OPEN.match(line)
        if opening is None:
            continue  # a heading of another kind (an HTML or a setext heading): kept as written
        parts += [sk.text[at:start], _ATX_CLOSE.sub("", line[opening.end():].rstrip(" \t"))]
        at = stop
    parts.append(sk.text[at:end])
    return "".join(parts)


def _heading_starts(sk: Skeleton) -> tuple[int, ...]:
    """Where the version's section headings start, in order (a section node starts at its
    heading line), computed once per skeleton."""
    starts: tuple[int, ...] | None = sk.memo.get("heading_starts")
    if starts is None:
        starts = sk.memo["heading_starts"] = tuple(sorted({n.start for n in sk.nodes if n.kind == "section"}))
    return starts


def fit(items: Iterable[Item], max_chars: int) -> tuple[list[Item], bool]:
    """Keep items while they fit ``max_chars``; cut the first that does not, drop the rest.

    Returns the items and whether the budget cut or dropped anything.
    """
    kept: list[Item] = []
    left = max_chars
    for one in items:
        if len(one.text) <= left:
            kept.append(one)
            left -= len(one.text)
            continue
        if left > 0:
            kept.append(one.model_copy(update={"text": one.text[:left], "text_truncated": True}))
        return kept, True
    return kept, False


def budget(
    doc: DocumentVersion, picks: list[tuple[int, int | None]], limit: int, max_chars: int, more: bool = False
) -> tuple[list[Item], bool, TruncationReason | None]:
    """Apply ``limit``, then ``max_chars``, to (ordinal, section) picks.

    ``more`` (or picks beyond ``limit``) says the limit left passages out. Returns (items,
    truncated, truncation_reason); ``chars`` wins when both cut.
    """
    over_limit = more or len(picks) > limit
    items, cut = fit((item(doc, o, s) for o, s in picks[:limit]), max_chars)
    reason: TruncationReason | None = "chars" if cut else "limit" if over_limit else None
    return items, reason is not None, reason
