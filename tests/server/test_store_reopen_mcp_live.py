"""An MCP server whose DuckDB database was invalidated reopens it: a real client session over
streamable HTTP (uvicorn on 127.0.0.1) is told ``store_unavailable`` while it cannot, and is served
again, with every acknowledged write, once space is back, without a restart.

``clew mcp`` opens the corpus read-only, which a full disk cannot invalidate
(``test_store_fault_mcp_live.py`` covers what a reader meets). A process that embeds the MCP
server over a read-write corpus (``build_server``) and writes to it can be invalidated: here an
ingest in that process writes under ``RLIMIT_FSIZE`` (file writes past a size fail with EFBIG, as
on a full disk), its checkpoint fails, and DuckDB itself raises its ``FatalException`` and
invalidates the database under the server's connection. The next tool call meets the
invalidated connection, reopens the file (opening it replays the write-ahead log and writes
nothing, so it succeeds even before space is back) and is answered ``store_unavailable`` with
DuckDB's reason and "retry"; the calls after it are served."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.server.guard import mcp_security
from clew.server.mcp import ClewServer, build_server
from clew.server.storage import RETRY_SECONDS

from .conftest import free_port
from .test_rest_live import Served

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE as Linux has it")


@contextmanager
def full_disk_past(room: int) -> Iterator[None]:
    """File writes of this process past ``room`` bytes fail with EFBIG (SIGXFSZ ignored), until the end."""
    import resource
    import signal

    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, limit[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, handler)


def documents(folder: Path, count: int) -> Path:
    folder.mkdir()
    for i in range(count):
        (folder / f"d{i}.md").write_text(f"# Doc {i}\n\n" + " ".join(f"zq{i}w{j}" for j in range(8000)))
    return folder


async def search(client: Client, query: str) -> Any:
    return await client.call_tool("search", {"query": query, "collection": "notes"})


def test_an_invalidated_database_is_reopened_for_the_same_mcp_session(tmp_path: Path) -> None:
    (tmp_path / "first.md").write_text("# First\n\nThe budget note.\n", encoding="utf-8")
    more = documents(tmp_path / "more", 6)
    db = tmp_path / "c.duckdb"
    port = free_port()
    with Corpus(db) as corpus:
        ingest_paths(corpus, [tmp_path / "first.md"], collection="notes")
        server = build_server(corpus)
        assert isinstance(server, ClewServer)
        app = server.streamable_http_app(host="127.0.0.1", transport_security=mcp_security("127.0.0.1", port, []))

        async def flow() -> dict[str, Any]:
            seen: dict[str, Any] = {}
            async with Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp")) as client:
                seen["before"] = await search(client, "budget")
                with full_disk_past(db.stat().st_size + 300_000):
                    # the write is acknowledged (in the write-ahead log); its checkpoint is not
                    seen["ingest"] = await asyncio.to_thread(ingest_paths, corpus, [more], collection="notes")
                    with pytest.raises(duckdb.FatalException, match="database has been invalidated"):
                        corpus.cursor().execute("SELECT 1")
                    seen["during"] = await search(client, "budget")
                await asyncio.sleep(RETRY_SECONDS)  # past the pause between reopen attempts
                seen["after"] = await search(client, "budget")
                seen["written"] = await search(client, "zq3w5")
            return seen

        with Served(app, port):
            seen = asyncio.run(flow())
        assert seen["before"].structured_content["status"] == "ok"
        assert seen["ingest"].versions_created == 6 and seen["ingest"].compaction_deferred
        during = seen["during"]
        assert during.is_error, during
        text = during.content[0].text
        assert text.startswith("store_unavailable: ") and "File too large" in text, text
        for name in ("after", "written"):
            result = seen[name]
            assert not result.is_error and result.structured_content["status"] == "ok", result.content
        assert seen["after"].structured_content["hits"][0]["document_key"] == "first.md"
        assert seen["written"].structured_content["hits"][0]["document_key"] == "d3.md"
        assert server.health.reopened >= 1 and server.health.failure is None
