"""Reading order inside one document version: ``get_chunk``, ``navigate``, ``read``, ``grep``.

``document`` is a reference: any evidence id (``ev1:c:...``, ``ev1:s:...``, ``ev1:d:...``)
names its version; anything else is a document key and names the current version of the
readable document with that key (several readable collections holding the key is an input
error naming ``document``; pass a collection in the scope). Offsets are character offsets
into the version's text, as items report them in ``location``.

- ``navigate``: ``next`` gives the first ``top_k`` passages starting at or after
  ``end_offset``; ``previous`` the last ``top_k`` ending at or before ``start_offset``,
  returned in reading order.
- ``read``: the passages lying entirely inside ``[start, end)`` (None: the document's
  start / end), the first ``top_k`` of them.
- ``grep``: passages whose text contains ``pattern``, case-insensitively: the whole pattern
  with its spacing as given, leading and trailing spaces included (``phrase``: ``" ategory"``
  does not match ``CATEGORY``), or every whitespace-separated token of it (``term``). A
  blank pattern matches nothing. Matching is done on the passage body (the document text), so that a
  table's repeated header rows match only where they occur.

Reaching either end of the document gives an empty list (status ``no_match``). An unknown
document, and one the caller may not read, are ``unavailable``. ``top_k`` is clamped to
1-50 and ``max_chars`` to 1-20000, and offsets to the document text, as ``applied`` reports.
A reversed range (``end`` before ``start``) is an input error naming the field.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Annotated, Literal

from clew.budgets.bounds import Clamp, clamp
from clew.corpus.reader import Scope
from clew.errors import InputError
from clew.navigation.models import Chars, InCollection, NonBlank, ReadResult
from clew.navigation.passages import Opened, budget, open_document, open_id

TopK = Annotated[int, Clamp(1, 50)]


class GetChunkArgs(InCollection):
    evidence_id: NonBlank
    """A passage id (ev1:c:...)."""
    max_chars: Chars = 12000
    """Character budget for the text."""


class NavigateArgs(InCollection):
    document: NonBlank
    """An evidence id of the document, its key, or its unique title (current version)."""
    start_offset: int
    """Where the current passage starts (a location.char_start)."""
    end_offset: int
    """Where the current passage ends (a location.char_end)."""
    direction: Literal["next", "previous"] = "next"
    """next: the passages after the span; previous: those before it."""
    top_k: TopK = 1
    """How many passages."""
    max_chars: Chars = 12000
    """Character budget over all returned text."""


class ReadArgs(InCollection):
    document: NonBlank
    """An evidence id of the document, its key, or its unique title (current version)."""
    start: int | None = None
    """First character offset to read from (None: the start of the document)."""
    end: int | None = None
    """Offset to read up to, exclusive (None: the end of the document)."""
    top_k: TopK = 20
    """Most passages."""
    max_chars: Chars = 12000
    """Character budget over all returned text."""


class GrepArgs(InCollection):
    document: NonBlank
    """An evidence id of the document, its key, or its unique title (current version)."""
    pattern: str
    """Text to look for, case-insensitively (blank: nothing matches)."""
    mode: Literal["phrase", "term"] = "phrase"
    """phrase: the whole pattern as one substring; term: every token anywhere in the passage."""
    top_k: TopK = 5
    """Most passages."""
    max_chars: Chars = 12000
    """Character budget over all returned text."""


def _result(opened: Opened, applied: dict[str, int], picks: list[int] | None = None, limit: int = 0,
            max_chars: int = 0, empty: str | None = None, more: bool = False) -> ReadResult:
    if opened.doc is None:
        return ReadResult(status=opened.status, detail=opened.detail, applied=applied)
    doc = opened.doc
    items, truncated, reason = budget(doc, [(o, None) for o in picks or []], limit, max_chars, more)
    return ReadResult(
        status="ok" if items else "no_match", items=items, truncated=truncated, truncation_reason=reason,
        version_status=doc.version_status, document_id=doc.evidence_id, document_key=doc.key,
        detail=None if items else empty, applied=applied,
    )


def get_chunk(scope: Scope, args: GetChunkArgs) -> ReadResult:
    """Read one passage by its evidence id."""
    max_chars = args.clamped()["max_chars"]
    opened = open_id(scope, args.evidence_id)
    return _result(opened, {"max_chars": max_chars}, [] if opened.ordinal is None else [opened.ordinal], 1, max_chars)


def navigate(scope: Scope, args: NavigateArgs) -> ReadResult:
    """Step through a document in reading order from a span (direction)."""
    if args.end_offset < args.start_offset:
        raise InputError("end_offset", f"must not be before start_offset ({args.end_offset} < {args.start_offset})")
    top_k, max_chars = (args.clamped()[name] for name in ("top_k", "max_chars"))
    opened = open_document(scope, args.document)
    if opened.doc is None:
        return _result(opened, {"top_k": top_k, "max_chars": max_chars})
    sk = opened.doc.skeleton
    start, end = (clamp(v, 0, len(sk.text)) for v in (args.start_offset, args.end_offset))
    applied = {"start_offset": start, "end_offset": end, "top_k": top_k, "max_chars": max_chars}
    if args.direction == "next":
        first = bisect_left(sk.starts, end)
        picks = list(range(first, min(first + top_k, len(sk.chunks))))
        more = first + top_k < len(sk.chunks)
    else:
        stop = bisect_right(sk.ends, start)
        picks = list(range(max(0, stop - top_k), stop))
        more = stop - top_k > 0
    return _result(opened, applied, picks, top_k, max_chars, f"no passage {args.direction} of the span", more)


def read(scope: Scope, args: ReadArgs) -> ReadResult:
    """Read the passages of a document that lie inside a character range, in reading order."""
    if args.start is not None and args.end is not None and args.end < args.start:
        raise InputError("end", f"must not be before start ({args.end} < {args.start})")
    top_k, max_chars = (args.clamped()[name] for name in ("top_k", "max_chars"))
    opened = open_document(scope, args.document)
    if opened.doc is None:
        return _result(opened, {"top_k": top_k, "max_chars": max_chars})
    sk = opened.doc.skeleton
    lo = clamp(0 if args.start is None else args.start, 0, len(sk.text))
    hi = clamp(len(sk.text) if args.end is None else args.end, 0, len(sk.text))
    picks: list[int] = []
    for o in range(bisect_left(sk.starts, lo), len(sk.chunks)):
        if sk.ends[o] > hi or len(picks) > top_k:
            break
        picks.append(o)
    applied = {"start": lo, "end": hi, "top_k": top_k, "max_chars": max_chars}
    return _result(opened, applied, picks, top_k, max_chars, "no passage lies entirely inside the range")


def grep(scope: Scope, args: GrepArgs) -> ReadResult:
    """Find the passages of one document that contain a phrase, or every term of a pattern."""
    top_k, max_chars = (args.clamped()[name] for name in ("top_k", "max_chars"))
    opened = open_document(scope, args.document)
    applied = {"top_k": top_k, "max_chars": max_chars}
    if not args.pattern.strip():
        needles = []
    elif args.mode == "phrase":
        needles = [args.pattern.casefold()]  # as given: its leading, trailing and inner spaces must match too
    else:
        needles = args.pattern.casefold().split()
    if opened.doc is None or not needles:
        return _result(opened, applied, [], top_k, max_chars, "a blank pattern matches nothing")
    sk = opened.doc.skeleton
    whole = sk.text.casefold()
    picks: list[int] = []
    if all(n in whole for n in needles):
        for o in range(len(sk.chunks)):
            body = sk.body(o).casefold()
            if all(n in body for n in needles):
                picks.append(o)
                if len(picks) > top_k:
                    break
    return _result(opened, applied, picks, top_k, max_chars, f"no passage matches {args.pattern!r}")
