"""A seed hit's neighbours (the passages right before and after it) compete in the walk at once."""

from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.agent.result import EvidenceHit
from clew.agent.scoring import NEIGHBOUR_BONUS, NEIGHBOUR_FLOOR, neighbour_floor
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

# the hot section's first sentence ends in '.', not ':': a taken lead-in ending in ':' offers the list
# opening the next passage as its own neighbour (task W6); this test is about the seed hit's neighbours
JOURNAL = """# Journals

## When a journal is hot

A rollback journal is hot, and must be played back, when all of these hold.

- the hot rollback journal exists and its size is greater than 512 bytes
- no reserved lock is held on the database and the rollback journal names no super-journal

## Playing back

Before reading a database, a process that finds a hot rollback journal plays it back, as
[recovery](recovery.md) tells.
"""

RECOVERY = """# Recovery

A process recovers after a crash by reading the database file again.
"""


def test_the_passage_before_a_seed_hit_in_another_section_competes_at_its_own_worth(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"journal.md": JOURNAL, "recovery.md": RECOVERY})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
        # 2,000 tokens: below that the link bonus shrinks (``clew.agent.scoring.link_bonus``)
        request = {"query": "when does a process play back a hot rollback journal", "include_steps": True,
                   "queries": [{"collection": "docs", "limit": 1}], "context_budget_tokens": 2000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        hits = retrieve_sync(request, corpus=corpus).hits
    seed = next(h for h in hits if h.via == "seed")
    assert "Playing back" in seed.text
    order = [h.evidence_id for h in hits]
    listed = next(h for h in hits if "512 bytes" in h.text)
    linked = next(h for h in hits if "recovers after a crash" in h.text)
    # the list right before the hit (another section's end) is offered by the hit itself, at its
    # own worth: the link target the hit offers too, which scores less on its own, goes first with
    # its link bonus (with the neighbour bonus the list went first: issue 36, task R)
    assert (listed.via, listed.origin) == ("adjacent", seed.evidence_id)
    assert (linked.via, linked.origin) == ("links", seed.evidence_id)
    assert listed.score is not None and linked.score is not None and listed.score > linked.score
    assert order.index(linked.evidence_id) < order.index(listed.evidence_id)


HOT = """# Journals

## When a journal is hot

A rollback journal is hot, to be played back as [recovery](recovery.md) tells, when these conditions hold:

- the rollback journal exists and its size is greater than 512 bytes, with a nonzero header
- no reserved lock is held on the database and the rollback journal names no super-journal
"""


def test_the_passage_after_a_seed_hit_beats_a_weaker_link_target(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"journal.md": HOT, "recovery.md": RECOVERY})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
        request = {"query": "when is a rollback journal hot", "include_steps": True,
                   "queries": [{"collection": "docs", "limit": 1}], "context_budget_tokens": 1000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        hits = retrieve_sync(request, corpus=corpus).hits
    seed = next(h for h in hits if h.via == "seed")
    assert "conditions hold" in seed.text and "512 bytes" not in seed.text
    order = [h.evidence_id for h in hits]
    listed = next(h for h in hits if "512 bytes" in h.text)
    linked = next(h for h in hits if "recovers after a crash" in h.text)
    # the list the hit introduces (the passage after it, in its section) is reached from the hit's
    # neighbourhood with a bonus for being next to evidence, and goes before the link target the
    # hit offers too, which also scores less on its own
    assert listed.via in ("adjacent", "children")
    assert listed.score is not None and linked.score is not None and listed.score > linked.score
    assert (linked.via, linked.origin) == ("links", seed.evidence_id)
    assert order.index(listed.evidence_id) < order.index(linked.evidence_id)


OLD_RELEASES = """# Old releases

## Warnings

To deprecate a package version, run npm deprecate with the range and a message.

An empty message lifts the warning again: give "" to the same command.
"""

PUBLISH = """# npm publish

## Publishing

Publishing a package version makes it installable; a published version cannot be published again with other contents.
"""


def _deprecate(tmp_path: Path, budget: int) -> list[EvidenceHit]:
    folder = write_files(tmp_path / "docs", {"old.md": OLD_RELEASES, "publish.md": PUBLISH})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=30)
        request = {"query": "how do I deprecate a package version", "include_steps": True,
                   "queries": [{"collection": "docs", "limit": 3}], "context_budget_tokens": budget,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        return retrieve_sync(request, corpus=corpus).hits


def test_a_short_tail_after_a_seed_hit_goes_before_a_weaker_seed_hit(tmp_path: Path) -> None:
    hits = _deprecate(tmp_path, 2000)
    first = hits[0]
    assert (first.via, first.document_key) == ("seed", "old.md")
    tail = next(h for h in hits if "lifts the warning" in h.text)
    other = next(h for h in hits if h.document_key == "publish.md")
    assert (tail.via, tail.origin) == ("adjacent", first.evidence_id)
    assert first.score is not None and tail.score is not None and other.score is not None
    # the tail shares only its heading's words with the question: its own worth plus the neighbour
    # bonus is below the other page's hit, but it goes on with the first hit, so it is worth at
    # least NEIGHBOUR_FLOOR of that hit's priority and goes first (npm-037's 'To un-deprecate ...')
    assert tail.score + NEIGHBOUR_BONUS * first.score < other.score < NEIGHBOUR_FLOOR * first.score
    assert hits.index(tail) < hits.index(other)


def test_under_2000_tokens_the_neighbour_floor_shrinks_and_a_stronger_seed_hit_goes_first(tmp_path: Path) -> None:
    hits = _deprecate(tmp_path, 1000)
    first = hits[0]
    assert (first.via, first.document_key) == ("seed", "old.md")
    tail = next(h for h in hits if "lifts the warning" in h.text)
    other = next(h for h in hits if h.document_key == "publish.md")
    assert first.score is not None and tail.score is not None and other.score is not None
    # at 1,000 tokens (five passages) the tail is worth at least half of what it is from 2,000 up
    # (``neighbour_floor``, as the link bonus shrinks): the other page's hit, worth more on its own,
    # goes first (issue 36, task W2: at 1,000 such neighbours took the room of seed hits holding gold)
    assert neighbour_floor(1000) == NEIGHBOUR_FLOOR / 2 and neighbour_floor(8000) == NEIGHBOUR_FLOOR
    neighbour = max(tail.score + NEIGHBOUR_BONUS * first.score, neighbour_floor(1000) * first.score)
    assert neighbour < other.score < NEIGHBOUR_FLOOR * first.score
    assert hits.index(other) < hits.index(tail)
