"""Answers: extractive without a model, model answers with checked citations.

The extract (the embedded default, ``kind="extract"``) never invents text: it quotes the units
of fetched evidence (sentences, list items, table rows) that score best against the question,
grouped by passage, each passage's quote followed by its citation; the weights below were
measured on both shared dev sets with ``benchmarks/extract.py``. A model answer's
(``kind="model"``) citations are checked: only ids fetched in full in this run (and still
readable) stay; the others are removed and reported.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from clew.agent.adjacent import adjacent, short
from clew.agent.declarations import code_term, declaration, declared, option_term, other_case_terms
from clew.agent.empty_units import says_nothing
from clew.agent.examples import cut_example, head_example
from clew.agent.lead_ins import continue_lead_ins
from clew.agent.line_shapes import ANAPHOR, EXAMPLE_SECTION, SAME
from clew.agent.named_pages import NAMED, document_of, named_pages, under_option
from clew.agent.result import Citation, Generation
from clew.agent.rows import Conditions, matching_rows, other_row, path_fit
from clew.agent.titles import once, section_title
from clew.agent.units import FENCE, PROMPT, SENTENCE, Unit, parsed_units
from clew.budgets.tokens import count_tokens
from clew.corpus import ids
from clew.corpus.search.written import written_options
from clew.corpus.tokenize import tokenize

CITATION = re.compile(r"\[(ev1:[^\[\]\s]*)\]")
"""A bracketed citation as a model writes it; ``clew.corpus.ids.decode`` says whether it is an id."""
_CITED = re.compile(r"\[ev1:[^\[\]\s]*\]$")
_SPACED_CITATION = re.compile(r"\s*\[(ev1:[^\[\]\s]*)\]")
EXTRACT_TOKENS = 250
"""The extract's default size in tokens, citations included (``extract_tokens`` in a request)."""
KEYS = 65_536
"""Texts whose ``_key`` is kept (the extract compares units by it over and over: 13% of its time)."""
MAX_FOLLOW = 8
"""A lead-in ending in ":" quotes at most this many of the list items or table rows after it."""
KEEP = 0.2
"""A unit after the best is quoted only when it scores at least this share of the best one."""
CONTEXT = 0.5
"""Weight of question terms found only in a unit's context (heading, lead-in, table header, the
sentence before it) against terms in the unit itself."""
PATH = 0.75
"""Weight of question terms in the heading path of a unit's passage (``PRAGMA wal_checkpoint`` for
its ``TRUNCATE`` sentence), counted besides its context, against terms in the unit itself."""
PHRASE = 0.5
"""Weight of a pair of adjacent question terms that are adjacent in the unit too."""
LENGTH = 30
"""A unit of this many words scores half as much as a short one with the same terms."""
DOCUMENT = 1.0
"""Bonus share for units of a document by the share of the evidence's passages it holds."""
RANK = 1.0
"""Bonus share for the first passage of the evidence, falling as 1 / (1 + rank)."""
NUMBER = 0.5
"""Bonus share for a unit holding a digit when the question asks for a quantity or a default."""
ROW = 2.0
"""A table row weighs this much more than prose with the same terms (a row is a fact with its key); so
does a field list's item whose key the question names (``_FIELD``)."""
PIECE = 0.25
"""Weight of a question term that is only a part of a compound token the question writes (``rc`` and
``1`` of ``2.0.0-rc.1``, ``th`` of ``50th``): the compound itself weighs in full."""
_QUANTITY = re.compile(r"\b(how (many|much|long|big|large|deep|fast|old)|default|size|largest|smallest|maximum|"
                       r"minimum|limit|number)\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_NUMERAL = re.compile(r"[\d.,:\-]+")
_FIELD = re.compile(r"`?([\w.\-]+)`?(?: \([^)]*\))?: ")
"""A field list's item (a parameter, option or subcommand and its description: "init: If true (the
default), a __init__() method will be generated.", "`to`: The index of the next item"): when the
question names its key in full, it is a fact with its key, as a table row is (``ROW``)."""
VERSION_NOTE = 0.5
"""Weight of a version note ("Changed in version 3.6: s can now be of type bytes or bytearray.", Sphinx's
``versionchanged``) when the question asks nothing of versions (``_VERSIONED``): the note repeats its
entry's words but answers only when a thing changed."""
_NOTE = re.compile(r"(?:Changed in version|New in version|Added in version|Deprecated since version)\b")
_VERSIONED = re.compile(r"\b(?:versions?|since|when|added|new|deprecated|changed?|removed|older|newer)\b|\d\.\d",
                        re.IGNORECASE)
POLAR = 0.2
"""Bonus share for a unit that says no, only, must or instead when the question asks a yes/no question
("..., and can npm 7 still read it?") and the unit holds a term of that question (``_yes_no_terms``):
the answer to "Can I just add a second configuration?" is "Currently, the registry only supports one
configuration per package.", whose question words other sentences share too."""
_YES_NO = re.compile(r"(?:^|[.?!;]\s+|,\s*(?:and|or|but)?\s*|\band\s+|\bor\s+)"
                     r"(?:can|could|does|do|did|is|are|was|were|will|would|should|must|may)\s+\S", re.IGNORECASE)
"""Where a yes/no question opens: an auxiliary verb at the start of the question or of a clause."""
_CLAUSE_END = re.compile(r"[?;]|,\s")
_POLARITY = re.compile(r"\b(?:not|no|never|cannot|none|neither|nor|only|must|always|instead|without)\b|n't\b",
                       re.IGNORECASE)
"""Words by which a sentence answers a yes/no question (it denies, restricts or requires)."""


def extractive_answer(question: str, evidence: list[tuple[str, str]], *, max_tokens: int = EXTRACT_TOKENS,
                      paths: Mapping[str, Sequence[str]] | None = None,
                      titles: Mapping[str, str | None] | None = None) -> Generation | None:
    """Quote the units of ``(evidence_id, text)`` pairs that best answer ``question``, grouped by
    passage (the passage of the best unit first, best first inside each), each passage's quote
    followed by its citation, in at most ``max_tokens`` (citations included; the best unit is
    quoted whatever its size); None when no unit shares a term with the question. ``paths``: each
    passage's heading path, by evidence id (``PATH``); ``titles``: its document's title (``NAMED``)."""
    asked = tokenize(question)
    numeric = _QUANTITY.search(question) is not None
    notes = VERSION_NOTE if _VERSIONED.search(question) is None else 1.0
    polar = _yes_no_terms(question)
    written = written_options(question)
    wanted = set(asked)
    pairs = set(zip(asked, asked[1:], strict=False))
    parsed = {evidence_id: parsed_units(text, evidence_id, " › ".join((paths or {}).get(evidence_id, ())[-2:]))
              for evidence_id, text in evidence}  # shared: copy to change
    orders = {evidence_id: order for order, (evidence_id, _) in enumerate(evidence)}
    continue_lead_ins(parsed, {e for e, text in evidence if _HEADING.match(text)},
                      {e: int(m.group(1)) for e, text in evidence if (m := _NUMBERED.match(text))})
    documents = Counter(document_of(e) for e in parsed)
    named = named_pages(question, titles or {})
    weights = {e: (1 + DOCUMENT * documents[document_of(e)] / len(parsed)) * (1 + NAMED * (e in named)) for e in parsed}
    headed = {e: wanted.intersection(tokenize(" ".join(path))) for e, path in (paths or {}).items()}
    units: list[Unit] = []
    seen: dict[str, int] = {}
    ranks: list[int] = []  # each unit's rank in the evidence: its first copy's
    fit = {e: path_fit(path, wanted) for e, path in (paths or {}).items()}
    for unit in (u for passage in parsed.values() for u in passage):
        key = _key(unit.text)
        if key not in seen:  # the same sentence from a duplicated page is quoted once
            seen[key] = len(units)
            units.append(unit)
            ranks.append(orders[unit.evidence_id])
        elif fit.get(unit.evidence_id, 0.0) > fit.get(units[seen[key]].evidence_id, 0.0):
            units[seen[key]] = unit  # of identical copies, the one whose heading path is the question's (X23, X2')
    df: Counter[str] = Counter()
    for unit in units:
        df.update(wanted & (unit.vocabulary | unit.context))
    pieces = _question_weights(question)
    idf = {t: math.log(1 + len(units) / df[t]) * pieces.get(t, 1.0) for t in df}
    scored = sorted(
        ((_score(u, wanted, pairs, idf, numeric=numeric, order=ranks[i], weight=weights[u.evidence_id],
                 path=headed.get(u.evidence_id, set()), polar=polar, options=written)
          * (notes if _NOTE.match(u.own) else 1.0), i, u)
         for i, u in enumerate(units)),
        key=lambda x: (-x[0], x[1]),
    )
    if not scored or scored[0][0] <= 0:
        return None
    best = scored[0][0]
    chosen: list[Unit] = []
    texts = dict(evidence)
    headings = {e: t for e, path in (paths or {}).items() if (t := section_title(path, texts.get(e, "")))}
    counted = _Counted(chosen, headings)
    quoted: set[str] = set()
    tables: dict[str, list[str]] = {}
    for unit in units:
        if unit.kind == "row":
            tables.setdefault(unit.header, []).append(unit.text)
    conditions = Conditions(tables, wanted)
    for value, _, unit in scored:
        if value < KEEP * best:
            break
        if _key(unit.own) in quoted or other_row(unit, chosen, conditions):  # quoted in a lead-in's list
            continue
        options = _options(unit, wanted, quoted)
        fits = next((o for o in options if counted.with_unit(o) <= max_tokens), None)  # the fullest
        if fits is None and not chosen and options:
            fits = options[-1]  # the best unit is quoted whatever its size, in its shortest form
        if fits is None:
            continue  # what it introduces is quoted already, or it does not fit: a shorter one may still
        unit = fits
        for taken in (unit, *_kept_with(unit, parsed[unit.evidence_id], quoted)):
            if taken is not unit and counted.with_unit(taken) > max_tokens:
                continue
            interrupted = _interrupted_by(taken.header)
            if taken.header and (_key(taken.header) in quoted or (interrupted and interrupted[0] in quoted)):
                taken = replace(taken, header="")  # a short lead-in's sentence before it, or the sentence an
                # example interrupts, quoted with it already
            chosen.append(taken)
            counted.add(taken)
            quoted.update(_key(text.split("\n", 1)[-1]) for text in (taken.own, *(f for f, _ in taken.follow)))
            quoted.update(_interrupted_by(taken.header))
            if taken.follow and taken.header:  # the sentence above a short lead-in is quoted with it
                quoted.add(_key(taken.header))
    answer = _render(chosen, headings)
    cited = dict.fromkeys(e for unit in chosen for e in (unit.evidence_id, *(e for _, e in unit.follow)))
    return Generation(kind="extract", answer=answer, citations=[Citation(evidence_id=c, valid=True) for c in cited],
                      model=None)


def _interrupted_by(header: str) -> tuple[str, ...]:
    """The keys of the sentence and the example a unit's ``header`` holds when the unit is the end of a sentence
    the example interrupts (``units._GOES_ON``): its start, quoted with the example as a lead-in, is not quoted again
    above the end, nor that lead-in after it; none for any other header."""
    start, _, example = header.partition("\n")
    if not example.startswith(FENCE) or start.startswith(FENCE):
        return ()
    return _key(start), _key(example.split("\n", 1)[-1])


_HEADING = re.compile(r"#{1,6} \S")
"""A passage that opens with its heading: no lead-in of the passage before it introduces its rows."""
_NUMBERED = re.compile(r"\s*(\d{1,3})[.)]\s")
"""A passage that opens with a numbered list's item: its number (the list may go on from the passage before)."""


def _kept_with(unit: Unit, passage: list[Unit], quoted: set[str]) -> list[Unit]:
    """The sentences quoted with a quoted one, when they fit (the caller counts them after it) and
    are short (``LENGTH`` words at most: a long one eats the budget of better units); ``adjacent``
    writes them beside it. First the sentence before it, when the quoted one is ``SHORT`` ("The
    default is 4.0."): it names what the short one is about ("Sets the planner's estimate of the
    cost of a non-sequentially-fetched disk page."); not when the short one is a label ending in ":"
    (SQLite's syntax diagrams' "common-table-expression:" took the label "select-stmt:" before it).
    Then the sentence after it, when that opens with an anaphor ("This setting must be at least 128
    kilobytes.") or does "the same" (``SAME``) and ends as a statement does: it says more about what
    the quoted one names (SQLite's footer "This page last modified on 2022-01-20 21:38:08 UTC" and a
    lead-in "This module defines the following functions:" do not); or when it introduces a code
    example, with the example (the first it introduces): the quoted sentence says what the example
    does, the one after it only leads to it (GitPython's "... you may conveniently use the git command
    directly." then "It is owned by each repository instance." over ``git = repo.git``); not a lead-in
    that announces its example (ending in ":" or "e.g.") unless it opens with an anaphor (Typer's "For
    this, use the standard Python typing.List ...:") or is a short lead-in quoting the quoted one above it
    (docutils' "The following example should be illustrative:", task X19): it is quoted on its own terms. For a lead-in
    quoted with its whole list, only such a sentence right after the list: it sums the list up (npm's
    "Exceptions to this are:" list of files never packed, then "These cannot be included.")."""
    taken: list[Unit] = []
    if unit.kind not in ("sentence", "item") or unit.position < 0:
        return taken
    if unit.follow:  # a lead-in quoted with its whole list: the sentence after the list may sum it up
        end = unit.position + 1
        while end < len(passage) and getattr(passage[end].intro, "position", None) == unit.position:
            end += 1
        closing = passage[end] if end < len(passage) and len(unit.follow) >= end - unit.position - 1 else None
        if closing is not None and not (closing.kind != "sentence" or closing.follow or closing.intro is not None
                                        or not ANAPHOR.match(closing.own) or _key(closing.own) in quoted
                                        or not closing.own.rstrip(")\"'*`").endswith((".", "!", "?"))
                                        or len(closing.own.split()) > LENGTH):
            taken.append(closing)
        return taken
    if unit.kind == "sentence" and short(unit) and unit.position > 0 and not unit.own.endswith(":"):
        before = passage[unit.position - 1]
        if not (before.kind != "sentence" or before.follow or before.intro is not None or _key(before.own) in quoted
                or before.header != unit.header or len(before.own.split()) > LENGTH):
            taken.append(before)
    after = unit.position + 1
    if after < len(passage):
        nxt = passage[after]
        led = bool(nxt.header) and _key(nxt.header) == _key(unit.own)  # a short lead-in under it: "Like this:"
        section = unit.kind == "sentence" and not nxt.header and EXAMPLE_SECTION.fullmatch(nxt.own) is not None
        if not (nxt.kind != "sentence" or nxt.intro is not None or _key(nxt.own) in quoted
                or (nxt.header != unit.header and not led) or len(nxt.own.split()) > LENGTH):
            example = nxt.follow[:1]
            leans = led or section or ANAPHOR.match(nxt.own) is not None
            if example and (_code(example[0][0]) or section) and (leans or not nxt.own.endswith((":", "e.g."))) and (
                    _key(example[0][0].split("\n", 1)[-1]) not in quoted):
                taken.append(replace(nxt, follow=example))  # the example the next sentence introduces
            elif not nxt.follow and (leans or SAME.search(nxt.own)) and (
                    nxt.own.rstrip(")\"'*`").endswith((".", "!", "?"))):  # a statement: not a footer, not a lead-in
                taken.append(nxt)
    return taken


def _code(text: str) -> bool:
    """A lead-in's follower that is code (a fenced block or an interactive session), not a list item or row."""
    return text.lstrip().startswith(FENCE) or PROMPT.match(text) is not None


BARE = 3
"""A list item of at most this many words is quoted only under the lead-in that introduces it: alone,
npm's "`.gitignore`", "`.npmignore`" (of "By default, some paths and files are ignored ... Some examples
are:") and PostgreSQL's "max_connections" (of "The parameters affected are:") name a thing and say
nothing of it."""


def _options(unit: Unit, wanted: set[str], quoted: set[str]) -> list[Unit]:
    """How the unit may be quoted, the fullest first: a lead-in with the list items, rows or code
    it introduces (those not quoted yet; a table's rows meeting the question's condition, or all of
    them when the condition leaves out the row being quoted: the condition was misread), then with its
    long examples cut to the lines holding question terms (``examples.cut_example``); a list
    item or a row with the lead-in that introduces it, then with only itself under that lead-in,
    then alone (an item of more than ``BARE`` words). A lead-in ending in ":" whose list is all
    quoted already has no option; a sentence that introduces a table or code without a colon may
    also be quoted alone (it says something itself: "When modals are closed, any tooltips ... are
    also automatically dismissed."), not one that ends no sentence: PostgreSQL's "is a timestamp without
    time zone, while" over its literal (a chunk opening inside a sentence), npm's "**Using the `npm:`
    prefix to replace with a different package name:**" say nothing without what they introduce."""
    def fresh(follow: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [f for f in follow if _key(f[0].split("\n", 1)[-1]) not in quoted]

    def quoting(lead: Unit, follow: list[tuple[str, str]]) -> Unit:
        return replace(lead, follow=follow, unmet={t for t, _ in lead.follow} - {t for t, _ in matching})

    if unit.follow:
        matching = matching_rows(unit.follow, wanted)
        follow = fresh(matching)[:MAX_FOLLOW]
        alone = [replace(unit, follow=[])] if unit.own.rstrip(")\"'*`").endswith((".", "!", "?")) else []
        cut = [(cut_example(t, wanted) or t, e) if _code(t) else (t, e) for t, e in follow]
        head = [(head_example(t) or t, e) if (t, e) in follow else (t, e) for t, e in cut]  # what no cut shortens
        in_passage = [f for f in follow if f[1] == unit.evidence_id or _code(f[0])]
        own = [quoting(unit, in_passage)] if in_passage and len(in_passage) < len(follow) else []
        shorter = [quoting(unit, c) for n, c in enumerate((follow, cut, head)) if c and c not in (follow, cut)[:n]]
        return shorter + own + alone
    intro = unit.intro
    if intro is None or _key(intro.own) in quoted:
        return [unit]
    mine = (unit.text, unit.evidence_id)
    matching = matching_rows(intro.follow, wanted)
    follow = fresh(matching)[:MAX_FOLLOW]
    if mine not in follow:  # the question's condition left out the row that answers best: all rows
        matching = intro.follow
        follow = fresh(matching)[:MAX_FOLLOW]
    if mine not in follow:
        matching = follow = [mine]
    alone = [unit] if len(unit.own.split()) > BARE else []  # "`.gitignore`" says nothing without its lead-in
    return [quoting(intro, follow), quoting(intro, [mine]), *alone]


def _question_weights(question: str) -> dict[str, float]:
    """Question terms that are only parts of a compound token the question writes: ``PIECE``."""
    whole: set[str] = set()
    pieces: set[str] = set()
    for raw in question.split():
        terms = tokenize(raw)
        for n, term in enumerate(terms):
            # the tokenizer gives a compound first, then its parts; a plain word is a term alone
            (pieces if n and len(terms) > 1 and term != terms[0] else whole).add(term)
    return dict.fromkeys(pieces - whole, PIECE)


def _render(chosen: list[Unit], titles: Mapping[str, str] | None = None) -> str:
    """The chosen units by passage, the passage of the best unit first, best first inside a
    passage (units under the same header together, the header written once), each passage's
    quote followed by its citation; ``titles``: each passage's section title, by evidence id (each written once)."""
    groups: dict[str, list[Unit]] = {}
    for unit in chosen:
        groups.setdefault(unit.evidence_id, []).append(unit)
    first = chosen[0] if chosen else None
    written = once(groups, titles or {})
    return "\n".join(_passage_quote(evidence_id, group, first, written[evidence_id])
                     for evidence_id, group in groups.items())


def _passage_quote(evidence_id: str, group: list[Unit], first: Unit | None = None, title: str = "") -> str:
    """One passage's part of ``_render``: its section's ``title`` on a line of its own unless the quote
    writes it (MkDocs Material's "Dedent Subsections" names the option its sentences describe, task X27),
    its units (chosen order, adjacent ones together: ``adjacent``), then its citation. ``first``: the
    extract's best unit, quoted first. A passage
    quoted under an API member's declaration (``declarations.declaration``: the term of its description
    since task X10) reads in its own order: the signature, its description, then its field list
    ("Parameters: count - ...", "letters - ...", "numbers - ..."); best first, U12's question 14 quoted
    "letters - ..." first and the signature last, each field cut from the member it belongs to (task X11). So does
    one under a command-line option's term (``option_term``): curl's "Set this option to -1 to make it unlimited."
    opened --max-redirs' quote, above "(HTTP) Set maximum number of redirections to follow." (task X23, rule X1'')."""
    if any(u.header and (_declared(u.header) or option_term(u.header)[1]) for u in group):  # as written
        group = sorted(group, key=lambda u: u.position)  # stable: a lead-in's variants keep the chosen order
    else:
        headers = list(dict.fromkeys(u.header for u in group))
        group = adjacent(sorted(group, key=lambda u: headers.index(u.header)), first)  # stable: best first by header
    pieces = [_quote(u, bare=k > 0 and group[k - 1].header == u.header) for k, u in enumerate(group)]
    cite = f" [{evidence_id}]"
    text = "\n".join(q.removesuffix(cite) for q in pieces)
    if title and title.casefold() not in text.casefold():
        text = f"{title}\n{text}"
    return text if _CITED.search(text) else text + cite  # a list from the next passage cites it


@lru_cache(maxsize=KEYS)
def _declared(header: str) -> bool:
    """The header is an API member's declaration (its last line: a definition's term)."""
    return declaration(header.rsplit("\n", 1)[-1])


class _Counted:
    """``count_tokens(_render([*chosen, unit]))`` without rendering and counting every passage's
    part again for each option (half of the extract's time on npm-docs): the parts are joined by
    line breaks, and a part that starts with a character other than whitespace starts a new piece
    of the encoding's pre-tokenizer (where ``count_tokens_by_words`` cuts too), so the whole counts
    as the sum of its parts, each but the last with its line break. Where a part starts with
    whitespace (none does on either dev set), the whole is rendered and counted."""

    def __init__(self, chosen: list[Unit], titles: Mapping[str, str] | None = None) -> None:
        self.chosen = chosen
        self.titles = titles or {}
        self.written: dict[str, str] = {}
        """The title each chosen passage's quote opens with (``once``)."""
        self.groups: dict[str, list[Unit]] = {}
        """The chosen units by passage, as ``_render`` groups them."""
        self.counts: dict[str, tuple[int, int]] = {}
        """Each passage's part counted alone and with its line break."""
        self.spaced = False
        """A part starts with whitespace."""

    def add(self, unit: Unit) -> None:
        """``unit`` was appended to ``chosen``."""
        group = self.groups.setdefault(unit.evidence_id, [])
        group.append(unit)
        if unit.evidence_id not in self.written:
            self.written[unit.evidence_id] = once([*self.written, unit.evidence_id], self.titles)[unit.evidence_id]
        quote = _passage_quote(unit.evidence_id, group, self.chosen[0], self.written[unit.evidence_id])
        self.spaced |= quote[:1].isspace()
        self.counts[unit.evidence_id] = (count_tokens(quote), count_tokens(quote + "\n"))

    def with_unit(self, unit: Unit) -> int:
        """Tokens of the extract with ``unit`` after the chosen ones."""
        key = unit.evidence_id
        quote = _passage_quote(key, [*self.groups.get(key, ()), unit], self.chosen[0] if self.chosen else unit,
                               once([*self.written, key], self.titles)[key])
        if self.spaced or quote[:1].isspace():
            return count_tokens(_render([*self.chosen, unit], self.titles))
        last = next(reversed(self.groups), None)
        if key not in self.groups:
            return sum(joined for _, joined in self.counts.values()) + count_tokens(quote)
        others = sum(alone if k == last else joined for k, (alone, joined) in self.counts.items() if k != key)
        return others + count_tokens(quote if key == last else quote + "\n")


def _score(unit: Unit, wanted: set[str], pairs: set[tuple[str, str]], idf: dict[str, float], *,
           numeric: bool, order: int, weight: float, path: set[str], polar: frozenset[str] = frozenset(),
           options: frozenset[str] = frozenset()) -> float:
    """IDF of the question terms in the unit, plus a share for those only in its context or its
    passage's heading path and for adjacent question terms adjacent in the unit; shorter units,
    earlier passages, (for a question asking for a quantity) units holding a number and (for a
    yes/no question) units that say no, only or must weigh more. A code block is quoted only after
    the sentence that introduces it. ``order``: its passage's rank in the evidence; ``weight``: how
    much its document holds of the evidence (``DOCUMENT``); ``path``: the question terms its
    passage's heading path holds; ``polar``: the terms of its yes/no clauses (``POLAR``); ``options``: its options.
    A unit whose own words share no question term is scored by the name it is quoted under when the question names
    it: a member's declaration, an option's term, or a name written as code (``declarations.code_term``), which
    makes it a fact with its key (``ROW``), as a field list's item whose key the question names (task X29, D3c)."""
    own = wanted & unit.vocabulary - other_case_terms(options, unit.own)
    termed = False
    if not own and unit.header and (member := declared(unit.header))[1] and member[1] <= wanted:
        own = wanted & member[0]  # a description under the declaration of the member the question names
    elif not own and unit.kind != "row" and (option := option_term(unit.header))[1] & wanted - other_case_terms(
            options, unit.header.rsplit("\n", 1)[-1]):
        own = wanted & option[0]  # a description under the option the question names
    elif not own and unit.kind != "row" and (term := code_term(unit.header)) and term <= wanted:
        own, termed = set(term), True  # a description under a name written as code that the question writes (D3c)
    if not own or unit.kind == "code" or all(_NUMERAL.fullmatch(t) for t in own | (wanted & unit.context)):
        return 0.0  # a unit sharing only numbers with the question ('3.0' in a table of versions) answers nothing
    if says_nothing(unit):
        return 0.0
    value = sum(idf[t] for t in own) + CONTEXT * sum(idf[t] for t in (wanted & unit.context) - own)
    value += PATH * sum(idf.get(t, 0.0) for t in path - own)  # a term no unit holds weighs nothing
    value += PHRASE * sum(idf[a] + idf[b] for a, b in pairs & unit.pairs)
    keyed = unit.kind == "row" or termed or _named_field(unit, own) or under_option(unit, wanted, options)
    bonus = (1 + NUMBER * (numeric and _DIGIT.search(unit.own) is not None)) * (ROW if keyed else 1)
    bonus *= 1 + POLAR * bool(polar & own and _POLARITY.search(unit.own))
    return bonus * value / (1 + len(unit.own.split()) / LENGTH) * (1 + RANK / (1 + order)) * weight


def _named_field(unit: Unit, own: set[str]) -> bool:
    """A field list's item (``_FIELD``) whose key's terms are all among the question terms it holds."""
    match = _FIELD.match(unit.own) if unit.kind == "item" else None
    key = set(tokenize(match.group(1))) if match is not None else set()
    return bool(key) and key <= own


def _yes_no_terms(question: str) -> frozenset[str]:
    """The terms of the question's yes/no clauses, each from its auxiliary verb to the clause's end
    ("Who ends up in an organization's developers team, and can a team admin delete that team?":
    ``team``, ``admin``, ``delet``); none when it asks none."""
    terms: set[str] = set()
    for match in _YES_NO.finditer(question):
        clause = question[match.start():].lstrip(",;.?! ")
        terms.update(tokenize(_CLAUSE_END.split(clause, maxsplit=1)[0]))
    return frozenset(terms)


@lru_cache(maxsize=KEYS)
def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _quote(unit: Unit, *, bare: bool = False) -> str:
    """The unit and the list after it; each passage's part is followed by its citation. ``bare``:
    without its header (the unit before it in the extract has the same one)."""
    parts = [unit.own if bare else unit.text]
    cited = unit.evidence_id
    table = ""
    for text, evidence_id in unit.follow:
        if evidence_id != cited:
            parts[-1] += f" [{cited}]"
            cited = evidence_id
        first, _, rest = text.partition("\n")
        if text.startswith("|") or _headed_row(text):
            header = first if rest else ""
            if header and header != table:
                table = header
                parts.append(header)
            parts.append(rest or first)
        elif rest and first == table:
            parts.append(rest)  # a row under the header quoted above it (a table drawn in a literal block)
        elif text.lstrip().startswith(FENCE) or rest or PROMPT.match(text):
            parts.append(text)  # code (a list item is one line)
            if rest and not first.lstrip().startswith(FENCE) and PROMPT.match(first) is None:
                table = first  # a unit under its header: a drawn table's row (``line_shapes.drawn_table``)
        else:
            parts.append(f"- {text}")
    return "\n".join(parts) + f" [{cited}]"


def _headed_row(text: str) -> bool:
    """A row under a header that is no row: a table without a header row under its section path
    (``units.passage_units``' ``where``: "g_list_free_full () › Parameters")."""
    header, _, row = text.partition("\n")
    return row.startswith("|") and "\n" not in row and not header.startswith(FENCE) and PROMPT.match(header) is None


def check_answer(answer: str, evidence: dict[str, str], model: str) -> Generation:
    """Keep what the evidence supports. ``evidence``: the text of each passage fetched in full in
    the run (what may be cited), by id.

    Citations of anything else are removed and reported. Then each sentence must cite evidence
    that holds at least ``SUPPORT`` of its key terms (the search tokenizer's terms): a sentence
    that cites nothing citable, or whose cited passages lack its terms, is dropped and reported
    (``unsupported``). A reply that repeats a sentence is cut at the repetition (small models
    loop)."""
    kept: list[Citation] = []
    removed: list[Citation] = []
    seen: set[str] = set()
    for match in CITATION.finditer(answer):
        evidence_id = match.group(1)
        if evidence_id in seen:
            continue
        seen.add(evidence_id)
        if not ids.is_well_formed(evidence_id):
            removed.append(Citation(evidence_id=evidence_id, valid=False, reason="malformed evidence id"))
        elif evidence_id in evidence:
            kept.append(Citation(evidence_id=evidence_id, valid=True))
        else:
            removed.append(Citation(evidence_id=evidence_id, valid=False, reason="not fetched in full in this run"))
    terms = {evidence_id: set(tokenize(text)) for evidence_id, text in evidence.items()}
    lines: list[list[str]] = []
    unsupported: list[str] = []
    said: set[str] = set()
    cut = False
    for line in answer.splitlines():
        lines.append([])
        for sentence in SENTENCE.split(line.strip()):
            plain = " ".join(_SPACED_CITATION.sub("", sentence).split())
            if not plain:
                continue
            cut = _key(plain) in said  # the reply repeats itself: what follows is a loop
            if cut:
                break
            said.add(_key(plain))
            if not _supported(plain, [c for c in CITATION.findall(sentence) if c in evidence], terms):
                unsupported.append(plain)
                continue
            text = _SPACED_CITATION.sub(lambda m: "" if m.group(1) not in evidence else m.group(0), sentence)
            lines[-1].append(" ".join(text.split()))
        if cut:
            break
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(" ".join(line) for line in lines).strip())
    still = set(CITATION.findall(text))
    return Generation(kind="model", answer=text, citations=[c for c in kept if c.evidence_id in still], model=model,
                      removed_citations=removed, unsupported=unsupported, repetition_cut=cut)


SUPPORT = 0.5
"""Share of a generated sentence's key terms its cited evidence must hold."""


def _supported(sentence: str, cited: list[str], terms: dict[str, set[str]]) -> bool:
    """Whether ``sentence`` cites evidence and that evidence holds enough of its key terms."""
    if not cited:
        return False
    wanted = set(tokenize(sentence))
    if not wanted:
        return True
    held = set().union(*(terms[c] for c in cited))
    return len(wanted & held) >= SUPPORT * len(wanted)
