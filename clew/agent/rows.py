"""The table rows of the extract (``clew.agent.generate``): which rows of a table meet the
question's condition on their key cell (the first), and which rows to leave out once one is quoted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache

from clew.agent.units import Unit
from clew.corpus.tokenize import tokenize

KEYS = 65_536
"""Rows whose key terms (``key_terms``) are kept."""


def matching_rows(follow: list[tuple[str, str]], wanted: set[str]) -> list[tuple[str, str]]:
    """The rows of a lead-in's table that best meet the question's condition: those whose key cell
    (the first) holds the most conditions (``_conditions``: ``SEV2``, ``set to 2``); all of them
    when no key cell holds one. List items are kept."""
    rows = [f for f in follow if f[0].startswith("|")]
    if len(rows) < 2:
        return follow
    cells = {f: key_terms(f[0]) for f in rows}
    conditions = _conditions([f[0] for f in rows], wanted)
    matched = {f: len(conditions & cells[f]) for f in rows}
    most = max(matched.values())
    return [f for f in follow if not f[0].startswith("|") or matched[f] == most] if most else follow


def _conditions(rows: Sequence[str], wanted: set[str], *, whole: bool = False) -> set[str]:
    """The question's conditions on a table's ``rows`` (each with its header row): the question
    terms that the key cell of exactly one row holds and the header does not (``SEV2`` among
    ``SEV1``-``SEV3``, ``checksum`` of ``pd_checksum``). A term in several key cells (``table`` in
    "columns per table" and "rows per table") names what the rows are about, not which one the
    question asks for. ``whole``: only the terms of a key cell the question names in full (``SEV2``,
    the ``2`` of "set to 2"), not ``repository`` of "`--repository`, `--repo`", which names what
    the question asks about."""
    held: Counter[str] = Counter()
    named: set[str] = set()
    header: set[str] = set()
    for row in rows:
        key = key_terms(row)
        held.update(key)
        if key and (key <= wanted or not whole):
            named |= key & wanted
        header.update(tokenize(row.split("\n", 1)[0]) if "\n" in row else ())
    return {t for t in named if held[t] == 1} - header


class Conditions(dict[str, set[str]]):
    """``_conditions(rows, wanted, whole=True)`` of each table of the evidence by its header,
    worked out when a row of that table is first asked about (most tables never are)."""

    def __init__(self, tables: dict[str, list[str]], wanted: set[str]) -> None:
        super().__init__()
        self.tables, self.wanted = tables, wanted

    def __missing__(self, header: str) -> set[str]:
        found = self[header] = _conditions(self.tables.get(header, []), self.wanted, whole=True)
        return found


def other_row(unit: Unit, chosen: list[Unit], conditions: Mapping[str, set[str]]) -> bool:
    """A row of a table whose chosen row's key cell holds a condition (``_conditions``, by
    header) that this row's key cell lacks, or a row a quoted lead-in's condition left out."""
    if unit.kind != "row":
        return False
    mine = key_terms(unit.text)
    wanted = conditions[unit.header]
    return any((c.kind == "row" and c.header == unit.header and (wanted & key_terms(c.text)) - mine)
               or unit.text in c.unmet for c in chosen)


@lru_cache(maxsize=KEYS)
def key_terms(row: str) -> frozenset[str]:
    """The terms of a row's key cell (``_key_cell``), kept: each extract asks for them row by row."""
    return frozenset(tokenize(_key_cell(row)))


def _key_cell(row: str) -> str:
    """The first cell of a table row (``| SEV2 | ... |`` -> ``SEV2``), its header row cut off; none
    in a row of one cell (DocBook's "Function. Description" tables: the cell is the whole row)."""
    cells = row.split("\n", 1)[-1].strip().strip("|").split("|")
    return cells[0].strip() if len(cells) > 1 else ""


def path_fit(path: Sequence[str], wanted: set[str]) -> float:
    """The share of a passage's heading path's terms that are question terms: of identical rows in several passages
    the extract quotes the copy whose path fits best (Dialogporten's three identical 401 rows, the first passage's
    quoted, named another operation than the one asked for: task U37's A4, X23's rule X2')."""
    terms = set(tokenize(" ".join(path)))
    return len(terms & wanted) / len(terms) if terms else 0.0
