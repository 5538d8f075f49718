"""A lead-in continued across passages of the evidence (``clew.agent.generate``): a passage that ends with a
sentence introducing a list, a table or code, or ends inside a numbered list or an example the chunker cut, goes
on in the next passage of its document. ``clew.agent.units`` cuts one passage into units; this joins two
passages' units.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import takewhile

from clew.agent.units import Unit


def continue_lead_ins(parsed: dict[str, list[Unit]], headed: Collection[str] = (),
                      numbered: dict[str, int] | None = None) -> None:
    """A lead-in that ends its passage takes the list items or table rows opening the next passage of the same
    document (only rows when it does not end in ":"), when that passage is in the evidence too; not a table under
    the next passage's opening heading (``headed``: gtk-doc's "See g_get_monotonic_time()." ends a description,
    the next passage is its "#### Parameters"; code under "Synopsis" is still quoted with the description). A
    numbered list ending a passage under its lead-in goes on with the items opening the next passage when that one
    opens with the item after its last (``numbered``: the number of the item a passage opens with, by evidence id;
    ``_list_goes_on``); a code block ending a passage under its lead-in, with the code blocks opening the next one
    (``_code_goes_on``). The passages it changes are copied first (``parsed`` holds the units ``parsed_units``
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
        opening = parsed.get(after, []) if after is not None else []
        if after is not None and after in numbered and _list_goes_on(units, opening, numbered[after]):
            lead = own(evidence_id)[-1].intro
            if lead is None:  # never: ``_list_goes_on`` found the lead-in (a guard the type checker reads)
                continue
            for unit in takewhile(lambda u: u.kind == "item" and u.intro is None, own(after)):
                lead.follow.append((unit.text, unit.evidence_id))
                unit.context |= set(lead.terms)
                unit.intro = lead
            continue
        if after is not None and _code_goes_on(units, opening):
            lead = own(evidence_id)[-1].intro
            for unit in takewhile(lambda u: u.kind == "code" and u.intro is None, own(after)):
                if lead is not None:  # never None: ``_code_goes_on`` found it (a guard the type checker reads)
                    lead.follow.append((unit.text, unit.evidence_id))
                    unit.context |= set(lead.terms)
                    unit.intro = lead
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
        if not taken or after is None:
            continue
        units = own(evidence_id)
        for unit in own(after)[:taken]:
            units[-1].follow.append((unit.text, unit.evidence_id))
            unit.context |= set(units[-1].terms)
            unit.intro = units[-1]


def _list_goes_on(units: list[Unit], opening: list[Unit], number: int) -> bool:
    """The passage ends with the numbered list a lead-in of it introduces, and the next passage opens with item
    ``number`` of it: the chunker cut the list (task X12's sqlite-015)."""
    if not units or not opening or units[-1].kind != "item" or opening[0].kind != "item" or opening[0].intro:
        return False
    lead = units[-1].intro
    return (lead is not None and lead.evidence_id == units[-1].evidence_id and lead.own.endswith(":")
            and bool(lead.follow) and lead.follow[-1] == (units[-1].text, units[-1].evidence_id)
            and number == len(lead.follow) + 1)


def _code_goes_on(units: list[Unit], opening: list[Unit]) -> bool:
    """The passage ends with a code block its lead-in ending in ":" introduces, and the next passage opens with a
    code block of no lead-in: the chunker cut the example between its blocks (Gutenprint's "Change the following line
    from:" ``LogLevel Info`` | "to" ``LogLevel Debug``, task X14)."""
    if not units or not opening or units[-1].kind != "code" or opening[0].kind != "code" or opening[0].intro:
        return False
    lead = units[-1].intro
    return (lead is not None and lead.own.endswith(":") and bool(lead.follow)
            and lead.follow[-1] == (units[-1].text, units[-1].evidence_id))


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
