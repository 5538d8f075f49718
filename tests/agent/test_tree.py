"""Ranked tree walks (no model): beam width, depth, coming back to siblings, budgets."""

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.agent.api import retrieve
from clew.agent.scoring import NEIGHBOUR_FLOOR
from clew.corpus.access import Principal
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import Prebuilt
from .conftest import tree_request


def run(corpus: Corpus, request: dict):  # noqa: ANN201
    return asyncio.run(retrieve({**request, "include_steps": True}, corpus=corpus))


def by_id(result) -> dict:  # noqa: ANN001
    return {h.evidence_id: h for h in result.hits}


def test_walk_expands_sections_within_beam_and_depth(playbook: Corpus) -> None:
    request = tree_request("backup freezer alarm perishables", "ops", beam_width=2, max_depth=1)
    request["queries"][0]["limit"] = 1
    result = run(playbook, request)
    assert result.status == "ok" and result.stop_reason == "exhausted_frontier"
    depths = [h.depth for h in result.hits]
    assert depths[0] == 0 and max(depths) == 1
    # the seed's expansion offered at most beam_width=2 children; depth 1 is not expanded further
    assert sum(1 for h in result.hits if h.depth == 1) == 2
    expansions = [s for s in result.steps if s.tool == "navigate_document_tree(children)"]
    assert len(expansions) == 1
    assert result.applied["beam_width"] == 2 and result.applied["max_depth"] == 1
    # every passage reached is in the seed's own section
    assert all(h.heading_path[-1] == "Cold storage" for h in result.hits)


def test_unvisited_siblings_stay_in_the_frontier_and_the_walk_comes_back(playbook: Corpus) -> None:
    request = tree_request("backup freezer key dock office", "ops", beam_width=3, max_depth=2)
    request["queries"][0]["limit"] = 1
    result = run(playbook, request)
    visits = [s for s in result.steps if s.state == "visit"]
    order = [s.chosen[0] for s in visits]
    # the first expansion offered three siblings; after a deeper visit, the walk still comes back to them
    first_children = [h.evidence_id for h in result.hits if h.depth == 1]
    assert len(first_children) >= 2
    assert order.index(first_children[-1]) > order.index(first_children[0])
    assert len(set(order)) == len(order)  # nothing is visited twice


def test_depth_zero_is_the_start_key(playbook: Corpus) -> None:
    result = run(
        playbook, tree_request("returns on tuesdays", "ops", start_key="playbook.md", max_depth=1, beam_width=1)
    )
    first = result.hits[0]
    assert first.depth == 0 and first.via == "start" and first.heading_path == ["Warehouse playbook", "Loading dock"]


def test_a_context_budget_stop_says_what_the_packing_after_it_spent(runbooks: Corpus) -> None:
    """At 360 tokens the best passage left (142 tokens) stops fitting with 276 used; the walk then packs smaller
    found passages: the stop's detail counts them, as its usage does (it said 276 and 84 left, usage 321)."""
    request = tree_request("incident severity database failover replica deploy rollback", "runbooks")
    request["context_budget_tokens"] = 360
    result = run(runbooks, request)
    used = result.usage.context_tokens
    assert result.stop_reason == "context_budget" and result.detail is not None and used > 276
    assert result.detail == (f"context budget full ({used} of context_budget_tokens=360): the next best passage "
                             f"needs 142 tokens, {360 - used} were left")


def test_max_depth_bounds_what_is_offered(playbook: Corpus) -> None:
    shallow = run(playbook, tree_request("dock", "ops", max_depth=1, beam_width=20))
    assert max(h.depth for h in shallow.hits) <= 1


def test_a_ranked_walk_that_fills_its_context_budget_says_so_and_spends_no_more_tool_calls(runbooks: Corpus) -> None:
    request = tree_request("incident severity database failover replica deploy rollback", "runbooks")
    request["context_budget_tokens"] = 256
    result = run(runbooks, request)
    assert (result.status, result.stop_reason) == ("incomplete", "context_budget")  # candidates were left
    assert result.hits and result.usage.context_tokens <= 256
    assert result.detail is not None and result.detail.startswith("context budget full (")
    assert "context_budget_tokens=256" in result.detail
    assert result.summary.candidates_left > 0 and result.usage.tool_calls < 20
    assert result.stop_line().startswith(f"incomplete: context budget full ({result.usage.context_tokens} of 256 "
                                         f"tokens), {result.summary.candidates_left} candidate")
    assert result.generation is not None and result.generation.citations
    assert result.steps[-1].next_state == "incomplete"
    full = next(i for i, s in enumerate(result.steps) if s.detail and s.detail.startswith("context budget full"))
    assert all(s.tool is None for s in result.steps[full:])  # once full, only what was found is packed


def test_a_walk_whose_tool_calls_run_out_with_room_left_says_max_tool_calls(runbooks: Corpus) -> None:
    request = tree_request("incident severity database failover replica deploy rollback", "runbooks")
    request.update(context_budget_tokens=8192, max_tool_calls=2)
    result = run(runbooks, request)
    assert (result.status, result.stop_reason) == ("incomplete", "max_tool_calls")
    assert result.usage.tool_calls == 2 and result.usage.context_tokens < 4000
    assert "left unopened" in result.detail and result.summary.candidates_left > 0


def test_a_walk_stopped_by_a_budget_leaves_no_cycle_for_the_collector(runbooks: Corpus) -> None:
    """The budgets a run keeps hold the tracebacks of where they were raised, whose frames hold the
    run: cleared when the walk ends, so the run is freed when its result is (no collection)."""
    import gc

    from clew.agent.api import retrieve_sync

    request = tree_request("incident severity database failover replica deploy rollback", "runbooks")
    asks = [{**request, "context_budget_tokens": 256},  # stops full
            {**request, "context_budget_tokens": 8192, "max_tool_calls": 2}]  # a refused move is kept
    stops = [retrieve_sync(ask, corpus=runbooks).stop_reason for ask in asks]  # warm: first uses build caches
    assert stops == ["context_budget", "max_tool_calls"]
    gc.collect()
    gc.disable()
    try:
        for ask in asks:
            retrieve_sync(ask, corpus=runbooks)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_budget_that_binds_is_the_one_reported_though_another_ran_out_first(runbooks: Corpus) -> None:
    request = tree_request("incident severity database failover replica deploy rollback", "runbooks")
    request.update(context_budget_tokens=256, max_tool_calls=1)  # the calls run out at the seed search
    result = run(runbooks, request)
    assert (result.status, result.stop_reason) == ("incomplete", "context_budget")  # then the seeds filled it
    assert result.usage.tool_calls == 1


def test_a_walk_that_takes_everything_it_found_ends_ok(playbook: Corpus) -> None:
    result = run(playbook, tree_request("freezer", "ops"))
    assert (result.status, result.stop_reason) == ("ok", "exhausted_frontier")
    assert result.summary.candidates_left == 0
    assert result.stop_line().startswith("ok: the walk took everything it found")


def test_a_ranked_walk_that_fills_its_budget_before_any_evidence_is_incomplete(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + " ".join(f"failover{i % 9} replica" for i in range(300)) + "\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="big", chunk_tokens=2048)  # one chunk, too big for the budget
        request = tree_request("failover replica", "big")
        request["context_budget_tokens"] = 256
        result = run(corpus, request)
    assert (result.status, result.stop_reason) == ("incomplete", "context_budget") and not result.hits
    assert result.generation is None


def test_iterations_budget(runbooks: Corpus) -> None:
    request = tree_request("incident severity paging", "runbooks")
    request["max_internal_iterations"] = 2
    result = run(runbooks, request)
    assert result.status == "incomplete" and result.stop_reason == "max_internal_iterations"
    # an iteration visits one candidate: a passage taken, or a node opened (its children offered)
    visits = [s for s in result.steps if s.state == "visit"]
    assert result.usage.iterations == 2 and len(visits) == 2 and 1 <= len(result.hits) <= 2
    assert result.detail == "the next iteration would exceed max_internal_iterations=2"


def test_a_ranked_walk_over_many_small_passages_is_bound_by_its_budget_not_by_100_iterations(tmp_path: Path) -> None:
    """Issue 36: at the default budget (8,192) a ranked walk over ~25-token passages (a Doxygen
    corpus's members, npm's option lists) ended max_internal_iterations after 100 takes with most
    of its budget left; its default bound now follows the budget (one per 20 tokens: 409)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for d in range(4):
        sections = [f"## widget_option_{d}_{i}\n\nThe widget option {d}.{i} sets how the widget frame draws "
                    f"its border when resized.\n" for i in range(100)]
        (folder / f"ref{d}.md").write_text(f"# Widget reference {d}\n\n" + "\n".join(sections))
    with Corpus(tmp_path / "small.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="small")
        request = {"query": "widget option border", "queries": [{"collection": "small"}],
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        result = run(corpus, request)
    assert result.applied["max_internal_iterations"] == 8192 // 20
    assert result.stop_reason in ("exhausted_frontier", "context_budget"), result.stop_line()
    assert result.usage.iterations > 100 and len(result.hits) > 100


def test_tool_call_budget_counts_every_call(runbooks: Corpus) -> None:
    request = tree_request("incident severity paging", "runbooks")
    request["max_tool_calls"] = 3
    result = run(runbooks, request)
    assert result.status == "incomplete" and result.stop_reason == "max_tool_calls"
    assert result.usage.tool_calls == 3
    assert result.applied["max_tool_calls"] == 3


def test_tool_calls_are_never_above_twenty(runbooks: Corpus) -> None:
    request = tree_request("incident", "runbooks")
    request.update(max_tool_calls=500, max_internal_iterations=100, context_budget_tokens=100000)
    result = run(runbooks, request)
    assert result.applied["max_tool_calls"] == 20
    assert result.usage.tool_calls <= 20


def test_instruction_lane_collects_request_and_document_instructions(runbooks: Corpus) -> None:
    result = run(runbooks, tree_request("who is paged for SEV1", "runbooks", instruction="Answer briefly.",
                                        instruction_field="agent_instructions"))
    sources = [i.source for i in result.instructions]
    assert sources[0] == "request" and "incident-response.md" in sources
    assert len(sources) == len(set(sources))
    assert all(h.trust == "untrusted" for h in result.hits)


def test_extractive_answer_cites_only_visited_evidence(runbooks: Corpus) -> None:
    result = run(runbooks, tree_request("Who is paged for a SEV2 incident?", "runbooks"))
    generation = result.generation
    assert generation is not None and generation.model is None
    visited = {h.evidence_id for h in result.hits if h.fetched}
    assert {c.evidence_id for c in generation.citations} <= visited
    assert "Incident commander and the owning team" in generation.answer


def test_no_navigation_and_no_model_runs_the_embedded_default(runbooks: Corpus) -> None:
    result = run(runbooks, {"query": "how do I promote a replica", "queries": [{"collection": "runbooks"}]})
    assert result.applied["strategy"] == "tree" and "embedded default" in result.applied["planned"]
    assert result.status == "ok" and result.hits


def build_linked(root: Path) -> None:
    folder = root / "linked"
    folder.mkdir()
    (folder / "guide.md").write_text(
        "---\nacl: [staff]\n---\n# Guide\n\n## Cascades\n\n"
        "Cascading foreign key actions recurse like triggers; the cap is in [the limits "
        "page](limits.md#trigger-depth).\n"
    )
    (folder / "limits.md").write_text(
        "---\nacl: [staff]\n---\n# Limits\n\n## Trigger depth\n\nThe default maximum depth is 1000.\n\n"
        "## Attached\n\nAt most ten attached databases.\n")
    (folder / "secret.md").write_text("---\nacl: [dba]\n---\n# Secret\n\nThe root password is hunter2.\n")
    (folder / "index.md").write_text(
        "---\nacl: [staff]\n---\n# Index\n\nCascading foreign key actions: see [secret](secret.md).\n")
    with Corpus(root / "linked.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=64)


@pytest.fixture
def linked(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """Four linked pages in tmp_path/linked, in the test's own copy of linked.duckdb."""
    with Corpus(prebuilt(build_linked, tmp_path) / "linked.duckdb") as corpus:
        yield corpus


def test_a_visited_passage_offers_the_passages_it_links_to(linked: Corpus) -> None:
    request = tree_request("cascading foreign key actions recurse", "docs", max_depth=1)
    request["queries"][0]["limit"] = 1
    result = run(linked, request)
    hit = next(h for h in result.hits if h.document_key == "limits.md")
    assert (hit.via, hit.depth, hit.heading_path) == ("links", 1, ["Limits", "Trigger depth"])
    assert hit.origin == result.hits[0].evidence_id and "1000" in hit.text
    assert result.applied["follow_links"] is True
    # one search and one link expansion: the hit's section holds nothing else, so it is not opened
    assert result.usage.tool_calls == 2


def test_follow_links_off_stays_in_the_section(linked: Corpus) -> None:
    request = tree_request("cascading foreign key actions recurse", "docs", max_depth=1, follow_links=False)
    request["queries"][0]["limit"] = 1
    result = run(linked, request)
    assert [h.document_key for h in result.hits] == ["guide.md"]
    assert result.usage.tool_calls == 1  # the search; the hit's section holds nothing else to open


def test_a_link_into_a_denied_document_is_never_followed(linked: Corpus) -> None:
    request = tree_request("cascading foreign key actions", "docs", max_depth=1)
    assert "secret.md" in {h.document_key for h in run(linked, request).hits}  # reachable for an unrestricted caller
    staff = Principal(name="staff", row_filter={"term": {"acl": "staff"}})
    request["principal"] = staff.model_dump(mode="json")
    result = run(linked, request)
    assert "index.md" in {h.document_key for h in result.hits}
    assert all("hunter2" not in h.text and h.document_key != "secret.md" for h in result.hits)


def test_a_passage_without_links_costs_no_link_expansion(playbook: Corpus) -> None:
    request = tree_request("backup freezer alarm perishables", "ops", beam_width=2, max_depth=1)
    request["queries"][0]["limit"] = 1
    result = run(playbook, request)
    assert result.usage.tool_calls == 2  # the search and one section expansion


def test_has_links_names_exactly_the_passages_with_a_followable_link(linked: Corpus, tmp_path) -> None:  # noqa: ANN001
    from clew.corpus.reader import Scope
    from clew.navigation.edges import has_links

    scope = Scope(linked)
    rows = dict(linked.cursor().execute("SELECT key, id FROM documents").fetchall())
    guide, limits = rows["guide.md"], rows["limits.md"]
    assert has_links(scope, f"ev1:c:{guide}:1:0") is True
    assert has_links(scope, f"ev1:c:{limits}:1:0") is False
    passages = [p for doc in rows.values() for p in scope.passages(doc, 1)]  # a walk asks with the passage
    assert [has_links(scope, p) for p in passages] == [has_links(scope, p.evidence_id) for p in passages]
    assert has_links(scope, scope.passages(guide, 1, [0])[0]) is True
    assert has_links(scope, scope.passages(limits, 1, [0])[0]) is False
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "dangling.md").write_text("# Dangling\n\nSee [nowhere](missing.md).\n")
    ingest_paths(linked, [folder], collection="docs", chunk_tokens=64)  # a write: caches renew
    dangling = dict(linked.cursor().execute("SELECT key, id FROM documents").fetchall())["dangling.md"]
    assert has_links(scope, f"ev1:c:{dangling}:1:0") is False  # an unresolved link leads nowhere


def test_links_of_the_versions_already_read_come_in_one_query(linked: Corpus,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.reader import Scope
    from clew.navigation.edges import has_links

    scope = Scope(linked)
    rows = dict(linked.cursor().execute("SELECT key, id FROM documents").fetchall())
    guide, limits = rows["guide.md"], rows["limits.md"]
    assert scope.documents([(guide, 1), (limits, 1)]).keys() == {(guide, 1), (limits, 1)}  # both read
    asked: list[str] = []
    cursor = linked.cursor

    class Counting:
        def __init__(self) -> None:
            self.inner = cursor()

        def execute(self, sql: str, *args: object) -> object:
            asked.append(sql)
            return self.inner.execute(sql, *args)

    monkeypatch.setattr(linked, "cursor", Counting)
    assert has_links(scope, f"ev1:c:{limits}:1:0") is False
    assert has_links(scope, f"ev1:c:{guide}:1:0") is True  # answered from the same query
    assert sum("FROM edges WHERE src IN" in sql for sql in asked) == 1


def test_store_reads_inline_give_the_same_run(linked: Corpus) -> None:
    request = tree_request("cascading foreign key actions recurse", "docs", max_depth=1)
    threaded = asyncio.run(retrieve(request, corpus=linked))
    inline = asyncio.run(retrieve(request, corpus=linked, offload=False))
    strip = lambda r: r.model_dump(exclude={"usage": {"latency_ms"}})  # noqa: E731
    assert [h.evidence_id for h in inline.hits] == [h.evidence_id for h in threaded.hits]
    assert (inline.status, inline.stop_reason, inline.usage.tool_calls) == (
        threaded.status, threaded.stop_reason, threaded.usage.tool_calls)
    assert strip(inline)["hits"] == strip(threaded)["hits"]


def test_a_run_without_a_model_reads_the_store_off_the_event_loop_in_one_thread(
        linked: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of a ranked run without a model waits on anything but the store: it runs whole in one
    worker thread (the loop stays free), not one thread hop per read, and answers as inline."""
    request = tree_request("cascading foreign key actions recurse", "docs", max_depth=1)
    hops: list[str] = []
    readers: set[int] = set()
    to_thread, cursor = asyncio.to_thread, linked.cursor

    def hop(fn, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        hops.append(getattr(fn, "__name__", repr(fn)))
        return to_thread(fn, *args, **kwargs)

    def counted() -> object:
        readers.add(threading.get_ident())
        return cursor()

    monkeypatch.setattr(asyncio, "to_thread", hop)
    monkeypatch.setattr(linked, "cursor", counted)

    async def on_the_loop() -> tuple[object, int]:
        return await retrieve(request, corpus=linked), threading.get_ident()

    threaded, loop_thread = asyncio.run(on_the_loop())  # first: nothing cached yet, every read is made
    assert hops == ["_run_inline"]  # the whole run, in one worker thread (no event loop there: it awaits nothing)
    assert len(readers - {loop_thread}) == 1  # the walk's reads (the loop only planned the request)
    inline = asyncio.run(retrieve(request, corpus=linked, offload=False))
    strip = {"usage": {"latency_ms"}}
    assert threaded.model_dump(exclude=strip) == inline.model_dump(exclude=strip)


def test_a_link_to_a_whole_document_leads_to_its_best_passage_and_its_opening(tmp_path) -> None:  # noqa: ANN001
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "team.md").write_text("# team\n\nA team cannot be given a package here: see [access](access.md).\n")
    (folder / "access.md").write_text(
        "# access\n\n## Synopsis\n\n```bash\naccess grant <read-only|read-write> <scope:team> [<package>]\n```\n\n"
        "## Description\n\nChanges the ability of users to read or write one package at a time, as the "
        "registry allows it.\n\n## Configuration\n\nThe registry the command talks to, as everywhere else.\n")
    with Corpus(tmp_path / "pages.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
        result = run(corpus, tree_request("grant scope team", "docs", start_key="team.md", max_depth=1))
    linked = [h for h in result.hits if h.document_key == "access.md"]
    # the passage that matches best (the synopsis), and where a reader starts the page (its description)
    assert [h.heading_path[-1] for h in linked][:2] == ["Synopsis", "Description"]
    assert all(h.via == "links" for h in linked)


def test_the_opening_of_a_page_is_its_first_prose_passage(tmp_path) -> None:  # noqa: ANN001
    from clew.corpus.reader import Scope
    from clew.navigation.core import opening, root

    (tmp_path / "cmd.md").write_text(
        "# cmd\n\n## Synopsis\n\n```bash\ncmd run <thing> [--flag] [--other-flag] [--yet-another-flag]\n```\n\n"
        "## Description\n\nRuns the thing once, and prints what it did to the terminal for you to read.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [tmp_path / "cmd.md"], chunk_tokens=30)
        doc = Scope(corpus).document_by_key("cmd.md")
        page = root(doc)
        first = opening(page)
        assert first is not None and first.heading_path[-1] == "Description"
        assert opening(page, skip={first.ordinal}) is None  # nothing else reads as prose


def test_past_its_lead_section_a_page_has_no_opening_left(tmp_path) -> None:  # noqa: ANN001
    """A DocBook page: an introduction, then its sect2s. Once the introduction is read the
    first sect2 is where that section starts, not where a reader starts the page; a Markdown
    description that runs over two passages still reads on into its second."""
    from clew.corpus.prose import reads_as_prose
    from clew.corpus.reader import Scope, passage_of
    from clew.navigation.core import opening, root

    (tmp_path / "hot-standby.html").write_text(
        '<html><body><div class="sect1"><div class="titlepage"><h2 class="title">27.4. Hot Standby</h2></div>'
        "<p>Hot standby is the term for running read-only queries during archive recovery.</p>"
        '<div class="sect2"><div class="titlepage"><h3 class="title">27.4.1. User\'s Overview</h3></div>'
        "<p>With hot_standby on, a standby server accepts read-only connections once recovery is consistent.</p></div>"
        "</div></body></html>")
    (tmp_path / "cmd.md").write_text(
        "# cmd\n\n## Synopsis\n\n```bash\ncmd run <thing> [--flag]\n```\n\n## Description\n\n"
        "Runs the thing once, and prints what it did to the terminal for you to read in your own time.\n\n"
        "Runs it again when asked to, and prints what it did the second time to the same terminal too.\n\n"
        "## Configuration\n\nThe settings the command reads, as every other command of the tool reads them.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [tmp_path], chunk_tokens=30)
        scope = Scope(corpus)
        page = root(scope.document_by_key("hot-standby.html"))
        intro = opening(page)
        assert intro is not None and intro.heading_path[-1] == "27.4. Hot Standby"
        overview = passage_of(page.doc, intro.ordinal + 1)
        assert overview.heading_path[-1] == "27.4.1. User's Overview" and reads_as_prose(overview.text)
        assert opening(page, skip={intro.ordinal}) is None  # not 27.4.1's first passage
        cmd = root(scope.document_by_key("cmd.md"))
        first = opening(cmd)
        assert first is not None and first.text.startswith("## Description")
        second = opening(cmd, skip={first.ordinal})
        assert second is not None and second.heading_path[-1] == "Description"
        assert second.text.startswith("Runs it again")
        assert opening(cmd, skip={first.ordinal, second.ordinal}) is None  # not the Configuration section


def test_a_denied_link_target_costs_what_a_missing_one_costs(linked: Corpus, tmp_path) -> None:  # noqa: ANN001
    """index.md links to secret.md (denied to staff); in a twin corpus it links to a key that
    does not exist. The staff walk spends the same tool calls and takes the same steps in both."""
    folder = tmp_path / "twin"
    folder.mkdir()
    for name in ("guide.md", "limits.md", "secret.md"):
        (folder / name).write_text((tmp_path / "linked" / name).read_text())
    (folder / "index.md").write_text((tmp_path / "linked" / "index.md").read_text().replace("secret.md", "gone.md"))
    staff = Principal(name="staff", row_filter={"term": {"acl": "staff"}}).model_dump(mode="json")
    request = {**tree_request("cascading foreign key actions see", "docs", max_depth=1), "principal": staff}
    with Corpus(tmp_path / "twin.duckdb") as twin:
        ingest_paths(twin, [folder], collection="docs", chunk_tokens=64)
        denied, missing = run(linked, request), run(twin, request)
    assert denied.hits[0].document_key == "index.md"
    assert denied.usage.tool_calls == missing.usage.tool_calls
    assert [(s.tool, s.chosen) for s in denied.steps] == [(s.tool, s.chosen) for s in missing.steps]


def test_the_previous_sections_tail_before_a_seed_hit_gets_no_neighbour_bonus(tmp_path) -> None:  # noqa: ANN001
    """Bootstrap's pages: a section's short prose, then its HTML example, then the next section.
    The example right before a hit in the next section is offered by the hit ('adjacent') at its
    own worth, so it no longer goes ahead of its own section's prose, which scores more (with the
    neighbour bonus it did: bs-014 spent 304 of 1,000 tokens on such an example)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "collapse.md").write_text(
        "# Collapse\n\n## Multiple targets\n\nA button can show or hide several collapse elements at once.\n\n"
        '```html\n<button data-toggle="collapse" data-target=".multi-collapse">Toggle both</button>\n'
        '<div class="collapse multi-collapse" id="first">First panel</div>\n'
        '<div class="collapse multi-collapse" id="second">Second panel</div>\n```\n\n'
        "## Events\n\nA collapse panel fires hidden.bs.collapse once it has finished hiding: "
        "see [events](events.md).\n")
    (folder / "events.md").write_text(
        "# Events\n\nEvery plugin fires its hidden event when its transition has finished.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
        request = {"query": "which event says a collapse panel has finished hiding",
                   "queries": [{"collection": "docs", "limit": 1}], "context_budget_tokens": 1000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        hits = run(corpus, request).hits
    seed = hits[0]
    assert (seed.via, seed.heading_path[-1]) == ("seed", "Events")
    prose = next(h for h in hits if "several collapse elements" in h.text)
    example = next(h for h in hits if h.text.startswith("```html"))
    assert (example.via, example.origin) == ("adjacent", seed.evidence_id)
    assert prose.score is not None and example.score is not None and prose.score > example.score
    assert hits.index(prose) < hits.index(example)


def test_a_code_only_passage_gets_no_bonus_for_where_it_was_found(tmp_path) -> None:  # noqa: ANN001
    """A fenced example right after a seed hit is that hit's neighbour ('adjacent'), but it holds an
    example, not prose that goes on with the hit: it competes at its own worth, so a seed hit of
    another page that scores more on its own goes first (with the neighbour's floor of 0.6 of the
    hit's priority the example went first: issue 36, task W)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "collapse.md").write_text(
        "# Collapse\n\n## Events\n\nA collapse panel fires hidden.bs.collapse once it has finished hiding "
        "from the user.\n\n```js\n$('#myCollapsible').on('hidden.bs.collapse', function () {\n"
        "  console.log('done')\n})\n```\n")
    (folder / "events.md").write_text(
        "# Plugin events\n\nEvery plugin fires its hidden event once its panel has finished the transition.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=30)
        request = {"query": "which event fires when a collapse panel has finished hiding", "include_steps": True,
                   "queries": [{"collection": "docs", "limit": 2}], "context_budget_tokens": 1000,
                   "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}
        hits = run(corpus, request).hits
    seed = hits[0]
    assert (seed.via, seed.document_key) == ("seed", "collapse.md")
    example = next(h for h in hits if h.text.startswith("```js"))
    other = next(h for h in hits if h.document_key == "events.md")
    assert (example.via, example.origin) == ("adjacent", seed.evidence_id)
    assert example.score is not None and other.score is not None and seed.score is not None
    assert example.score < other.score < NEIGHBOUR_FLOOR * seed.score
    assert hits.index(other) < hits.index(example)
