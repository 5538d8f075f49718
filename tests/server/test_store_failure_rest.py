"""An upload whose compaction fails on a full disk answers what it stored (200), not 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.corpus.test_store_failure import fail_compaction
from tests.server.conftest import auth


def test_an_upload_answers_what_it_stored_when_compaction_fails(monkeypatch: pytest.MonkeyPatch,
                                                                 client: TestClient) -> None:
    fail_compaction(monkeypatch)
    body = " ".join(f"term{i}" for i in range(2000))  # enough new postings to make the index want compaction
    files = [("files", ("guide.md", f"# Guide\n\n## Kiwi\n\nKiwi deploys happen on Tuesdays. {body}\n".encode()))]
    response = client.post("/v1/collections/docs/documents", files=files, headers=auth())
    assert response.status_code == 200, response.text
    assert (response.json()["versions_created"], response.json()["compaction_deferred"]) == (1, True)
    hits = client.post("/v1/tools/search", json={"query": "kiwi", "collection": "docs"}, headers=auth()).json()["hits"]
    assert {h["document_key"] for h in hits} == {"guide.md"}


def test_a_duckdb_error_of_one_request_is_a_json_500_and_reopens_nothing(monkeypatch: pytest.MonkeyPatch,
                                                                        client: TestClient) -> None:
    import duckdb

    from clew.corpus.store import Corpus

    def broken(self: Corpus, *, with_documents: bool = False) -> list[str]:
        raise duckdb.ConversionException("Could not convert string 'x' to INT64")

    monkeypatch.setattr(Corpus, "collections", broken)
    response = client.post("/v1/tools/search", json={"query": "kiwi", "collection": "docs"}, headers=auth())
    assert response.status_code == 500
    text = "Could not convert string 'x' to INT64"
    assert response.json() == {"error": "failed", "message": text, "detail": text}
    assert client.app.state.store_health.reopened == 0  # type: ignore[attr-defined]
    assert client.get("/healthz").json() == {"status": "ok"}
