"""An example too long for the extract, cut to its lines that hold question terms (``clew.agent.generate``).

A lead-in ending in ":" is quoted with the code it introduces or not at all (alone, it says nothing); an example
longer than the extract's room (a Flask view of 279 tokens under structlog's "Let's assume you want to bind a unique
request ID ... managed by context variables:", task X11) dropped out with its lead-in. Cut to the lines holding the
question's terms, each run of lines left out written as one ``...`` line, the lead-in and the lines that answer
fit.
"""

from __future__ import annotations

from clew.agent.units import FENCE, PROMPT
from clew.corpus.tokenize import tokenize

CUT = "..."
"""The line that stands for the lines left out of a cut example (as documentation writes an elided part)."""
SHARE = 3
"""A cut keeps at most one in this many of the example's lines of code: where the question's terms are on more (an
HTML demo whose every line names the ``modal``), the cut no more says what answers than the whole example."""
MIN_LINES = 6
"""An example of fewer code lines is quoted whole or not at all: cut, it would say too little."""


def cut_example(text: str, wanted: set[str]) -> str | None:
    """``text`` (a fenced block or an interactive session) with only its lines holding a term of ``wanted``, a run
    of lines left out written as one ``CUT`` line; None when no line holds one, when it has fewer than
    ``MIN_LINES`` lines of code, or when it would keep more than one line in ``SHARE``."""
    lines = text.split("\n")
    fenced = lines[0].lstrip().startswith(FENCE) and len(lines) > 1 and lines[-1].strip().startswith(FENCE)
    body = lines[1:-1] if fenced else lines
    if len([line for line in body if line.strip()]) < MIN_LINES:
        return None
    keep = [bool(wanted.intersection(tokenize(line))) for line in body]
    code = [kept for line, kept in zip(body, keep, strict=True) if line.strip()]
    if not any(keep) or sum(code) * SHARE > len(code):
        return None  # no line answers, or the question's terms are all over it: no cut says what answers
    cut: list[str] = []
    for line, kept in zip(body, keep, strict=True):
        if kept:
            cut.append(line)
        elif not cut or cut[-1] != CUT:
            cut.append(CUT)
    return "\n".join([lines[0], *cut, lines[-1]] if fenced else cut)


def head_example(text: str) -> str | None:
    """A fenced session's first paragraph (its lines before the first blank line, at most ``MIN_LINES``, the first
    a command at a prompt) and a ``CUT`` line, when the block goes on after it: the shortest form of an example
    ``cut_example`` cannot cut (task X22, U32's D3: Babel's "The compile sub-command can be used to compile
    translation catalogs into binary MO files:" over 213 tokens of ``$ pybabel compile --help``, the question's
    terms on most of its lines, had no form that fit, and the command was never quoted); None otherwise. Not code:
    the head of a function ("def dropwhile(predicate, iterable):") says less than the member it implements."""
    lines = text.split("\n")
    if len(lines) < 4 or not lines[0].lstrip().startswith(FENCE) or not lines[-1].strip().startswith(FENCE):
        return None
    body = lines[1:-1]
    blank = next((n for n, line in enumerate(body) if not line.strip()), None)
    if not blank or blank > MIN_LINES or PROMPT.match(body[0]) is None or not any(x.strip() for x in body[blank:]):
        return None
    return "\n".join([lines[0], *body[:blank], CUT, lines[-1]])
