"""What a real MCP client lists over stdio (``clew mcp``): what it costs a model's context, with nothing in it
that no one reads, and schemas that still hold every call the tools take and refuse the ones they refuse."""

from __future__ import annotations

import asyncio
import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from clew.surface import surface

from .conftest import ACME, build_corpus

FIXTURE = Path(__file__).parents[1] / "fixtures" / "markdown" / "acme-notes.md"
BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "mcp_listing.py"
GOAL = 4200
"""Tokens (cl100k_base) of the eleven tools' names, descriptions and input schemas, at most: 4,000 measured on
2026-12-07 (6,568 before task M1), and a twentieth of room for a description's next sentence."""

GOOD: dict[str, dict[str, Any]] = {
    "search": {"query": "Orion planner", "limit": 2, "collection": "notes", "filter": None},
    "navigate_document_tree": {"evidence_id": ACME[0], "relation": "next"},
    "get_chunk": {"evidence_id": ACME[1], "max_chars": 400},
    "navigate": {"document": "acme-notes.md", "start_offset": 0, "end_offset": 10},
    "read": {"document": "acme-notes.md", "start": None, "top_k": 2},
    "grep": {"document": "acme-notes.md", "pattern": "orion", "mode": "term"},
    "expand_neighbors": {"ids": [ACME[0]], "relationship_types": ["next"], "types": ["chunk"]},
    "fetch_slice": {"id": ACME[1], "window": 3},
    "fetch_evidence": {"ids": [ACME[1]]},
    "check_citations": {"ids": [ACME[1]]},
    "retrieve": {"query": "who owns Orion Maps", "generator": None,
                 "queries": [{"collection": "notes", "full_text_search": {"query": "Orion", "field": None},
                              "filter_query": {"term": "x", "field": "status"}, "limit": 5}],
                 "steps": {"retrieval": {"navigation": {"strategy": "tree", "index": None}}}},
}
"""A call each tool answers, using optional fields (null among them) and, for retrieve, its nested objects."""
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "search": ({"query": "orion", "mode": "fuzzy"}, "mode"),
    "navigate_document_tree": ({"evidence_id": ACME[0], "relation": "cousins"}, "relation"),
    "get_chunk": ({"evidence_id": ACME[0], "max_chars": "many"}, "max_chars"),
    "navigate": ({"document": "acme-notes.md", "start_offset": 0}, "end_offset"),
    "read": ({"document": "acme-notes.md", "start": "0"}, "start"),
    "grep": ({"document": "acme-notes.md", "pattern": "orion", "bogus": 1}, "bogus"),
    "expand_neighbors": ({"ids": [ACME[0]], "types": ["paragraph"]}, "types"),
    "fetch_slice": ({"id": ACME[1], "window": 2.5}, "window"),
    "fetch_evidence": ({"ids": ACME[0]}, "ids"),
    "check_citations": ({}, "ids"),
    "retrieve": ({"query": "orion", "steps": {"retrieval": {"navigation": {"strategy": "sideways"}}}}, "strategy"),
}
"""A call each tool refuses, and the field its error names."""


def _reached(schema: dict[str, Any]) -> set[str]:
    """The ``$defs`` a schema's own properties reach, through the defs they name."""
    defs = schema.get("$defs", {})
    reached: set[str] = set()
    pending = [{k: v for k, v in schema.items() if k != "$defs"}]
    while pending:
        for name in re.findall(r'"#/\$defs/([^"]+)"', json.dumps(pending.pop())):
            assert name in defs, f"$ref to a missing def {name}"
            if name not in reached:
                reached.add(name)
                pending.append(defs[name])
    return reached


async def _session(db: Path) -> tuple[list[Any], dict[str, Any], dict[str, Any]]:
    """The listed tools, and each tool's answer to its good and its bad call, over one stdio session."""
    server = StdioServerParameters(command=sys.executable, args=["-m", "clew.cli", "mcp", "--db", str(db)])
    async with Client(stdio_client(server)) as client:
        tools = (await client.list_tools()).tools
        good = {name: await client.call_tool(name, args) for name, args in GOOD.items()}
        bad = {name: await client.call_tool(name, args) for name, (args, _) in BAD.items()}
    return tools, good, bad


Listed = tuple[Path, list[Any], dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Listed:
    """One stdio session for the module's tests (``_session``), on a corpus of its own: each test started a
    ``clew mcp`` of its own for the same listing (1.2 s of CPU a start)."""
    db = build_corpus(tmp_path_factory.mktemp("listing"), FIXTURE)
    return (db, *asyncio.run(_session(db)))


def _benchmark(db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``benchmarks/mcp_listing.py --db DB``'s report, the script run in this process (``runpy``, as
    tests/test_benchmarks.py runs the others): it lists the tools over a ``clew mcp`` session of its own."""
    monkeypatch.setattr(sys, "argv", [str(BENCHMARK), "--db", str(db)])
    capsys.readouterr()
    runpy.run_path(str(BENCHMARK), run_name="__main__")
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_the_listing_is_under_its_goal_and_every_tool_takes_a_good_call_and_refuses_a_bad_one(
        listed: Listed, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db, tools, good, bad = listed
    assert sorted(t.name for t in tools) == sorted(GOOD) == sorted(BAD) == surface.names()
    for tool in tools:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        # what a validating client checks before it sends, and after it receives
        jsonschema.validate(GOOD[tool.name], tool.input_schema)
        assert not good[tool.name].is_error, (tool.name, good[tool.name].content)
        jsonschema.validate(good[tool.name].structured_content, tool.output_schema)
        args, field = BAD[tool.name]
        assert not jsonschema.Draft202012Validator(tool.input_schema).is_valid(args), tool.name
        assert bad[tool.name].is_error and field in bad[tool.name].content[0].text, (tool.name, bad[tool.name])
    # the figure the MCP guide gives, counted by the benchmark over a session of its own
    report = _benchmark(db, monkeypatch, capsys)
    assert report["tools"] == len(tools) and set(report["per_tool"]) == set(GOOD)
    assert report["input"] == sum(p["input"] for p in report["per_tool"].values()) <= GOAL
    assert report["total"]["titles"] == report["total"]["output_titles"] == report["total"]["bounds"] == 0
    assert report["total"]["contract"] == report["per_tool"]["search"]["contract"] > 0  # stated once


def test_every_listed_def_is_read_and_retrieve_lists_no_principal(listed: Listed) -> None:
    """``retrieve`` hides its ``principal`` (always the caller's), but its schema kept the ``Principal``
    model among its ``$defs``: 246 tokens (cl100k_base) that every client listing the tools received
    and nothing referenced (task U20). A model used once is written where it is used (task M1)."""
    schemas = {tool.name: tool.input_schema for tool in listed[1]}
    assert "retrieve" in schemas and "principal" not in schemas["retrieve"]["properties"]
    for name, schema in schemas.items():
        assert set(schema.get("$defs", {})) == _reached(schema), name
    assert "Principal" not in json.dumps(schemas["retrieve"])
    assert set(schemas["retrieve"]["$defs"]) == {"TextQuery"}  # queries[]' three searches share it
    query = schemas["retrieve"]["properties"]["queries"]["items"]
    assert {"collection", "full_text_search", "filter", "filter_query", "limit"} <= set(query["properties"])
    navigation = schemas["retrieve"]["properties"]["steps"]["properties"]["retrieval"]["properties"]["navigation"]
    assert navigation["type"] == ["object", "null"] and "strategy" in navigation["properties"]
