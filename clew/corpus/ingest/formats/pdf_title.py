"""PDF: the document's title (``document_title``) and the width of its text block (``text_measure``)."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_layout import Line, man_name
from clew.corpus.ingest.formats.pdf_outline import alnum

CONTENTS = frozenset({"contents", "table of contents"})
"""A contents page's heading, no title: wkhtmltopdf on unpatched Qt writes no Title, and a site's print page opens
with its table of contents (Griffe's, task U28)."""


def document_title(pdf: pdfium.PdfDocument, pages: list[list[Line]], body: float, bookmark: str | None) -> str | None:
    """The Title metadata, else the first page's largest line (larger than the body text) with the lines of its size
    and weight right under it that continue it, else the first bookmark. A line continues the one above on its left
    edge (a wrapped title: asymptote.pdf's "Asymptote: the Vector Graphics" / "Language"), or on its right edge or
    centre where the line above fills 0.6 of the text block or more (:func:`text_measure`), so that it wrapped: Erlang's
    "System Architecture Support Libraries" / "(SASL)", 0.80 of it (task R7); camlidl's centred "Camlidl user's
    manual", 0.33 of it, is a short title over a version line, "Version 1.04", not joined.
    A contents page's heading (``CONTENTS``) and text drawn in a figure (:func:`_figure_text`) are no title:
    asymptote.pdf's logo, the word "symptote" set larger than the title above it, was its title (task R6)."""
    title = " ".join((pdf.get_metadata_dict().get("Title") or "").split())
    if title:
        return title
    if not pages or not pages[0]:
        return bookmark
    if (name := man_name(pages[0])) is not None:
        return name
    figure = _figure_text(pdf)
    named = [line for line in pages[0] if len(alnum(line.text)) >= 3 and alnum(line.text) not in figure
             and line.text.casefold() not in CONTENTS]
    largest = max((line.size for line in named), default=0.0)
    if largest <= body:
        return bookmark
    first = next(index for index, line in enumerate(named) if line.size == largest)
    lines = [named[first]]
    measure = text_measure(pages, body)
    for line in named[first + 1 : first + 3]:  # a title wrapped onto the lines under it
        above = lines[-1]
        if (line.size, line.bold) != (above.size, above.bold) or not (0 < line.y - above.y <= 1.6 * largest):
            break
        if abs(line.x - above.x) > 1 and not (_aligned(line, above) and above.right - above.x >= 0.6 * measure):
            break
        lines.append(line)
    return " ".join(line.text for line in lines)


def _aligned(line: Line, above: Line) -> bool:
    """``line`` is set under ``above`` on the same right edge or the same centre (within 2 pt)."""
    return abs(line.right - above.right) <= 2 or abs(line.x + line.right - above.x - above.right) <= 4


def text_measure(pages: list[list[Line]], body: float) -> float:
    """The width of the text block: from the 5th percentile of the body text's left edges to the 95th of its right
    edges, over the first 20 pages (a margin note or a page number past the block aside)."""
    lines = [line for page in pages[:20] for line in page if line.size == body]
    if not lines:
        return 0.0
    lefts, rights = sorted(line.x for line in lines), sorted(line.right for line in lines)
    return rights[-1 - len(rights) // 20] - lefts[len(lefts) // 20]


def _figure_text(pdf: pdfium.PdfDocument) -> str:
    """The text (``alnum``) that the first page draws inside its figures (form XObjects: an included drawing, a logo
    set as text), where the page has text of its own; else ``""``."""
    page = pdf[0]
    textpage = page.get_textpage()
    try:
        own, drawn = False, []
        for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_TEXT], max_depth=4):
            if obj.level == 0:
                own = True
                continue
            size = pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
            buffer = ctypes.create_string_buffer(size * 2)
            pdfium_c.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)),
                                         size)
            drawn.append(buffer.raw.decode("utf-16-le", errors="ignore"))
        return alnum("".join(drawn)) if own else ""
    finally:
        textpage.close()
        page.close()
