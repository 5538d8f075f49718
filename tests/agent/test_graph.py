"""Ranked graph walks over the demo's workflow graph (next, escalates_to) and links."""

import asyncio

from clew.agent.api import retrieve
from clew.corpus.store import Corpus


def walk(corpus: Corpus, query: str, **navigation):  # noqa: ANN003, ANN201
    request = {"query": query, "queries": [{"collection": "runbooks", "limit": 5}],
               "steps": {"retrieval": {"navigation": {"strategy": "graph", "selection": "ranked",
                                                        "index": "workflow", **navigation}}},
               "include_steps": True}
    return asyncio.run(retrieve(request, corpus=corpus))


def documents(result) -> list[str]:  # noqa: ANN001
    return [h.document_key for h in result.hits]


def test_walks_one_path_along_next_edges(runbooks: Corpus) -> None:
    result = walk(runbooks, "incident response", start_key="incident-response.md", edge_types=["next"])
    assert documents(result) == ["incident-response.md", "database-failover.md", "deploy-rollback.md"]
    assert [h.step for h in result.hits] == [0, 1, 2]
    assert all(h.via == "workflow:next" for h in result.hits[1:])
    assert result.status == "ok" and result.stop_reason == "exhausted_frontier"  # a dead end, softly


def test_max_steps_bounds_the_moves(runbooks: Corpus) -> None:
    result = walk(runbooks, "incident response", start_key="incident-response.md", edge_types=["next"], max_steps=1)
    assert documents(result) == ["incident-response.md", "database-failover.md"]
    assert result.stop_reason == "max_steps" and result.applied["max_steps"] == 1


def test_edge_types_choose_the_edges(runbooks: Corpus) -> None:
    result = walk(runbooks, "incident response", start_key="incident-response.md", edge_types=["escalates_to"])
    assert documents(result) == ["incident-response.md", "deploy-rollback.md"]
    assert result.hits[1].via == "workflow:escalates_to"


def test_direction_in_walks_edges_backwards(runbooks: Corpus) -> None:
    result = walk(runbooks, "rolling back a deploy", start_key="deploy-rollback.md", edge_types=["next"],
                  direction="in")
    assert documents(result) == ["deploy-rollback.md", "database-failover.md", "incident-response.md"]
    out = walk(runbooks, "rolling back a deploy", start_key="deploy-rollback.md", edge_types=["next"])
    assert documents(out) == ["deploy-rollback.md"]  # nothing follows the last runbook


def test_neighbor_limit_bounds_each_offer(runbooks: Corpus) -> None:
    both = walk(runbooks, "incident", start_key="incident-response.md", neighbor_limit=1)
    offers = [s for s in both.steps if s.state == "offer" and s.next_state == "select"]
    assert offers and all(len(s.offered) <= 1 for s in offers)
    assert both.applied["neighbor_limit"] == 1
    wide = walk(runbooks, "incident", start_key="incident-response.md", neighbor_limit=8)
    first_offer = [s for s in wide.steps if s.state == "offer" and s.next_state == "select"][1]
    assert len(first_offer.offered) == 2  # next and escalates_to lead to two runbooks


def test_a_cycle_ends_softly(runbooks: Corpus) -> None:
    result = walk(runbooks, "incident", start_key="incident-response.md", edge_types=["next"], direction="both",
                  max_steps=20)
    keys = documents(result)
    assert len(keys) == len(set(keys)) == 3  # never revisits, ends when nothing new is reachable
    assert result.status == "ok"
