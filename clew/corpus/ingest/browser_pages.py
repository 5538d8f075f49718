"""Pages a site publishes for browsers rather than readers, left out of an ingest (``clew.corpus.ingest.sources``
calls it for each folder's files): redirect pages, pages marked noindex, all-in-one pages that repeat their folder's
pages, tables of contents of the other pages, a blog-style site's lists of posts and lists of links to its pages,
a Docsify site's sidebar and navbar, a site's not-found page, and GAPDoc's MathJax copies of its chapters."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from clew.corpus.ingest.peek import browser_page, headings, read_head, read_name, word_pairs, words

COMPILATION_SIZE = 0.5
"""An HTML page at least this share of the size of the folder's other HTML pages together may be
an all-in-one page (Node.js's ``all.html``: 5.8 MB beside 7.2 MB of pages)."""
COMPILATION_SHARE = 0.8
"""Such a page is one when this share of its word pairs are in the other pages (``all.html``:
0.99; a long page beside a few short ones: its own text)."""
COMPILATION_MIN_PAGES = 3
COMPILATION_LEAD = 1.25
"""And at least this many times the size of each other page of the folder: it repeats several of them. Three pages
of one size (javadoc's class-use pages of jsoup's examples, 5,120, 5,078 and 5,078 bytes, each "No usage of ..." in
the same navigation) passed the size share, and their shared navigation the word pairs' (task U5)."""
CONTENTS_HEADINGS = 100
CONTENTS_WORDS = 0.3
"""A table of contents of the other pages: at least this many headings (``h1``-``h6``, ``dt``) holding at least this
share of its words (pod2html's ``perltoc.html``, 1.35 MB beside 206 pages: 5,685 headings, 0.46 of its words; the
largest page of each eval set's folders 0.06 at most), ``COMPILATION_SHARE`` of its headings of two words or more
found in the other pages (task R9: it outranked the answer's page)."""
CONTENTS_OVER_TEXT = 0.5
"""And fewer than this share of those headings stand over text of their own (``peek.headings``): a table of contents'
headings are the other pages' headings with nothing under them (``perltoc.html``: 0.20 of them, a ``dt`` over an
empty ``dd``); a class page's are its members, each over its description or where it is defined. Scaladoc's
``Reifier.html``, ``ICodes.html`` and ``PatternMatching$OptimizingMatchTranslator.html`` (more than 100 member
signatures, 0.33-0.38 of their words, which the traits' pages they inherit from repeat) have 0.89-0.94 of their
headings over text, and were left out of scala-doc's 3,518 pages as tables of contents (task F3)."""


LISTING_ENTRIES = 2
"""A page with at least this many hAtom entries (``class="hentry"``) or publication dates (``class="published"``) is
a list of posts (``"listing"``): other pages' articles again, in full or summarised, as Pelican's themes write a site's
``index.html``, ``index2.html``, ``category/*.html`` and ``author/*.html`` (task U25: 17 of pymdown-extensions' 71
pages under Pelican's default theme, one post's words found on four pages). A post's own page has one of each."""
LISTING_MARKS = (b"hentry", b"published")
_CLASS = re.compile(r"""\bclass\s*=\s*(["'])([^"']*+)\1""", re.IGNORECASE)
"""An element's ``class`` attribute and its value (linear: the value ends at the first quote)."""


LINKS_MARKS = (b'id="content"', b"id='content'")
"""A page whose content element (``id="content"``, as Pelican's themes write every page) holds a heading and, below
it, nothing but links to the site's own pages (each perhaps with a count or a date beside it: ``about (9)``) is a
list of links (``"links"``): Pelican's ``archives.html``, ``tags.html``, ``categories.html``, ``authors.html`` and
the ``tag/``, ``category/``, ``author/`` lists of a theme that lists titles only (task R15: 4 of pymdown-extensions'
71 pages under Pelican's default theme, after U25's lists of posts). A page of any text of its own is not one."""
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""Elements whose words are a list's labels: headings, and (``_LinkList.term``) the dates of an archive's ``dt``
over each link."""
_OWN_WORD = re.compile(r"[^\W\d_]{2,}")
"""A word of the page's own (a count, ``(9)``, is not one; a date's month is in a ``dt``)."""


DOCSIFY_NAVIGATION = frozenset({"_sidebar.md", "_navbar.md"})
"""A Docsify site's navigation (``loadSidebar``, ``loadNavbar``): lists of links Docsify shows beside every page and
never as one; left out in a folder of a Docsify site, one at or under a folder whose ``index.html`` loads Docsify
(``DOCSIFY_MARKS``) beside its ``README.md`` (task U24: pino's ``_sidebar.md`` was a document, "Sidebar"; the shell
``index.html``, whose ``<div id="app">`` Docsify fills, is left out too). Elsewhere such a file is a page."""
DOCSIFY_MARKS = (b"$docsify", b"npm/docsify", b"docsify.min.js", b"docsify.js")
"""What a Docsify site's ``index.html`` holds: its ``window.$docsify`` settings, its script (``docsify init``'s
``//cdn.jsdelivr.net/npm/docsify@5``, ``lib/docsify.min.js``)."""
DOCSIFY_READ = 64 * 1024
"""The bytes of an ``index.html`` looked at for ``DOCSIFY_MARKS`` (``docsify init``'s page: 635 bytes)."""


GAPDOC = b'<meta name="generator" content="GAPDoc2HTML"'
"""How a page GAPDoc2HTML wrote names it (GAP's manuals and its packages'), in its first ``GAPDOC_READ`` bytes."""
GAPDOC_READ = 2048
MATHJAX_COPY = "_mj"
"""GAPDoc writes each chapter twice, ``chap21.html`` and ``chap21_mj.html``, the second the same text with its formulas
for MathJax ("[MathJax on]" links one to the other): a copy (``"mathjax"``), left out where the first is found with it
(task S5: gap-doc 4.12's ``ref/``, ``tut/`` and ``hpc/``, 229 pages, each passage found twice). Not the same bytes, so
``same_files`` keeps both."""


NOT_FOUND_NAMES = frozenset({"404.html", "404.htm"})
"""The name of the page a site answers a missing one with, as the generators write it beside the pages (Sphinx's
sphinx-notfound-page and the pallets theme, MkDocs and Material, Docusaurus, VitePress, Starlight, Jekyll, Hugo)."""
NOT_FOUND_OWN_WORDS = 30
"""Such a page is a not-found page (``"notfound"``) when it says so (``_NOT_FOUND``: in its title or text) and holds
at most this many words that another page of its site does not (its bars, sidebar and footer are every page's): the
trials' not-found pages 1-18 ("404" alone: MkDocs, Material, VitePress; "Unfortunately we couldn't find the content
you were looking for.": sphinx-notfound-page; Jekyll's docs' 18). A page of that name with text of its own (a page
on the HTTP status 404) stays: the name alone leaves nothing out (task R17; task U24 left out every ``404.html``)."""
_NOT_FOUND = re.compile(r"\b(?:404|not found|(?:does not|doesn t) exist|(?:could not|couldn t|cannot|can t) (?:be )?"
                        r"find|cannot be found)\b")
"""What a not-found page says, in its words (lower-cased, an apostrophe a space: ``peek.words``)."""
_HREF = re.compile(r"""\bhref\s*+=\s*+["']?+([^"'\s>]*+)""", re.IGNORECASE)
"""A link's target (linear: each part possessive)."""


def drop_browser_pages(files: list[tuple[Path, str]], taken_back: Callable[[str], bool],
                       is_html: Callable[[Path], bool], limit: int
                       ) -> tuple[list[tuple[Path, str]], list[tuple[str, str]]]:
    """``files`` less redirect pages, less the pages marked noindex when some other HTML page
    among them is not, and less all-in-one pages, tables of contents and lists of posts (see
    ``clew.corpus.ingest.sources``' docstring); with ``(key, why)`` of each page left out. A key for which
    ``taken_back`` is true is kept; a page is read up to ``limit`` bytes."""
    marks: dict[str, str | None] = {}
    kinds: dict[str, str | None] = {}  # each HTML page read once, for both (task R17)
    gapdoc: list[str] = []  # the pages GAPDoc2HTML wrote (MATHJAX_COPY)
    for file, key in files:
        data = _read(file, limit) if is_html(file) else None
        marks[key] = None if data is None else browser_page(data)
        kinds[key] = None if data is None else _list_kind(data)
        gapdoc += [key] if data is not None and GAPDOC in data[:GAPDOC_READ] else []
    indexed = any(mark is None and is_html(file) for (file, key), mark in zip(files, marks.values(), strict=True))
    dropped = {key: mark for key, mark in marks.items()
               if mark is not None and (mark == "redirect" or indexed) and not taken_back(key)}
    folders: dict[str, list[tuple[Path, str]]] = {}
    for file, key in files:
        if key not in dropped and is_html(file):
            folders.setdefault(PurePosixPath(key).parent.as_posix(), []).append((file, key))
    for pages in folders.values():  # an all-in-one page repeats the pages of its own folder
        dropped.update((key, why) for key, why in _compilations(pages, limit) if not taken_back(key))
    for key, kind in kinds.items():
        if kind is not None and key not in dropped and not taken_back(key):
            dropped[key] = kind
    dropped.update((key, why) for key, why in _docsify(files) if not taken_back(key))
    dropped.update((key, "notfound") for key in _not_found(files, is_html, limit) + _saved_errors(files)
                   if key not in dropped and not taken_back(key))
    kept = {key for _, key in files} - dropped.keys()
    dropped.update((key, "mathjax") for key in gapdoc if _mathjax_copy_of(key) in kept and not taken_back(key))
    return [entry for entry in files if entry[1] not in dropped], list(dropped.items())


def _mathjax_copy_of(key: str) -> str | None:
    """The key of the page a GAPDoc page ``key`` is the MathJax copy of by its name (``chap21_mj.html`` of
    ``chap21.html``; :data:`MATHJAX_COPY`), else None."""
    path = PurePosixPath(key)
    if not path.stem.endswith(MATHJAX_COPY) or path.stem == MATHJAX_COPY:
        return None
    return path.with_name(path.stem[: -len(MATHJAX_COPY)] + path.suffix).as_posix()


def _compilations(pages: list[tuple[Path, str]], limit: int) -> list[tuple[str, str]]:
    """The keys of the all-in-one pages (``"compilation"``: ``COMPILATION_SIZE``, ``COMPILATION_SHARE``) and tables
    of contents (``"contents"``: ``CONTENTS_HEADINGS``, ``CONTENTS_WORDS``) among ``pages``, with which."""
    if len(pages) < COMPILATION_MIN_PAGES:
        return []
    sizes = {key: _size_of(file) for file, key in pages}
    total = sum(sizes.values())
    leading = [(file, key) for file, key in pages if sizes[key] and all(
        sizes[key] >= COMPILATION_LEAD * other for other_key, other in sizes.items() if other_key != key)]
    candidates: list[tuple[str, str]] = []
    contents: dict[str, list[set[tuple[str, ...]]]] = {}
    for file, key in leading:
        if sizes[key] >= COMPILATION_SIZE * (total - sizes[key]):
            candidates.append((key, "compilation"))
            continue
        page_headings, share, over_text = headings(file, limit, CONTENTS_HEADINGS)
        if len(page_headings) >= CONTENTS_HEADINGS and share >= CONTENTS_WORDS and over_text < CONTENTS_OVER_TEXT:
            contents[key] = page_headings
            candidates.append((key, "contents"))
    if not candidates:
        return []
    pairs = {key: {hash(pair) for pair in word_pairs(file, limit, html_page=True)} for file, key in pages}
    found = []
    for key, why in candidates:
        others = set().union(*(other for other_key, other in pairs.items() if other_key != key))
        if why == "compilation":  # its word pairs in the other pages
            whole, shared = len(pairs[key]), len(pairs[key] & others)
        else:  # its headings' pairs, each heading whole
            hashed = [{hash(pair) for pair in heading} for heading in contents[key]]
            whole, shared = len(hashed), sum(heading <= others for heading in hashed)
        if whole and shared >= COMPILATION_SHARE * whole:
            found.append((key, why))
    return found


def _read(file: Path, limit: int) -> bytes | None:
    """The first ``limit`` bytes of ``file`` (a gzip file's decompressed); None where it cannot be read (reading it
    to ingest reports that)."""
    try:
        return read_head(file, limit)
    except OSError:
        return None


def _list_kind(data: bytes) -> str | None:
    """Whether an HTML page (``data``) is a list of posts (``"listing"``) or of links (``"links"``), or None."""
    return "listing" if _lists_posts(data) else "links" if _lists_links(data) else None


def _lists_posts(data: bytes) -> bool:
    """Whether an HTML page's ``data`` is a list of posts (``LISTING_ENTRIES``). A page that holds neither mark twice
    is not looked at further: every page of Qt's documentation says "as published by the Free Software Foundation"
    once, and decoding each to read its classes was most of the folder's look (task R17)."""
    if all(data.count(mark) < LISTING_ENTRIES for mark in LISTING_MARKS):
        return False
    entries = dates = 0
    for found in _CLASS.finditer(data.decode("utf-8", errors="replace")):
        names = found[2].split()
        entries += "hentry" in names
        dates += "published" in names
        if entries >= LISTING_ENTRIES or dates >= LISTING_ENTRIES:
            return True
    return False


def _lists_links(data: bytes) -> bool:
    """Whether an HTML page's ``data`` is a list of links to its site's pages (``LINKS_MARKS``)."""
    at = min((found for found in map(data.find, LINKS_MARKS) if found >= 0), default=-1)
    if at < 0:
        return False
    reader = _LinkList()  # read from the content element's tag on: the page's head and bars are not looked at
    try:
        reader.feed(data[max(0, data.rfind(b"<", 0, at)):].decode("utf-8", errors="replace"))
        reader.close()
    except _OwnText:
        return False
    return reader.closed and reader.headings > 0 and reader.listed > 0


class _OwnText(Exception):
    """The content element holds text of its own, or a link off the site: not a list of links."""


class _LinkList(HTMLParser):
    """Reads the element ``id="content"`` of a page: its headings, links to the site's pages, and words of its own
    (which end the reading, ``_OwnText``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tag: str | None = None  # the content element's tag, once open
        self.depth = 0  # its nesting in elements of that tag
        self.closed = False
        self.labels = 0  # open headings and links
        self.unread = 0  # open script and style
        self.headings = 0
        self.listed = 0  # links and lists (ul, ol, dl): a list of links holds one (Pelican's empty tags page a list)
        self.term = False  # a dt open: its end tag may be left out (HTML ends it at the next dt or dd, or the dl's end)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.closed:
            return
        if self.tag is None:
            if any(name == "id" and value == "content" for name, value in attrs):
                self.tag, self.depth = tag, 1
            return
        self.depth += tag == self.tag
        if tag in ("dt", "dd"):
            self._end_term()
            self.term = tag == "dt"
            self.labels += self.term
        elif tag in ("script", "style"):
            self.unread += 1
        elif tag in ("ul", "ol", "dl"):
            self.listed += 1
        elif tag in _HEADINGS:
            self.labels += 1
            self.headings += 1
        elif tag == "a":
            target = next((value or "" for name, value in attrs if name == "href"), "")
            if "//" in target or target.startswith(("mailto:", "#")):
                raise _OwnText
            self.labels += 1
            self.listed += 1

    def handle_endtag(self, tag: str) -> None:
        if self.tag is None or self.closed:
            return
        if tag == self.tag:
            self.depth -= 1
            self.closed = self.depth == 0
        elif tag in ("script", "style"):
            self.unread = max(0, self.unread - 1)
        elif tag in ("dt", "dl"):
            self._end_term()
        elif tag in _HEADINGS or tag == "a":
            self.labels = max(0, self.labels - 1)

    def _end_term(self) -> None:
        if self.term:
            self.term, self.labels = False, max(0, self.labels - 1)

    def handle_data(self, data: str) -> None:
        if self.tag is not None and not self.closed and not self.labels and not self.unread \
                and _OWN_WORD.search(data):
            raise _OwnText


def _not_found(files: list[tuple[Path, str]], is_html: Callable[[Path], bool], limit: int) -> list[str]:
    """The keys of ``files`` that are a site's not-found page (``NOT_FOUND_NAMES``, ``NOT_FOUND_OWN_WORDS``), each
    weighed against another HTML page of its site: its folder's ``index.html``, else the first of its folder, else the
    first below it (undici's Docusaurus build: no home page, its pages under ``api/``), else the first of ``files``.
    A page that one links to (``_HREF``) is the site's own (task V7: an HTTP reference's short "404 Not Found", 28
    words its index does not hold, listed on that index); no generator links to its not-found page."""
    pages = [(file, key, PurePosixPath(key).parent) for file, key in files if is_html(file)]
    folders: dict[PurePosixPath, list[tuple[Path, str]]] = {}
    for file, key, folder in pages:  # each page's folder once: a site of 40 versions' 20,080 pages took 10 s
        folders.setdefault(folder, []).append((file, key))
    found = []
    for file, key, folder in pages:
        if read_name(file.name).lower() not in NOT_FOUND_NAMES:
            continue
        own = words(file, limit, html_page=True)
        if not _NOT_FOUND.search(" ".join(own)):
            continue
        near = [other for other, other_key in folders[folder] if other_key != key]
        inside = "" if folder.name == "" else f"{folder.as_posix()}/"
        other = next((page for page in near if page.name == "index.html"), None) or next(iter(near), None) or next(
            (page for page, other_key, _ in pages if other_key != key and other_key.startswith(inside)), None) or next(
            (page for page, other_key, _ in pages if other_key != key), None)
        data = None if other is None else _read(other, limit)
        if data is not None and _links_to(data, file.name):
            continue
        site = set() if other is None else set(words(other, limit, html_page=True))
        if len(set(own) - site) <= NOT_FOUND_OWN_WORDS:
            found.append(key)
    return found


def _links_to(data: bytes, name: str) -> bool:
    """Whether an HTML page's ``data`` holds a link (``href``) to a page of the file name ``name``."""
    name = name.lower()
    return any(target.split("#")[0].split("?")[0].rsplit("/", 1)[-1].lower() == name
               for target in _HREF.findall(data.decode("utf-8", errors="replace")))


def _docsify(files: list[tuple[Path, str]]) -> list[tuple[str, str]]:
    """The keys of ``files`` that are a Docsify site's shell (``"shell"``: an ``index.html`` beside a ``README.md``,
    the site's home page, that loads Docsify: the page Docsify fills with the Markdown, whose own text is at most
    "Loading ...") and navigation (``"navigation"``: ``DOCSIFY_NAVIGATION`` at or under a shell's folder)."""
    homes = {PurePosixPath(key).parent.as_posix() for file, key in files if file.name == "README.md"}
    shells = [key for file, key in files
              if file.name == "index.html" and PurePosixPath(key).parent.as_posix() in homes and _loads_docsify(file)]
    if not shells:
        return []
    sites = [PurePosixPath(key).parent.as_posix() for key in shells]
    navigation = [key for file, key in files if file.name in DOCSIFY_NAVIGATION and any(
        site == "." or (PurePosixPath(key).parent.as_posix() + "/").startswith(site + "/") for site in sites)]
    return [(key, "shell") for key in shells] + [(key, "navigation") for key in navigation]


def _loads_docsify(file: Path) -> bool:
    try:
        with file.open("rb") as handle:
            head = handle.read(DOCSIFY_READ)
    except OSError:
        return False
    return any(mark in head for mark in DOCSIFY_MARKS)


def _size_of(file: Path) -> int:
    try:
        return file.stat().st_size
    except OSError:
        return 0


HTTRACK_LOG = ("hts-cache", "new.txt")
"""HTTrack's record of what its last run fetched, in the project folder that holds the folder of each site it saved:
a line per URL, tab-separated (the status code fourth, the type sixth, the URL eighth)."""


def _saved_errors(files: list[tuple[Path, str]]) -> list[str]:
    """The keys of ``files`` that HTTrack saved from an error response (``HTTRACK_LOG``: a status of 400 or more, an
    HTML body): the server's not-found page, saved under the name of the page a link asked for (task U29: fastify's
    guides link to ``Contributing.html``, which its build does not hold; HTTrack saved ``http.server``'s "Error
    response / Error code: 404" there, a document of the mirror). A page is saved where HTTrack's default structure
    puts it: the URL's host (``:`` a ``_``), then its path (a folder's ``index.html``)."""
    keys = {key for _, key in files}
    found: list[str] = []
    seen: set[str] = set()
    for file, key in files:
        for depth, folder in enumerate(PurePosixPath(key).parents):
            if folder.as_posix() in seen:
                break
            seen.add(folder.as_posix())
            log = file.parents[depth].joinpath(*HTTRACK_LOG)
            if log.is_file():
                found.extend(page for page in _error_pages(log, folder) if page in keys)
    return found


def _error_pages(log: Path, folder: PurePosixPath) -> list[str]:
    """The keys (under ``folder``'s) of the pages ``log`` (``HTTRACK_LOG``) records as saved from an error response."""
    try:
        lines = log.read_text("utf-8", errors="replace").splitlines()
    except OSError:
        return []
    pages = []
    for line in lines[1:]:
        fields = line.split("\t")
        if len(fields) < 8 or not fields[3].isdigit() or int(fields[3]) < 400 or "html" not in fields[5]:
            continue
        url = urlsplit(fields[7])
        path = unquote(url.path) or "/"
        if url.netloc:
            name = path.lstrip("/") + ("index.html" if path.endswith("/") else "")
            pages.append((folder / url.netloc.replace(":", "_") / name).as_posix())
    return pages

