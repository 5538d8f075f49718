"""The walk's floor: a ranked walk ends holding its seed search's flat hits where they are worth more
than its weakest takes (``clew.agent.floor``)."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

import clew.agent.floor as floor
from clew.agent.api import retrieve, retrieve_sync
from clew.agent.evidence import Pack
from clew.agent.floor import FLOOR_TOKENS_PER_HIT, Flat, Held, flat_pack, swaps
from clew.agent.prompts import shown_ids
from clew.agent.result import EvidenceHit, RetrievalResult
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import Prebuilt, write_files


def held(name: str, worth: float, cost: int = 100, *, seed: bool = False) -> Held:
    return Held(name, f"text of {name}", cost, worth, movable=not seed)


def flat(name: str, worth: float, cost: int = 100, rank: int = 1) -> Flat:
    return Flat(name, f"text of {name}", cost, worth, rank)


# -- the rule, on its own --------------------------------------------------------------------


def test_a_flat_hit_worth_more_displaces_the_lowest_worth_link_target() -> None:
    walk = [held("seed", 20, seed=True), held("strong", 12), held("link", 3)]
    made = swaps(walk, [flat("seed", 20), flat("hit", 10, rank=2)], budget=1000, room=0, best=20)
    assert [(s.hit.id, [t.id for t in s.displaced]) for s in made] == [("hit", ["link"])]


def test_a_seed_hit_is_never_displaced_but_by_the_searchs_first() -> None:
    walk = [held("seed", 20, seed=True), held("weak seed", 2, seed=True)]
    assert swaps(walk, [flat("seed", 20), flat("hit", 10, rank=2)], budget=1000, room=0, best=20) == []


def test_the_searchs_first_hit_comes_in_whatever_its_worth_in_place_of_lower_seed_hits() -> None:
    # task W5, git-025: X24 puts the page the question names first (git-revert(1), worth 25.3); the walk
    # took a guide's passages worth 30-40, those in the flat pack kept, the rest seed hits ranked lower
    walk = [held("guide", 40, 137, seed=True), held("child", 33, 210), held("low seed", 30, 95, seed=True),
            held("seed 7th", 32.7, 191, seed=True)]
    hits = [flat("named page", 25, 216), flat("guide", 40, 137, rank=3), flat("child", 33, 210, rank=5)]
    made = swaps(walk, hits, budget=1000, room=18, best=40)
    assert [(s.hit.id, [t.id for t in s.displaced]) for s in made] == [("named page", ["low seed", "seed 7th"])]
    # below the least share of the best seed hit, and within the margin, it still comes in
    assert swaps([held("seed", 20, seed=True), held("link", 19)], [flat("hit", 1)], budget=1000, room=0, best=20)


def test_no_flat_hit_below_least_of_the_best_seed_comes_in() -> None:
    walk = [held("seed", 20, seed=True), held("link", 1)]
    below = 20 * floor.FLOOR_LEAST - 0.01
    assert swaps(walk, [flat("seed", 20), flat("hit", below, rank=2)], budget=1000, room=0, best=20) == []
    assert len(swaps(walk, [flat("seed", 20), flat("hit", below + 0.02, rank=2)], budget=1000, room=0, best=20)) == 1


def test_a_take_within_the_margin_stays() -> None:
    walk = [held("seed", 20, seed=True), held("link", 9.5)]
    first = flat("seed", 20)
    assert swaps(walk, [first, flat("hit", 9.5 * floor.FLOOR_MARGIN, rank=2)], budget=1000, room=0, best=20) == []
    assert len(swaps(walk, [first, flat("hit", 9.5 * floor.FLOOR_MARGIN + 0.01, rank=2)], budget=1000, room=0,
                     best=20)) == 1


def test_one_hit_displaces_at_most_two_takes() -> None:
    walk = [held("seed", 20, seed=True), held("a", 1, 50), held("b", 2, 50), held("c", 3, 50)]
    assert swaps(walk, [flat("hit", 10, 150)], budget=1000, room=0, best=20) == []
    made = swaps(walk, [flat("hit", 10, 100)], budget=1000, room=0, best=20)
    assert [t.id for t in made[0].displaced] == ["a", "b"]


def test_only_the_flat_packs_first_hits_come_in_and_never_displace_each_other() -> None:
    budget = 3 * FLOOR_TOKENS_PER_HIT  # three of the flat pack's hits may come in
    walk = [held("seed", 20, seed=True), held("l1", 1), held("l2", 1.5), held("l3", 2), held("l4", 2.5)]
    hits = [flat("seed", 20), flat("h1", 9, rank=2), flat("h2", 8, rank=3), flat("h3", 7, rank=4)]
    made = swaps(walk, hits, budget=budget, room=0, best=20)
    assert [(s.hit.id, [t.id for t in s.displaced]) for s in made] == [("h1", ["l1"]), ("h2", ["l2"])]


def test_a_hit_whose_text_the_walk_holds_is_not_taken_again() -> None:
    walk = [held("seed", 20, seed=True), Held("other", "text of hit", 100, 2, movable=True)]
    assert swaps(walk, [flat("hit", 10)], budget=1000, room=0, best=20) == []


def test_the_flat_pack_skips_what_does_not_fit_and_goes_on() -> None:
    assert flat_pack([400, 700, 300, 200], 1000) == [0, 2, 3]


def test_a_passage_given_back_leaves_the_pack_and_the_ledger() -> None:
    pack = Pack()
    for name in ("a", "b"):
        pack.take(EvidenceHit(evidence_id=name, document_key=f"{name}.md", collection="docs", heading_path=[],
                              text=f"text of {name}", tokens=3))
    assert pack.give_back("a").evidence_id == "a"
    assert not pack.ledger.fetched("a") and pack.ledger.ids == ["b"] and [h.evidence_id for h in pack.fetched] == ["b"]
    assert pack.texts == {"text of b": "b"}  # its text may be taken again


# -- in the walk ------------------------------------------------------------------------------

FILLER = " ".join(f"filler{i}" for i in range(1, 400))


def words(n: int) -> str:
    return " ".join(FILLER.split()[:n])


FILES = {
    # the best seed hit, which links to limits.md
    "freezing.md": "# Freezing\n\nThe vacuum freeze horizon: vacuum freezes old rows past the freeze horizon, and "
                   "a vacuum freeze of every table keeps the horizon moving; see [limits](limits.md). "
                   f"{words(200)}\n",
    # the link target: little of the question, ahead of the second seed hit by its link bonus
    "limits.md": "# Limits\n\nA table past its freeze limits is read again by vacuum for old rows. "
                 f"{words(300)}\n",
    # the second seed hit, worth more than the link target on its own
    "wraparound.md": "# Wraparound\n\nA freeze of old rows stops wraparound: the horizon of a table moves when "
                     f"vacuum freezes its rows. {words(380)} {words(220)}\n",
}
QUESTION = "vacuum freeze horizon of old rows"


def build_files(folder: Path) -> None:
    """FILES in docs (one chunk a page), built once a session (``prebuilt``) for every test of the fixture below."""
    with Corpus(folder / "c.duckdb") as corpus:
        ingest_paths(corpus, [write_files(folder / "docs", FILES)], collection="docs", chunk_tokens=2000)


@pytest.fixture
def corpus(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    with Corpus(prebuilt(build_files, tmp_path) / "c.duckdb") as corpus:
        yield corpus


def request(budget: int = 2000, **navigation: object) -> dict:
    return {"query": QUESTION, "include_steps": True, "queries": [{"collection": "docs", "limit": 3}],
            "context_budget_tokens": budget,
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked", **navigation}}}}


def by_doc(result: RetrievalResult) -> dict[str, str | None]:
    return {h.document_key: h.via for h in result.hits}


def test_the_floor_takes_a_seed_hit_in_place_of_a_weaker_link_target(corpus: Corpus,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(floor, "FLOOR_TOKENS_PER_HIT", 10**9)  # no flat hit may come in: the walk as it took
    before = retrieve_sync(request(), corpus=corpus)
    monkeypatch.undo()
    result = retrieve_sync(request(), corpus=corpus)
    # the link target went first on its link bonus; the second seed hit no longer fitted
    assert by_doc(before) == {"freezing.md": "seed", "limits.md": "links"}
    assert by_doc(result) == {"freezing.md": "seed", "wraparound.md": "floor"}
    link = next(h for h in before.hits if h.via == "links")
    hit = next(h for h in result.hits if h.via == "floor")
    assert hit.score is not None and link.score is not None and hit.score > floor.FLOOR_MARGIN * link.score
    # the trace names the swap, on the step where the walk ended
    [step] = [step for step in result.steps or [] if step.floor]
    assert step.state == "offer" and step.next_state == "generate"
    assert [s.model_dump() for s in step.floor] == [
        {"taken": hit.evidence_id, "rank": 2, "worth": hit.score, "displaced": [link.evidence_id]}]
    # budget and ledger: what is held is what is charged, and only it is cited
    assert result.usage.context_tokens == sum(h.tokens or 0 for h in result.hits) <= 2000
    assert result.usage.context_tokens == before.usage.context_tokens - (link.tokens or 0) + (hit.tokens or 0)
    assert result.generation is not None and result.generation.citations
    assert {c.evidence_id for c in result.generation.citations} <= {h.evidence_id for h in result.hits}
    # the stop is the context budget's, as before, and says what the floor left
    assert (result.status, result.stop_reason) == (before.status, before.stop_reason) == ("incomplete",
                                                                                         "context_budget")
    assert result.detail == "context budget full (1,664 of context_budget_tokens=2,000): 336 tokens were left " \
        "after the floor's swaps"


def test_the_result_is_identical_when_no_flat_hit_qualifies(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(floor, "FLOOR_TOKENS_PER_HIT", 10**9)
    without = retrieve_sync(request(), corpus=corpus).model_dump()
    # the second seed hit is worth about half the best: above least 0.4, not above 0.6
    monkeypatch.setattr(floor, "FLOOR_TOKENS_PER_HIT", 200)
    monkeypatch.setattr(floor, "FLOOR_LEAST", 0.6)
    assert retrieve_sync(request(), corpus=corpus).model_dump() == without


def test_a_walk_from_a_named_start_has_no_floor(corpus: Corpus) -> None:
    result = retrieve_sync(request(start_key="freezing.md"), corpus=corpus)
    assert "floor" not in by_doc(result).values()
    assert not any(step.floor for step in result.steps or [])


def test_with_a_generator_the_answer_prompt_shows_what_the_floor_left(corpus: Corpus) -> None:
    from clew.testing import FunctionModel, reply_text

    def answer(messages: list[dict], tools: list[dict] | None) -> dict:
        return reply_text(f"Vacuum freezes old rows [{shown_ids(messages[-1]['content'])[0]}].")

    model = FunctionModel(answer)
    result = asyncio.run(retrieve(request(2100), corpus=corpus, model=model))
    assert by_doc(result) == {"freezing.md": "seed", "wraparound.md": "floor"}
    assert shown_ids(model.requests[0].messages[-1]["content"]) == [h.evidence_id for h in result.hits]
    assert result.generation is not None and result.generation.kind == "model"
    assert [c.evidence_id for c in result.generation.citations] == [result.hits[0].evidence_id]
