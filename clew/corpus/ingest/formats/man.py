"""Man pages as installed (roff source: ``ls.1``, ``printf.3.gz``, ``Foo::Bar.3pm.gz``), read by writing the HTML
mandoc would write for them (``roff_html.Page``) and reading that as an HTML page (``formats.html``), so that a page
has the shape clew gives a man page rendered to HTML (``html_man``).

No Python library reads roff man pages (checked, task M1: doclifter is a 400 kB program that writes DocBook,
man2text runs groff), so this is a focused reader of the two macro packages man pages are written in, over the
roff it needs (``formats.roff``): man(7) here, mdoc(7) in ``man_mdoc``. A page is titled by its ``.TH``/``.Dt``
(``ls(1)``, the name as its NAME section writes it), a section per ``.SH``/``.Sh``, a subsection per
``.SS``/``.Ss``; an option list (``.TP``, ``.IP tag``, ``.It``; DocBook's paragraph followed by an ``.RS`` block)
is terms with their descriptions, ``.IP \\(bu`` items a bulleted list; ``.nf``/``.EX``/``.Vb`` displays code
blocks; tbl's ``.TS``/``.TE`` tables tables; a reference ``foo(1)`` (``.BR foo (1)``, ``.Xr foo 1``) a link to
that page where it is among the pages ingested with it (``man_targets``). Requests it does not know are dropped,
their text kept.

A man page is known by its name (``man_pages.MAN_SUFFIX``) and its first lines (:func:`is_roff`); a page that is only
``.so man1/other.1`` is an alias of that page (``man_pages``).
"""

from __future__ import annotations

import codecs
import html
import posixpath
import re
from collections.abc import Iterable

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.man_mdoc import MDOC_START, Mdoc
from clew.corpus.ingest.formats.roff import Font, Line, Roff, inline_html, roff_lines
from clew.corpus.ingest.formats.roff_html import Page, linked, page_title, table_line, tbl_table
from clew.corpus.ingest.formats.text import normalize_newlines
from clew.corpus.ingest.parsed import ParsedDocument

ROFF_START = re.compile(
    r"""\\"|(?:\.|')\s*(?:\\"|TH\b|Dd\b|so\b|Dt\b|de\b|ds\b|ig\b|if\b|ie\b|nh\b|ad\b|
                            TS\b|SH\b|Sh\b|\\"|pc\b|rn\b|lf\b|mso\b|Os\b|ss\b|nr\b)""",
    re.VERBOSE,
)
"""A line that begins a roff page: a comment (``.\\"``, ``'\\"``, a bare ``\\"``), a title (``.TH``, ``.Dd``,
``.Dt``), an include (``.so``), or one of the requests a page's preamble starts with."""
ROFF_HEAD = 100_000
"""The characters of a file :func:`is_roff` looks at for a man page's title: a page's preamble of string and macro
definitions (pod2man's, 60 lines) comes before it."""


def is_roff(text: str) -> bool:
    """Whether ``text`` begins as a roff page: its first non-blank line one that starts it (``ROFF_START``), and a
    man page's title (``.TH``, ``.Dd``, ``.Dt``) or include (``.so``) among its lines. A text file named ``notes.1``
    is not one."""
    head = text[:ROFF_HEAD].lstrip("\ufeff")  # a byte order mark before the page
    first = next((line for line in head.split("\n", 200) if line.strip()), "")
    if not ROFF_START.match(first):
        return False
    return bool(re.search(r"^[.']\s*(?:TH|Dd|Dt|so)\b", head, re.MULTILINE))


_CODING = re.compile(rb"""^[.']\\".*-\*-.*\bcoding:[ \t]*([-\w.:]+)""")


def declared_coding(data: bytes) -> str | None:
    """The encoding a page's first or second line declares (``.\\" -*- coding: latin-1 -*-``, as preconv and man-db
    read it), where Python knows it; else None."""
    for line in data.split(b"\n", 2)[:2]:
        if (match := _CODING.match(line.lstrip(b"\xef\xbb\xbf"))) is not None:
            try:
                return codecs.lookup(match[1].decode("ascii")).name
            except LookupError:
                return None
    return None


SO_ONLY = re.compile(
    r"\A(?:[ \t]*(?:[.'][ \t]*\\\".*|'\\\".*)?\n)*[ \t]*[.'][ \t]*so[ \t]+(?P<target>\S+)[ \t]*"
    r"(?:\n[ \t]*(?:[.'][ \t]*\\\".*|'\\\".*)?)*\n?\Z"
)
"""A page that is only an include of another (comments before or after it): ``.so man1/gzip.1``."""
ALIAS_BYTES = 2000
"""The most an alias is: a longer page is a page of its own."""


def alias_target(text: str) -> str | None:
    """The page ``text`` is an alias of (``.so man1/gzip.1`` -> ``man1/gzip.1``); None for a page of its own."""
    found = SO_ONLY.match(text) if len(text) <= ALIAS_BYTES else None
    return found["target"] if found is not None else None


def parse_man(source: str, targets: dict[str, str] | None = None) -> ParsedDocument:
    """A man page (man(7) or mdoc(7)) as a document; ``targets``: the pages it references that were found with it
    (``"grep(1)"`` -> the href of that page, ``man_targets``)."""
    return parse_html(man_html(source, targets or {}))


def man_html(source: str, targets: dict[str, str]) -> str:
    """The page as the HTML mandoc would write for it (see the module docstring)."""
    text = normalize_newlines(source)
    roff = Roff()
    page = Page()
    lines = roff_lines(text, roff)
    reader: _Man | Mdoc
    first = next((line for line in _head(text)), "")
    reader = Mdoc(page, roff, targets) if MDOC_START.match(first) else _Man(page, roff, targets)
    title = reader.read(lines)
    return page.html(title)


def _head(text: str) -> list[str]:
    """The page's first request that is no comment or definition: ``.TH`` or ``.Dd``, which tell its macros."""
    return [line for line in text.split("\n", 400)[:400] if re.match(r"[.']\s*(?:TH|Dd|Dt|Sh|SH)\b", line)][:1]


def man_targets(content: str, key: str, pages: dict[str, str]) -> dict[str, str]:
    """Of ``pages`` (every page found with this one: ``"grep(1)"`` -> its key), those ``content`` references, as
    hrefs relative to ``key``; a page's reference to itself is no link."""
    plain = _RAW_ESCAPES.sub(lambda found: "-" if found[0] == "\\-" else "", content)
    names = {f"{m[1]}({m[2]})" for m in _RAW_REFERENCE.finditer(plain)}
    names |= {f"{m[1]}({m[2]})" for m in _XR.finditer(content)}
    folder = posixpath.dirname(key)
    return {
        name: posixpath.relpath(pages[name], folder or ".")
        for name in sorted(names)
        if name in pages and pages[name] != key
    }


_RAW_ESCAPES = re.compile(r"\\f(?:\[[^\]\n]*\]|\(..|.)|\\[-&|^%]")
"""The escapes a reference is written with (fonts, ``\\-``, ``\\&``): ``\\fBgit\\-add\\fR(1)``."""
_RAW_REFERENCE = re.compile(r"(?<![\w\\.:+-])([A-Za-z_][\w.:+-]*[\w+])[ \t\"]*\(([0-9][a-z0-9]*|n|l)\)")
"""A reference as a page's source writes it, its escapes gone (``grep(1)``, ``.BR grep (1)``); a name starts
where no character of a name comes before it, so that a run of them is tried once (``a.a.a...``: linear)."""
_XR = re.compile(r"^[.']\s*(?:Xr|MR)\s+\"?([^\s\"]+)\"?\s+\"?([0-9][a-z0-9]*|n|l)\b", re.MULTILINE)


# --- man(7) -----------------------------------------------------------------------------------------------------

_FONT_MACROS = {
    "B": "B",
    "I": "I",
    "SB": "B",
    "SM": "R",
    "BR": "BR",
    "BI": "BI",
    "IB": "IB",
    "IR": "IR",
    "RB": "RB",
    "RI": "RI",
    "CW": "R",
    "CB": "B",
    "CI": "I",
}
"""The font macros: one font for all arguments, joined by spaces, or two alternating, joined without."""
_BULLETS = {"\u2022", "*", "-", "o", "+", "\u00b7", "\u25e6", "\u2013", "\u2014"}
_NUMBER = re.compile(r"\(?\[?\d{1,3}[.)\]]?\.?|[a-z][.)]")
_IGNORED = {
    "PD",
    "UC",
    "DT",
    "ad",
    "na",
    "hy",
    "nh",
    "ne",
    "ta",
    "ti",
    "in",
    "ll",
    "lt",
    "ps",
    "vs",
    "ft",
    "fam",
    "ss",
    "cs",
    "bd",
    "nr",
    "tr",
    "so",
    "mso",
    "IX",
    "ID",
    "ev",
    "hw",
    "hc",
    "lf",
    "pl",
    "pc",
    "po",
    "ns",
    "rs",
    "ce",
    "ul",
    "cu",
    "fp",
    "ftr",
    "rr",
    "rn",
    "ch",
    "wh",
    "it",
    "itc",
    "em",
    "blm",
    "lsm",
    "do",
    "cp",
    "mk",
    "rt",
    "sv",
    "os",
    "tm",
    "ab",
    "ec",
    "eo",
    "cc",
    "c2",
    "sy",
    "pso",
    "open",
    "close",
    "write",
    "fl",
    "Ip",
    "AT",
    "OP",
    "UN",
    "PT",
    "BT",
    "EQ",
    "EN",
    "TE",
    "TH_",
    "color",
    "char",
    "schar",
    "fchar",
    "hcode",
    "shc",
    "warn",
    "vpt",
    "kern",
    "linetabs",
    "de1",
    "nop",
    "Tp",
    "SY",
    "YS",
}
"""Requests that lay out or set up and write nothing a reader reads (their arguments too are not text)."""
_TCL = frozenset(
    {"AP", "AS", "BS", "BE", "VS", "VE", "CS", "CE", "DS", "DE", "QW", "PQ", "QR", "SO", "SE", "OP", "UL", "MT"}
)
"""The macros of Tcl's ``man.macros``, which Tcl's and Tk's pages (``lsort.3tcl``, ``lsort.n``) define at their top:
read as what they write where the page defines them (``.AP`` an argument's term, ``.CS``/``.CE`` a code block,
``.QW`` a quoted word; ``.AS``, ``.BS``/``.BE``, ``.VS``/``.VE`` and Tcl's ``.MT`` nothing); in a page that does not
define them, ``.OP`` and ``.MT`` are groff's."""

_RST2MAN = {"INDENT": "RS", "UNINDENT": "RE"}
"""The indent macros docutils' rst2man defines at the top of each page it writes (``.INDENT 7.0``, ``.UNINDENT``):
read as the ``.RS`` and ``.RE`` they call where the page defines them (their widths were text: "... are: 7.0")."""


class _Man:
    """A man(7) page's macros read into ``page``."""

    def __init__(self, page: Page, roff: Roff, targets: dict[str, str]) -> None:
        self.page = page
        self.roff = roff
        self.targets = targets
        self.font = Font()
        self.pending: str | None = None  # a macro waiting for its next line: SH, SS, TP, TQ, B, I, ...
        self.tag_font: str | None = None
        self.counted: tuple[object, int] | None = None  # the numbered list open and its last item's number
        self.numbered_terms: object | None = None  # the list whose last term is a number kept as written (_counts)
        self.tbl: list[str] | None = None
        self.link: str | None = None  # .UR/.MT's address while its text is read
        self.link_text: list[str] = []

    def inline(self, text: str) -> str:
        return linked(inline_html(text, self.font), self.targets)

    def read(self, lines: Iterable[Line]) -> str:
        name, section = "", ""
        for line in lines:
            if self.tbl is not None:
                if line.name not in ("TE", "SH", "SS"):
                    self.tbl.append(table_line(line))
                    continue
                self.page.block(tbl_table(self.tbl, self.inline))  # a table whose .TE is missing ends at a heading
                self.tbl = None
                if line.name == "TE":
                    continue
            if line.name is None:
                self._text(line.text)
            elif line.name == "TH":
                name, section = (line.args + ["", ""])[:2]
            else:
                self._request(line)
        if self.tbl is not None:  # or at the page's end, as mandoc ends it
            self.page.block(tbl_table(self.tbl, self.inline))
        return page_title(name, section, self.page.name_line)

    def _text(self, text: str) -> None:
        page = self.page
        if not text.strip() and page.pre is None:
            if self.pending is None:
                page.paragraph()
            return
        if text[:1] in " \t" and page.pre is None:
            page.line_break()
        inline = self.inline(text)
        if self.pending is not None:
            self._pending_line(text, inline)
            return
        if self.link is not None:
            self.link_text.append(inline)
            return
        page.text(inline)

    def _pending_line(self, text: str, inline: str) -> None:
        """The line a macro without arguments applies to: a heading, an item's tag, a line in a font."""
        macro, self.pending = self.pending, None
        if macro in ("SH", "SS"):
            self.page.heading(2 if macro == "SH" else 3, inline)
        elif macro in ("TP", "TQ"):
            self.page.item("dl", inline)
        elif macro is not None:
            self._fonts(macro, [text])

    def _request(self, line: Line) -> None:
        page, name, args = self.page, line.name or "", line.args
        if self.link is not None and name not in ("UE", "ME", "br") and name not in _FONT_MACROS:
            self._end_link([])  # a link's text ends at the next break, where its .UE is missing
        if name in _RST2MAN and name in self.roff.macros:
            name = _RST2MAN[name]
        if name in _TCL and name in self.roff.macros:
            self._tcl(name, args)
        elif name in ("SH", "SS", "Sh", "Ss"):
            if args:
                page.heading(2 if name in ("SH", "Sh") else 3, self.inline(" ".join(args)))
            else:
                self.pending = name.upper()
        elif name in ("PP", "LP", "P", "HP", "Pp", "Lp"):
            page.paragraph(ends_list=True)
        elif name in ("sp", "Sp"):
            page.paragraph()
        elif name == "br":
            page.line_break()
        elif name in ("TP", "TQ"):
            page.paragraph()
            self.pending = name
        elif name == "IP":
            self._ip(args)
        elif name == "RS":
            page.indent()
        elif name == "RE":
            page.outdent()
        elif name in ("nf", "EX", "Vb", "Ds"):
            page.display()
        elif name in ("fi", "EE", "Ve", "De"):
            page.end_display()
        elif name in _FONT_MACROS:
            if args:
                self._fonts(name, args)
            else:
                self.pending = name
        elif name == "TS":
            self.tbl = []
        elif name in ("UR", "MT"):
            self.link = ("mailto:" if name == "MT" else "") + (args[0] if args else "")
            self.link_text = []
        elif name in ("UE", "ME"):
            self._end_link(args)
        elif name == "SY":
            page.paragraph(ends_list=True)
            page.text(f"<b>{self.inline(' '.join(args))}</b>")
        elif name == "OP":
            page.text("[" + self._alternate(["B", "I"], args, " ") + "]")
        elif name == "MR" and args:  # groff 1.23's reference: .MR grep 1 ,
            reference = self._alternate(["I", "R"], [args[0], f"({args[1]})" if len(args) > 1 else ""], "")
            page.text(linked(reference, self.targets) + self.inline("".join(args[2:3])))
        elif name not in _IGNORED and line.text.strip():
            self._text(line.text)  # a request it does not know: its text kept

    def _tcl(self, name: str, args: list[str]) -> None:
        """Tcl's man.macros (``_TCL``), as the page's own definitions of them write them."""
        page, words = self.page, [self.inline(arg) for arg in args]
        if name == "AP":  # an argument: its type, name and direction, then its description
            term = " ".join(words[:1] + [f"<i>{word}</i>" for word in words[1:2]])
            page.item("dl", term + (f" ({words[2]})" if len(words) > 2 else ""))
        elif name == "OP":  # a widget option: its command-line name, database name and class
            labels = ("Command-Line Name:", "Database Name:", "Database Class:")
            page.item("dl", " ".join(f"{label} <b>{word}</b>" for label, word in zip(labels, words, strict=False)))
        elif name in ("CS", "DS"):
            page.display()
        elif name in ("CE", "DE"):
            page.end_display()
        elif name in ("QW", "PQ", "QR"):  # “a”b, (“a”b)c, “a”-“b”c
            count = 2 if name == "QR" else 1
            quoted = "-".join(f"\u201c{word}\u201d" for word in (words + [""])[:count])
            rest = words[count:]
            if name == "PQ":
                page.text(f"({quoted}{''.join(rest[:1])}){''.join(rest[1:2])}")
            else:
                page.text(quoted + "".join(rest[:1]))
        elif name == "SO":
            page.paragraph(ends_list=True)
        elif name == "SE":
            page.paragraph()
            page.text("See the <b>options</b> manual entry for details on the standard options.")
            page.paragraph()
        elif name == "UL":
            page.text(" ".join(words))
        elif name == "MT":  # Tcl's "empty string"
            page.text("\u201c\u201d")

    def _ip(self, args: list[str]) -> None:
        tag = inline_html(args[0], Font()) if args else ""
        mark = html.unescape(re.sub(r"<[^>]*>", "", tag)).strip()
        if not mark:
            self.page.paragraph()
            if self.page.levels[-1].kind is None:
                self.page.paragraph(ends_list=True)
        elif mark in _BULLETS:
            self.page.item("ul")
        elif _NUMBER.fullmatch(mark) and self._counts(mark):
            self.page.item("ol")
        else:
            self.page.item("dl", linked(tag, self.targets))
            self.numbered_terms = self.page.levels[-1] if _NUMBER.fullmatch(mark) else None

    def _counts(self, mark: str) -> bool:
        """Whether a numbered tag is the next item of a numbered list: 1 where no list or a bulleted one is open, one
        more than the item before it in a numbered one (a letter always). An exit status list (xargs' ``.IP 0``,
        ``.IP 123``; curl's ``.IP 0``, ``.IP 1`` ...) is terms, its numbers kept: read as a list counted from 1, curl's
        exit code 6 read as 7. A number after such a term is one too (xargs' ``.IP 1`` last); under a word's term
        (ctags' ``.TP number`` over ``.IP 1.`` ... ``.IP 4.``) a list counts from 1."""
        digits = re.search(r"\d+", mark)
        if digits is None:
            return True
        level, number = self.page.levels[-1], int(digits.group())
        if level.kind == "ol" and self.counted is not None and self.counted[0] is level:
            expected = self.counted[1] + 1
        else:
            expected = -1 if level.kind == "dl" and level is self.numbered_terms else 1
        if number != expected:
            return False
        self.counted = (level, number)
        return True

    def _fonts(self, macro: str, args: list[str]) -> None:
        fonts = _FONT_MACROS[macro]
        if len(fonts) == 1:
            inline = self._alternate([fonts], [" ".join(args)], "")
        else:
            inline = self._alternate(list(fonts), args, "")
        inline = linked(inline, self.targets)
        if self.pending in ("TP", "TQ"):
            self.pending = None
            self.page.item("dl", inline)
        elif self.link is not None:
            self.link_text.append(inline)
        else:
            self.page.text(inline)

    def _alternate(self, fonts: list[str], args: list[str], joiner: str) -> str:
        """``args`` in ``fonts`` taken in turn (``.BR grep (1)``), the font after them as before."""
        kept = Font(self.font.current, self.font.previous)
        pieces = []
        for index, arg in enumerate(args):
            font = Font(current={"B": "b", "I": "i", "R": ""}[fonts[index % len(fonts)]])
            pieces.append(inline_html(arg, font))
        self.font = kept
        return joiner.join(pieces)

    def _end_link(self, args: list[str]) -> None:
        href, text = self.link or "", " ".join(self.link_text).strip()
        self.link = None
        shown = text or html.escape(href.removeprefix("mailto:"), quote=False)
        after = self.inline(args[0]) if args else ""
        self.page.text(f'<a href="{html.escape(href)}">{shown}</a>{after}' if href else shown + after)
