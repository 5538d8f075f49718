"""Which quoted units of a passage are read together: a short sentence with the one before it, a run of
adjacent sentences or list items in reading order (moved from ``generate``, task X27)."""

from __future__ import annotations

from clew.agent.line_shapes import ANAPHOR
from clew.agent.units import Unit

SHORT = 6
"""A quoted sentence of at most this many words is quoted with the sentence before it (``generate._kept_with``)."""


def short(unit: Unit) -> bool:
    """Quoted after the sentence before it: ``SHORT``, or under a definition's term leaning on that one (``ANAPHOR``:
    under 'auto' of ``cp --reflink[=WHEN]``, "This is the default if no '--reflink' option is given.", alone, left out
    what 'auto' does, task U37; outside a term, npm's, Python's and git's dev sets lost four phrases)."""
    return len(unit.own.split()) <= SHORT or (bool(unit.header) and ANAPHOR.match(unit.own) is not None)


def adjacent(group: list[Unit], first: Unit | None) -> list[Unit]:
    """``group`` with each run of adjacent sentences or list items of the passage (under the same
    header, introducing nothing) in reading order, where the best of them stands: a phrase may span
    two sentences ('You can use the ".mode" dot command to switch between these output formats.'
    then 'The default output mode is "list".'). The extract's best unit, ``first``, still opens
    the extract: a run holding it starts with it, unless it is ``SHORT`` ("The default is 4.0."):
    then the sentence before it, which names what it is about, opens the run (pg-035)."""

    def plain(u: Unit) -> bool:
        return u.kind in ("sentence", "item") and not u.follow and u.intro is None and u.position >= 0

    at = {(u.header, u.position): u for u in group if plain(u)}
    placed: set[int] = set()

    def free(header: str, position: int) -> bool:
        return (header, position) in at and id(at[(header, position)]) not in placed

    ordered: list[Unit] = []
    for unit in group:
        if id(unit) in placed:
            continue
        run = [unit]
        if plain(unit):
            start = unit.position
            while (unit is not first or short(unit)) and free(unit.header, start - 1):
                start -= 1
            run = []
            while free(unit.header, start):
                run.append(at[(unit.header, start)])
                start += 1
        for u in run:
            placed.add(id(u))
        ordered.extend(run)
    return ordered
