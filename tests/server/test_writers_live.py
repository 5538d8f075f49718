"""Uploads over REST (a real uvicorn on 127.0.0.1) by a writer with a row filter: a draft it cannot
read is never superseded, and its report (counts withheld) reads a denied key exactly as a missing one."""

from __future__ import annotations

from pathlib import Path

import httpx

from clew.config.settings import load_config
from clew.corpus.store import Corpus
from clew.server.rest import create_app

from ..corpus.test_writers import DRAFT, make_corpus, owner_finds, published
from .conftest import auth
from .test_rest_live import Served

WRITER_KEY = "writer-key-0001"
CONFIG = f"""
[principals.owner]

[principals.writer]
collections = ["public"]
row_filter = {{ term = {{ status = "published" }} }}
tools = ["ingest"]

[[api_keys]]
key = "owner-key-0001"
principal = "owner"

[[api_keys]]
key = "{WRITER_KEY}"
principal = "writer"
"""


def upload(corpus: Corpus, tmp: Path, files: dict[str, str]) -> dict:
    (tmp / "clew.toml").write_text(CONFIG, encoding="utf-8")
    with Served(create_app(corpus, load_config(tmp / "clew.toml"))) as served, \
            httpx.Client(base_url=served.url, timeout=30) as http:
        answer = http.post("/v1/collections/public/documents", headers=auth(WRITER_KEY),
                           files=[("files", (name, text.encode(), "text/markdown")) for name, text in files.items()])
        assert answer.status_code == 200, answer.text
        report = answer.json()
    report.pop("seconds")
    if report["file_compacted"] is not None:
        report["file_compacted"].pop("seconds")
    return report


def test_an_upload_never_supersedes_a_draft_the_writer_cannot_read(tmp_path: Path) -> None:
    with make_corpus(tmp_path / "c") as corpus:
        report = upload(corpus, tmp_path, {"hr.md": published("Nothing here."), "faq.md": published("Answers.")})
        assert (report["withheld"], report["documents"], report["skipped"], report["problems"]) == (True, 2, 0, [])
        assert owner_finds(corpus, "zanzibarite") == ["hr.md"] and owner_finds(corpus, "answers") == ["faq.md"]
        same = upload(corpus, tmp_path, {"hr.md": DRAFT})  # its exact bytes: answered alike, never "unchanged"
        other = upload(corpus, tmp_path, {"hr.md": DRAFT.replace("confidential", "secret")})
        assert same == other and same["unchanged"] == 0


def test_an_uploaded_link_to_a_denied_key_reads_as_one_to_a_missing_key(tmp_path: Path) -> None:
    reports = []
    for target in ("hr.md", "gone.md"):
        (tmp_path / target).mkdir()
        with make_corpus(tmp_path / target / "c") as corpus:
            reports.append(upload(corpus, tmp_path / target, {"note.md": published(f"See [it]({target}).")}))
    assert reports[0] == reports[1]
    assert reports[0]["withheld"] and (reports[0]["links_resolved"], reports[0]["links_dangling"]) == (0, 0)
