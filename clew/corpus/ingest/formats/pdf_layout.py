"""What a PDF page's lines say about the page: running headers and footers, index and
table-of-contents pages, and scanned pages (the layout half of ``clew.corpus.ingest.formats.pdf``).

- **Running headers and footers** are lines in the top or bottom ``MARGIN`` of their page that
  are a bare page number (``12``, ``xiv``, ``Page 3 of 9``); or whose text, digits aside, recurs
  in that band at one height (within ``HEADER_TOLERANCE``, 2 pt) on at least three pages (a heading
  atop two pages and at the foot of a third, in wkhtmltopdf's narrow margins, is none: task U28); or
  that begin or end with the page's printed number where at least three pages print theirs at one
  height (within ``NUMBER_TOLERANCE``, 1 pt) (``Chapter 2: Definitions 4`` on the only page of its
  chapter that has a header: the printed numbers run with the page index); a line's number is the
  one it begins with or the one it ends with (``3. IMPLEMENTATION 5``: section 3, page 5). A bare
  number a little further in (``NUMBER_MARGIN``) is one where three pages print theirs so; a line
  there that begins or ends with its page's number, one where half the pages (three at least) print
  theirs so (Ghostscript's "Artifex Software Inc. www.artifex.com 3", the AMS packages' "2 THE
  AMSBOOKA PACKAGE": 12-13% down a Letter page, task S4; a footnote "17 not NM as we found" at the
  foot of page 17, 16 and 18 on the pages around it, in R's manuals, is none, nor chapters a page
  long); and a bare number there centred on the text where half the pages' numbers run with the
  page index as it does, at any height (the AMS packages number a first page at its foot, the
  others atop; a footnote's number stands at the left). A page's first or last line in the band
  is a running line where half the pages' lines dropped for their text stand at its height (Apache
  FOP heads a page with its section's title: "1.1 Introduction" a page long kept its head, task S4).
  Heights are measured, not rounded (task R18).
- **Index and table-of-contents pages** (``navigation_pages``) hold at least ``LEADER_LINES``
  lines that end in a page number after a dot leader (``PIPESTATUS . . . . 87``, ``3.1 Shell
  Syntax . . . 5``), and such lines are at least ``LEADER_SHARE`` of the page's lines (the
  index's one-letter group headings and its title are the rest); so is the page after one
  whose lines are that share of such lines, however few (the list's last entries). An index set
  by LaTeX's ``theindex`` (Sphinx's) has no leaders: a term, a comma and its page numbers
  (``why3-prove command line option, 65``) is an entry too (``INDEX_ENTRY``).
- **Paragraph gaps** (``paragraph_gaps``): a gap between two lines larger than 1.5 times their size opens a new
  paragraph; where a size's leading is wider than 1.3 sizes (Asciidoctor PDF sets its lines 1.5 sizes apart), larger
  than 1.15 times that leading.
- **Scanned pages**: a page without a text layer whose picture looks like lines of text, told
  from a cover or a figure by rendering it (see :func:`looks_like_text`).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from heapq import heappop, heappush

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

MARGIN = 0.10
"""Share of the page height, at the top and the bottom, where running headers and footers live."""
HEADER_TOLERANCE = 2.0
"""Points two lines' heights may differ by and be at one height, for a running header's text."""
NUMBER_TOLERANCE = 1.0
"""The same for a printed page number (2 pt took a footnote, "1 This is a technical limitation ...", for one in
OpTeX's manual: task R18)."""
NUMBER_MARGIN = 0.15
"""Past ``MARGIN``, up to this share, a line that is a bare number is the page's number where at least three pages
print theirs at its height, running with the page index (luaotfload's manual, LuaTeX: 89% down an A4 page); so is a
page's lowest line further up where it is a bare number (LaTeX's article on A4 paper with letter's text block:
booktabs' at 83%, task R22)."""
LEADER_LINES = 5
LEADER_SHARE = 0.4
_PAGE_NUMBER = re.compile(r"^\W*(?:page\s*)?(?:#|[ivxlcdm]+)(?:\s*(?:of|/)\s*#)?\W*$", re.IGNORECASE)
_EDGE_NUMBERS = (re.compile(r"^(\d{1,4}|[ivxlcdm]{1,7})\b", re.IGNORECASE),
                 re.compile(r"\b(\d{1,4}|[ivxlcdm]{1,7})$", re.IGNORECASE))
_PAGE = r"(?:\d{1,4}|[ivxlcdm]{1,7})"
LEADER = re.compile(rf"(?:\s*\.){{3,}}\s*({_PAGE}(?:\s*[,–-]\s*{_PAGE})*)\s*$|(?:\s?\.){{6,}}\s*$", re.IGNORECASE)
"""A dot leader at a line's end and the page number it leads to: three dots or more before the
number (or numbers: ``8, 86``), six or more where none is on the line (PDFium may put it on the next)."""
INDEX_ENTRY = re.compile(r"([^,]+),\s*(\d{1,4}(?:\s*[,–-]\s*\d{1,4})*)")
"""A back-of-book index's entry as LaTeX's ``theindex`` sets it, without a leader: a term, a comma, its page numbers
(``why3-prove command line option, 65`` under ``--timelimit``: Sphinx's index of Why3's manual, 8 pages read as the
last section's text, task U21); the term holds a letter (``_LETTER``, apart: a letter inside the term's pattern made it
quadratic in a line with no comma after its letters) and no comma; its numbers are pages the document has or code
lines (:data:`CODE_LINES`), not years (task R14: ``Addison-Wesley, 1997`` in a short PDF's bibliography is no entry).
Front matter numbered apart only lowers a printed number below its page's place, so the page count bounds a page's:
Why3's index runs to 163 of 184 pages, gnuplot's to 303 of 311, dblatex's to 124 of 143."""
_LETTER = re.compile(r"[^\W\d_]")
CODE_LINES = 999
"""The largest number an index entry may hold above the document's page count: the doc package's index gives the
code lines where a macro is used (cloze's, 216 lines in 61 pages), a year is above it."""
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


@dataclass(slots=True)
class Line:
    text: str
    size: float
    bold: bool
    mono: bool
    y: float  # distance from the top of the page down to the line's baseline
    x: float
    right: float = 0.0  # the right edge of its last character (0 where not measured)
    lead: int = 0  # the length of a bold run that opens the line with text of another weight after it, else 0
    end: float = 0.0  # the baseline of its last character, from the top (0: y's); below y where PDFium joined two
    # lines at a hyphen (``sys\ufffetem``), so the next line's distance is from the second (task U16)
    aside: bool = False  # a margin note PDFium joined to the line beside it (``pdf_hyphens.line_pieces``)
    chars: tuple[int, int] = (0, -1)  # PDFium's indexes of its first and last visible characters (``pdf_columns``)
    inset: bool = False  # a subheading set between the headings' edge and the text's (``mark_inset_headings``)
    note: bool = False  # opens a footnote, its number then its text (``pdf._lines``): a paragraph of its own


ADMONITION_LABEL = re.compile(r"(?:Note|Notes|Warning|Important|Tip|Hint|Caution|Danger|Attention|See also|Todo):?")
"""An admonition's label set on a line of its own over its text (Sphinx's "Note:" and MkDocs Material's "Important:"
printed by WeasyPrint and wkhtmltopdf, task U28): it opens the paragraph under it, as the HTML reader reads it."""
FRAME_CORNERS = frozenset("\u261b\u271f\u2721\u2720")
"""The corners of texinfo's example frame (``@cartouche``, ``@group`` in R's manuals) as PDFium reads pdfTeX's
circle font: "☛ ✟" above the example, "✡ ✠" below. A line of these alone is no text."""
def indexed_text(textpage: pdfium.PdfTextPage, count: int) -> str:
    """The page's text, one character for each of PDFium's ``count`` character indexes, where ``get_text_range`` gives
    fewer: PDFium counts a character outside the BMP (LuaTeX's emoji in luaotfload's manual, a math letter) as two
    indexes, its UTF-16 surrogates. The character is read at the first and a NUL (dropped from lines, as PDFium's own
    are) stands at the second; a lone surrogate is U+FFFD. Lone surrogates would stop the ingest where its rows are
    written as UTF-8 (task U16)."""
    units = [pdfium_c.FPDFText_GetUnicode(textpage.raw, index) for index in range(count)]
    chars: list[str] = []
    for index, unit in enumerate(units):
        low = units[index + 1] if index + 1 < count else 0
        if 0xD800 <= unit < 0xDC00 and 0xDC00 <= low < 0xE000:
            chars.append(chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)))
        elif 0xDC00 <= unit < 0xE000 and index and 0xD800 <= units[index - 1] < 0xDC00:
            chars.append("\x00")
        else:
            chars.append("\ufffd" if 0xD800 <= unit < 0xE000 else chr(unit))
    return "".join(chars)


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    values = [_ROMAN.get(c) for c in token.lower()]
    if None in values or not values:
        return None
    total = 0
    for value, after in zip(values, [*values[1:], 0]):
        total += -value if after and value < after else value  # type: ignore[operator]
    return total


def _printed_numbers(text: str) -> set[int]:
    """The numbers a header or footer line begins and ends with (arabic or roman)."""
    found = [edge.search(text.strip()) for edge in _EDGE_NUMBERS]
    return {number for match in found if match and (number := _number(match.group(1))) is not None}


def drop_running_lines(pages: list[list[Line]], heights: list[float]) -> None:
    """Remove running headers, footers and page numbers from ``pages`` (see the module docstring)."""
    bands: dict[str, list[tuple[float, int]]] = {}  # a text in the band: its heights, each with its page
    marked: list[list[tuple[int, str]]] = []
    offsets: dict[tuple[bool, int], list[tuple[float, int]]] = {}  # (top half, page index - printed number)
    texts: dict[tuple[bool, int], list[tuple[float, int]]] = {}  # the same for lines with text past the band
    numbers: list[list[int]] = []  # lines past the band, in the wider one, that begin or end with a number
    for index, (lines, height) in enumerate(zip(pages, heights)):
        here = [(i, _key(line.text)) for i, line in enumerate(lines) if _in_band(line, height)]
        lowest = max(range(len(lines)), key=lambda i: lines[i].y, default=-1)
        wide = [i for i, line in enumerate(lines) if not _in_band(line, height) and (
                _in_band(line, height, NUMBER_MARGIN) or (i == lowest and _PAGE_NUMBER.match(_key(line.text))))
                and _printed_numbers(line.text)]
        marked.append(here)
        numbers.append(wide)
        for i, key in here:  # at one height: a heading atop pages is none
            bands.setdefault(key, []).append((lines[i].y, index))
        for i in [*(i for i, _ in here), *wide]:
            bare_or_band = i not in wide or _PAGE_NUMBER.match(_key(lines[i].text))
            for position in _positions(lines[i], height, index):
                (offsets if bare_or_band else texts).setdefault(position, []).append((lines[i].y, index))
    for found in [*bands.values(), *offsets.values(), *texts.values()]:
        found.sort()
    runs: dict[int, set[int]] = {}  # page index - printed number: the pages that print theirs so, at any height
    for (_, offset), found in [*offsets.items(), *texts.items()]:
        runs.setdefault(offset, set()).update(page for _, page in found)
    half = max(3, math.ceil(len(pages) / 2))
    drops: list[set[int]] = []
    heads: list[tuple[float, int]] = []  # the heights of lines dropped for their text, each with its page
    for index, (lines, here) in enumerate(zip(pages, marked)):
        height = heights[index]
        drop = {i for i, key in here if _PAGE_NUMBER.match(key) or _numbered(offsets, lines[i], height, index)
                or _on_three_pages(bands[key], lines[i].y, HEADER_TOLERANCE)}
        for i in numbers[index]:  # a bare number on three pages; a line with text on half of them, or a footnote's
            bare = _PAGE_NUMBER.match(_key(lines[i].text)) is not None  # number on three, a chapter's on two
            numbers_run = bare and _centred(lines, lines[i]) and any(  # at any height: a first page's at its foot
                len(runs.get(index - number, set()) - {index}) >= half for number in _printed_numbers(lines[i].text))
            if numbers_run or (_numbered(offsets, lines[i], height, index) if bare else _numbered(
                    texts, lines[i], height, index, half)):
                drop.add(i)
        drops.append(drop)
        heads.extend((lines[i].y, index) for i, key in here
                     if _on_three_pages(bands[key], lines[i].y, HEADER_TOLERANCE))
    heads.sort()
    for index, ((lines, here), drop) in enumerate(zip(zip(pages, marked), drops)):  # a running head's height
        edges = {min(line.y for line in lines), max(line.y for line in lines)} if lines else set()
        drop |= {i for i, _ in here
                 if lines[i].y in edges and _on_three_pages(heads, lines[i].y, HEADER_TOLERANCE, half)}
        if drop:
            lines[:] = [line for i, line in enumerate(lines) if i not in drop]


def _numbered(offsets: dict[tuple[bool, int], list[tuple[float, int]]], line: Line, height: float, index: int,
              least: int = 3) -> bool:
    """Whether ``line`` begins or ends with its page's printed number where ``least`` pages print theirs at its
    height."""
    return any(_on_three_pages(offsets.get(position, []), line.y, NUMBER_TOLERANCE, least)
               for position in _positions(line, height, index))


def _centred(lines: list[Line], line: Line) -> bool:
    """Whether ``line`` is centred on its page's text (within 5% of its width), as a page number is, not a note's."""
    left, right = min(other.x for other in lines), max(max(other.right, other.x) for other in lines)
    return abs((line.x + max(line.right, line.x)) / 2 - (left + right) / 2) <= 0.05 * (right - left)


def _on_three_pages(found: list[tuple[float, int]], y: float, tolerance: float, least: int = 3) -> bool:
    """Whether ``found`` (heights and their pages, sorted) holds, with ``y``, three pages (``least``) or more at heights
    no more than ``tolerance`` apart. Measured, not rounded: rounded heights on either side of a rounding's boundary
    (691.00 and 690.98 pt, PDFium's float noise) were two heights (review V7, task R18)."""
    near = found[bisect_left(found, (y - tolerance, -1)) : bisect_right(found, (y + tolerance, math.inf))]
    for start, (low, _) in enumerate(near):  # each window [low, low + tolerance] that holds y
        if low > y:
            break
        pages: set[int] = set()
        for height, page in near[start:]:
            if height > low + tolerance:
                break
            pages.add(page)
            if len(pages) >= least:
                return True
    return False


def _in_band(line: Line, height: float, margin: float = MARGIN) -> bool:
    return line.y <= height * margin or line.y >= height * (1 - margin)


def _positions(line: Line, height: float, index: int) -> set[tuple[bool, int]]:
    return {(line.y <= height / 2, index - number) for number in _printed_numbers(line.text)}


def leader_line(text: str) -> bool:
    """Whether a line ends in a dot leader (and the page number it leads to)."""
    return LEADER.search(text) is not None and len(re.sub(r"[\W\d]+", "", LEADER.sub("", text))) > 0


def shorten_leader(text: str) -> str:
    """An entry with its dot leader shortened to an ellipsis: ``PIPESTATUS … 87``."""
    found = LEADER.search(text)
    if found is None:
        return text
    return f"{text[: found.start()].rstrip()} … {found.group(1) or ''}".rstrip()


def index_entry(text: str, last_page: int = 9999) -> bool:
    """Whether a line is an entry of a LaTeX index (:data:`INDEX_ENTRY`) of a document of ``last_page`` pages (its
    numbers from 1 to that or to :data:`CODE_LINES`); most lines end in no digit."""
    found = INDEX_ENTRY.fullmatch(text) if text[-1:].isdigit() else None
    return (found is not None and _LETTER.search(found.group(1)) is not None
            and all(0 < int(number) <= max(last_page, CODE_LINES) for number in re.findall(r"\d+", found.group(2))))


def navigation_pages(pages: list[list[Line]]) -> list[int]:
    """0-based indices of index and table-of-contents pages (see the module docstring)."""
    found: list[int] = []
    for index, lines in enumerate(pages):
        leaders = sum(1 for line in lines if leader_line(line.text) or index_entry(line.text, len(pages)))
        after = bool(found) and found[-1] == index - 1  # the last entries of a list that began on the page before
        if leaders >= (1 if after else LEADER_LINES) and leaders >= LEADER_SHARE * len(lines):
            found.append(index)
    return found


SCAN_SCALE = 0.5
"""Rendering scale for telling a scanned page of text from a picture (36 dpi: a text line is 4-8 pixels)."""
SCAN_TEXT_LINES = 8
"""Bands of ink, each as tall as a line of text, that make a page without a text layer a scanned page."""


def looks_like_text(page: pdfium.PdfPage) -> bool:
    """Whether a page without a text layer shows lines of text (a scan), not a cover or a figure.

    The page is rendered in grey at ``SCAN_SCALE``; its background is the median shade, and a
    dark background (a photograph, a coloured cover) is no page of text. Ink is what is much
    darker than the background; a row of pixels is inked where at least 1% of it is ink. A
    scanned page of text is a stack of inked bands each as tall as a line (2 to 20 pixels here)
    with blank rows between them: at least ``SCAN_TEXT_LINES`` such bands. A cover's title makes
    a few; a picture is one tall band or none.
    """
    import numpy as np  # only for pages without text

    bitmap = page.render(scale=SCAN_SCALE, grayscale=True)
    try:
        pixels = np.asarray(bitmap.to_numpy(), dtype=np.float32)
    finally:
        bitmap.close()
    if pixels.ndim == 3:
        pixels = pixels.mean(axis=2)
    if pixels.size == 0:
        return False
    background = float(np.median(pixels))
    if background < 160:
        return False
    inked = (pixels < background * 0.6).mean(axis=1) >= 0.01
    bands = 0
    run = 0
    for row in [*inked.tolist(), False]:
        if row:
            run += 1
            continue
        if 2 <= run <= 20:
            bands += 1
        run = 0
    return bands >= SCAN_TEXT_LINES


def page_list(numbers: list[int]) -> str:
    """``3, 5-7`` for pages 3, 5, 6 and 7."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def paragraph_gaps(pages: list[list[Line]], measure: float) -> dict[float, float]:
    """The gap between two lines of a size above which the second opens a paragraph, by size, where it is more than
    1.5 times the size (the rule otherwise): 1.15 times the size's leading. The leading is the median gap under a
    line that fills 0.8 of the text block (``measure``: a line that wrapped), of gaps up to 2 sizes; for a size with
    fewer than 5 such gaps, the median of all sizes' gaps (in sizes) times the size, where 5 or more are found.
    Asciidoctor PDF (Prawn) sets its lines 1.503 sizes apart (10.5-pt text 15.78 pt, paragraphs 27.8), just past 1.5:
    every line of its PDFs was a paragraph of its own, sentences cut at each line end (task U21)."""
    found: dict[float, list[float]] = {}
    for page in pages:
        for above, line in zip(page, page[1:], strict=False):
            if line.size != above.size or line.mono or above.mono or above.right - above.x < 0.8 * measure:
                continue
            gap = line.y - (above.end or above.y)
            if 0 < gap <= 2 * line.size:
                found.setdefault(line.size, []).append(gap / line.size)
    pooled = sorted(ratio for ratios in found.values() for ratio in ratios)
    if len(pooled) < 5:
        return {}
    sizes = {line.size for page in pages for line in page}
    gaps = {}
    for size in sizes:
        ratios = sorted(found.get(size, []))
        ratio = ratios[len(ratios) // 2] if len(ratios) >= 5 else pooled[len(pooled) // 2]
        if 1.15 * ratio > 1.5:
            gaps[size] = 1.15 * ratio * size
    return gaps


def man_name(lines: list[Line]) -> str | None:
    """A man page's NAME paragraph ("apt-get - APT package handling utility -- command-line interface"), where the
    first page opens with a heading "NAME" and the paragraph indented under it: groff's PDF of a man page (``groff -man
    -Tpdf``) has no title metadata and no outline, and its headings, 10.9 pt over 10, are the largest lines, so the
    page was titled by its first heading, "NAME" (task U21), as pod2html's pages were before ``html_man``. Looked for
    in the page's first three lines (a running header "APT-MARK(8) APT APT-MARK(8)" may open it)."""
    at = next((index for index, line in enumerate(lines[:3]) if line.text.strip() == "NAME"), None)
    if at is None:
        return None
    name = []
    for line in lines[at + 1 : at + 4]:  # the paragraph: its lines set right of the heading's left edge
        if line.x <= lines[at].x + 1:
            break
        name.append(line.text.strip())
    return " ".join(name) or None


def body_size(pages: list[list[Line]]) -> float:
    """The body text's size: the size most of the characters are set in."""
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def mark_inset_headings(pages: list[list[Line]], heading: Callable[[Line], bool], body: float) -> None:
    """Mark the subheadings set, in the body's size and bold on a line of their own, right of the headings' left edge
    and left of the text's, the text under them on the text's edge: groff's ``.SS`` in a man page's PDF (task R13,
    "Proxy Configuration" at 87 pt between the ``.SH`` headings' 72 and the text's 108). The edges are the ones most
    used: of the headings, and of the lines right under them. An option's or command's name (``.TP``: apt-get's
    ``autoremove``) is bold too but set on the text's edge or right of it, its description further in: no heading.
    Where headings and text share their edge (LaTeX, texinfo) no line is between them."""
    edges: Counter[float] = Counter()
    under: Counter[float] = Counter()
    for lines in pages:
        for above, line in zip(lines, lines[1:], strict=False):
            if heading(above):
                edges[round(above.x)] += 1
                under[round(line.x)] += 1
    if not edges or not under:
        return
    left, text = edges.most_common(1)[0][0], under.most_common(1)[0][0]
    for lines in pages:
        for index, (line, below) in enumerate(zip(lines, lines[1:], strict=False)):
            if (line.bold and not line.lead and not line.mono and abs(line.size - body) < 0.5
                    and left + body <= line.x <= text - body and below.x >= text - 1 and not heading(below)
                    and any(c.isalpha() for c in line.text) and len(line.text) <= 80):
                lines[index] = replace(line, inset=True)


def indented(lines: list[Line]) -> list[str]:
    """A code block's lines, each indented by its left edge's distance from the block's leftmost in characters: the
    median width of a character over its lines (``right - x`` over the text's length). Why3's listings (task U21) lost
    their indentation, ``variant { n - pos }`` under ``let rec bt_queens ...``. A block whose lines stand more than 64
    characters apart is columns, left as it is, as a block no line of which is measured."""
    widths = sorted(_char_widths(lines))
    return _placed(lines, widths[len(widths) // 2] if widths else None, min(line.x for line in lines),
                   max(line.x for line in lines))


def _char_widths(lines: list[Line]) -> list[float]:
    """The width of a character of each measured line of ``lines`` (four characters or more)."""
    return [(line.right - line.x) / len(line.text) for line in lines if line.right > line.x and len(line.text) >= 4]


def _placed(lines: list[Line], width: float | None, left: float, far: float) -> list[str]:
    """``lines``' texts indented from ``left`` by characters of ``width`` (``indented``); as they are where no line
    was measured (``width`` None) or the block's lines (the furthest in at ``far``) stand over 64 characters apart."""
    texts = [line.text.replace("\xad", "-") for line in lines]
    if width is None or round((far - left) / width) > 64:  # columns set apart (luaotfload's file list: 125 characters)
        return texts
    return [" " * round((line.x - left) / width) + text if text else ""
            for line, text in zip(lines, texts, strict=True)]


@dataclass(slots=True)
class Listing:
    """The code block written last, for one going on over a page break: its first page's margin (:func:`page_margins`)
    and what ``indented`` measures of its lines (those of later pages moved to its first page's place), kept as lines
    are added: a listing over many pages re-measured whole at each was quadratic in its lines (400 pages of 60 lines
    2.0 s, review V8)."""

    margin: float | None = None
    lines: int = 0
    size: float = 0.0  # the last line's
    left: float = math.inf  # the leftmost line's edge
    far: float = -math.inf  # the furthest in
    edge: float | None = None  # the leftmost edge of a line with text
    low: list[float] = field(default_factory=list)  # the lower half of the lines' character widths, negated (a heap)
    high: list[float] = field(default_factory=list)  # the upper half (a heap): its least is their median as indented's

    def start(self, lines: list[Line], margin: float | None) -> None:
        """A new listing of ``lines``, on a page of ``margin``."""
        self.margin, self.lines, self.left, self.far, self.edge = margin, 0, math.inf, -math.inf, None
        self.low, self.high = [], []
        self.add(lines)

    def add(self, lines: list[Line]) -> None:
        """``lines`` go on with the listing (moved to its first page's place)."""
        if not lines:
            return
        for width in _char_widths(lines):
            if self.high and width >= self.high[0]:
                heappush(self.high, width)
            else:
                heappush(self.low, -width)
            count = len(self.low) + len(self.high)
            while len(self.high) > count - count // 2:
                heappush(self.low, -heappop(self.high))
            while len(self.high) < count - count // 2:
                heappush(self.high, -heappop(self.low))
        self.lines += len(lines)
        self.size = lines[-1].size
        self.left = min(self.left, min(line.x for line in lines))
        self.far = max(self.far, max(line.x for line in lines))
        edges = [line.x for line in lines if line.text]
        if edges:
            self.edge = min(edges) if self.edge is None else min(self.edge, min(edges))

    def indented(self, lines: list[Line]) -> list[str]:
        """``lines``, the last added, as ``indented`` writes them among all of the listing's."""
        return _placed(lines, self.high[0] if self.high else None, self.left, self.far)


def page_margins(pages: list[list[Line]]) -> tuple[float | None, float | None]:
    """Where prose lines most often begin (rounded to a point) on the document's odd and on its even pages, None where
    none do (three lines at least): a two-sided document's pages stand apart by their margins' difference (Erlang's
    manuals: 14 pt). Counted over the document: a page's own most common edge was an indented figure or a caption."""
    found: tuple[Counter[int], Counter[int]] = (Counter(), Counter())
    for index, lines in enumerate(pages):
        found[index % 2].update(round(line.x) for line in lines if line.text and not line.mono)
    first, second = (counts.most_common(1) for counts in found)
    return (float(first[0][0]) if first and first[0][1] >= 3 else None,
            float(second[0][0]) if second and second[0][1] >= 3 else None)


MARGIN_SHIFT = 36.0
"""Points, the most two-sided pages' margins may differ by (Erlang's manuals: 14 pt); more is no such pair (the
modes of luacomplex's two pages, a short document: 258 pt), and a listing's next page is measured alone."""


def continued_code(listing: Listing, lines: list[Line], margin: float | None) -> list[str] | None:
    """The lines of code opening a page that go on with ``listing`` (which ended the page before), indented from the
    listing's left edge (U28's leftover: from their own page's), where the two pages' margins say how they stand; else
    as their own page has them. None where they are set in another size: another listing (b3c3940 joined any; task
    R18). A left edge does not tell two listings apart: two-sided pages and columns move it."""
    if not listing.lines or not lines or abs(lines[0].size - listing.size) > 0.5:
        return None
    if margin is None or listing.margin is None or abs(margin - listing.margin) > MARGIN_SHIFT:
        return indented(lines)
    shift = margin - listing.margin
    moved = [replace(line, x=line.x - shift, right=line.right - shift if line.right else 0.0) for line in lines]
    left = 0.0 if listing.edge is None else listing.edge
    if min((line.x for line in moved if line.text), default=left) < left - 0.3 * lines[0].size:
        return indented(lines)  # left of the listing's edge (another column): as the page has them
    listing.add(moved)
    return listing.indented(moved)


def code_blank_lines(code: list[Line], gap: float) -> int:
    """The blank lines a gap in a code block holds where it is two or three times the block's own line pitch:
    Typst sets raw text 1.41 sizes apart, so one blank line is 2.8 sizes (Starlette's test client example, U28)."""
    pitch = next((below.y - above.y for above, below in zip(reversed(code[:-1]), reversed(code[1:]), strict=True)
                  if above.text and below.text), 0.0)
    lines = round(gap / pitch) if pitch > 0 else 0
    return lines - 1 if lines in (2, 3) and abs(gap - lines * pitch) <= 0.05 * pitch else 0


def unwrapped(lines: list[Line], edge: float) -> list[Line]:
    """A code block's ``lines`` with each line Typst wrapped joined to the next: Typst breaks a line of raw text that
    does not fit the text's width where ordinary text breaks (at a space, after a ``/``), and goes on at the block's
    left edge, so a line whose next line's first word, after a space, would have gone past ``edge`` (the body text's
    rightmost edge) and whose next line stands at the block's left edge is one line wrapped (U33's book: ``git clone
    ... https://github.com/cincibrainlab/`` over ``SignalFlowEEG_HBCD.git``). Joined with a space, or none after a
    ``/`` or ``-`` (the break after it takes no space)."""
    widths = sorted(_char_widths(lines))
    if not widths:
        return lines
    width, left = widths[len(widths) // 2], min(line.x for line in lines)
    out, tail = [lines[0]], lines[0].right  # the right edge of the last line as set (a wrapped one's last piece)
    for line in lines[1:]:
        last = out[-1]
        word = line.text.split(" ", 1)[0]
        if last.text and word and tail and line.x <= left + width / 2 and tail + width * (len(word) + 1) > edge:
            text = last.text + ("" if last.text.endswith(("/", "-")) else " ") + line.text
            out[-1] = replace(last, text=text, right=last.x + width * len(text))  # measured as one line
        else:
            out.append(line)
        tail = line.right
    return out
