"""A REST upload (a real uvicorn on 127.0.0.1) with a PDF that stalls PDFium inside one call: the
server's parse process for it is ended past the configured ``max_parse_seconds``, the file is
skipped with the reason, and the rest of the upload is stored and searchable."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from clew.config.settings import ServerConfig, load_config
from clew.corpus.ingest.parse_process import timed_out
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.server.rest import create_app

from ..corpus.ingest.formats.test_parse_bounds import nested_forms_pdf, pdf_with, text_page
from ..corpus.ingest.test_parse_process import BOUND, within
from .test_rest_live import Served


def test_an_upload_skips_the_pdf_that_outlasts_its_bound_and_stores_the_rest(tmp_path: Path) -> None:
    files = [("files", ("hostile.pdf", nested_forms_pdf(), "application/pdf")),
             ("files", ("manual.pdf", pdf_with([text_page(["The", "kiwi", "manual", "says", "hello."])]),
                        "application/pdf")),
             ("files", ("note.md", b"# Note\n\nThe heron note is stored.\n", "text/markdown"))]
    bound = within(tmp_path, 1)  # the server parses in one kept worker, as ingest_paths(workers=1) does
    with Corpus(tmp_path / "c.duckdb") as corpus, \
            Served(create_app(corpus, ServerConfig(max_parse_seconds=BOUND), auth=False)) as served, \
            httpx.Client(base_url=served.url, timeout=60) as http:
        started = time.perf_counter()
        answer = http.post("/v1/collections/docs/documents", files=files)
        took = time.perf_counter() - started
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert report["problems"] == [{"path": "hostile.pdf", "message": timed_out(BOUND), "skipped": True,
                                       "warning": False, "unread_type": None, "taken_by": None}]
        assert (report["versions_created"], report["skipped"]) == (2, 1)
        assert took < bound, (took, bound)
        for query, key in (("kiwi manual", "manual.pdf"), ("heron note", "note.md")):
            found = http.post("/v1/tools/search", json={"query": query, "collection": "docs"})
            assert found.status_code == 200 and found.json()["hits"][0]["document_key"] == key


def test_the_bound_is_read_from_the_config_file_and_checked(tmp_path: Path) -> None:
    (tmp_path / "clew.toml").write_text("max_parse_seconds = 2.5\n")
    assert load_config(tmp_path / "clew.toml").max_parse_seconds == 2.5
    assert ServerConfig().max_parse_seconds == 120.0
    (tmp_path / "bad.toml").write_text("max_parse_seconds = 0\n")
    with pytest.raises(InputError, match="max_parse_seconds"):
        load_config(tmp_path / "bad.toml")
