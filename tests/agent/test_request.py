import pytest
from pydantic import ValidationError

from clew.agent.request import parse_request
from clew.errors import InputError

NAV = {"queries": [{"collection": "c"}]}


def nav(**fields: object) -> dict:
    return {"query": "x", **NAV, "steps": {"retrieval": {"navigation": fields}}}


def test_bounds_are_clamped_and_reported() -> None:
    request = parse_request({**nav(strategy="tree", beam_width=50, max_depth=0), "max_tool_calls": 99,
                             "context_budget_tokens": 10, "max_internal_iterations": 10_000})
    applied = request.applied()
    assert applied.max_tool_calls == 20 and applied.beam_width == 20 and applied.max_depth == 1
    assert applied.context_budget_tokens == 256 and applied.max_internal_iterations == 100
    assert applied.follow_links is True
    assert parse_request(nav(strategy="tree", follow_links=False)).applied().follow_links is False
    graph = parse_request(nav(strategy="graph", index="links", max_steps=99, neighbor_limit=0)).applied()
    assert (graph.max_steps, graph.neighbor_limit, graph.direction) == (20, 1, "out")
    # frozen; what the result reports is the bounds that apply to this run, in order
    with pytest.raises(ValidationError, match="frozen"):
        applied.max_depth = 9  # type: ignore[misc]
    assert list(applied.report())[4:9] == ["max_depth", "beam_width", "follow_links", "index", "strategy"]
    assert "max_steps" not in applied.report() and graph.report()["edge_types"] == []


@pytest.mark.parametrize(
    ("request_", "field", "message"),
    [
        ({"query": "  "}, "query", "blank"),
        ({"query": 3}, "query", "string"),
        (nav(start_key="a.md", start_nodes="$roots"), "steps.retrieval.navigation.start_nodes", "not both"),
        (nav(selection="agentic", start_nodes="$roots"), "steps.retrieval.navigation.start_nodes", "ranked"),
        (nav(strategy="graph", index="links", max_depth=3), "steps.retrieval.navigation.max_depth", "not for a graph"),
        (nav(strategy="tree", direction="in"), "steps.retrieval.navigation.direction", "not for a tree"),
        (
            nav(strategy="graph", index="links", follow_links=False),
            "steps.retrieval.navigation.follow_links",
            "not for a graph",
        ),
        (nav(strategy="graph"), "steps.retrieval.navigation.index", "needs index"),
        (nav(instruction_field="  "), "steps.retrieval.navigation.instruction_field", "blank"),
        (nav(strategy="sideways"), "steps.retrieval.navigation.strategy", "tree"),
        (nav(query_index=3), "steps.retrieval.navigation.query_index", "not an index"),
        (
            {"query": "x", "queries": [{"collection": "c", "hybrid": {}, "semantic_search": {}}]},
            "queries.0",
            "give one of",
        ),
        ({"query": "x", "queries": [{"collection": " "}]}, "queries.0.collection", "blank"),
        ({"query": "x", "budget": 5}, "budget", "Extra inputs"),
    ],
)
def test_malformed_requests_name_the_field(request_: dict, field: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_request(request_)
    assert caught.value.field.startswith(field)


def test_json_text_is_accepted() -> None:
    assert parse_request('{"query": "wal"}').query == "wal"
