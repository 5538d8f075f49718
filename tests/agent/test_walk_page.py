"""The walks page describes the floor the code applies (``clew.agent.floor``)."""

from clew.agent import floor
from tests.conftest import ROOT


def test_the_walks_page_says_the_flat_packs_first_hit_may_displace_a_seed_hit() -> None:
    """Since task W5 (F1b) the flat pack's first ``FLOOR_FIRST`` hit comes in whatever its worth, in place of
    seed hits too; the page said "a seed hit is never displaced" (task V16)."""
    page = " ".join((ROOT / "docs" / "concepts" / "walks.md").read_text().split())
    walk = [floor.Held("seed", "seed", 100, 20, movable=False), floor.Held("low seed", "low seed", 100, 19,
                                                                        movable=False)]
    made = floor.swaps(walk, [floor.Flat("first", "first", 100, 1, rank=1)], budget=1000, room=0, best=20)
    assert [[t.id for t in s.displaced] for s in made] == [["low seed"]]  # a seed hit displaced, worth aside
    assert floor.FLOOR_FIRST == 1 and "a seed hit is never displaced." not in page
    assert "but by the flat pack's first hit, which comes in whatever its worth" in page
