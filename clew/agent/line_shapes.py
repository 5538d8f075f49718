"""What a line or a few lines of a passage are, read alone (``clew.agent.units`` cuts a passage into units by
them): a command-line option's term, a line of code, a block of code without fences, a title's underline, a table's
border and header row, a sentence that leans on the one before it."""

from __future__ import annotations

import re
from itertools import dropwhile, takewhile

from clew.agent.source_blocks import indent

OPTION = re.compile(r"-{1,2}[A-Za-z]")
"""A command-line option's term (``-h host --host=host``): a definition's term, not code."""
CODE_LINE = re.compile(r";$|\S=|^--\s")
"""A line of SQL or a setting (``REINDEX INDEX my_index;``, ``PRAGMA mmap_size=0;``, ``-- comment``)."""

SEE = re.compile(r"(?!.*\b(?:below|following|example)\b)\(?(?:For\b[^,;:]*,\s*)?(?:[Ss]ee|[Rr]efer to)\b[^;:]*[.)]")
"""A sentence that only points elsewhere ("For more information about retrieving monitors, see Retrieving
monitors.", "See also Video modes."; not "See the example below."): it introduces no example that follows it;
the sentence before it does (task U4's question 4: GLFW's ``glfwCreateWindow(..., glfwGetPrimaryMonitor(), NULL)``
hung under the pointer)."""

ANAPHOR = re.compile(r"(?:This|These|They|Such|Those|Its|Their|It(?! is\b| was\b|'s\b))\b"
                      r"|(?:For|To do) (?:this|that|so),")
"""How a sentence that leans on the one before it opens ("This attribute ...", "They can be ...",
"It must be used ...", "For this, use ..."; not "It is possible to ...", whose "it" points forward)."""


SAME = re.compile(r"\bthe same(?=[.,;]|\s+(?:using|with|by|for|in|on|through|via|when|if|without)\b)")
"""A sentence that leans on the one before it inside ("You can achieve the same using hide_input=True.", after "The
program will still receive the password, but nothing will be shown on screen"): "the same" standing for what the
sentence before says, not a determiner ("the same name as")."""


EXAMPLE_SECTION = re.compile(r"Examples?:")
"""A docstring's example section (Google style: "Example:" a paragraph of its own after the summary, as pdoc writes it):
the example of the sentence before it, whatever its follower is (pdoc writes rich's ``>>> if Confirm.ask("Continue"):``
as nested blockquotes, a paragraph read as a label; task X20's rule N2b)."""


def unfenced_code(lines: list[str]) -> bool:
    """An HTML or DocBook ``<pre>`` block without fences (the readers fence code since 95d9f2d, but
    corpora ingested before then still hold it unfenced), after a lead-in ending in ":": several
    lines that end no sentence (prose is one line a paragraph there), or one line of code
    (``CODE_LINE``). Joined as prose, "BEGIN WORK; LOCK TABLE films IN SHARE MODE; ..."
    was quoted as a sentence, and "PRAGMA mmap_size=0;" taken for a definition's term."""
    if lines[-1].rstrip(")\"'").endswith((".", "!", "?", ":")):  # prose ends so, an aside too: "... packages.)"
        return False
    return len(lines) > 1 or (CODE_LINE.search(lines[0]) is not None and OPTION.match(lines[0]) is None)


def options_term(lines: list[str]) -> bool:
    """A fenced block of a few command-line options, one a line (``--save`` and ``--no-save``): the
    term of the description after it. A PDF reader fences the lines set in type, and texinfo sets an
    option table's terms so (R's manuals); quoted as code, they were left out of their description's
    quote ("Control whether data sets should be saved ..." without ``--no-save``)."""
    return 0 < len(lines) <= 4 and all(OPTION.match(line.strip()) and len(line.split()) <= 3 for line in lines)


STACKED_TERMS = 8
"""At most this many lines of options are one term (``stacked_options``), as the HTML reader joins at most so many
``dt`` over one ``dd`` (``html_terms.MAX_TERM_GROUP``)."""


def stacked_options(lines: list[str], words: int) -> bool:
    """A paragraph of an option's forms, one a line, each an option's term of at most ``words`` words that ends no
    sentence: the term of the paragraph after it, as the readers write several ``dt`` over one ``dd`` (mandoc's
    ``.It Xo ... .Xc`` items, man(7)'s ``.TP``/``.TQ``, Texinfo's ``@itemx``, DocBook's ``term``s). Joined, ssh(1)'s
    four ``-L`` forms (``-L [bind_address:]port:host:hostport`` / ``-L [bind_address:]port:remote_socket`` / ...,
    8 words) were read as a sentence, and "Specifies that connections to the given TCP port ..." under no term
    (task X26)."""
    return 1 < len(lines) <= STACKED_TERMS and all(
        OPTION.match(line) and len(line.split()) <= words and not line.endswith((".", ":", "!", "?")) for line in lines)


OPENS_BLOCK = (":", "(", "[", "{", ",", "\\")
"""How a line of code ends when the lines after it are indented under it (``if ignore_exceptions:``,
``print(``, ``{``)."""


def indented_code(lines: list[str]) -> bool:
    """An unfenced block of code in a passage (an HTML ``<pre>`` block of a corpus ingested before the
    readers fenced code, 95d9f2d, keeps its lines and their indentation but no fences): a line
    indented deeper than the line before it, which opens a block (``OPENS_BLOCK``), or an indented
    comment. HTML prose is one line a paragraph, and a
    wrapped Markdown paragraph does not indent under a line ending in ":". Joined as prose, a
    Sphinx example read "def myfunction(arg, ignore_exceptions=False): if ignore_exceptions: cm =
    contextlib.suppress(Exception) else:" and was quoted as a sentence."""
    return any(indent(line) > indent(before) and (before.rstrip().endswith(OPENS_BLOCK)
                                                     or line.lstrip().startswith("#"))
               for before, line in zip(lines, lines[1:], strict=False))


UNDERLINE = re.compile(r"([=~^+*#\"'.:_-])\1{2,}")
"""A title's underline or overline (reStructuredText, AsciiDoc's two-line titles, Markdown's setext)."""


def underlined(block: list[str], line: str) -> bool:
    """``line`` underlines the one-line paragraph ``block`` (a title, within two characters of its
    length or longer), or closes an overlined title (``=====`` over and under it; not ``----`` nor
    ``....``, AsciiDoc's listing and literal blocks around one line). Passages of source text keep
    their titles so: quoted, "Whitespace Control ------------------" read as a sentence of its section."""
    if len(block) == 1:
        return (not UNDERLINE.fullmatch(block[0]) and len(line) >= len(block[0]) - 2
                and not block[0].endswith((":", ".", ",")))
    return (len(block) == 2 and line[0] not in "-." and UNDERLINE.fullmatch(block[0]) is not None
            and block[0][0] == line[0])


GRID_BORDER = re.compile(r"\+(?:[-=:]+\+)+")
"""A reStructuredText grid table's border line (``+-----+-----+``, ``+=====+=====+`` under its header):
read as the end of the table, it made each row after it a header, never quoted (Jinja's loop table:
the ``loop.index`` row was left out of task U6's question 9)."""


def separated(lines: list[str], number: int) -> bool:
    """The table opening at ``lines[number]`` has a header row (of one line or more): a separator follows it."""
    table = takewhile(lambda line: line.startswith(("|", "+")), (line.strip() for line in lines[number + 1:]))
    return any(line.startswith("| ---") or GRID_BORDER.fullmatch(line) for line in table)


_RULE = re.compile(r"\s*-{3,}\s*")
"""A line of dashes under a drawn table's header (or closing the table)."""
_GAP = re.compile(r"\s{2,}")
"""What sets a drawn table's columns apart."""


_CELL = re.compile(r"\S+(?: \S+)*")
"""A drawn table's cell: words set apart by one space."""
_WORDS = re.compile(r"[A-Za-z][A-Za-z ]*")
LITERAL = frozenset({"", "text", "txt", "plaintext"})
"""The languages a fence names over a literal block, where a table may be drawn: none (AsciiDoc's ``....``, a
``<pre>`` with no language: every drawn table of the six eval sets' pages), or plain text's. A block named code
(``sql``, ``yaml``, ``python``) is code, though its lines align as a table's ("SELECT  name  FROM  users" over
"WHERE   age   >     30" was read as rows under that header)."""
_ALNUM = re.compile(r"[^\W_]")
"""A letter or a digit: every line of a drawn table's rows holds one (or is dots alone: rows left out, perlsolaris'
test report), where an ASCII drawing aligned under names (a sequence diagram's lifelines, "|     |---->|") has lines
of none."""


def _aligned(body: list[str]) -> bool:
    """A table drawn without a line of dashes: a header of three columns or more of words, and two lines or more
    after it whose every cell starts where a header's column does (gitrevisions' "Args / Expanded arguments /
    Selected commits" over "B...C  = B ^F C  G H D E B C", task X16's git-004)."""
    header = list(_CELL.finditer(body[0])) if body else []
    if len(header) < 3 or not all(_WORDS.fullmatch(cell.group()) for cell in header):
        return False
    columns = {cell.start() for cell in header}
    rows = [line for line in body[1:] if line.strip()]
    return len(rows) > 1 and all(cell.start() in columns for line in rows for cell in _CELL.finditer(line))


def drawn_table(lines: list[str], language: str = "") -> list[tuple[str, str]]:
    """The ``(header, row)`` pairs of a table drawn in a literal block (AsciiDoc's ``....``, a ``<pre>``), or none:
    its first line a header of two columns or more set apart by two spaces or more (no ``|``: psql's output is
    another shape), then a line of dashes; or a header aligned with every line after it (``_aligned``). A row is a
    line at the rows' left margin, or the first after a blank line, with the lines indented under it (a cell that
    wraps), its white space closed up; a line right before a line of dashes heads the rows after it (read-tree's
    "clean I==H I==M" over rows 4-9). Read as one code block, such a table scored nothing and did not fit the
    extract whole: git-status's "<m2> The octal file mode in stage 2." was never quoted (task X16, git-008). A block
    whose fence names a ``language`` other than plain text's (``LITERAL``) is code, whatever its shape."""
    if language.strip().lower() not in LITERAL:
        return []
    body = list(dropwhile(lambda line: not line.strip(), lines))
    if len(body) >= 3 and _RULE.fullmatch(body[1]) and "|" not in body[0] and len(_GAP.split(body[0].strip())) > 1:
        rest = body[2:]
    elif _aligned(body):
        rest = body[1:]
    else:
        return []
    cells = [line for line in rest if line.strip() and not _RULE.fullmatch(line)]
    if not cells or not all(_ALNUM.search(line) or not line.strip().strip(".…") for line in cells):
        return []  # a drawing's line ("|     |---->|"), not a row's nor an elision's ("...")
        return []
    margin = min(indent(line) for line in cells)
    records: list[list[str]] = []  # each a row's lines, or a header's (then followed by a rule)
    heads: set[int] = set()
    fresh = True
    for line in rest:
        if not line.strip():
            fresh = True
        elif _RULE.fullmatch(line):
            if records and not fresh:
                heads.add(len(records) - 1)
            fresh = True
        elif fresh or indent(line) <= margin:
            records.append([line])
            fresh = False
        else:
            records[-1].append(line)
    heads.discard(len(records) - 1)  # a rule closing the table heads nothing
    header = " ".join(body[0].split())
    table: list[tuple[str, str]] = []
    for number, record in enumerate(records):
        text = " ".join(" ".join(line.split()) for line in record)
        if number in heads:
            header = text
        else:
            table.append((header, text))
    return table
