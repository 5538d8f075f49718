"""Uploads and removals over REST at once (a real uvicorn on 127.0.0.1, ``--no-auth``): the writers take turns
(``clew.server.reading.Writers``), so one's file rewrite, which closes the corpus's connection, never runs while
another reads outside its transactions; every upload is stored, and each gives back its file's free blocks."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from clew.corpus.ingest import api as ingest_api  # the upload route calls its ingest_paths
from clew.corpus.store import Corpus
from clew.server import reading
from clew.server.rest import create_app

from ..corpus.test_rewrite import note
from .test_rest_live import Served

WAIT_SECONDS = 30
"""A bound on waits that end at once when the code is right (an event set, a writer queued)."""


def upload(http: httpx.Client, files: dict[str, str]) -> dict[str, Any]:
    answer = http.post("/v1/collections/notes/documents", params={"chunk_tokens": 40},
                       files=[("files", (name, text.encode(), "text/markdown")) for name, text in files.items()])
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_second_upload_waits_for_the_first_to_end_before_it_reads(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The first upload's ingest holds until the second is either inside its own ingest (the fault: its reads
    would meet the first's file rewrite) or queued for its turn; it is queued, and runs once the first ends."""
    inside: list[str] = []
    first_inside, second_inside = threading.Event(), threading.Event()
    ingest_paths = ingest_api.ingest_paths

    def watched(corpus: Corpus, paths: list[str], **options: Any) -> Any:
        inside.append(sorted(path.name for path in Path(paths[0]).iterdir())[0])
        if len(inside) == 1:
            first_inside.set()
            with writers.changed:
                writers.changed.wait_for(lambda: second_inside.is_set() or writers.waiting == 1, WAIT_SECONDS)
            inside.append("second inside" if second_inside.is_set() else "second queued")
        else:
            with writers.changed:
                second_inside.set()
                writers.changed.notify_all()
        return ingest_paths(corpus, paths, **options)

    monkeypatch.setattr(ingest_api, "ingest_paths", watched)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        app = create_app(corpus, auth=False)
        writers = reading.writers_of(app)
        with Served(app) as served, httpx.Client(base_url=served.url, timeout=60) as http:
            first = threading.Thread(target=upload, args=(http, {"a.md": note(1)}))
            first.start()
            assert first_inside.wait(WAIT_SECONDS)
            upload(http, {"b.md": note(2)})
            first.join(WAIT_SECONDS)
            listed = http.get("/v1/collections/notes/documents").json()["documents"]
    assert inside == ["a.md", "second queued", "b.md"]
    assert sorted(row["key"] for row in listed) == ["a.md", "b.md"]


def test_concurrent_uploads_and_a_removal_are_all_stored_and_each_upload_gives_back_its_free_blocks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three clients upload new versions of their notes at once while one removes a note; the file rewrite is
    forced after every write (no free share is small enough). Before the writers took turns, an upload that
    ended while another was inside its ingest skipped the rewrite (the other's bulk write), reported neither a
    rewrite nor one put off, and the overlapping reads and checkpoints put rewrites off."""
    monkeypatch.setattr("clew.corpus.rewrite.REWRITE_FREE_SHARE", -1.0)
    rounds, clients = 3, 3
    reports: list[dict[str, Any]] = []
    with Corpus(tmp_path / "c.duckdb") as corpus, Served(create_app(corpus, auth=False)) as served, \
            httpx.Client(base_url=served.url, timeout=60) as http:
        upload(http, {"gone.md": note(0)})

        def client(c: int) -> None:
            for r in range(rounds):
                reports.append(upload(http, {f"c{c}/n{i}.md": note(10 * c + i, f"round {r}") for i in range(3)}))

        threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        for thread in threads:
            thread.start()
        removed = http.delete("/v1/collections/notes/documents", params={"key": "gone.md"})
        for thread in threads:
            thread.join(WAIT_SECONDS * 4)
        listed = http.get("/v1/collections/notes/documents").json()["documents"]
    assert removed.status_code == 200 and removed.json()["removed"] == ["gone.md"], removed.text
    assert len(reports) == rounds * clients
    assert all(report["file_compacted"] is not None and not report["file_compaction_deferred"] for report in reports)
    assert sorted((row["key"], row["version"]) for row in listed) == sorted(
        (f"c{c}/n{i}.md", rounds) for c in range(clients) for i in range(3))
