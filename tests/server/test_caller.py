"""What a caller receives over MCP (a real client session) and REST: a query alone is a
request, the result is lean unless steps are asked for, and MCP's text block is for reading."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi.testclient import TestClient
from mcp.client.client import Client

from clew.budgets.tokens import count_tokens
from clew.config.settings import ServerConfig
from clew.corpus.access import Principal
from clew.corpus.store import Corpus
from clew.server import mcp as clew_mcp

from .conftest import ACME, READER, auth

NOTES_ONLY = Principal(name="notes-reader", collections=["notes"])


def call(corpus: Corpus, arguments: dict[str, Any], principal: Principal | None = None) -> Any:
    async def go() -> Any:
        async with Client(clew_mcp.build_server(corpus, ServerConfig(), principal=principal)) as client:
            return await client.call_tool("retrieve", arguments)

    return asyncio.run(go())


def test_mcp_retrieve_with_only_a_query_walks_the_one_readable_collection(corpus: Corpus) -> None:
    called = call(corpus, {"query": "Who owns Orion Maps?"}, NOTES_ONLY)
    assert not called.is_error
    result = called.structured_content
    assert result["applied"]["collection"] == "notes" and result["hits"]
    assert (result["status"], result["stop_reason"]) in (("ok", "exhausted_frontier"), ("incomplete", "context_budget"))


def test_mcp_retrieve_with_only_a_query_over_several_collections_names_them(corpus: Corpus) -> None:
    called = call(corpus, {"query": "Who owns Orion Maps?"})  # the local principal reads notes and private
    assert called.is_error
    assert "queries" in called.content[0].text and "notes, private" in called.content[0].text


def test_mcp_text_block_is_a_compact_rendering_and_steps_come_when_asked(corpus: Corpus) -> None:
    called = call(corpus, {"query": "Who owns Orion Maps?", "context_budget_tokens": 2000}, NOTES_ONLY)
    text = called.content[0].text
    result = called.structured_content
    lines = text.splitlines()
    assert lines[0] == f"{result['status']}: " + lines[0].split(": ", 1)[1]  # the stop line first
    assert "evidence_id" not in text and not text.lstrip().startswith("{")  # not a second copy of the JSON
    for hit in result["hits"]:
        assert f"[{hit['evidence_id']}] {hit['document_key']}" in text and hit["text"].strip() in text
        assert set(hit) >= {"evidence_id", "document_key", "heading_path", "text", "score", "trust", "location"}
        assert not set(hit) & {"via", "depth", "origin", "tokens"}  # the walk's record: with steps
    assert "steps" not in result and result["summary"]["steps"] > 0 and result["summary"]["tool_calls"]["search"] == 1
    evidence = sum(count_tokens(h["text"]) for h in result["hits"])
    assert count_tokens(text) <= 1.5 * evidence + 300
    stepped = call(corpus, {"query": "Who owns Orion Maps?", "include_steps": True}, NOTES_ONLY).structured_content
    assert len(stepped["steps"]) == stepped["summary"]["steps"] and all("via" in h for h in stepped["hits"])


def test_rest_retrieval_with_only_a_query_and_a_lean_result(client: TestClient) -> None:
    # clew serve's configuration names default_collection = "notes": it fills in queries[]
    response = client.post("/v1/agents/retrieval", json={"query": "Who owns Orion Maps?"}, headers=auth(READER))
    assert response.status_code == 200, response.text
    result = response.json()
    assert ACME[1] in [h["evidence_id"] for h in result["hits"]] and "steps" not in result
    asked = client.post("/v1/agents/retrieval", json={"query": "Who owns Orion Maps?", "include_steps": True},
                        headers=auth(READER)).json()
    assert asked["steps"] and json.dumps(asked["steps"])
