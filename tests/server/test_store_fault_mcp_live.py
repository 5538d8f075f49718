"""A storage fault under ``clew mcp`` is a tool error result, never a crash, and the same server
and client session are served again once the store reads again. ``clew mcp`` opens the corpus
read-only, so a full disk cannot invalidate it (it writes nothing: ``RLIMIT_FSIZE`` never bites);
the fault a reader meets is a file it can no longer read. Here the file loses its blocks under a
running server (truncated past its header, as by a failing disk or another program) and gets them
back. The answer goes through the same ``StoreHealth`` as REST's (``clew.server.storage``): the
store is checked (reopened had DuckDB invalidated it) and the call is answered ``failed`` or
``store_unavailable`` with DuckDB's reason."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from .conftest import free_port, wait_for_mcp_http

CLEW = [sys.executable, "-m", "clew.cli"]
KEPT = 12 * 4096
"""Bytes of the file left under the server: DuckDB's headers, not the blocks a search reads."""


async def search(client: Client) -> Any:
    return await client.call_tool("search", {"query": "budget", "collection": "notes"})


async def served_through_a_lost_file(client: Client, db: Path) -> dict[str, Any]:
    """Search with the file's blocks gone, then again with them back, in one client session."""
    whole = db.read_bytes()
    with db.open("r+b") as file:
        file.truncate(KEPT)
    try:
        during = await search(client)
        again = await search(client)  # the session survives a failed call
    finally:
        db.write_bytes(whole)
    after = await search(client)
    return {"during": during, "again": again, "after": after}


def check(seen: dict[str, Any]) -> None:
    for failed in (seen["during"], seen["again"]):
        assert failed.is_error, failed
        text = failed.content[0].text
        assert text.startswith(("failed: IO Error", "store_unavailable: ")), text
        assert "Could not read enough bytes" in text, text
    after = seen["after"]
    assert not after.is_error and after.structured_content["status"] == "ok", after.content
    assert after.structured_content["hits"], after.structured_content


def run_flow(transport: Callable[[], AbstractAsyncContextManager[Any]], db: Path) -> dict[str, Any]:
    async def flow() -> dict[str, Any]:
        async with Client(transport()) as client:
            return await served_through_a_lost_file(client, db)

    return asyncio.run(flow())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a file truncated under a reader, as Linux allows")
def test_a_lost_file_under_clew_mcp_over_http_is_a_tool_error_and_then_served(db_path: Path, config_path: Path,
                                                                                tmp_path: Path) -> None:
    port = free_port()
    with (tmp_path / "mcp.log").open("w") as log:
        server = subprocess.Popen([*CLEW, "mcp", "--db", str(db_path), "--config", str(config_path),
                                   "--transport", "http", "--port", str(port)], stdout=log, stderr=log)
    try:
        wait_for_mcp_http(port, server)
        seen = run_flow(lambda: streamable_http_client(f"http://127.0.0.1:{port}/mcp"), db_path)
        check(seen)
        assert server.poll() is None, (tmp_path / "mcp.log").read_text()  # the same process all along
    finally:
        server.terminate()
        server.wait(20)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a file truncated under a reader, as Linux allows")
def test_a_lost_file_under_clew_mcp_over_stdio_is_a_tool_error_and_then_served(db_path: Path,
                                                                                 config_path: Path) -> None:
    parameters = StdioServerParameters(command=CLEW[0], args=[*CLEW[1:], "mcp", "--db", str(db_path), "--config",
                                                              str(config_path)])
    check(run_flow(lambda: stdio_client(parameters), db_path))
