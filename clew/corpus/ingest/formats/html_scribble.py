"""Scribble's definition boxes (Racket's documentation, racket-doc 8.7), rewritten before the HTML renderer reads them
as a Sphinx object description is read (task R24).

Scribble writes each binding a manual documents (``defproc``, ``defform``, ``defparam``, ``defthing``,
``defstruct``) as a box, ``blockquote.SVInsetFlow > table.boxed.RBoxed``: a row per signature, its kind as a label
behind it ("procedure", "syntax", "parameter", "value", "struct": ``div.RBackgroundLabel``) and the signature
(``p.RForeground``, or a ``table.prototype.RForeground`` of a cell per word when it spans lines), then a row per
argument's contract ("v : any/c"). What the binding does follows the box, in the rest of its paragraph and the
paragraphs and examples after it, up to the next box or heading. Read as it is, the box was paragraphs and tables
("procedure", "(pair? v) → boolean?", "| (sort | lst | ... |"), and the text after it belonged to no term: a
question about ``pair?`` found its description without its name.

:func:`scribble_definitions` rewrites each box as a Sphinx object description (``html_rules.api_entry``): a ``dl``
whose ``dt`` is the signature on one line after its kind ("procedure (pair? v) → boolean?"), the name it defines
(Scribble's ``RktValDef``/``RktStxDef``/``RktSymDef`` link, or ``span`` where it links nowhere, and its anchor)
marked as the signature's name, so that the entry is a section titled "pair?" under the section around it; its
``dd`` holds the contracts, a line each, then the description and examples up to the next box or heading, or to the
end of what holds the box. A box of several signatures (``defproc*``) is one entry, its further signatures ``dt`` of
the same entry, as Sphinx's overloads are; a box inside another's description is an entry inside that one's. A box
naming nothing (a grammar's ``specsubform``: "_", "id") stays as it was.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from html import unescape

_BOX = '<blockquote class="SVInsetFlow"><table cellspacing="0" cellpadding="0" class="boxed RBoxed">'
_TOGETHER = '<table cellspacing="0" cellpadding="0" class="together">'
_OPENER = '<p><div class="SIntrapara">'
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*+>")
_HEADING = re.compile(r"h[1-6]")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_KEPT = frozenset({"a", "span", "tt", "i", "b", "em", "strong", "sup", "sub", "code"})
_LABEL = re.compile(
    r'<div class="RBackgroundLabel[^"]*"><div class="RBackgroundLabelInner"><p>([^<>]*)</p></div></div>'
)
_NAME = re.compile(  # the defining link (or span), its inner tags of other names
    r'<(a|span) [^<>]*class="Rkt(?:Val|Stx|Sym)Def[^"]*"[^<>]*>[^<>]*+(?:<(?!/?\1\b)[^<>]*>[^<>]*)*</\1>'
)


def _close(text: str, start: int, tag: str) -> int:
    """The index just past the end tag that closes the ``tag`` element opening at ``start``, or -1."""
    depth = 0
    for match in _TAG.finditer(text, start):
        if match[2].lower() != tag:
            continue
        depth += -1 if match[1] else 1
        if depth == 0:
            return match.end()
    return -1


def _rows(table: str) -> list[str]:
    """The contents of the rows of ``table`` (a whole ``table`` element) at its own level, not its tables' rows; a
    row holding a ``table.together`` (a signature of ``defproc*`` with its result and contracts) is that table's
    rows."""
    rows: list[str] = []
    depth, start = 0, -1
    for match in _TAG.finditer(table):
        tag = match[2].lower()
        if tag == "table":
            depth += -1 if match[1] else 1
        elif tag == "tr" and depth == 1:
            if match[1] and start >= 0:
                row = table[start:match.start()]
                together = row.find(_TOGETHER)
                rows.extend(_rows(row[together:_close(row, together, "table")]) if together >= 0 else [row])
            elif not match[1]:
                start = match.end()
    return rows


def _inline(html: str) -> str:
    """``html`` on one line: its inline tags kept, a table's row a space, other tags dropped."""
    return _TAG.sub(lambda m: m[0] if m[2].lower() in _KEPT else (" " if m[2].lower() in ("tr", "br") else ""), html)


def _signature(row: str) -> str:
    """A signature row as a ``dt``: its kind, then its signature with the defined name marked as Sphinx marks one."""
    label = _LABEL.search(row)
    body = _LABEL.sub("", row)
    body = _NAME.sub(lambda m: f'<span class="sig-name">{m[0]}</span>', body, count=1)
    kind = f"{label[1]} " if label else ""
    return f"<dt>{kind}{_inline(body).strip()}</dt>"


def _stops(text: str, at: int, tag: str) -> bool:
    """Whether the element ``tag`` opening at ``at`` ends the description before it: a heading, or a box (in
    Scribble's paragraph opener or not)."""
    return bool(_HEADING.fullmatch(tag)) or text.startswith(_BOX, at) or (
        text.startswith(_OPENER, at) and text.startswith(_BOX, at + len(_OPENER)))


class _Ends:
    """Where the description of each box of a page ends (``end``), from one reading of the page's tags."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] = []  # where each tag that is not void starts, in order
        self.levels: list[int] = []  # the level after it: elements opened less those closed, from the page's start
        self.closes: dict[int, list[int]] = {}  # a level after an end tag -> where such end tags start
        self.stops: dict[int, list[int]] = {}  # a level before a heading or a box -> where they start
        level = 0
        for match in _TAG.finditer(text):
            tag = match[2].lower()
            if tag in _VOID:
                continue
            if match[1]:
                level -= 1
                self.closes.setdefault(level, []).append(match.start())
            else:
                if _stops(text, match.start(), tag):
                    self.stops.setdefault(level, []).append(match.start())
                level += 1
            self.starts.append(match.start())
            self.levels.append(level)

    def end(self, at: int, depth: int) -> int:
        """Where the description of a box ending at ``at`` ends: at the next box or heading at the level the entry
        began (``depth`` elements still open since then), or where what holds it closes (an end tag that leaves
        fewer open than at ``at`` less ``depth``). Found by bisection, not by reading on from ``at``: boxes each
        inside the one before's description took quadratic time (2,000 deep: 12 s; review V15)."""
        index = bisect_left(self.starts, at)
        level = self.levels[index - 1] if index else 0
        found = [positions[bisect_left(positions, at)] for positions in (self.closes.get(level - depth - 1, []),
                                                                          self.stops.get(level - depth, []))
                 if bisect_left(positions, at) < len(positions)]
        return min(found, default=len(self.text))


def scribble_definitions(text: str) -> str:
    """``text`` (a page Scribble wrote) with each definition box as a Sphinx object description (see the module)."""
    edits: list[tuple[int, bool, int, int, str]] = []  # (start, a box?, its box's start less, end, replacement)
    start = text.find(_BOX)
    if start < 0:
        return text
    ends = _Ends(text)
    while start >= 0:
        box_end = _close(text, start, "blockquote")
        if box_end < 0:
            break
        table = text[start + len('<blockquote class="SVInsetFlow">'):box_end - len("</blockquote>")]
        rows = _rows(table)
        signatures: list[str] = []
        lines: list[str] = []  # the contracts
        after = False  # the row before was a signature
        for row in rows:
            line = _inline(row).strip()
            if "RForeground" in row:
                signatures.append(_signature(row))
            elif after and unescape(_TAG.sub("", line)).lstrip().startswith("\u2192"):  # its result, on a line below
                signatures[-1] = f"{signatures[-1][:-len('</dt>')]} {line}</dt>"
            elif line:
                lines.append(line)
            after = "RForeground" in row
        if signatures and _NAME.search(table):
            contracts = "<br>".join(lines)
            opened = text.endswith(_OPENER, 0, start)
            begin = start - len(_OPENER) if opened else start
            entry = '<dl class="std rkt-def">' + "".join(signatures) + "<dd>"
            entry += (f"<p>{contracts}</p>" if contracts else "") + (_OPENER if opened else "")
            edits.append((begin, True, -begin, box_end, entry))
            end = ends.end(box_end, 2 if opened else 0)
            edits.append((end, False, -begin, end, "</dd></dl>"))
        start = text.find(_BOX, box_end)
    if not edits:
        return text
    # an entry's end goes before a box that begins where it is; of two ends at one place, the inner entry's first
    edits.sort(key=lambda edit: edit[:3])
    out, at = [], 0
    for begin, _, _, end, replacement in edits:
        out.append(text[at:begin] + replacement)
        at = end
    return "".join(out) + text[at:]
