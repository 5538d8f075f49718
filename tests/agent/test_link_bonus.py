"""A link target's bonus (a share of the linking passage's worth) shrinks below a 2,000-token budget."""

from pathlib import Path

import pytest

from clew.agent.api import retrieve_sync
from clew.agent.scoring import LINK_BONUS, LINK_BONUS_TOKENS, link_bonus
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import write_files

DOCS = {
    "checkpoints.md": "# Checkpoints\n\nA checkpoint flushes dirty pages to disk; how often a checkpoint runs is set "
                      "by the checkpoint timeout, as [the background writer](writer.md) explains.\n",
    "tuning.md": "# Tuning\n\nHow often a checkpoint runs decides how long crash recovery takes.\n",
    "writer.md": "# Background writer\n\nThe background writer writes a few pages to disk each round.\n",
}


def test_the_link_bonus_is_whole_from_its_budget_up_and_in_proportion_below() -> None:
    assert link_bonus(LINK_BONUS_TOKENS) == link_bonus(8000) == LINK_BONUS
    assert link_bonus(LINK_BONUS_TOKENS // 2) == pytest.approx(LINK_BONUS / 2)


def test_at_a_small_budget_a_seed_hit_goes_before_a_weaker_link_target(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", DOCS)
    order = {}
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs")
        for budget in (1000, 2000):
            request = {"query": "how often does a checkpoint flush dirty pages", "include_steps": True,
                       "queries": [{"collection": "docs", "limit": 2}], "context_budget_tokens": budget,
                       "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
            hits = retrieve_sync(request, corpus=corpus).hits
            order[budget] = [(h.document_key, h.via) for h in hits]
    first = ("checkpoints.md", "seed")
    # the second seed hit (own worth 1.58) against the first hit's link target (0.74, plus 0.3 of the
    # first hit's 4.94 at 2,000 tokens, 0.15 of it at 1,000): all three fit either budget, the order differs
    assert order[2000] == [first, ("writer.md", "links"), ("tuning.md", "seed")]
    assert order[1000] == [first, ("tuning.md", "seed"), ("writer.md", "links")]
