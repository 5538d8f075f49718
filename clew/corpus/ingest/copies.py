"""A PDF printed from the HTML pages found with it: the same manual twice, so each passage would be
found twice (the Debian Reference ships its 15 HTML pages and the same 261 pages as one PDF beside
them: 1,040 of 5,281 chunks repeated the HTML, and half the hits of five questions were the PDF's
copy; task U7).

A PDF is such a copy when the HTML pages of the nearest folder above it (its own first) that holds
any, below that folder, hold its text: of ``PDF_SAMPLE_PAGES`` pages spread evenly over it, those
with ``PDF_PAGE_PAIRS`` word pairs or more (a cover, a blank or a short copyright page tells
nothing), at least ``PDF_MIN_PAGES``, have ``PDF_COPY_SHARE`` of their word pairs together in those
pages' text and none under ``PDF_PAGE_FLOOR`` (a chapter of its own). A PDF that cannot be read
within a few seconds, or beside more than ``PDF_HTML_BYTES`` of HTML, is kept. Unique text shorter
than the gap between two sampled pages (1/32 of the PDF) can go unseen: the problem line that
reports a copy says how to take it back in (``--exclude '!name.pdf'``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from clew.corpus.ingest.peek import pdf_page_pairs

PDF_PAGE_PAIRS = 40
PDF_COPY_SHARE = 0.8
"""The Debian Reference against its HTML: 0.81-0.99 on every sampled page of text (the contents pages
the lowest), 0.63-0.77 on the 13 contents pages between the PDF's 6th and 21st."""
PDF_PAGE_FLOOR = 0.5
PDF_MIN_PAGES = 3
PDF_HTML_BYTES = 64 * 1024 * 1024
"""HTML read to compare one folder tree's PDFs against (the first 2 MiB of each page)."""


@dataclass(frozen=True, slots=True)
class PdfCopy:
    key: str
    share: float
    """The share of the sampled pages' word pairs found in the HTML pages."""
    pages: int
    """Sampled pages of text."""
    folder: str
    """The folder (a key's prefix, ``""`` for the root) whose HTML pages hold its text."""

    def message(self, ignore_file: str) -> str:
        """The problem line that reports it (``ignore_file``: the name of the file of exclusions)."""
        name, parent = PurePosixPath(self.key).name, PurePosixPath(self.key).parent
        beside = self.folder == ("" if parent == PurePosixPath(".") else parent.as_posix())
        where = "beside it" if beside else f"under {self.folder or 'the folder'}/"
        return (f"the HTML pages {where} hold its text ({self.share:.0%} of the word pairs of {self.pages} of its "
                f"pages read): a copy in another format, ingested once, as those pages; take it in with --exclude "
                f"'!{name}' or a '!{name}' line in {ignore_file}")


Pairs = set[tuple[str, ...]]


def pdf_copies(files: list[tuple[Path, str]], is_html: Callable[[Path], bool],
               html_pairs: Callable[[Path], Pairs]) -> list[PdfCopy]:
    """The PDFs among ``files`` that print the HTML pages among them (see the module docstring);
    ``html_pairs``: an HTML page's word pairs."""
    pdfs = [(file, key) for file, key in files if file.suffix.lower() == ".pdf"]
    pages = [(file, key) for file, key in files if is_html(file)]
    if not pdfs or not pages:
        return []
    trees: dict[str, Pairs | None] = {}  # a folder -> its tree's HTML word pairs (None: too much to read)
    found = []
    for file, key in pdfs:
        folder = _nearest_folder(key, [key for _, key in pages])
        if folder is None:
            continue
        if folder not in trees:
            trees[folder] = _tree_pairs([file for file, key in pages if _below(key, folder)], html_pairs)
        known = trees[folder]
        sampled = pdf_page_pairs(file) if known else None
        if known is None or sampled is None:
            continue
        texts = [pairs for pairs in sampled if len(pairs) >= PDF_PAGE_PAIRS]
        shares = [len(pairs & known) / len(pairs) for pairs in texts]
        total = sum(len(pairs) for pairs in texts)
        share = sum(len(pairs & known) for pairs in texts) / total if total else 0.0
        if len(texts) >= PDF_MIN_PAGES and share >= PDF_COPY_SHARE and min(shares) >= PDF_PAGE_FLOOR:
            found.append(PdfCopy(key, share, len(texts), folder))
    return found


def _below(key: str, folder: str) -> bool:
    return not folder or key.startswith(folder + "/")


def _nearest_folder(key: str, html_keys: list[str]) -> str | None:
    """The nearest folder above ``key`` (its own first) with an HTML page below it."""
    for parent in PurePosixPath(key).parents:
        folder = "" if str(parent) == "." else parent.as_posix()
        if any(_below(other, folder) for other in html_keys):
            return folder
    return None


def _tree_pairs(files: list[Path], html_pairs: Callable[[Path], Pairs]) -> Pairs | None:
    read = 0
    pairs: Pairs = set()
    for file in files:
        try:
            read += min(file.stat().st_size, 2 * 1024 * 1024)
        except OSError:
            continue
        if read > PDF_HTML_BYTES:
            return None
        pairs |= html_pairs(file)
    return pairs
