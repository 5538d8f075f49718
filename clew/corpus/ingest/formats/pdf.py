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
- **Blocks** (``pdf_blocks``). Lines join into a paragraph until a heading, a gap larger than 1.5 sizes
  (``pdf_layout.paragraph_gaps`` where the leading is wider), a change of font size, or a bullet (``•``, ``-``,
  ``1.``) which starts a list item. A size is the font's times its matrix's scale (``pdf_chars``).
  Runs of fixed-pitch lines (the font's FixedPitch flag, or a typewriter face by name: ``_MONO_FONT``;
  at a line's first character and a quarter, half, three quarters and all the way along) are a
  code block, kept line by line between Markdown's fences (``fences``). A word hyphenated at a line end is
  joined again (``conver-`` + ``sion``), and so is a name broken after an underscore (``R_`` + ``LIBS_USER``); a
  paragraph or a listing (set in one size) that goes on over a page break is one block. A footnote mark reads `` [2]``
  (``pdf_notes.footnote_marks``); a footnote is a paragraph of its own opened by its number, "2 For ..." (a raised
  number PDFium reads as a line of its own joins its note's first line: ``pdf_notes.numbered_notes``), or by its symbol,
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

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats import pdf_blocks, pdf_outline
from clew.corpus.ingest.formats.pdf_boxes import Grid, ruled_grid
from clew.corpus.ingest.formats.pdf_chars import font_size
from clew.corpus.ingest.formats.pdf_columns import Spaced, add_spaced, spaced_tables
from clew.corpus.ingest.formats.pdf_hyphens import line_pieces, settle_hyphens
from clew.corpus.ingest.formats.pdf_layout import (
    FRAME_CORNERS,
    Line,
    Listing,
    body_size,
    drop_running_lines,
    indexed_text,
    looks_like_text,
    mark_inset_headings,
    navigation_pages,
    page_list,
    page_margins,
    paragraph_gaps,
)
from clew.corpus.ingest.formats.pdf_links import PageLink, add_links, page_links
from clew.corpus.ingest.formats.pdf_notes import footnote_marks, numbered_notes
from clew.corpus.ingest.formats.pdf_order import drawn_bullets, painted_in_layers, reading_order
from clew.corpus.ingest.formats.pdf_tables import ruled_tables
from clew.corpus.ingest.formats.pdf_title import CONTENTS, document_title, text_measure
from clew.corpus.ingest.formats.rendered import Renderer
from clew.corpus.ingest.parsed import Deadline, ParseBounds, ParsedDocument, UnreadableDocument

NAVIGATION_PAGES = "navigation_pages"
"""The document field listing its table-of-contents and index pages (1-based), where it has any."""
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
_BULLET_GLYPH = re.compile(r"[•◦▪‣∙●○■□]\s+(?=\S)")
"""A bullet a word processor sets in a symbol font of its own size (LibreOffice's ``●`` in OpenSymbol, 9 pt before
12-pt text, task U16): the line is measured by its last character (its first words may be code: dblatex's
``• latex.encoding=utf8 produces ...``), else each item's first line is a block of its own."""
_ICON = re.compile(r"[\ue000-\uf8ff ]+")
"""A line of private-use characters only: an icon font's glyph, Asciidoctor PDF's admonition icons (Font Awesome's
U+F05A, U+F0EB, U+F06A beside a note, a tip, a warning): no text (read as empty paragraphs, task U21)."""
_LINE_CHARACTERS = str.maketrans(
    {"\ufffe": "\xad", "\x02": "\xad"} | dict.fromkeys(map(chr, [1, *range(3, 9), *range(14, 32)])))
"""PDFium marks a hyphen it found at a line end as U+FFFE (older builds U+0002): a soft hyphen. A control character is
a glyph of a TeX font without Unicode (cmex10's brace, a dingbat: old pdfTeX, task S4's sweep): none."""
_FIXED_PITCH = 1
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
    pages[:] = [numbered_notes(lines, height, body) for lines, height in zip(pages, heights, strict=True)]
    navigation = set(navigation_pages(pages))
    add_spaced(tables, spaced, navigation, body)
    bookmarks = pdf_outline.entries(pdf, heights)
    outline = pdf_outline.place(bookmarks, pages, body) if any(e.page is not None for e in bookmarks) else {}
    title = document_title(pdf, pages, body, bookmarks[0].title if bookmarks else None)
    renderer = Renderer()
    heading_levels = {} if outline else pdf_blocks.heading_levels(pages, body)
    if heading_levels:
        mark_inset_headings(pages, lambda line: line.size in heading_levels and pdf_blocks.heading_like(line, body),
                            body)
    gaps = paragraph_gaps(pages, text_measure(pages, body))
    listing, margins = Listing(), page_margins(pages)  # a listing may go on over a page break
    term = pdf_blocks.TermSections()  # a definition list's term may go on over one too
    items: list[tuple[float, float]] = []  # the list items' levels open (_item_depth), as a list goes on
    wraps = _wrap_edge(pdf, pages, body)  # Typst's: where its code lines wrap (pdf_layout.unwrapped)
    for index, lines in enumerate(pages):
        deadline.check(f"page {index + 1}")
        renderer.page()
        pdf_blocks.render_page(renderer, lines, outline.get(index, []), heading_levels, body, tables.get(index, []),
                     listing=listing, items=items, wraps=wraps, margin=margins[index % 2],
                     navigation=index in navigation,
                     last_page=len(pages), gaps=gaps, term=term)
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
        first_size = font_size(textpage.raw, first)
        last_size = font_size(textpage.raw, last)
        small = first_size < 0.85 * last_size  # a raised number opens it (a footnote's own): measured by its text
        number = _NOTE_NUMBER.match(line) if small and first not in marks else None  # a footnote's, opening it
        if number and number[1].isdigit():  # "2For": "2 For"; a symbol stays as it is ("* For" would be a bullet)
            line = f"{number[1]} {line[number.end():]}"
        look = last if bullet or small else after
        size = last_size if look == last else first_size if look == first else font_size(
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
            size = font_size(textpage.raw, look)
            weight, font = pdfium_c.FPDFText_GetFontWeight(textpage.raw, look), _font(textpage, look)[0]
        bold = weight >= 500 or bool(_BOLD_FONT.search(font))
        lead = _bold_lead(textpage, raw, start, first, line) if bold else 0
        pdfium_c.FPDFText_GetCharOrigin(textpage.raw, last, end_x, end_y)
        lines.append(Line(line, round(size, 1), bold, mono, height - y_after, x.value, right.value, lead,
                          max(height - end_y.value, height - y_after), aside, (first, last),
                          note=number is not None))  # a note in typewriter: pdf_notes.numbered_notes
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


def _wrap_edge(pdf: pdfium.PdfDocument, pages: list[list[Line]], body: float) -> float | None:
    """The rightmost edge of the body text of a PDF Typst made (its Creator), where its code lines wrap; else None."""
    if "typst" not in (pdf.get_metadata_dict().get("Creator") or "").lower():
        return None
    return max((line.right for page in pages for line in page if line.size == body and not line.mono), default=None)
