"""A lead-in continued across passages of the evidence (``clew.agent.generate``): a passage that ends with a
sentence introducing a list, a table or code, or ends inside a numbered list or an example the chunker cut, goes
on in the next passage of its document. ``clew.agent.units`` cuts one passage into units; this joins two
passages' units.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import takewhile

from clew.agent.units import Unit


def continue_lead_ins(parsed: dict[str, list[Unit]], headed: Collection[str] = (),
                      numbered: dict[str, int] | None = None) -> None:
    """A lead-in that ends its passage takes the list items or table rows opening the next passage of the same
    document (only rows when it does not end in ":"), when that passage is in the evidence too; a list item ending in
    ":" that no lead-in introduces takes the code blocks opening it, not under a heading (SignalFlow's "4. Clone the
    SignalFlow repository with submodules: Run the following command ...:", its ``git clone`` the next passage's
    first block: the chunker cut the step from its command); not a table under
    the next passage's opening heading (``headed``: gtk-doc's "See g_get_monotonic_time()." ends a description,
    the next passage is its "#### Parameters"; code under "Synopsis" is still quoted with the description). A
    numbered list ending a passage under its lead-in goes on with the items opening the next passage when that one
    opens with the item after its last (``numbered``: the number of the item a passage opens with, by evidence id;
    ``_cut_lead``); a code block ending a passage under its lead-in, with the code blocks opening the next one
    (``_cut_lead``). The passages it changes are copied first (``parsed`` holds the units ``parsed_units``
    keeps)."""
    copied: set[str] = set()
    numbered = numbered or {}

    def own(evidence_id: str) -> list[Unit]:
        if evidence_id not in copied:
            copied.add(evidence_id)
            parsed[evidence_id] = _copy(parsed[evidence_id])
        return parsed[evidence_id]

    for evidence_id, units in list(parsed.items()):
        head, _, ordinal = evidence_id.rpartition(":")
        after = f"{head}:{int(ordinal) + 1}" if ordinal.isdigit() else None
        if after is None:
            continue
        opening = parsed.get(after, [])
        if _cut_lead(units, opening, numbered.get(after)) is not None:
            kind, lead = units[-1].kind, own(evidence_id)[-1].intro  # the copy's lead-in
            if lead is not None:  # always: ``_cut_lead`` found it (a guard the type checker reads)
                _attach(lead, takewhile(lambda u: u.kind == kind and u.intro is None, own(after)))
            continue
        last = units[-1] if units else None
        if last is not None and last.kind == "item" and last.own.endswith(":") and not (last.follow or last.intro):
            code = sum(1 for _ in takewhile(lambda u: u.kind == "code" and u.intro is None, opening))
            if code and after not in headed:  # a step's command the chunker cut from it (task X22, U33's B3)
                _attach(own(evidence_id)[-1], own(after)[:code])
            continue
        if not units or units[-1].kind != "sentence" or units[-1].follow:
            continue
        if after in headed and opening and opening[0].kind == "row":
            continue  # a table under its own heading
        taken = 0
        for unit in opening:
            if unit.kind == "sentence" or (unit.kind == "item" and not units[-1].own.endswith(":")):
                break
            taken += 1
        if taken:
            _attach(own(evidence_id)[-1], own(after)[:taken])


def _attach(lead: Unit, units: Iterable[Unit]) -> None:
    """``units`` (of the next passage) read under ``lead``: quoted with it, sharing its terms."""
    for unit in units:
        lead.follow.append((unit.text, unit.evidence_id))
        unit.context |= set(lead.terms)
        unit.intro = lead


def _cut_lead(units: list[Unit], opening: list[Unit], number: int | None) -> Unit | None:
    """The lead-in ending in ":" whose numbered list or example ends the passage (``units``), where the next passage
    (``opening``) opens with more of it, of no lead-in of its own: the item numbered next (``number``: the number of
    the item that passage opens with; the list's lead-in in the same passage), or a code block. The chunker cut the
    list (task X12's sqlite-015) or the example between its blocks (Gutenprint's "Change the following line from:"
    ``LogLevel Info`` | "to" ``LogLevel Debug``, task X14)."""
    if not units or not opening:
        return None
    last, first = units[-1], opening[0]
    lead = last.intro
    if (last.kind not in ("item", "code") or first.kind != last.kind or first.intro is not None or lead is None
            or not lead.own.endswith(":") or not lead.follow or lead.follow[-1] != (last.text, last.evidence_id)):
        return None
    if last.kind == "item" and (lead.evidence_id != last.evidence_id or number != len(lead.follow) + 1):
        return None
    return lead


def _copy(kept: list[Unit]) -> list[Unit]:
    """A fresh copy of a passage's units (to continue a lead-in across passages: the units
    ``parsed_units`` keeps are shared by every extract)."""
    fresh = {id(u): Unit(own=u.own, evidence_id=u.evidence_id, order=u.order, kind=u.kind, header=u.header,
                         context=set(u.context), follow=list(u.follow), terms=u.terms, intro=u.intro,
                         unmet=set(u.unmet), vocabulary=u.vocabulary, pairs=u.pairs,
                         position=u.position)
             for u in kept}  # every field of Unit (dataclasses.replace is 2x slower)
    units = list(fresh.values())
    for unit in units:
        if unit.intro is not None:  # a lead-in of the same passage: its copy
            unit.intro = fresh[id(unit.intro)]
    return units
