"""The writers' turns (``clew.server.reading.Writers``) when a request ends early: an upload cancelled while its
ingest runs (a server's forced shutdown cancels its requests; the thread cannot be stopped) keeps its uploaded
files, and its turn, until that ingest ends, and the next writer then runs."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from clew.corpus.ingest import api as ingest_api  # the upload route calls its ingest_paths
from clew.corpus.store import Corpus
from clew.server.reading import Writers
from clew.server.rest import create_app

from ..corpus.test_rewrite import note

WAIT_SECONDS = 30
"""A bound on waits that end at once when the code is right (an event set)."""
ROUTE = "/v1/collections/notes/documents"


def files(name: str, i: int) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, note(i).encode(), "text/markdown"))]


def test_an_upload_cancelled_while_its_ingest_runs_keeps_its_files_until_the_ingest_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the cancelled request removed its upload's folder at once, under the ingest still reading it
    (``[False, True]``: a.md's folder gone, nothing of it stored)."""
    inside, go_on = threading.Event(), threading.Event()
    folder_there: list[bool] = []
    ingest_paths = ingest_api.ingest_paths

    def watched(corpus: Corpus, paths: list[str], **options: Any) -> Any:
        if not inside.is_set():
            inside.set()
            assert go_on.wait(WAIT_SECONDS)
        folder_there.append(Path(paths[0]).is_dir())
        return ingest_paths(corpus, paths, **options)

    async def uploads(app: Any) -> list[str]:
        transport = httpx.ASGITransport(app=app)  # the app runs in the client's task: cancelling it cancels both
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=60) as http:
            first = asyncio.ensure_future(http.post(ROUTE, files=files("a.md", 1)))
            assert await asyncio.to_thread(inside.wait, WAIT_SECONDS)
            first.cancel()
            for _ in range(20):  # let the cancellation reach the request and whatever it does on its way out
                await asyncio.sleep(0)
            go_on.set()
            with pytest.raises(asyncio.CancelledError):
                await first
            second = await http.post(ROUTE, files=files("b.md", 2))
            assert second.status_code == 200, second.text
            listed = await http.get(ROUTE)
            return sorted(row["key"] for row in listed.json()["documents"])

    monkeypatch.setattr(ingest_api, "ingest_paths", watched)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        keys = asyncio.run(uploads(create_app(corpus, auth=False)))
    assert folder_there == [True, True]
    assert keys == ["a.md", "b.md"]


def test_a_write_that_fails_ends_its_turn_and_a_writer_cancelled_in_the_queue_takes_none() -> None:
    writers = Writers()
    holding = threading.Event()

    def held() -> str:
        holding.wait(WAIT_SECONDS)
        return "first"

    async def run() -> list[str]:
        with pytest.raises(ZeroDivisionError):
            await writers.write(lambda: 1 // 0)
        first = asyncio.ensure_future(writers.write(held))
        queued = asyncio.ensure_future(writers.write(lambda: "queued"))
        while writers.waiting != 1:  # the first holds the turn, the second waits for it
            await asyncio.sleep(0)
        queued.cancel()
        holding.set()
        done = [await first]
        with pytest.raises(asyncio.CancelledError):
            await queued
        return [*done, await writers.write(lambda: "next")]

    assert asyncio.run(run()) == ["first", "next"]
