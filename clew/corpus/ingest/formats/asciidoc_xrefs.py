"""AsciiDoc cross-references with their text, and Antora's page references, for the AsciiDoc reader (``lightmarkup``).

``<<info,INFO>>`` shows "INFO" and links to the anchor ``info`` of the page (``[[info]]`` or ``[#info]``),
``<<other.adoc#id,Text>>`` to that page; Antora's ``xref:safe-modes.adoc#secure[SECURE]`` shows "SECURE" and
links to that page; ``xref:cli:index.adoc[]`` (no text) shows what Antora shows, the page's ``:reftext:`` or
title (in a navigation file its ``:navtitle:``) where the page is found (:func:`xref_targets`), else its name,
"cli:index".
Written as they stand, an answer quoted the markup (task U34: 0 links in Asciidoctor's docs).

An Antora page reference names its page from the module's ``pages`` folder, not from the page: ``index.adoc``,
``module:page.adoc`` (another module of the component, ``ROOT`` the default one) are found under
``modules/<module>/pages/`` beside the page's own module folder (:func:`xref_targets`, read before the pages are
parsed, with the pages found together); a reference naming another component (``asciidoctorj::index.adoc``,
``asciidoc:toc:position.adoc``) or a resource (``example$wrap.adoc``) links nowhere, nor does one whose page is not
among those found. Outside Antora's layout an ``xref:`` names a page beside this one, as Asciidoctor reads it.

``<<summary>>`` (no text) stays as written and links to its anchor (``lightmarkup``); references inside a
listing or literal block, or in a passthrough (``+<<idname,>>+``), are not read.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

_XREF = re.compile(
    r"\+[^+\n]*\+|\\<<|<<([\w:.#/-]+),[ \t]*([^<>\n]*?)>>|(?<![\w\\])xref:([\w@.:/#$-]+)\[([^\]\n]*)\]")
_FENCE = re.compile(r"^(-{4,}|\.{4,}|\+{4,})\s*$")
_RESOURCE = re.compile(r"^(?:([\w-]+):)?(partial|example|page|attachment|image)\$(.+)$")
"""An Antora resource id in an ``include::`` (``partial$success.adoc``, ``cli:example$x.rb``): its module (this
page's where none is named), its family (a folder of the module: ``partials``, ``examples``, ...) and its path."""
_HEADER = re.compile(r"^=[ \t]+(\S.*?)[ \t]*$|^:([\w-]+):(?:[ \t]+(.*?))?[ \t]*$|^//")
_ANTORA = re.compile(r"^(?:(.*)/)?modules/([^/]+)/(?:(pages)/.+|[^/]+\.adoc)$")
"""A page of an Antora module, or its navigation file (``modules/ROOT/nav.adoc``)."""


class Xref:
    """A cross-reference written as its text: where its text starts (line, column) and what it names."""

    __slots__ = ("column", "line", "target", "xref")

    def __init__(self, line: int, column: int, target: str, xref: bool) -> None:
        self.line, self.column, self.target, self.xref = line, column, target, xref


def xref_lines(lines: list[str], targets: Mapping[str, str] | None = None) -> tuple[list[str], list[Xref]]:
    """``lines`` with each cross-reference outside code written as its text (see the module's doc; ``targets``:
    :func:`xref_targets`', whose ``"page.adoc[]"`` is what an ``xref:page.adoc[]`` shows), and the references,
    in order."""
    out: list[str] = []
    refs: list[Xref] = []
    fence: str | None = None
    for number, line in enumerate(lines):
        delimiter = _FENCE.match(line)
        if fence is not None or delimiter is not None:
            if delimiter is not None and (fence is None or line.strip() == fence):
                fence = line.strip() if fence is None else None
            out.append(line)
            continue
        if "<<" not in line and "xref:" not in line:
            out.append(line)
            continue
        written: list[str] = []
        last = 0
        for found in _XREF.finditer(line):
            if found.group(1) is None and found.group(3) is None:
                continue
            written.append(line[last:found.start()])
            column = sum(map(len, written))
            if found.group(1) is not None:
                shown, target, xref = found.group(2).strip() or found.group(1), found.group(1), False
            else:
                target = found.group(3)
                shown = found.group(4).strip() or (targets or {}).get(target + "[]") or _page_name(target)
                xref = True
            written.append(shown)
            refs.append(Xref(number, column, target, xref))
            last = found.end()
        written.append(line[last:])
        out.append("".join(written))
    return out, refs


def resource_path(page: str, name: str) -> str:
    """The file an ``include::`` of the page at ``page`` (a path, ``/`` between its parts) names, relative to the
    page's folder: an Antora resource id (``partial$success.adoc`` from ``modules/install/pages/x.adoc`` is
    ``../partials/success.adoc``) where the page is in a module; else ``name`` as written (one naming another
    component, ``asciidoc:cli:partial$x.adoc``, too: it is not among the files)."""
    found = _RESOURCE.match(name)
    parts = page.split("/")
    if found is None or "modules" not in parts[:-3]:
        return name
    at = len(parts) - 1 - parts[::-1].index("modules", 3)  # the module folder's: modules/<module>/pages/...
    module, family, path = found.group(1) or parts[at + 1], found.group(2), found.group(3)
    return posixpath.relpath("/".join([*parts[:at + 1], module, family + "s", path]), posixpath.dirname(page))


def _page_name(target: str) -> str:
    """How an ``xref:`` without text reads: its page without ``.adoc``, version and fragment (``cli:index``)."""
    page = target.split("#", 1)[0].split("@", 1)[-1]
    return page[:-5] if page.endswith(".adoc") else page


def xref_href(ref: Xref, anchors: Mapping[str, int], targets: Mapping[str, str]) -> str | None:
    """Where ``ref`` links: an anchor of the page, a page found with it (``targets``: :func:`xref_targets`), a page
    beside it; None where it names another component, a resource or an anchor the page lacks."""
    if not ref.xref:
        if "#" in ref.target or ref.target.endswith(".adoc"):
            return ref.target
        return "#" + ref.target if ref.target in anchors else None
    if ref.target in targets:
        return targets[ref.target] or None
    page = ref.target.split("#", 1)[0]
    if not page:
        fragment = ref.target[1:]
        return ref.target if fragment in anchors else None
    return None if any(ch in page for ch in ":$@") or not page.endswith(".adoc") else ref.target


def xref_targets(texts: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """For each AsciiDoc page of ``texts`` (a key -> its text: the pages found together) in Antora's layout
    (``.../modules/<module>/pages/<page>``, or the module's ``nav.adoc``), the hrefs, relative to it, of the pages
    its ``xref:`` references name among them: ``{"cli:index.adoc": "../../cli/pages/index.adoc"}``; an empty
    href for one naming none of them (no link); and for a page found, what a reference without text shows:
    ``{"cli:index.adoc[]": "Process AsciiDoc Using the CLI"}`` (:func:`_reference_text`)."""
    out: dict[str, dict[str, str]] = {}
    for key, text in texts.items():
        layout = _ANTORA.match(key)
        if layout is None or "xref:" not in text:
            continue
        root, module = layout.group(1), layout.group(2)
        found_here: dict[str, str] = {}
        for found in _XREF.finditer(text):
            target = found.group(3)
            if target is None or target in found_here:
                continue
            page, _, fragment = target.partition("#")
            parts = page.split("@", 1)[-1].split(":")
            found_here[target] = ""  # no link, unless found below
            if len(parts) > 2 or "$" in parts[-1] and not parts[-1].startswith("page$"):
                continue
            name = parts[-1].removeprefix("page$")
            other = parts[0] if len(parts) == 2 and parts[0] else module
            path = posixpath.join(*(part for part in (root, "modules", other, "pages", name) if part))
            if path in texts:
                href = posixpath.relpath(path, posixpath.dirname(key))
                found_here[target] = href + ("#" + fragment if fragment else "")
                shown = None if fragment else _reference_text(texts[path], navigation=layout.group(3) is None)
                found_here.update({target + "[]": shown} if shown else {})
        if found_here:
            out[key] = found_here
    return out


def _reference_text(text: str, navigation: bool) -> str | None:
    """What Antora shows for a reference without text to the page ``text``: its ``:reftext:`` (from a navigation
    file, its ``:navtitle:``) or its title, from the page's header (the ``= Title`` line and the attribute entries
    and comments around it, up to a blank line after the title); None without one (or with an attribute in it)."""
    found: dict[str, str] = {}
    for line in text[:8192].split("\n"):
        entry = _HEADER.match(line)
        if entry is None and (line.strip() or "title" in found):
            break
        if entry is not None and entry.group(0) != "//":
            found.setdefault(entry.group(2) or "title", entry.group(1) or entry.group(3) or "")
    shown = found.get("navtitle" if navigation else "reftext") or found.get("title")
    return shown if shown and "{" not in shown else None
