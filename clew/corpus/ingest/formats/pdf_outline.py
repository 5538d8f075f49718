"""A PDF's bookmarks (its outline) placed in its pages' lines: the section tree of a PDF that has one.

Every bookmark opens a section at its level (the outline's depth + 1, at most 6), at the place
its destination points to:

- on the destination's page, the first line at or below the destination's height (where the
  destination has one) that carries the bookmark's title. A line carries a title when it reads
  the same with or without a section number (``3.1 Shell Syntax`` carries ``Shell Syntax``;
  ``Appendix D Indexes`` carries ``Indexes``); or when it and the next lines of the same size do
  (a title set on two lines; a bookmark's underscores may be spaces on the page, as gnuplot's "Using_examples" over
  "Using examples", 21 of its sections: task U9); or, for a bold or larger line, when it begins with the title (a
  run-in heading: ``Literals. Integer literals ...``; the rest of the line stays text), or when its
  opening bold run, with text of another weight after it, is the title (LaTeX's ``\\paragraph``: ``Png If
  gnuplot ...`` in gnuplot's manual, 67 of its 649 sections, read "Png" twice; task U9), or begins with the title
  and a bold name (``Timecolumn timecolumn(N, ...) reads ...``). A whole
  line is preferred to a joined one, and that to a run-in one;
- where no line carries it, the section opens at the destination's height (the first line at or
  below it; without a height, the top of the page), with the bookmark's title as its heading; where that is
  below the page's last line and one of the next page's first lines carries the title, there (hyperref's anchor
  set before a page break: luaotfload's "2.13 New in version 3.11" at the foot of page 5, its heading atop page 6,
  read as a heading with nothing under it and then its title again as a paragraph);
- a bookmark without a destination opens where the next bookmark that has one does, just before
  it (an outline's group entry: ``Basics`` over ``Helper``); one pointing back to an earlier page
  than the bookmark before it opens where that one did, so that sections stay in reading order.

Text between two bookmarks belongs to the first.
"""

from __future__ import annotations

import ctypes
import functools
import re
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_layout import Line, leader_line

MAX_DEPTH = 32
"""Outline levels read; levels deeper than 6 become sections of level 6."""
SLACK = 6.0
"""Points above a destination's height that its heading's baseline may sit (rounding, ascenders)."""
AHEAD = 3
"""A destination below its page's last line whose title no line of the page carries opens at the next page's heading
that carries it among its first ``AHEAD`` lines (LaTeX set the anchor before the page break: task U16)."""
_RUN_IN = re.compile(r"\s*[.:—–]\s+(?=\S)")
"""What ends a run-in heading before its text goes on (``Literals. Integer literals ...``)."""
_NUMBERING = re.compile(
    r"^(?:(?:chapter|appendix|section|part)\s+)?(?:\d+|[a-z]|[ivxlc]+)(?:[.-]\d+)*[.:]?\s+(?=\w)", re.IGNORECASE)


@dataclass(slots=True)
class Entry:
    """One bookmark: its title, section level (1-6), page index and the height its destination points at."""

    title: str
    level: int
    page: int | None
    top: float | None
    """Distance from the top of the page down to the destination; None where it names no height."""


@dataclass(slots=True)
class Mark:
    """A bookmark placed on its page: it opens a section before the page's line ``line``."""

    title: str
    level: int
    line: int
    span: int = 0
    """Lines that carry the title (0: none does; the title is written as the heading)."""
    heading: str = ""
    """The carrying lines' text that makes the heading (``3.1 Shell Syntax``)."""
    rest: str = ""
    """A run-in heading's last line after the title: the text that goes on."""


def entries(pdf: pdfium.PdfDocument, heights: list[float]) -> list[Entry]:
    """The outline's bookmarks in order, untitled ones left out (an unreadable outline reads as none)."""
    try:
        bookmarks = list(pdf.get_toc(max_depth=MAX_DEPTH))
    except pdfium.PdfiumError:
        return []
    found: list[Entry] = []
    for bookmark in bookmarks:
        title = " ".join((bookmark.get_title() or "").split())
        if not title:
            continue
        destination = bookmark.get_dest()
        index = destination.get_index() if destination is not None else None
        if index is None or not 0 <= index < len(heights):
            found.append(Entry(title, min(6, bookmark.level + 1), None, None))
            continue
        found.append(Entry(title, min(6, bookmark.level + 1), index, destination_top(destination, heights[index])))
    return found


def destination_top(destination: pdfium.PdfDest, height: float) -> float | None:
    """How far below the top of its page (``height`` high) a destination points; None where it names no height."""
    mode, view = destination.get_view()
    top: float | None = None
    if mode == pdfium_c.PDFDEST_VIEW_XYZ:
        has_x, has_y, has_zoom = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        x, y, zoom = ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        if pdfium_c.FPDFDest_GetLocationInPage(destination.raw, has_x, has_y, has_zoom, x, y, zoom) and has_y.value:
            top = y.value
    elif mode in (pdfium_c.PDFDEST_VIEW_FITH, pdfium_c.PDFDEST_VIEW_FITBH) and view:
        top = view[0]
    elif mode == pdfium_c.PDFDEST_VIEW_FITR and len(view) == 4:
        top = view[3]
    if top is None or not 0 <= top <= height + 1:
        return None
    return height - top


def place(found: list[Entry], pages: list[list[Line]], body: float) -> dict[int, list[Mark]]:
    """Page index -> the bookmarks that open sections on it, in reading order (see the module docstring)."""
    marks: dict[int, list[Mark]] = {}
    page, low = 0, 0  # no section may open before line ``low`` of ``page``
    waiting: list[Entry] = []
    for entry in found:
        if entry.page is None:
            waiting.append(entry)
            continue
        if entry.page < page:
            mark = Mark(entry.title, entry.level, low)
        else:
            if entry.page > page:
                page, low = entry.page, 0
            mark = _find(pages[page], entry, low, body)
            if not mark.span and mark.line >= len(pages[page]) and page + 1 < len(pages):
                ahead = _find(pages[page + 1], Entry(entry.title, entry.level, page + 1, None), 0, body)
                if ahead.span and ahead.line < AHEAD:  # the heading heads the next page
                    page, low, mark = page + 1, 0, ahead
        mark = _labelled(pages[page], mark, low)
        here = marks.setdefault(page, [])
        here.extend(Mark(w.title, w.level, mark.line) for w in waiting)
        waiting = []
        here.append(mark)
        low = mark.line + mark.span
    if waiting and pages:
        last = len(pages) - 1
        marks.setdefault(last, []).extend(Mark(w.title, w.level, len(pages[last])) for w in waiting)
    return marks


def _find(lines: list[Line], entry: Entry, low: int, body: float) -> Mark:
    candidates: list[tuple[int, int, Mark]] = []
    top = entry.top
    for i in range(low, len(lines)):
        carried = _carries(lines, i, entry, body)
        if carried is None:
            continue
        if carried[0] == 0 and (top is None or lines[i].y >= top - SLACK):
            return carried[1]  # the first whole line below the destination: nothing can be better
        candidates.append((carried[0], i, carried[1]))
    if candidates:
        below = [c for c in candidates if top is None or lines[c[1]].y >= top - SLACK]
        return min(below or candidates, key=lambda c: (c[0], c[1]))[2]
    if top is None:
        return Mark(entry.title, entry.level, low)
    line = next((i for i in range(low, len(lines)) if lines[i].y >= top - SLACK), len(lines))
    return Mark(entry.title, entry.level, line)


_LABELS = frozenset({"chapter", "appendix", "part"})
_UNITS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORDS = {word: n for n, word in enumerate(_UNITS, 1)} | {
    f"{ten}{sep}{unit}".strip("- "): 10 * n + u for n, ten in enumerate(_TENS, 2)
    for u, unit in enumerate(["", *_UNITS[:9]]) for sep in ("-", " ")}


def _chapter_number(text: str) -> str | None:
    """A chapter's number as a label sets it apart: "1", "A", "IV", or spelled ("ONE", "TWENTY-ONE": Sphinx's LaTeX)."""
    word = text.strip().lower()
    if word in _WORDS:
        return str(_WORDS[word])
    if word.isdigit() or (len(word) == 1 and word.isalpha()) or (word and set(word) <= set("ivxlc")):
        return text.strip()
    return None


def _labelled(lines: list[Line], mark: Mark, low: int) -> Mark:
    """A chapter heading whose label and number stand on lines of their own over its title (Sphinx's LaTeX: "CHAPTER"
    over "ONE" over "FOREWORD", task R13) read as one heading, the number before the title ("1 Foreword", as its
    sections read "1.1 Availability"; "Appendix A ...", "Part II ..." keep their label: dblatex's, LaTeX's part);
    the title in the bookmark's own case where the page sets it in capitals. The label's lines opened the section
    before it, two paragraphs left at the end of the chapter before. A title in capitals without a label takes its
    bookmark's case too (Why3's "BIBLIOGRAPHY": "Bibliography")."""
    if mark.span != 1 or mark.rest:
        return mark
    printed = mark.heading or mark.title
    title = mark.title if printed.isupper() and alnum(printed) == alnum(mark.title) else printed
    for start in range(mark.line - 1, max(low, mark.line - 2) - 1, -1):  # "CHAPTER ONE", or "CHAPTER" over "ONE"
        words = " ".join(line.text for line in lines[start : mark.line]).split()
        if len(words) >= 2 and words[0].lower() in _LABELS and (number := _chapter_number(" ".join(words[1:]))):
            label = "" if words[0].lower() == "chapter" else words[0].capitalize() + " "  # "Appendix A", "Part II"
            return Mark(mark.title, mark.level, start, mark.span + mark.line - start, f"{label}{number} {title}")
    return Mark(mark.title, mark.level, mark.line, mark.span, title) if title != printed else mark


def alnum(text: str) -> str:
    return re.sub(r"\W+", "", text.lower())


@functools.lru_cache(maxsize=4096)
def _forms(text: str) -> frozenset[str]:
    """A title's letters and digits, with and without its section number (a page's lines are
    compared with each of its bookmarks: computed once per line)."""
    return frozenset(form for form in (alnum(text), alnum(_NUMBERING.sub("", text, count=1))) if form)


@functools.lru_cache(maxsize=4096)
def _leader(text: str) -> bool:
    return leader_line(text)


def _carries(lines: list[Line], i: int, entry: Entry, body: float) -> tuple[int, Mark] | None:
    """Whether line ``i`` carries the bookmark's title: (0 whole, 1 joined, 2 run-in, the mark)."""
    line = lines[i]
    forms = _forms(line.text)
    if not forms or _leader(line.text):  # a table of contents' line names the section; it is not its heading
        return None
    titles = _forms(entry.title) | _forms(entry.title.replace("_", " "))  # gnuplot's "Using_examples": "Using examples"
    if forms & titles:
        return 0, Mark(entry.title, entry.level, i, 1, line.text)
    if any(t.startswith(f) for f in forms for t in titles if len(f) >= 4):
        joined, texts = set(forms), [line.text]
        for k in range(i + 1, min(i + 4, len(lines))):
            more = lines[k]
            if abs(more.size - line.size) >= 0.5 or _leader(more.text):
                break
            joined = {f + alnum(more.text) for f in joined}
            texts.append(more.text)
            if joined & titles:
                return 1, Mark(entry.title, entry.level, i, k - i + 1, " ".join(texts))
            if not any(t.startswith(f) for f in joined for t in titles):
                break
    if line.lead:  # a bold run-in heading, then roman text; or the heading, a bold name, then roman text
        head = line.text[: line.lead]
        end = line.lead if alnum(head) in titles else next(
            (len(t) for t in (entry.title, entry.title.replace("_", " ")) if head.startswith(t + " ")), 0)
        if end:
            return 2, Mark(entry.title, entry.level, i, 1, line.text[:end], line.text[end:].lstrip())
    if line.bold or line.size > body + 0.5:
        for title in (entry.title, _NUMBERING.sub("", entry.title, count=1)):
            for text in (line.text, _NUMBERING.sub("", line.text, count=1)):
                rest = text[len(title):]
                if len(alnum(title)) >= 4 and text.startswith(title) and _RUN_IN.match(rest):
                    prefix = line.text[: len(line.text) - len(text)]
                    return 2, Mark(entry.title, entry.level, i, 1, prefix + title, _RUN_IN.sub("", rest, count=1))
    return None

