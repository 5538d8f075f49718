"""GNU Info manuals split into parts, as a system installs a large one: ``gdb.info.gz`` holds the preamble, an
``Indirect:`` table naming the parts (``gdb.info-1.gz``, ``gdb.info-2.gz``, ...) and the tag table; the nodes are in
the parts. The manual is one document, read from its index file with its parts joined in the table's order
(:func:`join_parts`, called by ``source_file.read_source``); a part beside its index file that names it is not read
again on its own (:func:`read_with_their_index`), and a part alone, or one its index file does not name, is not a
document (``source_file.read_source`` says so, naming its index file). A missing or unreadable part, or one named
with a folder (which would read a file outside the folder ingested), is reported by name and the others are read."""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from clew.corpus.ingest.formats.info import indirect_parts
from clew.corpus.ingest.peek import MIB, read_head, read_name

PART_NAME = re.compile(r"(?P<manual>.+\.info)-\d+(?:\.gz)?", re.IGNORECASE)
"""A part's file name (``gdb.info-3.gz``), and the name of its manual's index file (``gdb.info``)."""
INFO_DIRECTORY = "dir"
"""The Info directory's file name (``/usr/share/info/dir``): read as Info (``sources.format_of``) where a ``!dir``
pattern takes it in; left out by default (``peek.GENERATED_SIGNS``: "Info directory"). A file so named that is not
Info is skipped as "not a GNU Info file"."""
_CODING = re.compile(rb"\nLocal Variables:\s*\ncoding: *([-\w]+)", re.IGNORECASE)


def manual_of_part(name: str) -> str | None:
    """The index file's name (``gdb.info``) of a part's file name (``gdb.info-3.gz``); None for another name."""
    match = PART_NAME.fullmatch(name)
    return match["manual"] if match else None


def read_with_their_index(files: list[tuple[Path, str]]) -> set[str]:
    """The keys of the parts among ``files`` whose index file (``x.info`` or ``x.info.gz`` in their folder) is among
    them too and names them in its ``Indirect:`` table: read as part of that manual, not on their own. A part it does
    not name (``x.info-1`` left beside a manual since built in one file) is read on its own, and so skipped by name
    (:func:`unnamed_part`)."""
    present = {(file.parent, file.name.lower()): file for file, _ in files}
    out = set()
    for file, key in files:
        manual = manual_of_part(file.name)
        if manual is None:
            continue
        index = present.get((file.parent, manual.lower())) or present.get((file.parent, manual.lower() + ".gz"))
        if index is not None and _names_part(index, file):
            out.add(key)
    return out


def unnamed_part(part: Path, manual: str) -> str | None:
    """Why ``part`` of ``manual`` (``x.info-1``) is not read where its index file is beside it but does not name it;
    None where no index file is beside it or it names the part. makeinfo writes parts only with an index file
    naming each: such a part is left from an earlier build, its nodes a slice of a manual since rebuilt."""
    index = next((path for path in (part.parent / manual, part.parent / (manual + ".gz")) if path.is_file()), None)
    if index is None or _names_part(index, part):
        return None
    table = _table(index)
    why = "a manual in one file, with no Indirect: table" if table is None else "its Indirect: table names others"
    return (
        f"a part of the Info manual {manual}, whose index file {index.name} beside it does not name it ({why}): "
        "not ingested; a part left from an earlier build of the manual"
    )


def _names_part(index: Path, part: Path) -> bool:
    """Whether ``index``'s ``Indirect:`` table names ``part`` (as ``x.info-1`` for ``x.info-1.gz`` too); True where
    ``index`` cannot be read (reading it to ingest says why)."""
    try:
        table = _table(index)
    except OSError:
        return True
    return table is not None and read_name(part.name).lower() in {name.lower() for name in table}


def _table(index: Path) -> list[str] | None:
    """The parts an Info file's ``Indirect:`` table names (None without one), read from its first MiB: makeinfo
    writes the table after the preamble, before any node."""
    return indirect_parts(read_head(index, MIB).decode("utf-8", errors="replace"))


def declared_coding(data: bytes) -> str | None:
    """The encoding an Info file's ``Local Variables`` trailer declares (``coding: iso-8859-1``), if any."""
    match = _CODING.search(data[-512:])
    return match[1].decode("ascii") if match else None


def join_parts(
    index: Path, text: str, limit: int, read: Callable[[Path, int], bytes], codec: str = "utf-8"
) -> tuple[str, list[str], list[str]]:
    """A split manual's ``text`` (its index file's) with each part it names (found beside ``index``, as named or
    gzipped; a name with a folder in it, ``../x/y.info-1`` or ``/etc/y.info-1``, is not read) joined after it, each
    after a node separator (a part's own preamble is no node); read by ``read(path, most bytes)``, decoded with
    ``codec``. Each file is read once: a table naming the index file itself or a part twice does not repeat its
    nodes. Returns the text, what could not be read (a line each), and the parts read.
    At most ``limit + 1`` characters are read in all (the caller checks the limit)."""
    pieces = [text]
    size = len(text)
    notes: list[str] = []
    read_parts: list[str] = []
    seen = {index.resolve()}
    for part in indirect_parts(text) or []:
        if size > limit:
            break
        if part != Path(part).name or part in ("", ".", ".."):  # makeinfo names a part by its file name alone
            notes.append(
                f"its part {part} is not a file name (a part is a file beside its index file): its nodes "
                "are not ingested"
            )
            continue
        paths = [index.parent / part, index.parent / (part + ".gz")]
        path = next((p for p in paths if p.is_file()), None)
        if path is None:
            notes.append(f"its part {part} is missing (no {part} or {part}.gz beside it): its nodes are not ingested")
            continue
        if path.resolve() in seen:  # the index file itself, or a part named twice: its nodes are in already
            read_parts += [path.name] if path.name not in read_parts else []
            continue
        seen.add(path.resolve())
        try:
            data = read(path, limit + 1 - size)
        except (OSError, EOFError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
            notes.append(
                f"its part {path.name} could not be read ({error or 'it ends early'}): its nodes are not ingested"
            )
            continue
        piece = "\x1f\n" + data.decode(codec, errors="replace")
        pieces.append(piece)
        size += len(piece)
        read_parts.append(path.name)
    return "".join(pieces), notes, read_parts


def manual_names(files: list[tuple[Path, str]], names: dict[str, str]) -> None:
    """Add each Info manual among ``files`` (found under one folder) to ``names`` by the name a cross reference gives
    it, its file's name without ``.info``: ``"(guile)"`` -> ``"guile-3.0/guile.info.gz"``, the first folder's where
    two folders given hold a manual of one name. ``names`` is the index of what references name that man pages
    share (``man_pages.man_pages``: ``"grep(1)"``), so that a reference to a manual installed in another folder
    (``/usr/share/info/guile-3.0/``) links to it (``formats.info.info_targets``). A manual in a folder is named with
    its folders too, as a ``dir`` entry may name it (``"(guile-3.0/guile)"``), so that of two versions installed side
    by side each is named."""
    for _, key in files:
        path = read_name(key)
        if path.lower().endswith(".info") and len(PurePosixPath(path).name) > len(".info"):
            parts = path[: -len(".info")].split("/")
            for at in range(len(parts) - 1, -1, -1):
                names.setdefault(f"({'/'.join(parts[at:])})", key)
