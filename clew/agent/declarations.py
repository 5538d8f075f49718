"""An API member's declaration as an API reference generator writes it above the member's description: a
signature or a declaration on a line of its own (``clew.agent.units`` quotes the description under it)."""

from __future__ import annotations

import re
from functools import lru_cache

from clew.agent.line_shapes import OPTION
from clew.budgets.tokens import count_tokens
from clew.corpus.search.written import other_case
from clew.corpus.tokenize import tokenize

SIGNATURE = re.compile(r"(?:(?:class|exception|async|await|@)\s*)?[A-Za-z_][\w.]*\(.*\)(?:\s*->\s*\S.*)?$"
                       r"|(?:[A-Za-z_][\w'.]*|\([^\s()]+\))\s+::\s+\S.*$")
"""An API entry's signature on a line of its own (Sphinx's ``<dt>``: ``json.loads(s, *, cls=None, ...)``,
``class collections.Counter([iterable-or-mapping])``; Haddock's ``eitherDecode :: FromJSON a => ByteString ->
Either String a``, ``(.:?) :: ...``): the term its description's paragraph is quoted under, however many words
its parameters make (a short one was a term already; a long one was a sentence of its own, quoted without its
description or scored apart from it: U7's "Like decode but returns an error message when decoding fails.")."""

_MODIFIERS = (r"(?:(?:public|protected|private|static|final|abstract|override|implicit|lazy|sealed|case|async|"
              r"export|default|synchronized|native|readonly|pub(?:\([\w:]+\))?|unsafe|extern|inline|virtual)\s+)*")
_DECLARATION = re.compile(
    _MODIFIERS
    + r"(?:(?:def|val|var|fn|func|function|type|trait|object|interface|struct|enum)\s+[A-Za-z_$][\w$]*\S*(?:\s.*)?"
    r"|(?:new\s+)?[A-Za-z_$][\w$.]*(?:<[^()]*>|\[[^()]*\])?\(.*\)(?:\s*:\s*\S.*)?"
    r"|(?:(?:void|int|long|short|char|byte|boolean|bool|float|double|unsigned|signed|const|[A-Z][\w$.]*"
    r"(?:<[^()]*>|\[\])*\**|[\w$.]+(?:<[^()]*>|\[\])+\**|[\w$.]+\*+)\s+){1,3}(?:\*+\s*)?[A-Za-z_$][\w$]*\(.*\)"
    r"(?:\s+throws\s+[\w$., ]+)?)")
"""A declaration in other languages' forms: TypeDoc's ``setSerialBaudrate(baudrate?: number): Promise<void>`` and
``new Budget(total): Budget``, Scaladoc's ``def successful[T](result: T): Future[T]`` and ``def toOption:
Option[A]``, javadoc's ``public static String valueOf(char[] data, int offset, int count)``, rustdoc's ``pub fn
len(&self) -> usize``, a C prototype's ``int glfwInit(void)``; the words before a name and its parameters are types
(a primitive, a capitalised name, a name with type arguments or pointer marks): "same as fromFile(file, enc)" is
prose."""

DECLARED = re.compile(_MODIFIERS + r"(?:def|val|var|fn|func|function|type|trait|object|interface|struct|enum)\s")
"""A declaration that opens with its keyword (Scaladoc's ``def``, ``val``, rustdoc's ``pub fn``): a heading so is a
member's declaration, not a section's title that names a call ("## fs.readFile(path[, options], callback)")."""

HEADING_NAME = re.compile(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[a-z][a-z0-9-]*(?:/[a-z][a-z0-9-]*)*"
                          r"|`[^`\s]+`(?: \([^()]*\))?"
                          r"|(?:Class|Interface|Enum|Event): (?:`[^`\s]+`|'[^'\s]+'|\"[^\"\s]+\"|[\w.$]+)")
"""A heading that names one thing, its section the entry that describes it (task X19): an identifier with a capital
inside it, lower-case first (Fastify's "### bodyLimit"), one lower-case word (Hugo's "### paginate": a section's
title is capitalised in most styles, a setting's name is not) or such words joined by "/" (an ESLint rule's name,
"# import/extensions", task X20), a name in backticks, alone or with its type (pino's "####
`level` (String)"), or "Class: X" (undici's "# Class: RetryAgent"; Node.js's "Event: 'close'"). Quoted above its
section's first paragraph, as a setting's name is (``clew.agent.units``' ``_SETTING``): quoted alone, "Default:
1048576 (1MiB)" said whose default it was not (task U24's F1 and U5)."""

_WRITTEN = re.compile(r"(?:(?:Class|Interface|Enum|Event): )?(\S+)")


def written(sentence: str, heading: str) -> bool:
    """The sentence writes the name its heading names (``HEADING_NAME``, a setting's), its first word after "Class: "
    with its backticks ("`level`", not the word "level"): it says what it describes, no name above it (PostgreSQL's
    "pg_dump — extract ...", TypeDoc's "The calls are:" under "### calls")."""
    match = _WRITTEN.match(heading)
    return match is not None and match.group(1) in sentence


MEMBER_TOKENS = 40
"""A declaration of more than this many tokens is a synopsis, not a member's signature: never a description's term."""


def signature(line: str) -> bool:
    """The line is an API member's signature or declaration (``SIGNATURE``, ``_DECLARATION``): whatever its
    length for Sphinx's and Haddock's forms, as before; the other forms at most ``MEMBER_TOKENS`` tokens, and not a
    sentence ("Use open(file)." ends as prose does)."""
    if SIGNATURE.match(line):
        return True
    return (not line.rstrip().endswith((".", ":", ",", ";")) and _DECLARATION.fullmatch(line.strip()) is not None
            and count_tokens(line) <= MEMBER_TOKENS)


def names(line: str, title: str) -> bool:
    """The signature ``line`` declares the member its heading ``title`` names (TypeDoc's "### flash" over ``flash
    (buffer: BufferSource, pageSize?: number): Promise<void>``): every term of the title is in it."""
    own = set(tokenize(title))
    return bool(own) and own <= set(tokenize(line)) and signature(line)


def declared_block(code: list[str]) -> str:
    """The declaration a fenced code block of one line holds (``code``: the fences and the lines between), else "":
    Doxygen writes a member's prototype so under its heading (``SDL_Window * SDL_CreateWindow(const char * title,
    ...)`` over "Create a window with the specified position, dimensions, and flags."); a code block has no score of
    its own, so the prototype was never quoted and its description was quoted without the name (task X13, U14's
    question 6). gtk-doc writes the return type on a line of its own (``_C_RETURN``), then the call (``_C_CALL``):
    that block's lines joined with spaces (task L4)."""
    inner = [line.strip() for line in code[1:-1] if line.strip()]
    if len(inner) == 1 and len(code) == 3:
        return inner[0] if signature(inner[0]) else ""
    joined = " ".join(inner)
    no_blank_lines = len(inner) == len(code) - 2
    return joined if (no_blank_lines and len(inner) >= 2 and _C_RETURN.fullmatch(inner[0])
                      and _C_CALL.fullmatch(" ".join(inner[1:])) and count_tokens(joined) <= MEMBER_TOKENS) else ""


_C_RETURN = re.compile(r"(?:(?:const|unsigned|signed|struct|enum|union)\s+)*[A-Za-z_]\w*(?:\s*\*(?:\s*const)?)*")
"""A C prototype's return type on a line of its own, as gtk-doc writes it (``gchar *``, ``const gchar * const *``).
One asterisk an iteration: ``*+`` in the repeated group tried every split of a run of asterisks where the line
goes on otherwise ("note ***...*** end": twice the time per asterisk; review V17)."""
_C_CALL = re.compile(r"[A-Za-z_]\w*\s*\([^;]*\);")
"""The line (or lines, joined) after it: the member's name, its parameters and ";" (``g_strdup (const gchar *str);``).
"""
_C_PROTOTYPE = re.compile(rf"{_C_RETURN.pattern}\s+{_C_CALL.pattern}")


def declaration(line: str) -> bool:
    """The line is a ``signature``, or a C prototype as ``declared_block`` joins gtk-doc's (task L4)."""
    return signature(line) or _C_PROTOTYPE.fullmatch(line) is not None


@lru_cache(maxsize=65_536)
def declared(header: str) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of the member's declaration a unit is quoted under (its ``header``'s last line, a ``signature``) and
    those of the member's name (the last dotted part before "(", less the compound: ``format_timedelta`` -> format,
    timedelta); none for another header. The extract scores a description whose own words share no question term by
    the declaration's when the question names the member (task X22, U32's S4: "Return a time delta according to the
    rules of the given locale." under ``babel.dates.format_timedelta(delta, granularity='second', threshold=.85,
    ...)`` scored 0 for "What is the default threshold of babel.dates.format_timedelta?"). Added to every description,
    or to one under a member the question does not name, they cost python-docs' py-001 its answer."""
    line = header.rsplit("\n", 1)[-1]
    if not header or not signature(line):
        return frozenset(), frozenset()
    name = tokenize(line.split("(", 1)[0].split()[-1].rsplit(".", 1)[-1]) if "(" in line else []
    return frozenset(tokenize(line)), frozenset(name[1:] if len(name) > 1 else name)


_CODE_TERM = re.compile(r"`([^`\n]+)`")


@lru_cache(maxsize=65_536)
def code_term(header: str) -> frozenset[str]:
    """The terms of the name a unit is quoted under when its ``header``'s last line is that name alone, written as
    code (a Markdown definition's heading: `` `lockfileVersion` ``); none for another header. As ``declared``'s for a
    member: npm's "An integer version, starting at `1` with the version number of this document whose semantics were
    used when generating this `package-lock.json`." under `` `lockfileVersion` `` shares no word with "A teammate's
    lockfile declares lockfileVersion 3. Which npm releases write that format ...?" and scored 0 (task X29, rule
    D3c)."""
    match = _CODE_TERM.fullmatch(header.rsplit("\n", 1)[-1].strip())
    return frozenset(tokenize(match.group(1))) if match is not None else frozenset()


OPTION_WORDS = 8
"""An option's term of at most this many words (``-L [bind_address:]port:host:hostport``, ``-i[SUFFIX],
--in-place[=SUFFIX]``); a longer line opening with a dash is a sentence."""

_CATEGORY = re.compile(r"(?:-- )?[A-Z][A-Za-z ]{0,30}: (?=-)")
"""A Texinfo definition's category before its name, as the Info reader writes a ``@deffn`` line: find's
``-- Action: -prune``, ``-- Test: -name PATTERN`` (task U37's I2)."""

_QUOTED = re.compile("\u2018([^\u2018\u2019]*)\u2019")
"""An option in Texinfo's quotes, as the Info reader writes a ``@table @samp`` item and its ``@itemx`` lines on one
line: coreutils' ``‘-n’ ‘--numeric-sort’ ‘--sort=numeric’`` is the term of ``sort -n`` (task X23, rule X3)."""


@lru_cache(maxsize=65_536)
def option_term(header: str) -> tuple[frozenset[str], frozenset[str]]:
    """The terms of the command-line option a unit is quoted under (its ``header``'s last line a term that opens with
    an option, ``line_shapes.OPTION``: ``-xdev``, ``-L, --location``) and its options' own names (``-xdev``); none
    for another header. As ``declared``'s for a member: find(1)'s "Don't descend directories on other filesystems."
    under ``-xdev`` shares no word with "What does find -xdev do?" and scored 0, so the extract quoted ``-mount``'s
    "An alternate name for -xdev" instead (task U37)."""
    line = _CATEGORY.sub("", header.rsplit("\n", 1)[-1], count=1)
    if line.startswith("\u2018-"):
        line = _QUOTED.sub(r"\1", line)
    if not OPTION.match(line) or len(line.split()) > OPTION_WORDS and not all(  # else form by form: ssh's five -R
            OPTION.match(form) and len(form.split()) <= OPTION_WORDS for form in line.split(", ")):  # (task X26)
        return frozenset(), frozenset()
    terms = frozenset(tokenize(line))
    return terms, frozenset(t for t in terms if t.startswith("-"))


def other_case_terms(options: frozenset[str], text: str) -> frozenset[str]:
    """The terms of the question's ``options`` (``written.written_options``) that ``text`` writes only in another
    letter case (task X25, rule S1x): "What does ssh -L do?" asks for ``-L``; rsync's "ssh -l user" and ssh-keygen's
    ``-l`` term hold ``-l``, which the index and the extract fold into the same term."""
    return frozenset(t for o in other_case(options, text)[1] for t in tokenize(o)) if options else frozenset()
