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
from itertools import takewhile

from clew.agent.declarations import DECLARED, SIGNATURE, declared_block, names, signature
from clew.agent.identifiers import camel_terms
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
_ITEM = re.compile(r"^(?:[-*+]\s+|\d{1,3}[.)]\s+)")
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
_OPTION = re.compile(r"-{1,2}[A-Za-z]")
"""A command-line option's term (``-h host --host=host``): a definition's term, not code."""
_EDGES = re.compile(r"^(?:[#\s]|-+(?=\s))+|(?:\s+-+|[#\s])+$")
"""A text's heading marks and loose dashes at either end; not an option's (``-M, --multi-volume``)."""
_JOINING = re.compile(r"[a-z]{1,3}")
"""A paragraph of one short lower-case word between an example and the code block after it ("to", "or"): too short
to be a unit, it was lost, and the block read alone. It is quoted above the block: Gutenprint's "Change the following
line from:" ``LogLevel Info`` "to" ``LogLevel Debug``, the chunker's cut before "to" (task X14, U16's G2)."""
_CODE_LINE = re.compile(r";$|\S=|^--\s")
"""A line of SQL or a setting (``REINDEX INDEX my_index;``, ``PRAGMA mmap_size=0;``, ``-- comment``)."""


def _unfenced_code(lines: list[str]) -> bool:
    """An HTML or DocBook ``<pre>`` block without fences (the readers fence code since 95d9f2d, but
    corpora ingested before then still hold it unfenced), after a lead-in ending in ":": several
    lines that end no sentence (prose is one line a paragraph there), or one line of code
    (``_CODE_LINE``). Joined as prose, "BEGIN WORK; LOCK TABLE films IN SHARE MODE; ..."
    was quoted as a sentence, and "PRAGMA mmap_size=0;" taken for a definition's term."""
    if lines[-1].rstrip(")\"'").endswith((".", "!", "?", ":")):  # prose ends so, an aside too: "... packages.)"
        return False
    return len(lines) > 1 or (_CODE_LINE.search(lines[0]) is not None and _OPTION.match(lines[0]) is None)


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


def _options_term(lines: list[str]) -> bool:
    """A fenced block of a few command-line options, one a line (``--save`` and ``--no-save``): the
    term of the description after it. A PDF reader fences the lines set in type, and texinfo sets an
    option table's terms so (R's manuals); quoted as code, they were left out of their description's
    quote ("Control whether data sets should be saved ..." without ``--no-save``)."""
    return 0 < len(lines) <= 4 and all(_OPTION.match(line.strip()) and len(line.split()) <= 3 for line in lines)


_OPENS_BLOCK = (":", "(", "[", "{", ",", "\\")
"""How a line of code ends when the lines after it are indented under it (``if ignore_exceptions:``,
``print(``, ``{``)."""


def _indented_code(lines: list[str]) -> bool:
    """An unfenced block of code in a passage (an HTML ``<pre>`` block of a corpus ingested before the
    readers fenced code, 95d9f2d, keeps its lines and their indentation but no fences): a line
    indented deeper than the line before it, which opens a block (``_OPENS_BLOCK``), or an indented
    comment. HTML prose is one line a paragraph, and a
    wrapped Markdown paragraph does not indent under a line ending in ":". Joined as prose, a
    Sphinx example read "def myfunction(arg, ignore_exceptions=False): if ignore_exceptions: cm =
    contextlib.suppress(Exception) else:" and was quoted as a sentence."""
    return any(indent(line) > indent(before) and (before.rstrip().endswith(_OPENS_BLOCK)
                                                     or line.lstrip().startswith("#"))
               for before, line in zip(lines, lines[1:], strict=False))


SHORT_LABEL = 6
"""A paragraph of at most this many words that ends no sentence is a label: a definition's term (an option, a
field) over the paragraph it heads, or a code block's lead-in ("Run tests by keyword expressions")."""
SHORT_LEAD_IN = 6
"""A lead-in ending in ":" of at most this many words ("The list is:", "For example:") says nothing
of what it introduces: the sentence before it in its paragraph does, and is quoted above it as
its ``header`` (tempfile's "Python searches a standard list of directories to find one which the
calling user can create files in." was left out of its "The list is:"). Joined into one unit,
the two ranked low by their length: a PostgreSQL "Here is the procedure:" lost its steps."""


_SEE = re.compile(r"(?!.*\b(?:below|following|example)\b)\(?(?:For\b[^,;:]*,\s*)?(?:[Ss]ee|[Rr]efer to)\b[^;:]*[.)]")
"""A sentence that only points elsewhere ("For more information about retrieving monitors, see Retrieving
monitors.", "See also Video modes."; not "See the example below."): it introduces no example that follows it;
the sentence before it does (task U4's question 4: GLFW's ``glfwCreateWindow(..., glfwGetPrimaryMonitor(), NULL)``
hung under the pointer)."""


_METADATA = re.compile(r"(?:Added in|Since|Deprecated since|Stability): \S.{0,60}|History")
"""An entry's metadata line (Node.js's "Added in: v11.0.0", "Stability: 2 - Stable", "History"; gtk-doc's "Since:
2.28"): read as a label, it was quoted over the description after it in place of the entry's name (task U8's q6).
A unit of its own, quoted only when the question shares its words; never a term, nor an example's lead-in."""


_NAMES = re.compile(r"[^\s,]+(?:,\s*[^\s,]+)+|[A-Z][\w ]{0,30}: \S.*")
"""A list of names, comma-separated (a man page's KEYWORDS or SEE ALSO: "catch, error, exception"), or a field and
its value (RDoc's "Also aliased as: running", "Alias for: warming")."""


_UNDERLINE = re.compile(r"([=~^+*#\"'.:_-])\1{2,}")
"""A title's underline or overline (reStructuredText, AsciiDoc's two-line titles, Markdown's setext)."""


def _underlined(block: list[str], line: str) -> bool:
    """``line`` underlines the one-line paragraph ``block`` (a title, within two characters of its
    length or longer), or closes an overlined title (``=====`` over and under it; not ``----`` nor
    ``....``, AsciiDoc's listing and literal blocks around one line). Passages of source text keep
    their titles so: quoted, "Whitespace Control ------------------" read as a sentence of its section."""
    if len(block) == 1:
        return (not _UNDERLINE.fullmatch(block[0]) and len(line) >= len(block[0]) - 2
                and not block[0].endswith((":", ".", ",")))
    return (len(block) == 2 and line[0] not in "-." and _UNDERLINE.fullmatch(block[0]) is not None
            and block[0][0] == line[0])


_GRID_BORDER = re.compile(r"\+(?:[-=:]+\+)+")
"""A reStructuredText grid table's border line (``+-----+-----+``, ``+=====+=====+`` under its header):
read as the end of the table, it made each row after it a header, never quoted (Jinja's loop table:
the ``loop.index`` row was left out of task U6's question 9)."""


def _item_introduces(item: Unit, lead: Unit | None, owner: tuple[Unit, int] | None, line: str) -> bool:
    """A list item that ends in ":" introduces the code block right after it at the list's margin (not one
    indented under the item: an example inside its body): Cython's "2. Negative indices are checked for ... We can
    add a decorator to disable bounds checking:" then ``@cython.boundscheck(False)`` (task U15's question 14: the
    decorator was never quoted), npm's "* Create a new team:" then ``npm team create <org:team>``. The block is
    quoted after the item in its list when a lead-in introduces that list (``lead``), else with the item; the items
    after the block are no more of that list (as before)."""
    return (item.own.endswith(":") and (lead is None or item.intro is lead)
            and (owner is None or owner[0] is not item or indent(line) <= owner[1]))


def _separated(lines: list[str], number: int) -> bool:
    """The table opening at ``lines[number]`` has a header row (of one line or more): a separator follows it."""
    table = takewhile(lambda line: line.startswith(("|", "+")), (line.strip() for line in lines[number + 1:]))
    return any(line.startswith("| ---") or _GRID_BORDER.fullmatch(line) for line in table)


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
    declares it) is the term of the description after it (see ``member``)."""
    units: list[Unit] = []
    heading: set[str] = set()
    header: str | None = None
    block: list[str] = []
    raw: list[str] = []  # the block's lines as the passage writes them (indented code keeps its indentation)
    code: list[str] | None = None  # the lines of an open fenced code block
    in_list = False
    lead: Unit | None = None  # the last sentence, when it ends in ":" and prose has not resumed
    previous: set[str] = set()
    label = ""  # the definition term heading the next paragraph
    defined: set[str] = set()  # the terms of the last label: context up to the next label or heading
    prose = False  # the last block was a paragraph of prose (its last sentence may introduce an example)
    owner: tuple[Unit, int] | None = None  # the last list item and its marker's indentation: see the docstring
    terms: Unit | None = None  # a lead-in ending in ":" right before a definition's term: it introduces the terms
    # up to the next heading (pipe2's "The following values can be bitwise ORed in flags to obtain different
    # behavior:" over O_CLOEXEC, O_DIRECT, ... each with its description, task U15's question 3), quoted with their
    # names as a lead-in with its list; alone, it said nothing
    example: Unit | None = None  # the last code block made of unfenced paragraphs: see ``more_code``
    paragraph: list[Unit] = []  # the sentences of the last paragraph of prose: see ``introduce``
    title = ""  # the last heading's text
    member = ""  # ``label`` is a member's declaration (``declarations``), the kind of unit it was before task X10
    # ("item", "sentence"): a list item under the heading that names the member, or a paragraph in a form other
    # than Sphinx's and Haddock's; the description after it (TypeDoc's "- setSerialBaudrate(baudrate?: number):
    # Promise<void>" over "- Set the serial baud rate setting") is quoted under it, as a definition's under its
    # term (task U13's questions 6-10); with no description after it, it is that unit again (``restore``);
    # "heading": a heading that is a member's declaration (``headed``); "code": a one-line code block that is one
    # (``declared_block``)

    def add(own: str, kind: str, context: set[str], row_header: str = "") -> Unit | None:
        clean = own if kind in ("row", "code") else _EDGES.sub("", " ".join(own.split()))
        if (len(clean) < 4 and kind != "item") or not any(ch.isalnum() for ch in clean):
            return None  # a list item may be one short value: STRICT's "INT", a format's "csv"
        unit = Unit(clean, evidence_id, order, kind, row_header, heading | defined | context,
                    terms=tokenize(clean) + camel_terms(clean), position=len(units))
        units.append(unit)
        if lead is not None and kind != "sentence":
            lead.follow.append((unit.text, evidence_id))
            unit.intro = lead
        return unit

    def more_code(lines: list[str]) -> bool:
        """A paragraph of one line of code (``_CODE_LINE``) right after a block of unfenced code
        goes on with it: Doxygen's ``div.fragment`` writes each line of an example in a
        ``div.line`` of its own, which the HTML reader reads as a paragraph ("int width, height;",
        "glfwGetFramebufferSize(window, &width, &height);"). Taken for definition terms, the later
        lines were lost and the block quoted cut after its first line."""
        nonlocal example
        if example is None or not units or units[-1] is not example or len(lines) != 1 or (
                _CODE_LINE.search(lines[0]) is None or _OPTION.match(lines[0]) is not None):
            return False
        own = f"{example.own.removesuffix(FENCE)}{lines[0]}\n{FENCE}"
        longer = Unit(own, evidence_id, order, "code", example.header, example.context, terms=tokenize(own),
                      intro=example.intro, position=example.position)
        if example.intro is not None:  # its lead-in quotes the whole block
            follow = example.intro.follow
            follow[follow.index((example.text, evidence_id))] = (longer.text, evidence_id)
        units[-1] = example = longer
        return True

    def flush() -> None:
        nonlocal lead, previous, label, defined, prose, owner, example, member, terms
        if not block:
            return
        joined = " ".join(block)
        lines, code_lines = list(block), list(raw)
        block.clear()
        raw.clear()
        after, prose = prose, False
        if in_list:
            if lead is None and len(units) == opened and not label and names(joined, title):
                label, defined, member = joined, set(tokenize(joined)), "item"  # see ``member``
                return
            long = len(joined.split()) > LONG_ITEM and lead is None  # a lead-in quotes its items whole
            parts = SENTENCE.split(joined) if long else [joined]
            term, label = (label, "") if member else ("", label)
            member = ""
            unit = add(parts[0], "item", (set(lead.terms) if lead else set()) | previous, term)
            owner = (unit, indent(code_lines[0])) if unit is not None else None
            for sentence in parts[1:]:  # a long item's later sentences, each with the one before as context
                unit = add(sentence, "sentence", set(unit.terms) if unit is not None else set()) or unit
            return
        body = set(owner[0].terms) if owner is not None and all(indent(r) > owner[1] for r in code_lines) else set()
        if more_code(lines):
            return
        example = None  # a paragraph of another kind (a label too) ends the block
        if lead is not None and units[-1] is lead and lead.own.endswith(":") and _unfenced_code(lines):
            example = add("\n".join([FENCE, *lines, FENCE]), "code", set(lead.terms))
            return
        if _HTML.match(joined):  # raw HTML in Markdown (a demo's markup): code, never a sentence
            add("\n".join([FENCE + "html", *lines, FENCE]), "code", set(lead.terms) if lead else set())
            return
        if _indented_code(code_lines):  # quoted without its indentation, as above: it costs tokens
            if units and units[-1].kind == "item":
                lead = None  # an example inside a list's item, not more of its lead-in's list
            introduce()
            add("\n".join([FENCE, *lines, FENCE]), "code", set(lead.terms) if lead else set())
            return
        if after and len(lines) == 1 and joined.endswith(";") and units[-1].kind == "sentence":
            introduce()  # an example after the sentence it shows ("Compute the current date." "SELECT date();")
            example = add("\n".join([FENCE, joined, FENCE]), "code", set(units[-1].terms))
            return
        if len(lines) == 1 and _METADATA.fullmatch(joined):
            add(joined, "sentence", set())  # not a term, and prose has not resumed: see ``_METADATA``
            return
        if (lead is not None and units[-1] is lead and lead.own.endswith(":") and not lead.follow
                and len(lead.own.split()) > SHORT_LEAD_IN  # a sentence, not a label itself ("select-stmt:")
                and joined.endswith(":") and len(joined.split()) <= SHORT_LEAD_IN and len(SENTENCE.split(joined)) == 1):
            return  # a label under a lead-in ("Execution example:" under "Here is an example to create a table:",
            # Groonga's Sphinx pages, task U11): the lead-in introduces what follows the label, not the label
        labelled = (len(joined.split()) <= SHORT_LABEL and not joined.endswith((".", ":", "!", "?"))) or (
            len(lines) > 1 and len(units) == opened and lead is None and all(line.endswith(";") for line in lines))
        # a synopsis of lines of SQL opening its section ("PRAGMA schema.wal_checkpoint;" ... "PRAGMA
        # schema.wal_checkpoint(TRUNCATE);") is the term of its description, as a short one is: joined, it was a
        # sentence apart from what it names (task X12's sqlite-017)
        declared = not labelled and len(lines) == 1 and not SIGNATURE.match(joined) and signature(joined)
        if labelled or (len(lines) == 1 and SIGNATURE.match(joined)) or (
                declared and (not label or names(joined, label))):  # not "def decorate(...): ..." under "vs"
            restore()
            defined = set(tokenize(joined))  # a label (a definition term): context, and quoted
            label, member = joined, "sentence" if declared else ""
            if labelled and lead is not None and units[-1] is lead and lead.own.endswith(":") and not lead.follow:
                terms = lead  # see ``terms``
            if labelled and terms is not None:
                terms.follow.append((joined, evidence_id))
            return
        lead, member = None, ""
        term, label = label, ""
        before = ""
        paragraph.clear()
        if not term and _interrupted(units) and _GOES_ON.match(joined):
            term = units[-1].own  # the end of the sentence an example interrupts: see ``_GOES_ON``
            previous |= set(units[-1].terms)
        for sentence in SENTENCE.split(joined):
            short = before and not term and sentence.endswith(":") and len(sentence.split()) <= SHORT_LEAD_IN
            # a short lead-in quotes the sentence before it above it (its length not counted against it)
            unit = add(sentence, "sentence", previous | body, before if short else term)
            before = sentence
            if unit is not None:
                paragraph.append(unit)
                previous = set(unit.terms)
                lead = unit if unit.own.endswith(":") else None
        prose = True

    def introduce(code: bool = True) -> None:
        """The sentence just before a table or a code block introduces it; not a sentence that only points
        elsewhere (``_SEE``): the one before it in its paragraph does. A label over a code block (pytest's
        "Run tests by keyword expressions" over ``pytest -k "MyClass and not method"``) is the block's lead-in,
        a unit of its own, not the term of the paragraph after the block."""
        nonlocal lead, label
        if code and label and len(label.split()) <= SHORT_LABEL and not SIGNATURE.match(label) and (
                not _GOES_ON.match(label)):  # not a sentence's middle an example interrupts: "was translated to"
            lead, label = add(label, "sentence", set()), ""
            return
        if lead is None and units and units[-1].kind == "sentence" and not units[-1].follow and (
                _METADATA.fullmatch(units[-1].own) is None):
            lead = units[-1]
            if len(paragraph) > 1 and paragraph[-1] is lead and _SEE.fullmatch(lead.own) and not paragraph[-2].follow:
                lead = paragraph[-2]

    def unheaded() -> None:
        """A label that is all its section holds is a sentence: RDoc's "Enables Settings.get('nested.key.name') for
        dynamic access" (no period) under "### get(key)" was a term of nothing, never quoted (task U8's q11). Not
        a label after other units (a table's title ending a passage), a signature or an option (the next passage
        may describe it), a name of one or two words ("$EVAL_ERROR"), a list of names or a field (``_NAMES``)."""
        nonlocal label
        if member:
            restore()
        elif label and len(units) == opened and len(label.split()) > 2 and not _NAMES.fullmatch(label) and (
                not SIGNATURE.match(label) and not _OPTION.match(label)):
            add(label, "sentence", set())
        label = ""

    def restore() -> None:
        """A member's declaration with no description after it is the unit it was (see ``member``)."""
        nonlocal member
        if member in ("item", "sentence"):  # not a heading's (``headed``)
            add(label, member, set())
        elif member == "code":  # a code block's (``declared_block``), fenced again
            add("\n".join([FENCE, label, FENCE]), "code", set())
        member = ""

    def headed(text: str) -> None:
        """A heading that is a member's declaration (Scaladoc's "#### def successful[T](result: T): Future[T]") is
        the term of the paragraph under it: its description, quoted without the member's name before."""
        nonlocal label, defined, member
        if DECLARED.match(text) and signature(text):
            label, defined, member = text, set(tokenize(text)), "heading"

    lines = text.splitlines()
    if "::" in text or "----" in text or "...." in text:
        lines = rst_literals(lines)
    if ">" in text or "!!!" in text or "???" in text:
        lines = admonitions(lines)
    fences = [i for i, line in enumerate(lines) if line.strip().startswith(FENCE)]
    if len(fences) % 2 and lines[fences[0]].strip() == FENCE and fences[0] > 0:
        code = []  # the passage starts inside a code block (a chunk boundary cut it): its first fence closes it
    session: list[str] | None = None  # the lines of an interactive session (``PROMPT``)
    closes = False  # the open code block is the one a list item introduces (``_item_introduces``)
    above = ""  # a word too short to be a unit over the open code block (``_JOINING``): quoted above it
    opened = 0  # the units before the last heading
    for number, line in enumerate(lines):
        stripped = line.strip()
        if code is not None:
            code.append(line)
            if stripped.startswith(FENCE):
                if code[0].strip().startswith(FENCE) and _options_term(code[1:-1]):  # not a cut block's tail
                    label = " ".join(c.strip() for c in code[1:-1])  # the next description's term
                    defined = set(tokenize(label))
                elif title and len(units) == opened and lead is None and not label and (
                        prototype := declared_block(code)):
                    label = prototype  # a member's prototype opening its section: see ``member``
                    defined, member = set(tokenize(label)), "code"
                else:
                    add("\n".join(code), "code", set(lead.terms) if lead else set(), above)
                code, above = None, ""
                if closes:  # the block an item introduced: what follows it is not more of its list
                    lead, closes = None, False
            continue
        if session is not None:
            if stripped:
                session.append(line)
                continue
            add("\n".join(session), "code", set(lead.terms) if lead else set())
            session = None
        elif PROMPT.match(stripped):
            flush()
            introduce()
            session = [line]
            continue
        if stripped.startswith(FENCE):
            flush()
            if units and units[-1].kind == "item" and not _item_introduces(units[-1], lead, owner, line):
                lead = None  # an example inside a list's item, not more of its lead-in's list (as unfenced, above)
            elif units and units[-1].kind == "item":
                lead, closes = lead or units[-1], True  # an item ending in ":" introduces the block after it
            if _JOINING.fullmatch(label):
                above, label, lead = label, "", None  # see ``_JOINING``
            else:
                introduce()
            code = [line]
            continue
        if _GRID_BORDER.fullmatch(stripped):  # a grid table's border: no row, and the header stays
            flush()
            continue
        if stripped.startswith("|"):
            flush()
            if header is None and not _separated(lines, number):  # no header row: see the docstring
                header = where
                if len(units) > opened:  # not a sentence above the table's own heading ("See g_get_monotonic_time().")
                    introduce(code=False)
                add(stripped, "row", set(tokenize(header)) | (set(lead.terms) if lead else set()), header)
            elif header is None:
                header = stripped
                introduce(code=False)
            elif not stripped.startswith("| ---"):
                add(stripped, "row", set(tokenize(header)) | (set(lead.terms) if lead else set()), header)
            continue
        header = None
        if stripped and not block and owner is not None and indent(line) <= owner[1] and not _ITEM.match(stripped):
            owner = None  # a paragraph back at the list's margin: the item's body has ended
        if not stripped:
            flush()
            in_list = False
        elif (not line[:1].isspace() and not in_list and _UNDERLINE.fullmatch(stripped) is not None
              and _underlined(block, stripped)):
            title = block[-1]
            block.clear()
            raw.clear()
            unheaded()
            in_list, lead, previous, label, defined, prose, owner = False, None, set(), "", set(), False, None
            example = terms = None
            heading = set(tokenize(title))
            opened = len(units)
            headed(title)
        elif stripped.startswith("#") and not block and not line[:1].isspace():  # else a comment in code
            flush()
            unheaded()
            in_list, lead, previous, label, defined, prose, owner = False, None, set(), "", set(), False, None
            example = terms = None
            title = stripped.lstrip("# ")
            heading = set(tokenize(title))
            opened = len(units)
            headed(title)
        elif _ITEM.match(stripped):
            flush()
            in_list = True
            block.append(_ITEM.sub("", stripped))
            raw.append(line.rstrip())
        else:
            block.append(stripped)
            raw.append(line.rstrip())
    flush()
    if code is None and session is None:
        unheaded()
    restore()  # a declaration over a code block the passage cuts off
    if code is not None:  # a block the passage cuts off
        add("\n".join(code), "code", set(lead.terms) if lead else set())
    if session is not None:
        add("\n".join(session), "code", set(lead.terms) if lead else set())
    return units
