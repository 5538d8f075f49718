"""Files a Sphinx site offers for download (the ``:download:`` role copies each into ``_downloads/<hash>/``) that are
the source of one of its pages: Jupyter Book 1.x's own documentation offers ``_downloads/<hash>/hiding.md``, the
MyST source of ``interactive/hiding.html``, which was ingested as a second copy of that page (task U35); Sphinx's
own offers ``_downloads/<hash>/example_numpy.py``, whose every line ``usage/extensions/example_numpy.html`` shows
(a ``literalinclude``). Such a file is left out as Sphinx's ``_sources/`` copies are (``sources.GENERATED``), in a
line of its own (``left_out.downloads``); a file offered for download that no page of the site is named as (a
``references.bib``, an example script of its own, a data file) is a file a user may want, and is read where its
type is one clew reads."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from clew.corpus.ingest.peek import read_name

DOWNLOADS = "_downloads"
"""The folder Sphinx's ``:download:`` role copies files into, each in a folder named by a hash of its path (Sphinx
1.8 and later; before, directly)."""
SOURCE_SUFFIXES = frozenset({".md", ".markdown", ".myst", ".rst", ".txt", ".ipynb", ".py"})
"""The suffixes of a page's source: Markdown and MyST, reStructuredText, a notebook and a Jupytext or
``literalinclude``'d script. A file of another suffix offered for download (``references.bib``) is not a page's
source, whatever its name."""
_HASH = re.compile(r"[0-9a-f]{32}")


def page_downloads(
    files: list[tuple[Path, str]], taken_back: Callable[[str], bool], is_html: Callable[[Path], bool]
) -> list[str]:
    """The keys of ``files`` (found under one folder) that are a page's source offered for download: a file of a
    ``SOURCE_SUFFIXES`` suffix in ``_downloads/`` or one of its hash folders whose name without that suffix is an
    HTML page's among ``files`` under the folder that holds ``_downloads`` (a gzip file's by the name it is read
    under). A key for which ``taken_back`` is true stays."""
    pages: dict[str, list[str]] = {}  # a page's name without its suffix -> the keys of the pages so named
    for file, key in files:
        if is_html(file) and DOWNLOADS not in PurePosixPath(key).parts[:-1]:
            pages.setdefault(PurePosixPath(read_name(key)).stem, []).append(key)
    out = []
    for _, key in files:
        *folders, name = PurePosixPath(read_name(key)).parts
        if folders and _HASH.fullmatch(folders[-1]) and len(folders) > 1 and folders[-2] == DOWNLOADS:
            site = folders[:-2]
        elif folders and folders[-1] == DOWNLOADS:
            site = folders[:-1]
        else:
            continue
        stem, suffix = PurePosixPath(name).stem, PurePosixPath(name).suffix.lower()
        prefix = "/".join(site) + "/" if site else ""
        if (
            suffix in SOURCE_SUFFIXES
            and any(page.startswith(prefix) for page in pages.get(stem, []))
            and not taken_back(key)
        ):
            out.append(key)
    return out
