"""``clew.tools.schema.compact``: smaller schemas that hold and refuse exactly what pydantic's do."""

from __future__ import annotations

from typing import Annotated, Any

import jsonschema
from pydantic import BaseModel, Field

from clew.agent.request import RetrievalRequest
from clew.surface import surface
from clew.tools.schema import compact, unwrap

VALUES: list[Any] = [
    {"query": "q"}, {"query": None}, {"query": "q", "generator": "openai/gpt-4o-mini"},
    {"query": "q", "generator": {"provider": "openai", "model": "m"}}, {"query": "q", "generator": {"provider": "x"}},
    {"query": "q", "generator": 5}, {"query": "q", "generator": None}, {"query": "q", "bogus": 1},
    {"query": "q", "queries": [{"collection": "c", "hybrid": {"query": "x"}, "limit": None}]},
    {"query": "q", "queries": [{"collection": "c", "hybrid": {"query": 3}}]},
    {"query": "q", "queries": [{"filter_query": {"term": 2.5, "field": "f"}}]},
    {"query": "q", "queries": [{"filter_query": {"term": [1], "field": "f"}}]},
    {"query": "q", "queries": [{"filter_query": None, "fields": None}]},
    {"query": "q", "queries": [{"fields": ["a"] * 101}]},
    {"query": "q", "steps": {"retrieval": {"navigation": None}, "generation": {}}},
    {"query": "q", "steps": {"retrieval": {"navigation": {"strategy": "graph", "index": "links", "max_depth": 3}}}},
    {"query": "q", "steps": {"retrieval": {"navigation": {"strategy": "sideways"}}}},
    {"query": "q", "steps": {"retrieval": {"navigation": {"instruction": "x" * 10_001}}}},
    {"query": "q", "steps": {"generation": {"extra": 1}}}, {"query": "q", "timeout_seconds": "soon"},
]


def _valid(schema: dict[str, Any], value: Any) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def test_retrieve_s_compact_schema_holds_and_refuses_what_pydantic_s_does() -> None:
    full = RetrievalRequest.model_json_schema()
    del full["properties"]["principal"]  # hidden: always the caller's
    small = surface.get("retrieve").parameters()
    assert small == compact(full)
    assert len(str(small)) < len(str(full)) * 0.8
    verdicts = [_valid(full, v) for v in VALUES]
    assert verdicts == [_valid(small, v) for v in VALUES]
    assert True in verdicts and False in verdicts
    assert set(small["$defs"]) == {"TextQuery"}  # used three times; every other model is written in place
    assert "title" not in str(small) and "'default': None" not in str(small)


class Leaf(BaseModel):
    """A leaf,
    described on two lines."""

    n: Annotated[int, Field(ge=0)] | float = 0
    """Not merged into one type: its bound would bind the other."""


class Tree(BaseModel):
    children: list[Tree] = []
    leaf: Leaf | None = None
    kind: str | int | None = None


def test_a_recursive_model_stays_a_def_and_bounded_numbers_stay_apart() -> None:
    small = compact(Tree.model_json_schema())
    assert set(small["$defs"]) == {"Tree"} and small["$ref"] == "#/$defs/Tree"
    tree = small["$defs"]["Tree"]["properties"]
    assert tree["kind"] == {"type": ["string", "integer", "null"]}
    assert tree["leaf"]["type"] == ["object", "null"]
    assert tree["leaf"]["description"] == "A leaf, described on two lines."
    assert "anyOf" in tree["leaf"]["properties"]["n"]
    for value in ({"leaf": {"n": -1.5}}, {"leaf": {"n": 1.5}}, {"children": [{"kind": 3}]}, {"kind": 1.5},
                  {"leaf": None}, {"children": [{"leaf": {"n": "x"}}]}):
        assert _valid(Tree.model_json_schema(), value) == _valid(small, value), value


def test_unwrap_joins_a_paragraph_s_lines_and_keeps_paragraphs_and_items() -> None:
    assert unwrap("one\ntwo\n\nthree\n- a\n- b") == "one two\n\nthree\n- a\n- b"
