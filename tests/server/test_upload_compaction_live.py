"""A REST upload (a real uvicorn on 127.0.0.1, ``--no-auth``) gives back the blocks its index compaction freed,
as ``clew ingest`` does, without pulling the file from under a request that is still reading:
the rewrite waits for it (or is put off), and requests that come during the rewrite wait for it."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import httpx
import pytest

from clew.corpus.rewrite import REWRITE_FREE_SHARE, space
from clew.corpus.store import Corpus
from clew.server.rest import create_app
from clew.testing import FunctionModel, reply_text

from ..corpus.test_rewrite import note
from .test_rest_live import Served


def upload(http: httpx.Client, files: dict[str, str]) -> dict:
    answer = http.post("/v1/collections/notes/documents", params={"chunk_tokens": 40},
                       files=[("files", (name, text.encode(), "text/markdown")) for name, text in files.items()])
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


FIRST = {f"n{i}.md": note(i) for i in range(30)}
SECOND = {f"m{i}.md": note(100 + i) for i in range(10)}


def test_an_upload_gives_back_the_freed_blocks_and_the_server_reads_the_new_file(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus, Served(create_app(corpus, auth=False)) as served, \
            httpx.Client(base_url=served.url, timeout=60) as http:
        assert upload(http, FIRST)["file_compacted"] is None  # a fresh file: nothing freed yet
        report = upload(http, SECOND)
        done = report["file_compacted"]
        assert done is not None and not report["file_compaction_deferred"]
        assert done["free_share_before"] > REWRITE_FREE_SHARE >= done["free_share_after"]
        assert space(corpus).free_share <= REWRITE_FREE_SHARE
        found = http.post("/v1/tools/search", json={"query": "depot file 105"})
        assert found.status_code == 200 and found.json()["hits"][0]["document_key"] == "m5.md"


def test_a_request_still_reading_puts_the_rewrite_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A streamed run that waits on its model holds the corpus as a reader; an upload meanwhile
    stores its documents and puts the rewrite off; the next upload, with nobody reading, does it."""
    monkeypatch.setattr("clew.corpus.rewrite.READERS_WAIT_SECONDS", 0.5)
    monkeypatch.setattr("clew.corpus.search.index.READERS_WAIT_SECONDS", 0.5)  # the index compaction's wait before it
    gate = threading.Event()

    async def answer(messages: list[dict], tools: list[dict] | None) -> dict:
        await asyncio.to_thread(gate.wait, 30)
        return reply_text("The depot file is read by the planner.")

    request = {"query": "planner depot", "queries": [{"collection": "notes"}], "stream": True}
    with Corpus(tmp_path / "c.duckdb") as corpus:
        app = create_app(corpus, auth=False, model=FunctionModel(answer, name="gated"))
        with Served(app) as served, httpx.Client(base_url=served.url, timeout=60) as http:
            upload(http, FIRST)
            events: list[str] = []
            with http.stream("POST", "/v1/agents/retrieval", json=request) as running:
                lines = running.iter_lines()
                while not events:  # the run has started (a step streamed) and now waits on its model
                    line = next(lines)
                    if line.startswith("event: "):
                        events.append(line.removeprefix("event: "))
                put_off = upload(http, SECOND)
                gate.set()
                events += [line.removeprefix("event: ") for line in lines if line.startswith("event: ")]
            assert events[-1] == "result"
            assert put_off["file_compacted"] is None and put_off["file_compaction_deferred"]
            assert put_off["versions_created"] == 10  # the documents are stored all the same
            assert space(corpus).free_share > REWRITE_FREE_SHARE
            later = upload(http, {"late.md": note(999)})
            assert later["file_compacted"] is not None and not later["file_compaction_deferred"]
            assert space(corpus).free_share <= REWRITE_FREE_SHARE


def test_a_request_during_a_rewrite_waits_for_it(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus, Served(create_app(corpus, auth=False)) as served, \
            httpx.Client(base_url=served.url, timeout=60) as http:
        upload(http, FIRST)
        answered = threading.Event()
        answers: list[int] = []

        def search() -> None:
            answers.append(http.post("/v1/tools/search", json={"query": "depot"}).status_code)
            answered.set()

        with corpus.readers.drained(5) as idle:  # what a rewrite holds while it copies the file
            assert idle
            waiting = threading.Thread(target=search)
            waiting.start()
            assert not answered.wait(0.5), "a search ran while the file was being rewritten"
        waiting.join(30)
        assert answers == [200]
        assert json.loads(http.get("/healthz").text) == {"status": "ok"}
