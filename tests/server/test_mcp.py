"""The MCP server through an in-memory client session: every tool, its errors, its docstring."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mcp.client.client import Client

from clew.agent.result import RetrievalResult
from clew.config.settings import ServerConfig
from clew.corpus.access import Principal
from clew.corpus.reader import Scope
from clew.corpus.search.api import SearchResult
from clew.corpus.store import Corpus
from clew.navigation.evidence import MAX_IDS
from clew.navigation.graph import MAX_SEEDS
from clew.navigation.models import (
    CitationReport,
    EvidenceResult,
    NavigationResult,
    NeighborsResult,
    ReadResult,
    SliceResult,
)
from clew.navigation.tree import TreeArgs, navigate_document_tree
from clew.server import mcp as clew_mcp
from clew.server.routers.common import component
from clew.surface import surface

from .conftest import ACME, MISSING

READER = Principal(name="reader", row_filter={"bool": {"must_not": [{"term": {"status": "restricted"}}]}})


def session(corpus: Corpus, principal: Principal | None = None) -> Callable[[Callable[[Client], Awaitable[Any]]], Any]:
    def run(body: Callable[[Client], Awaitable[Any]]) -> Any:
        async def go() -> Any:
            async with Client(clew_mcp.build_server(corpus, ServerConfig(), principal=principal)) as client:
                return await body(client)

        return asyncio.run(go())

    return run


async def call(client: Client, name: str, arguments: dict[str, Any]) -> Any:
    return await client.call_tool(name, arguments)


async def _instructions(client: Client) -> str | None:
    return client.instructions


async def _server_info(client: Client) -> Any:
    return client.server_info


def test_the_server_tells_a_client_its_name_and_version(corpus: Corpus) -> None:
    """A client shows the server it connected to by name and version, the one `clew --version` prints; clew's told
    an empty version (task U36)."""
    from importlib.metadata import version

    info = session(corpus)(_server_info)
    assert (info.name, info.version) == ("clew", version("clew")) and info.version


def test_every_tool_is_listed_with_the_contract(corpus: Corpus) -> None:
    tools = session(corpus)(lambda c: c.list_tools()).tools
    assert sorted(t.name for t in tools) == surface.names()
    described = {t.name: t.description for t in tools}
    # the listing reaches a model whole: the contract is stated once, on search (and in the server's
    # instructions), and the widening tools point to it
    assert clew_mcp.CONTRACT in described["search"]
    assert sum(clew_mcp.CONTRACT in d for d in described.values()) == 1
    for name in clew_mcp.WIDENING:
        assert described[name].endswith("Traversal contract: see search."), name
        assert name in clew_mcp.CONTRACT
    assert "call search first" in clew_mcp.CONTRACT and "at most two widening rounds" in clew_mcp.CONTRACT
    assert clew_mcp.CONTRACT in (session(corpus)(_instructions) or "")
    for tool in tools:
        assert tool.output_schema is not None
    nav = next(t for t in tools if t.name == "navigate_document_tree")
    assert nav.input_schema["properties"]["relation"]["enum"] == [
        "parent", "siblings", "children", "previous", "next", "table_context"]
    assert nav.input_schema["required"] == ["evidence_id", "relation"]
    assert "ctx" not in nav.input_schema["properties"]


def test_a_document_argument_says_it_takes_a_title_the_same_on_mcp_and_rest(corpus: Corpus,
                                                                           client: TestClient) -> None:
    """The arguments read through ``open_document`` take an evidence id, a key or a unique title (task S1); what
    their descriptions say comes from one source, the tool's arguments model."""
    listed = {t.name: t.input_schema for t in session(corpus)(lambda c: c.list_tools()).tools}
    components = client.get("/openapi.json").json()["components"]["schemas"]
    for name, argument in (("read", "document"), ("grep", "document"), ("navigate", "document"), ("fetch_slice", "id")):
        said = surface.get(name).parameters()["properties"][argument]["description"]
        assert all(word in said for word in ("evidence id", "key", "title")), (name, said)
        assert listed[name]["properties"][argument]["description"] == said
        assert components[component(name)]["properties"][argument]["description"] == said


CASES: list[tuple[str, dict[str, Any], type]] = [
    ("search", {"query": "Orion planner", "limit": 2}, SearchResult),
    ("get_chunk", {"evidence_id": ACME[1]}, ReadResult),
    ("navigate_document_tree", {"evidence_id": ACME[0], "relation": "next", "limit": 3, "max_chars": 4000},
     NavigationResult),
    ("navigate", {"document": "acme-notes.md", "start_offset": 0, "end_offset": 10, "top_k": 2}, ReadResult),
    ("read", {"document": "acme-notes.md", "top_k": 2}, ReadResult),
    ("grep", {"document": "acme-notes.md", "pattern": "daniel okafor"}, ReadResult),
    ("expand_neighbors", {"ids": [ACME[0]], "relationship_types": ["next"]}, NeighborsResult),
    ("fetch_slice", {"id": ACME[1], "window": 3}, SliceResult),
    ("fetch_evidence", {"ids": [ACME[1]]}, EvidenceResult),
    ("check_citations", {"ids": [ACME[1]]}, CitationReport),
    ("retrieve", {"query": "who owns Orion Maps", "queries": [{"collection": "notes"}]}, RetrievalResult),
]


@pytest.mark.parametrize(("name", "arguments", "model"), CASES, ids=[c[0] for c in CASES])
def test_each_tool_answers_with_its_model(corpus: Corpus, name: str, arguments: dict, model: type) -> None:
    result = session(corpus)(lambda c: call(c, name, arguments))
    assert not result.is_error, result.content
    parsed = model.model_validate(result.structured_content)
    assert getattr(parsed, "status", "ok") in ("ok", "incomplete")


BAD: list[tuple[str, dict[str, Any], str]] = [
    ("search", {"query": "  "}, "query"),
    ("navigate_document_tree", {"evidence_id": ACME[0], "relation": "NEXT"}, "relation"),
    ("navigate_document_tree", {"evidence_id": ACME[0], "relation": "next", "limit": "3"}, "limit"),
    ("navigate", {"document": "acme-notes.md", "start_offset": 9, "end_offset": 1}, "end_offset"),
    ("read", {"document": "acme-notes.md", "top_k": 1.5}, "top_k"),
    ("grep", {"document": "acme-notes.md", "pattern": "x", "mode": "regex"}, "mode"),
    ("expand_neighbors", {"ids": []}, "ids"),
    ("check_citations", {"ids": "ev1:c:1:1:0"}, "ids"),
    ("search", {"query": "orion", "bogus": 1}, "bogus"),
    ("search", {"query": "orion", "collection": "nosuch"}, "collection"),
    ("retrieve", {"query": " ", "queries": [{"collection": "notes"}]}, "query"),
]


@pytest.mark.parametrize(("name", "arguments", "named"), BAD, ids=[f"{b[0]}-{b[2]}" for b in BAD])
def test_bad_input_is_a_tool_error_naming_the_field(corpus: Corpus, name: str, arguments: dict, named: str) -> None:
    result = session(corpus)(lambda c: call(c, name, arguments))
    assert result.is_error
    assert named in result.content[0].text


@pytest.mark.parametrize("name", ["navigate_document_tree", "read", "grep", "expand_neighbors", "fetch_slice",
                                  "fetch_evidence"])
def test_a_denied_row_is_the_same_result_as_a_missing_one(corpus: Corpus, secret_id: str, name: str) -> None:
    def arguments(target: str) -> dict[str, Any]:
        document = "budget.txt" if target == secret_id else "nope.txt"
        return {"navigate_document_tree": {"evidence_id": target, "relation": "next"},
                "read": {"document": document}, "grep": {"document": document, "pattern": "orion"},
                "expand_neighbors": {"ids": [target]}, "fetch_slice": {"id": target},
                "fetch_evidence": {"ids": [target]}}[name]

    async def both(client: Client) -> tuple[Any, Any]:
        return await call(client, name, arguments(secret_id)), await call(client, name, arguments(MISSING))

    denied, missing = session(corpus, READER)(both)
    assert not denied.is_error and not missing.is_error  # a status is a result, not a tool error
    as_sent = json.dumps(denied.structured_content).replace(secret_id, "ID").replace("budget.txt", "KEY")
    assert as_sent == json.dumps(missing.structured_content).replace(MISSING, "ID").replace("nope.txt", "KEY")
    assert denied.structured_content["status"] == "unavailable"
    allowed = session(corpus)(lambda c: call(c, name, arguments(secret_id)))
    assert not allowed.is_error and allowed.structured_content["status"] in ("ok", "no_match")


@pytest.mark.parametrize(("name", "arguments"), [("fetch_slice", {"id": "ev1:c:garbage"}),
                                                 ("fetch_evidence", {"ids": ["ev1:c:1"]})])
def test_a_malformed_id_is_a_result_with_that_status(corpus: Corpus, name: str, arguments: dict) -> None:
    result = session(corpus)(lambda c: call(c, name, arguments))
    assert not result.is_error and result.structured_content["status"] == "malformed"


def test_only_permitted_tools_are_listed_and_a_forbidden_one_reads_as_unknown(corpus: Corpus) -> None:
    narrow = Principal(name="narrow", tools=frozenset({"search", "fetch_evidence"}))

    async def flow(client: Client) -> tuple[list[str], Any, Any]:
        listed = [t.name for t in (await client.list_tools()).tools]
        return (listed, await call(client, "read", {"document": "acme-notes.md"}),
                await call(client, "no_such_tool", {"document": "acme-notes.md"}))

    listed, forbidden, unknown = session(corpus, narrow)(flow)
    assert sorted(listed) == ["fetch_evidence", "search"]
    assert forbidden.is_error and unknown.is_error
    assert forbidden.content[0].text.replace("'read'", "NAME") == unknown.content[0].text.replace(
        "'no_such_tool'", "NAME"
    )


def test_collection_is_honoured_by_every_reading_tool(corpus: Corpus) -> None:
    async def flow(client: Client) -> tuple[Any, Any]:
        return (await call(client, "search", {"query": "orion", "collection": "private"}),
                await call(client, "read", {"document": "acme-notes.md", "collection": "private"}))

    found, read = session(corpus)(flow)
    assert {h["collection"] for h in found.structured_content["hits"]} == {"private"}
    assert read.structured_content["status"] == "unavailable"


def test_search_and_retrieve_never_show_a_denied_row(corpus: Corpus, secret_id: str) -> None:
    async def both(client: Client) -> tuple[Any, Any]:
        return (
            await call(client, "search", {"query": "Orion budget restricted"}),
            await call(client, "retrieve", {"query": "Orion budget restricted", "queries": [{"collection": "notes"}]}),
        )

    found, ran = session(corpus, READER)(both)
    assert secret_id not in [h["evidence_id"] for h in found.structured_content["hits"]]
    assert secret_id not in [h["evidence_id"] for h in ran.structured_content["hits"]]


def test_fetched_evidence_becomes_citable_in_the_session(corpus: Corpus) -> None:
    async def flow(client: Client) -> tuple[Any, Any]:
        before = await call(client, "check_citations", {"ids": [ACME[1]]})
        await call(client, "fetch_evidence", {"ids": [ACME[1]]})
        return before, await call(client, "check_citations", {"ids": [ACME[1]]})

    before, after = session(corpus)(flow)
    assert before.structured_content["verdicts"][0]["reason"] == "not_fetched"
    assert after.structured_content["all_citable"] is True


def test_each_client_session_has_its_own_ledger(corpus: Corpus) -> None:
    server = clew_mcp.build_server(corpus, ServerConfig())
    first, second = server.context("session-1"), server.context("session-2")  # type: ignore[attr-defined]
    surface.call("fetch_evidence", {"ids": [ACME[1]]}, first)
    assert surface.call("check_citations", {"ids": [ACME[1]]}, first).all_citable is True
    assert surface.call("check_citations", {"ids": [ACME[1]]}, second).all_citable is False
    assert server.context("session-1").ledger is first.ledger  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_the_in_process_client_has_the_servers_one_ledger(corpus: Corpus, mode: str) -> None:
    """No transport session in process (either era): the server's own ledger serves its one client."""
    server = clew_mcp.build_server(corpus, ServerConfig())

    async def flow() -> tuple[str, Any]:
        async with Client(server, mode=mode) as client:
            await call(client, "fetch_evidence", {"ids": [ACME[1]]})
            return client.protocol_version, await call(client, "check_citations", {"ids": [ACME[1]]})

    version, checked = asyncio.run(flow())
    assert checked.structured_content["all_citable"] is True
    assert surface.call("check_citations", {"ids": [ACME[1]]}, server.context()).all_citable is True  # type: ignore[attr-defined]
    assert (version == "2026-07-28") is (mode == "auto")  # in process, "auto" stays on the sessionless wire


def test_past_max_sessions_the_least_recently_used_ledger_is_forgotten(corpus: Corpus,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clew_mcp, "MAX_SESSIONS", 2)
    server = clew_mcp.build_server(corpus, ServerConfig())

    def citable(session: str) -> bool:
        return surface.call("check_citations", {"ids": [ACME[1]]}, server.context(session)).all_citable  # type: ignore[attr-defined,no-any-return]

    for session in ("s1", "s2"):
        surface.call("fetch_evidence", {"ids": [ACME[1]]}, server.context(session))  # type: ignore[attr-defined]
    assert citable("s1")  # s1 is now the most recently used
    server.context("s3")  # type: ignore[attr-defined]  # a third session: s2, the least recently used, goes
    assert citable("s1")
    assert not citable("s2")


def test_navigation_equals_the_python_call(corpus: Corpus) -> None:
    arguments = {"evidence_id": ACME[0], "relation": "next", "limit": 3, "max_chars": 4000}
    result = session(corpus)(lambda c: call(c, "navigate_document_tree", arguments))
    direct = navigate_document_tree(Scope(corpus), TreeArgs(**arguments))
    assert NavigationResult.model_validate(result.structured_content) == direct


# -- the numbers the docstrings state are the numbers the code applies ----------------------

APPLIED: dict[str, Callable[[dict[str, Any], str], int]] = {
    "expand_neighbors": lambda r, name: r[name] if name in ("depth", "limit") else r["filters"][name],
    "search": lambda r, name: r["applied"][name],
}


def _applied(result: dict[str, Any], tool: str, name: str) -> int:
    return APPLIED.get(tool, lambda r, n: r["applied"][n])(result, name)


BASE: dict[str, dict[str, Any]] = {
    "search": {"query": "orion"},
    "get_chunk": {"evidence_id": ACME[0]},
    "navigate_document_tree": {"evidence_id": ACME[0], "relation": "next"},
    "navigate": {"document": "acme-notes.md", "start_offset": 0, "end_offset": 0},
    "read": {"document": "acme-notes.md"},
    "grep": {"document": "acme-notes.md", "pattern": "orion"},
    "expand_neighbors": {"ids": [ACME[0]]},
    "fetch_slice": {"id": ACME[0]},
    "fetch_evidence": {"ids": [ACME[0]]},
    "retrieve": {"query": "orion", "queries": [{"collection": "notes"}]},
}


def test_stated_bounds_are_the_bounds_the_tools_apply(corpus: Corpus) -> None:
    checked = 0
    for tool in surface.tools():
        listed = next(t for t in session(corpus)(lambda c: c.list_tools()).tools if t.name == tool.name)
        stated = {n: tuple(map(int, re.findall(r"\((\d+)-(\d+); clamped\)", p.get("description", ""))[0]))
                  for n, p in listed.input_schema["properties"].items() if "; clamped)" in p.get("description", "")}
        bounds = tool.arguments.bounds()
        assert stated == {n: (b.low, b.high) for n, b in bounds.items()}, tool.name
        for name, bound in bounds.items():
            async def both(client: Client, tool: str = tool.name, name: str = name) -> tuple[Any, Any]:
                return (await call(client, tool, {**BASE[tool], name: -10**9}),
                        await call(client, tool, {**BASE[tool], name: 10**9}))

            under, over = session(corpus)(both)
            assert _applied(under.structured_content, tool.name, name) == bound.low, (tool.name, name)
            assert _applied(over.structured_content, tool.name, name) == bound.high, (tool.name, name)
            assert f"({bound.low}-{bound.high}; clamped)" in listed.input_schema["properties"][name]["description"]
            checked += 1
    assert checked >= 15
    # the counts the descriptions state, against the constants
    assert "at most 8 are used" in surface.get("expand_neighbors").parameters()["properties"]["ids"]["description"]
    assert MAX_SEEDS == 8
    assert f"at most {MAX_IDS}" in surface.get("fetch_evidence").parameters()["properties"]["ids"]["description"]
    words = {"one": 1, "two": 2, "three": 3}
    rounds = re.search(r"at most (\w+) widening rounds", clew_mcp.CONTRACT)
    assert rounds is not None and words[rounds.group(1)] == clew_mcp.MAX_WIDENING_ROUNDS
