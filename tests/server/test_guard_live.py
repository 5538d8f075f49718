"""What a web page may not make a server do (``clew.server.guard``), against a real uvicorn on
127.0.0.1 and a real ``clew mcp --transport http``: another ``Host`` (DNS rebinding) is 421, a
cross-origin write 403 (without API keys any cross-origin request), a body that is not JSON 415."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.server.guard import HostPolicy
from clew.server.rest import create_app

from .conftest import ACME, ADMIN, auth, free_port, wait_for_mcp_http
from .test_rest_live import Served

EVIL = "http://evil.example"
RECORDS = b'{"records": [{"key": "planted.txt", "text": "Planted zebrafish note."}]}'


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """One client for the module's requests (each ``httpx.post`` built a client and its SSL context, about 20 ms of
    CPU); a connection a request, as before."""
    with httpx.Client(limits=httpx.Limits(max_keepalive_connections=0)) as client:
        yield client


@pytest.fixture
def local(corpus: Corpus) -> Iterator[Served]:
    """``clew serve --no-auth`` as it runs: bound to 127.0.0.1 on its port, one extra allowed name."""
    port = free_port()
    config = ServerConfig(allowed_hosts=["clew.internal"])
    with Served(create_app(corpus, config, auth=False, bind=("127.0.0.1", port)), port) as served:
        yield served


@pytest.fixture
def keyed(corpus: Corpus, config: ServerConfig) -> Iterator[Served]:
    port = free_port()
    with Served(create_app(corpus, config, bind=("127.0.0.1", port)), port) as served:
        yield served


def planted(http: httpx.Client, served: Served, headers: dict[str, str] | None = None) -> list[str]:
    body = {"query": "planted zebrafish", "collection": "notes"}
    hits = http.post(f"{served.url}/v1/tools/search", json=body, headers=headers or {}).json()["hits"]
    return [h["document_key"] for h in hits]


def test_a_host_the_server_does_not_answer_to_is_refused(local: Served, http: httpx.Client) -> None:
    port = local.port
    for host in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port + 1}", "127.0.0.1.evil.example", ""):
        response = http.get(f"{local.url}/healthz", headers={"Host": host})
        assert response.status_code == 421, (host, response.text)
        assert response.json()["error"] == "misdirected"
    read = http.post(f"{local.url}/v1/tools/fetch_evidence", json={"ids": [ACME[1]]},
                      headers={"Host": f"evil.example:{port}"})
    assert read.status_code == 421 and "Okafor" not in read.text  # a rebinding page reads nothing
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"clew.internal:{port}", "CLEW.internal"):
        assert http.get(f"{local.url}/healthz", headers={"Host": host}).status_code == 200, host
    assert http.post(f"{local.url}/v1/tools/fetch_evidence", json={"ids": [ACME[1]]}).status_code == 200


def test_without_keys_a_cross_origin_request_is_refused_and_ingests_nothing(local: Served, http: httpx.Client) -> None:
    url = f"{local.url}/v1/collections/notes/documents"
    json_type = {"content-type": "application/json"}
    refused = [
        http.post(url, content=RECORDS, headers={**json_type, "Origin": EVIL}),
        http.post(url, files={"files": ("planted.txt", b"Planted zebrafish note.")}, headers={"Origin": EVIL}),
        http.post(url, content=RECORDS, headers={**json_type, "Origin": "null"}),
        http.post(url, content=RECORDS, headers={**json_type, "Sec-Fetch-Site": "cross-site"}),
        http.get(f"{local.url}/v1/evidence/{ACME[1]}", headers={"Origin": EVIL}),
        http.get(f"{local.url}/v1/evidence/{ACME[1]}", headers={"Sec-Fetch-Site": "same-site"}),
        http.post(f"{local.url}/v1/tools/search", json={"query": "orion"},
                   headers={"Origin": f"http://localhost:{local.port + 1}"}),
    ]
    assert [r.status_code for r in refused] == [403] * len(refused), [r.text for r in refused]
    assert all(r.json()["error"] == "forbidden" and "cross-origin" in r.json()["detail"] for r in refused)
    assert planted(http, local) == []
    same = http.post(url, content=RECORDS, headers={**json_type, "Origin": local.url, "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200, same.text
    assert planted(http, local) == ["planted.txt"]


def test_a_body_that_is_not_json_is_415_and_ingests_nothing(local: Served, http: httpx.Client) -> None:
    url = f"{local.url}/v1/collections/notes/documents"
    for kind in ("text/plain", "application/x-www-form-urlencoded", "text/plain; charset=utf-8", None):
        headers = {} if kind is None else {"content-type": kind}
        response = http.post(url, content=RECORDS, headers=headers)
        assert response.status_code == 415, (kind, response.text)
        assert response.json()["error"] == "unsupported_media_type"
        search = http.post(f"{local.url}/v1/tools/search", content=b'{"query": "orion"}', headers=headers)
        assert search.status_code == 415, (kind, search.text)
    assert planted(http, local) == []
    upload = http.post(url, files={"files": ("planted.txt", b"Planted zebrafish note.")})
    assert upload.status_code == 200, upload.text  # a client that is not a browser uploads as before
    assert http.post(f"{local.url}/v1/tools/search", content=b'{"query": "orion"}',
                      headers={"content-type": "application/vnd.api+json"}).status_code == 200


def test_with_keys_a_cross_origin_write_and_a_foreign_host_are_still_refused(keyed: Served, http: httpx.Client) -> None:
    key = auth(ADMIN)
    cross = http.post(f"{keyed.url}/v1/collections/notes/documents", content=RECORDS,
                       headers={**key, "content-type": "application/json", "Origin": EVIL})
    assert cross.status_code == 403 and cross.json()["error"] == "forbidden"
    assert planted(http, keyed, key) == []
    assert http.get(f"{keyed.url}/v1/evidence/{ACME[1]}", headers={**key, "Origin": EVIL}).status_code == 200
    assert http.get(f"{keyed.url}/healthz", headers={"Host": "evil.example"}).status_code == 421
    plain = http.post(f"{keyed.url}/v1/tools/search", content=b'{"query": "orion"}',
                       headers={**key, "content-type": "text/plain"})
    assert plain.status_code == 415


def test_a_keyed_server_on_every_interface_checks_host_only_when_told_its_names() -> None:
    assert HostPolicy.of(("0.0.0.0", 8080), [], auth=True).accepts("clew.corp.example")
    told = HostPolicy.of(("0.0.0.0", 8080), ["clew.corp.example:443"], auth=True)
    assert told.accepts("clew.corp.example:443") and not told.accepts("clew.corp.example:8443")
    assert told.accepts("127.0.0.1:8080") and not told.accepts("evil.example")
    assert not HostPolicy.of(("127.0.0.1", 8080), [], auth=True).accepts("evil.example")
    assert HostPolicy.of(("::1", 8080), [], auth=False).accepts("[::1]:8080")
    assert HostPolicy.of(("127.0.0.1", 8080), ["*"], auth=False).accepts("anything.example")


def test_the_mcp_http_server_refuses_a_foreign_host_and_a_cross_origin_request(
        db_path: Path, config_path: Path, http: httpx.Client) -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "clew.cli", "mcp", "--db", str(db_path), "--config",
                                str(config_path), "--transport", "http", "--port", str(port)],
                               stderr=subprocess.DEVNULL)
    try:
        wait_for_mcp_http(port, process)
        url = f"http://127.0.0.1:{port}/mcp"
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
        accept = {"Accept": "application/json, text/event-stream"}
        assert http.post(url, json=hello, headers={**accept, "Host": f"evil.example:{port}"}).status_code == 421
        assert http.post(url, json=hello, headers={**accept, "Origin": EVIL}).status_code == 403
        assert http.post(url, content=b"{}", headers={**accept, "content-type": "text/plain"}).status_code == 400
        assert http.post(url, json=hello, headers={**accept, "Origin": f"http://127.0.0.1:{port}"}).status_code == 200
    finally:
        process.terminate()
        process.wait(20)
