"""Wikilinks in Markdown notes (Obsidian vaults, Foam, Dendron, GitHub and Gitea wikis), for the Markdown reader.

``[[Page]]`` reads as a link shown as ``Page``, ``[[Page|shown text]]`` as one shown as ``shown text`` (a wiki's
``[[shown text|Page]]``, Gollum's order, where only the right-hand side names a page), ``[[Page#Heading]]`` as
``Page > Heading`` (as Obsidian shows it) linking to the heading's anchor, ``[[#Heading]]`` as ``Heading`` linking to
the heading on this page, ``[[folder/Page]]`` as ``folder/Page``. An embed (``![[Page]]``, ``![[diagram.png]]``) reads
as a link to what it names, not its content. Each is written as the Markdown link it stands for
(``[shown text](<../Page.md#heading>)``) before the page is parsed, so it is stored, chunked and resolved like one.

A target names a file among those ingested with the page (:func:`wikilink_targets`, read before the pages are
parsed), as Obsidian resolves it: a path from the folder ingested (``[[notes/Page]]``, ``.md`` optional), else from
the page's own folder, else any file whose path ends with it, case-insensitively; of two such notes, the one in the
page's own folder, then the one with the fewest folders in its path, then the first in alphabetical order; a wiki's
``[[Page Name]]`` also finds ``Page-Name.md``. A wikilink whose target is none of them (a note not written yet, a file
not ingested) reads as its shown text, without a link; so do all of a page read alone. Wikilinks inside code spans,
code blocks and raw HTML blocks stay as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping

from markdown_it import MarkdownIt

from clew.corpus.ingest.formats.markdown_inline import github_slug

_WIKILINK = re.compile(r"(!?)\[\[(?=[^\s\[\]|])([^\[\]\n]*?[^\s\[\]\\])\]\](?![(\[])")
"""``[[target]]``, ``[[target|text]]``, ``![[embed]]``: not one opened by a space (``[[ -f x ]]``, a shell test), nor
one followed by ``(`` or ``[`` (``[[1]](url)``, a link whose label is in brackets)."""
_NOTE_SUFFIXES = (".md", ".markdown")
_TICKS = re.compile(r"`+")
_BRACKETS = re.compile(r"([\[\]])")
_PARSER = MarkdownIt("commonmark")


def wikilink_targets(texts: Mapping[str, str], keys: Iterable[str]) -> dict[str, dict[str, str]]:
    """For each Markdown page of ``texts`` (a key -> its text) that holds a wikilink, the href, relative to it, of
    each target its wikilinks name among ``keys`` (every file found with it): ``{"Page": "../notes/Page.md"}``;
    a target that names none of them is left out (it reads as text)."""
    index = _Index(keys)
    out: dict[str, dict[str, str]] = {}
    for key, text in texts.items():
        if "[[" not in text:
            continue
        found_here: dict[str, str] = {}
        for found in _WIKILINK.finditer(text):
            for side in _sides(found.group(2)):
                target = side.partition("#")[0].strip()
                if not target or target in found_here:
                    continue
                resolved = index.resolve(target, key)
                if resolved is not None:
                    here = posixpath.dirname(key)
                    found_here[target] = posixpath.relpath(resolved, here) if here else resolved
        if found_here:
            out[key] = found_here
    return out


def wikilinks(text: str, targets: Mapping[str, str] | None) -> str:
    """``text`` (Markdown) with its wikilinks written as the links they stand for (module docstring); ``targets``:
    the page's :func:`wikilink_targets` (None: a page read alone, whose wikilinks to other pages read as text)."""
    if "[[" not in text or _WIKILINK.search(text) is None:
        return text
    kept = ("fence", "code_block", "html_block")  # code, and raw HTML (which Obsidian shows as written too)
    code = {n for t in _PARSER.parse(text) if t.type in kept and t.map for n in range(*t.map)}
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if number not in code and "[[" in line:
            lines[number] = _outside_code_spans(line, lambda part: _WIKILINK.sub(lambda m: _link(m, targets), part))
    return "\n".join(lines)


class _Index:
    """The files found together, looked up as Obsidian looks up a wikilink's target."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.paths: dict[str, str] = {}
        """A key, lowercased, and a note's key without its suffix -> the key."""
        self.names: dict[str, list[str]] = {}
        """A file's name, lowercased (a note's also without its suffix) -> the keys of that name, sorted."""
        self.endings: dict[str, tuple[str | None, dict[str, str]]] = {}
        """A target, lowercased -> the key whose path ends with it that has the fewest folders (then alphabetical),
        and of those in each folder that one: looked through once for all the pages that name it (3,000 pages
        linking ``[[README]]`` beside 3,000 READMEs, each looking through them all, took 20 s; review V15)."""
        for key in sorted(keys):
            names = [key.lower()]
            names += [key.lower()[: -len(s)] for s in _NOTE_SUFFIXES if key.lower().endswith(s)]
            for name in names:
                self.paths.setdefault(name, key)
                self.names.setdefault(posixpath.basename(name), []).append(key)

    def resolve(self, target: str, here: str) -> str | None:
        """The key ``target`` names, written in the page ``here``, or None."""
        for written in dict.fromkeys((target, target.replace(" ", "-"))):
            wanted = written.lower().lstrip("/")
            folder = posixpath.dirname(here).lower()
            if wanted in self.paths:
                return self.paths[wanted]
            beside = posixpath.normpath(posixpath.join(folder, wanted))
            if beside in self.paths:
                return self.paths[beside]
            first, by_folder = self._ending(wanted)
            if first is not None:
                return by_folder.get(folder, first)
        return None

    def _ending(self, wanted: str) -> tuple[str | None, dict[str, str]]:
        """``endings[wanted]``, found the first time it is asked for."""
        found = self.endings.get(wanted)
        if found is None:
            ending = sorted((key for key in self.names.get(posixpath.basename(wanted), [])
                             if _path_ends_with(key.lower(), wanted)), key=lambda key: (key.count("/"), key))
            by_folder: dict[str, str] = {}
            for key in ending:
                by_folder.setdefault(posixpath.dirname(key).lower(), key)
            found = self.endings[wanted] = (ending[0] if ending else None, by_folder)
        return found


def _path_ends_with(key: str, wanted: str) -> bool:
    stems = [key] + [key[: -len(s)] for s in _NOTE_SUFFIXES if key.endswith(s)]
    return any(stem == wanted or stem.endswith("/" + wanted) for stem in stems)


def _sides(inner: str) -> list[str]:
    """A wikilink's target and shown text (``\\|``: a bar escaped in a table)."""
    target, bar, shown = inner.replace("\\|", "|").partition("|")
    return [target, shown] if bar else [target]


def _link(found: re.Match[str], targets: Mapping[str, str] | None) -> str:
    """What the wikilink ``found`` reads as: a Markdown link, or its shown text."""
    sides = _sides(found.group(2))
    target, shown = sides[0], (sides[1] if len(sides) > 1 else "")
    page, _, fragment = target.partition("#")
    page = page.strip()
    known = targets or {}
    if page not in known and shown and shown.partition("#")[0].strip() in known:  # a wiki's [[text|Page]]
        target, shown = shown, target
        page, _, fragment = target.partition("#")
        page = page.strip()
    heading = fragment.split("#")[-1].strip()
    if not shown:
        shown = " > ".join(part.strip() for part in (page, heading) if part and not part.startswith("^"))
        shown = shown or target.strip()
    if heading.startswith("^"):  # a block reference (``#^id``): the page, its blocks bear no anchor here
        heading = ""
    href = known.get(page) if page else ""
    if href is None or (not page and not heading):
        return shown
    anchor = github_slug(heading)
    destination = (href + (f"#{anchor}" if anchor else "")).replace("<", "%3C").replace(">", "%3E")
    label = _BRACKETS.sub(r"\\\1", shown)
    return f"[{label}](<{destination}>)"


def _outside_code_spans(line: str, change: Callable[[str], str]) -> str:
    parts: list[str] = []
    at = 0
    for start, end in _code_spans(line):
        parts.append(change(line[at:start]))
        parts.append(line[start:end])
        at = end
    parts.append(change(line[at:]))
    return "".join(parts)


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Where ``line``'s code spans start and end, as CommonMark reads them: a run of backticks opens one that the next
    run of as many closes; a run that none closes is text. Linear: each run's next of its length is found in one walk
    from the line's end (a pattern that tried each run's shorter lengths to the line's end took 6.6 s for a line of
    1,000 backticks, review V15)."""
    runs = [(found.start(), found.end()) for found in _TICKS.finditer(line)]
    closer: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}  # a run's length -> the first run of that length after the one looked at
    for index in range(len(runs) - 1, -1, -1):
        length = runs[index][1] - runs[index][0]
        closer[index], last[length] = last.get(length), index
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        close = closer[index]
        if close is None:
            index += 1
        else:
            spans.append((runs[index][0], runs[close][1]))
            index = close + 1
    return spans
