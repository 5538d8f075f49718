"""A PDF's links into itself (``clew.corpus.ingest.formats.pdf``): a cross-reference ("Section 1", "Figure 3", a
contents entry) is a link annotation whose destination is a page and a height (LaTeX's hyperref, Typst's ``#ref``
and outline, Sphinx's and Asciidoctor PDF's references). Read as text alone, "Section 1" led nowhere: a walk could
not go from the reference to the section (task U33: Quarto's Typst book, "installed SignalFlowEEG (Section 1)").

Each such link is a ``Link`` to an anchor of the document: the link starts at its text (the text inside the link's
box, found on its page of the document's text, the k-th time for the k-th link of that text there); the anchor is
where the destination's line starts (on the destination's page, at or below its height, the first line that opens
with the link's own words, a contents entry's less its leader and page number, else the first line; found on that
page of the text by its first words, past the lines before it that hold them), else the page's start. Links to
other files and to the web are not read.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from itertools import islice

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from clew.corpus.ingest.formats.pdf_layout import Line
from clew.corpus.ingest.formats.pdf_outline import destination_top
from clew.corpus.ingest.parsed import Link, ParsedDocument

SLACK = 1.0
"""Points above a destination's height that its line's baseline may sit (rounding): the line before it ends above it
(Typst's destination is a heading's top, LaTeX's a line above the heading's baseline)."""
WORDS = 6
"""The destination line's first words that find it in the page's text."""
_LEADER = re.compile(r"(?:\s*(?:\.\s*){2,}|\s*…\s*|\s+)\d+$")
"""A contents entry's leader and page number ("1.7 Getting Involved . . . 8")."""


@dataclass(slots=True)
class PageLink:
    """A link annotation of one page to a place in the document: its text and destination (page index, height from
    the page's top; None where it names none)."""

    text: str
    page: int
    top: float | None


def page_links(pdf: pdfium.PdfDocument, textpage: pdfium.PdfTextPage, page: pdfium.PdfPage) -> list[PageLink]:
    """The links of ``page`` (open, ``textpage`` its text) into the document, in the order PDFium lists them."""
    position, link = ctypes.c_int(0), pdfium_c.FPDF_LINK()
    found: list[PageLink] = []
    while pdfium_c.FPDFLink_Enumerate(page.raw, ctypes.byref(position), ctypes.byref(link)):
        destination = pdfium_c.FPDFLink_GetDest(pdf.raw, link)
        if not destination:
            action = pdfium_c.FPDFLink_GetAction(link)
            if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_GOTO:
                continue
            destination = pdfium_c.FPDFAction_GetDest(pdf.raw, action)
        index = pdfium_c.FPDFDest_GetDestPageIndex(pdf.raw, destination) if destination else -1
        rect = pdfium_c.FS_RECTF()
        if not 0 <= index < len(pdf) or not pdfium_c.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            continue
        text = " ".join(textpage.get_text_bounded(rect.left, rect.bottom, rect.right, rect.top).split())
        if text:
            height = pdf.get_page_size(index)[1]
            found.append(PageLink(text, index, destination_top(pdfium.PdfDest(destination, pdf), height)))
    return found


_WORD = re.compile(r"\w+")
_GLUED = re.compile(r"[.,:-]?\w")
"""What may not follow a run's last word: "Section 1" is not the start of "Section 1.1"."""


def _runs(text: str, words: list[str], start: int = 0, end: int | None = None) -> list[int]:
    """Where each run of ``words`` starts in ``text[start:end]``, none overlapping the one before: whole words,
    whatever stands between them. Found from the first word's places, not by a pattern compiled for each link (those
    took a third of the reader's time on a manual with a thousand links: bashref.pdf, an R package's reference)."""
    end = len(text) if end is None else end
    found: list[int] = []
    at = text.find(words[0], start, end) if words else -1
    while at >= 0:
        run = list(islice(_WORD.finditer(text, at, end), len(words)))
        whole = at == 0 or not _WORD.match(text[at - 1])
        if whole and run[0].start() == at and [word[0] for word in run] == words:
            if not _GLUED.match(text, run[-1].end(), end):
                found.append(at)
                at = run[-1].end()
        at = text.find(words[0], at + 1, end)
    return found


def add_links(document: ParsedDocument, links: dict[int, list[PageLink]], pages: list[list[Line]]) -> None:
    """Add the links (by the page they stand on) to ``document`` with an anchor at each destination (above)."""
    starts = [*document.pages, len(document.text)]
    anchors: dict[tuple[int, float | None, str], str] = {}  # a destination without height: one by the link's title
    for index, found in sorted(links.items()):
        seen: dict[str, int] = {}
        for link in found:
            matches = _runs(document.text, _WORD.findall(link.text), starts[index], starts[index + 1])
            nth = seen[link.text] = seen.get(link.text, -1) + 1
            if nth >= len(matches):
                continue
            key = (link.page, link.top, _LEADER.sub("", link.text) if link.top is None else "")
            target = anchors.get(key)
            if target is None:
                target = anchors[key] = f"pdf-page-{link.page + 1}-{len(anchors) + 1}"
                document.anchors[target] = _destination(document.text, starts, pages[link.page], link)
            document.links.append(Link(matches[nth], f"#{target}"))
    document.links.sort(key=lambda item: item.start)


def _destination(text: str, starts: list[int], lines: list[Line], link: PageLink) -> int:
    """Where the destination's line starts in ``text`` (on its page), else the page's start: the first line at or
    below the destination's height that opens with the link's text (a contents entry's, less its leader and page
    number: ReportLab's and Beamer's destinations name no height), else the first line at or below it."""
    start = starts[link.page]
    below = [line for line in lines if link.top is None or line.y >= link.top - SLACK]
    if not below:
        return start
    title = _WORD.findall(_LEADER.sub("", link.text))
    carried = (
        [line for line in below if _runs(line.text.lstrip("#• "), title)[:1] == [0]]
        if len(_LEADER.sub("", link.text).split()) > 1
        else []
    )
    target = carried[0] if carried else min(below, key=_baseline)
    words = _WORD.findall(target.text)[:WORDS]
    if not words:
        return start
    nth = sum(1 for line in lines[: lines.index(target)] if _runs(line.text, words))  # a contents entry above it
    found = _runs(text, words, start, starts[link.page + 1])
    return found[nth] if nth < len(found) else start


def _baseline(line: Line) -> float:
    return line.y
