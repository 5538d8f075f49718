"""MkDocs' generic blocks, mkdocstrings' autodoc lines and icon links, read as the built site shows them.

- pymdown-extensions' Blocks (``pymdownx.blocks``, MkDocs Material sites): a block opens with ``/// name | title``
  (more slashes to nest one in another: ``//// tab | Output``), may take YAML options on the indented lines right
  after (``    type: warning``, ``    open: True``) and closes with a line of as many slashes. An admonition's fence
  reads as its label, as a directive container's does (``/// tip | New tabs`` reads ``Tip: New tabs``, ``/// note``
  ``Note:``, ``/// new | New 10.7`` ``New 10.7:``); a titled ``admonition``, ``details`` or ``tab`` reads as its
  title (``/// tab | pip`` reads ``pip:``); the wrappers ``html`` (``/// html | div.result``), ``caption``,
  ``define`` and ``attrs`` read as nothing, their body being the text. Option lines and closing fences are not text.
  A block inside a list item is indented with the item's text.
- mkdocstrings' autodoc line (``::: package.module.Class``, a dotted name alone on its line, with its indented
  ``options:`` lines): the site renders the object's API documentation from the code, which a Markdown source does
  not hold; the lines are not text, and an admonition (``??? abstract "API Reference"``) that held only them is
  none either.
- A line of icon links only (MkDocs Material's ``[:octicons-file-code-24:][_tabbed]{: .source-link }``, a link to the
  page's source drawn as an icon, atop each of pymdown-extensions' pages): the site shows an icon, no words; the
  line is not text.

Every line stays a line (the rewritten text maps to the source's lines); code is left as written.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.dialects import code_lines

_FENCE = re.compile(r"([ \t]*+)(/{3,}+)(?:[ \t]*+([A-Za-z][\w-]*+)(?:[ \t]*+\|[ \t]*+((?:.*[^ \t\n])?))?)?[ \t]*")
_WRAPPERS = frozenset({"html", "caption", "figure-caption", "table-caption", "define", "attrs", "markdown"})
_BY_TITLE = frozenset({"admonition", "details", "tab"})
_AUTODOC = re.compile(r"([ \t]*):::[ \t]+[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+[ \t]*")
_ICON_LINKS = re.compile(r"[ \t]*(?:\[:[\w+-]+:\](?:\([^()\s]*\)|\[[^\[\]]*\])(?:\{:?[^{}]*\})?[ \t]*)+")
_MARKER = re.compile(r"([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w\"-]")


def mkdocs_blocks(text: str) -> str:
    """``text`` with its generic blocks' fences read as labels, its autodoc lines and icon links left out (see
    above)."""
    if "///" not in text and ":::" not in text and "[:" not in text:
        return text
    lines = text.split("\n")
    if not any(_candidate(line) for line in lines):  # a "[:" in prose or code: no block to read, no parse to pay
        return text
    code = code_lines(text)
    cleared: set[int] = set()
    if "///" in text:
        _blocks(lines, code)
    if ":::" in text:
        cleared = _autodoc(lines, code)
    if cleared:
        _emptied_admonitions(lines, code, cleared)
    if "[:" in text:
        for number, line in enumerate(lines):
            if "[:" in line and number not in code and _ICON_LINKS.fullmatch(line):
                lines[number] = ""
    return "\n".join(lines)


def _candidate(line: str) -> bool:
    """Whether ``line`` reads as a generic block's fence, an autodoc line or a line of icon links (if not in code)."""
    return (
        ("///" in line and _FENCE.fullmatch(line) is not None)
        or (":::" in line and _AUTODOC.fullmatch(line) is not None)
        or ("[:" in line and _ICON_LINKS.fullmatch(line) is not None)
    )


def _blocks(lines: list[str], code: set[int]) -> None:
    every = {n: found for n, line in enumerate(lines)
             if "///" in line and (found := _FENCE.fullmatch(line)) is not None}
    fences = {n: found for n, found in every.items() if n not in code}
    # the last closing fence of each width, code included (a tab's indented body reads as code to CommonMark)
    last_close = {len(found.group(2)): n for n, found in every.items() if found.group(3) is None}
    opened: list[int] = []  # the slash counts of the open blocks, innermost last
    number = 0
    while number < len(lines):
        fence = fences.get(number)
        slashes = len(fence.group(2)) if fence is not None else 0
        if fence is None or (fence.group(3) is not None and last_close.get(slashes, -1) < number):
            number += 1  # not a fence, or an opening one that nothing closes ("/// Returns", a Rust doc comment)
            continue
        name = fence.group(3)
        if name is None:
            if slashes in opened:  # a closing fence: the blocks opened inside it close with it
                del opened[opened.index(slashes):]
                lines[number] = ""
            number += 1
            continue
        opened.append(slashes)
        lines[number] = _label(name.lower(), (fence.group(4) or "").strip())
        options = _indent(fence.group(1)) + 4
        number += 1
        while number < len(lines) and number not in code and lines[number].strip() and (
                _indent(lines[number]) >= options):
            lines[number] = ""  # the block's YAML options
            number += 1


def _label(name: str, title: str) -> str:
    if name in _WRAPPERS:
        return ""
    if name in _BY_TITLE:
        return f"{title}:" if title else ("Details:" if name == "details" else "")
    label = name.replace("-", " ").capitalize()
    if title.lower().split(" ", 1)[0] == label.lower():  # "/// new | New 10.7": "New 10.7:", not "New: New 10.7"
        return f"{title}:"
    return f"{label}: {title}" if title else f"{label}:"


def _autodoc(lines: list[str], code: set[int]) -> set[int]:
    cleared: set[int] = set()
    number = 0
    while number < len(lines):
        found = None if number in code else _AUTODOC.fullmatch(lines[number])
        if found is None:
            number += 1
            continue
        indent = _indent(found.group(1))
        lines[number] = ""
        cleared.add(number)
        number += 1
        while number < len(lines) and lines[number].strip() and _indent(lines[number]) > indent:
            lines[number] = ""  # its options
            cleared.add(number)
            number += 1
    return cleared


def _emptied_admonitions(lines: list[str], code: set[int], cleared: set[int]) -> None:
    """An MkDocs admonition whose body was only autodoc lines is not text either."""
    for number, line in enumerate(lines):
        marker = None if number in code else _MARKER.match(line)
        if marker is None:
            continue
        after = next((n for n in range(number + 1, len(lines)) if lines[n].strip()), len(lines))
        if after < len(lines) and _indent(lines[after]) > _indent(marker.group(1)):
            continue  # the body holds text
        if any(n in cleared for n in range(number + 1, after)):
            lines[number] = ""


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())
