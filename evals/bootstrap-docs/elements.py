"""The pages of the bootstrap-docs set as ``verify.py`` reads them (Python 3 standard library only): the
REFERENCE definition of the text a phrase is matched against (``extract``, ``normalize``) and of a page's innermost
text elements (``parse``, ``html_elements``, ``render_inline``), with the links between pages (``link_targets``).
``verify.py``'s docstring states the rules these implement; ``verify.py`` checks the set against them.
"""

from __future__ import annotations

import html
import os
import re
from typing import Container

# ------------------------------------------------------------ normalization --

_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
})
_WS = re.compile(r"\s+")


def normalize(text: str) -> str:
    """casefold, curly quotes -> straight quotes, collapse whitespace."""
    return _WS.sub(" ", text.casefold().translate(_QUOTES)).strip()


def extract(path: str) -> str:
    """The page text used for matching: the Markdown source, LF line ends."""
    with open(path, encoding="utf-8") as fh:
        raw = fh.read()
    return raw.replace("\r\n", "\n").replace("\r", "\n")


# ------------------------------------------------------------ block parser --

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_HRULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ITEM = re.compile(r"^\s*(?:[*+-]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*)$")
_QUOTE = re.compile(r"^\s*>[ ]?(.*)$")
_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


class Element:
    """One innermost text element of a page."""
    __slots__ = ("kind", "text", "line", "path", "html")

    def __init__(self, kind: str, text: str, line: int, path: tuple[str, ...], html: bool = False) -> None:
        self.kind = kind      # front, heading, para, item, quote, code, cell
        self.text = text      # source text of the element
        self.line = line      # 1-based line where it starts
        self.path = path      # heading path: (title, h?, ...) rendered text
        self.html = html      # True: from a raw HTML block

    def rendered(self) -> str:
        if self.html:
            return render_html(self.text)
        if self.kind == "code":
            return self.text
        return render_inline(self.text)


# ------------------------------------------------------- raw HTML blocks --
# CommonMark HTML blocks: type 2 (comment), type 6 (a block-level tag opens
# the line; ends at a blank line) and type 7 (a lone complete tag on its line;
# cannot interrupt a paragraph; ends at a blank line).

_BLOCK_TAGS = frozenset("""address article aside base basefont blockquote body
caption center col colgroup dd details dialog dir div dl dt fieldset
figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header
hr html iframe legend li link main menu menuitem nav noframes ol optgroup
option p param section source summary table tbody td tfoot th thead title tr
track ul pre script style textarea""".split())
_HTML6 = re.compile(r"^ {0,3}</?([A-Za-z][A-Za-z0-9-]*)(?:[\s/>]|$)")
_HTML7 = re.compile(r"^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*)?/?>|"
                    r"</[A-Za-z][A-Za-z0-9-]*\s*>)\s*$")
_SHORTCODE_LINE = re.compile(r"^\s*\{\{[<%].*[>%]\}\}\s*$")
# a tag; an attribute value may hold a Hugo shortcode (href="{{< docsref ... >}}")
_HTML_TOKEN = re.compile(r"<!--.*?-->|</?([A-Za-z][A-Za-z0-9-]*)"
                         r"(?:\s(?:\{\{[<%].*?[>%]\}\}|[^<>])*)?/?>", re.S)
_ELEMENT_KIND = {"td": "cell", "th": "cell", "li": "item", "dt": "item",
                 "dd": "item", "pre": "code"}


def html_block_start(line: str, in_para: bool) -> bool:
    """True when `line` opens a raw HTML block."""
    if line.lstrip().startswith("<!--"):
        return True
    m = _HTML6.match(line)
    if m and m.group(1).lower() in _BLOCK_TAGS:
        return True
    return not in_para and bool(_HTML7.match(line))


def html_elements(block: str, first_line: int, path: tuple[str, ...]) -> list[Element]:
    """Innermost text elements of one raw HTML block: every run of text and
    inline tags between two block-level tags; its kind comes from the
    innermost open block tag (td/th -> cell, li/dt/dd -> item, pre -> code)."""
    out, stack = [], []
    start = [0]

    def flush(end: int) -> None:
        text = block[start[0]:end]
        if render_html(text).strip():
            kind = next((_ELEMENT_KIND[t] for t in reversed(stack)
                         if t in _ELEMENT_KIND), "para")
            lead = len(text) - len(text.lstrip())
            line = first_line + block.count("\n", 0, start[0] + lead)
            out.append(Element(kind, text.strip(), line, path, html=True))

    for m in _HTML_TOKEN.finditer(block):
        name = (m.group(1) or "").lower()
        if m.group(0).startswith("<!--"):
            flush(m.start())
            start[0] = m.end()
        elif name in _BLOCK_TAGS:
            flush(m.start())
            start[0] = m.end()
            if m.group(0).startswith("</"):
                if name in stack:
                    while stack.pop() != name:
                        pass
            elif not m.group(0).endswith("/>") and name not in ("hr", "col"):
                stack.append(name)
    flush(len(block))
    return out


def render_html(s: str) -> str:
    """Text of a raw HTML fragment as a browser shows it: <br> is a line
    break, other tags and comments go, character references are decoded."""
    s = re.sub(r"<br\s*/?>", "\n", s, flags=re.I)
    s = _HTML_TOKEN.sub("", s)
    return html.unescape(s)


def split_cells(row: str) -> list[str]:
    """Cells of a pipe-table row; '|' inside code spans or escaped as \\| does
    not split."""
    s = row.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, tick = [], [], 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("\\|")
            i += 2
            continue
        if c == "`":
            j = i
            while j < len(s) and s[j] == "`":
                j += 1
            run = j - i
            if tick == 0:
                tick = run
            elif tick == run:
                tick = 0
            cur.append(s[i:j])
            i = j
            continue
        if c == "|" and tick == 0:
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    cells.append("".join(cur))
    return [c.strip() for c in cells]


def parse(text: str) -> list[Element]:
    """Split Markdown source into innermost elements (list of Element)."""
    lines = text.split("\n")
    out = []
    heads = []                 # [(level, text)]
    title = None
    i = 0
    # YAML front matter: one element per non-blank line
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() == "---":
                for k in range(1, j):
                    ln = lines[k]
                    if ln.strip():
                        out.append(Element("front", ln, k + 1, ()))
                        if ln.startswith("title:"):
                            title = ln[len("title:"):].strip()
                i = j + 1
                break

    def hpath() -> tuple[str, ...]:
        p = tuple(h for _lvl, h in heads)
        return ((title,) if title else ()) + p

    cur = {"kind": None, "lines": [], "line": 0}

    def flush() -> None:
        if cur["kind"] and any(x.strip() for x in cur["lines"]):
            body = "\n".join(cur["lines"])
            out.append(Element(cur["kind"], body, cur["line"], hpath()))
        cur["kind"], cur["lines"] = None, []

    def start(kind: str, first: str, lineno: int) -> None:
        flush()
        cur["kind"], cur["lines"], cur["line"] = kind, [first], lineno

    n = len(lines)
    while i < n:
        line = lines[i]
        s = line.strip()
        if not s:
            flush()
            i += 1
            continue
        if _SHORTCODE_LINE.match(line):
            flush()
            i += 1
            continue
        if html_block_start(line, cur["kind"] == "para"):
            flush()
            j = i
            while j < n and lines[j].strip():
                if lines[j].lstrip().startswith("<!--") and "-->" not in lines[j]:
                    while j < n and "-->" not in lines[j]:
                        j += 1
                j += 1
            out.extend(html_elements("\n".join(lines[i:j]), i + 1, hpath()))
            i = j
            continue
        m = _FENCE.match(line)
        if m:
            flush()
            fence = m.group(2)
            body, j = [], i + 1
            while j < n:
                t = lines[j].strip()
                if t.startswith(fence[0] * len(fence)) and not t.strip(fence[0]):
                    break
                body.append(lines[j])
                j += 1
            if any(b.strip() for b in body):
                out.append(Element("code", "\n".join(body), i + 2, hpath()))
            i = j + 1
            continue
        m = _HEADING.match(line)
        if m:
            flush()
            level, htext = len(m.group(1)), m.group(2)
            while heads and heads[-1][0] >= level:
                heads.pop()
            heads.append((level, normalize(render_inline(htext))))
            out.append(Element("heading", htext, i + 1, hpath()))
            i += 1
            continue
        if _HRULE.match(line):
            flush()
            i += 1
            continue
        if (s.startswith("|") and i + 1 < n and _DELIM.match(lines[i + 1])
                and "-" in lines[i + 1]):
            flush()
            j = i
            while j < n and lines[j].strip().startswith("|"):
                if j != i + 1:          # skip the delimiter row
                    for cell in split_cells(lines[j]):
                        if cell.strip():
                            out.append(Element("cell", cell, j + 1, hpath()))
                j += 1
            i = j
            continue
        m = _QUOTE.match(line)
        if m:
            content = m.group(1)
            if cur["kind"] != "quote":
                start("quote", content, i + 1)
            elif not content.strip():
                flush()
            else:
                cur["lines"].append(content)
            i += 1
            continue
        m = _ITEM.match(line)
        if m:
            start("item", m.group(1) or "", i + 1)
            i += 1
            continue
        if cur["kind"] is None:
            start("para", line, i + 1)
        else:                       # paragraph (lazy) continuation line
            cur["lines"].append(line)
        i += 1
    flush()
    return out


# ---------------------------------------------------------- inline render --

_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.S)
_EM_STAR = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*", re.S)
_EM_US = re.compile(r"(?<![A-Za-z0-9])_(?=\S)(.+?)(?<=\S)_(?![A-Za-z0-9])",
                    re.S)
_ESC = re.compile(r"\\([!-/:-@\[-`{-~])")


def _render_plain(s: str) -> str:
    s = _LINK.sub(r"\1", s)
    s = _AUTOLINK.sub(r"\1", s)
    s = _TAG.sub("", s)
    for _ in range(2):
        s = _STRONG.sub(r"\2", s)
    s = _EM_STAR.sub(r"\1", s)
    s = _EM_US.sub(r"\1", s)
    return _ESC.sub(r"\1", s)


_LINK_OUTER = re.compile(r"!?\[((?:[^\[\]`]|`[^`]*`)*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")


def render_inline(s: str) -> str:
    """Element text as a renderer would show it (markup removed)."""
    s = _LINK_OUTER.sub(r"\1", s)      # [text](url), text may hold code
    out, pos = [], 0
    for m in _CODE.finditer(s):
        out.append(_render_plain(s[pos:m.start()]))
        out.append(m.group(2).strip() if m.group(2).strip() else m.group(2))
        pos = m.end()
    out.append(_render_plain(s[pos:]))
    return "".join(out)


# ------------------------------------------------------------------ links --

_MDLINK = re.compile(r"\]\(\s*([^)\s]+)")
_DOCSREF = re.compile(r"\]\(\{\{<\s*docsref\s+\"([^\"]+)\"\s*>\}\}")


def link_targets(rel: str, text: str, names: Container[str]) -> set[str]:
    """Corpus pages (relative paths) that page `rel` links to."""
    found = set()
    base = os.path.dirname(rel)
    for m in list(_MDLINK.finditer(text)) + list(_DOCSREF.finditer(text)):
        url = m.group(1).split("#", 1)[0]
        if not url or re.match(r"^[a-z]+:", url):
            continue
        if url.startswith("/"):
            cand = url.lstrip("/")
        else:
            cand = os.path.normpath(os.path.join(base, url))
        cand = cand.rstrip("/")
        for c in (cand, cand + ".md"):
            if c in names and c != rel:
                found.add(c)
    return found


# ------------------------------------------------------------------- corpus --

class Page:
    def __init__(self, rel: str, path: str) -> None:
        self.name = rel
        self.text = extract(path)
        self.norm = normalize(self.text)
        self.elements = parse(self.text)
        self.src = [normalize(e.text) for e in self.elements]
        self.ren = [normalize(e.rendered()) for e in self.elements]
        # offset (in normalized page text) of the line each element starts on
        lines = self.text.split("\n")
        starts, acc = [], 0
        for ln in lines:
            starts.append(acc)
            acc += len(ln) + 1
        self._line_start = starts

    def position(self, k: int, phrase_norm: str) -> int:
        """Position of the phrase inside element k, in normalized page text."""
        e = self.elements[k]
        before = normalize(self.text[:self._line_start[e.line - 1]])
        pos = self.norm.find(phrase_norm, max(0, len(before) - 1))
        return pos if pos >= 0 else self.norm.find(phrase_norm)

    def elements_with(self, phrase_norm: str) -> list[int]:
        """Indices of body elements holding the phrase in source AND rendered
        (front matter is metadata to many ingesters, so it never counts)."""
        return [k for k, (a, b) in enumerate(zip(self.src, self.ren))
                if phrase_norm in a and phrase_norm in b
                and self.elements[k].kind != "front"]

    def whole_element(self, phrase_norm: str) -> bool:
        return any(phrase_norm == b for k, b in enumerate(self.ren)
                   if self.elements[k].kind != "front")
