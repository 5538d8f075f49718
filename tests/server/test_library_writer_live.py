"""A process that serves a corpus and also writes it from Python (a thread ingesting beside ``clew serve``'s app):
the upload's ingest and the library's take the corpus's one turn (``Corpus.turn``; ``clew.server.reading.Writers``
is only the queue in front of it), so each compacts its index and rewrites the file, and nothing is lost."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest

from clew.corpus.ingest.api import IngestReport, ingest_paths
from clew.corpus.store import Corpus
from clew.server.rest import create_app
from tests.conftest import write_files

from ..corpus.test_rewrite import note
from .test_concurrent_uploads_live import WAIT_SECONDS, upload
from .test_rest_live import Served


def test_an_upload_waits_for_a_library_ingest_of_the_same_corpus(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's ingest holds inside its write until the upload's ingest is queued for the corpus's turn
    (before the turn it ran inside: the one that ended during the other's bulk write skipped its rewrite)."""
    monkeypatch.setattr("clew.corpus.search.index.COMPACT_SHARE", -1.0)
    monkeypatch.setattr("clew.corpus.rewrite.REWRITE_FREE_SHARE", -1.0)
    folder = write_files(tmp_path / "lib", {f"lib{i}.md": note(i) for i in range(4)})
    with Corpus(tmp_path / "c.duckdb") as corpus, Served(create_app(corpus, auth=False)) as served, \
            httpx.Client(base_url=served.url, timeout=60) as http:
        upload(http, {"first.md": note(9)})
        inside, seen = threading.Event(), []

        def held(key: str) -> None:
            if not inside.is_set():
                inside.set()
                with corpus.turn.changed:
                    seen.append(corpus.turn.changed.wait_for(lambda: corpus.turn.waiting == 1, WAIT_SECONDS))

        library: list[IngestReport] = []
        writer = threading.Thread(target=lambda: library.append(
            ingest_paths(corpus, [folder], collection="notes", on_document=held)))
        writer.start()
        assert inside.wait(WAIT_SECONDS)
        uploaded = upload(http, {"second.md": note(10)})
        writer.join(WAIT_SECONDS)
        listed = http.get("/v1/collections/notes/documents").json()["documents"]
    assert seen == [True]
    assert library[0].file_compacted is not None and uploaded["file_compacted"] is not None
    assert sorted(row["key"] for row in listed) == ["first.md", *(f"lib{i}.md" for i in range(4)), "second.md"]
