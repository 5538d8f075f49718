"""mdoc(7) pages (BSD's macros, OpenSSH's pages: ``.Dd``, ``.Dt``, ``.Sh``, ``.Nm``, ``.Fl``, ``.Bl``/``.It``) read
into a man page's HTML (``roff_html.Page``), as ``formats.man`` reads man(7) pages.

A macro line is read as mdoc reads it: the macros it calls (``.Op Fl a Ar file`` is ``[-a file]``) each take the
words after them up to the next one, closing punctuation (``.``, ``,``, ``)``) joins the word before it, enclosing
macros (``.Op``, ``.Dq``, ``.Pq``, ...) close at the end of the line. A list (``.Bl``) is a definition list of terms
(``-tag``, ``-hang``, ``-ohang``, ``-inset``, ``-diag``: each ``.It`` line its term, read as a macro line), a
bulleted (``-bullet``, ``-dash``, ``-item``) or numbered (``-enum``) list, or a table (``-column``: each ``.It``
a row, its cells split at ``Ta`` or tabs); ``.Bd -literal``/``-unfilled`` and ``.Dl`` are displays; ``.Xr name
section`` a reference to that page, a link where the page was found with this one.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from clew.corpus.ingest.formats.roff import Font, Line, Roff, inline_html
from clew.corpus.ingest.formats.roff_html import Page, linked, page_title, table_line, tbl_table

MDOC_START = re.compile(r"[.']\s*(?:Dd|Dt|Sh)\b")
"""The first macro of an mdoc(7) page (a man(7) page starts with ``.TH``)."""

_STYLE = {
    "Fl": "b",
    "Cm": "b",
    "Ic": "b",
    "Nm": "b",
    "Sy": "b",
    "Fn": "b",
    "Fd": "b",
    "Fo": "b",
    "In": "b",
    "Cd": "b",
    "Ar": "i",
    "Pa": "i",
    "Em": "i",
    "Va": "i",
    "Fa": "i",
    "Vt": "i",
    "Ft": "i",
    "Ad": "i",
    "Ev": "",
    "Er": "",
    "Dv": "",
    "Li": "",
    "An": "",
    "Ms": "",
    "Tn": "",
    "No": "",
    "Sx": "",
    "Lb": "",
    "Mt": "",
    "Lk": "",
    "Ot": "i",
    "Ns": "",
    "Pf": "",
    "Ta": "",
    "Xr": "",
    "St": "",
    "Xo": "",
    "Xc": "",
    "Sm": "",
    "Bk": "",
    "Ek": "",
    "%A": "",
    "%B": "i",
    "%C": "",
    "%D": "",
    "%I": "i",
    "%J": "i",
    "%N": "",
    "%O": "",
    "%P": "",
    "%Q": "",
    "%R": "",
    "%T": "",
    "%U": "",
    "%V": "",
    "Ex": "",
    "Rv": "",
    "Hf": "",
    "Tg": "",
}
"""The macros that write words, by the font of their words (``b``, ``i``, roman)."""
_ENCLOSE = {
    "Op": ("[", "]"),
    "Dq": ("\u201c", "\u201d"),
    "Sq": ("\u2018", "\u2019"),
    "Qq": ('"', '"'),
    "Pq": ("(", ")"),
    "Bq": ("[", "]"),
    "Brq": ("{", "}"),
    "Aq": ("<", ">"),
    "Ql": ("\u2018", "\u2019"),
    "D1": ("", ""),
    "Dl": ("", ""),
}
"""Macros that enclose the rest of their line."""
_OPEN = {"Oo": "[", "Do": "\u201c", "So": "\u2018", "Qo": '"', "Po": "(", "Bo": "[", "Bro": "{", "Ao": "<", "Eo": ""}
_CLOSE = {
    "Oc": "]",
    "Dc": "\u201d",
    "Sc": "\u2019",
    "Qc": '"',
    "Pc": ")",
    "Bc": "]",
    "Brc": "}",
    "Ac": ">",
    "Ec": "",
    "Fc": ")",
}
_SYSTEMS = {
    "Bx": "BSD",
    "Ox": "OpenBSD",
    "Nx": "NetBSD",
    "Fx": "FreeBSD",
    "Dx": "DragonFly",
    "Bsx": "BSD/OS",
    "At": "AT&T UNIX",
    "Ux": "UNIX",
}
CALLABLE = frozenset(set(_STYLE) | set(_ENCLOSE) | set(_OPEN) | set(_CLOSE) | set(_SYSTEMS)) - {
    "%A",
    "%B",
    "%C",
    "%D",
    "%I",
    "%J",
    "%N",
    "%O",
    "%P",
    "%Q",
    "%R",
    "%T",
    "%U",
    "%V",
}
_CLOSING = frozenset({".", ",", ";", ":", "?", "!", ")", "]"})
_OPENING = frozenset({"(", "["})
_STANDARDS = {
    "-p1003.1": "IEEE Std 1003.1 (\u201cPOSIX.1\u201d)",
    "-p1003.2": "IEEE Std 1003.2 (\u201cPOSIX.2\u201d)",
    "-p1003.1-2008": "IEEE Std 1003.1-2008 (\u201cPOSIX.1\u201d)",
    "-ansiC": "ANSI X3.159-1989 (\u201cANSI C89\u201d)",
    "-isoC": "ISO/IEC 9899:1990 (\u201cISO C90\u201d)",
    "-isoC-99": "ISO/IEC 9899:1999 (\u201cISO C99\u201d)",
    "-isoC-2011": "ISO/IEC 9899:2011 (\u201cISO C11\u201d)",
    "-susv2": "Version 2 of the Single UNIX Specification (\u201cSUSv2\u201d)",
    "-susv3": "Version 3 of the Single UNIX Specification (\u201cSUSv3\u201d)",
    "-susv4": "Version 4 of the Single UNIX Specification (\u201cSUSv4\u201d)",
    "-xpg4": "X/Open Portability Guide Issue 4 (\u201cXPG4\u201d)",
}
"""The standards ``.St`` names, as mdoc writes them."""
_TERM_LISTS = frozenset({"-tag", "-hang", "-ohang", "-inset", "-diag"})


class Mdoc:
    """An mdoc(7) page's macros read into ``page``."""

    def __init__(self, page: Page, roff: Roff, targets: dict[str, str]) -> None:
        self.page = page
        self.roff = roff
        self.targets = targets
        self.font = Font()
        self.name = ""  # the page's name, as its first .Nm gives it
        self.lists: list[str] = []  # the type of each open .Bl
        self.rows: list[list[str]] | None = None  # a -column list's rows
        self.xo: list[str] | None = None  # an item's tag read across lines (.It Xo ... .Xc)
        self.displays: list[bool] = []  # each open .Bd: whether it is a display in no-fill mode
        self.spacing = True  # .Sm off: a macro line's words are written without spaces between them

    def read(self, lines: Iterable[Line]) -> str:
        title, section = "", ""
        table: list[str] | None = None  # a tbl table's lines (libxcrypt's crypt(3) has one): read as man(7)'s are
        for line in lines:
            if table is not None:
                if line.name not in ("TE", "Sh", "Ss"):
                    table.append(table_line(line))
                    continue
                self.page.block(tbl_table(table, self.inline))
                table = None
                if line.name == "TE":
                    continue
            if line.name == "TS":
                table = []
            elif line.name == "Dt":
                title, section = (line.args + ["", ""])[:2]
            elif line.name is None:
                self._text(line.text)
            else:
                self._macro(line.name, line.args)
        if table is not None:
            self.page.block(tbl_table(table, self.inline))
        return page_title(title, section, self.page.name_line)

    def inline(self, text: str) -> str:
        return linked(inline_html(text, self.font), self.targets)

    def _text(self, text: str) -> None:
        if not text.strip() and self.page.pre is None:
            self.page.paragraph()
            return
        inline = self.inline(text)
        if self.xo is not None:
            self.xo.append(inline)
        else:
            self.page.text(inline)

    def _macro(self, name: str, args: list[str]) -> None:
        page = self.page
        if self.xo is not None and name != "It":
            if name == "Sm":  # ssh(1)'s "-L [bind_address:]port:host:hostport": not the words "off", "on"
                self.spacing = args[0] != "off" if args else not self.spacing
                self.xo.append("")  # what follows starts a word of its own
            elif not self.spacing and self.xo:
                self.xo[-1] += self.phrase(name, args)  # spacing off: the macro lines' words are one word
            else:
                self.xo.append(self.phrase(name, args))
            if "Xc" in args or name == "Xc":
                term, self.xo = " ".join(part for part in self.xo if part), None
                page.item("dl", term)
            return
        if name in ("Sh", "Ss"):
            page.heading(2 if name == "Sh" else 3, self.phrase(None, args))
        elif name in ("Pp", "Lp"):
            page.paragraph(ends_list=not self.lists)
        elif name == "Sm":
            self.spacing = args[0] != "off" if args else not self.spacing
        elif name in ("Dd", "Os", "Bf", "Ef", "Db", "Bk", "Ek", "Tg"):
            return
        elif name == "Nd":
            page.text("\u2014 " + self.phrase(None, args))
        elif name == "Bl":
            self._list(args)
        elif name == "El":
            self._end_list()
        elif name == "It":
            self._item(args)
        elif name == "Bd":
            literal = any(arg in ("-literal", "-unfilled") for arg in args)
            self.displays.append(literal)
            page.display() if literal else page.paragraph()
        elif name == "Ed":
            if self.displays.pop() if self.displays else False:
                page.end_display()
            else:
                page.paragraph()
        elif name == "Dl":
            page.display()
            page.text(self.phrase(None, args))
            page.end_display()
        elif name == "D1":
            page.paragraph()
            page.text(self.phrase(None, args))
            page.paragraph()
        elif name in ("Rs", "Re"):
            page.paragraph()
        else:
            if name == "Nm" and page.section == "SYNOPSIS" and page.pre is None and not self.lists:
                page.paragraph()
            page.text(self.phrase(name, args))

    def _list(self, args: list[str]) -> None:
        kind = next(
            (
                arg
                for arg in args
                if arg in _TERM_LISTS or arg in ("-bullet", "-dash", "-hyphen", "-item", "-enum", "-column")
            ),
            "-tag",
        )
        self.lists.append(kind)
        if kind == "-column":
            self.page.paragraph()
            self.rows = []
        else:
            self.page.indent(term_allowed=False)

    def _end_list(self) -> None:
        if not self.lists:
            return
        kind = self.lists.pop()
        if kind == "-column":
            rows, self.rows = self.rows or [], None
            if rows:
                self.page.block(
                    "<table>"
                    + "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
                    + "</table>"
                )
        else:
            self.page.outdent()

    def _item(self, args: list[str]) -> None:
        kind = self.lists[-1] if self.lists else "-tag"
        if kind == "-column":
            cells: list[list[str]] = [[]]
            for arg in args:
                for index, piece in enumerate(arg.split("\t")):
                    if index:
                        cells.append([])
                    if piece == "Ta":
                        cells.append([])
                    elif piece:
                        cells[-1].append(piece)
            if self.rows is not None:
                self.rows.append([self.phrase(None, cell) for cell in cells])
            return
        if kind in _TERM_LISTS:
            if "Xo" in args:
                self.xo = [self.phrase(None, [arg for arg in args if arg != "Xo"])]
                return
            self.page.item("dl", self.phrase(None, args))
            return
        self.page.item("ol" if kind == "-enum" else "ul")
        if args:
            self.page.text(self.phrase(None, args))

    def phrase(self, macro: str | None, tokens: list[str]) -> str:
        """A macro line's words as HTML (see the module docstring): ``macro`` and the macros it calls."""
        words = _Words(self.spacing)
        closers: list[str] = []
        current = macro
        at = 0
        tail = len(tokens)  # closing punctuation at the end of the line comes after what encloses the line
        while tail > 0 and tokens[tail - 1] in _CLOSING:
            tail -= 1
        tokens, ending = tokens[:tail], tokens[tail:]
        if macro is not None:
            at = self._start(macro, tokens, at, words, closers)
        while at < len(tokens):
            token = tokens[at]
            at += 1
            if token in CALLABLE:
                current = token
                at = self._start(token, tokens, at, words, closers)
                continue
            if token in _CLOSING:
                words.add(token, space=False)
            elif token in _OPENING:
                words.add(token)
                words.glue = True
            elif token == "|":
                words.add("|")
            else:
                at = self._word(current, token, tokens, at, words)
        for closer in reversed(closers):
            words.add(html.escape(closer, quote=False), space=False)
        for token in ending:
            words.add(html.escape(token, quote=False), space=False)
        return words.html()

    def _start(self, macro: str, tokens: list[str], at: int, words: _Words, closers: list[str]) -> int:
        """``macro`` begins (its own words come after): what it writes before them; the index of its first word."""
        has_words = at < len(tokens) and tokens[at] not in CALLABLE and tokens[at] not in _CLOSING
        if macro in _ENCLOSE:
            opening, closing = _ENCLOSE[macro]
            words.add(html.escape(opening, quote=False))
            words.glue = True
            closers.append(closing)
        elif macro in _OPEN:
            words.add(html.escape(_OPEN[macro], quote=False))
            words.glue = True
        elif macro in _CLOSE:
            words.add(html.escape(_CLOSE[macro], quote=False), space=False)
        elif macro == "Ns":
            words.glue = True
        elif macro in _SYSTEMS:
            version = tokens[at] if has_words else ""
            words.add(
                html.escape(
                    f"{version}{_SYSTEMS[macro]}" if macro == "Bx" else f"{_SYSTEMS[macro]} {version}".strip(),
                    quote=False,
                )
            )
            return at + 1 if has_words else at
        elif macro == "Fl" and not has_words:
            words.add("<b>-</b>")
        elif macro == "Ar" and not has_words:
            words.add("<i>file ...</i>")
        elif macro == "Nm" and not has_words:
            words.add(f"<b>{html.escape(self.name, quote=False)}</b>")
        elif macro == "Xr" and has_words:
            name = tokens[at]
            section = tokens[at + 1] if at + 1 < len(tokens) and tokens[at + 1] not in CALLABLE else ""
            text = html.escape(f"{name}({section})" if section else name, quote=False)
            href = self.targets.get(f"{name}({section})")
            words.add(f'<a href="{html.escape(href)}">{text}</a>' if href else text)
            return at + (2 if section else 1)
        elif macro in ("Fn", "Fo"):
            return self._function(macro, tokens, at, words)
        elif macro == "St" and has_words:
            words.add(html.escape(_STANDARDS.get(tokens[at], tokens[at]), quote=False))
            return at + 1
        elif macro in ("Ex", "Rv"):
            return self._standard_text(macro, tokens, at, words)
        elif macro == "In" and has_words:
            words.add(f"<b>{html.escape('#include <' + tokens[at] + '>', quote=False)}</b>")
            return at + 1
        elif macro in ("Lk", "Mt") and has_words:
            address = tokens[at]
            text = html.escape(" ".join(tokens[at + 1 : at + 2]) or address, quote=False)
            href = ("mailto:" if macro == "Mt" else "") + address
            words.add(f'<a href="{html.escape(href)}">{text}</a>')
            return at + (2 if macro == "Lk" and at + 1 < len(tokens) and tokens[at + 1] not in CALLABLE else 1)
        return at

    def _word(self, macro: str | None, token: str, tokens: list[str], at: int, words: _Words) -> int:
        """One word of ``macro`` (``Fl``'s get their dash, ``Pf``'s first joins what follows)."""
        style = _STYLE.get(macro or "", "")
        text = inline_html(token, Font())
        if macro == "Fl":
            text = "-" + text
        if macro == "Nm" and not self.name:
            self.name = html.unescape(re.sub(r"<[^>]*>", "", text))
        words.add(f"<{style}>{text}</{style}>" if style and text else text)
        if macro == "Pf":
            words.glue = True
        return at

    def _function(self, macro: str, tokens: list[str], at: int, words: _Words) -> int:
        """``.Fn name args`` as ``name(arg, arg)``; ``.Fo name`` opens it (``.Fa`` lines, ``.Fc`` closes)."""
        if at >= len(tokens):
            return at
        name = html.escape(tokens[at], quote=False)
        end = at + 1
        while end < len(tokens) and tokens[end] not in CALLABLE and tokens[end] not in _CLOSING:
            end += 1
        args = ", ".join(f"<i>{html.escape(arg, quote=False)}</i>" for arg in tokens[at + 1 : end])
        words.add(f"<b>{name}</b>(" + (args + ")" if macro == "Fn" else ""))
        return end

    def _standard_text(self, macro: str, tokens: list[str], at: int, words: _Words) -> int:
        """``.Ex -std`` and ``.Rv -std``: the sentences mdoc writes for them."""
        names = [token for token in tokens[at:] if token != "-std"] or [self.name]
        listed = " and ".join(f"<b>{html.escape(name, quote=False)}</b>" for name in names)
        if macro == "Ex":
            words.add(f"The {listed} utility exits 0 on success, and &gt;0 if an error occurs.")
        else:
            words.add(
                f"The {listed}() function returns the value 0 if successful; otherwise the value -1 is "
                "returned and the global variable <i>errno</i> is set to indicate the error."
            )
        return len(tokens)


class _Words:
    """The words of a macro line as they are written, with the spaces mdoc puts between them."""

    def __init__(self, spacing: bool) -> None:
        self.parts: list[str] = []
        self.glue = not spacing  # the next word joins the last (after an opening delimiter, .Ns, .Pf)
        self.spacing = spacing

    def add(self, text: str, *, space: bool = True) -> None:
        if not text:
            return
        if self.parts and space and not self.glue:
            self.parts.append(" ")
        self.parts.append(text)
        self.glue = not self.spacing

    def html(self) -> str:
        return "".join(self.parts)
