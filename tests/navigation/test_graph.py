from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.graph import MAX_IDS, MAX_SEEDS, ExpandArgs
from clew.navigation.graph import expand_neighbors as expand
from clew.navigation.models import NavigationResult
from clew.tools.builtin import registry
from clew.tools.registry import ToolContext

NOT_DRAFT = parse_filter({"bool": {"must_not": [{"term": {"status": "draft"}}]}})


def doc_ids(corpus: Corpus) -> dict[str, int]:
    return dict(corpus.cursor().execute("SELECT key, id FROM documents").fetchall())


def found(result: NavigationResult) -> list[tuple[str, str, str, int]]:
    return [(n.id, n.relationship, n.direction, n.distance) for n in result.neighbors]


@pytest.fixture
def d(guide: Corpus) -> dict[str, int]:
    return doc_ids(guide)


def test_links_out_and_in(scope: Scope, d: dict[str, int]) -> None:
    pub, sec, gui = d["public.md"], d["secret.md"], d["guide.md"]
    out = expand(scope, ExpandArgs(ids=[f"ev1:c:{pub}:1:0"], relationship_types=["links_to"], include_incoming=False))
    assert found(out) == [
        (f"ev1:c:{gui}:1:3", "links:links_to", "out", 1),
        (f"ev1:c:{sec}:1:0", "links:links_to", "out", 1),
    ]
    assert out.origins == [f"ev1:c:{pub}:1:0"] and out.status == "ok" and out.total == 2
    usage = out.neighbors[0]
    assert usage.type == "chunk" and usage.name == "Guide > Usage" and usage.content.startswith("## Usage")
    assert usage.metadata["document_key"] == "guide.md" and usage.metadata["via"] == f"ev1:c:{pub}:1:0"
    incoming = expand(scope, ExpandArgs(ids=[f"ev1:c:{gui}:1:3"], relationship_types=["links"]))
    assert found(incoming) == [(f"ev1:c:{pub}:1:0", "links:links_to", "in", 1)]


def test_two_hops_decay_and_denied_routes(guide: Corpus, d: dict[str, int]) -> None:
    pub, sec, gui = d["public.md"], d["secret.md"], d["guide.md"]
    seed = [f"ev1:c:{pub}:1:0"]
    open_walk = expand(Scope(guide), ExpandArgs(ids=seed, relationship_types=["links_to"], include_incoming=False,
        depth=2))
    assert found(open_walk) == [
        (f"ev1:c:{gui}:1:3", "links:links_to", "out", 1),
        (f"ev1:c:{sec}:1:0", "links:links_to", "out", 1),
        (f"ev1:c:{gui}:1:0", "links:links_to", "out", 2),  # public -> secret -> guide
    ]
    assert [n.score for n in open_walk.neighbors] == [1.0, 1.0, 0.5]
    # the secret plan is unreadable: it is neither returned nor a route to the guide's top
    denied = Scope(guide, Principal(row_filter=NOT_DRAFT))
    walk = expand(denied, ExpandArgs(ids=seed, relationship_types=["links_to"], include_incoming=False, depth=2))
    assert found(walk) == [(f"ev1:c:{gui}:1:3", "links:links_to", "out", 1)]
    assert "secret" not in walk.model_dump_json().lower()


def test_user_graphs_join_keys(guide: Corpus, d: dict[str, int]) -> None:
    report = ingest_edges(
        guide,
        '{"graph": "workflow", "src": "public.md", "dst": "guide.md", "type": "next", "weight": 0.8}\n'
        '{"graph": "workflow", "src": "guide.md", "dst": "secret.md", "type": "depends_on"}\n',
        collection="docs",
    )
    assert report.edges == 2
    pub, sec, gui = d["public.md"], d["secret.md"], d["guide.md"]
    out = expand(Scope(guide), ExpandArgs(ids=[f"ev1:c:{pub}:1:1"], relationship_types=["workflow"]))
    assert found(out) == [(f"ev1:c:{gui}:1:0", "workflow:next", "out", 1)]  # a key is its first current passage
    assert out.neighbors[0].score == 0.8
    both = expand(Scope(guide), ExpandArgs(ids=[f"ev1:c:{gui}:1:5"], relationship_types=["next", "depends_on"],
        include_incoming=True))
    rels = {(n.id, n.relationship, n.direction) for n in both.neighbors}
    assert (f"ev1:c:{pub}:1:0", "workflow:next", "in") in rels
    assert (f"ev1:c:{sec}:1:0", "workflow:depends_on", "out") in rels
    assert (f"ev1:c:{gui}:1:6", "reading_order:next", "out") in rels
    denied = expand(Scope(guide, Principal(row_filter=NOT_DRAFT)), ExpandArgs(ids=[f"ev1:c:{gui}:1:5"],
        relationship_types=["workflow"]))
    assert all(n.metadata["document_key"] != "secret.md" for n in denied.neighbors)


def test_structure_graphs_and_type_narrowing(scope: Scope, d: dict[str, int]) -> None:
    g = d["guide.md"]
    result = expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:5"], depth=1))
    assert found(result) == [
        (f"ev1:c:{g}:1:4", "reading_order:next", "in", 1),
        (f"ev1:c:{g}:1:6", "reading_order:next", "out", 1),
        (f"ev1:s:{g}:1:5", "section_hierarchy:child", "in", 1),  # the table's section
    ]
    section = result.neighbors[2]
    assert (section.type, section.name, section.metadata["passage_id"]) == ("section", "Usage", f"ev1:c:{g}:1:3")
    # types narrow the answer, not the walk: sections two hops away through the Usage node
    sections = expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:5"], types=["section"], depth=2,
        relationship_types=["child"]))
    assert [(n.id, n.distance) for n in sections.neighbors] == [(f"ev1:s:{g}:1:5", 1), (f"ev1:s:{g}:1:1", 2)]
    tables = expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:3"], types=["table"]))
    assert [(n.id, n.type) for n in tables.neighbors] == [(f"ev1:s:{g}:1:8", "table")]


def test_limit_truncation_and_bounds(scope: Scope, d: dict[str, int]) -> None:
    g = d["guide.md"]
    result = expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:5"], limit=1, depth=9, content_max_chars=10))
    assert (result.limit, result.depth, result.total, result.truncated) == (1, 3, 1, True)
    assert len(result.neighbors[0].content) == 10 and result.neighbors[0].content_truncated
    assert result.filters["content_max_chars"] == 10
    whole = expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:5"], limit=24, depth=3))
    assert whole.truncated is False and whole.total == len(whole.neighbors) <= 24
    assert expand(scope, ExpandArgs(ids=[f"ev1:c:{g}:1:5"], limit=0)).limit == 1


def test_seeds_resolution(guide: Corpus, d: dict[str, int]) -> None:
    g, sec = d["guide.md"], d["secret.md"]
    scope = Scope(guide, Principal(row_filter=NOT_DRAFT))
    seeds = [f"ev1:c:{g}:1:{o}" for o in range(9)] + ["bogus", f"ev1:c:{sec}:1:0", "ev1:c:4242:1:0"]
    result = expand(scope, ExpandArgs(ids=seeds))
    assert len(result.origins) == 8
    statuses = [(u.id, u.status) for u in result.unresolved]
    assert statuses[:1] == [(f"ev1:c:{g}:1:8", "dropped")]
    unavailable = [u for u in result.unresolved if u.status == "unavailable"]
    assert unavailable == []  # the denied and the missing seed were beyond the first 8
    result = expand(scope, ExpandArgs(ids=[f"ev1:c:{sec}:1:0", "ev1:c:4242:1:0", "bogus"]))
    assert result.status == "unavailable" and result.neighbors == []
    denied, missing, bogus = result.unresolved
    assert (
        (denied.status, denied.detail)
        == (missing.status, missing.detail)
        == ("unavailable", "no readable passage has this id")
    )
    assert bogus.status == "malformed"
    # documents and sections are seeds too
    assert expand(Scope(guide), ExpandArgs(ids=[f"ev1:d:{g}:1"])).origins == [f"ev1:s:{g}:1:0"]


def test_duplicate_seeds_do_not_use_up_the_cap(scope: Scope, d: dict[str, int]) -> None:
    g = d["guide.md"]
    passages = [f"ev1:c:{g}:1:{o}" for o in range(8)]
    result = expand(scope, ExpandArgs(ids=[passages[0]] * 9 + passages[1:]))
    assert result.origins == passages and result.unresolved == []
    # the same seed spelled with spaces, and a document id with its root node's id, are one seed each
    result = expand(scope, ExpandArgs(ids=[passages[0], f" {passages[0]} ", f"ev1:d:{g}:1", f"ev1:s:{g}:1:0"]))
    assert result.origins == [passages[0], f"ev1:s:{g}:1:0"] and result.unresolved == []
    # a malformed id given twice is reported once
    result = expand(scope, ExpandArgs(ids=["bogus", passages[0], "bogus"]))
    assert [(u.id, u.status) for u in result.unresolved] == [("bogus", "malformed")]


def test_no_id_is_both_an_origin_and_unresolved(scope: Scope, d: dict[str, int]) -> None:
    g = d["guide.md"]
    passages = [f"ev1:c:{g}:1:{o}" for o in range(10)]
    given = passages[:8] + [passages[0], passages[8], f"ev1:s:{g}:1:0", f"ev1:d:{g}:1", passages[3], passages[9]]
    result = expand(scope, ExpandArgs(ids=given))
    assert result.origins == passages[:8]
    assert [(u.id, u.status) for u in result.unresolved] == [
        (passages[8], "dropped"), (f"ev1:s:{g}:1:0", "dropped"), (passages[9], "dropped")]
    assert not set(result.origins) & {u.id for u in result.unresolved}


def test_seeds_past_the_cap_are_dropped_up_to_the_hard_bound(scope: Scope, d: dict[str, int]) -> None:
    g = d["guide.md"]
    given = [f"ev1:c:{g}:1:{o}" for o in range(100)]  # more than 64: not an input error
    result = expand(scope, ExpandArgs(ids=given))
    assert result.status == "ok" and result.origins == given[:MAX_SEEDS]
    assert [u.id for u in result.unresolved] == given[MAX_SEEDS:]
    assert {(u.status, u.detail) for u in result.unresolved} == {("dropped", f"only {MAX_SEEDS} seeds are used")}
    assert len(expand(scope, ExpandArgs(ids=given * (MAX_IDS // 100))).unresolved) == 100 - MAX_SEEDS
    with pytest.raises(InputError) as caught:  # validated once, where arguments come in (the registry)
        registry.call("expand_neighbors", {"ids": [given[0]] * (MAX_IDS + 1)}, ToolContext(scope))
    assert caught.value.field == "ids"


def test_skeleton_agrees_with_the_stored_structure_edges(guide: Corpus, d: dict[str, int]) -> None:
    g = d["guide.md"]
    stored = set(
        guide.cursor()
        .execute(
            "SELECT graph, src, dst FROM edges WHERE document_id = ? AND graph IN ('reading_order', "
            "'section_hierarchy')",
            [g],
        )
        .fetchall()
    )
    walked = set()
    scope = Scope(guide)
    for kind, count in (("c", 11), ("s", 9)):
        for o in range(count):
            vid = f"ev1:{kind}:{g}:1:{o}"
            for n in expand(scope, ExpandArgs(ids=[vid], include_incoming=False, limit=24,
                relationship_types=["reading_order", "section_hierarchy"])).neighbors:
                if kind == "s" or n.relationship.startswith("reading_order"):  # a passage stands for its node
                    walked.add((n.relationship.split(":")[0], vid, n.id))
    assert walked == stored


def test_bad_input(scope: Scope) -> None:
    for kwargs, field in (({"ids": []}, "ids"), ({"ids": [""]}, "ids.0"), ({"ids": "ev1:c:1:1:0"}, "ids"),
                          ({"ids": ["ev1:c:1:1:0"], "types": ["passage"]}, "types.0"),
                          ({"ids": ["ev1:c:1:1:0"], "include_incoming": "yes"}, "include_incoming"),
                          ({"ids": ["ev1:c:1:1:0"], "collection": "nope"}, "collection")):
        with pytest.raises(InputError) as caught:
            registry.call("expand_neighbors", kwargs, ToolContext(scope))
        assert caught.value.field == field


def test_keys_with_quotes_are_literals_not_sql(tmp_path: Path, guide: Corpus) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.navigation.reading import ReadArgs, read
    from tests.conftest import write_files

    odd = "o'brien'); DROP TABLE chunks; --.md"
    ingest_paths(
        guide, [write_files(tmp_path / "odd", {odd: "# O'Brien\n\nQuoted text.\n"})], collection="docs", chunk_tokens=40
    )
    assert (
        ingest_edges(
            guide,
            '{"graph": "g", "src": "guide.md", "dst": "%s", "type": "t"}\n' % odd.replace('"', '\\"'),
            collection="docs",
        ).edges
        == 1
    )
    scope = Scope(guide)
    assert read(scope, ReadArgs(document=odd)).items[0].text == "O'Brien\n\nQuoted text."
    result = expand(scope, ExpandArgs(ids=["ev1:c:1:1:0"], relationship_types=["g"]))
    assert [n.metadata["document_key"] for n in result.neighbors] == [odd]
    assert guide.cursor().execute("SELECT count(*) FROM chunks").fetchone()[0] > 0


def test_relationship_types_name_types_graphs_or_both(guide: Corpus, d: dict[str, int]) -> None:
    ingest_edges(
        guide, '{"graph": "workflow", "src": "guide.md", "dst": "public.md", "type": "next"}\n', collection="docs"
    )
    g, pub = d["guide.md"], d["public.md"]
    seed = [f"ev1:c:{g}:1:5"]

    def rels(follow: list[str]) -> set[str]:
        return {
            n.relationship
            for n in expand(Scope(guide), ExpandArgs(ids=seed, relationship_types=follow,
                include_incoming=False)).neighbors
        }

    assert rels(["next"]) == {"reading_order:next", "workflow:next"}
    assert rels(["workflow:next"]) == {"workflow:next"}
    assert rels(["reading_order:next"]) == rels(["reading_order"]) == {"reading_order:next"}
    assert expand(Scope(guide), ExpandArgs(ids=seed,
        relationship_types=["workflow"])).neighbors[0].id == f"ev1:c:{pub}:1:0"
