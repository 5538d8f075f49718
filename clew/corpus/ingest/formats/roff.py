"""The roff language under man pages, as much of it as the man page reader (``formats.man``) needs: a page's lines as
requests and text (:func:`roff_lines`), and a line's escapes as HTML (:func:`inline_html`). Not a full troff: no
number registers, no macro expansion, no traps. What it does:

- comments (``.\\"``, ``'\\"``, ``\\"`` to the end of a line, ``\\#`` with the newline) are dropped, and so is a line
  continued by a ``\\`` at its end joined to the next;
- strings (``.ds``, ``.as``, ``\\*x``, ``\\*(xx``, ``\\*[name]``, mdoc's and groff's predefined ones) are expanded;
- conditions (``.if``, ``.ie``, ``.el``, blocks in ``\\{`` ``\\}``) are read as nroff reads them (``n`` true, ``t``
  false, groff's ``\\n(.g`` true, a string compared, a string or macro defined), anything else false;
- macro definitions (``.de``, ``.am``) and ignored blocks (``.ig``) are skipped: a page's own macros are not run
  (their calls are dropped by the reader as unknown requests, their text kept);
- fonts (``\\fB``, ``\\fI``, ``\\fR``, ``\\fP``, ``\\f(CW``, ``\\f[B]``) become ``b`` and ``i``; special characters
  (``\\(aq``, ``\\(lq``, ``\\(em``, ``\\[u00E9]``, ...) the characters they draw; ``\\-``, ``\\e``, ``\\&``, ``\\|``,
  ``\\~`` what nroff prints for them; size, colour, motion and other layout escapes nothing.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

GLYPHS = {
    "aq": "'", "dq": '"', "lq": "\u201c", "rq": "\u201d", "oq": "\u2018", "cq": "\u2019", "Bq": "\u201e",
    "bq": "\u201a", "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a", "em": "\u2014", "en": "\u2013",
    "hy": "-", "mi": "-", "pl": "+", "eq": "=", "bu": "\u2022", "co": "\u00a9", "rg": "\u00ae", "tm": "\u2122",
    "de": "\u00b0", "mu": "\u00d7", "di": "\u00f7", "+-": "\u00b1", "<=": "\u2264", ">=": "\u2265", "!=": "\u2260",
    "==": "\u2261", "->": "\u2192", "<-": "\u2190", "<>": "\u2194", "=>": "\u21d2", "ua": "\u2191", "da": "\u2193",
    "rs": "\\", "sl": "/", "ti": "~", "ha": "^", "ga": "`", "aa": "\u00b4", "ul": "_", "ba": "|", "or": "|",
    "br": "|", "sq": "\u25a1", "ci": "\u25cb", "fm": "\u2032", "sd": "\u2033", "dg": "\u2020", "dd": "\u2021",
    "ps": "\u00b6", "sc": "\u00a7", "ct": "\u00a2", "Do": "$", "Eu": "\u20ac", "eu": "\u20ac", "Po": "\u00a3",
    "Ye": "\u00a5", "ss": "\u00df", "lh": "\u261c", "rh": "\u261e", "at": "@", "sh": "#", "lB": "[", "rB": "]",
    "lC": "{", "rC": "}", "la": "\u27e8", "ra": "\u27e9", "tf": "\u2234", "if": "\u221e", "Im": "\u2111",
    "mc": "\u00b5", "12": "\u00bd", "14": "\u00bc", "34": "\u00be", "ff": "ff", "fi": "fi", "fl": "fl",
    "-D": "\u00d0", "Sd": "\u00f0", "TP": "\u00de", "Tp": "\u00fe", "AE": "\u00c6", "ae": "\u00e6", "OE": "\u0152",
    "oe": "\u0153", "/o": "\u00f8", "/O": "\u00d8", "ah": "\u02c7", "a-": "\u00af", "a.": "\u02d9", "a^": "^",
    "ao": "\u02da", "a~": "~", "ho": "\u02db", "r!": "\u00a1", "r?": "\u00bf", "pc": "\u00b7", "no": "\u00ac",
}
"""Special characters by name (``\\(xx``, ``\\[xx]``): groff_char(7)'s that man pages use."""
_ACCENTS = {"'": "\u0301", "`": "\u0300", ":": "\u0308", "^": "\u0302", "~": "\u0303", ",": "\u0327", "o": "\u030a"}
"""Accented letters (``\\('e``, ``\\(:u``, ``\\(,c``): the letter and a combining accent, composed."""

PREDEFINED = {
    # mdoc(7)'s strings
    "Lq": "\u201c", "Rq": "\u201d", "Ba": "|", "Am": "&", "Ge": "\u2265", "Le": "\u2264", "Ne": "\u2260",
    "Gt": ">", "Lt": "<", "Pi": "\u03c0", "Pm": "\u00b1", "Na": "NaN", "If": "\u221e", "Ua": "\u2191",
    "Da": "\u2193", "Ra": "\u2192", "La": "\u2190", "Tm": "\u2122", "Rg": "\u00ae", "Px": "POSIX", "Ai": "ANSI",
    "q": '"', "Aq": "'",
    # man(7)'s (groff's an-ext, and the ones pod2man defines)
    "lq": "\u201c", "rq": "\u201d", "R": "\u00ae", "S": "", "HF": "", "C`": '"', "C'": '"', "PI": "\u03c0",
    "L\"": "\u201c", "R\"": "\u201d",
}
"""Strings a page may use without defining them."""

_ESCAPE = re.compile(
    r"""\\(?:
      (?P<font>f(?:\[[^\]\n]*\]|\(..|.))
    | (?P<glyph>\((?P<g2>..)|\[(?P<gn>[^\]\n]*)\])
    | (?P<string>\*(?:\[[^\]\n]*\]|\(..|.))
    | (?P<register>n[+-]?(?:\[[^\]\n]*\]|\(..|.))
    | (?P<size>s(?:[+-]?\d|\([+-]?\d\d|[+-]?\(\d\d|\[[^\]\n]*\]|'[^'\n]*'))
    | (?P<quoted>[hvwNXoDlLbZRSxkB]'[^'\n]*')
    | (?P<named>[mMFYVg$](?:\[[^\]\n]*\]|\(..|.))
    | (?P<char>.)
    )""",
    re.VERBOSE | re.DOTALL)
_CHARS = {"-": "-", "e": "\\", "\\": "\\", "&": "", "|": "", "^": "", " ": " ", "~": " ", "0": " ", "%": "",
          ":": "", "c": "", "'": "'", "`": "`", ".": ".", "t": "\t", "{": "", "}": "", "!": "", "z": "", "d": "",
          "u": "", "r": "", "p": "", "a": "", "E": "\\", ")": "", "/": "", ",": "", "k": "", "@": "", "?": ""}
"""One-character escapes: what nroff prints for each (nothing for the unknown, which are layout)."""
_STRING = re.compile(r"\\\*(?:\[(?P<long>[^\]\n]*)\]|\((?P<two>..)|(?P<one>[^\[(]))")
MAX_STRING_DEPTH = 6
"""How often a line's strings are expanded (a string may name another); a string that names itself stops here."""
EXPANDED_CHARS = 1_000_000
"""The most characters a page's strings write in all: past it, a string is empty. A string defined as another twice
(``.as a \\*a``, ``.ds b \\*a\\*a``) doubles at each line, so forty such lines would be a string of a thousand GiB;
the 23,724 pages under Debian 12's ``/usr/share/man`` write at most 8,709 (top(1))."""


@dataclass(slots=True)
class Roff:
    """What a page has defined so far: its strings and its macros' names."""

    strings: dict[str, str] = field(default_factory=lambda: dict(PREDEFINED))
    macros: set[str] = field(default_factory=set)
    written: int = 0
    """The characters its strings have written so far (``EXPANDED_CHARS``)."""

    def expand(self, text: str) -> str:
        """``text`` with its strings (``\\*x``) expanded; an undefined one is empty."""
        for _ in range(MAX_STRING_DEPTH):
            if "\\*" not in text:
                break
            text = _STRING.sub(self._value, text)
        return text

    def _value(self, match: re.Match[str]) -> str:
        value = self.strings.get(match["long"] or match["two"] or match["one"] or "", "")
        self.written += len(value)
        return value if self.written <= EXPANDED_CHARS else ""


@dataclass(slots=True)
class Line:
    """A line of a page: a request (``name`` and ``args``, raw) or text (``name`` None)."""

    name: str | None
    args: list[str]
    text: str
    """The line as it stands after comments and strings (for a request: the part after its name)."""


_REQUEST = re.compile(r"[.'][ \t]*(?P<name>[^ \t\\]+|\\\})?[ \t]*(?P<rest>.*)", re.DOTALL)
_CONDITION = re.compile(r"""[ \t]*(?P<cond>!?(?:'(?:[^'\n]*)'(?:[^'\n]*)'|"[^"\n]*"[^"\n]*"|\([^)]*\)|"""
                        r"""[dmrcvF][ \t]+\S+|\\n(?:\(..|\[[^\]]*\]|.)[^ \t]*|\S+))[ \t]*(?P<body>.*)""", re.DOTALL)


def roff_lines(source: str, roff: Roff) -> Iterator[Line]:
    """The page's lines, comments dropped, continuations joined, strings expanded, definitions and conditions
    applied (see the module docstring); ``roff`` gathers the page's definitions as they come."""
    lines = _joined(source)
    skip_until: str | None = None  # the line that ends a definition or an ignored block
    false_depth = 0  # open \{ of a block whose condition was false
    last_condition = True
    index = 0
    pending: list[str] = []
    while index < len(lines) or pending:
        if pending:
            raw = pending.pop()
        else:
            raw = lines[index]
            index += 1
        if skip_until is not None:
            if raw.rstrip() == skip_until or (skip_until == ".." and raw.strip() in ("..", "'..")):
                skip_until = None
            continue
        if false_depth:
            false_depth += raw.count("\\{") - raw.count("\\}")
            false_depth = max(false_depth, 0)
            continue
        kept = _comment_free(raw)
        if kept is None:
            continue
        raw = kept
        match = _REQUEST.fullmatch(raw) if raw[:1] in ".'" else None
        if match is None:
            if raw.strip() != "\\}":  # the end of a block whose condition held
                yield Line(None, [], roff.expand(raw))
            continue
        name = match["name"] or ""
        rest = match["rest"]
        if name in ("", "\\}"):
            continue
        if name in ("if", "ie", "el", "while"):
            if name == "el":
                taken, body = not last_condition, rest
            else:
                condition = _CONDITION.fullmatch(rest)
                if condition is None:
                    continue
                taken, body = _true(condition["cond"], roff), condition["body"]
                if name == "ie":
                    last_condition = taken
            body = body.strip()
            if not taken:
                false_depth = max(body.count("\\{") - body.count("\\}"), 0)
                continue
            body = body.replace("\\{", "").replace("\\}", "").strip()
            if body:
                pending.append(body)
            continue
        if name in ("de", "de1", "am", "am1", "ig", "dei", "ami"):
            args = split_args(rest)
            if name != "ig" and args:
                roff.macros.add(args[0])
            ender = args[0] if name == "ig" and args else (args[1] if len(args) > 1 and name != "ig" else "")
            skip_until = "." + ender if ender else ".."
            continue
        if name in ("ds", "ds1", "as", "as1"):
            key, _, value = rest.partition(" ")
            value = roff.expand(value.lstrip(" \t"))
            value = value[1:] if value.startswith('"') else value
            roff.strings[key] = roff.strings.get(key, "") + value if name.startswith("as") else value
            continue
        if name == "rm":
            for key in split_args(rest):
                roff.strings.pop(key, None)
            continue
        expanded = roff.expand(rest)
        yield Line(name, split_args(expanded), expanded)


def _joined(source: str) -> list[str]:
    """The source's lines, a line ending in an escaped newline (one ``\\``, not ``\\\\``) joined to the next."""
    out: list[str] = []
    carry = ""
    for line in source.split("\n"):
        line = carry + line
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2:
            carry = line[:-1]
            continue
        carry = ""
        out.append(line)
    if carry:
        out.append(carry)
    return out


_COMMENT = re.compile(r'\\(?:"|#)|\\\\')


def _comment_free(line: str) -> str | None:
    """``line`` less its comment; None for a line that was only a comment (``.\\"``, ``\\"``)."""
    if "\\" not in line:
        return line
    for found in _COMMENT.finditer(line):
        if found.group(0) == "\\\\":
            continue
        kept = line[: found.start()]
        if not kept.strip() or kept.strip() in (".", "'"):
            return None
        return kept.rstrip() if kept[:1] in ".'" else kept
    return line


def _true(condition: str, roff: Roff) -> bool:
    """Whether nroff, as groff, takes a condition (see the module docstring)."""
    negated = condition.startswith("!")
    condition = condition.lstrip("!")
    if condition in ("n", "o"):
        value = True
    elif condition in ("t", "e", "v"):
        value = False
    elif condition[:1] in "'\"" and condition.count(condition[0]) >= 3:
        quote = condition[0]
        first, second = condition[1:].split(quote)[:2]
        value = roff.expand(first) == roff.expand(second)
    elif condition.startswith("\\n(.g") or condition.startswith("\\n[.g]"):
        value = True
    elif condition[:1] in ("d", "m") and len(condition) > 1 and condition[1] in " \t":
        name = condition[2:].strip()
        value = name in roff.strings or name in roff.macros
    else:
        value = False
    return value != negated


def split_args(text: str) -> list[str]:
    """A request's arguments: separated by spaces, a quoted one may hold spaces (``""`` inside is a quote)."""
    args: list[str] = []
    at, size = 0, len(text)
    while at < size:
        while at < size and text[at] in " \t":
            at += 1
        if at >= size:
            break
        if text[at] == '"':
            at += 1
            piece: list[str] = []
            while at < size:
                if text[at] == '"':
                    if text[at + 1 : at + 2] == '"':
                        piece.append('"')
                        at += 2
                        continue
                    at += 1
                    break
                if text[at] == "\\" and at + 1 < size:
                    piece.append(text[at : at + 2])
                    at += 2
                    continue
                piece.append(text[at])
                at += 1
            args.append("".join(piece))
            continue
        start = at
        while at < size and text[at] not in " \t":
            at += 2 if text[at] == "\\" else 1
        args.append(text[start:at])
    return args


FONTS = {"B": "b", "I": "i", "R": "", "P": None, "1": "", "2": "i", "3": "b", "4": "b", "CW": "", "C": "",
         "CR": "", "CB": "b", "CI": "i", "BI": "b", "TB": "b", "TI": "i", "TR": "", "HB": "b", "HI": "i", "H": "",
         "V": "", "BD": "b", "SB": "b", "": None}
"""Fonts by name: the HTML element each is read as ("" roman; None the previous font)."""


@dataclass(slots=True)
class Font:
    """The font in force, across lines (a font set on one line holds until changed)."""

    current: str = ""
    previous: str = ""

    def change(self, name: str) -> None:
        tag = FONTS.get(name, "b" if name.endswith("B") else "i" if name.endswith("I") else "")
        if tag is None:
            self.current, self.previous = self.previous, self.current
        else:
            self.current, self.previous = tag, self.current


def inline_html(text: str, font: Font) -> str:
    """``text`` (strings expanded) as HTML: escapes read, runs in a font other than roman in ``b`` or ``i``,
    closed at the end (the font stays in ``font`` for the next line)."""
    out: list[str] = []
    opened = font.current
    if opened:
        out.append(f"<{opened}>")
    at = 0
    for found in _ESCAPE.finditer(text):
        out.append(html.escape(text[at : found.start()], quote=False))
        at = found.end()
        if found["font"]:
            name = found["font"][1:]
            font.change(name[1:-1] if name.startswith("[") else name[1:] if name.startswith("(") else name)
            if font.current != opened:
                out.append(f"</{opened}>" if opened else "")
                out.append(f"<{font.current}>" if font.current else "")
                opened = font.current
        elif found["glyph"]:
            out.append(html.escape(glyph(found["g2"] or found["gn"] or ""), quote=False))
        elif found["char"]:
            out.append(html.escape(_CHARS.get(found["char"], ""), quote=False))
    out.append(html.escape(text[at:], quote=False))
    if opened:
        out.append(f"</{opened}>")
    return re.sub(r"<([bi])></\1>", "", "".join(out))


def plain(text: str) -> str:
    """``text`` read as ``inline_html`` reads it, without its fonts: the characters it prints."""
    return html.unescape(re.sub(r"</?[bi]>", "", inline_html(text, Font())))


def glyph(name: str) -> str:
    """The character a special character's name draws (groff_char(7)); empty for one not known."""
    if name in GLYPHS:
        return GLYPHS[name]
    if len(name) == 2 and name[0] in _ACCENTS and name[1].isalpha():
        import unicodedata

        return unicodedata.normalize("NFC", name[1] + _ACCENTS[name[0]])
    code = re.fullmatch(r"u([0-9A-Fa-f]{4,6})(?:_[0-9A-Fa-f]{4,6})*|char(\d{1,3})", name)
    if code is not None:
        value = int(code[1], 16) if code[1] else int(code[2])
        return chr(value) if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF else ""
    return ""
