"""Source text that is no Markdown, rewritten as the Markdown the extract quotes it as
(``clew.agent.units``): AsciiDoc's listing and literal blocks and labeled lists, reStructuredText's
code directives and literal blocks, and the lines of either that are no text (``rst_literals``);
blockquotes, GitHub alerts and MkDocs admonitions, whose markers the readers keep as written, read
as the site shows them (``admonitions``).
"""

from __future__ import annotations

import re

FENCE = "```"


def indent(line: str) -> int:
    return len(line) - len(line.lstrip())


_DELIMITER = re.compile(r"-{4,}|\.{4,}")
_NOT_TEXT = re.compile(r"\+|\[\[[\w:.-]+\]\]|\.\.\s+auto\w+::.*")
"""Lines of source text that are no text: AsciiDoc's list continuation (``+`` alone: "+ All ignored and
untracked files ..." was quoted as a list item) and block anchor (``[[last-commit-amend]]``, quoted
joined to the question under it), a reStructuredText autodoc directive (``.. autofunction:: name``,
whose text Sphinx reads from the code: quoted as written, question 7's first line)."""
_LABELED = re.compile(r"(\S.*?)(?<!:)::\s*$")


def _labeled(lines: list[str], first: int) -> tuple[list[str], list[str], int] | None:
    """AsciiDoc's labeled list item at line ``first``: its terms (``-u::``, ``--include-untracked::``, a
    line each), its description (the indented lines right under them, unindented) and the line after
    it. Read as written, the description, indented under a line ending in ":", was quoted as code."""
    terms: list[str] = []
    index = first
    while index < len(lines) and not lines[index][:1].isspace() and (found := _LABELED.match(lines[index])):
        terms.append(found.group(1))
        index += 1
    stop = index
    while stop < len(lines) and lines[stop].strip() and lines[stop][:1].isspace():
        stop += 1
    if not terms or stop == index:
        return None
    return terms, [line.strip() for line in lines[index:stop]], stop


_LITERAL_OPENER = re.compile(  # "((?:.*\S)?)\s*::", not "(.*?)\s*::": that is quadratic in a line's blanks
    r"\s*\.\.\s+(?:code-block|sourcecode|code)::\s*([\w+-]*)\s*$|((?:.*\S)?)\s*::\s*$")
_DIRECTIVE = re.compile(r"\s*\.\.\s+\S+::")
_OPTION_LINE = re.compile(r"\s*:[\w-]+:(?:\s.*)?$")


def rst_literals(lines: list[str]) -> list[str]:
    """A passage's AsciiDoc listing and literal blocks (``----`` or ``....`` lines around them, after a
    blank line: "------------ $ git revert HEAD^ ------------" was quoted as prose) as fenced code, its
    AsciiDoc labeled lists as terms over their descriptions (``_labeled``), and its
    reStructuredText code as fenced blocks, as the Markdown it is quoted as: a code
    directive (``.. code-block:: python``, its options dropped) or a paragraph ending in ``::`` (read
    ending in ``:``, as Sphinx renders it; ``::`` alone is nothing) and a blank line (AsciiDoc's
    labeled list, ``--include-untracked::`` over its indented description, is no code) over its indented lines, blank
    lines inside them included, dedented. Read as paragraphs, a block was cut at its first blank line
    and its indentation lost (Jinja's "def datetime_format(...):" then "return value.strftime(format)"
    and, cut off, ``environment.filters["datetime_format"] = datetime_format``)."""
    out: list[str] = []
    index, fenced = 0, False
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.strip().startswith(FENCE):
            fenced = not fenced
        if not fenced and _NOT_TEXT.fullmatch(line.strip()):
            out.append("")
            continue
        if not fenced and _DELIMITER.fullmatch(line) and (index < 2 or not lines[index - 2].strip()) and (
                line in lines[index:]):  # AsciiDoc's listing or literal block, between two equal lines
            stop = lines.index(line, index)
            out.extend([FENCE, *lines[index:stop], FENCE])
            index = stop + 1
            continue
        labeled = None if fenced else _labeled(lines, index - 1)
        if labeled is not None:
            terms, body, index = labeled
            out.extend([" ".join(terms), "", *body, ""])
            continue
        opener = None if fenced else _LITERAL_OPENER.match(line)
        if opener is None or (opener.group(1) is None and (
                _DIRECTIVE.match(line) or index >= len(lines) or lines[index].strip())):  # AsciiDoc's "term::"
            out.append(line)
            continue
        margin = indent(line)
        stop = index
        while stop < len(lines) and (not lines[stop].strip() or indent(lines[stop]) > margin):
            stop += 1
        body = lines[index:stop]
        while body and opener.group(1) is not None and _OPTION_LINE.match(body[0]):
            body = body[1:]
        while body and not body[-1].strip():
            body = body[:-1]
        while body and not body[0].strip():
            body = body[1:]
        if not body:
            out.append(line)
            continue
        if opener.group(2):
            out.append(line[:margin] + opener.group(2) + ("" if opener.group(2).endswith(":") else ":"))
        deep = min(indent(b) for b in body if b.strip())
        out.extend(["", FENCE + (opener.group(1) or ""), *(b[deep:] for b in body), FENCE, ""])
        index = stop
    return out


_QUOTED = re.compile(r" {0,3}(?!>>>\s)(?:>[ \t]?)+")
"""A blockquote's markers at a line's start (``> ``, nested ``> > ``); not a Python session's ``>>> ``."""
_ALERT = re.compile(r"\[!([A-Za-z][\w-]*+)\][-+]?[ \t]*+(?:#++[ \t]++)?((?:.*[^ \t\n])?)[ \t]*")
"""A GitHub alert's or a pymdownx.quotes callout's marker, the first line of its blockquote (``[!NOTE]``, ``[!new] New
in 12.0``, the collapsible ``[!danger]- Click to see more``): its title after it, if any."""
_ADMONITION = re.compile(r"[ \t]*(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z][\w-]*(?:[ \t]+[A-Za-z][\w-]*)*"
                         r"(?:[ \t]+\"(.*)\")?[ \t]*")
"""An MkDocs admonition's marker (``!!! note``, ``!!! tip "Title"``, the collapsible ``??? abstract`` and ``???+``,
extra classes such as ``inline end`` before the title)."""


def admonitions(lines: list[str]) -> list[str]:
    """A passage's blockquotes as their text (the ``>`` markers left out) and its admonitions' and alerts' markers
    (``_ADMONITION``, ``_ALERT``) read as the site shows them: a title as a paragraph of its own (a label over the
    body: "New in 12.0" over "Tilde was rewritten from the ground up."), an untitled marker as nothing (the site
    shows its type, which says what kind of aside it is, not what it says). Read as written, ``!!! note`` was a
    label quoted as a line of its own over each of its body's sentences, and "> [!new] New in 12.0 > Tilde was
    rewritten from the ground up." one sentence (task U10's q3). Code is left as written."""
    out: list[str] = []
    fenced: bool | None = None  # inside code: whether its fence was quoted (its lines' markers are the quote's)
    for line in lines:
        quoted = _QUOTED.match(line)
        if fenced is False:
            quoted = None  # "> [!note]" as a page shows the syntax, in code
        text = line[quoted.end():] if quoted else line
        if text.strip().startswith(FENCE):
            fenced = quoted is not None if fenced is None else None
            out.append(text)
            continue
        marker = None if fenced is not None else (_ALERT.fullmatch(text) if quoted else _ADMONITION.fullmatch(line))
        if marker is None:
            out.append(text)
        else:
            title = (marker.group(2) if quoted else marker.group(1) or "").strip()
            out.extend(["", title, ""] if title else [""])
    return out
