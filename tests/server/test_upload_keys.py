"""An uploaded file keeps the name the client sent as its key and source (task V, issue 35):
never the request's temporary folder, and a re-upload is the same document."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from clew.errors import InputError
from clew.server.routers.ingest import upload_key
from tests.conftest import FIXTURES

from .conftest import auth
from .test_rest import bad

GUIDE = b"# Guide\n\n## Kiwi\n\nKiwi deploys happen on Tuesdays.\n"
CHANGED = b"# Guide\n\n## Kiwi\n\nKiwi deploys happen on Thursdays now.\n"


def upload(client: TestClient, *files: tuple[str, bytes]) -> httpx.Response:
    return client.post("/v1/collections/uploads/documents", files=[("files", f) for f in files], headers=auth())


def listed(client: TestClient) -> list[dict]:
    response = client.get("/v1/collections/uploads/documents", headers=auth())
    assert response.status_code == 200, response.text
    return response.json()["documents"]


def test_a_reupload_is_the_same_document_and_changed_content_a_new_version(client: TestClient) -> None:
    first = upload(client, ("guide.md", GUIDE), ("ops/runbook.md", b"# Runbook\n\nRestart the pager queue.\n"))
    assert first.status_code == 200, first.text
    assert first.json()["versions_created"] == 2
    again = upload(client, ("guide.md", GUIDE))
    assert again.status_code == 200, again.text
    assert (again.json()["versions_created"], again.json()["unchanged"]) == (0, 1), again.json()
    documents = {d["key"]: d for d in listed(client)}
    assert set(documents) == {"guide.md", "ops/runbook.md"}
    assert {(k, d["source"], d["version"]) for k, d in documents.items()} == {("guide.md", "guide.md", 1),
                                                                               ("ops/runbook.md", "ops/runbook.md", 1)}
    changed = upload(client, ("guide.md", CHANGED))
    assert changed.json()["versions_created"] == 1, changed.json()
    documents = {d["key"]: d for d in listed(client)}
    assert (documents["guide.md"]["version"], documents["guide.md"]["source"]) == (2, "guide.md")
    hits = client.post("/v1/tools/search", json={"query": "kiwi thursdays", "collection": "uploads"},
                       headers=auth()).json()["hits"]
    assert hits[0]["document_key"] == "guide.md"
    assert "clew-upload-" not in str(hits) and "clew-upload-" not in str(listed(client))


def test_json_records_keep_their_place_in_the_request_as_source(client: TestClient) -> None:
    records = {"records": [{"key": "ops.txt", "text": "Zebrafish escalation goes to the night desk."}]}
    assert client.post("/v1/collections/uploads/documents", json=records, headers=auth()).status_code == 200
    assert [(d["key"], d["source"]) for d in listed(client)] == [("ops.txt", "records.jsonl:1")]


@pytest.mark.parametrize("name", ["", "/etc/passwd.md", "../up.md", "a/../b.md",
                                  "a//b.md", "./a.md", ".env.md", "ops/.hidden.md", "x" * 300])
def test_a_bad_file_name_is_a_400_naming_files(client: TestClient, name: str) -> None:
    bad(upload(client, (name, GUIDE)), "files")


def test_a_name_uploaded_twice_or_as_file_and_folder_is_a_400(client: TestClient) -> None:
    bad(upload(client, ("a.md", GUIDE), ("a.md", CHANGED)), "files")
    bad(upload(client, ("a.md", GUIDE), ("a.md/b.md", CHANGED)), "files")
    nothing = client.get("/v1/collections/uploads/documents", headers=auth())
    assert nothing.status_code == 404, nothing.text  # nothing stored: the collection was never made


def test_names_are_kept_as_sent_and_windows_paths_refused() -> None:
    assert upload_key("my notes/été.md") == "my notes/été.md"
    assert upload_key(" guide.md ") == "guide.md"
    # the multipart parser already keeps only the last part of a browser's full Windows path
    # (and a client's encoder escapes line breaks); the rule holds for any caller of upload_key
    for name in ("C:/notes/a.md", "a\\b.md", "line\nbreak.md"):
        with pytest.raises(InputError) as raised:
            upload_key(name)
        assert raised.value.field == "files" and repr(name) in str(raised.value)


def test_a_gzipped_upload_is_read_as_the_file_it_holds_and_a_corrupt_one_is_named(client: TestClient) -> None:
    """Task G1: the upload route reads through the same ``read_source`` as ``clew ingest``."""
    held = (FIXTURES / "gzip" / "debian" / "certificates.txt.gz").read_bytes()  # openssl's HOWTO, as Debian ships it
    response = upload(client, ("HOWTO/certificates.txt.gz", held), ("cut.md.gz", held[:300]))
    assert response.status_code == 200, response.text
    assert response.json()["versions_created"] == 1
    [problem] = response.json()["problems"]
    assert (problem["path"], problem["skipped"]) == ("cut.md.gz", True)
    assert problem["message"].startswith("not a readable gzip file (")
    assert [d["key"] for d in listed(client)] == ["HOWTO/certificates.txt.gz"]
    hits = client.post("/v1/tools/search", json={"query": "certificate authority role", "collection": "uploads"},
                       headers=auth()).json()["hits"]
    assert hits[0]["document_key"] == "HOWTO/certificates.txt.gz"
