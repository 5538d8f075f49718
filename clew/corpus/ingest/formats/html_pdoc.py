"""The HTML reader's rule for pdoc's API pages (``clew.corpus.ingest.formats.html``; pdoc 16, measured on
clew's own modules: docs/measurements/structure-2026-12-05.md, task R1).

pdoc writes a module's page as ``main.pdoc``: the module's ``h1`` and docstring, then one
``section[id]`` per member (``id`` its name: ``normalize``, ``Limits``) and in a class one
``div.classattr[id]`` per member (``Limits.max_tool_calls``). A member's signature is a ``div.attr``
(``def normalize(text: str) -> str:``), not a heading, so the whole page was one section, every
docstring under the module's title. And beside each signature, hidden until "View Source" is
clicked (``label.view-source-button``), sits the member's source, the module's whole source beside
its docstring (``div.pdoc-code``, each line with its number and a link to it): the docstrings a
second time, among the code.

:func:`pdoc_page` rewrites the held events of ``main.pdoc``: a member's ``div.attr`` is preceded by a
heading holding the member's qualified name (its box's id; ``h2`` for a module's member, ``h3`` for
a class's), so that its signature and docstring are its section; the "View Source" labels and the
source listings (a ``div.pdoc-code`` that is a child of a member's box or of the module's
``section.module-info``, not a docstring's example) are left out. A docstring's own headings (pdoc renders a
docstring as Markdown: rich's ``# Create a panel 20 characters wide``, a comment in an example, is an ``h1``) are
made headings below its member's (:func:`_heading_level`, task U27): as written, an ``h1`` in ``Align``'s docstring
was a section beside the module and every later member of the page sat under it. A class's "Inherited Members"
(``div.inherited > h5``) is a heading of the class, beside its members, not under its last member.

A docstring's doctest example (``>>> if Confirm.ask("Continue"):``) is three nested blockquotes to pdoc's Markdown
(markdown2), its lines one paragraph: it is read as a Python code block (:func:`_doctest`, task R18), as Sphinx's
doctest blocks are, not as a paragraph (U27's R5 quoted rich's ``Confirm`` example as a label).

:func:`pdoc_title`: pdoc's and pdoc3's ``<title>`` is "<module> API documentation" on every page; the page's
title is the module's name (task U27).
"""

from __future__ import annotations

from clew.corpus.ingest.formats.html_events import Parents, classes, follow, text_element
from clew.corpus.ingest.formats.html_rules import _VOID, Event, _attr

_BOXES = {"section": "h2", "div": "h3"}
"""A member's box, and the heading its name is read as: ``section[id]`` (a module's member),
``div.classattr[id]`` (a class's)."""
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_GENERATORS = ('<meta name="generator" content="pdoc ', '<meta name="generator" content="pdoc3 ')
_API_TITLE = " API documentation</title>"
"""What pdoc and pdoc3 write in a page's head: their ``meta``, and its ``<title>``'s end after the module's name."""


def pdoc_main(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element is pdoc's ``main.pdoc`` (the page's content, read ahead and rewritten)."""
    return tag == "main" and "pdoc" in classes(attrs)


def _box(tag: str, attrs: list[tuple[str, str | None]]) -> str | None:
    """The member's name when the element is a member's box, else None."""
    name = _attr(attrs, "id")
    if name is None or tag not in _BOXES or (tag == "div" and "classattr" not in classes(attrs)):
        return None
    return name


def _source_parent(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Whether a source listing in this element is a member's or the module's (not a docstring's code)."""
    return _box(tag, attrs) is not None or (tag == "section" and "module-info" in classes(attrs))


def pdoc_title(text: str) -> str:
    """A page of pdoc or pdoc3 (its generator's ``meta``) titled by its module, not "<module> API documentation"."""
    head = text[:4000]
    start, end = head.find("<title>"), head.find(_API_TITLE)
    if start < 0 or end < start or "<" in head[start + len("<title>"):end] or not any(
            generator in head for generator in _GENERATORS):
        return text
    return text[:end] + "</title>" + text[end + len(_API_TITLE):]


def _heading_level(tag: str, parents: Parents) -> str:
    """The heading ``tag`` as it reads in pdoc's page: inside a docstring, one level below its member's heading
    and more (its ``h1`` the member's level plus one, at most ``h6``); inside a class's "Inherited Members" box,
    one level below the class's; else ``tag``."""
    inside = None
    for parent_tag, attrs in reversed(parents):
        names = classes(attrs)
        if inside is None and parent_tag == "div" and ("docstring" in names or "inherited" in names):
            inside = "docstring" if "docstring" in names else "inherited"
        level = 1 if parent_tag == "section" and "module-info" in names else None
        if _box(parent_tag, attrs) is not None:
            level = int(_BOXES[parent_tag][1])
        if level is not None:
            if inside is None:
                return tag
            below = int(tag[1]) if inside == "docstring" else 1
            return f"h{min(6, level + below)}"
    return tag


DOCTEST_DEPTH = 3
"""Blockquotes nested in a docstring, a paragraph alone in the innermost: ``>>>`` read as Markdown's quote marks."""


def _doctest(events: list[Event], at: int) -> tuple[list[Event], int] | None:
    """A ``pre > code.language-python`` for pdoc's doctest example opening at ``events[at]`` (a blockquote), and the
    index past its end; None where the blockquote is another. markdown2 indents a blockquote's lines two spaces a
    level, so the paragraph's lines after its first lose that (``run_job()`` under ``if Confirm.ask(...):`` keeps
    the rest)."""
    depth = levels = 0
    paragraphs: list[str] = []
    paragraph: list[str] | None = None
    for index in range(at, len(events)):
        kind, tag, _ = events[index]
        if kind == "data":
            if paragraph is not None:
                paragraph.append(tag)
            elif tag.strip():
                return None
        elif tag == "blockquote" and paragraph is None and kind in ("start", "end"):
            if kind == "start" and paragraphs:
                return None
            depth += 1 if kind == "start" else -1
            levels = max(levels, depth)
            if depth == 0:
                if levels < DOCTEST_DEPTH or not paragraphs:
                    return None
                indent = " " * (2 * levels)
                code = "\n\n".join("\n".join(line.removeprefix(indent) if i else line.strip()
                                              for i, line in enumerate(text.rstrip().split("\n")))
                                    for text in paragraphs)
                return [("start", "pre", []), ("start", "code", [("class", "language-python")]), ("data", code, []),
                        ("end", "code", []), ("end", "pre", [])], index + 1
        elif tag == "p" and kind in ("start", "end"):
            if kind == "start" and (paragraph is not None or depth != levels):
                return None
            if kind == "end" and paragraph is not None:
                paragraphs.append("".join(paragraph))
            paragraph = [] if kind == "start" else None
        elif paragraph is None:  # another element beside the paragraph: a quote, not a doctest
            return None
    return None


def pdoc_page(events: list[Event]) -> list[Event]:
    """The events of ``main.pdoc`` rewritten as the module docstring says."""
    out: list[Event] = []
    parents: Parents = []
    left_out = 0  # the depth of the element being left out, else 0
    heading = ""  # the open heading's tag as it is read, where it is rewritten
    skip_to = 0  # past a doctest example read as code
    for at, event in enumerate(events):
        if at < skip_to:
            continue
        kind, tag, attrs = event
        if (kind == "start" and tag == "blockquote" and not left_out and parents
                and "docstring" in classes(parents[-1][1]) and (doctest := _doctest(events, at)) is not None):
            code, skip_to = doctest
            out.extend(code)
            continue
        opens = kind == "start" and tag not in _VOID
        if left_out:
            if kind == "end" and tag not in _VOID and len(parents) == left_out:
                left_out = 0
            follow(parents, event)
            continue
        if opens and ((tag == "div" and "pdoc-code" in classes(attrs) and parents and _source_parent(*parents[-1]))
                      or (tag == "label" and "view-source-button" in classes(attrs))):  # a listing, its button
            follow(parents, event)
            left_out = len(parents)
            continue
        if opens and tag == "div" and "attr" in classes(attrs) and parents:
            name = _box(*parents[-1])
            if name is not None:
                out.extend(text_element(_BOXES[parents[-1][0]], name))
        if tag in _HEADINGS and kind == "start" and (level := _heading_level(tag, parents)) != tag:
            heading, event = level, (kind, level, attrs)
        elif tag in _HEADINGS and kind == "end" and heading:
            event, heading = (kind, heading, attrs), ""
        follow(parents, event)
        out.append(event)
    return out
