"""Listing, outlining and removing documents over REST, against a real uvicorn on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from clew.config.settings import ServerConfig
from clew.corpus import documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.rewrite import FileCompaction
from clew.corpus.store import Corpus
from clew.server import documents_api
from clew.server.rest import create_app

from .conftest import ADMIN, NARROW, READER, auth
from .test_rest_live import Served


def test_list_outline_and_remove_documents(corpus: Corpus, config: ServerConfig) -> None:
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        listed = http.get("/v1/collections/notes/documents", headers=auth(ADMIN))
        assert listed.status_code == 200, listed.text
        assert [d["key"] for d in listed.json()["documents"]] == ["acme-notes.md", "budget.txt", "lunch.txt"]
        # the reader's row filter hides the restricted record here too
        reader = http.get("/v1/collections/notes/documents", headers=auth(READER)).json()
        assert [d["key"] for d in reader["documents"]] == ["acme-notes.md", "lunch.txt"]
        tree = http.get("/v1/collections/notes/documents/acme-notes.md/outline", headers=auth(ADMIN))
        assert tree.status_code == 200 and tree.json()["kind"] == "document" and tree.json()["passages"] == 3
        assert http.get("/v1/collections/notes/documents/nope.md/outline", headers=auth(ADMIN)).status_code == 404
        # a key not found offers the keys meant, as clew outline does, and only among what the key may read
        cased = http.get("/v1/collections/notes/documents/ACME-Notes.md/outline", headers=auth(ADMIN))
        assert cased.status_code == 404 and cased.json()["did_you_mean"] == ["acme-notes.md"]
        assert "did you mean acme-notes.md?" in cased.json()["detail"]
        for principal, near in ((ADMIN, ["budget.txt"]), (READER, [])):
            hidden = http.get("/v1/collections/notes/documents/BUDGET.TXT/outline", headers=auth(principal))
            assert hidden.status_code == 404 and hidden.json()["did_you_mean"] == near
        # the reader cannot remove what it cannot read: it is missing to it
        hidden = http.delete("/v1/collections/notes/documents", params={"key": "budget.txt"}, headers=auth(READER))
        assert hidden.status_code == 200 and hidden.json()["missing"] == ["budget.txt"]
        removed = http.delete("/v1/collections/notes/documents", params=[("key", "lunch.txt"), ("key", "x.txt")],
                              headers=auth(ADMIN))
        assert removed.status_code == 200, removed.text
        assert (removed.json()["removed"], removed.json()["missing"]) == (["lunch.txt"], ["x.txt"])
        hits = http.post("/v1/tools/search", json={"query": "team lunch Fridays", "collection": "notes"},
                         headers=auth(ADMIN)).json()["hits"]
        assert "lunch.txt" not in [h["document_key"] for h in hits]
        gone = http.get("/v1/collections/notes/documents?removed=true", headers=auth(ADMIN)).json()["documents"]
        assert {d["key"]: d["status"] for d in gone}["lunch.txt"] == "removed"
        # the ingest permission is needed; an unknown and an unreadable collection are the same 404
        assert http.get("/v1/collections/notes/documents", headers=auth(NARROW)).status_code == 403
        assert http.delete("/v1/collections/notes/documents", params={"key": "acme-notes.md"},
                           headers=auth(NARROW)).status_code == 403
        assert http.get("/v1/collections/nowhere/documents", headers=auth(ADMIN)).status_code == 404
        assert http.get("/v1/collections/notes/documents").status_code == 401


def test_a_removal_is_the_writer_not_a_reader_so_its_compaction_waits_for_nobody(
        corpus: Corpus, config: ServerConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``DELETE`` of documents writes, as an upload does: it is no marked reader (``clew.server.reading``). Marked
    as one, its own file compaction waited the whole ``READERS_WAIT_SECONDS`` (10 s) for it to leave, then was put
    off. Seen from inside the removal's compaction: no reader is inside, and the gate closes at once."""
    seen: list[bool] = []
    give_back = documents.give_back_free_blocks

    def watched(corpus: Corpus, **options: float | None) -> tuple[FileCompaction | None, bool]:
        with corpus.readers.drained(0.0) as idle:
            seen.append(idle)
        return give_back(corpus, **options)

    monkeypatch.setattr(documents, "give_back_free_blocks", watched)
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        removed = http.delete("/v1/collections/notes/documents", params={"key": "lunch.txt"}, headers=auth(ADMIN))
        assert removed.status_code == 200 and removed.json()["removed"] == ["lunch.txt"], removed.text
    assert seen == [True]


def test_a_removal_reads_as_a_marked_reader_until_it_writes(
        corpus: Corpus, config: ServerConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before it writes, a ``DELETE`` reads (its collection, the documents' keys) on the corpus's connection, which
    an upload's file rewrite closes and opens again: those reads are a marked reader's, so a rewrite waits for them
    (a rewrite's gate, closed from inside them, finds a reader inside), and its compaction still waits for nobody."""
    seen: list[bool] = []
    lookup = documents.Scope.current_by_keys
    make_scope = documents_api.Scope

    def drained() -> None:
        with corpus.readers.drained(0.0) as idle:
            seen.append(idle)

    def watched_lookup(scope: Scope, *args: object) -> object:
        drained()
        return lookup(scope, *args)  # type: ignore[arg-type]

    def watched_scope(*args: object) -> Scope:
        drained()
        return make_scope(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(documents.Scope, "current_by_keys", watched_lookup)
    monkeypatch.setattr(documents_api, "Scope", watched_scope)
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        removed = http.delete("/v1/collections/notes/documents", params={"key": "lunch.txt"}, headers=auth(ADMIN))
        assert removed.status_code == 200 and removed.json()["removed"] == ["lunch.txt"], removed.text
    assert seen == [False, False]


def test_removing_a_blank_key_is_a_400_naming_the_key_and_removes_nothing(corpus: Corpus, config: ServerConfig) -> None:
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        for params in ({"key": ""}, [("key", "lunch.txt"), ("key", "  ")]):
            blank = http.delete("/v1/collections/notes/documents", params=params, headers=auth(ADMIN))
            assert blank.status_code == 400, blank.text
            assert blank.json()["field"] == "key" and "is blank" in blank.json()["message"]
        listed = http.get("/v1/collections/notes/documents", headers=auth(ADMIN)).json()["documents"]
        assert [d["key"] for d in listed] == ["acme-notes.md", "budget.txt", "lunch.txt"]


def test_a_title_typed_for_a_key_is_taken_or_offered_only_among_readable_documents(
        corpus: Corpus, config: ServerConfig) -> None:
    """A page's title where a key is asked (task S1): the outline route and the tools that read a document take the
    title of exactly one readable document for its key, and ``did_you_mean`` offers the keys titled so; a document
    the principal may not read (the reader's ``budget.txt``, titled "Budget") is neither taken nor offered."""
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        titled = http.get("/v1/collections/notes/documents/acme robotics ENGINEERING notes/outline",
                          headers=auth(ADMIN))
        assert titled.status_code == 200 and titled.json()["passages"] == 3
        close = http.get("/v1/collections/notes/documents/Acme Robotics engineering note/outline", headers=auth(ADMIN))
        assert close.status_code == 404 and close.json()["did_you_mean"] == ["acme-notes.md"]
        assert http.get("/v1/collections/notes/documents/Budget/outline", headers=auth(ADMIN)).status_code == 200
        for given in ("Budget", "Budgett"):
            hidden = http.get(f"/v1/collections/notes/documents/{given}/outline", headers=auth(READER))
            assert hidden.status_code == 404 and hidden.json()["did_you_mean"] == []
        sliced = http.post("/v1/tools/fetch_slice", json={"id": "budget", "collection": "notes"}, headers=auth(ADMIN))
        assert sliced.status_code == 200 and sliced.json()["document_key"] == "budget.txt"
        read = http.post("/v1/tools/read", json={"document": "budgett"}, headers=auth(ADMIN))
        assert read.status_code == 404
        assert read.json()["detail"] == "no readable document has this key (did you mean budget.txt?)"
        denied = http.post("/v1/tools/read", json={"document": "budgett"}, headers=auth(READER))
        missing = http.post("/v1/tools/read", json={"document": "nothing at all"}, headers=auth(READER))
        assert (denied.status_code, denied.json()) == (missing.status_code, missing.json())
        assert denied.status_code == 404 and denied.json()["detail"] == "no readable document has this key"


def test_a_title_typed_without_its_site_s_part_is_taken_or_offered_over_rest(
        corpus: Corpus, config: ServerConfig, tmp_path: Path) -> None:
    """gtk4's "Gtk – 4.0: Overview of actions in GTK" typed as the page reads (task S3): the outline route takes it
    where one readable document has it; "Lists", two sites' page, is a 404 offering both keys."""
    site = tmp_path / "gtk"
    for folder, version in (("gtk4", "4.0"), ("gtk3", "3.0")):
        (site / folder).mkdir(parents=True)
        for name, title in ((f"actions{version[0]}.html", f"Overview of actions in GTK {version[0]}"),
                            ("section-list-widget.html", "Lists"), ("css.html", "CSS in GTK")):
            (site / folder / name).write_text(f"<title>Gtk – {version}: {title}</title><p>{title}.</p>",
                                              encoding="utf-8")
    ingest_paths(corpus, [site], collection="gtk")
    with Served(create_app(corpus, config)) as served, httpx.Client(base_url=served.url, timeout=30) as http:
        taken = http.get("/v1/collections/gtk/documents/Overview of actions in GTK 4/outline", headers=auth(ADMIN))
        assert taken.status_code == 200 and taken.json()["heading"] == "Gtk – 4.0: Overview of actions in GTK 4"
        shared = http.get("/v1/collections/gtk/documents/lists/outline", headers=auth(ADMIN))
        assert shared.status_code == 404
        assert shared.json()["did_you_mean"] == ["gtk3/section-list-widget.html", "gtk4/section-list-widget.html"]
