"""Which hyphens PDFium found at line ends are a word's own, and how two lines of a paragraph join (task U16).

PDFium marks a hyphen that ends a line after a letter as a soft hyphen (U+FFFE, read as U+00AD) and joins the two lines,
``luaotfload\\xadblacklist.cnf``; the reader drops a soft hyphen inside a line, so a word hyphenated by the line
breaker reads whole (``con\\xaddensed``: ``condensed``). A hyphen the author typed that happens to end a line was
dropped as well: luaotfload's manual read ``luaotfloadblacklist.cnf`` and ``luaotfloadtool.exe``, Gutenprint's
``--disablestatic`` and ``pre1999``. A soft hyphen is the author's hyphen where

- it is set in a fixed-pitch face (the reader decides this where it knows the font): TeX does not hyphenate its
  typewriter faces, and code is not hyphenated by word processors;
- a digit follows it (``pre-1999``), or a capital after a word that is not all capitals (``LuaTeX-Fonts``): the line
  breaker splits a word between two of its letters, and the rest of a word is not capitalised;
- the document writes the two parts with a hyphen elsewhere, on one line (``luaotfload-blacklist.cnf`` a few lines
  on), and never as one word.

PDFium joins the lines at such a hyphen whatever the next line is: in luaotfload's manual the page number under a
page's last line ("character pro\ufffe16", where page 17 goes on "trusion") and a footnote ("only sup\ufffe8See
http://...") were read as one line with the text above them; a line is cut after a hyphen whose next character is
more than ``FAR`` of the font size above or below it, or smaller (``line_pieces``): the page number is a running line
again, the footnote a paragraph of its own.
"""

from __future__ import annotations

import ctypes
import math
import re
from collections.abc import Iterator

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_chars import font_size
from clew.corpus.ingest.formats.pdf_layout import Line

FAR = 2.0
"""How far below or above a line-end hyphen (in its font sizes) the next character is on another line than the next."""
BACK, AHEAD = 10.0, 3.0
"""A capital set on a word's baseline this many font sizes left of it, or right of it, without a space, opens a
margin note (``line_pieces``)."""
TURN = 0.1
"""An angle (radians) between two runs of a line that makes them text set at different angles (``_turns``)."""
_SPACED = re.compile(r"[A-Z] [A-Z]+")
"""A capital, a space and capitals: where PDFium may read a logo with a mirrored glyph ("X TEEX", ``_logos``); a
capital opens it, so the search skips to the capitals."""
_NOTE = re.compile(r"[A-Z](?<=\S[A-Z])")
"""Where a margin note may open inside a line (``line_pieces`` asks PDFium where the capital is set): at a capital
right after any character but a space (a word's last, without a space, or a line-end hyphen). The capital comes first
in the pattern, so the search skips to the capitals (a look-behind first was tried at every character: 3.5x the
time on gnuplot's manual)."""
_BREAK = re.compile(r"\r\n|\r|\n")
_HYPHEN = re.compile("\ufffe")

_SPLIT = re.compile(r"(?<!\w)(\w+)\xad(?=(\w+))")
_COMPOUND = re.compile(r"(?<!\w)\w+(?:-\w+)+")
_WORD = re.compile(r"\w+")
_LAST = re.compile(r"(?<!\w)(\w+)\xad$")
"""A line's last word before a soft hyphen that ends it (from the word's start only: a search from every letter of a
long word ran each to the line's end, time quadratic in the word)."""
_BROKEN_NAME = re.compile(r"(?:^|[\s(‘'\"`])_*[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?_$")
"""A line that ends in a name and one underscore (not two: ``__CYGWIN__``): texinfo lets pdfTeX break ``@env`` and
``@code`` after an underscore without a hyphen (R's ``R_`` + ``LIBS_USER``), so the next line goes on with the name
where its first word has an underscore too or begins with a capital or a digit (``x86_`` + ``64``), and not where it
is a plain word (R's ``NA_real_`` + ``and``)."""


def settle_hyphens(pages: list[list[Line]]) -> None:
    """Make the soft hyphens in the lines of ``pages`` that are the author's (the module docstring) ``-``; one that
    ends a line (the page's last, or cut by ``line_pieces``) is weighed with the first word of the next line (the next
    page's, running lines dropped) by the document's words only: that line may be a footnote or a page number."""
    lines = [line for page in pages for line in page]
    if not any("\xad" in line.text for line in lines):
        return
    # no pattern below spans two lines: each runs over the lines that hold its hyphen only (gnuplot's manual: the
    # soft hyphens' pattern over 95 of 13,251 lines)
    texts = "\n".join(line.text for line in lines).lower().split("\n")
    pairs: set[str] = set()
    for compound in _COMPOUND.findall("\n".join(text for text in texts if "-" in text)):
        parts = compound.split("-")
        pairs.update(f"{a}-{b}" for a, b in zip(parts, parts[1:], strict=False))
    words: set[str] = set()  # read at the first pair found (a document without one does not need it)

    def own(before: str, after: str, *, near: bool = True) -> bool:
        if near and (after[0].isdigit() or (after[0].isupper() and not before.isupper())):
            return True
        if f"{before}-{after}".lower() not in pairs:
            return False
        if not words:
            words.update(_WORD.findall("\n".join(_SPLIT.sub(" ", text) if "\xad" in text else text
                                                 for text in texts)))
        return (before + after).lower() not in words

    for at, line in enumerate(lines):
        if "\xad" not in line.text:
            continue
        line.text = _SPLIT.sub(lambda m: m.group(1) + ("-" if own(m.group(1), m.group(2)) else "\xad"), line.text)
        before = _LAST.search(line.text)
        following = next((lines[k] for k in range(at + 1, len(lines)) if not lines[k].aside), None)  # past a note
        after = _WORD.match(following.text) if following else None
        if before and after and own(before.group(1), after.group(), near=False):
            line.text = line.text[:-1] + "-"


def line_pieces(textpage: pdfium.PdfTextPage, text: str) -> Iterator[tuple[int, str, bool]]:
    """The lines of ``text`` (a page's, PDFium's indexes), each with the index of its first character and whether it is
    a margin note; a line that PDFium joined at a hyphen (U+FFFE) to a character ``FAR`` away is cut after the hyphen,
    and one joined on its baseline to a note in the margin (a capital right after a word, far left of it or past it:
    luaotfload's "X TEEXNEW in v2.96!", "so youNew in 3.12 – experimental") before the note; a line that runs on from
    upright text into text set at another angle (``_turns``) is cut where it turns; a logo with a mirrored glyph reads
    left to right (``_logos``)."""
    position = 0
    for raw in _BREAK.split(text):
        start = position
        position += len(raw) + (2 if text.startswith("\r\n", position + len(raw)) else 1)
        cuts = [] if "\ufffe" not in raw else [
            (found.end(), False) for found in _HYPHEN.finditer(raw)
            if found.end() < len(raw) and _far(textpage, start + found.start(), start + found.end())]
        cuts += [(found.start(), True) for found in _NOTE.finditer(raw)
                 if _aside(textpage, start + found.start() - 1, start + found.start())]
        cuts += [(at, False) for at in _turns(textpage, raw, start)]
        cut, aside = 0, False
        for at, note in [*sorted(cuts), (len(raw), False)]:  # cut where PDFium's characters say, then read logos
            yield start + cut, _logos(textpage, raw[cut:at], start + cut) if " " in raw else raw[cut:at], aside
            cut, aside = at, note


def _logos(textpage: pdfium.PdfTextPage, raw: str, start: int) -> str:
    """``raw`` with each word that holds a mirrored glyph read in the order its glyphs are set, left to right: TeX's
    XeTeX logo sets a mirrored E, lowered, between the X and the T, and PDFium reads its characters in the order they
    are drawn, with a space it makes up: "X TEEX" (luaotfload's manual, 18 times; task R12), read "XETEX" now, as
    the TeX logo beside it reads "TEX". A made-up space inside the word is written NUL (dropped with the line's other
    NULs), so that ``raw`` keeps PDFium's indexes. Only a capital, a space and capitals (``_SPACED``) is asked about."""
    found = _SPACED.search(raw)
    if found is None:
        return raw
    matrix = pdfium_c.FS_MATRIX()
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    chars = list(raw)
    while found is not None:
        word = range(start + found.start(), start + found.end())
        mirrored = False
        for at in word:
            pdfium_c.FPDFText_GetMatrix(textpage.raw, at, matrix)
            mirrored = mirrored or matrix.a * matrix.d - matrix.b * matrix.c < 0
        if mirrored:
            glyphs = []
            for at in word:
                if raw[at - start] != " ":
                    pdfium_c.FPDFText_GetCharBox(textpage.raw, at, left, right, bottom, top)
                    glyphs.append((left.value, raw[at - start]))
            ordered = "".join(char for _, char in sorted(glyphs)).ljust(len(word), "\x00")
            chars[found.start() : found.end()] = ordered
        found = _SPACED.search(raw, found.end())
    return "".join(chars)


def _turns(textpage: pdfium.PdfTextPage, raw: str, start: int) -> list[int]:
    """Where ``raw`` (a line from PDFium's index ``start``) turns: the first visible character of each run set at
    another angle than the run before it, off its baseline. PDFium joins text set upright and text set turned into
    one line where no line break comes between them: dblatex's running header and a landscape table under it,
    "DocBook to LaTeX Publishing 27 / 127 Column 1 Column 2 ..." (task R12); cut, the header is a running line again.
    Only a line whose first and last visible characters differ in angle is read character by character."""
    first, last = len(raw) - len(raw.lstrip()), len(raw.rstrip()) - 1
    angle = pdfium_c.FPDFText_GetCharAngle
    before = angle(textpage.raw, start + first)
    if last <= first or not turned(before, angle(textpage.raw, start + last)):
        return []
    x, y, later = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    size = font_size(textpage.raw, start + first) or 10.0
    cuts, previous = [], start + first
    for at in range(first + 1, last + 1):
        if raw[at].isspace():
            continue
        its = angle(textpage.raw, start + at)
        if turned(before, its):  # a glyph mirrored on its baseline (TeX's XeTeX logo) is no turn
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, previous, x, y)
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, start + at, x, later)
            if abs(y.value - later.value) > size:
                cuts.append(at)
            before = its
        previous = start + at
    return cuts


def turned(one: float, other: float) -> bool:
    """Whether two of PDFium's character angles (radians, 0 to 2 pi) are ``TURN`` or more apart, the short way round:
    6.27 and 0.01 are both about upright."""
    apart = abs(one - other) % math.tau
    return min(apart, math.tau - apart) >= TURN


def _aside(textpage: pdfium.PdfTextPage, before: int, at: int) -> bool:
    x, y, later_x, later_y = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, before, x, y)
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, at, later_x, later_y)
    size = font_size(textpage.raw, before) or 10.0
    return abs(y.value - later_y.value) < size / 2 and not (
        x.value - BACK * size <= later_x.value <= x.value + AHEAD * size)


def _far(textpage: pdfium.PdfTextPage, hyphen: int, after: int) -> bool:
    x, y, later = ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, hyphen, x, y)
    pdfium_c.FPDFText_GetCharOrigin(textpage.raw, after, x, later)
    size = font_size(textpage.raw, hyphen) or 10.0
    smaller = font_size(textpage.raw, after) < 0.85 * size  # a footnote's mark, its text
    return smaller or abs(y.value - later.value) > FAR * size


def clean(text: str) -> str:
    """Soft hyphens inside a paragraph are dropped; one at its very end waits for a continuation."""
    return text[:-1].replace("\xad", "") + text[-1:] if text else text


def join_lines(text: str, more: str) -> str:
    """Two lines of one paragraph: a word hyphenated across them is joined again."""
    if text.endswith("\xad"):
        return text[:-1] + more
    if text.endswith("-") and len(text) > 1 and text[-2].isalpha() and more[:1].isalnum():
        return text + more  # the author's hyphen at a line end (PDFium marks the line breaker's: above)
    if text.endswith("_") and _BROKEN_NAME.search(text[-200:]) and re.match(r"[A-Z0-9]|\w*_", more):  # a broken name
        return text + more
    if text.endswith("]") and re.match(r"[,;:)]|\.(?:\s|$)", more) and re.search(r" \[\d{1,3}\]$", text):  # PDFium's
        return text + more  # line ends at a raised footnote mark ("required2", ", and"): its punctuation follows it
    return text + " " + more
