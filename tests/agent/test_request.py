import re
from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel, ValidationError

from clew import tooltable
from clew.agent.request import GRAPH_FIELDS, Navigation, QuerySpec, RetrievalRequest, parse_request
from clew.budgets.bounds import Clamp, bounds
from clew.budgets.limits import Limits
from clew.config.settings import Budgets, load_config
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
    # a ranked walk's default bound follows its (clamped) budget: one iteration per 20 tokens, at least 100;
    # a request's own bound keeps its meaning and its cap
    ranked = nav(strategy="tree", selection="ranked")
    assert [parse_request({**ranked, "context_budget_tokens": b}).applied().max_internal_iterations
            for b in (10, 2000, 8192, 10**6)] == [100, 100, 409, 10_000]
    assert parse_request({**ranked, "max_internal_iterations": 10_000}).applied().max_internal_iterations == 100
    assert parse_request({**ranked, "max_internal_iterations": 30}).applied().max_internal_iterations == 30
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
        ({"query": "x", "budget": 5}, "budget", "Extra inputs are not permitted; did you mean 'context_budget_tokens'"),
        ({"query": "x", "queries": [{"collection": "c", "limt": 3}]}, "queries.0.limt", "did you mean 'limit'"),
        ({"query": "x", "max_tool_call": 5}, "max_tool_call", "did you mean 'max_tool_calls'"),
        ({"query": "x", "limit": 5}, "limit", "did you mean 'queries\\[\\].limit'"),  # where it lives
    ],
)
def test_malformed_requests_name_the_field(request_: dict, field: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        parse_request(request_)
    assert caught.value.field.startswith(field)


def test_json_text_is_accepted() -> None:
    assert parse_request('{"query": "wal"}').query == "wal"
    assert parse_request(' \n{"query": "wal", "context_budget_tokens": 1000}').context_budget_tokens == 1000


def test_text_that_is_no_json_object_is_the_question_alone() -> None:
    assert parse_request("How do I roll back a deploy?") == parse_request({"query": "How do I roll back a deploy?"})
    assert parse_request("[wal]").query == "[wal]"
    with pytest.raises(InputError) as caught:  # an empty question is refused as {"query": ""} is
        parse_request("")
    assert caught.value.field == "query"
    with pytest.raises(InputError):  # JSON text that opens an object stays JSON: its fault is named, not asked
        parse_request('{"query": "wal",')


UNBOUNDED = {"query_index"}
"""Numbers of the request that are not clamped: query_index must name an entry of queries[]."""


def _clamps() -> dict[tuple[type[BaseModel], str], Clamp]:
    """Every number field of the request's models and the one ``Clamp`` its type declares."""
    found: dict[tuple[type[BaseModel], str], Clamp] = {}
    for model in (RetrievalRequest, QuerySpec, Navigation):
        for name, info in model.model_fields.items():
            kinds = set(get_args(info.annotation) or (info.annotation,)) - {type(None)}
            if kinds not in ({int}, {float}) or name in UNBOUNDED:
                continue
            declared = [m for m in info.metadata if isinstance(m, Clamp)]
            assert len(declared) == 1, f"{model.__name__}.{name} declares {len(declared)} Clamp, not one"
            found[model, name] = declared[0]
    return found


def _applied(model: type[BaseModel], name: str, value: int) -> float:
    """What the run applies when the request sets ``name`` of ``model`` to ``value``."""
    if model is RetrievalRequest:
        return float(getattr(parse_request({"query": "x", name: value}).applied(), name))
    if model is QuerySpec:
        return parse_request({"query": "x", "queries": [{"collection": "c", name: value}]}).applied().query_limits[0]
    walk = {"strategy": "graph", "index": "links"} if name in GRAPH_FIELDS else {}
    return float(getattr(parse_request(nav(**walk, **{name: value})).applied(), name))


def test_every_bounded_request_number_declares_its_bounds_once_and_every_reader_takes_them_from_there() -> None:
    clamps = _clamps()
    assert {name for _, name in clamps} == {"max_internal_iterations", "max_tool_calls", "context_budget_tokens",
                                            "timeout_seconds", "extract_tokens", "limit", "max_depth", "beam_width",
                                            "max_steps", "neighbor_limit"}
    schema = RetrievalRequest.model_json_schema()
    table = tooltable.table()
    for (model, name), bound in clamps.items():
        # the run clamps to it, at both ends, and reports what it applied
        assert _applied(model, name, bound.low - 1) == bound.low, name
        assert _applied(model, name, bound.high + 1) == bound.high, name
        # the JSON schema states it
        where = schema if model is RetrievalRequest else schema["$defs"][model.__name__]
        assert where["properties"][name]["description"].endswith(f"({bound.low}-{bound.high}; clamped)."), name
    seconds = RetrievalRequest.bounds()["timeout_seconds"](3600.5)
    assert seconds == 3600 and isinstance(seconds, float)  # a clamped number keeps its type
    for name, bound in RetrievalRequest.bounds().items():
        # the docs' tool table (retrieve's arguments) states it
        assert re.search(rf"`{name}`: (integer|number) {bound.low}-{bound.high} \(clamped\)", table), name
    for name, field in Budgets.model_json_schema()["properties"].items():
        # the run's Limits and the configuration's [budgets] share the request field's range and default
        bound = RetrievalRequest.bounds()[name]
        assert bounds(Limits)[name] == bound
        assert (field["minimum"], field["maximum"]) == (bound.low, bound.high), name
        assert field["default"] == RetrievalRequest.model_fields[name].default == Limits.model_fields[name].default
        # a configured default at the range's end is taken, one past it is an error naming the field
        assert getattr(load_config(None, budgets={name: bound.high}).budgets, name) == bound.high
        with pytest.raises(InputError, match="less than or equal to") as refused:
            load_config(None, budgets={name: bound.high + 1})
        assert refused.value.field == f"budgets.{name}"


def test_the_budgets_page_states_the_declared_defaults_and_ranges() -> None:
    """docs/concepts/budgets.md's table (written by hand, for its prose) against the declarations."""
    page = (Path(__file__).parents[2] / "docs" / "concepts" / "budgets.md").read_text(encoding="utf-8")
    rows = {m["name"]: (m["default"], m["range"]) for m in re.finditer(
        r"^\| `(?P<name>\w+)` \| (?P<default>[^|]+) \| (?P<range>[\d,]+-[\d,]+) \|", page, re.MULTILINE)}
    assert set(rows) == set(bounds(Limits)) | {"extract_tokens"}
    for name, (default, stated) in rows.items():
        bound = RetrievalRequest.bounds()[name]
        assert stated.replace(",", "") == f"{bound.low}-{bound.high}", name
        assert default.split()[0] == f"{RetrievalRequest.model_fields[name].default:g}", name
