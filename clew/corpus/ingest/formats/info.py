"""GNU Info manuals (what ``makeinfo`` writes and a system installs as ``/usr/share/info/*.info.gz``): one
document a manual, read by the HTML reader from the HTML its nodes become, so that a manual reads with the tree and
the units of the same manual's Texinfo HTML (``makeinfo --html``).

- Nodes are the chunks between ``\\x1f`` lines that open with a header line (``File: x.info,  Node: Foo,  Next:
  ...,  Up: ...``); everything else is left out: the preamble (its copying notice repeats in ``Top``), the
  ``Indirect:`` and ``Tag Table:`` of a split manual, the ``Local Variables`` trailer. Text without a node is not an
  Info file (:class:`UnreadableDocument`).
- A node's heading is its first line when the next underlines it: ``*`` a chapter (the ``Top`` node's title the
  manual's, level 1), ``=`` a section, ``-`` a subsection, ``.`` a subsubsection, at the levels of makeinfo's HTML
  (``UNDERLINE_LEVELS``). A node without a heading is headed by its name one level below its ``Up`` node. Each node's
  heading carries its name as makeinfo's HTML does (``sort invocation`` -> ``#sort-invocation``, :func:`node_id`), and
  the ``@anchor`` names the tag table lists under the node (``Ref:``).
- Menus (``* Menu:``: ``* Name::`` and ``* Label: Node.`` entries) are lists of links to those nodes; cross
  references (``*Note Node::``, ``*note Label: Node.``, ``*note Label: (coreutils)ls invocation.``) are links, to
  another manual as ``coreutils.info#ls-invocation`` (a link resolves to ``coreutils.info.gz`` too), or to where that
  manual was found with this one, in another folder (``guile-3.0/guile.info.gz#Modules``: ``info_targets``).
  ``*Note`` reads "See", ``(*note`` "(see" (``@xref``, ``@pxref``), another ``*note`` its link alone (``@ref``), as
  in the HTML.
- A block indented five columns more than the text around it is an example (code), as makeinfo writes
  ``@example``, unless it reads as filled text with no sign of code (``@quotation``, indented alike: a paragraph);
  term lines followed by a description indented below them are a ``@table`` entry, `` -- `` lines (each maybe
  continued at ten columns) over one a ``@deffn``: a definition list; lines opened by ``•``, ``*``, ``-`` or ``1.``
  at an indent under five are list items.
- Index nodes (the ``\\x00\\x08[index\\x00\\x08]`` marker, then ``* entry: node. (line N)``) are left out: their
  entries repeat the nodes' words; the markers, and image markers, are stripped everywhere.

A split manual (``x.info`` with ``x.info-1``, ``x.info-2``) is joined by the file reader
(``source_file.read_source``) from the parts its ``Indirect:`` table names (:func:`indirect_parts`).
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.text import normalize_newlines
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument

OTHER_MANUAL_SUFFIX = ".info"
"""How a link names another manual's file (``(coreutils)ls invocation`` -> ``coreutils.info#ls-invocation``), beside
this one: it resolves to ``coreutils.info.gz`` too (``clew.corpus.links.LINK_SUFFIXES``)."""
UNDERLINE_LEVELS = {"*": 2, "=": 3, "-": 4, ".": 4}
"""A heading's level by the character that underlines it (``@chapter``, ``@section``, ``@subsection``,
``@subsubsection`` and their unnumbered and appendix kin), as makeinfo's HTML has them: ``h2``, ``h3``, ``h4``, and
``h4`` again for a subsubsection (and a ``@subsubheading``), so that the manual has the tree of its HTML."""
TOP_LEVEL = 1
CODE_INDENT = 5
"""Columns makeinfo indents an ``@example`` (and a ``@table`` item's description) past the text around it."""
MAX_TERMS = 8
"""Term lines (``@item`` and its ``@itemx``) one description may follow."""
MAX_TERM_WIDTH = 60
"""A longer line is filled text (makeinfo fills to 72 columns), not a term; a ``@deffn`` line (`` -- ``) may be."""

_MARKER = re.compile(r"\x00\x08\[[^\x00]*\x00\x08\]")
_INDEX_MARKER = "\x00\x08[index\x00\x08]"
_FIELD = re.compile(r"(File|Node|Next|Prev|Previous|Up):[ \t]*(\x7f[^\x7f\n]*\x7f|[^,\t\n]*)")
_UNDERLINE = re.compile(r"([*=\-.])\1*")
_MENU = "* Menu:"
_ENTRY = re.compile(
    r"\* +(?:(?P<name>[^:\n]+?)::|(?P<label>[^:\n]+?):[ \t]+(?P<node>(?:\([^)\n]*\))?[^\t\n]*?)"
    r"(?:\.(?=\s|$)|,|\t|$))(?P<rest>.*)",
    re.DOTALL,
)
_XREF = re.compile(
    r"\*(?P<note>[Nn]ote)\s+(?:(?P<name>[^:\x1f]{1,300}?)::|(?P<label>[^:\x1f]{1,300}?):\s*"
    r"(?P<node>(?:\([^)\n]*\))?[^,\t:\x1f]{1,300}?)(?P<end>[.,](?=\s|$|\))|\t))"
)
_PXREF = re.compile(r"\(\s*$")
"""What comes before a ``*note`` that reads "see" (``@pxref``, written in parentheses); an ``@ref`` reads as its
link alone (the text says "see" itself when it means it)."""
_ITEM = re.compile(r" *(?:[•*\-]|\d{1,3}\.|[A-Za-z]\.) +\S")
_ITEM_END = {"dl": "</dd>", "ul": "</li>", "ol": "</li>"}
_DETAILED = re.compile(r"[-—]+ ?The Detailed Node Listing ?[-—]+")
"""The line before the Top node's menu of every node (each node's own menu again), left out."""
_REF_LINE = re.compile(r"(Node|Ref): (.*)\x7f\d+$")
_MANUAL_PATH = re.compile(r"\(([^()\s/]+(?:/[^()\s/]+)+)\)")
"""A manual named with its folders in a reference (``(guile-3.0/guile)``)."""
INFO_DIRECTORY_TITLE = "Info directory"
"""The title of the Info directory (``dir``, whose ``Top`` node has no heading): the name Info's documentation and
``install-info`` give it."""


def node_id(name: str) -> str:
    """The HTML id makeinfo gives a node (Texinfo's node name normalisation): ASCII letters and digits as they are,
    each run of spaces one ``-``, any other character ``_`` and its code point in hex (``_002e`` for ``.``)."""
    out = []
    for char in " ".join(name.split()):
        if char == " ":
            out.append("-")
        elif char.isascii() and char.isalnum():
            out.append(char)
        else:
            out.append(f"_{ord(char):04x}")
    return "".join(out)


def indirect_parts(text: str) -> list[str] | None:
    """The file names a split manual's index file lists under ``Indirect:`` (``find.info-1``, in order); None for
    a manual in one file."""
    for chunk in text.split("\x1f")[1:]:
        body = chunk.lstrip("\x0c\n")
        if body.startswith("Indirect:"):
            return [line.split(":", 1)[0].strip() for line in body.splitlines()[1:] if ":" in line]
    return None


@dataclass(slots=True)
class _Node:
    name: str
    up: str
    lines: list[str]
    refs: list[str] = field(default_factory=list)


def info_targets(content: str, key: str, manuals: dict[str, str]) -> dict[str, str]:
    """Of ``manuals`` (the pages and manuals found with this one, a manual by the name a reference gives it:
    ``"(guile)"`` -> ``"guile-3.0/guile.info.gz"``, ``info_parts.manual_names``), those in another folder that
    ``content`` references, as hrefs relative to ``key``; one beside it is linked as ``guile.info#Node``, which
    leads to ``guile.info.gz`` too. A manual named with a folder (``(guile-3.0/guile)``, as a ``dir`` entry may name
    one) is the one found in that folder, else the one found by its name alone (the folder given to the ingest
    itself, so its keys do not hold the folder's name), as Info looks for it in each folder of its path."""
    folder = posixpath.dirname(key) or "."
    hrefs = {name: posixpath.relpath(target, folder) for name, target in sorted(manuals.items())
             if name.startswith("(") and name in content}
    for path in sorted(set(_MANUAL_PATH.findall(content))):
        found = manuals.get(f"({path})") or manuals.get(f"({path.rsplit('/', 1)[1]})")
        if found is not None:
            hrefs[f"({path})"] = posixpath.relpath(found, folder)
    return {name: href for name, href in hrefs.items() if "/" in href or "/" in name}


def parse_info(source: str, targets: dict[str, str] | None = None) -> ParsedDocument:
    """Read one manual's nodes, in order, into one document (see the module's description); ``targets``: the other
    manuals it references, where they were found (:func:`info_targets`)."""
    text = normalize_newlines(source)
    nodes: list[_Node] = []
    refs: dict[str, list[str]] = {}
    manual = ""
    for chunk in text.split("\x1f")[1:]:
        body = chunk.lstrip("\x0c\n")
        if body.startswith("Tag Table:"):
            refs.update(_tag_refs(body))
        if not body.startswith("File:"):
            continue
        header, _, rest = body.partition("\n")
        fields = {key: _unquote(value) for key, value in _FIELD.findall(header)}
        if not fields.get("Node") or _INDEX_MARKER in rest:
            continue
        manual = manual or re.sub(r"\.info(?:-\d+)?$", "", fields.get("File", "")).strip()
        lines = _MARKER.sub("", rest).replace("\x00", "").split("\n")
        nodes.append(_Node(fields["Node"], fields.get("Up", ""), lines))
    if not nodes:
        raise UnreadableDocument(
            "not a GNU Info file (no node: no line 'File: ..., Node: ...' after a \\x1f line): not ingested"
        )
    writer = _Writer(manual, targets or {})
    for node in nodes:
        node.refs = refs.get(node.name, [])
        writer.node(node)
    return parse_html("<html><body>" + "".join(writer.out) + "</body></html>")


def _unquote(value: str) -> str:
    return " ".join(value.strip().strip("\x7f").split())


def _tag_refs(table: str) -> dict[str, list[str]]:
    """The ``@anchor`` names (``Ref:``) the tag table lists after each node, the node they are in."""
    out: dict[str, list[str]] = {}
    node = None
    for line in table.splitlines():
        match = _REF_LINE.match(line)
        if match is None:
            continue
        if match[1] == "Node":
            node = _unquote(match[2])
        elif node is not None:
            out.setdefault(node, []).append(_unquote(match[2]))
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


class _Writer:
    """The HTML of a manual's nodes, one at a time; ``open`` holds the lists a description or item is inside."""

    def __init__(self, manual: str, targets: dict[str, str]) -> None:
        self.manual = manual
        self.targets = targets
        self.out: list[str] = []
        self.levels: dict[str, int] = {}
        self.open: list[tuple[int, str, int]] = []  # (indent of their text, "dl" | "ul" | "ol", of their terms)

    def node(self, node: _Node) -> None:
        lines = node.lines
        while lines and not lines[0].strip():
            lines = lines[1:]
        ids = "".join(f'<a id="{html.escape(node_id(ref))}"></a>' for ref in node.refs)
        top = node.name == "Top"
        if len(lines) > 1 and self._underlines(lines[0], lines[1]):
            level = TOP_LEVEL if top else UNDERLINE_LEVELS[lines[1][0]]
            heading, lines = lines[0].strip(), lines[2:]
        else:
            level = TOP_LEVEL if top else min(self.levels.get(node.up, TOP_LEVEL) + 1, 6)
            heading = INFO_DIRECTORY_TITLE if top and self.manual == "dir" else node.name
        self.levels[node.name] = level
        self.close()
        self.out.append(f'<h{level} id="{html.escape(node_id(node.name))}">{ids}{html.escape(heading)}</h{level}>\n')
        menu = next((at for at, line in enumerate(lines) if line.startswith(_MENU)), len(lines))  # dir: text after
        runs = _runs(lines[:menu])
        for at, run in enumerate(runs):
            following = runs[at + 1] if at + 1 < len(runs) else None
            if run and following and _terms_alone(run, following):  # an @item with a blank line under it
                runs[at + 1] = run + following
            elif run:
                self.run(run)
        self.close()
        self.menu(lines[menu + 1 :])

    @staticmethod
    def _underlines(line: str, under: str) -> bool:
        under = under.rstrip()
        return (
            bool(line.strip())
            and not line.startswith(" ")
            and _UNDERLINE.fullmatch(under) is not None
            and len(under) == _width(line.rstrip())
        )

    def run(self, lines: list[str]) -> None:
        if len(lines) > 1 and self._underlines(lines[0], lines[1]):
            self.close()
            level = UNDERLINE_LEVELS[lines[1][0]]
            self.out.append(f"<h{level}>{html.escape(lines[0].strip())}</h{level}>\n")
            if lines[2:]:
                self.run(lines[2:])
            return
        first = _indent(lines[0])
        least = min(_indent(line) for line in lines)
        entry = _entry(lines)
        kind = "dl" if entry is not None else None
        if _ITEM.match(lines[0]):
            entry, kind = None, "ol" if lines[0].lstrip()[0].isalnum() else "ul"
        while self.open:  # close the lists this run is outside of (neither in a description nor a sibling entry)
            text, open_kind, marker = self.open[-1]
            if least >= text or (marker == first and open_kind == kind):
                break
            self.end_list()
        context = self.open[-1][0] if self.open else 0
        sibling = bool(self.open) and self.open[-1][1:] == (kind, first)  # the next entry of the innermost list
        opens = context <= first < context + CODE_INDENT and (entry is not None or first > context)
        if kind is None or not (sibling or opens):  # text of the description or item it is in, or code
            self.blocks(lines, context)
            return
        if sibling:
            self.out.append(_ITEM_END[kind])
        else:
            self.out.append(f"<{kind}>")
            # a description's text is five columns past its terms (four past a @deffn's " -- "), an example in it more
            text = (
                context + CODE_INDENT
                if entry is None
                else first + 4
                if _deffn(lines[0])
                else min(_indent(lines[entry[0]]), first + CODE_INDENT)
            )
            self.open.append((text, kind, first))
        text = self.open[-1][0]
        if entry is None:  # the item's text, its marker left out; it stays open: more may follow
            end = next(
                (k for k in range(1, len(lines)) if _indent(lines[k]) == first and _ITEM.match(lines[k])), len(lines)
            )  # the next item, no blank line between them
            marker = len(lines[0]) - len(lines[0].lstrip().split(" ", 1)[-1].lstrip())
            self.out.append("<li>")
            self.blocks([" " * text + lines[0][marker:], *lines[1:end]], text)
            if end < len(lines):
                self.run(lines[end:])
            return
        terms, end = entry
        names: list[str] = []  # a @deffn line continued at ten columns is one term
        for line in lines[:terms]:
            if names and _indent(line) > first:
                names[-1] += " " + line.strip()
            else:
                names.append(line.strip())
        self.out.append("".join(f"<dt>{self.inline(name)}</dt>" for name in names) + "<dd>")
        if terms < end and 0 < _indent(lines[terms]) - text < CODE_INDENT and _ITEM.match(lines[terms]):
            self.run(lines[terms:end])  # a list opens the description
        else:
            self.blocks(lines[terms:end], text)
        if end < len(lines):  # the next entry of a table written without blank lines between its entries
            self.run(lines[end:])

    def blocks(self, lines: list[str], text: int) -> None:
        """Lines of text indented ``text`` columns as paragraphs, and those indented five more as examples (an
        ``@example`` written without blank lines around it)."""
        at = 0
        while at < len(lines):
            code = _indent(lines[at]) >= text + CODE_INDENT
            stop = next(
                (k for k in range(at, len(lines)) if (_indent(lines[k]) >= text + CODE_INDENT) != code), len(lines)
            )
            if code and _quotation(lines[at:stop]):  # @quotation, indented as an example is
                self.out.append(
                    f"<blockquote><p>{self.inline(' '.join(line.strip() for line in lines[at:stop]))}"
                    "</p></blockquote>\n"
                )
            elif code:
                example = "\n".join(line[text + CODE_INDENT :] for line in lines[at:stop])
                self.out.append(f'<pre class="example">{html.escape(example)}</pre>\n')
            else:
                self.out.append(f"<p>{self.inline(' '.join(line.strip() for line in lines[at:stop]))}</p>\n")
            at = stop

    def close(self) -> None:
        """Close every open list: what follows is outside them."""
        while self.open:
            self.end_list()

    def end_list(self) -> None:
        """Close the innermost open list, and its last entry (kept open for the paragraphs that go on in it)."""
        kind = self.open.pop()[1]
        self.out.append(f"{_ITEM_END[kind]}</{kind}>\n")

    def menu(self, lines: list[str]) -> None:
        """A node's menu: its entries a list of links, any other line (a group's title) a paragraph."""
        entries: list[str] = []
        for line in lines:
            if _DETAILED.fullmatch(line.strip()):
                break
            if line.startswith("* "):
                entries.append(line)
            elif line.startswith(" ") and line.strip() and entries:
                entries[-1] += " " + line.strip()
            elif line.strip():
                self._entries(entries)
                entries = []
                self.out.append(f"<p>{html.escape(line.strip())}</p>\n")
        self._entries(entries)

    def _entries(self, entries: list[str]) -> None:
        items = []
        for entry in entries:
            match = _ENTRY.match(entry)
            if match is None:
                items.append(f"<li>{html.escape(entry[2:].strip())}</li>")
                continue
            name = match["name"] or match["label"]
            rest = " ".join(match["rest"].split())
            link = f'<a href="{html.escape(self.href(match["name"] or match["node"]))}">{html.escape(name.strip())}</a>'
            items.append(f"<li>{link}{': ' + html.escape(rest) if rest else ''}</li>")
        if items:
            self.out.append("<ul>" + "".join(items) + "</ul>\n")  # not ul.menu: the HTML reader drops that (SQLite's)

    def inline(self, text: str) -> str:
        """Text with its cross references as links (``*Note`` as "See", as makeinfo's HTML writes ``@xref``)."""
        out = []
        at = 0
        for match in _XREF.finditer(text):
            before = text[at : match.start()]
            out.append(html.escape(before))
            if match["note"] == "Note" or _PXREF.search(before):
                out.append("See " if match["note"] == "Note" else "see ")
            label = " ".join((match["name"] or match["label"]).split())
            target = match["name"] or match["node"]
            out.append(f'<a href="{html.escape(self.href(target))}">{html.escape(label)}</a>')
            out.append(html.escape(match["end"] or "").replace("\t", ""))
            at = match.end()
        out.append(html.escape(text[at:]))
        return "".join(out)

    def href(self, target: str) -> str:
        """A node's link: ``#id`` in this manual, ``manual.info#id`` in another (``(manual)Node``), or where that
        manual was found (``targets``)."""
        target = _unquote(target)
        other = re.match(r"\(([^)]*)\)\s*(.*)", target, re.DOTALL)
        if other is None or other[1].strip() == self.manual:
            node = other[2] if other is not None else target
            return f"#{node_id(node or 'Top')}"
        node = _unquote(other[2])
        manual = other[1].strip()
        path = self.targets.get(f"({manual})", manual + OTHER_MANUAL_SUFFIX)
        return path + (f"#{node_id(node)}" if node and node != "Top" else "")


def _runs(lines: list[str]) -> list[list[str]]:
    """The runs of non-blank lines; a list item (``_ITEM``) after another at its indent opens a run of its own
    (``@itemize`` writes no blank line between its items), and so does a table's first term under a paragraph."""
    runs: list[list[str]] = []
    current: list[str] = []
    for at, line in enumerate(lines):
        if current and _ITEM.match(line) and _ITEM.match(current[0]) and _indent(line) == _indent(current[0]):
            runs.append(current)
            current = []
        elif (
            current
            and not _term_line(current[-1])
            and _term_line(line)
            and at + 1 < len(lines)
            and _indent(lines[at + 1]) >= _indent(line) + 4
        ):  # a table right under a paragraph, no blank line
            runs.append(current)
            current = []
        if line.strip():
            current.append(line.rstrip())
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _entry(lines: list[str]) -> tuple[int, int] | None:
    """How many term lines open ``lines`` when they are a ``@table`` or ``@deffn`` entry (terms at one indent, then
    a description indented four or more columns past them), and where the entry ends (the next term at the indent
    of its terms, or the run's end); None when they are not one."""
    first = _indent(lines[0])
    if _deffn(lines[0]):  # " -- Function: name ARGS", more such lines, each maybe continued at ten columns
        at = next(
            (k for k in range(1, len(lines)) if not (_deffn(lines[k]) or _indent(lines[k]) >= first + 8)), len(lines)
        )
        if at < len(lines) and _indent(lines[at]) != first + 4:
            return None
        end = next((k for k in range(at, len(lines)) if _indent(lines[k]) < first + 4), len(lines))
        return (at, end) if end == len(lines) or _indent(lines[end]) == first else None
    for at, line in enumerate(lines[1 : MAX_TERMS + 1], start=1):
        indent = _indent(line)
        if indent >= first + 4:
            terms = lines[:at]
            if lines[at - 1].rstrip().endswith(":") or any(
                len(term) > MAX_TERM_WIDTH and not term.lstrip().startswith("-- ") for term in terms
            ):
                return None  # filled text ("... the following will work:") over an example, not terms
            end = next((k for k in range(at, len(lines)) if _indent(lines[k]) < first + 4), len(lines))
            return (at, end) if end == len(lines) or _indent(lines[end]) == first else None
        if indent != first:
            return None
    return None


def _deffn(line: str) -> bool:
    """Whether ``line`` is a ``@deffn`` line as makeinfo writes it (`` -- Scheme Procedure: open-file FILE``)."""
    return line.startswith(" -- ") and len(line) > 4


_TERM_LINE = re.compile(r" *(?:['‘`]|-- )[^\n]*(?<![.:,;])")
"""A line that reads as a ``@table`` term: quoted (``@table @code``: ``'select'``, ``‘r’,‘R’ (reading files)``) or
a ``@deffn`` line, not ending as a sentence does."""


def _term_line(line: str) -> bool:
    return len(line) <= MAX_TERM_WIDTH and _TERM_LINE.fullmatch(line.rstrip()) is not None


def _terms_alone(run: list[str], following: list[str]) -> bool:
    """Whether ``run`` is only the terms of a ``@table`` entry whose description is the run after it, below a blank
    line: quoted terms (``'select'``) or ``@deffn`` lines over any description, other short lines (``@table @asis``:
    "Backslash escapes") over one that reads as sentences, not as an example."""
    first = _indent(run[0])
    if len(run) > MAX_TERMS or any(_indent(line) != first for line in run):
        return False
    if min(_indent(line) for line in following) < first + 4:
        return False
    if all(_term_line(line) for line in run):
        return True
    return all(len(line) <= MAX_TERM_WIDTH and not line.rstrip().endswith((".", ":", ",", ";")) for line in run) and (
        _sentences(following)
    )


def _sentences(lines: list[str]) -> bool:
    """Whether ``lines`` read as filled text: words with single spaces between them (two after a full stop), four
    or more a line but the last, which ends as a sentence or a clause does."""
    return (
        lines[-1].rstrip().endswith((".", ":", ";", ")"))
        and all(len(line.split()) >= 4 for line in lines[:-1])
        and all("   " not in line.strip() for line in lines)
    )


QUOTATION_WIDTH = 55
"""An indented block with a line this long, all of it sentences (``_sentences``), is a ``@quotation`` (filled text: the
copying notice of every manual), not an ``@example``."""
_CODE_SIGNS = re.compile(r"[{}=|$\\]|^\s*[#%*/+@>;-]|\w\(|\)\s*;|;\s*$")


def _quotation(lines: list[str]) -> bool:
    """Whether an indented block reads as a ``@quotation``: two lines or more of filled text, no sign of code."""
    return (
        len(lines) >= 2
        and max(len(line.strip()) for line in lines) >= QUOTATION_WIDTH
        and _sentences(lines)
        and not any(_CODE_SIGNS.search(line) for line in lines)
    )
