"""Man pages as groff (``groff -man -Thtml``) and man2html write them, made into the HTML the reader reads
well before it is parsed (task R4, issue 36; docs/measurements/generators-2026-12-06.md has what was checked).
Each is known by its first lines (checked once per page, :func:`man_html`); any other page is returned as it is.

groff writes a man page flat: every paragraph a ``p`` indented by an inline style (``margin-left:11%``), an
option's tag (``.TP``) a paragraph and its text a paragraph indented further, a short tag and its text the cells
of a one-row layout table beside empty cells of set widths, a subsection heading (``.SS``) a bold paragraph,
joined by a ``br`` to the tag after it; and the page's index, its own headings as links a ``br`` apart, under its
title. Tcl's pages draw a rule above and below the synopsis (``.BS``/``.BE``, and under an ``.AP`` argument list)
that groff writes as a run of underscores, a paragraph of its own or the end of the synopsis's paragraph (231 of
Tcl 8.6's 232 pages, task U9): read as text ("lsort ?options? list ____...", a passage "lsort ____..." of its own).
The rules and the index are dropped; each tag followed by text indented further is a definition term (``dt``), its text
the ``dd`` (as mandoc's option terms, which the reader makes sections); a ``.SS`` heading is an ``h3``.
A display in no-fill mode (Tcl's ``.CS``/``.CE`` examples: indented paragraphs, a ``br`` after each line) is one
``pre`` (task R9).

man2html writes the page's title "Man page of TAR" over its ``h1`` "TAR", a header of the page's section, date
and "Index" and "Return to Main Contents" links above the first ``hr``, and after the page an "Index" (a ``dl``
of its own headings as links) and "This document was created by man2html ... Time: ...": the title is the
``h1``'s, the rest is dropped.

mandoc (``-Thtml``) writes a man(7) page's bulleted paragraphs (``.IP \\(bu``) as a ``dl.Bl-tag`` whose every term is
the bullet: read as terms "•", each item a paragraph under a paragraph "•" (708 items on 110 of the Linux man-pages'
893 section 2 and 3 pages, task U15). Such a list is a ``ul``, and one whose terms number it ("(1)", "2.", "[3]",
consecutive: 15 of the 893 pages) an ``ol`` from its first number (:func:`_mandoc_lists`).

Postfix's man pages as HTML (postfix-doc 3.7, task S3) are nroff's output in one ``pre``: the header line "ACCESS(5)
... ACCESS(5)", each section's name in bold at the left margin, its text indented under it, the footer line. A page
whose ``pre`` opens with such a header line is parted at those names, each an ``h2`` over its text as a ``pre``
(:func:`_nroff_pre`); the header and footer lines go.

pod2html (Perl's POD pages) titles a page by its NAME paragraph ("perlfaq4 - Data Manipulation"), but writes an empty
``<title>`` where the NAME heading holds an index entry (``=head1 NAME X<regex>``, 20 of Perl 5.36's 206 pages), so
that the page was titled by its first ``h1``, "NAME" (task U9): the NAME paragraph is its title. A group of
``=item`` lines is one heading (:data:`_POD_EMPTY_DD`).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

_GROFF = '<meta name="generator" content="groff -Thtml'
_MAN2HTML_TITLE = re.compile(r"<title>Man page of ([^<]*)</title>", re.IGNORECASE)
_MAN2HTML_END = re.compile(r'created by\s*<a href="[^"]*">man2html</a>', re.IGNORECASE)


def man_html(text: str) -> str:
    """``text`` as the reader should read it: a groff or man2html man page restructured, any other as it is."""
    head = text[:2000]
    if _GROFF in head:
        return _groff(text)
    title = _MAN2HTML_TITLE.search(head)
    if title is not None and _MAN2HTML_END.search(text, max(0, len(text) - 2000)):
        return _man2html(text, title)
    if _POD2HTML in head:
        return _pod2html(text)
    if _MANDOC in text and _MANDOC_LIST in text:
        return _mandoc_lists(text)
    nroff = _NROFF_PRE.search(head)
    if nroff is not None:
        return _nroff_pre(text, nroff)
    return text


# --- groff -Thtml ---------------------------------------------------------------------------------------

_INDEX = re.compile(r'(</h1>\s*)(?:<a href="#[^"]*">[^<]*</a><br>\s*)+(<hr>)')
"""The page's index under its title: its own headings as same-page links, a ``br`` after each."""
_RULE = re.compile(r'<p(?: style="[^"]*")?>\s*_{20,}\s*</p>\n?|(?:(?<!\s)|(?<=</p>\n))(?:\s+|(?<!_))_{20,}(?=</p>)')
"""A rule drawn in underscores (``\\l``): a paragraph of its own, or the end of one."""

_BLOCK = re.compile(
    r'<p style="margin-left:(?P<p>\d+)%;(?P<style>[^"]*)">(?P<inner>.*?)</p>'
    r'|<pre style="margin-left:(?P<pre>\d+)%;[^"]*">.*?</pre>'
    r'|<table width="100%" border="0" rules="none" frame="void"\s+cellspacing="0" cellpadding="0">'
    r"(?P<rows>.*?)</table>",
    re.DOTALL)
"""The blocks groff writes at an indent: paragraphs, displays, and the layout tables of short tags."""

_TAG_ROW = re.compile(
    r'\s*<tr valign="top" align="left">\s*<td width="(?P<indent>\d+)%"></td>\s*<td width="(?P<tag>\d+)%">\s*'
    r'<p[^>]*>(?P<term>.*?)</p>\s*</td>\s*<td width="(?P<gap>\d+)%"></td>\s*<td width="\d+%">\s*'
    r'<p[^>]*>(?P<text>.*?)</p>\s*'
    r'</td>\s*(?:<td width="\d+%">\s*</td>\s*)?</tr>\s*', re.DOTALL)
"""A row of a short tag's layout table: an empty cell (the indent), the tag, an empty gap, the text."""

_HEADING = re.compile(r"<b>(?P<title>[^<]{1,80}?)\s*(?:</b>\s*)?<br>\s*(?P<rest>.*)", re.DOTALL)
"""A subsection heading at the start of a paragraph, joined by a ``br`` to what follows it."""
_SECTION = re.compile(r"<h2>\s*+((?:[^<]*[^<\s])?)\s*<a name=")
"""A section's heading (``.SH``), as groff writes it."""
_BOLD = re.compile(r"<b>(?P<title>[^<]{1,80})</b>")
_BARRIER = -1
"""The indent of a block that ends every list (a section heading, a rule, text outside a paragraph)."""


@dataclass(slots=True)
class _Block:
    indent: int  # percent of the page's width, or _BARRIER
    html: str
    inner: str | None = None  # a paragraph's content (a paragraph may be a term)
    top: bool = False  # a paragraph with space above it (margin-top) outside the SYNOPSIS: a heading's place
    space: bool = False  # a paragraph with space above it (margin-top), anywhere


def _groff(text: str) -> str:
    text = _RULE.sub("", _INDEX.sub(r"\1\2", text, count=1))
    blocks: list[_Block] = []
    at = 0
    synopsis = False  # inside the SYNOPSIS, whose bold lines are declarations ("#include <tcl.h>"), never headings
    for match in _BLOCK.finditer(text):
        if text[at : match.start()].strip():
            blocks.append(_Block(_BARRIER, text[at : match.start()]))
            if (section := _SECTION.findall(text, at, match.start())):
                synopsis = section[-1] == "SYNOPSIS"
        at = match.end()
        if match["p"] is not None:
            top = "margin-top" in match["style"] and not synopsis
            space = "margin-top" in match["style"]
            blocks.append(_Block(int(match["p"]), match.group(0), match["inner"], top, space))
        elif match["pre"] is not None:
            blocks.append(_Block(int(match["pre"]), match.group(0)))
        else:
            blocks.extend(_tag_rows(match["rows"], match.group(0)))
    blocks.append(_Block(_BARRIER, text[at:]))
    base = min((b.indent for b in blocks if b.inner is not None), default=0)
    blocks = [part for block in blocks for part in _heading_split(block, base)]
    blocks = [part for at, block in enumerate(blocks) for part in _tag_split(blocks, at)]
    return "".join(_render(blocks, base))


def _heading_split(block: _Block, base: int) -> list[_Block]:
    """A paragraph at the page's base indent, with space above it, that opens with a bold line and a ``br``:
    a subsection's heading and the paragraph after it (the tag of the option after the heading)."""
    heading = _HEADING.match(block.inner) if block.inner is not None and block.top and block.indent == base else None
    if heading is None:
        return [block]
    rest = _balanced(heading["rest"])
    return [_Block(base, f"<h3>{heading['title']}</h3>"), _Block(base, f"<p>{rest}</p>", rest)]


def _tag_split(blocks: list[_Block], at: int) -> list[_Block]:
    """A tag joined by a ``br`` to the paragraph before it (an option's tag after a subsection's first
    paragraph): that paragraph, then the tag."""
    block = blocks[at]
    if not _is_term(blocks, at) or block.inner is None or "<br>" not in block.inner:
        return [block]
    before, tag = block.inner.rsplit("<br>", 1)
    if not re.sub(r"<[^>]*>", "", before).strip():
        return [block]
    if before.rstrip().endswith("<b>"):  # the tag's bold run opened before the break
        before, tag = before.rstrip()[:-3], "<b>" + tag
    before, tag = _balanced(before, closing=True), _balanced(tag)
    return [_Block(block.indent, f"<p>{before}</p>", before), _Block(block.indent, f"<p>{tag}</p>", tag)]


def _balanced(html: str, *, closing: bool = False) -> str:
    """``html`` cut out of a paragraph with its bold runs closed (``closing``) or opened where the cut split one."""
    opened, closed = html.count("<b>"), html.count("</b>")
    if closing and opened > closed:
        return html + "</b>"
    if not closing and closed > opened:
        return "<b>" + html
    return html


def _tag_rows(rows: str, html: str) -> list[_Block]:
    """A layout table of short tags: each row a tag and its text, at their indents; any other table as it is."""
    blocks: list[_Block] = []
    at = 0
    for row in _TAG_ROW.finditer(rows):
        if row.start() != at:
            break
        at = row.end()
        indent = int(row["indent"])
        blocks.append(_Block(indent, f"<p>{row['term']}</p>", row["term"]))
        text_indent = indent + int(row["tag"]) + int(row["gap"])
        blocks.append(_Block(text_indent, f"<p>{row['text']}</p>", row["text"]))
    if not blocks or rows[at:].strip():
        return [_Block(_BARRIER, html)]
    return blocks


def _render(blocks: list[_Block], base: int) -> list[str]:
    """The blocks' HTML, each tag followed by blocks indented further a ``dt`` and its ``dd``; a bold paragraph
    at the page's base indent, with space above it and no text under it, a subsection's ``h3``."""
    out: list[str] = []
    at = 0
    while at < len(blocks):
        if _is_term(blocks, at):
            out.append("<dl>")
            while at < len(blocks) and _is_term(blocks, at):
                end = at + 1
                while end < len(blocks) and blocks[end].indent > blocks[at].indent:
                    end += 1
                out.append(f"<dt>{blocks[at].inner}</dt><dd>")
                out.extend(_render(blocks[at + 1 : end], base))
                out.append("</dd>")
                at = end
            out.append("</dl>")
            continue
        if (end := _code_end(blocks, at, base)) > at:
            out.append(_code(blocks[at:end]))
            at = end
            continue
        block = blocks[at]
        bold = _BOLD.fullmatch(block.inner.strip()) if block.inner is not None else None
        if bold is not None and block.top and block.indent == base and not bold["title"].startswith("-"):
            out.append(f"<h3>{bold['title']}</h3>")
        else:
            out.append(block.html)
        at += 1
    return out


_LINE_BREAK = re.compile(r"(?:(?<!\s)\s+)?<br>\s*")
_OPEN_BEFORE_BREAK = re.compile(r"(?<!<b>)(?<!<i>)((?:<[bi]>)+)\s*<br>\s*")
"""A bold or italic run that groff opens before the ``br`` that ends the line: it belongs to the next line."""
_CODE_LINE = 100
"""The longest line, in characters, of a paragraph in no-fill mode (``.nf``): a longer one is filled text with a
``.br`` in it."""


def _lines(inner: str) -> list[str]:
    """A no-fill paragraph's lines: groff ends each with a ``br`` and wraps its own HTML between words."""
    inner = _OPEN_BEFORE_BREAK.sub(r"<br>\1", inner)
    return [" ".join(line.split()) for line in _LINE_BREAK.split(inner)]


def _is_code(block: _Block, base: int) -> bool:
    """A paragraph indented past the page's text whose lines groff ended with a ``br`` each, none longer than a
    line of code: a display in no-fill mode (Tcl's ``.CS``/``.CE`` example, ``.RS`` with ``.nf``)."""
    if block.inner is None or block.indent <= base or "<br>" not in block.inner:
        return False
    return all(len(re.sub(r"<[^>]*>", "", line)) <= _CODE_LINE for line in _lines(block.inner))


def _code_end(blocks: list[_Block], at: int, base: int) -> int:
    """The end of the display that starts at ``at`` (``at`` where none does): a no-fill paragraph and the ones
    after it at its indent, groff's paragraph for each blank line of the display."""
    if _is_term(blocks, at) or not _is_code(blocks[at], base):
        return at
    end = at + 1
    while end < len(blocks) and blocks[end].indent == blocks[at].indent and not _is_term(blocks, end) \
            and _is_code(blocks[end], base):
        end += 1
    return end


def _code(blocks: list[_Block]) -> str:
    """A display's paragraphs as one ``pre``, a blank line where groff began a paragraph with space above it."""
    lines: list[str] = []
    for block in blocks:
        if lines and block.space:
            lines.append("")
        lines.extend(_lines(block.inner or ""))
    code = "\n".join(lines).replace("&rsquo;", "'").replace("&lsquo;", "`")  # groff's quotes for ' and `
    return f"<pre>{code}</pre>"


def _is_term(blocks: list[_Block], at: int) -> bool:
    """A paragraph followed by a block indented further: an option's tag."""
    return (blocks[at].inner is not None and blocks[at].indent != _BARRIER and at + 1 < len(blocks)
            and blocks[at + 1].indent > blocks[at].indent)


# --- man2html -------------------------------------------------------------------------------------------

_MAN2HTML_HEADER = re.compile(r"(</h1>).*?<hr>", re.IGNORECASE | re.DOTALL)
_MAN2HTML_INDEX = re.compile(r'<hr>\s*<a name="index">(?:&nbsp;)?</a>\s*<h2>Index</h2>.*', re.IGNORECASE | re.DOTALL)


def _man2html(text: str, title: re.Match[str]) -> str:
    text = text[: title.start()] + f"<title>{title[1]}</title>" + text[title.end() :]
    text = _MAN2HTML_HEADER.sub(r"\1", text, count=1)
    return _MAN2HTML_INDEX.sub("</body></html>", text, count=1)


# --- nroff's output in one pre (postfix) ---------------------------------------------------------------

_NROFF_PRE = re.compile(
    r"<body\b[^>]*>\s*<pre>\n?(?P<name>[\w.:+-]{1,80}\(\w{1,9}\))[ \t]{2,}[^\n<]*?(?P=name)[ \t]*\n"
)
"""A page whose body opens with a ``pre`` whose first line is a man page's header, "ACCESS(5)  ...  ACCESS(5)"."""
_NROFF_NAME = re.compile(r"^<b>([A-Z][A-Z0-9 _.,/&()'-]{0,60})</b>[ \t]*$", re.MULTILINE)


def _nroff_pre(text: str, header: re.Match[str]) -> str:
    """A man page in one ``pre`` (:data:`_NROFF_PRE` its header line) parted at its sections' names."""
    end = text.find("</pre>", header.end())
    if end < 0:
        return text
    body = re.sub(rf"\n[ \t]+{re.escape(header['name'])}[ \t]*\n?$", "\n", text[header.end() : end].rstrip())
    parts = _NROFF_NAME.split(body)
    html = [f"<pre>{textwrap.dedent(parts[0]).strip(chr(10))}</pre>" if parts[0].strip() else ""]
    for name, section in zip(parts[1::2], parts[2::2], strict=True):
        html.append(f"<h2>{name}</h2>")
        if section.strip():
            html.append(f"<pre>{textwrap.dedent(section).strip(chr(10))}</pre>")
    opening = text[header.start() : header.end()]
    return text[: header.start()] + opening[: opening.index("<pre>")] + "\n".join(html) + text[end + 6 :]


# --- mandoc -Thtml -------------------------------------------------------------------------------------

_MANDOC = '<div class="manual-text">'
_MANDOC_LIST = '<dl class="Bl-tag">'
_DL_TAG = re.compile(r"<(/?)dl\b[^>]*+>")
_BULLET_ITEM = re.compile(r"<dt>\s*+(?:&#x2022;|\u2022|&#x00B7;|\u00b7|&#x25E6;|\u25e6|[-*+o])\s*+</dt>\s*+<dd>")
"""A term that is only a bullet (mandoc writes ``\\(bu`` as ``&#x2022;``; ``.IP o``, ``.IP *``), and its ``dd``."""


_NUMBER_ITEM = re.compile(r"<dt>\s*+(?:\((\d{1,3})\)|(\d{1,3})[.)]|\[(\d{1,3})\])\s*+</dt>\s*+<dd>")
"""A term that is only a number, as ``.IP (1)``, ``.IP 2.``, ``.IP [3]`` write it, and its ``dd``."""


def _mandoc_lists(text: str) -> str:
    """Each ``dl.Bl-tag`` whose terms are all bullets (:data:`_BULLET_ITEM`) as a ``ul``, one whose terms are
    consecutive numbers (:data:`_NUMBER_ITEM`) as an ``ol`` starting at the first; its ``dd`` the items. The lists are
    taken last first, so that a list inside another's item is one when the outer is checked."""
    starts = [found.start() for found in re.finditer(_MANDOC_LIST, text)]
    for start in reversed(starts):
        depth = 0
        for tag in _DL_TAG.finditer(text, start):
            depth += -1 if tag[1] else 1
            if depth == 0:
                break
        else:
            continue
        inner = text[start + len(_MANDOC_LIST) : tag.start()]
        terms = inner.count("<dt")
        if not terms or "<dl" in inner:
            continue
        if len(_BULLET_ITEM.findall(inner)) == terms:
            items, opening, closing = _BULLET_ITEM.sub("<li>", inner), "<ul>", "</ul>"
        else:
            numbers = [int(next(group for group in found if group)) for found in _NUMBER_ITEM.findall(inner)]
            if len(numbers) != terms or numbers != list(range(numbers[0], numbers[0] + terms)):
                continue
            items, opening, closing = _NUMBER_ITEM.sub("<li>", inner), f'<ol start="{numbers[0]}">', "</ol>"
        text = f"{text[:start]}{opening}{items.replace('</dd>', '</li>')}{closing}{text[tag.end():]}"
    return text


# --- pod2html -------------------------------------------------------------------------------------------

_POD2HTML = '<link rev="made" href="mailto:'
_POD2HTML_UNTITLED = "<title></title>"
_POD_EMPTY_DD = re.compile(r"(</dt>)\s*<dd>\s*</dd>\s*(?=<dt\b)")
"""pod2html writes each ``=item`` of a group (perlfunc's ``sort SUBNAME LIST``, ``sort BLOCK LIST``, ``sort LIST``;
perlvar's ``$EVAL_ERROR``, ``$@``) as a ``dt`` with an empty ``dd``, so that only the last was the entry's heading
and the others paragraphs of the section before it (task U9): the empty ``dd`` are dropped and the group is one
heading, as Sphinx's or Texinfo's ``@itemx`` groups are."""
_POD_NAME = re.compile(r'<h1 id="NAME">\s*NAME\s*</h1>\s*<p>(?P<name>.*?)</p>', re.DOTALL)


def _pod2html(text: str) -> str:
    """A pod2html page with its item groups joined (:data:`_POD_EMPTY_DD`); untitled, titled by its NAME paragraph,
    as pod2html titles the others."""
    text = _POD_EMPTY_DD.sub(r"\1\n", text)
    if _POD2HTML_UNTITLED not in text[:2000]:
        return text
    found = _POD_NAME.search(text)
    name = " ".join(re.sub(r"<[^>]*>", "", found["name"]).split()) if found is not None else ""
    if not name:
        return text
    return text.replace(_POD2HTML_UNTITLED, f"<title>{name}</title>", 1)
