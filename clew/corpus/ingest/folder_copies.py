"""A page a mirror saved twice (task U29): ``x.html`` beside ``x/index.html``.

``wget --mirror --adjust-extension`` names a page by the URL a link asks for: a link without its trailing slash
(Hugo's docs link ``/functions/with``, which the server redirects to ``/functions/with/``) is saved as
``functions/with.html``, one with it as ``functions/with/index.html``; both are the same page, their links made
relative from two depths. Hugo 0.111's docs mirrored so held 22 such pairs (538 documents, the build folder 521).
Of a pair whose texts are alike (``COPY_SHARE`` of their word pairs, both ways) the folder's ``index.html`` is kept:
the page the site's URL names. A page beside a folder of its own with other text (an overview ``guide.html`` over
``guide/index.html``) keeps both.

mdBook writes its book's first chapter twice: as the chapter (``what-is-rustc.html``) and as the book's
``index.html``, the same page but for the sidebar's mark on the chapter the reader is at (task E8: every book of
rust-doc 1.63 but Rust by Example, whose first chapter is ``index.html`` itself). Of such a pair, alike as above, the
chapter is kept: the sidebar and the previous/next arrows of every page link to it."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path

from clew.corpus.ingest.peek import read_head

COPY_SHARE = 0.95
"""Two pages are one saved twice when this share of the word pairs of each is in the other (the mirror's pairs: 1.0;
links' targets are no words)."""
INDEX_NAMES = ("index.html", "index.htm")


def folder_copies(files: list[tuple[Path, str]], pairs: Callable[[Path], set[tuple[str, ...]]]
                  ) -> list[tuple[str, str]]:
    """``(copy, page)`` for each ``x.html`` of ``files`` (its key) that is the same page as ``x/index.html``
    (``page``), by ``pairs`` (a file's word pairs)."""
    paths = {key: file for file, key in files}
    found = []
    for key, file in paths.items():
        folder, _, name = key.rpartition("/")
        if name not in INDEX_NAMES or not folder:
            continue
        for suffix in (".html", ".htm"):
            copy = paths.get(folder + suffix)
            if copy is not None and _alike(pairs(copy), pairs(file)):
                found.append((folder + suffix, key))
    return sorted(found)


MDBOOK_MARK = b"<!-- Book generated using mdBook -->"
MDBOOK_HEAD_BYTES = 64 * 1024
"""What is read of a book's ``index.html`` to find the mark (in ``<head>``) and the sidebar's first chapter (The
rustc book's: at byte 1,675)."""
_FIRST_CHAPTER = re.compile(rb'<ol class="chapter">\s*<li class="chapter-item[^"]*">\s*<a href="([^"#?]+)"')


def mdbook_first_chapters(files: list[tuple[Path, str]], pairs: Callable[[Path], set[tuple[str, ...]]]
                          ) -> list[tuple[str, str]]:
    """``(copy, page)`` for each mdBook ``index.html`` of ``files`` (its key) that is the book's first chapter
    (``page``) again, by ``pairs`` (a file's word pairs)."""
    paths = {key: file for file, key in files}
    found = []
    for key, file in paths.items():
        folder, _, name = key.rpartition("/")
        if name != "index.html":
            continue
        try:
            head = read_head(file, MDBOOK_HEAD_BYTES)
        except OSError:
            continue
        first = _FIRST_CHAPTER.search(head) if MDBOOK_MARK in head else None
        if first is None:
            continue
        chapter = posixpath.normpath(posixpath.join(folder, first.group(1).decode("utf-8", "replace")))
        page = paths.get(chapter)
        if chapter != key and page is not None and _alike(pairs(page), pairs(file)):
            found.append((key, chapter))
    return sorted(found)


def _alike(first: set[tuple[str, ...]], second: set[tuple[str, ...]]) -> bool:
    shared = len(first & second)
    return bool(first) and bool(second) and shared >= COPY_SHARE * max(len(first), len(second))
