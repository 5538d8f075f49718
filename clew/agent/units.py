"""The quotable units of a passage for the extract (``clew.agent.generate``): sentences of prose,
list items, table rows with their header, code blocks and interactive sessions, each with what
surrounds it (its heading and definition term, the sentence before it, the lead-in that
introduces it). How a passage is cut into units and how they are kept together lives here; how
units are scored, chosen and quoted lives in ``generate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from clew.agent.declarations import DECLARED, HEADING_NAME, SIGNATURE, declared_block, names, signature, written
from clew.agent.identifiers import camel_terms
from clew.agent.line_shapes import (
    CODE_LINE,
    GRID_BORDER,
    OPTION,
    SEE,
    UNDERLINE,
    drawn_table,
    indented_code,
    options_term,
    separated,
    stacked_options,
    underlined,
    unfenced_code,
)
from clew.agent.source_blocks import FENCE as FENCE
from clew.agent.source_blocks import admonitions, indent, rst_literals
from clew.corpus.tokenize import tokenize

SENTENCE = re.compile(r"(?<![\s(]p\.)(?<!\bpp\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\bFig\.)(?<!\bSec\.)"
                       r"(?<!\bNo\.)(?<!\(ex\.)(?<!\(eg\.)(?:(?<=[.!?])|(?<=[^.][.!?]\)))\s+(?=[A-Z0-9`\"'(]|@[a-z]+\s)")
"""Where a sentence ends: after ``.``, ``!`` or ``?`` (or a parenthesis closing a sentence:
"(The default is 500 pages.) The maximum ...", not "format(FORMAT,...) SQL") and space, before a
capital, digit, quote, bracket or a doc comment's tag (RDoc's "... in given time. @param warmup
[Integer] Specify how long ...": the tags were the tail of a 46-word sentence, task U8's q7); not
after an abbreviation that a number or name follows (``(p. 67)``, ``e.g.``, ``(ex.``, ``Fig.``,
``No.``): a PDF manual's "See also set xrange (p. 216)" is one sentence."""
_ITEM = re.compile(r"^(?:[-*+\u2022\u25e6\u25aa\u2023]\s+|\d{1,3}[.)]\s+)")
"""A list item's marker: "-", "*", "+", a bullet a PDF reader keeps as text (groff's "\u2022", task X18), a number."""
PROMPT = re.compile(r"(?:>>>|\$|\w+>)(?:\s|$)")
"""A line that starts an interactive session (``>>> import functools``, ``$ sudo apt install``,
``sqlite> .mode csv``): with the lines after it, up to a blank line, it is code. Every reader fences
the code it knows (``clew.corpus.ingest.formats.fences``), but a session in a paragraph has none, nor
has code ingested before the readers fenced it; joined into a sentence, a session
read ``>>> import functools >>> @functools.lru_cache(maxsize=300) ... def get_phone_number(name)``."""


@dataclass(slots=True)
class Unit:
    """One quotable piece of a passage and what surrounds it."""

    own: str
    """The sentence, list item or table row itself."""
    evidence_id: str
    order: int
    kind: str
    """``sentence``, ``item`` (of a list) or ``row`` (of a table)."""
    header: str = ""
    """What is quoted above it: a row's table header row, a description's definition term, a short
    lead-in's sentence before it (``SHORT_LEAD_IN``)."""
    context: set[str] = field(default_factory=set)
    follow: list[tuple[str, str]] = field(default_factory=list)
    """``(text, evidence_id)`` of the list items or table rows after a lead-in ending in ":"."""
    terms: list[str] = field(default_factory=list)
    intro: Unit | None = None
    """The lead-in that introduces a list item, a table row or a code block."""
    unmet: set[str] = field(default_factory=set)
    """Rows of the table a quoted lead-in introduces that miss the question's condition."""
    vocabulary: frozenset[str] = frozenset()
    """Its terms as a set, and its pairs of adjacent terms (from ``terms`` when not given: kept
    with the parsed passage, not built again by each extract that scores the unit)."""
    pairs: frozenset[tuple[str, str]] = frozenset()
    position: int = -1
    """Its place among its passage's units (reading order): adjacent units are quoted together."""

    def __post_init__(self) -> None:
        if self.terms and not self.vocabulary:
            self.vocabulary = frozenset(self.terms)
            self.pairs = frozenset(zip(self.terms, self.terms[1:], strict=False))

    @property
    def text(self) -> str:
        return f"{self.header}\n{self.own}" if self.header else self.own


PARSED_PASSAGES = 4096
"""Passages whose units ``parsed_units`` keeps (a walk takes the same passages again and again:
parsing them was a third of the extract, a tenth of a warm ranked walk)."""


@lru_cache(maxsize=PARSED_PASSAGES)
def parsed_units(text: str, evidence_id: str, where: str = "") -> list[Unit]:
    """``passage_units`` of a fetched passage, kept: shared by every extract (copy to change, as ``lead_ins`` does)."""
    return passage_units(text, evidence_id, 0, where)


_HTML = re.compile(r"<(div|section|nav|form|button|ul|ol|li|table|tr|td|svg|img|input|select|iframe|figure|hr|br)"
                   r"\b[^<>]*>", re.IGNORECASE)
"""A paragraph that opens with a block of HTML markup (Bootstrap's raw ``<div class="collapse show">``);
an inline tag (``<kbd>Ctrl</kbd> + <kbd>C</kbd> copies``) may open a sentence."""
LONG_ITEM = 50
"""A list item of more than this many words, with no lead-in in its passage, is quoted by its
sentences: the first is the item, each later one a sentence of its own with the one before as
context (SQLite's numbered paragraphs run to a hundred words and five sentences; scored by its
length, such an item ranked below its one sentence that answers). An item a lead-in introduces
stays whole: the lead-in quotes its list."""
_EDGES = re.compile(r"^(?:[#\s]|-+(?=\s))+|(?:\s+-+|[#\s])+$")
"""A text's heading marks and loose dashes at either end; not an option's (``-M, --multi-volume``)."""
_JOINING = re.compile(r"[a-z]{1,3}")
"""A paragraph of one short lower-case word between an example and the code block after it ("to", "or"): too short
to be a unit, it was lost, and the block read alone. It is quoted above the block: Gutenprint's "Change the following
line from:" ``LogLevel Info`` "to" ``LogLevel Debug``, the chunker's cut before "to" (task X14, U16's G2)."""


_GOES_ON = re.compile(r"[a-z]+\s")
"""A paragraph that opens with a lower-case word (not a name: ``sorted(iterable)``, ``f.readline()``)
after an example a sentence without its end introduces: the rest of that sentence ("For example",
the example, "would fit a multiple regression model of y on x1 and x2", R's manual through the PDF
reader). The example is quoted above it, as a definition's term is: alone, it said what the example
does without the example (task U4's question 8 lost ``lm(y ~ x1 + x2, data = production)``)."""


def _interrupted(units: list[Unit]) -> bool:
    """The last unit is code right after a sentence that does not end (``_GOES_ON``)."""
    return (len(units) > 1 and units[-1].kind == "code" and units[-2].kind == "sentence"
            and not units[-2].own.rstrip(")\"'*`").endswith((".", "!", "?", ":")))


SHORT_LABEL = 6
"""A paragraph of at most this many words that ends no sentence is a label: a definition's term (an option, a
field) over the paragraph it heads, or a code block's lead-in ("Run tests by keyword expressions")."""
SHORT_LEAD_IN = 6
"""A lead-in ending in ":" of at most this many words ("The list is:", "For example:") says nothing
of what it introduces: the sentence before it in its paragraph does, and is quoted above it as
its ``header`` (tempfile's "Python searches a standard list of directories to find one which the
calling user can create files in." was left out of its "The list is:"). Joined into one unit,
the two ranked low by their length: a PostgreSQL "Here is the procedure:" lost its steps."""


_METADATA = re.compile(r"(?:Added in|Since|Deprecated since|Stability): \S.{0,60}|History")
"""An entry's metadata line (Node.js's "Added in: v11.0.0", "Stability: 2 - Stable", "History"; gtk-doc's "Since:
2.28"): read as a label, it was quoted over the description after it in place of the entry's name (task U8's q6).
A unit of its own, quoted only when the question shares its words; never a term, nor an example's lead-in."""


_MARKS = re.compile(r"(?!\.+$)[^\w\s]{1,3}")
"""A paragraph of marks alone (no letter, digit or space; not dots): a key's name ("!", "|", "?" in kakoune's key
lists), a flag's (git-push's "!" and "="), a label, though it ends as a sentence may ("!", "?") or starts as a table's
row may ("|"): read as prose, it was no unit, and the description after it was quoted with no term (task U18's
question 13, "insert and select command output before each selection." without its "!")."""


_SETTING = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")
"""A heading that is one name with an underscore: a setting's (Scrapy's "### DOWNLOAD_DELAY"), whose section is its
entry; see ``_Cut.headed``."""


_NAMES = re.compile(r"[^\s,]+(?:,\s*[^\s,]+)+|[A-Z][\w ]{0,30}: \S.*")
"""A list of names, comma-separated (a man page's KEYWORDS or SEE ALSO: "catch, error, exception"), or a field and
its value (RDoc's "Also aliased as: running", "Alias for: warming")."""


def _item_introduces(item: Unit, lead: Unit | None, owner: tuple[Unit, int] | None, line: str) -> bool:
    """A list item that ends in ":" introduces the code block right after it at the list's margin (not one
    indented under the item: an example inside its body): Cython's "2. Negative indices are checked for ... We can
    add a decorator to disable bounds checking:" then ``@cython.boundscheck(False)`` (task U15's question 14: the
    decorator was never quoted), npm's "* Create a new team:" then ``npm team create <org:team>``. The block is
    quoted after the item in its list when a lead-in introduces that list (``lead``), else with the item; the items
    after the block are no more of that list (as before)."""
    return (item.own.endswith(":") and (lead is None or item.intro is lead)
            and (owner is None or owner[0] is not item or indent(line) <= owner[1]))


def sentences(text: str) -> list[str]:
    """The quotable units of a passage in reading order: sentences, list items, table rows."""
    return [u.text for u in passage_units(text, "", 0)]


def passage_units(text: str, evidence_id: str, order: int, where: str = "") -> list[Unit]:
    """Units of one passage: sentences of prose (wrapped lines rejoined), list items (with their
    continuation lines), table rows (with the header row), fenced code blocks and interactive
    sessions (``PROMPT``: whole). Headings
    and short labels are context for what follows (a label up to the next label or heading: one
    definition's term is not another's); a label (a definition's term: an option, a field) is
    quoted above the sentences of the paragraph it heads; a lead-in ending in ":" (or
    the sentence just before a table or a code block) carries the list, rows or code after it. A
    paragraph indented under a list item, after a blank line, is the item's body: the item's terms
    are its sentences' context (npm's "* `npm install [<@scope>/]<name>@<version range>`:" and,
    indented under it, "Note that most version ranges must be put in quotes ..."), up to the next
    item or a paragraph back at the item's margin. A table without a header row (no ``"| --- |"``: gtk-doc's
    Parameters) is rows under ``where``, the passage's section path ("g_list_free_full () › Parameters"), quoted
    above them, its terms their context: it says whose parameter a row is. An API member's declaration
    (``clew.agent.declarations``: a paragraph, a list item under the heading that names the member, a heading that
    declares it) is the term of the description after it (see ``_Cut.member``)."""
    return _Cut(evidence_id, order, where).passage(text)


@dataclass(slots=True)
class _Cut:
    """One passage being cut into units, line by line (``passage``), and what the lines read so far leave open. Each
    shape it knows has its method: a heading (``section``), a fenced code block (``fence``, ``code_line``), an
    interactive session, a table row (``row``), a list item (``item``), a paragraph of code (``code_paragraph``), a
    label or a definition's term (``term``), prose (``prose``); a lead-in is the last sentence ending in ":"
    (``lead``), or the one before a table or a code block (``introduce``)."""

    evidence_id: str
    order: int
    where: str
    units: list[Unit] = field(default_factory=list)
    heading: set[str] = field(default_factory=set)
    """The last heading's terms: the context of every unit up to the next heading."""
    header: str | None = None
    """The open table's header row (``where`` for a table without one)."""
    block: list[str] = field(default_factory=list)
    """The lines of the paragraph or list item being read (stripped)."""
    raw: list[str] = field(default_factory=list)
    """The block's lines as the passage writes them (indented code keeps its indentation)."""
    code: list[str] | None = None
    """The lines of an open fenced code block."""
    session: list[str] | None = None
    """The lines of an interactive session (``PROMPT``)."""
    closes: bool = False
    """The open code block is the one a list item introduces (``_item_introduces``)."""
    above: str = ""
    """A word too short to be a unit over the open code block (``_JOINING``): quoted above it."""
    opened: int = 0
    """The units before the last heading."""
    in_list: bool = False
    """A list item's marker (``_ITEM``) opened the lines read since the last blank line or heading: an item."""
    lead: Unit | None = None
    """The last sentence, when it ends in ":" and prose has not resumed."""
    previous: set[str] = field(default_factory=set)
    """The terms of the last sentence or item: the next one's context."""
    label: str = ""
    """The definition term heading the next paragraph."""
    defined: set[str] = field(default_factory=set)
    """The terms of the last label: context up to the next label or heading."""
    prose: bool = False
    """The last block was a paragraph of prose (its last sentence may introduce an example)."""
    owner: tuple[Unit, int] | None = None
    """The last list item and its marker's indentation: see ``passage_units``."""
    terms: Unit | None = None
    """A lead-in ending in ":" right before a definition's term: it introduces the terms up to the next heading
    (pipe2's "The following values can be bitwise ORed in flags to obtain different behavior:" over O_CLOEXEC,
    O_DIRECT, ... each with its description, task U15's question 3), quoted with their names as a lead-in with its
    list; alone, it said nothing."""
    example: Unit | None = None
    """The last code block made of unfenced paragraphs: see ``more_code``."""
    paragraph: list[Unit] = field(default_factory=list)
    """The sentences of the last paragraph of prose: see ``introduce``."""
    title: str = ""
    """The last heading's text."""
    member: str = ""
    """``label`` is a member's declaration (``declarations``), the kind of unit it was before task X10 ("item",
    "sentence"): a list item under the heading that names the member, or a paragraph in a form other than Sphinx's
    and Haddock's; the description after it (TypeDoc's "- setSerialBaudrate(baudrate?: number): Promise<void>" over
    "- Set the serial baud rate setting") is quoted under it, as a definition's under its term (task U13's questions
    6-10); with no description after it, it is that unit again (``restore``); "heading": a heading that is a
    member's declaration (``headed``); "code": a one-line code block that is one (``declared_block``); "named": a
    heading that is a setting's name (``_SETTING``)."""

    def passage(self, text: str) -> list[Unit]:
        lines = text.splitlines()
        if "::" in text or "----" in text or "...." in text:
            lines = rst_literals(lines)
        if ">" in text or "!!!" in text or "???" in text:
            lines = admonitions(lines)
        fences = [i for i, line in enumerate(lines) if line.strip().startswith(FENCE)]
        if len(fences) % 2 and lines[fences[0]].strip() == FENCE and fences[0] > 0:
            self.code = []  # the passage starts inside a code block (a chunk boundary cut it): its first fence ends it
        for number, line in enumerate(lines):
            self.line(lines, number, line)
        self.flush()
        if self.code is None and self.session is None:
            self.unheaded()
        self.restore()  # a declaration over a code block the passage cuts off
        if self.code is not None:  # a block the passage cuts off
            self.add("\n".join(self.code), "code", self.led())
        if self.session is not None:
            self.add("\n".join(self.session), "code", self.led())
        return self.units

    def line(self, lines: list[str], number: int, line: str) -> None:
        stripped = line.strip()
        if self.code is not None:
            self.code_line(self.code, line, stripped)
            return
        if self.session is not None:
            if stripped:
                self.session.append(line)
                return
            self.add("\n".join(self.session), "code", self.led())
            self.session = None
        elif PROMPT.match(stripped):
            self.flush()
            self.introduce()
            self.session = [line]
            return
        if stripped.startswith(FENCE):
            self.fence(line)
        elif GRID_BORDER.fullmatch(stripped):  # a grid table's border: no row, and the header stays
            self.flush()
        elif stripped.startswith("|") and stripped != "|":  # "|" alone is a key's name: see ``_MARKS``
            self.row(lines, number, stripped)
        else:
            self.header = None
            self.text_line(line, stripped)

    def text_line(self, line: str, stripped: str) -> None:
        """A line of prose, a list item's, a heading or a blank line."""
        if stripped and not self.block and self.owner is not None and indent(line) <= self.owner[1] and (
                not _ITEM.match(stripped)):
            self.owner = None  # a paragraph back at the list's margin: the item's body has ended
        if not stripped:
            self.flush()
            self.in_list = False
        elif (not line[:1].isspace() and not self.in_list and UNDERLINE.fullmatch(stripped) is not None
              and underlined(self.block, stripped)):
            title = self.block[-1]
            self.block.clear()
            self.raw.clear()
            self.section(title)
        elif stripped.startswith("#") and not self.block and not line[:1].isspace():  # else a comment in code
            self.section(stripped.lstrip("# "))
        else:
            if _ITEM.match(stripped):
                self.flush()
                self.in_list = True
                stripped = _ITEM.sub("", stripped)
            self.block.append(stripped)
            self.raw.append(line.rstrip())

    def section(self, title: str) -> None:
        """A heading: what the last section left open ends; its terms are the context of what follows, and a heading
        that declares a member is the term of the paragraph under it (``headed``)."""
        self.unheaded()
        self.in_list, self.lead, self.previous, self.label, self.defined, self.prose, self.owner = (
            False, None, set(), "", set(), False, None)
        self.example = self.terms = None
        self.title = title
        self.heading = set(tokenize(title))
        self.opened = len(self.units)
        self.headed(title)

    def fence(self, line: str) -> None:
        """A fence opens a code block: the sentence before it, a label over it or an item ending in ":" introduces
        it."""
        self.flush()
        units = self.units
        if units and units[-1].kind == "item" and not _item_introduces(units[-1], self.lead, self.owner, line):
            self.lead = None  # an example inside a list's item, not more of its lead-in's list (as unfenced, below)
        elif units and units[-1].kind == "item":
            self.lead, self.closes = self.lead or units[-1], True  # an item ending in ":" introduces the block
        if _JOINING.fullmatch(self.label):
            self.above, self.label, self.lead = self.label, "", None  # see ``_JOINING``
        else:
            self.introduce()
        self.code = [line]

    def code_line(self, code: list[str], line: str, stripped: str) -> None:
        """A line of the open code block; its closing fence makes it a unit, or a term (a few options, a member's
        prototype opening its section)."""
        code.append(line)
        if not stripped.startswith(FENCE):
            return
        if code[0].strip().startswith(FENCE) and options_term(code[1:-1]):  # not a cut block's tail
            self.label = " ".join(c.strip() for c in code[1:-1])  # the next description's term
            self.defined = set(tokenize(self.label))
        elif self.title and len(self.units) == self.opened and self.lead is None and not self.label and (
                prototype := declared_block(code)):
            self.label = prototype  # a member's prototype opening its section: see ``member``
            self.defined, self.member = set(tokenize(self.label)), "code"
        elif code[0].strip().startswith(FENCE) and (table := drawn_table(code[1:-1], code[0].strip().lstrip("`"))):
            for header, row in table:  # a table drawn in a literal block: rows under their header
                self.add(row, "row", set(tokenize(header)) | self.led(), header)
        else:
            self.add("\n".join(code), "code", self.led(), self.above)
        self.code, self.above = None, ""
        if self.closes:  # the block an item introduced: what follows it is not more of its list
            self.lead, self.closes = None, False

    def row(self, lines: list[str], number: int, stripped: str) -> None:
        """A table's line: its header row (the sentence before the table introduces it), a separator or a row."""
        self.flush()
        if self.header is None and not separated(lines, number):  # no header row: see ``passage_units``
            self.header = self.where
            if len(self.units) > self.opened:  # not a sentence above the table's own heading
                self.introduce(code=False)  # ("See g_get_monotonic_time().")
            self.add(stripped, "row", set(tokenize(self.header)) | self.led(), self.header)
        elif self.header is None:
            self.header = stripped
            self.introduce(code=False)
        elif not stripped.startswith("| ---"):
            self.add(stripped, "row", set(tokenize(self.header)) | self.led(), self.header)

    def led(self) -> set[str]:
        """The lead-in's terms: the context of what it introduces."""
        return set(self.lead.terms) if self.lead else set()

    def add(self, own: str, kind: str, context: set[str], row_header: str = "") -> Unit | None:
        clean = own if kind in ("row", "code") else _EDGES.sub("", " ".join(own.split()))
        if (len(clean) < 4 and kind != "item") or not any(ch.isalnum() for ch in clean):
            return None  # a list item may be one short value: STRICT's "INT", a format's "csv"
        unit = Unit(clean, self.evidence_id, self.order, kind, row_header, self.heading | self.defined | context,
                    terms=tokenize(clean) + camel_terms(clean), position=len(self.units))
        self.units.append(unit)
        if self.lead is not None and kind != "sentence":
            self.lead.follow.append((unit.text, self.evidence_id))
            unit.intro = self.lead
        return unit

    def flush(self) -> None:
        """The paragraph or list item read so far (``block``) becomes units, or a term of what follows."""
        if not self.block:
            return
        joined = " ".join(self.block)
        lines, code_lines = list(self.block), list(self.raw)
        self.block.clear()
        self.raw.clear()
        after, self.prose = self.prose, False
        if self.in_list:
            self.item(joined, code_lines)
        elif self.more_code(lines):
            return
        elif not self.code_paragraph(joined, lines, code_lines, after):
            if len(lines) == 1 and _METADATA.fullmatch(joined):
                self.add(joined, "sentence", set())  # not a term, and prose has not resumed: see ``_METADATA``
            elif not self.term(joined, lines):
                self.prose_paragraph(joined, code_lines)

    def item(self, joined: str, code_lines: list[str]) -> None:
        """A list item: a member's declaration under the heading that names it (the term of the item after it),
        else a unit, a long one by its sentences (``LONG_ITEM``)."""
        if self.lead is None and len(self.units) == self.opened and (not self.label or self.member == "named") and (
                names(joined, self.title)):  # TypeDoc's "### flash" names the member an item declares
            self.label, self.defined, self.member = joined, set(tokenize(joined)), "item"  # see ``member``
            return
        long = len(joined.split()) > LONG_ITEM and self.lead is None  # a lead-in quotes its items whole
        parts = SENTENCE.split(joined) if long else [joined]
        term, self.label = (self.label, "") if self.member else ("", self.label)
        self.member = ""
        unit = self.add(parts[0], "item", self.led() | self.previous, term)
        self.owner = (unit, indent(code_lines[0])) if unit is not None else None
        for sentence in parts[1:]:  # a long item's later sentences, each with the one before as context
            unit = self.add(sentence, "sentence", set(unit.terms) if unit is not None else set()) or unit

    def more_code(self, lines: list[str]) -> bool:
        """A paragraph of one line of code (``CODE_LINE``) right after a block of unfenced code
        goes on with it: Doxygen's ``div.fragment`` writes each line of an example in a
        ``div.line`` of its own, which the HTML reader reads as a paragraph ("int width, height;",
        "glfwGetFramebufferSize(window, &width, &height);"). Taken for definition terms, the later
        lines were lost and the block quoted cut after its first line. A paragraph of another kind (a label too)
        ends the block."""
        example = self.example
        if example is None or not self.units or self.units[-1] is not example or len(lines) != 1 or (
                CODE_LINE.search(lines[0]) is None or OPTION.match(lines[0]) is not None):
            self.example = None
            return False
        own = f"{example.own.removesuffix(FENCE)}{lines[0]}\n{FENCE}"
        longer = Unit(own, self.evidence_id, self.order, "code", example.header, example.context, terms=tokenize(own),
                      intro=example.intro, position=example.position)
        if example.intro is not None:  # its lead-in quotes the whole block
            follow = example.intro.follow
            follow[follow.index((example.text, self.evidence_id))] = (longer.text, self.evidence_id)
        self.units[-1] = self.example = longer
        return True

    def code_paragraph(self, joined: str, lines: list[str], code_lines: list[str], after: bool) -> bool:
        """A paragraph that is code: unfenced under a lead-in (``unfenced_code``), raw HTML, indented code, or one
        line of SQL after the sentence it shows; a unit of kind "code"."""
        lead = self.lead
        if lead is not None and self.units[-1] is lead and lead.own.endswith(":") and unfenced_code(lines):
            self.example = self.add("\n".join([FENCE, *lines, FENCE]), "code", set(lead.terms))
        elif _HTML.match(joined):  # raw HTML in Markdown (a demo's markup): code, never a sentence
            self.add("\n".join([FENCE + "html", *lines, FENCE]), "code", self.led())
        elif indented_code(code_lines):  # quoted without its indentation, as above: it costs tokens
            if self.units and self.units[-1].kind == "item":
                self.lead = None  # an example inside a list's item, not more of its lead-in's list
            self.introduce()
            self.add("\n".join([FENCE, *lines, FENCE]), "code", self.led())
        elif after and len(lines) == 1 and joined.endswith(";") and self.units[-1].kind == "sentence":
            self.introduce()  # an example after the sentence it shows ("Compute the current date." "SELECT date();")
            self.example = self.add("\n".join([FENCE, joined, FENCE]), "code", set(self.units[-1].terms))
        else:
            return False
        return True

    def term(self, joined: str, lines: list[str]) -> bool:
        """A label (a definition's term: an option, a field; a synopsis; a member's declaration) is the term of the
        paragraph after it, and context up to the next label or heading; a label under a lead-in ending in ":" is
        one of the terms it introduces (``terms``). Not a unit of its own (``unheaded``, ``restore``)."""
        lead = self.lead
        if (lead is not None and self.units[-1] is lead and lead.own.endswith(":") and not lead.follow
                and len(lead.own.split()) > SHORT_LEAD_IN  # a sentence, not a label itself ("select-stmt:")
                and joined.endswith(":") and len(joined.split()) <= SHORT_LEAD_IN and len(SENTENCE.split(joined)) == 1):
            return True  # a label under a lead-in ("Execution example:" under "Here is an example to create a table:",
            # Groonga's Sphinx pages, task U11): the lead-in introduces what follows the label, not the label
        stacked = stacked_options(lines, SHORT_LABEL)  # an option's forms, a line each: one term, named as the
        joined = ", ".join(lines) if stacked else joined  # reader names its section ("-r, --recursive")
        labelled = stacked or (len(joined.split()) <= SHORT_LABEL and not joined.endswith((".", ":", "!", "?"))) or (
            bool(_MARKS.fullmatch(joined))) or (
            len(lines) > 1 and len(self.units) == self.opened and lead is None
            and all(line.endswith(";") for line in lines))
        # a synopsis of lines of SQL opening its section ("PRAGMA schema.wal_checkpoint;" ... "PRAGMA
        # schema.wal_checkpoint(TRUNCATE);") is the term of its description, as a short one is: joined, it was a
        # sentence apart from what it names (task X12's sqlite-017)
        declared = not labelled and len(lines) == 1 and not SIGNATURE.match(joined) and signature(joined)
        if not (labelled or (len(lines) == 1 and SIGNATURE.match(joined)) or (
                declared and (not self.label or names(joined, self.label)))):  # not "def decorate(...): ..." under "vs"
            return False
        named = self.label if self.member == "named" and labelled and self.label not in joined else ""
        # a setting's name over the label opening its section, not over one that writes it ("DAP_CONNECT: = 2")
        self.restore()
        self.defined = set(tokenize(f"{named} {joined}"))  # a label (a definition term): context, and quoted
        self.label, self.member = f"{named}\n{joined}" if named else joined, "sentence" if declared else ""
        if labelled and lead is not None and self.units[-1] is lead and lead.own.endswith(":") and not lead.follow:
            self.terms = lead  # see ``terms``
        if labelled and self.terms is not None:
            self.terms.follow.append((joined, self.evidence_id))
        return True

    def prose_paragraph(self, joined: str, code_lines: list[str]) -> None:
        """A paragraph of prose: its sentences, under the label before it; the last one ending in ":" is a lead-in."""
        owner = self.owner
        body = set(owner[0].terms) if owner is not None and all(indent(r) > owner[1] for r in code_lines) else set()
        name, term = self.label if self.member == "named" else "", self.label  # a name: see ``written``
        self.lead, self.member, self.label = None, "", ""
        before = ""
        self.paragraph.clear()
        if not term and _interrupted(self.units) and _GOES_ON.match(joined):
            term = f"{self.units[-2].own}\n{self.units[-1].own}"  # the end of the sentence an example interrupts,
            # under its start and the example: see ``_GOES_ON``
            self.previous |= set(self.units[-1].terms)
        for sentence in SENTENCE.split(joined):
            short = before and not term and sentence.endswith(":") and len(sentence.split()) <= SHORT_LEAD_IN
            # a short lead-in quotes the sentence before it above it (its length not counted against it)
            unit = self.add(sentence, "sentence", self.previous | body,
                            before if short else "" if name and written(sentence, name) else term)
            before = sentence
            if unit is not None:
                self.paragraph.append(unit)
                self.previous = set(unit.terms)
                self.lead = unit if unit.own.endswith(":") else None
        self.prose = True

    def introduce(self, code: bool = True) -> None:
        """The sentence just before a table or a code block introduces it; not a sentence that only points
        elsewhere (``line_shapes.SEE``): the one before it in its paragraph does. A label over a code block (pytest's
        "Run tests by keyword expressions" over ``pytest -k "MyClass and not method"``) is the block's lead-in,
        a unit of its own, not the term of the paragraph after the block."""
        if self.member == "named":  # a setting's name is a paragraph's term, not a code block's lead-in
            self.label, self.member = "", ""
        label = self.label
        if code and label and len(label.split()) <= SHORT_LABEL and not SIGNATURE.match(label) and (
                not _GOES_ON.match(label)):  # not a sentence's middle an example interrupts: "was translated to"
            self.lead, self.label = self.add(label, "sentence", set()), ""
            return
        units, paragraph = self.units, self.paragraph
        if self.lead is None and units and units[-1].kind == "sentence" and not units[-1].follow and (
                _METADATA.fullmatch(units[-1].own) is None):
            self.lead = lead = units[-1]
            if len(paragraph) > 1 and paragraph[-1] is lead and SEE.fullmatch(lead.own) and not paragraph[-2].follow:
                self.lead = paragraph[-2]

    def unheaded(self) -> None:
        """A label that is all its section holds is a sentence: RDoc's "Enables Settings.get('nested.key.name') for
        dynamic access" (no period) under "### get(key)" was a term of nothing, never quoted (task U8's q11). Not
        a label after other units (a table's title ending a passage), a signature or an option (the next passage
        may describe it), a name of one or two words ("$EVAL_ERROR"), a list of names or a field (``_NAMES``)."""
        label = self.label
        if self.member:
            self.restore()
        elif label and len(self.units) == self.opened and len(label.split()) > 2 and not _NAMES.fullmatch(label) and (
                not SIGNATURE.match(label) and not OPTION.match(label)):
            self.add(label, "sentence", set())
        self.label = ""

    def restore(self) -> None:
        """A member's declaration with no description after it is the unit it was (see ``member``)."""
        if self.member in ("item", "sentence"):  # not a heading's (``headed``)
            self.add(self.label, self.member, set())
        elif self.member == "code":  # a code block's (``declared_block``), fenced again
            self.add("\n".join([FENCE, self.label, FENCE]), "code", set())
        self.member = ""

    def headed(self, text: str) -> None:
        """A heading that is a member's declaration (Scaladoc's "#### def successful[T](result: T): Future[T]") is
        the term of the paragraph under it: its description, quoted without the member's name before."""
        if DECLARED.match(text) and signature(text):
            self.label, self.defined, self.member = text, set(tokenize(text)), "heading"
        elif _SETTING.fullmatch(text) or HEADING_NAME.fullmatch(text):  # a setting's name, a name: quoted above
            # its first paragraph, and above the label opening its section ("Default: 0", task U18's question 1)
            self.label, self.defined, self.member = text, set(tokenize(text)), "named"
