"""Find, read and decode the files to ingest.

A folder is walked recursively with a glob; a document's key is its path relative to the
folder it was found in (a file named directly keeps its own name). Bytes that cannot be
ingested as they are become a ``Problem`` naming the file: empty and binary files are
skipped, undecodable bytes are replaced and the file is kept.

Exclusions (``--exclude`` patterns, and the lines of a ``.clewignore`` file at the top of an
ingested folder, ``#`` comments and blank lines aside) are globs over keys, gitignore-like:
a pattern without a ``/`` matches any one component of the key (``*.txt``, ``drafts``: a
file or a folder of that name anywhere); a pattern with a ``/`` matches the key from the
folder's root (``api/v1/*``, ``/legacy``), and a folder it names takes everything below it.
``*`` in a pattern also matches ``/``. A pattern that starts with ``!`` takes back in what an
earlier one left out (``!_sources``); the last pattern that matches a key decides.

Hidden files and folders (a name that starts with ``.``: ``.snippets/``, ``.DS_Store``) are not pages, as
MkDocs and Sphinx leave them out; they count as excluded, in a line of their own (``!.snippets`` takes them
back in). Generated pages are left out by default: what a documentation tool writes beside the pages
that are not documents (``GENERATED``: Sphinx's ``genindex.html``, ``search.html``,
``py-modindex.html``, ``_sources/``, ``_static/``, Sphinx viewcode's ``_modules/``, Haddock's
``doc-index*.html``, ...), and files known by their first bytes (``peek.GENERATED_SIGNS``: a generator's pages
of one whole source file each, Haddock's, javadoc's, JSDoc's, ESDoc's, rustdoc's and Doxygen's; Hoogle's database;
RDoc's ``table_of_contents.html`` by its name and first bytes: a page of that name RDoc did not write stays).
They count as excluded, and each folder reports them in one line; they come before the caller's patterns, so
``--exclude '!_sources'`` (or a ``!_sources`` line in ``.clewignore``) takes them back in. A site's text files in
its asset folders (``site_assets``: JSDoc's ``scripts/prettify/Apache-License-2.0.txt`` beside its pages) are left
out the same way, in a line of their own.

Pages a site publishes for browsers rather than readers are left out too: a redirect page (a
``<meta http-equiv="refresh">`` to another URL and at most ``peek.REDIRECT_WORDS`` words of text:
mdBook, Hugo aliases and Sphinx redirects write them for moved pages), and a page its publisher
marked ``<meta name="robots" content="noindex">`` when other HTML pages of the same folder are not
so marked (mdBook's ``print.html``, every chapter again on one page; a site marked noindex
throughout is a site, and is ingested); and (``browser_pages``) an all-in-one page, an HTML page at least
``COMPILATION_SIZE`` times as large as the folder's other HTML pages together whose word pairs are
``COMPILATION_SHARE`` of them in those pages (Node.js's ``api/all.html``, a second copy of every
page's text); and a table of contents of the other pages, the folder's largest HTML page by ``COMPILATION_LEAD``
with at least ``CONTENTS_HEADINGS`` headings holding ``CONTENTS_WORDS`` of its words, fewer than ``CONTENTS_OVER_TEXT``
of them over text of their own, ``COMPILATION_SHARE`` of them headings' words in those pages (pod2html's
``perltoc.html``, every page's headings again). They count as excluded and
are reported in one line per folder; a caller's ``!`` pattern naming one takes it back in.

Twins are ingested once: a file whose text is the same as another's found under the same
folder, by name a copy of it in another format (``a.txt`` beside ``a.html``; Sphinx's
``_sources/x.rst.txt`` beside ``x.html``), is skipped and reported (see :func:`same_text`); the
kept one is the first by ``TWIN_PREFERENCE`` (the HTML page: links name it and its anchors). A PDF
printed from the HTML pages found with it is skipped and reported too (``clew.corpus.ingest.copies``;
a caller's ``!`` pattern naming it takes it back in).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from clew.corpus.globs import glob_regex
from clew.corpus.ingest import left_out
from clew.corpus.ingest.browser_pages import drop_browser_pages
from clew.corpus.ingest.copies import pdf_copies
from clew.corpus.ingest.doc_names import documentation_name
from clew.corpus.ingest.downloads import page_downloads
from clew.corpus.ingest.folder_copies import folder_copies, mdbook_first_chapters
from clew.corpus.ingest.folder_glob import check_glob, glob_matches
from clew.corpus.ingest.formats.asciidoc_xrefs import xref_targets
from clew.corpus.ingest.formats.lightmarkup import rst_targets
from clew.corpus.ingest.formats.markdown_wikilinks import wikilink_targets
from clew.corpus.ingest.includes import partials, read_text
from clew.corpus.ingest.info_parts import INFO_DIRECTORY, manual_names, read_with_their_index
from clew.corpus.ingest.left_out import IGNORE_FILE
from clew.corpus.ingest.man_pages import MAN_SUFFIX, man_pages
from clew.corpus.ingest.parsed import ParseBounds
from clew.corpus.ingest.peek import generated_sign, read_name, search_page, site_generator, word_pairs

Format = Literal["markdown", "mdx", "html", "text", "rst", "asciidoc", "jsonl", "pdf", "docx", "epub", "info", "man",
                 "openapi"]

SUFFIXES: dict[str, Format] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mdx": "mdx",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".txt": "text",
    ".text": "text",
    ".rst": "rst",
    ".adoc": "asciidoc",
    ".asciidoc": "asciidoc",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".pdf": "pdf",
    ".docx": "docx",
    ".epub": "epub",
    ".info": "info",  # GNU Info (coreutils.info.gz); a split manual's parts (x.info-1.gz) are read with x.info
    ".json": "openapi", ".yaml": "openapi", ".yml": "openapi",  # an OpenAPI description's; any other is not read
}
BINARY_FORMATS = frozenset({"pdf", "docx", "epub"})
"""Formats read as bytes (their parsers decode them); every other format is UTF-8 text."""
MIB = 1024 * 1024
MAX_TEXT_BYTES = 16 * MIB
MAX_BINARY_BYTES = 128 * MIB
MAX_MARKDOWN_LINES = 2_000_000


def format_of(file: PurePosixPath | Path) -> Format | None:
    """The format a file is read as, by its suffix; a gzip file's (``a.html.gz``) by the suffix before
    ``.gz`` (``peek.GZIP_SUFFIX``: the name it is read under, ``peek.read_name``); a man page's by its section; the
    Info directory (``dir``) is Info."""
    name = read_name(file.name)
    suffix = PurePosixPath(name).suffix.lower()
    if name == INFO_DIRECTORY:
        return "info"
    if documentation_name(name):  # README, NEWS.gz, ChangeLog (doc_names): read as a .txt file is
        return "text"
    return SUFFIXES.get(suffix) or ("man" if MAN_SUFFIX.fullmatch(suffix) else None)


@dataclass(frozen=True, slots=True)
class FileLimits:
    """The largest file ingestion reads; a larger one is skipped with a problem naming it and the limit.

    A document is held whole while it is parsed and chunked, at about 50 times its size for
    Markdown (a 200 MB file peaked at 10.8 GB): 16 MiB keeps one document under 2 GB.
    """

    text_bytes: int = MAX_TEXT_BYTES
    """Markdown, HTML, text, reStructuredText, AsciiDoc, GNU Info, OpenAPI and JSONL files (a JSONL file is read whole
    too; a split Info manual with all its parts)."""
    binary_bytes: int = MAX_BINARY_BYTES
    """PDF, DOCX and EPUB files, whose size is mostly images and fonts, not text."""
    markdown_lines: int = MAX_MARKDOWN_LINES
    """Lines of a Markdown file: markdown-it keeps about 600 bytes per line while it parses
    (1M lines of ``x`` took 590 MB in it alone), so 16 MiB of very short lines would take ~5 GB."""
    parse: ParseBounds = ParseBounds()
    """What parsing one PDF or DOCX file may cost (time, objects on a page, unzipped bytes)."""

    def for_format(self, fmt: Format) -> tuple[int, str]:
        """The limit for ``fmt`` in bytes, and the option that sets it."""
        if fmt in BINARY_FORMATS:
            return self.binary_bytes, "--max-binary-mib"
        return self.text_bytes, "--max-text-mib"


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    message: str
    skipped: bool
    """True when nothing of the file (or line) was ingested."""
    warning: bool = False
    """Ingested, but part of it could not be taken (a scanned page without text); not a repair."""
    unread_type: str | None = None
    """The suffix of a file skipped because clew reads no file of its type (``'.png'``, ``'(none)'``)."""
    taken_by: str | None = None
    """The file of an earlier folder given that holds the key of this one, skipped (two sites' ``index.html``)."""
    named_as: bool = False
    """A file named as a kind clew reads that is not one (``notes.1`` not roff, a binary ``README``): an unread type
    that ``clew ingest`` names, with why, where other unread types are counted."""


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    path: str
    format: Format
    content: str | bytes
    """Text, or the file's bytes for ``BINARY_FORMATS``."""
    bounds: ParseBounds | None = None
    """What parsing it may cost (``BINARY_FORMATS``; None: ``ParseBounds()``)."""
    targets: tuple[tuple[str, str], ...] = ()
    """What a reStructuredText page's roles name in other pages found with it, and their hrefs
    (``lightmarkup.rst_targets``)."""


HIDDEN = ".*"
"""A hidden file or folder (``.snippets/``, ``.DS_Store``): not a page of the manual, as MkDocs and Sphinx
leave them out; counted as excluded, reported in a line of its own, and a ``!`` pattern takes it back in. An empty
one is neither reported nor counted (as this folder's ``.clewignore`` is not): GitHub Pages' marker ``.nojekyll``,
which Quarto, Sphinx's ``githubpages`` and pdoc write into every site they build (a warning on every Quarto site,
task U33), holds nothing to take in."""
GENERATED = (HIDDEN,
             # Sphinx's dirhtml builder: genindex/index.html (task U32); before the html builder's names, so that the
             # last pattern that matches, the one a file is reported under, is the most particular ("genindex-*.html")
             "genindex", "genindex-*", "py-modindex",
             "genindex.html", "genindex-*.html", "search.html", "py-modindex.html", "searchindex.js", "objects.inv",
             # the search page of a site that writes each page as folder/index.html (Docusaurus' /search, task E10)
             "**/search/index.html",
             ".buildinfo", ".doctrees", "_sources", "_static", "_modules", "doc-index.html", "doc-index-*.html",
             "hts-cache", "hts-log.txt", "robots.txt")
"""Patterns (as ``--exclude`` takes them) of what a documentation tool generates that is not a
document: indexes, the search page, page sources and highlighted sources, static assets, Sphinx's pickled doctrees
(``.doctrees``, which ``sphinx-build`` writes into the output folder unless ``-d`` says elsewhere: reported as hidden
files before, task U27), HTTrack's cache and log beside a mirror (task U29), a site's rules for crawlers
(``robots.txt``, which Quarto writes where the site's URL is set: a document "Robots" in a book, task U33). Left
out unless a ``!`` pattern takes them back in. The page a server answers a missing one with (``404.html``) is left
out by what it says, not by its name (``browser_pages.NOT_FOUND_NAMES``; task R17)."""
SEARCH_PAGES = ("search.html", "**/search/index.html")
"""The ``GENERATED`` names of a site's search page: left out only where ``peek.search_page`` says the page is one."""
TWIN_PREFERENCE: tuple[Format, ...] = ("html", "markdown", "mdx", "rst", "asciidoc", "text")
"""Of twins, the first format here is kept; the binary formats (PDF, DOCX) and JSONL are never twins."""
TWIN_SHARE = 0.4
"""Two files are the same text when this share of the word pairs of the smaller one are in the
other. Measured on the Python 3.11 documentation: a page and its ``_sources`` file share 0.49 to
0.98 of them (median 0.88; three toctree-only sources share 0.08 to 0.31: not twins), two
different pages at most 0.20."""
TWIN_READ_BYTES = 2 * MIB


@dataclass(slots=True)
class Found:
    files: list[tuple[Path, str]] = field(default_factory=list)
    """``(file, key)`` to ingest, sorted within each folder."""
    excluded: int = 0
    problems: list[Problem] = field(default_factory=list)
    """What was found but cannot be read (a symbolic link whose target is missing)."""
    targets: dict[str, dict[str, str]] = field(default_factory=dict)
    """A reStructuredText or AsciiDoc file's path -> what its roles or ``xref:`` references name in other pages
    (``Source.targets``); a man page's or Info manual's -> the man pages and manuals found with it (``"grep(1)"``,
    ``"(grep)"`` -> its key; ``man_pages``, ``info_parts.manual_names``)."""


def excluded_by(key: str, patterns: list[str]) -> bool:
    """Whether the exclusion ``patterns`` leave ``key`` out (see the module docstring)."""
    rule = deciding_pattern(key, patterns)
    return rule is not None and not patterns[rule].startswith("!")


def deciding_pattern(key: str, patterns: list[str]) -> int | None:
    """The index of the last of ``patterns`` that matches ``key`` (a ``!`` pattern by what follows it), or the name
    a gzip file is read under (``peek.read_name``: ``genindex.html`` leaves ``genindex.html.gz`` out, ``*.gz`` too)."""
    keys = {key, read_name(key)}
    parts = {part for name in keys for part in PurePosixPath(name).parts}
    for index in range(len(patterns) - 1, -1, -1):
        pattern = patterns[index].removeprefix("!")
        whole = _glob(pattern)
        if whole is None:
            continue
        if "/" not in pattern.rstrip("/"):  # any one component
            if any(whole.fullmatch(part) for part in parts):
                return index
        elif any(whole.fullmatch(name) for name in keys):  # from the root; a folder takes everything below it
            return index
    return None


@functools.lru_cache(maxsize=1024)
def _glob(pattern: str) -> re.Pattern[str] | None:
    """``pattern`` read as a filter's ``path`` is (``clew.corpus.globs``); None for one that is no glob (empty or
    too long), which matches nothing."""
    try:
        return re.compile(glob_regex(pattern))
    except ValueError:
        return None


def ignore_patterns(folder: Path) -> list[str]:
    """The patterns of ``folder/.clewignore`` (none when there is no such file)."""
    try:
        lines = (folder / IGNORE_FILE).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def find_files(paths: list[Path], glob: str, exclude: list[str] | None = None, *,
               follow_symlinks: bool = False) -> Found:
    """Every file under ``paths`` that no exclusion names (a file named directly is always taken),
    less generated pages and twins (see the module docstring; each is reported).

    A symbolic link whose target is missing (or that loops) is reported, not ingested. So is,
    unless ``follow_symlinks``, a file whose real path is outside the folder it was found in (a
    link to a file elsewhere, or a file reached through a link to a folder elsewhere): a link
    never makes a file outside the folder searchable by accident. With ``follow_symlinks`` such
    files are taken, and a ``**`` glob also descends into linked folders (each real folder once).
    A glob that cannot be used (see ``folder_glob.check_glob``) raises ``InputError`` before anything is read.
    """
    check_glob(glob)
    found, names = Found(), dict[str, str]()  # man pages and Info manuals found, as references name them
    for root in paths:
        if root.is_dir():
            patterns = [*GENERATED, *(exclude or []), *ignore_patterns(root)]
            matches = glob_matches(root, glob, follow_symlinks)
            inside = root.resolve()
            generated: dict[str, list[str]] = {}  # the pattern or sign that told them -> keys
            hidden: list[str] = []
            files: list[tuple[Path, str]] = []
            left_pages: list[tuple[Path, str]] = []  # HTML pages left out as generated: still pages of their site
            for file in matches:
                dangling = file.is_symlink() and not file.exists()
                if not (file.is_file() or dangling) or (file.name == IGNORE_FILE and file.parent == root):
                    continue
                key = file.relative_to(root).as_posix()
                rule = deciding_pattern(key, patterns)
                if (rule is not None and not patterns[rule].startswith("!")
                        and (patterns[rule] not in SEARCH_PAGES or search_page(file))):  # a page about search stays
                    if rule == 0 and not dangling and file.is_file() and not file.stat().st_size:
                        continue  # an empty hidden file (HIDDEN): a marker, no file left out
                    found.excluded += 1
                    if rule == 0:
                        hidden.append(key)
                    elif rule < len(GENERATED):
                        generated.setdefault(GENERATED[rule], []).append(key)
                        left_pages += [(file, key)] if _is_html(file) else []
                elif dangling:  # one to a type clew does not read is counted with those files (a site's fonts)
                    unread = None if format_of(file) else file.suffix or "(none)"
                    found.problems.append(Problem(str(file), f"symbolic link to {os.readlink(file)!r}, which does not "
                                                  "exist (or loops): not ingested", True, unread_type=unread))
                elif not follow_symlinks and not file.resolve().is_relative_to(inside):
                    found.problems.append(Problem(str(file), "a symbolic link to a file outside the folder "
                                                  f"{str(root)!r}: not ingested (--follow-symlinks takes it)", True))
                elif (sign := generated_sign(file)) is not None and not _taken_back(key, patterns):
                    found.excluded += 1
                    generated.setdefault(sign, []).append(key)
                    left_pages += [(file, key)] if _is_html(file) else []
                else:
                    files.append((file, key))
            if hidden:
                found.problems.append(Problem(str(root), left_out.hidden(hidden), False, warning=True))
            if generated:
                found.problems.append(Problem(str(root), left_out.generated(generated), False, warning=True))
            for site_files, line in ((site_assets, left_out.assets), (site_licences, left_out.licences),
                                     (functools.partial(page_downloads, is_html=_is_html), left_out.downloads)):
                keys = site_files(files + left_pages, lambda key: _taken_back(key, patterns))
                if keys:
                    left = set(keys)
                    files = [entry for entry in files if entry[1] not in left]
                    found.excluded += len(keys)
                    found.problems.append(Problem(str(root), line(keys), False, warning=True))
            files, browser = drop_browser_pages(files, lambda key: _taken_back(key, patterns), _is_html, MAX_TEXT_BYTES)
            if browser:
                found.excluded += len(browser)
                found.problems.append(Problem(str(root), left_out.browser(browser), False, warning=True))
            kept, twins = drop_twins(files)
            kept, copies = drop_pdf_copies(kept, lambda key: _taken_back(key, patterns))
            kept, held = drop_partials(kept, lambda key: _taken_back(key, patterns))
            parts = read_with_their_index(kept)  # a split Info manual's parts: read with its index file
            kept = [entry for entry in kept if entry[1] not in parts]
            kept, aliases = man_pages(kept, lambda file: format_of(file) == "man",
                                      lambda key: _taken_back(key, patterns), names)
            manual_names(kept, names)
            found.files.extend(kept)
            found.problems.extend(twins + copies)
            found.targets.update(_rst_targets(kept))
            found.targets.update({str(file): names for file, _ in kept if format_of(file) in ("man", "info")})
            if aliases:
                found.excluded += len(aliases)
                found.problems.append(Problem(str(root), left_out.man_aliases(aliases), False, warning=True))
            if held:
                found.excluded += len(held)
                found.problems.append(Problem(str(root), left_out.partials(held), False, warning=True))
        else:
            found.files.append((root, root.name))
    found.files, clashes = _one_file_a_key(found.files)
    found.problems.extend(clashes)
    return found


KEY_CLASH_WAY_OUT = ("a key is the path in the folder given: ingest the folders' parent, or each folder into a "
                     "--collection of its own")
"""What to do where two folders given hold a file of one key: said in each such file's problem, and once in
``clew ingest``'s line that counts them."""


def _one_file_a_key(files: list[tuple[Path, str]]) -> tuple[list[tuple[Path, str]], list[Problem]]:
    """The files, one for each key: two folders given may hold a file of one key (two sites' ``index.html``; task U26),
    where the last stood alone and the first was lost without a word. The first is kept, each later one reported;
    a file found twice (a folder given twice) is kept once, unreported."""
    first: dict[str, Path] = {}
    kept: list[tuple[Path, str]] = []
    clashes: list[Problem] = []
    for file, key in files:
        if key not in first:
            first[key] = file
            kept.append((file, key))
        elif first[key].resolve() != file.resolve():
            clashes.append(Problem(str(file), f"the key {key!r} is taken by {first[key]}: not ingested "
                                   f"({KEY_CLASH_WAY_OUT})", True, taken_by=str(first[key])))
    return kept, clashes


SITE_ASSET_FOLDERS = frozenset({"assets", "static", "static.files", "scripts", "script", "legal", "deps"})
"""Folders in which a site's generator puts what its pages load or ship, not pages: MkDocs Material's and
Docusaurus' ``assets/`` (scripts, styles, fonts, images; Docusaurus' ``assets/js/*.js.LICENSE.txt``), JSDoc's
``scripts/`` (``scripts/prettify/Apache-License-2.0.txt``, task U15) and ESDoc's ``script/``, rustdoc's
``static.files/`` (its fonts' licences), javadoc's ``legal/`` (``jquery.md``, ``jqueryUI.md``), a theme's
``static/``, pkgdown's ``deps/`` (Bootstrap, jQuery and ``data-deps.txt``, the tags that load them: a document "Data
deps" in every pkgdown site, task U32); Sphinx's ``_static/`` is left out whole (``GENERATED``)."""
_ASSET_TEXT: frozenset[Format] = frozenset({"markdown", "mdx", "text", "rst", "asciidoc"})


def site_assets(files: list[tuple[Path, str]], taken_back: Callable[[str], bool]) -> list[str]:
    """The keys of ``files`` that are a site's assets, not its pages: a text file (Markdown, plain text,
    reStructuredText, AsciiDoc: a licence, a vendored library's notes) under a ``SITE_ASSET_FOLDERS`` folder whose
    parent folder holds an HTML page found with it (a site's pages and their assets beside them; a repository's
    ``scripts/README.md`` beside no page stays). Its HTML pages, PDFs and DOCX files are documents (Docusaurus'
    ``assets/files/`` holds the files pages link to) and stay; a key for which ``taken_back`` is true stays."""
    pages = {key.rpartition("/")[0] for file, key in files if _is_html(file)}
    left = []
    for file, key in files:
        if format_of(file) not in _ASSET_TEXT or taken_back(key):
            continue
        folders = key.split("/")[:-1]
        if any(name.lower() in SITE_ASSET_FOLDERS and "/".join(folders[:at]) in pages
               for at, name in enumerate(folders)):
            left.append(key)
    return left


_LICENCE_NAME = re.compile(r"(?:^|[-_.])(?:licen[cs]e|copying|copyright)(?:[-_.]|$)", re.IGNORECASE)
"""A licence's file name: ``LICENSE-MIT.txt``, ``FiraSans-LICENSE.txt``, ``SourceSerif4-LICENSE.md``,
``COPYRIGHT.txt``, ``COPYING.md``."""
SITE_PAGES_PEEKED = 3
"""The HTML pages of a folder read for their generator (``site_licences``): a generated site's all carry it."""


def site_licences(files: list[tuple[Path, str]], taken_back: Callable[[str], bool]) -> list[str]:
    """The keys of ``files`` that are licences a generator writes beside a site's pages, not documentation: a text
    file (as ``site_assets``) named as a licence (``_LICENCE_NAME``) in a folder whose HTML pages found with it say
    a tool wrote them (``peek.site_generator``; the first ``SITE_PAGES_PEEKED``): rustdoc's ``LICENSE-MIT.txt``,
    ``LICENSE-APACHE.txt``, ``COPYRIGHT.txt`` and its fonts' ``FiraSans-LICENSE.txt`` at the docs' root (task S3). A
    repository's ``LICENSE.md`` beside its ``README.md`` or beside pages written by hand stays; a key for which
    ``taken_back`` is true stays. Only a folder holding such a licence has its pages read."""
    named = [(file, key) for file, key in files if format_of(file) in _ASSET_TEXT
             and _LICENCE_NAME.search(read_name(file.name).rsplit(".", 1)[0]) and not taken_back(key)]
    if not named:
        return []
    pages: dict[str, list[Path]] = {}
    for file, key in files:
        if _is_html(file):
            pages.setdefault(key.rpartition("/")[0], []).append(file)
    sites = {folder for folder in {key.rpartition("/")[0] for _, key in named}
             if any(site_generator(page) for page in pages.get(folder, [])[:SITE_PAGES_PEEKED])}
    return [key for _, key in named if key.rpartition("/")[0] in sites]


def _taken_back(key: str, patterns: list[str]) -> bool:
    rule = deciding_pattern(key, patterns)
    return rule is not None and patterns[rule].startswith("!")


def drop_twins(files: list[tuple[Path, str]]) -> tuple[list[tuple[Path, str]], list[Problem]]:
    """``files`` less the twins of others (see the module docstring), the pages a mirror saved twice and
    mdBook's copy of a book's first chapter (``folder_copies``), and a problem for each one left out."""
    by_name: dict[str, list[int]] = {}  # a document's name (its key without suffix) -> indexes into files
    for index, (_, key) in enumerate(files):
        name = _document_name(key)
        if name is not None:
            by_name.setdefault(name, []).append(index)
    dropped: dict[int, Problem] = {}
    for indexes in by_name.values():
        if len(indexes) < 2:
            continue
        ranked = sorted(indexes, key=lambda i: (_twin_rank(files[i][0]), files[i][1]))
        keep_file, keep_key = files[ranked[0]]
        for index in ranked[1:]:
            file, key = files[index]
            if same_text(keep_file, file):
                dropped[index] = Problem(str(file), f"the same text as {keep_key} (a copy in another format): ingested "
                                                    "once, as that file", True)
    at = {key: index for index, (_, key) in enumerate(files)}
    for copy, page in folder_copies([entry for index, entry in enumerate(files) if index not in dropped], _word_pairs):
        dropped[at[copy]] = Problem(str(files[at[copy]][0]), f"the same page as {page} (a mirror saved it twice, as "
                                                             "linked with and without its trailing slash): ingested "
                                                             "once, as that file", True)
    for copy, page in mdbook_first_chapters([entry for index, entry in enumerate(files) if index not in dropped],
                                            _word_pairs):
        dropped[at[copy]] = Problem(str(files[at[copy]][0]), f"the same page as {page} (mdBook writes a book's first "
                                                             "chapter again as its index.html): ingested once, as "
                                                             "that file", True)
    kept = [entry for index, entry in enumerate(files) if index not in dropped]
    return kept, [dropped[index] for index in sorted(dropped)]


def drop_pdf_copies(files: list[tuple[Path, str]], taken_back: Callable[[str], bool]
                    ) -> tuple[list[tuple[Path, str]], list[Problem]]:
    """``files`` less the PDFs printed from the HTML pages among them (``clew.corpus.ingest.copies``), and
    a problem for each one left out; a key for which ``taken_back`` is true is kept."""
    paths = {key: file for file, key in files}
    candidates = [(file, key) for file, key in files if not (file.suffix.lower() == ".pdf" and taken_back(key))]
    copies = pdf_copies(candidates, _is_html, _word_pairs)
    dropped = {copy.key for copy in copies}
    problems = [Problem(str(paths[copy.key]), copy.message(IGNORE_FILE), True) for copy in copies]
    return [entry for entry in files if entry[1] not in dropped], problems


def drop_partials(files: list[tuple[Path, str]], taken_back: Callable[[str], bool]
                  ) -> tuple[list[tuple[Path, str]], list[tuple[str, str]]]:
    """``files`` less the AsciiDoc, reStructuredText and Markdown (Snippets) partials that pages among them
    include whole (``clew.corpus.ingest.includes``), with ``(partial, page)`` of each left out; a key for which
    ``taken_back`` is true is kept."""
    texts = [(file, key) for file, key in files
             if format_of(file) in ("asciidoc", "rst", "text", "markdown")]
    held = {key: page for key, page in partials(texts, TWIN_READ_BYTES).items() if not taken_back(key)}
    return [entry for entry in files if entry[1] not in held], sorted(held.items())


def _rst_targets(files: list[tuple[Path, str]]) -> dict[str, dict[str, str]]:
    """``Found.targets`` of the reStructuredText, AsciiDoc and Markdown pages among ``files`` (found under one
    folder): what their roles, ``xref:`` references and wikilinks name in other pages."""
    out: dict[str, dict[str, str]] = {}
    keys = [key for file, key in files if format_of(file) is not None]  # what a wikilink may name and find
    for fmt, targets_of in (("rst", rst_targets), ("asciidoc", xref_targets),
                            ("markdown", lambda texts: wikilink_targets(texts, keys))):
        paths = {key: file for file, key in files if format_of(file) == fmt}
        texts = {key: text for key, file in paths.items() if (text := read_text(file, TWIN_READ_BYTES)) is not None}
        out.update({str(paths[key]): targets for key, targets in targets_of(texts).items()})
    return out


def _is_html(file: Path) -> bool:
    return format_of(file) == "html"


_SOURCE_SUFFIXES = (".rst", ".md", ".markdown", ".txt", ".ipynb")


def _document_name(key: str) -> str | None:
    """What a file is a rendering of: its key without the suffix (a Sphinx source ``a/_sources/b.rst.txt``
    is ``a/b``, a gzip file ``a.html.gz`` is ``a``); None for formats that are never twins."""
    path = PurePosixPath(read_name(key))
    if _twin_format(path.suffix) is None:
        return None
    parts = path.parts
    if "_sources" in parts[:-1]:
        at = parts.index("_sources")
        name = path.name.removesuffix(".txt")
        for suffix in _SOURCE_SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name = name[: -len(suffix)]
                break
        return PurePosixPath(*parts[:at], *parts[at + 1:-1], name).as_posix()
    return path.with_suffix("").as_posix()


def _twin_format(suffix: str) -> Format | None:
    fmt = SUFFIXES.get(suffix.lower())
    return fmt if fmt in TWIN_PREFERENCE else None


def _twin_rank(file: Path) -> int:
    fmt = _twin_format(PurePosixPath(read_name(file.name)).suffix)
    return TWIN_PREFERENCE.index(fmt) if fmt is not None else len(TWIN_PREFERENCE)


def _word_pairs(file: Path, limit: int = TWIN_READ_BYTES) -> set[tuple[str, ...]]:
    fmt = format_of(file)
    return word_pairs(file, limit, html_page=fmt == "html", markdown=fmt in ("markdown", "mdx"))


def same_text(first: Path, second: Path) -> bool:
    """Whether two files hold the same text: ``TWIN_SHARE`` of the word pairs of the smaller are in
    the other (HTML without its tags, scripts and styles, Markdown without its links' targets and comments, as
    they render: Node.js's ``index.md``, a list of links, 0.30 -> 1.0; the first ``TWIN_READ_BYTES`` of each)."""
    small, large = sorted((_word_pairs(first), _word_pairs(second)), key=len)
    return bool(small) and len(small & large) >= TWIN_SHARE * len(small)


def suffix_twins(files: list[tuple[Path, str]]) -> list[Problem]:
    """A warning for each file ingested beside another of the same name and a different suffix
    (``a.txt`` beside ``a.html``: usually one is the other's source, and the content counts twice); a gzip file
    by the name it is read under (``a.html.gz`` beside ``a.md``)."""
    by_stem: dict[tuple[Path, str], list[Path]] = {}
    for file, _ in files:
        if format_of(file) is not None:
            by_stem.setdefault((file.parent, PurePosixPath(read_name(file.name)).stem), []).append(file)
    problems = []
    for stem, twins in by_stem.items():
        if len(twins) > 1:
            names = ", ".join(twin.name for twin in twins)
            for twin in twins[1:]:
                suffix = twin.name[len(stem[1]):]  # ".html", or a gzip file's ".html.gz"
                problems.append(Problem(str(twin), f"same name as {twins[0].name} with another suffix ({names}): both "
                                        f"are ingested; leave one out with --exclude '*{suffix}' or .clewignore",
                                        False, warning=True))
    return problems
