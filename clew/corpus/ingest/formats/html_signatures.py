"""A Sphinx object description's signature (``dl.py.function > dt``, ``html_rules.api_entry``) as the HTML renderer
(``html_blocks``) reads it: the name that titles its section, and its heading's pieces; and any heading's pieces less
a trailing permalink."""

from __future__ import annotations

from clew.corpus.ingest.formats.html_parts import _Container
from clew.corpus.ingest.formats.html_rules import PERMALINK_TEXTS, Piece


def signature_name(pieces: list[Piece]) -> str:
    """The name a Sphinx signature's term declares: its ``prename`` parts before its first ``name``
    part and that part (``functools.`` + ``lru_cache``), without a decorator's ``@``. A part's spaces are
    its words' (``.. automodule::``, ``operator bool``: one space each), not those around it."""
    parts: list[str] = []
    depth = 0
    capture: tuple[str, int] | None = None  # the part being read and the depth it opened at
    text: list[str] = []  # the part's text so far
    named = False
    for piece in pieces:
        if isinstance(piece, str):
            if capture is not None:
                text.append(piece)
            continue
        kind, value = piece
        if kind == "open":
            depth += 1
            if capture is None and not named and value in ("name", "prename"):
                capture, text = (value, depth), []
        elif kind == "close" and depth:
            if capture is not None and capture[1] == depth:
                named = named or capture[0] == "name"
                parts.append(" ".join("".join(text).split()))
                capture = None
            depth -= 1
    if not named:
        return ""
    return "".join(parts).lstrip("@").lstrip()


def without_permalink(heading: _Container) -> list[Piece]:
    """A heading's pieces less the signature markers, and less a trailing permalink (a same-page link
    holding only ``¶``, ``#``, ...: ``html_rules.PERMALINK_TEXTS``); the anchors in it are kept."""
    pieces = (
        [p for p in heading.pieces if isinstance(p, str) or p[0] in ("anchor", "link")]
        if heading.api
        else heading.pieces
    )
    cut = heading.permalink
    if cut < 0 or heading.api:
        return pieces
    tail = pieces[cut:]
    before = "".join(p for p in pieces[:cut] if isinstance(p, str))
    if not before.strip() or "".join(p for p in tail if isinstance(p, str)).strip() not in PERMALINK_TEXTS:
        return pieces
    return [*pieces[:cut], *(p for p in tail if not isinstance(p, str) and p[0] == "anchor")]
