"""The rules of the HTML renderer (clew.corpus.formats.html): which tags are inline, dropped,
closed implicitly, and how runs of text are collapsed or kept verbatim.

Split from the renderer so that the renderer reads as one state machine over these tables.
"""

from __future__ import annotations

import re

INLINE_TAGS = frozenset(
    "a abbr b big cite code em font i img kbd nobr q s samp small span strike strong sub sup tt u var"
    " variable".split()
)
DROP_TAGS = frozenset("noscript template head nav header footer form select button".split())
DROP_CLASSES = frozenset({"nosearch", "menu"})
_SKIPPED = frozenset({"script", "style", "svg", "math"})
"""Skipped by counting their own tag: raw text (script, style) or foreign XML (svg, math)."""
_VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())
_HEAD_CONTENT = frozenset("base link meta noscript script style template title".split())
_LEVELS = {f"h{level}": level for level in range(1, 7)}
_HEADINGS = frozenset({*_LEVELS, "h"})
# The HTML parsing algorithm's "special" elements, scope boundaries and p-closing tags.
_SPECIAL = frozenset(
    "address applet area article aside base basefont bgsound blockquote body br button caption center col"
    " colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3"
    " h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav"
    " noembed noframes noscript object ol p param plaintext pre script section select source style summary"
    " table tbody td template textarea tfoot th thead title tr track ul wbr xmp".split()
)
_SCOPE = frozenset("applet caption html table td th marquee object template".split())
_BUTTON_SCOPE = _SCOPE | {"button"}
_LIST_SCOPE = _SCOPE | {"ul", "ol"}
_TABLE_SCOPE = frozenset({"html", "table", "template"})
_CLOSES_P = frozenset(
    "address article aside blockquote center details dialog dir div dl dd dt fieldset figcaption figure"
    " footer form h1 h2 h3 h4 h5 h6 h header hgroup hr li listing main menu nav ol p plaintext pre search"
    " section summary table ul xmp".split()
)
_ENDS_HEADING = frozenset(
    "address article aside blockquote center dd div dl dt fieldset figure form h1 h2 h3 h4 h5 h6 h li main"
    " ol p pre section table td th tr ul".split()
)
_BREAKS_SVG = frozenset(
    "b big blockquote body br center code dd div dl dt em h1 h2 h3 h4 h5 h6 hr i li ol p pre s small span"
    " strong sub sup table tt u ul".split()
)
"""HTML tags that end an unclosed ``svg``/``math`` (the HTML algorithm's foreign-content breakout)."""
_ROW_PARENTS = frozenset({"table", "thead", "tbody", "tfoot"})
_LIST_ITEM_SCOPE = _SPECIAL - {"address", "div", "p"}
_SKIPPED_LINKS = ("javascript:", "mailto:")
_LEADING_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)+")

Marker = tuple[str, str]
"""``("anchor", name)`` or ``("link", href)``: placed at the offset where the next text starts."""
Piece = str | Marker
Placed = list[tuple[Marker, int]]


def collapse(pieces: list[Piece]) -> tuple[str, Placed, list[Marker]]:
    """Join text pieces with whitespace collapsed to single spaces and stripped.

    Each marker is placed at the offset of the text that follows it; markers with no text
    after them come back separately, to be placed by whatever text comes next.
    """
    out: list[str] = []
    length = 0
    space = False
    placed: Placed = []
    waiting: list[Marker] = []
    for piece in pieces:
        if not isinstance(piece, str):
            waiting.append(piece)
            continue
        words = piece.split()
        if not words:
            space = space or bool(piece)
            continue
        if length and (space or piece[0].isspace()):
            out.append(" ")
            length += 1
        if waiting:
            placed.extend((marker, length) for marker in waiting)
            waiting = []
        chunk = " ".join(words)
        out.append(chunk)
        length += len(chunk)
        space = piece[-1].isspace()
    return "".join(out), placed, waiting


def verbatim(pieces: list[Piece]) -> tuple[str, Placed, list[Marker]]:
    """Like :func:`collapse` for ``pre``: text kept as is, less leading blank lines and trailing space."""
    parts: list[str] = []
    markers: Placed = []
    length = 0
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(piece)
            length += len(piece)
        else:
            markers.append((piece, length))
    text = "".join(parts)
    lead = _LEADING_BLANK_LINES.match(text)
    cut = lead.end() if lead else 0
    body = text[cut:].rstrip()
    placed: Placed = [(marker, max(0, at - cut)) for marker, at in markers if at - cut < len(body)]
    waiting = [marker for marker, at in markers if at - cut >= len(body)]
    return body, placed, waiting


def _attr(attrs: list[tuple[str, str | None]], name: str) -> str | None:
    for key, value in attrs:
        if key == name and value is not None and value.strip():
            return value.strip()
    return None


def _dropped_class(attrs: list[tuple[str, str | None]]) -> bool:
    classes = _attr(attrs, "class")
    return classes is not None and not DROP_CLASSES.isdisjoint(classes.split())
