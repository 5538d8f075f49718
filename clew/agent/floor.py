"""The walk's floor: a ranked walk ends holding what its own seed search packs flat, where that is worth more.

Issue 36 asks that a walk never return less than its seed search returns flat. At the end of a
ranked tree walk seeded by its search hits (``clew.agent.tree``: the pack is final, nothing else
fits), the flat pack of the same budget (the seed hits in rank order, each that fits, as the flat
``bm25`` system packs them) is compared with the walk's: the flat pack's first budget /
``FLOOR_TOKENS_PER_HIT`` hits the walk lacks (by id or by text), best first and each worth at
least ``FLOOR_LEAST`` times the best seed hit, displace the walk's lowest-worth takes, at most
``FLOOR_DROP`` of them per hit, each worth less than the hit over ``FLOOR_MARGIN``, when the room
freed fits the hit. A seed hit is never displaced, nor one of the flat hits coming in, but by the
flat pack's first ``FLOOR_FIRST`` hit: it comes in whatever its worth, in place of any take (a seed
hit the search ranks below it too), so the walk always holds its search's best hit, as flat does
(what X24's written option and named page put first: ``clew.corpus.search.written``). Worth is the
walk's own scale (``clew.agent.scoring.Scorer``: BM25 plus half the section's); no search runs
again and no tool call is spent: the seed search already ran at the request's budget.

Measured on five sets at 1,000 / 2,000 / 4,000 / 8,000 tokens (task W2, then landed in task W3 once
a sixth set agreed: docs/measurements/walk-2026-12-05.md): the two cells where the walk was below
flat bm25 (postgresql at 2,000 by two phrases, sqlite at 8,000 by one) come to or above it, python
gains at 1,000 and 2,000, nothing is lost. Each constant's reason is beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from clew.agent.evidence import text_key
from clew.agent.prompts import block_tokens
from clew.agent.result import FloorSwap
from clew.budgets.tokens import passage_tokens

if TYPE_CHECKING:
    from clew.agent.run import Run
    from clew.agent.walk import Walk
    from clew.corpus.search.api import Found

FLOOR_TOKENS_PER_HIT = 200
"""The flat pack's first budget / 200 hits may come in (5 at 1,000 tokens, 40 at 8,000): the whole
flat pack lost 1-2 phrases on npm, bootstrap and python (link targets and section mates of low worth
hold gold there); the top 5 at every budget won nothing at 8,000."""
FLOOR_MARGIN = 1.1
"""A take goes only for a hit worth more than 1.1 times it: at 1.0 sqlite and postgresql lost at
1,000 tokens (near-ties swapped out the gold); 1.2 and 1.5 won less on python."""
FLOOR_DROP = 2
"""At most two takes give way to one hit: with one, postgresql's 2,000-token win shrank from three
phrases to one; with any number, npm and python lost a phrase at 2,000-4,000."""
FLOOR_FIRST = 1
"""The flat pack's first hit comes in whatever its worth, displacing seed hits too (task W5): git-docs'
git-025 (git-revert(1), the page the question names, put first by X24, worth 25.3 against takes of
30.0-40.4) is won at 1,000 tokens, a phrase each at 2,000 and 4,000; with two, git-003 was won and
git-015 lost (flat's 2nd hit and the walk's take near-tied, 22.3 against 22.5)."""
FLOOR_LEAST = 0.4
"""A flat hit comes in only when worth 0.4 of the best seed hit: below 0.33 postgresql lost pg-025's
``wal_writer_delay`` entry at 8,000 tokens (taken out for a weak flat hit); above 0.42 sqlite's
8,000-token win (the ``SQLITE_CONSTRAINT`` passage, 0.42) is not made."""


@dataclass(frozen=True, slots=True)
class Held:
    """One of the walk's takes, as the floor weighs it."""

    id: str
    key: str
    """Its text, whitespace aside (two passages of one text are one)."""
    cost: int
    """The context tokens it holds (and gives back when displaced)."""
    worth: float
    movable: bool
    """Whether a flat hit may displace it (not a seed hit)."""


@dataclass(frozen=True, slots=True)
class Flat:
    """One hit of the flat pack, in its order."""

    id: str
    key: str
    cost: int
    worth: float
    rank: int
    """Its rank in the seed search (1: the best)."""


@dataclass(frozen=True, slots=True)
class Swap:
    hit: Flat
    displaced: tuple[Held, ...]


def flat_pack(costs: Sequence[int], budget: int) -> list[int]:
    """The positions of the seed hits the flat system packs into ``budget``: in rank order, each that fits."""
    out, used = [], 0
    for at, cost in enumerate(costs):
        if used + cost <= budget:
            out.append(at)
            used += cost
    return out


def swaps(held: Sequence[Held], flat: Sequence[Flat], budget: int, room: int, best: float) -> list[Swap]:
    """What the floor changes in the walk's pack ``held`` (in the order taken), given the flat pack ``flat``
    of ``budget`` tokens, ``room`` tokens still free and the best seed hit's worth ``best``: each swap
    in the order made (a hit that fits the room left displaces nothing)."""
    coming = [(at < FLOOR_FIRST, hit) for at, hit in enumerate(flat[:budget // FLOOR_TOKENS_PER_HIT])
              if at < FLOOR_FIRST or hit.worth >= FLOOR_LEAST * best]
    protected = {hit.id for _, hit in coming}
    out = list(held)
    made: list[Swap] = []
    for sure, hit in coming:
        if any(t.id == hit.id or t.key == hit.key for t in out):
            continue
        free = room
        gone: list[Held] = []
        for take in sorted((t for t in out if (sure or t.movable) and t.id not in protected), key=lambda t: t.worth):
            if free >= hit.cost or len(gone) >= FLOOR_DROP or (not sure and take.worth * FLOOR_MARGIN >= hit.worth):
                break
            gone.append(take)
            free += take.cost
        if free < hit.cost:
            continue
        ids = {t.id for t in gone}
        out = [t for t in out if t.id not in ids]
        out.append(Held(hit.id, hit.key, hit.cost, hit.worth, movable=False))
        room = free - hit.cost
        made.append(Swap(hit, tuple(gone)))
    return made


def apply_floor(run: Run, walk: Walk, found: Sequence[Found]) -> list[FloorSwap]:
    """The floor on a walk that is over, seeded by ``found``: each swap made in the pack, the ledger
    and the budget (a displaced take gives back its tokens and is no longer citable; the hit taken in
    is charged as any take, ``via: floor``), and noted on the step."""
    st, deps = run.state, run.deps
    budget = deps.limits.context_budget_tokens
    blocks = deps.model is not None  # the answer prompt shows each passage in a block: its room is held too

    def cost(evidence_id: str, tokens: int) -> int:
        return tokens + (block_tokens(deps.marker, evidence_id) if blocks else 0)

    packed = flat_pack([passage_tokens(f.passage) for f in found], budget)[:budget // FLOOR_TOKENS_PER_HIT]
    flat = []
    for at in packed:
        passage = found[at].passage
        flat.append(Flat(passage.evidence_id, text_key(passage.text), cost(passage.evidence_id,
                                                                           passage_tokens(passage)),
                         run.scorer.passage(passage), found[at].rank))
    held = []
    for hit in st.pack.fetched:
        chosen = walk.taken[hit.evidence_id]
        held.append(Held(hit.evidence_id, text_key(hit.text), cost(hit.evidence_id, hit.tokens or 0), chosen.score,
                         movable=chosen.via != "seed"))
    made = swaps(held, flat, budget, st.budget.tokens_left, run.scorer.top)
    passages = {f.passage.evidence_id: f.passage for f in found}
    for swap in made:
        for take in swap.displaced:
            tokens = st.pack.give_back(take.id).tokens or 0
            del walk.taken[take.id]
            st.usage.context_tokens -= tokens
            if blocks:  # and the room held for its block
                st.budget.reserve(st.budget.reserved - (take.cost - tokens))
        passage = passages[swap.hit.id]
        chosen = walk.priced(run, passage, swap.hit.worth, 0, "floor", None, swap.hit.worth)
        st.frontier.mark(chosen)
        walk.take(run, chosen, passage, depth=0, step=None)
        run.note.floor.append(FloorSwap(taken=swap.hit.id, rank=swap.hit.rank, worth=round(swap.hit.worth, 3),
                                        displaced=[t.id for t in swap.displaced]))
    return run.note.floor
