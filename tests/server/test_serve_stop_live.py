"""``clew serve`` stopped with ``kill PID`` (SIGTERM), as a user stops a server started in the
background: it closes the corpus and ends the parse worker an upload started, and exits 0.
Before, uvicorn raised SIGTERM again after its graceful shutdown and the process died of it
(status -15), the corpus never closed and the resource tracker printed "There appear to be 6
leaked semaphore objects to clean up at shutdown" (task U4)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import httpx

import clew

from ..corpus.ingest.formats.test_parse_bounds import pdf_with, text_page
from .conftest import free_port, wait_for_rest


def test_a_server_stopped_by_sigterm_after_a_pdf_upload_closes_cleanly(tmp_path: Path) -> None:
    db, port = tmp_path / "served.duckdb", free_port()
    process = subprocess.Popen([sys.executable, "-m", "clew.cli", "serve", "--db", str(db), "--no-auth",
                                "--port", str(port)], stderr=subprocess.PIPE)
    try:
        wait_for_rest(port, process)
        pdf = pdf_with([text_page(["The", "kestrel", "manual."])])
        answer = httpx.post(f"http://127.0.0.1:{port}/v1/collections/docs/documents",
                            files=[("files", ("manual.pdf", pdf, "application/pdf"))], timeout=120)
        assert answer.status_code == 200 and answer.json()["versions_created"] == 1, answer.text
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(20)
    assert process.returncode == 0, stderr.decode()
    assert b"leaked" not in stderr and b"Traceback" not in stderr, stderr.decode()
    with clew.Corpus(db, read_only=True) as corpus:  # closed by the server: another process may open it
        hits = clew.search(corpus, {"query": "kestrel", "collection": "docs"}).hits
        assert [hit.document_key for hit in hits] == ["manual.pdf"]
