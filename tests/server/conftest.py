"""A small corpus with a restricted document, a config with three keys, and a free port."""

from __future__ import annotations

import json
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clew.config.settings import ServerConfig, load_config
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.server.rest import create_app
from tests.conftest import FIXTURES, Prebuilt

ADMIN = "admin-key-0001"
READER = "reader-key-0001"
NARROW = "narrow-key-0001"

CONFIG = f"""
default_collection = "notes"

[principals.admin]

[principals.reader]
row_filter = {{ bool = {{ must_not = [ {{ term = {{ status = "restricted" }} }} ] }} }}

[principals.narrow]
collections = ["notes"]
tools = ["search"]

[[api_keys]]
key = "{ADMIN}"
principal = "admin"

[[api_keys]]
key = "{READER}"
principal = "reader"

[[api_keys]]
key = "{NARROW}"
principal = "narrow"
"""

RECORDS = [
    {"key": "budget.txt", "text": "The Orion budget for next year is restricted information.", "status": "restricted"},
    {"key": "lunch.txt", "text": "The Orion team lunch is on Fridays.", "status": "published"},
]


def build_corpus(folder: Path, acme_path: Path) -> Path:
    """acme-notes.md (merge_sections, 160 tokens) and two JSONL records in notes; one record in private."""
    path = folder / "corpus.duckdb"
    records = folder / "records.jsonl"
    records.write_text("\n".join(json.dumps(r) for r in RECORDS) + "\n", encoding="utf-8")
    with Corpus(path) as corpus:
        ingest_paths(corpus, [acme_path], collection="notes", chunk_tokens=160, merge_sections=True)
        ingest_paths(corpus, [records], collection="notes", chunk_tokens=160)
        private = folder / "private.jsonl"
        private.write_text(json.dumps({"key": "salaries.txt", "text": "Orion salaries."}) + "\n", encoding="utf-8")
        ingest_paths(corpus, [private], collection="private", chunk_tokens=160)
    return path


def build_notes(folder: Path) -> Path:
    return build_corpus(folder, FIXTURES / "markdown" / "acme-notes.md")


@pytest.fixture
def db_path(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    """The test's own copy of the corpus (built once per session)."""
    return prebuilt(build_notes, tmp_path) / "corpus.duckdb"


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "clew.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


@pytest.fixture
def config(config_path: Path) -> ServerConfig:
    return load_config(config_path)


@pytest.fixture
def corpus(db_path: Path) -> Iterator[Corpus]:
    with Corpus(db_path) as opened:
        yield opened


@pytest.fixture
def client(corpus: Corpus, config: ServerConfig) -> Iterator[TestClient]:
    with TestClient(create_app(corpus, config)) as test_client:
        yield test_client


def auth(key: str = ADMIN) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def wait_for_mcp_http(port: int, process: "subprocess.Popen[bytes]", seconds: float = 60) -> None:
    """Until ``clew mcp --transport http`` answers on 127.0.0.1:port (the process must stay up)."""
    _wait_until_up(f"http://127.0.0.1:{port}/mcp", process, "clew mcp --transport http", seconds)


def wait_for_rest(port: int, process: "subprocess.Popen[bytes]", seconds: float = 60) -> None:
    """Until ``clew serve`` answers ``/healthz`` on 127.0.0.1:port (the process must stay up)."""
    _wait_until_up(f"http://127.0.0.1:{port}/healthz", process, "clew serve", seconds)


def _wait_until_up(url: str, process: "subprocess.Popen[bytes]", name: str, seconds: float) -> None:
    import time

    import httpx

    deadline = time.monotonic() + seconds
    # one client for the whole wait: each client builds an SSL context (about 20 ms of CPU), a poll a tenth of that
    with httpx.Client(timeout=1) as http:
        while True:
            try:
                http.get(url)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline and process.poll() is None, f"{name} did not start"
                time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ids in the fixture corpus: acme-notes.md is document 1 (3 passages), then budget.txt, lunch.txt
ACME = ["ev1:c:1:1:0", "ev1:c:1:1:1", "ev1:c:1:1:2"]
MISSING = "ev1:c:999:1:0"


@pytest.fixture
def secret_id(corpus: Corpus) -> str:
    from clew.corpus.search.api import search

    hits = search(corpus, {"query": "budget restricted", "collection": "notes"}).hits
    return next(h.evidence_id for h in hits if h.document_key == "budget.txt")
