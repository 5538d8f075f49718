"""PDF: text with positions from pypdfium2 (PDFium), tables from pdfplumber, rendered like HTML.

- **Lines.** PDFium's text of each page, split into the lines it reports, each with its font
  size, weight, fixed pitch and position (of its first visible character).
- **Running headers and footers** are dropped: bare page numbers, lines recurring in the top or
  bottom 10% of the pages, and lines there that carry the printed page number
  (``clew.corpus.ingest.formats.pdf_layout``).
- **Sections.** Where the document has an outline (bookmarks), it is the section tree: every
  bookmark opens a section at its level, at the line of its destination's page that carries its
  title (``clew.corpus.ingest.formats.pdf_outline``), and no other line is a heading. Without an outline,
  from heading-like lines: a line at least 15% larger than the body text (the most used size), or
  bold and 8% larger, is a heading; the larger, the higher (levels by size).
- **Title.** The document's Title metadata, else the first page's largest text (when larger than
  the body text; not text drawn inside a figure, as a logo), else the first bookmark, else the first heading.
- **Blocks.** Lines join into a paragraph until a heading, a gap larger than 1.5 sizes (``pdf_layout.paragraph_gaps``
  where the leading is wider), a change of font size, or a bullet (``•``, ``-``, ``1.``) which starts a list item.
  Runs of fixed-pitch lines (the font's FixedPitch flag, or a typewriter face by name: ``_MONO_FONT``;
  at a line's first character and a quarter, half, three quarters and all the way along) are a
  code block, kept line by line between Markdown's fences (``fences``). A word hyphenated at a line end is
  joined again (``conver-`` + ``sion``), and so is a name broken after an underscore (``R_`` + ``LIBS_USER``); a
  paragraph or a listing (set in one size) that goes on over a page break is one block. A footnote mark reads `` [2]``
  (``pdf_layout.footnote_marks``); a footnote is a paragraph of its own opened by its number, "2 For ..." (a raised
  number PDFium reads as a line of its own joins its note's first line: ``_numbered_notes``), or by its symbol,
  "†For ...", and a paragraph going on over the page break does not join it; texinfo's example
  frame corners (``pdf_layout.FRAME_CORNERS``) and icons
  (``_ICON``) are no text.
- **Tables of contents and indexes.** A line ending in a dot leader and a page number is an
  entry (a list item) and its leader is shortened to `` … ``. A page mostly of such lines is
  a navigation page: the document's field ``navigation_pages`` lists them, and a search ranks
  their passages below the passages they point to (``clew.corpus.search.api``).
- **Tables.** Ruled tables (``pdf_tables``): the horizontal and vertical strokes of a page's paths (read from
  PDFium) go to pdfplumber's table finder as explicit lines, and each cell's text is PDFium's
  text inside the cell (letting pdfplumber parse the page itself, through pdfminer, took
  seven times as long as all the rest). A table of at least two rows and two columns whose
  cells are mostly filled replaces the lines inside its box, its first row as the header; so does
  a box whose columns are drawn by space alone (LaTeX's ``tabular{|ccl|}``: ``pdf_boxes``), and a table without
  box or rules where its columns are certain, their text aligned in three rows or more (``pdf_columns``).
- **Links** into the document (a reference "Section 1", a contents entry: link annotations to a page and a height)
  are links to anchors at their destinations' lines (``pdf_links``); links out are not read.
- **Pages.** Every page's start offset is kept (``ParsedDocument.pages``), so each passage
  knows the pages it spans. Pages without a text layer whose picture shows lines of text are
  reported in one warning with their numbers (scanned; no OCR); a cover or a figure without
  text is not (``pdf_layout.looks_like_text``). A document with no text at all is refused.
- Encrypted (password) and broken files raise :class:`UnreadableDocument` with the reason; so
  does a file past its :class:`ParseBounds`: a page of more objects than ``page_objects``, or a
  parse that outlasts ``seconds`` (checked between pages, lines and drawn paths; inside one PDFium
  call an ingest ends the worker process it parses in: ``clew.corpus.ingest.parse_process``).
"""

from __future__ import annotations

import ctypes
import functools
import re
from dataclasses import replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats import pdf_outline
from clew.corpus.ingest.formats.fences import fenced
from clew.corpus.ingest.formats.pdf_boxes import Grid, PdfTable, ruled_grid
from clew.corpus.ingest.formats.pdf_columns import Spaced, add_spaced, spaced_tables
from clew.corpus.ingest.formats.pdf_hyphens import clean, join_lines, line_pieces, settle_hyphens
from clew.corpus.ingest.formats.pdf_layout import (
    ADMONITION_LABEL,
    FRAME_CORNERS,
    Line,
    Listing,
    body_size,
    code_blank_lines,
    continued_code,
    drop_running_lines,
    footnote_marks,
    indented,
    index_entry,
    indexed_text,
    leader_line,
    looks_like_text,
    mark_inset_headings,
    navigation_pages,
    page_list,
    page_margins,
    paragraph_gaps,
    shorten_leader,
    unwrapped,
)
from clew.corpus.ingest.formats.pdf_links import PageLink, add_links, page_links
from clew.corpus.ingest.formats.pdf_order import drawn_bullets, painted_in_layers, reading_order
from clew.corpus.ingest.formats.pdf_outline import Mark
from clew.corpus.ingest.formats.pdf_tables import ruled_tables
from clew.corpus.ingest.formats.pdf_title import CONTENTS, document_title, text_measure
from clew.corpus.ingest.formats.rendered import Renderer
from clew.corpus.ingest.parsed import Deadline, ParseBounds, ParsedDocument, UnreadableDocument

NAVIGATION_PAGES = "navigation_pages"
"""The document field listing its table-of-contents and index pages (1-based), where it has any."""
HEADING_RATIO = 1.15
BOLD_HEADING_RATIO = 1.08
"""A bold line this much larger than the body text is a heading too (LaTeX's 12 pt over 10.95 pt)."""
_BOLD_FONT = re.compile(r"bold|black|heavy|demi|cmbx")
_MONO_FONT = re.compile(r"courier|mono|cmtt|sftt|ectt|t(?:1x|x)b?tt|typewriter|consol|menlo|inconsolata|sourcecode|"
                        r"andale")
"""Fixed-pitch fonts by name, for PDFs whose font descriptor does not set the FixedPitch flag:
TeX's typewriter faces (``CMTT10``, cm-super's ``SFTT1000``, ``txtt``, newtxtt's ``t1xtt``, ``t1xbtt``: Sphinx's
LaTeX with TeX Gyre, task U21), Courier, ``*Mono``,
Consolas, Menlo, Inconsolata, Source Code Pro, Andale Mono."""
_TEX_TYPEWRITER = re.compile(r"cmtt|cmitt|cmsltt|sftt|ectt|t(?:1x|x)b?tt|lmtt|lmmono")
_TEX_QUOTES = str.maketrans({"\u2018": "`", "\u2019": "'"})
"""TeX's typewriter faces hold the characters typed as `` ` `` and ``'`` in glyphs named quoteleft and quoteright,
which PDFium reads as U+2018 and U+2019: ``plot ’file’ using 1:3`` in gnuplot's manual, OCaml's ``type ’a iid``
(task U9). Typed so they are ``plot 'file' using 1:3``; a curly quote of any other font stays."""
_BULLET = re.compile(r"^(?:[•◦▪‣∙●○■□–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S")
_BULLET_GLYPH = re.compile(r"[•◦▪‣∙●○■□]\s+(?=\S)")
"""A bullet a word processor sets in a symbol font of its own size (LibreOffice's ``●`` in OpenSymbol, 9 pt before
12-pt text, task U16): the line is measured by its last character (its first words may be code: dblatex's
``• latex.encoding=utf8 produces ...``), else each item's first line is a block of its own."""
_PAGE_AT_END = re.compile(r"\D\s+(?:\d{1,4}|[ivxlcdm]{1,7})$", re.IGNORECASE)
"""A line of a navigation page that ends with a page number (``Chapter 10 Writing Flowables 98``): an entry."""
_ICON = re.compile(r"[\ue000-\uf8ff ]+")
"""A line of private-use characters only: an icon font's glyph, Asciidoctor PDF's admonition icons (Font Awesome's
U+F05A, U+F0EB, U+F06A beside a note, a tip, a warning): no text (read as empty paragraphs, task U21)."""
_LINE_CHARACTERS = str.maketrans(
    {"\ufffe": "\xad", "\x02": "\xad"} | dict.fromkeys(map(chr, [1, *range(3, 9), *range(14, 32)])))
"""PDFium marks a hyphen it found at a line end as U+FFFE (older builds U+0002): a soft hyphen. A control character is
a glyph of a TeX font without Unicode (cmex10's brace, a dingbat: old pdfTeX, task S4's sweep): none."""
_FIXED_PITCH = 1
_PAGE_FOOT = re.compile(r"\d{1,3}(?: |$)|[∗*†‡§¶‖]")
"""What a page's last block opens with where the next page's first line does not go on with it: a footnote, opened
by its number or symbol (``_NOTE_NUMBER``; a number read with a space after it), or a number alone (a page number
the running lines left, a note's number). The page's text above them goes on there: a paragraph of its own then,
not the note's (textcase's "which produces" read after its "†Reorganisation ..." note, booktabs' "has been
established ..." after its page number, task L1)."""
_LETTER_HYPHEN = re.compile(r"[^\W\d_]-$")
_NOTE_NUMBER = re.compile(r"(\d{1,3}|([∗*†‡§¶‖])\2?) ?(?=[^\W\d_]|[‘“])")
"""A footnote's number and the note's first letter, which PDFium may read without a space between them: LaTeX's
"2For that reason" (task P1); not a listing's line number ("11 \\fi": dtx). Or its symbol, as LaTeX marks a title's
``\\thanks`` and a ``\\fnsymbol`` note (∗ † ‡ § ¶ ‖, then doubled): "∗This file has version number v2.1" over
"†maintained by Marei Peischl" (everysel's first page, task L1), read as it is."""


def parse_pdf(data: bytes, bounds: ParseBounds | None = None) -> ParsedDocument:
    """Render a PDF into blocks, sections, tables and pages (see the module docstring)."""
    bounds = bounds or ParseBounds()
    deadline = bounds.deadline()
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        message = str(error)
        if "password" in message.lower():
            raise UnreadableDocument("encrypted PDF: a password is needed to read it") from error
        raise UnreadableDocument(f"not a readable PDF ({message.rstrip('.')})") from error
    try:
        return _parse(pdf, bounds.page_objects, deadline)
    finally:
        pdf.close()


def _parse(pdf: pdfium.PdfDocument, page_objects: int, deadline: Deadline) -> ParsedDocument:
    pages: list[list[Line]] = []
    heights: list[float] = []
    pictures: list[int] = []  # pages without text but with images
    grids: dict[int, Grid] = {}  # pages whose strokes may draw a table (pdf_boxes.ruled_grid)
    spaced: dict[int, list[Spaced]] = {}  # tables drawn by space alone (pdf_columns)
    links: dict[int, list[PageLink]] = {}  # links into the document, by the page they stand on (pdf_links)
    layered = painted_in_layers(pdf.get_metadata_dict())
    for index in range(len(pdf)):
        deadline.check(f"page {index + 1}")
        page = pdf[index]
        objects = pdfium_c.FPDFPage_CountObjects(page.raw)
        if objects > page_objects:
            page.close()
            raise UnreadableDocument(f"page {index + 1} holds {objects:,} objects, over the {page_objects:,} limit "
                                     "for one page: not ingested; raise the limit (--max-page-objects)")
        heights.append(page.get_height())
        textpage = page.get_textpage()  # one a page: loading it costs as much as reading its lines
        try:
            lines = _lines(page, textpage, deadline, index, spaced.setdefault(index, []), layered=layered)
            if lines and (found_links := page_links(pdf, textpage, page)):
                links[index] = found_links
        finally:
            textpage.close()
        if lines and (found := ruled_grid(page, heights[-1], deadline, index)) is not None:
            grids[index] = found
        if not lines and _has_images(page):
            pictures.append(index)
        pages.append(lines)
        page.close()
    if not any(pages):
        if pictures:
            raise UnreadableDocument("no text layer on any page (a scanned PDF?); clew does no OCR")
        raise UnreadableDocument("no text on any page")
    scanned = [index + 1 for index in pictures if _scanned(pdf, index)]
    warnings: list[str] = []
    if scanned:
        warnings.append(f"page {scanned[0]}: no text layer (a scanned image?); not OCR'd, nothing ingested from it"
                        if len(scanned) == 1 else f"pages {page_list(scanned)}: no text layer (scanned images?); "
                        "not OCR'd, nothing ingested from them")
    drop_running_lines(pages, heights)
    settle_hyphens(pages)
    tables = ruled_tables(pdf, pages, grids, warnings, deadline)
    body = body_size(pages)
    pages[:] = [_numbered_notes(lines, height, body) for lines, height in zip(pages, heights, strict=True)]
    navigation = set(navigation_pages(pages))
    add_spaced(tables, spaced, navigation, body)
    bookmarks = pdf_outline.entries(pdf, heights)
    outline = pdf_outline.place(bookmarks, pages, body) if any(e.page is not None for e in bookmarks) else {}
    title = document_title(pdf, pages, body, bookmarks[0].title if bookmarks else None)
    renderer = Renderer()
    heading_levels = {} if outline else _heading_levels(pages, body)
    if heading_levels:
        mark_inset_headings(pages, lambda line: line.size in heading_levels and _heading_like(line, body), body)
    gaps = paragraph_gaps(pages, text_measure(pages, body))
    listing, margins = Listing(), page_margins(pages)  # a listing may go on over a page break
    items: list[tuple[float, float]] = []  # the list items' levels open (_item_depth), as a list goes on
    wraps = _wrap_edge(pdf, pages, body)  # Typst's: where its code lines wrap (pdf_layout.unwrapped)
    for index, lines in enumerate(pages):
        deadline.check(f"page {index + 1}")
        renderer.page()
        _render_page(renderer, lines, outline.get(index, []), heading_levels, body, tables.get(index, []),
                     listing=listing, items=items, wraps=wraps, margin=margins[index % 2],
                     navigation=index in navigation,
                     last_page=len(pages), gaps=gaps)
    if not title and (renderer.first_heading or "").casefold() in CONTENTS:  # the next heading: a contents page's no
        title = next((s.heading for s in renderer.sections[1:] if s.heading.casefold() not in CONTENTS), None)
    document = renderer.document(title=title)
    add_links(document, links, pages)
    document.warnings = warnings
    if navigation:
        document.fields[NAVIGATION_PAGES] = sorted(index + 1 for index in navigation)
    return document


def _lines(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, deadline: Deadline, index: int,
           spaced: list[Spaced] | None = None, *, layered: bool = False) -> list[Line]:
    """The page's text lines (``textpage``: its text, open), in PDFium's reading order (top to bottom where
    ``layered``: ``pdf_order``), with the look of their first character; the tables drawn by space alone among them
    go to ``spaced`` where given (``pdf_columns``)."""
    count = textpage.count_chars()
    if count <= 0:
        return []
    text = textpage.get_text_range()
    if len(text) != count:  # characters outside the BMP: no index mapping, read them one by one
        text = indexed_text(textpage, count)
    height = page.get_height()
    # ctypes passes a c_double by reference where PDFium's function takes a pointer: 0.5 us a call, with
    # ctypes.byref 0.85 (the reader makes some 300,000 such calls on gnuplot's manual)
    x, y = ctypes.c_double(), ctypes.c_double()
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    end_x, end_y = ctypes.c_double(), ctypes.c_double()
    lines: list[Line] = []
    marks = footnote_marks(textpage, text, height)  # "setting2": "setting [2]", as the HTML reader reads marks
    for start, raw, aside in line_pieces(textpage, text):
        deadline.check(f"page {index + 1}")
        length = len(raw)
        raw = _typed_quotes(textpage, raw, start)
        if "\ufffe" in raw:  # a line-end hyphen in a fixed-pitch face is the author's (pdf_hyphens)
            raw = "".join("-" if char == "\ufffe" and _font(textpage, start + at)[1] else char
                          for at, char in enumerate(raw))
        shown = raw  # raw's indexes are PDFium's, for the positions below
        for mark in sorted((m - start for m in marks if start <= m < start + length), reverse=True):
            end = marks[mark + start] - start
            shown = f"{shown[:mark]} [{shown[mark:end]}]{shown[end:]}"
        line = " ".join(shown.replace("\x00", "").translate(_LINE_CHARACTERS).split())
        if not line or FRAME_CORNERS.issuperset(line.replace(" ", "")) or _ICON.fullmatch(line):
            continue
        first = start + (length - len(raw.lstrip()))
        last = start + len(raw.rstrip()) - 1
        bullet = _BULLET_GLYPH.match(raw, first - start)  # its text's look, not the bullet's (a symbol font)
        after = first
        if first in marks:  # a line that opens with a footnote's mark (PDFium's break): measured by its text
            after = marks[first] + len(raw[marks[first] - start :]) - len(raw[marks[first] - start :].lstrip())
        first_size = pdfium_c.FPDFText_GetFontSize(textpage.raw, first)
        last_size = pdfium_c.FPDFText_GetFontSize(textpage.raw, last)
        small = first_size < 0.85 * last_size  # a raised number opens it (a footnote's own): measured by its text
        number = _NOTE_NUMBER.match(line) if small and first not in marks else None  # a footnote's, opening it
        if number and number[1].isdigit():  # "2For": "2 For"; a symbol stays as it is ("* For" would be a bullet)
            line = f"{number[1]} {line[number.end():]}"
        look = last if bullet or small else after
        size = last_size if look == last else first_size if look == first else pdfium_c.FPDFText_GetFontSize(
            textpage.raw, look)
        weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, look)
        font, fixed = _font(textpage, look)
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, after, x, y)
        y_after = y.value
        if after != first:
            pdfium_c.FPDFText_GetCharOrigin(textpage.raw, first, x, y)
        pdfium_c.FPDFText_GetCharBox(textpage.raw, last, left, right, bottom, top)
        # a line of prose may begin with a word set in code: the rest of it is prose
        mono = not bullet and fixed and all(_font(textpage, at)[1] for at in
                             {first + (last - first) * k // 4 for k in (1, 2, 3, 4)} - {first}
                             if not text[at].isspace())
        if layered and fixed and not mono:  # measured by its prose: a browser sets code smaller (0.85-0.9 em)
            look = next((at for at in range(look, last + 1) if not text[at].isspace()
                         and not _font(textpage, at)[1]), look)
            size = pdfium_c.FPDFText_GetFontSize(textpage.raw, look)
            weight, font = pdfium_c.FPDFText_GetFontWeight(textpage.raw, look), _font(textpage, look)[0]
        bold = weight >= 500 or bool(_BOLD_FONT.search(font))
        lead = _bold_lead(textpage, raw, start, first, line) if bold else 0
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, last, end_x, end_y)
        lines.append(Line(line, round(size, 1), bold, mono, height - y_after, x.value, right.value, lead,
                          max(height - end_y.value, height - y_after), aside, (first, last),
                          note=number is not None and not mono))
    if layered:  # an HTML engine's code boxes and list markers painted last, its discs drawn (pdf_order)
        lines = reading_order(drawn_bullets(page, lines))
    if lines and _LETTER_HYPHEN.search(lines[-1].text) and not _font(textpage, lines[-1].chars[1])[1]:
        lines[-1].text = lines[-1].text[:-1] + "\xad"  # PDFium marks no hyphen that ends the page (pdf_hyphens)
    for prose, note in zip(lines, lines[1:], strict=False):  # nor one before a margin note on its line
        if note.aside and not prose.mono and _LETTER_HYPHEN.search(prose.text):
            prose.text = prose.text[:-1] + "\xad"
    if spaced is not None:
        spaced.extend(spaced_tables(textpage, lines, height))
    return lines


def _numbered_notes(lines: list[Line], height: float, body: float) -> list[Line]:
    """A footnote's raised number PDFium reads as a line of its own (texinfo's in R's manuals, LaTeX's where the note
    is set apart from it) opens its note's first line: the line after it, to its right and below its baseline by up
    to 0.6 of the note's size, in the page's lower half, smaller than the body text, the number 0.85 of the note's
    size or less (task P1). Not an exponent in a formula ("L" over "1" over "(Ω; Rm)": testmath)."""
    joined: list[Line] = []
    for line in lines:
        number = joined[-1] if joined else None
        if (number is not None and number.text.isdigit() and len(number.text) <= 3 and number.y > height / 2
                and number.size <= 0.85 * line.size and line.size < body and 0 < line.y - number.y <= 0.6 * line.size
                and number.x < line.x <= number.right + line.size and not line.text[0].isdigit()):
            joined[-1] = replace(line, text=f"{number.text} {line.text}", x=number.x, lead=0, note=not line.mono,
                                 chars=(number.chars[0], line.chars[1]))
        else:
            joined.append(line)
    return joined


def _bold_lead(textpage: pdfium.PdfTextPage, raw: str, start: int, first: int, line: str) -> int:
    """The length in ``line`` of the bold run that opens it where text of another weight follows on the line (LaTeX's
    run-in ``\\paragraph`` heading, ``Png If gnuplot was configured ...``: ``pdf_outline`` splits it off), else 0.
    The line may end in bold (gnuplot's "Bins smooth bins is the same as ... see smooth", a bold name set across the
    line's end: task R9)."""

    def bold(at: int) -> bool:
        weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, at)
        return weight >= 500 or bool(_BOLD_FONT.search(_font(textpage, at)[0]))

    last = start + len(raw.rstrip()) - 1
    for at in range(first, min(last, first + 120)):  # a line of bold text (a heading) has none: 0
        if not raw[at - start].isspace() and not bold(at):
            lead = " ".join(raw[first - start : at - start].split())
            return len(lead) if line.startswith(lead) else 0
    return 0


def _typed_quotes(textpage: pdfium.PdfTextPage, raw: str, start: int) -> str:
    """``raw`` (the text from PDFium's character ``start``) with the quotes of TeX's typewriter faces as typed."""
    if "\u2018" not in raw and "\u2019" not in raw:
        return raw
    return "".join(char.translate(_TEX_QUOTES) if char in "\u2018\u2019"
                   and _TEX_TYPEWRITER.search(_font(textpage, start + at)[0]) else char for at, char in enumerate(raw))


def _font(textpage: pdfium.PdfTextPage, index: int) -> tuple[str, bool]:
    """The name (lower-cased) of the font of character ``index``, and whether it is fixed-pitch:
    the font's FixedPitch flag, or a typewriter face by name (``_MONO_FONT``)."""
    name, flags = ctypes.create_string_buffer(FONT_NAME_BYTES), ctypes.c_int()
    length = pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, name, FONT_NAME_BYTES, flags)
    if length > FONT_NAME_BYTES:  # PDFium leaves a buffer too short for the name untouched: ask again
        name = ctypes.create_string_buffer(length)
        pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, name, length, flags)
    return _font_look(name.value, bool(flags.value & _FIXED_PITCH))


FONT_NAME_BYTES = 96
"""The buffer a font's name is first read into (a subset's "ABCDEF+LMMono10-Regular" fits; a longer one is read
again into a buffer of its length)."""


@functools.lru_cache(maxsize=1024)
def _font_look(name: bytes, fixed: bool) -> tuple[str, bool]:
    """A font's name, decoded and lower-cased, and whether it is fixed-pitch: a document has a few fonts and the
    reader asks for one some 27,000 times on gnuplot's manual."""
    font = name.decode("latin-1", "replace").lower()
    return font, fixed or _MONO_FONT.search(font) is not None


def _scanned(pdf: pdfium.PdfDocument, index: int) -> bool:
    page = pdf[index]
    try:
        return looks_like_text(page)
    finally:
        page.close()


def _has_images(page: pdfium.PdfPage) -> bool:
    return any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects(max_depth=2))


def _heading_like(line: Line, body: float) -> bool:
    return bool(body) and len(line.text) <= 150 and not line.mono and (
        line.size >= body * HEADING_RATIO or (line.bold and line.size >= body * BOLD_HEADING_RATIO))


def _heading_levels(pages: list[list[Line]], body: float) -> dict[float, int]:
    """Font size -> heading level for the sizes of heading-like lines: the larger, the higher."""
    sizes = sorted({line.size for lines in pages for line in lines if _heading_like(line, body)}, reverse=True)
    return {size: min(6, rank + 1) for rank, size in enumerate(sizes)}


def _render_page(renderer: Renderer, lines: list[Line], marks: list[Mark], heading_levels: dict[float, int],
                 body: float, tables: list[PdfTable], *, listing: Listing,
                 items: list[tuple[float, float]] | None = None, wraps: float | None = None,
                 margin: float | None = None, navigation: bool = False, last_page: int = 9999,
                 gaps: dict[float, float] | None = None) -> None:
    pending = list(marks)  # the outline's sections opening on this page, in reading order
    paragraph: list[Line] = []
    kind = "paragraph"
    first = True  # the next block is the page's first: it may continue the last page's paragraph
    heading_size: float | None = None  # the size of the heading just written (a heading on two lines)

    asides: list[Line] = []  # margin notes beside the paragraph: after it
    terms = _term_lines(lines)

    def flush() -> None:
        nonlocal paragraph, first
        if paragraph:
            lines = paragraph if kind != "code" or wraps is None else unwrapped(paragraph, wraps)
            _emit(renderer, lines, kind, continues=first, listing=listing, margin=margin,
                  items=[] if items is None else items)
            first = False
        paragraph = []
        for note in asides:
            renderer.emit("paragraph", clean(note.text))
        asides.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        if pending and pending[0].line <= i:
            mark = pending.pop(0)
            flush()
            renderer.heading(mark.heading or mark.title, mark.level)
            first, heading_size = False, None
            if mark.span:
                i += mark.span
                if mark.rest:  # a run-in heading: its line goes on as text
                    i -= 1
                    lines[i] = Line(mark.rest, line.size, False, line.mono, line.y, line.x, line.right)
            continue
        i += 1
        table = next((t for t in tables if t.top - 2 <= line.y <= t.bottom + 2 and t.x0 - 2 <= line.x <= t.x1 + 2),
                     None)
        if table is not None:
            flush()
            if table.rows:
                renderer.table(table.rows, 1, table.title)
                table.rows = []
            first, heading_size = False, None
            continue
        if line.inset or (line.size in heading_levels and _heading_like(line, body)):
            flush()
            if heading_size == line.size and not line.inset:
                renderer.extend(" " + line.text)  # a heading set on two lines
                renderer.sections[-1].heading += " " + line.text
            else:  # an inset one is a man page's subheading (pdf_layout.mark_inset_headings)
                level = min(6, len(heading_levels) + 1) if line.inset else heading_levels[line.size]
                renderer.heading(line.text, level)
                heading_size = None if line.inset else line.size
            first = False
            continue
        heading_size = None
        if line.aside and paragraph:
            asides.append(line)
            continue
        if not line.mono and leader_line(line.text):  # an entry of a table of contents or an index
            line = Line(shorten_leader(line.text), line.size, line.bold, line.mono, line.y, line.x, line.right)
            line_kind = "list_item"
        elif navigation and not line.mono and (_PAGE_AT_END.search(line.text)
                                               or index_entry(line.text, last_page)):  # no leader
            line_kind = "list_item"
        else:
            line_kind = "code" if line.mono else "list_item" if _BULLET.match(line.text) else "paragraph"
        if i - 1 in terms:  # a definition's term on a line of its own: a paragraph of its own (_term_lines)
            flush()
            _emit(renderer, [line], "paragraph", continues=False, listing=listing, margin=margin,
                  items=[] if items is None else items)
            first = False
            continue
        if paragraph:
            last = paragraph[-1]
            limit = max(1.5 * max(last.size, line.size), (gaps or {}).get(line.size, 0.0))  # pdf_layout
            gap = line.y - (last.end or last.y)
            if kind == line_kind == "code" and limit < gap and line.size == last.size and (
                    blanks := 1 if gap <= 2.5 * line.size else code_blank_lines(paragraph, gap)):
                paragraph.extend(Line("", line.size, False, True, line.y, line.x) for _ in range(blanks))
            elif (gap > limit or abs(line.size - last.size) >= 1
                    or line_kind == "list_item" or (line_kind == "code") != (kind == "code")
                    or (line.note and line.size < body)  # a footnote (_numbered_notes)
                    or (kind == "list_item" and line.x < paragraph[0].x - 1)):
                flush()
        if not paragraph:
            kind = line_kind
        paragraph.append(line)
    flush()
    for mark in pending:  # sections that open below the page's last line
        renderer.heading(mark.title, mark.level)
    for table in tables:  # a table whose box held no line of text still goes in, after the page's text
        if table.rows:
            renderer.table(table.rows, 1, table.title)


def _term_lines(lines: list[Line]) -> set[int]:
    """The indexes of the lines that are a definition list's term set in code on a line of its own, its
    description indented under it: Texinfo's ``@table @code`` and ``@vtable`` in pdfTeX (the Bash Reference Manual's
    "HISTCONTROL" at the table's edge, "A colon-separated list ..." 57.6 pt in, task E7). Its first two lines of
    prose both stand two ems or more in from the term, so a paragraph whose first line alone is indented (LaTeX's
    ``\\parindent``) after a line of code leaves that code alone."""
    found: set[int] = set()
    for at, line in enumerate(lines[:-1]):
        before = lines[at - 1] if at else None
        if not line.mono or (before is not None and before.mono and abs(before.x - line.x) < 1
                             and line.y - (before.end or before.y) <= 1.5 * line.size):
            continue  # a line of a code block
        under = [lines[at + 1]]
        if (at + 2 < len(lines) and not lines[at + 2].mono
                and lines[at + 2].y - (under[0].end or under[0].y) <= 1.5 * line.size):
            under.append(lines[at + 2])  # the description's second line, where it has one
        if (under[0].y - (line.end or line.y) <= 1.5 * line.size and abs(under[0].size - line.size) < 1
                and not under[0].aside and not _BULLET.match(under[0].text)
                and all(not prose.mono and prose.x >= line.x + 2 * line.size for prose in under)):
            found.add(at)
    return found


def _wrap_edge(pdf: pdfium.PdfDocument, pages: list[list[Line]], body: float) -> float | None:
    """The rightmost edge of the body text of a PDF Typst made (its Creator), where its code lines wrap; else None."""
    if "typst" not in (pdf.get_metadata_dict().get("Creator") or "").lower():
        return None
    return max((line.right for page in pages for line in page if line.size == body and not line.mono), default=None)


def _item_depth(edges: list[tuple[float, float]], x: float, y: float, size: float) -> int:
    """How deep a list item whose marker stands at ``x`` (from the page's margin), ``y`` down, is in its list:
    ``edges`` holds the left edges of the items open above it, outermost first, each with its last item's ``y``, and
    is updated. Further in than the last by half a size, below it, and by four sizes at most (beyond, another
    column), it opens a level; left of it, it is an item of the level it stands at. Typst's "‣" items under a "•" one
    (U33's book) read as its siblings; now each is indented two spaces a level, as the HTML reader writes a nested
    list. Items side by side on one line (a grammar's "- hex4 - hex4" read as items) are one level."""
    while edges and x < edges[-1][0] - size / 2:
        edges.pop()
    if edges and (x > edges[-1][0] + 4 * size or abs(y - edges[-1][1]) < size / 2):
        edges.clear()
    if not edges or x > edges[-1][0] + size / 2:
        edges.append((x, y))
    edges[-1] = (edges[-1][0], y)
    return len(edges) - 1


def _emit(renderer: Renderer, lines: list[Line], kind: str, *, continues: bool, listing: Listing,
          margin: float | None, items: list[tuple[float, float]]) -> None:
    if kind == "code":
        fence = renderer.tail[renderer.tail.rfind("\n") + 1 :]
        after_code = bool(renderer.blocks) and renderer.blocks[-1].kind == "code"
        if continues and after_code and (texts := continued_code(listing, lines, margin)) is not None:
            code = "\n".join(texts)
            if fenced(code)[1] <= len(fence) + 1:
                renderer.extend(f"\n{code}\n{fence}", drop=len(fence) + 1)  # a listing going on over a page break
                return
        code = "\n".join(indented(lines))
        renderer.emit("code", fenced(code)[0], indivisible=True)  # fenced as Markdown writes code (``fences``)
        listing.start(lines, margin)
        return
    text = lines[0].text
    for line in lines[1:]:
        text = join_lines(text, line.text)
    last = renderer.blocks[-1] if renderer.blocks else None
    tail = renderer.tail
    if (continues and kind == "paragraph" and last is not None and last.kind in ("paragraph", "list_item")
            and not tail.rstrip("\xad").endswith((".", ":", "!", "?")) and text[:1].islower()
            and not _PAGE_FOOT.match(tail)):
        hyphenated = tail.endswith("\xad") or (tail.endswith("-") and len(tail) > 1 and tail[-2].isalpha())
        renderer.extend(clean(text) if hyphenated else " " + clean(text), drop=1 if tail.endswith("\xad") else 0)
        return
    if renderer.blocks and tail.endswith("\xad"):
        renderer.extend("", drop=1)  # a soft hyphen ending the last block: nothing follows it
    text = clean(text)
    if kind == "list_item":
        group = renderer.previous if last is not None and last.kind == "list_item" else ("list", len(renderer.blocks))
        if group != renderer.previous:
            items.clear()
        depth = _item_depth(items, lines[0].x - (margin or 0.0), lines[0].y, lines[0].size)
        renderer.emit("list_item", "  " * depth + text, group=group)
    elif last is not None and last.kind == "paragraph" and ADMONITION_LABEL.fullmatch(tail):
        renderer.extend(" " + text)  # an admonition's label over its text (pdf_layout.ADMONITION_LABEL)
    else:
        renderer.emit("paragraph", text)
