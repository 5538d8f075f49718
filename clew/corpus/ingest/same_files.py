"""One file found under several names in one folder (task D1): a symbolic link to another file found with it, a hard
link to one, or a copy of its bytes. Debian's exim4-doc-html links every chapter ``chNN.html`` to ``ch-<name>.html``
(68 links, the pages' own links naming the second), so each passage was stored, found and packed twice.

Of such files one is ingested: a link's target (the file the link names), else the first by key (of man pages, the
one the page's ``.TH``/``.Dt`` title names: ``ssh.1.gz`` over its copy ``slogin.1.gz``, task U41), one read as plain
text after another (of ``README`` and ``README.md``, README.md: its headings are read); each other one is left out,
reported in one line per folder given, and stands for it, as a man page's alias does (``man_pages``): a link to it
leads to the kept file (:func:`aliased`). Only files of a size another file has are read to compare, once each
(SHA-256 of the bytes; two hard links to one file are not read). A key a ``!`` pattern names is kept, and an empty file
is left to the reader (skipped as empty). Two files of the same bytes are one document whatever their names and
folders (a licence twice, two copies of one page): its text is stored and found once. A copy is not a file the ingest
found: ``--prune`` retires one an earlier ingest stored, and once the kept file is gone the copy is ingested again (a
link to it then leads to it). Exim's 146 files: 68 copies, none read, 13 ms.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from clew.corpus.ingest.doc_names import documentation_name
from clew.corpus.ingest.left_out import IGNORE_FILE, some
from clew.corpus.ingest.man_pages import page_name
from clew.corpus.ingest.peek import read_head, read_name
from clew.corpus.ingest.sources import GENERATED, Problem, deciding_pattern, format_of, ignore_patterns

if TYPE_CHECKING:
    from clew.corpus.ingest.prepare import PreparedDocument

READ_BLOCK = 1 << 20
CONTENT_CHECKED = frozenset({"man", "openapi"})
"""Formats whose suffix a file's content must confirm when it is read (a ``.1`` that is roff, a ``.json`` that is an
OpenAPI description): of identical copies, one of them is kept only when no other name decides."""
TITLE_BYTES = 8192
"""How much of a man page is read for its title (``_titled``): the title request comes before the text."""
_TITLE = re.compile(rb"^[.'][ \t]*(?:TH|Dt)[ \t]+\"?([^\s\"]+)", re.MULTILINE)


def same_files(files: list[tuple[Path, str]], taken_back: Callable[[str], bool]) -> list[tuple[str, str]]:
    """``(copy, kept)`` keys for each file of ``files`` (found under one folder: the files of formats clew reads, so
    that the others are each reported as such) that is another one found with it (see the module docstring), sorted;
    a key for which ``taken_back`` is true is no copy."""
    keys = {file.resolve(): key for file, key in files if not file.is_symlink()}
    copies: dict[str, str] = {}
    for file, key in files:
        if file.is_symlink() and not taken_back(key):
            target = keys.get(file.resolve())
            if target is not None and target != key:
                copies[key] = target
    by_size: dict[int, list[tuple[Path, str, tuple[int, int]]]] = {}
    # the kept one of a group is the first by key, a file read as plain text (a README, a .txt) after one of a format
    # that reads more of it (README.md's headings), and one whose name only its content confirms (a man page's
    # suffix, an OpenAPI description's, a README's) last: a 'notes.1' that is not roff is skipped when read, and
    # its copy 'notes.md' is then the one read (review V13)
    for file, key in sorted(files, key=lambda entry: (_rank(entry[0]), entry[1])):
        if key in copies:
            continue
        try:
            stat = file.stat()
        except OSError:
            continue  # reading it to ingest says why
        if stat.st_size:
            by_size.setdefault(stat.st_size, []).append((file, key, (stat.st_dev, stat.st_ino)))
    digests: dict[tuple[int, int], str | None] = {}  # a file (hard links: one) -> its bytes' digest
    for group in by_size.values():
        if len(group) < 2:
            continue
        same: dict[str, list[tuple[Path, str]]] = {}  # a digest -> the files of those bytes, in order
        for file, key, inode in group:
            if inode not in digests:
                digests[inode] = _digest(file)
            digest = digests[inode]
            if digest is not None:
                same.setdefault(digest, []).append((file, key))
        for found in same.values():
            kept = _titled(found)
            copies.update((key, kept) for _, key in found if key != kept and not taken_back(key))
    return sorted(copies.items())


def _titled(found: list[tuple[Path, str]]) -> str:
    """The key kept of ``found`` (files of the same bytes, in the order they are kept): of man pages, the first whose
    name is the page's title (``.Dt SSH 1``: ``ssh.1.gz``, not its copy ``slogin.1.gz`` that sorts first), else the
    first."""
    first = found[0]
    if len(found) < 2 or format_of(first[0]) != "man":
        return first[1]
    try:
        title = _TITLE.search(read_head(first[0], TITLE_BYTES))
    except OSError:
        return first[1]
    if title is None:
        return first[1]
    name = title.group(1).decode("latin-1").casefold()
    return next((key for file, key in found if format_of(file) == "man" and (named := page_name(key)) is not None
                 and named[0].casefold() == name), first[1])


def _rank(file: Path) -> int:
    """0 for a file whose name decides how it is read, 1 for one read as plain text by its suffix, 2 for one whose
    name only its content confirms (its read checks: ``source_file.read_source``)."""
    fmt = format_of(file)
    if fmt in CONTENT_CHECKED or (fmt == "text" and documentation_name(read_name(file.name))):
        return 2
    return 1 if fmt == "text" else 0


def _digest(file: Path) -> str | None:
    """The SHA-256 of ``file``'s bytes (None where it cannot be read)."""
    digest = hashlib.sha256()
    try:
        with file.open("rb") as stream:
            while block := stream.read(READ_BLOCK):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def aliased(document: PreparedDocument, aliases: Mapping[str, str]) -> PreparedDocument:
    """``document`` with its links to a file left out as a copy (``aliases``: its key -> the kept one's) leading to
    the kept file, an anchor kept (``ch01.html#SECT1`` -> ``ch-introduction.html#SECT1``); its content hash then
    covers the links as stored, so that a link that leads elsewhere on a later ingest (the copy is ingested again)
    makes a new version."""
    links = []
    for chunk, target in document.links:
        path, mark, anchor = target.partition("#")
        links.append((chunk, aliases[path] + mark + anchor if path in aliases else target))
    if links == document.links:
        return document
    links = list(dict.fromkeys(links))
    digest = hashlib.sha256(f"{document.content_hash}\x00{links!r}".encode("utf-8", "surrogatepass"))
    return dataclasses.replace(document, links=links, content_hash=digest.hexdigest())


def copies_line(pairs: list[tuple[str, str]]) -> str:
    """The line that reports the copies of one folder: ``(copy, kept)`` by key."""
    count, name = len(pairs), pairs[0][0].rpartition("/")[2]
    shown = some([f"{copy} -> {kept}" for copy, kept in pairs])
    return (
        f"{count} identical cop{'ies' if count > 1 else 'y'} (a symbolic link to a file found with it, or its "
        f"bytes under another name: {shown}) left out: each stands for the file it copies, and a link to it "
        f"leads there; take one in with --exclude '!{name}' or a '!{name}' line in {IGNORE_FILE}"
    )


def leave_out_copies(
    files: list[tuple[Path, str]], roots: list[Path], exclude: list[str]
) -> tuple[list[tuple[Path, str]], dict[str, str], list[Problem]]:
    """``files`` (``find_files``' under ``roots``, the paths given, with the ``exclude`` patterns) less the copies
    under each folder given (:func:`same_files`: the files of formats clew reads; a ``!`` pattern of ``exclude`` or
    of the folder's ``.clewignore`` keeps one), each copy's key -> the kept one's, and a problem line per folder."""
    aliases: dict[str, str] = {}
    problems = []
    for root in roots:
        if not root.is_dir():
            continue
        patterns = [*GENERATED, *exclude, *ignore_patterns(root)]

        def taken_back(key: str) -> bool:
            rule = deciding_pattern(key, patterns)
            return rule is not None and patterns[rule].startswith("!")

        pairs = same_files([(file, key) for file, key in files if file == root / key and format_of(file)], taken_back)
        if pairs:
            aliases.update(pairs)
            problems.append(Problem(str(root), copies_line(pairs), False, warning=True))
    return [entry for entry in files if entry[1] not in aliases], aliases, problems
