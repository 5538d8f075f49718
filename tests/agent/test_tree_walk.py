"""The tree walk descends: from a start or a hit, down sections, subsections and user-graph documents."""

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.agent.api import retrieve
from clew.agent.evidence import text_key
from clew.agent.prompts import shown_ids
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.store import Corpus
from clew.errors import InputError

from ..conftest import FIXTURES, SQLITE_DOCS, Prebuilt, build_sqlite_docs, needs_sqlite_docs, write_files

RUNBOOK = FIXTURES / "runbook" / "deployment-guide.md"


def run(corpus: Corpus, request: dict):  # noqa: ANN201
    return asyncio.run(retrieve({**request, "include_steps": True}, corpus=corpus))


def tree(query: str, collection: str, limit: int = 10, **navigation: object) -> dict:
    return {"query": query, "queries": [{"collection": collection, "limit": limit}],
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked", **navigation}}}}


def build_runbook(folder: Path) -> None:
    with Corpus(folder / "runbook.duckdb") as corpus:
        ingest_paths(corpus, [RUNBOOK], collection="ops", chunk_tokens=220)


@pytest.fixture
def runbook(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    with Corpus(prebuilt(build_runbook, tmp_path) / "runbook.duckdb") as corpus:
        yield corpus


def test_the_runbook_walk_descends_into_subsections_and_returns_their_passages(runbook: Corpus) -> None:
    result = run(runbook, tree("Compare recovery options across the deployment runbook", "ops",
                               index="section_hierarchy", start_key="deployment-guide.md", max_depth=5, beam_width=3))
    assert result.status == "ok"
    deep = [h for h in result.hits if h.depth is not None and h.depth >= 2]
    assert deep, [(h.depth, h.heading_path) for h in result.hits]
    recovery = {h.heading_path[-1] for h in deep if h.heading_path[-2:-1] == ["Recovery"]}
    # "Recovery" has four children (its own passage and three subsections): beam_width=3 keeps
    # the three that match the question best, the two options that name a "recovery option" among them
    assert {"Rolling back", "Restoring from backup"} <= recovery
    # opening a node is one tool call, recorded as a move in the tree with its depth and origin
    opened = [s for s in result.steps if s.tool == "navigate_document_tree(children)"]
    assert len(opened) >= 3 and result.usage.tool_calls == 1 + len(opened)
    moves = [s.tree_navigation for s in result.steps if s.state == "visit"]
    assert all(m is not None for m in moves) and max(m.depth for m in moves) >= 2
    assert any(m.branched_from is not None and m.branched_from.startswith("ev1:s:") for m in moves)


def test_beam_width_and_max_depth_bound_each_level(runbook: Corpus) -> None:
    result = run(runbook, tree("recovery options rollback backup failover canary", "ops",
                               start_key="deployment-guide.md", max_depth=3, beam_width=2))
    assert max(h.depth for h in result.hits) <= 3
    children: dict[str, int] = {}
    for step in result.steps:
        if step.state == "visit" and step.tree_navigation.branched_from is not None:
            children[step.tree_navigation.branched_from] = children.get(step.tree_navigation.branched_from, 0) + 1
    # each opened node put at most beam_width=2 of its children in the frontier
    opened = {s.chosen[0] for s in result.steps if s.tool == "navigate_document_tree(children)"}
    assert all(children.get(node, 0) <= 2 for node in opened)
    wide = run(runbook, tree("recovery options rollback backup failover canary", "ops",
                             start_key="deployment-guide.md", max_depth=3, beam_width=20))
    assert len(wide.hits) > len(result.hits)


SIBLINGS = """# Field notes

These notes collect what the crews learned this season.

## Alpha site

The alpha beacon and the beta beacon both sit on the alpha ridge, beta first.

The road to the site is closed in winter.

## Beta site

The beta beacon alone marks the second site.
"""


def test_a_sibling_left_behind_is_visited_when_it_scores_better(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "notes", {"notes.md": SIBLINGS})
    with Corpus(tmp_path / "notes.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="notes", chunk_tokens=24)
        result = run(corpus, tree("alpha beta beacon", "notes", start_key="notes.md", beam_width=3, max_depth=3))
    order = [h.text for h in result.hits]
    first_alpha = next(i for i, t in enumerate(order) if "alpha ridge" in t)
    beta = next(i for i, t in enumerate(order) if "second site" in t)
    road = next(i for i, t in enumerate(order) if "road to the site" in t)
    # the walk opened "Alpha site", took its best passage, then came back up to its sibling
    # "Beta site" (which scores better) before the weaker passage left behind under "Alpha site"
    assert first_alpha < beta < road


def test_root_nodes_start_the_walk(runbook: Corpus) -> None:
    result = run(runbook, tree("snapshot restore", "ops", start_nodes="$roots", max_depth=3))
    first = result.hits[0]
    assert (first.via, first.depth, first.document_key) == ("start", 0, "deployment-guide.md")
    assert result.steps[1].offered[0].startswith("ev1:c:") and any(
        o.startswith("ev1:s:") for o in result.steps[1].offered)


HANDBOOK = {
    "index.md": "# Handbook\n\nThe handbook for new staff: start here.\n",
    "setup.md": "# Setup\n\nInstall the laptop image and enrol the badge.\n",
    "travel.md": "# Travel\n\nBook trains through the travel desk.\n",
    "expenses.md": "# Expenses\n\nClaim travel expenses within thirty days with the receipts attached.\n",
}
EDGES = [
    {"graph": "handbook", "src": "index.md", "dst": "setup.md", "type": "child"},
    {"graph": "handbook", "src": "index.md", "dst": "travel.md", "type": "child"},
    {"graph": "handbook", "src": "travel.md", "dst": "expenses.md", "type": "child"},
]


def build_handbook(folder: Path) -> None:
    with Corpus(folder / "handbook.duckdb") as corpus:
        ingest_paths(corpus, [write_files(folder / "handbook", HANDBOOK)], collection="staff", chunk_tokens=64)
        ingest_edges(corpus, "\n".join(json.dumps(e) for e in EDGES), collection="staff")


@pytest.fixture
def handbook(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    with Corpus(prebuilt(build_handbook, tmp_path) / "handbook.duckdb") as corpus:
        yield corpus


def test_a_user_graph_tree_descends_document_to_document(handbook: Corpus) -> None:
    result = run(handbook, tree("travel expenses receipts", "staff", index="handbook", start_key="index.md"))
    depth = {h.document_key: h.depth for h in result.hits}
    assert depth["index.md"] == 0 and depth["travel.md"] >= 1 and depth["expenses.md"] > depth["travel.md"]
    assert result.applied["index"] == "handbook"


def test_roots_of_a_user_graph_are_the_documents_no_edge_points_at(handbook: Corpus) -> None:
    result = run(handbook, tree("travel expenses receipts", "staff", index="handbook", start_nodes="$roots"))
    assert (result.hits[0].document_key, result.hits[0].via) == ("index.md", "start")
    assert {h.document_key for h in result.hits} >= {"travel.md", "expenses.md"}


def test_an_unknown_user_tree_is_an_input_error_naming_the_field(handbook: Corpus) -> None:
    with pytest.raises(InputError) as caught:
        run(handbook, tree("travel", "staff", index="nosuch", start_key="index.md"))
    assert caught.value.field == "steps.retrieval.navigation.index"


def test_agentic_selection_without_a_model_is_an_input_error(runbook: Corpus) -> None:
    with pytest.raises(InputError) as caught:
        run(runbook, tree("recovery", "ops", selection="agentic"))
    assert caught.value.field == "steps.retrieval.navigation.selection"


REPEATED = "The `save-exact` option saves dependencies with an exact version instead of a range."


def test_the_pack_never_holds_the_same_text_twice(tmp_path: Path) -> None:
    pages = {f"cmd-{n}.md": f"# npm {n}\n\n## Description\n\nThe {n} command does its own thing.\n\n"
                             f"## save-exact\n\n{REPEATED}\n" for n in ("install", "update", "dedupe", "ci")}
    folder = write_files(tmp_path / "docs", pages)
    with Corpus(tmp_path / "docs.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=24)
        result = run(corpus, tree("save-exact exact version", "docs"))
    keys = [text_key(h.text) for h in result.hits]
    assert len(keys) == len(set(keys))
    assert sum(REPEATED in h.text for h in result.hits) == 1
    assert any(s.detail and s.detail.startswith("same text as") for s in result.steps) or len(result.hits) < 8


FIELDED = {
    "a.md": "---\nowner: ops\nstatus: published\nagent_instructions: Cite the owner.\n---\n# A\n\nThe cold room "
    "holds spares.\n",
    "b.md": "---\nowner: hr\nstatus: published\n---\n# B\n\nThe cold room key is at the desk.\n",
}


def test_the_fields_projection_applies_to_what_the_walk_returns(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "fielded", FIELDED)
    with Corpus(tmp_path / "fielded.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="f", chunk_tokens=64)
        request = tree("cold room", "f", instruction_field="agent_instructions")
        request["queries"][0]["fields"] = ["owner", "agent_instructions"]
        result = run(corpus, request)
        assert {h.document_key: h.fields for h in result.hits} == {
            "a.md": {"owner": "ops", "agent_instructions": "Cite the owner."}, "b.md": {"owner": "hr"}}
        assert [i.text for i in result.instructions] == ["Cite the owner."]
        plain = run(corpus, tree("cold room", "f"))
        assert all(h.fields == {} for h in plain.hits)
        narrowed = tree("cold room", "f", instruction_field="agent_instructions")
        narrowed["queries"][0]["fields"] = ["owner"]
        with pytest.raises(InputError) as caught:
            run(corpus, narrowed)
        assert caught.value.field == "steps.retrieval.navigation.instruction_field"


def test_a_graph_walk_over_the_section_hierarchy_moves_parent_to_child(runbook: Corpus) -> None:
    request = {
        "query": "recovery options",
        "queries": [{"collection": "ops", "limit": 5}],
        "steps": {
            "retrieval": {
                "navigation": {
                    "strategy": "graph",
                    "selection": "ranked",
                    "index": "section_hierarchy",
                    "start_key": "deployment-guide.md",
                    "max_steps": 3,
                }
            }
        },
    }
    result = run(runbook, request)
    paths = [h.heading_path for h in result.hits]
    assert len(paths) >= 3
    for parent, child in zip(paths[1:], paths[2:]):
        assert child[:len(parent)] == parent and len(child) == len(parent) + 1
    moves = [s.graph_navigation for s in result.steps if s.state == "visit"]
    assert [m.step for m in moves] == list(range(len(moves)))
    assert all(m.relationship == "section_hierarchy:child" for m in moves[1:])


@needs_sqlite_docs
def test_a_ranked_walk_fills_its_budget_on_the_dev_corpus(tmp_path: Path, prebuilt: Prebuilt) -> None:
    """At 4,000 and 8,000 tokens the walk takes passages until its budget is full (>= 90%),
    not until an iteration count meant for model turns runs out."""
    questions = [json.loads(line) for line in (SQLITE_DOCS / "questions.jsonl").read_text().splitlines()][:10]
    with Corpus(prebuilt(build_sqlite_docs, tmp_path) / "sqlite-docs.duckdb") as corpus:  # 220-token chunks
        for budget in (4000, 8000):
            fills = []
            for q in questions:
                request = {"query": q["question"], "queries": [{"collection": "sqlite"}],
                           "context_budget_tokens": budget,
                           "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
                result = run(corpus, request)
                assert result.usage.context_tokens <= budget
                fills.append(result.usage.context_tokens / budget)
            assert sum(fills) / len(fills) >= 0.9, (budget, fills)
            assert result.applied["max_internal_iterations"] == max(100, budget // 20)
            assert result.applied["query_limits"] == [budget // 80]


def test_a_walk_seeded_by_hybrid_search_prices_by_embedding_similarity_too(runbook: Corpus) -> None:
    from clew.corpus.embedders import embedder_from_name
    from clew.corpus.search.embedding import embed_missing

    embed_missing(runbook, embedder_from_name("hashing"))
    lexical = run(runbook, tree("restoring a database from backup", "ops"))
    hybrid = tree("restoring a database from backup", "ops")
    hybrid["queries"][0]["hybrid"] = {}
    semantic = run(runbook, hybrid)
    assert semantic.status == "ok" and semantic.hits
    plain = {h.evidence_id: h.score for h in lexical.hits}
    shared = [h for h in semantic.hits if h.evidence_id in plain]
    # the same passage is priced differently: its BM25 worth plus the best seed's worth times its
    # cosine with the question (test_the_scorer_adds_... checks the sum exactly)
    assert shared and any(h.score > plain[h.evidence_id] for h in shared)
    assert lexical.steps[1].tool == semantic.steps[1].tool == "search"


def test_the_scorer_adds_similarity_scaled_by_the_best_seed(runbook: Corpus) -> None:
    import numpy as np

    from clew.agent.scoring import VECTOR_WEIGHT, Scorer
    from clew.corpus.embedders import embedder_from_name
    from clew.corpus.reader import Scope
    from clew.corpus.search.embedding import embed_missing

    embedder = embedder_from_name("hashing")
    embed_missing(runbook, embedder)
    scope = Scope(runbook, collection="ops")
    doc = scope.document_by_key("deployment-guide.md")
    scorer = Scorer(scope, "snapshot restore")
    without = [scorer.of(doc, o) for o in range(len(doc.skeleton.chunks))]
    scorer.top = 10.0
    query = embedder.embed(["snapshot restore"])[0]
    scorer.use_vectors(embedder.name, query)
    stored = runbook.cursor().execute(
        "SELECT ordinal, vector FROM embeddings WHERE document_id = ? ORDER BY ordinal", [doc.document_id]).fetchall()
    for ordinal, vector in stored:
        cosine = float(np.asarray(vector) @ (query / np.linalg.norm(query)))
        assert scorer.of(doc, ordinal) == pytest.approx(without[ordinal] + VECTOR_WEIGHT * 10.0 * cosine, rel=1e-5)


def test_a_ranked_walk_with_a_generator_does_not_count_its_evidence_twice(runbook: Corpus) -> None:
    """The evidence is charged when the walk takes it; the answer prompt adds only its own words."""
    from clew.testing import FunctionModel, reply_text

    def answer(messages: list[dict], tools: list[dict] | None) -> dict:
        first = shown_ids(messages[-1]["content"])[0]
        return reply_text(f"Roll back first [{first}].")

    request = tree("how do I recover from a failed deployment", "ops", start_key="deployment-guide.md")
    request["context_budget_tokens"] = 900
    model = FunctionModel(answer)
    result = asyncio.run(retrieve(request, corpus=runbook, model=model))
    assert result.status == "ok" and result.generation is not None and result.generation.citations
    evidence = result.usage.context_tokens
    from clew.budgets.tokens import count_tokens

    sent = sum(count_tokens(m["content"]) for m in model.requests[0].messages)  # the answer prompt, evidence included
    # the evidence already charged plus the whole prompt would not have fit: it was counted once
    assert evidence + sent > 900 >= sent and evidence > 250


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 20])
def test_every_tool_operation_is_charged_before_it_runs(runbook: Corpus, monkeypatch: pytest.MonkeyPatch,
                                                        cap: int) -> None:
    """Searches, node openings and link expansions are counted as they execute: never more than charged."""
    import clew.agent.tree as tree_module
    import clew.agent.walk as walk_module

    executed: list[str] = []

    def counting(name: str, function):  # noqa: ANN001, ANN202
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            executed.append(name)
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(walk_module, "search_passages", counting("search", walk_module.search_passages))
    monkeypatch.setattr(tree_module, "tree_children", counting("open", tree_module.tree_children))
    monkeypatch.setattr(tree_module, "link_targets", counting("links", tree_module.link_targets))
    request = tree("recovery rollback backup failover canary snapshot", "ops", start_key="deployment-guide.md")
    request["max_tool_calls"] = cap
    result = run(runbook, request)
    assert len(executed) == result.usage.tool_calls <= cap
    if cap < 5:
        assert (result.status, result.stop_reason) == ("incomplete", "max_tool_calls")
