"""The man pages found under one folder (``clew.corpus.ingest.sources``): which are aliases of others, and which page
each name in a reference (``grep(1)``) is.

A page is named by its file: ``ls.1.gz`` is ``ls(1)``, ``Foo::Bar.3pm.gz`` is ``Foo::Bar(3pm)`` (and ``Foo::Bar(3)``
where no page has that name). An alias is a page that is only ``.so man1/other.1`` (``formats.man.alias_target``), or
a symbolic link to another page found with it (Debian installs ``slogin.1.gz -> ssh.1.gz``): it holds no text of its
own, so it is left out (reported in one line) and its name stands for the page it names, so that a reference to it
links to that page.

A ``.so`` line inside a page of its own (zsh's ``zshall.1``: ``.so man1/zshmisc.1`` for each of its parts) includes
the named file's text in its place, as man does, where that file is in the folder ingested (``include_pages``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from clew.corpus.ingest.formats.man import ALIAS_BYTES, alias_target, declared_coding
from clew.corpus.ingest.peek import read_head, read_name

MAN_SUFFIX = re.compile(r"\.(?:[0-9][a-z0-9+]{0,7}|n|l)", re.IGNORECASE)
"""A man page's suffix, its section (``ls.1``, ``Foo::Bar.3pm``, ``openssl.1ssl``, Tcl's ``.n``): read as one where
its first lines are roff (``formats.man.is_roff``), else skipped saying why (``source_file.read_source``)."""
_SECTION = re.compile(r"([0-9][a-z0-9+]*|n|l)", re.IGNORECASE)
_SO = re.compile(r"^[.'][ \t]*so[ \t]+(\S+)[ \t]*(?:\n|\Z)", re.MULTILINE)
SO_DEPTH = 4
"""The most ``.so`` includes nest: an included page's own include is read, down to this depth."""


def page_name(key: str) -> tuple[str, str] | None:
    """The name and section a man page's file name gives it (``man1/ls.1.gz`` -> ``("ls", "1")``)."""
    name = PurePosixPath(read_name(key)).name
    stem, dot, section = name.rpartition(".")
    if not dot or not stem or not _SECTION.fullmatch(section):
        return None
    return stem, section


def man_pages(files: list[tuple[Path, str]], is_man: Callable[[Path], bool], taken_back: Callable[[str], bool],
              names: dict[str, str]) -> tuple[list[tuple[Path, str]], list[tuple[str, str]]]:
    """``files`` (found under one folder) less the man pages that are aliases (see the module docstring), with
    ``(alias, page)`` of each left out (``page`` as the alias names it where it was not found); ``names`` gets every
    page's name -> its key (``"grep(1)" -> "man1/grep.1.gz"``, an alias's name -> its page's), the first folder's
    where two folders given hold pages of one name (``clew ingest man1 man5``: ssh(1) references ssh_config(5)). A key
    for which ``taken_back`` is true is kept."""
    pages = [(file, key) for file, key in files if is_man(file)]
    if not pages:
        return files, []
    mine: dict[str, str] = {}
    for _, key in pages:
        named = page_name(key)
        if named is not None:
            mine.setdefault(f"{named[0]}({named[1]})", key)
    for name, key in list(mine.items()):  # Foo::Bar(3pm) is also Foo::Bar(3), ssl(7ssl) ssl(7)
        mine.setdefault(re.sub(r"\((\d)[a-z0-9+]+\)$", r"(\1)", name), key)
    by_path = {file.resolve(): key for file, key in pages if not file.is_symlink()}
    aliases: dict[str, str] = {}
    for file, key in pages:
        if taken_back(key):
            continue
        target = _alias(file, by_path, {**names, **mine})
        if target is not None:
            aliases[key] = target
    for alias, target in aliases.items():
        named = page_name(alias)
        if named is not None and target in by_path.values():
            mine[f"{named[0]}({named[1]})"] = target
    for name, key in mine.items():
        names.setdefault(name, key)
    return [entry for entry in files if entry[1] not in aliases], sorted(aliases.items())


def _alias(file: Path, by_path: dict[Path, str], names: dict[str, str]) -> str | None:
    """The key of the page ``file`` is an alias of (as the alias names it where no such page was found), or None."""
    if file.is_symlink():
        return by_path.get(file.resolve())
    try:
        head = read_head(file, ALIAS_BYTES + 1)
    except OSError:
        return None  # reading it to ingest says why
    target = alias_target(head.decode("utf-8", "replace"))
    if target is None:
        return None
    named = page_name(target)
    return names.get(f"{named[0]}({named[1]})", target) if named is not None else target


def include_pages(text: str, file: Path, key: str, limit: int) -> tuple[str, list[str]]:
    """``text`` (of the man page ``file``, found as ``key``) with each ``.so`` line replaced by the named file's text
    (found as man finds it: from the folder above the page's section folder, or beside the page; gzipped too) where
    that file is inside the folder ingested; its own ``.so`` lines likewise, to ``SO_DEPTH``, none twice in one chain;
    at most ``limit`` bytes included in all. A line whose file is not read is dropped; returns the text and each
    line dropped, with why."""
    if _SO.search(text) is None:
        return text, []
    root = file
    for _ in PurePosixPath(key).parts:
        root = root.parent
    missed: list[str] = []
    return _included(text, file, root.resolve(), [file.resolve()], [limit], missed), missed


def _included(text: str, file: Path, root: Path, chain: list[Path], budget: list[int], missed: list[str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match[1]
        found = _so_file(name, file, root)
        why = ("not a file in the folder ingested" if found is None else "it includes itself" if found in chain
               else f"more than {SO_DEPTH} includes deep" if len(chain) > SO_DEPTH else None)
        if found is None or why is not None:
            missed.append(f"{name} ({why})")
            return ""
        try:
            data = read_head(found, budget[0] + 1)
        except OSError as error:
            missed.append(f"{name} ({error})")
            return ""
        if len(data) > budget[0]:
            missed.append(f"{name} (over the size limit of the page with what it includes)")
            return ""
        budget[0] -= len(data)
        try:
            inner = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except UnicodeDecodeError:
            inner = data.decode(declared_coding(data) or "utf-8", errors="replace")
        inner = _included(inner.replace("\r\n", "\n"), found, root, [*chain, found], budget, missed)
        return inner if inner.endswith("\n") or not inner else inner + "\n"

    return _SO.sub(one, text)


def _so_file(name: str, file: Path, root: Path) -> Path | None:
    """The file a ``.so`` line of ``file`` names, resolved, where it is one inside ``root``."""
    for folder in (file.parent.parent, file.parent, root):
        for path in (folder / name, folder / f"{name}.gz"):
            if path.is_file() and (found := path.resolve()).is_relative_to(root):
                return found
    return None
