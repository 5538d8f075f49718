"""One error body on every REST status (task L3): ``error`` (the kind), ``message`` (the text) and ``detail`` (the
same text, kept for the clients that read it), each as the OpenAPI document declares it for that route and status.

It was two: ``message`` on a 400, ``detail`` on 401, 403, 404, 503 and the documents routes, and FastAPI's bare
``{"detail": "Not Found"}`` on a path no route has."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from fastapi.testclient import TestClient

from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.server.rest import create_app

from .conftest import MISSING, NARROW, auth

Call = Callable[[TestClient], httpx.Response]

ANSWERS: dict[str, tuple[int, str, str, str, Call]] = {
    # name: (status, kind, the route as the OpenAPI document names it, its method, the request)
    "blank query": (400, "input", "/v1/tools/search", "post",
                    lambda c: c.post("/v1/tools/search", json={"query": " "}, headers=auth())),
    "no key": (401, "unauthorized", "/v1/tools/search", "post",
               lambda c: c.post("/v1/tools/search", json={"query": "x"})),
    "a tool the key may not use": (403, "forbidden", "/v1/tools/read", "post",
                                   lambda c: c.post("/v1/tools/read", json={"document": "x"}, headers=auth(NARROW))),
    "documents without ingest": (403, "forbidden", "/v1/collections/{name}/documents", "get",
                                 lambda c: c.get("/v1/collections/notes/documents", headers=auth(NARROW))),
    "a tool's unknown collection": (404, "unavailable", "/v1/tools/search", "post", lambda c: c.post(
        "/v1/tools/search", json={"query": "x", "collection": "nope"}, headers=auth())),
    "documents of an unknown collection": (404, "unavailable", "/v1/collections/{name}/documents", "get",
                                           lambda c: c.get("/v1/collections/nowhere/documents", headers=auth())),
    "an outline of no document": (404, "unavailable", "/v1/collections/{name}/documents/{key}/outline", "get",
                                  lambda c: c.get("/v1/collections/notes/documents/nope.md/outline", headers=auth())),
    "a retrieval in an unknown collection": (404, "unavailable", "/v1/agents/retrieval", "post", lambda c: c.post(
        "/v1/agents/retrieval", json={"query": "x", "queries": [{"collection": "nope"}]}, headers=auth())),
    "not JSON": (415, "unsupported_media_type", "/v1/tools/search", "post", lambda c: c.post(
        "/v1/tools/search", content=b"query", headers={**auth(), "content-type": "text/plain"})),
}


def check(response: httpx.Response, status: int, kind: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == kind and body["message"] and body["detail"] == body["message"], body
    return body


def declared(document: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    """The schema ``/openapi.json`` declares for ``status`` of the operation, resolvable on its own."""
    response = document["paths"][path][method]["responses"][str(status)]
    return {**response["content"]["application/json"]["schema"], "components": document["components"]}


@pytest.mark.parametrize("name", list(ANSWERS))
def test_every_error_has_error_message_and_detail_as_declared(client: TestClient, name: str) -> None:
    status, kind, path, method, call = ANSWERS[name]
    body = check(call(client), status, kind)
    jsonschema.validate(body, declared(client.get("/openapi.json").json(), path, method, status))


def test_a_path_or_method_no_route_has_is_the_same_body_naming_it(client: TestClient) -> None:
    """Starlette's own 404 and 405 were FastAPI's ``{"detail": "Not Found"}``, naming nothing."""
    missing = check(client.get("/v2/search", headers=auth()), 404, "not_found")
    assert missing["message"] == "Not Found: GET /v2/search (GET /openapi.json lists the routes)"
    wrong = client.put("/v1/tools/search", json={"query": "x"}, headers=auth())
    assert check(wrong, 405, "method_not_allowed")["message"].startswith("Method Not Allowed: PUT /v1/tools/search")
    assert wrong.headers["allow"] == "POST"


def test_the_guards_store_and_read_only_answers_have_the_same_body(
        corpus: Corpus, config: ServerConfig, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(corpus, config, bind=("127.0.0.1", 8000)), base_url="http://127.0.0.1:8000") as bound:
        check(bound.get("/healthz", headers={"host": "elsewhere.test"}), 421, "misdirected")
        document = bound.get("/openapi.json").json()
        body = check(bound.post("/v1/tools/search", json={"query": "x"}, headers={**auth(), "origin": "http://a.test"}),
                     403, "forbidden")
        jsonschema.validate(body, declared(document, "/v1/tools/search", "post", 403))
        health = bound.app.state.store_health  # type: ignore[attr-defined]
        monkeypatch.setattr(health, "failure", "the disk is full")
        monkeypatch.setattr(health, "check", lambda: "the disk is full")
        body = check(bound.post("/v1/tools/search", json={"query": "x"}, headers=auth()), 503, "store_unavailable")
        assert (body["status"], body["message"]) == ("unavailable", "the disk is full")
        jsonschema.validate(body, declared(document, "/v1/tools/search", "post", 503))
    corpus.close()
    with Corpus(db_path, read_only=True) as reading, TestClient(create_app(reading, config)) as client:
        removal = client.delete("/v1/collections/notes/documents", params={"key": "lunch.txt"}, headers=auth())
        body = check(removal, 409, "read_only")
        jsonschema.validate(body, declared(document, "/v1/collections/{name}/documents", "delete", 409))


def test_openapi_declares_each_routes_error_statuses(client: TestClient) -> None:
    """Every operation declares the guard's 403 and 421 and the store's 503; one behind a key 401, 404 and 500; one
    with a body 415; the document writes 409; and every error schema is ``Error`` (``InputError`` for 400)."""
    document = client.get("/openapi.json").json()
    operations = {(method, path): op for path, ops in document["paths"].items() for method, op in ops.items()}
    errors = {key: {s for s in op["responses"] if s != "200"} for key, op in operations.items()}
    assert errors[("get", "/healthz")] == {"403", "421", "503"}
    assert errors[("post", "/v1/tools/search")] == {"400", "401", "403", "404", "415", "421", "500", "503"}
    assert errors[("get", "/v1/evidence/{evidence_id}")] == {"400", "401", "403", "404", "421", "500", "503"}
    assert errors[("delete", "/v1/collections/{name}/documents")] == {
        "400", "401", "403", "404", "409", "421", "500", "503"}
    assert [key for key, found in errors.items() if "409" in found] == [
        ("post", "/v1/collections/{name}/documents"), ("delete", "/v1/collections/{name}/documents")]
    search_404 = operations[("post", "/v1/tools/search")]["responses"]["404"]["content"]["application/json"]
    assert search_404["schema"]["anyOf"][1] == {"$ref": "#/components/schemas/Error"}  # or the result, unavailable
    unavailable = client.get(f"/v1/evidence/{MISSING}", headers=auth())  # a result, status unavailable
    assert unavailable.status_code == 404 and unavailable.json()["status"] == "unavailable"
    jsonschema.validate(unavailable.json(), declared(document, "/v1/evidence/{evidence_id}", "get", 404))
    outline_404 = operations[("get", "/v1/collections/{name}/documents/{key}/outline")]["responses"]["404"]
    assert outline_404["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
