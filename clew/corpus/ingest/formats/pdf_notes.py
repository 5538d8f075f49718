"""PDF: footnotes. A mark in the text ("setting2", "Fonts∗") reads " [2]", " [∗]", as the HTML reader reads a
note's mark (``footnote_marks``); a note's raised number that PDFium reads as a line of its own opens the note's
first line (``numbered_notes``)."""

from __future__ import annotations

import ctypes
import itertools
import re
from dataclasses import replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_chars import font_size
from clew.corpus.ingest.formats.pdf_layout import Line

_RAISED = re.compile(r"\d(?:(?<=[^\s\d]\d)\d{0,2}(?!\d)|(?<=[^\s\d]\r\n\d)\d{0,2}(?=[ \t]+[^\W\d_]))")
"""A number right after a word; or opening a line, after a word and a line break, before a word: PDFium may break
the line at a raised mark (luaotfload's "Live,17 or just leave it" reads "Live," and "17 or just leave it"). A digit
opens the pattern, so the search skips to the digits (look-behinds first were tried at every character, twice: 5x
the time on gnuplot's manual)."""

_NOTE_LINE = re.compile(r"(?m)^[ \t]*(\d{1,3})(?:[ \t]+|\r?\n)?[^\W\d_]{2}")
"""A line that opens with a footnote's number and its text (``footnote_marks``); LuaTeX sets them together: "13The
tool"."""
_SYMBOL = re.compile(r"([∗†‡§¶‖])(?<=\w.)\1?")
"""A footnote's symbol right after a word, once or doubled: LaTeX's ``\\thanks`` and ``\\fnsymbol`` marks (∗ † ‡ § ¶ ‖,
then doubled; "The TX Fonts∗", "David Carlisle†"). The symbol opens the pattern, so the search skips to the symbols."""
_SYMBOL_LINE = re.compile(r"(?m)^[ \t]*(([∗†‡§¶‖])\2?)[ \t]*[^\W\d_]{2}")
"""A line that opens with a footnote's symbol and its text: "∗This file has version number v1.03" (textcase)."""


def footnote_marks(textpage: pdfium.PdfTextPage, text: str, height: float) -> dict[int, int]:
    """Footnote marks of a page, by the index in ``text`` (PDFium's, a character per index) of their first digit or
    symbol, to their end: a number right after a word (or a symbol: ``_SYMBOL``, "Fonts∗" reads "Fonts [∗]", task
    R22), smaller than the character before it (0.85 of its size or less) and raised above its baseline, where a line
    in the bottom third of the page, below it, begins with that number (or is it) in a smaller size than the word's,
    then a word (the note: "setting2" over "2 its binding ..." at the page's foot). Without the note it is no mark:
    R's "σ2", "R2" (exponents; PDFium may give a raised digit a line of its own, which is not its note, and a
    subscript under it the next: "2 ζ = 0")."""
    raw = textpage.raw
    x, y = ctypes.c_double(), ctypes.c_double()

    def at(index: int) -> tuple[float, float]:
        pdfium_c.FPDFText_GetCharOrigin(raw, index, x, y)
        return font_size(raw, index), y.value

    notes: dict[str, list[tuple[int, float, float]]] = {}
    for note in itertools.chain(_NOTE_LINE.finditer(text), _SYMBOL_LINE.finditer(text)):
        notes.setdefault(note.group(1), []).append((note.start(1), *at(note.start(1))))
    marks: dict[int, int] = {}
    for match in itertools.chain(_RAISED.finditer(text), _SYMBOL.finditer(text) if len(notes) else ()):
        if match.group() not in notes:
            continue
        word = match.start() - (3 if text[match.start() - 1] == "\n" else 1)  # the word's last character
        (size, base), (before, below) = at(match.start()), at(word)
        if size <= 0.85 * before and base > below + 1 and any(  # the note, not the mark (PDFium's line of its own)
                index != match.start() and note_size < before and note_base < min(below - before, height / 3)
                for index, note_size, note_base in notes[match.group()]):
            marks[match.start()] = match.end()
    return marks


def numbered_notes(lines: list[Line], height: float, body: float) -> list[Line]:
    """A footnote's raised number PDFium reads as a line of its own (texinfo's in R's manuals, LaTeX's where the note
    is set apart from it) opens its note's first line: the line after it, to its right and below its baseline by up
    to 0.6 of the note's size, in the page's lower half, smaller than the body text, the number 0.85 of the note's
    size or less (task P1). Not an exponent in a formula ("L" over "1" over "(Ω; Rm)": testmath).

    A note is prose even where its text is set in typewriter type (a URL: "1 http://www.latex-project.org/lppl/",
    etoolbox; task R22): a line that opens with a note's number (``note``), raised, smaller than the body text and below
    every line of the body's size, is no code; elsewhere (a listing's small line number on its baseline before code:
    "184 Note that the `*center' options are obsolete", crop) it is no note. Nor are its next lines in typewriter type,
    in its size, right under it (polyglossia's "10 Refer to https://github.com/.../README.md#" over
    "hyphenation-styles")."""
    foot = max((line.y for line in lines if line.size >= body - 0.5 and not line.text.isdigit()),  # a page number's
               default=height / 2)
    joined: list[Line] = []
    typed = False  # the line before is a note in typewriter type made prose, or a line of it: its next line goes on
    for line in lines:
        number = joined[-1] if joined else None
        if (number is not None and number.text.isdigit() and len(number.text) <= 3 and number.y > height / 2
                and number.size <= 0.85 * line.size and line.size < body and 0 < line.y - number.y <= 0.6 * line.size
                and number.x < line.x <= number.right + line.size and not line.text[0].isdigit()):
            joined[-1] = replace(line, text=f"{number.text} {line.text}", x=number.x, lead=0, note=True, mono=False,
                                 chars=(number.chars[0], line.chars[1]))
            typed = line.mono
        elif line.note and line.mono:  # its number raised: the line's first character above its last one's baseline
            raised = (line.end or line.y) - line.y >= 0.2 * line.size
            typed = raised and line.size < body and line.y > foot
            joined.append(replace(line, mono=False) if typed else replace(line, note=False))
        elif (typed and number is not None and line.mono and not line.note and abs(line.size - number.size) < 0.5
                and 0 < line.y - (number.end or number.y) <= 2 * line.size and abs(line.x - number.x) <= 2 * line.size):
            joined.append(replace(line, mono=False))  # the note's next line, in typewriter too (a URL's rest)
        else:
            typed = False
            joined.append(line)
    return joined
