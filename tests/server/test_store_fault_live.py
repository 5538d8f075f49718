"""A storage fault leaves the server answering: after DuckDB invalidates the database (a
checkpoint that could not write the file), the server reopens it, answers 503 with a JSON reason
meanwhile, and loses no write it answered 200. A real ``clew serve`` on 127.0.0.1 whose file
writes fail past a size, as on a full disk (``RLIMIT_FSIZE``); the test then gives the space back
(``prlimit`` on the running server) and the same process serves again, without a restart."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from .conftest import free_port

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="RLIMIT_FSIZE and prlimit as Linux has them")


RETRY_SECONDS = 0.25
PAUSE = RETRY_SECONDS + 0.1
# `python -m clew.cli` with the server's pause between reopen attempts (clew.server.storage.RETRY_SECONDS,
# 1 s) at 0.25 s: the test waits past it four times
SERVE = ("import runpy, clew.server.storage as storage; "
         f"storage.RETRY_SECONDS = {RETRY_SECONDS}; runpy.run_module('clew.cli', run_name='__main__', alter_sys=True)")


def upload(http: httpx.Client, i: int) -> httpx.Response:
    body = f"# Doc {i}\n\n" + " ".join(f"zq{i}w{j}" for j in range(8000))
    return http.post("/v1/collections/docs/documents", timeout=60,
                     files=[("files", (f"d{i}.md", body.encode(), "text/markdown"))])


def test_a_full_disk_is_survived_without_a_restart_and_no_acknowledged_write_is_lost(tmp_path: Path) -> None:
    import resource
    import signal

    (tmp_path / "first.md").write_text("# First\n\nThe first document.\n", encoding="utf-8")
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [tmp_path / "first.md"], collection="docs")
    room = db.stat().st_size + 1_500_000

    def full_disk_past_room() -> None:  # writes past `room` bytes fail with EFBIG, as on a full disk
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))

    port = free_port()
    with (tmp_path / "server.log").open("w") as log:
        server = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--db", str(db), "--no-auth",
                                   "--port", str(port)], preexec_fn=full_disk_past_room, stdout=log, stderr=log,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
    acknowledged: list[int] = []
    refused: list[dict] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    assert time.monotonic() < deadline and server.poll() is None, (tmp_path / "server.log").read_text()
                    time.sleep(0.1)
            answers = []
            for i in range(12):  # the disk fills at the first few; each answer is 200 or a JSON 503
                response = upload(http, i)
                answers.append(response.status_code)
                if response.status_code == 200:
                    acknowledged.append(i)
                else:
                    assert response.status_code == 503, response.text
                    refused.append(response.json())
                if i % 4 == 3:
                    time.sleep(PAUSE)  # past the pause between reopen attempts
            assert refused, f"the disk never filled: {answers}"
            assert all(r["error"] in ("store_unavailable", "failed") and "File too large" in r["detail"]
                       for r in refused)
            health = http.get("/healthz")  # says what is wrong, or that it reopened the file
            assert health.status_code in (200, 503)
            if health.status_code == 503:
                assert health.json()["status"] == "unavailable" and "File too large" in health.json()["detail"]
            resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            time.sleep(PAUSE)
            assert http.get("/healthz").json() == {"status": "ok"}  # the space is back: served again
            last = upload(http, 99)
            assert last.status_code == 200, last.text
            acknowledged.append(99)
            listed = {d["key"] for d in http.get("/v1/collections/docs/documents").json()["documents"]}
            assert {f"d{i}.md" for i in acknowledged} <= listed
            for i in acknowledged:
                hits = http.post("/v1/tools/search", json={"query": f"zq{i}w7", "collection": "docs"}).json()["hits"]
                assert [h["document_key"] for h in hits][:1] == [f"d{i}.md"]
        assert server.poll() is None  # the same process all along
    finally:
        server.terminate()
        server.wait(30)
    assert "reopened after a storage failure" in (tmp_path / "server.log").read_text()
    with Corpus(db, read_only=True) as corpus:  # and on disk, after the server is gone
        keys = {row[0] for row in corpus.cursor().execute("SELECT key FROM documents").fetchall()}
    assert {f"d{i}.md" for i in acknowledged} <= keys
