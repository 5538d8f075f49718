"""Citation ledgers across real MCP transports: each ``clew mcp --transport http`` client session
on 127.0.0.1 cites only what it fetched itself; the one client over stdio has the server's ledger."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from tests.conftest import Prebuilt

from .conftest import ACME, CONFIG, build_notes, free_port, wait_for_mcp_http

CLEW = [sys.executable, "-m", "clew.cli"]


@pytest.fixture(scope="module")
def mcp_url(tmp_path_factory: pytest.TempPathFactory, prebuilt: Prebuilt) -> Iterator[str]:
    """``clew mcp --transport http`` in its own process, as a user starts it: one for the module (a start is
    about 1.3 s of CPU). Each test talks to it through client sessions of its own, as clients of one server do."""
    folder = tmp_path_factory.mktemp("ledger")
    db_path = prebuilt(build_notes, folder) / "corpus.duckdb"
    config_path = folder / "clew.toml"
    config_path.write_text(CONFIG, encoding="utf-8")
    port = free_port()
    server = subprocess.Popen([*CLEW, "mcp", "--db", str(db_path), "--config", str(config_path), "--transport", "http",
                               "--port", str(port)], stderr=subprocess.DEVNULL)
    try:
        wait_for_mcp_http(port, server)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(20)


async def verdict(client: Client, evidence_id: str) -> dict[str, Any]:
    """What ``check_citations`` says of one id for this client."""
    result = await client.call_tool("check_citations", {"ids": [evidence_id]})
    assert not result.is_error, result.content
    return dict(result.structured_content["verdicts"][0])


async def fetch(client: Client, evidence_id: str) -> None:
    result = await client.call_tool("fetch_evidence", {"ids": [evidence_id]})
    assert not result.is_error and result.structured_content["status"] == "ok", result.structured_content


def test_two_http_client_sessions_have_two_ledgers(mcp_url: str) -> None:
    async def flow() -> dict[str, Any]:
        async with Client(streamable_http_client(mcp_url)) as a, Client(streamable_http_client(mcp_url)) as b:
            seen: dict[str, Any] = {"versions": (a.protocol_version, b.protocol_version)}
            await fetch(a, ACME[1])
            seen["a"] = await verdict(a, ACME[1])
            seen["b"] = await verdict(b, ACME[1])
            seen["a again"] = await verdict(a, ACME[1])
            await fetch(b, ACME[2])
            seen["a, b's"] = await verdict(a, ACME[2])
            seen["b, b's"] = await verdict(b, ACME[2])
            return seen

    seen = asyncio.run(flow())
    assert seen["a"] == {"id": ACME[1], "citable": True, "reason": "ok"}
    assert seen["b"] == {"id": ACME[1], "citable": False, "reason": "not_fetched"}
    assert seen["a again"] == seen["a"]
    assert seen["a, b's"] == {"id": ACME[2], "citable": False, "reason": "not_fetched"}
    assert seen["b, b's"]["citable"] is True
    # clients in their default mode fall back to the handshake, the era that opens a session
    assert set(seen["versions"]) <= set(HANDSHAKE_PROTOCOL_VERSIONS), seen["versions"]


def test_an_http_request_without_a_session_cites_only_what_it_fetched_in_itself(mcp_url: str) -> None:
    """A client pinned to the 2026-07-28 wire sends each call as one POST with no session."""
    modern = MODERN_PROTOCOL_VERSIONS[-1]

    async def flow() -> dict[str, Any]:
        async with Client(streamable_http_client(mcp_url)) as a, \
                Client(streamable_http_client(mcp_url), mode=modern) as stateless:
            seen: dict[str, Any] = {"version": stateless.protocol_version}
            await fetch(a, ACME[1])
            seen["stateless, a's"] = await verdict(stateless, ACME[1])
            await fetch(stateless, ACME[2])
            seen["stateless, its own"] = await verdict(stateless, ACME[2])
            seen["a, stateless's"] = await verdict(a, ACME[2])
            seen["a, a's"] = await verdict(a, ACME[1])
            return seen

    seen = asyncio.run(flow())
    assert seen["version"] == modern
    not_fetched = {"citable": False, "reason": "not_fetched"}
    assert seen["stateless, a's"] == {"id": ACME[1], **not_fetched}
    assert seen["stateless, its own"] == {"id": ACME[2], **not_fetched}  # its fetch was another request
    assert seen["a, stateless's"] == {"id": ACME[2], **not_fetched}
    assert seen["a, a's"] == {"id": ACME[1], "citable": True, "reason": "ok"}


def test_the_one_stdio_client_cites_what_it_fetched(db_path: Path, config_path: Path) -> None:
    parameters = StdioServerParameters(command=CLEW[0], args=[*CLEW[1:], "mcp", "--db", str(db_path), "--config",
                                                              str(config_path)])

    async def flow() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Client(stdio_client(parameters)) as client:
            before = await verdict(client, ACME[1])
            await fetch(client, ACME[1])
            return before, await verdict(client, ACME[1])

    before, after = asyncio.run(flow())
    assert before == {"id": ACME[1], "citable": False, "reason": "not_fetched"}
    assert after == {"id": ACME[1], "citable": True, "reason": "ok"}
