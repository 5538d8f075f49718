"""The REST API in process: every endpoint with good input, bad input and a row it may not read."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from clew.config.model_options import ModelOptions
from clew.config.settings import ServerConfig
from clew.corpus.access import Principal
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.tree import TreeArgs, navigate_document_tree
from clew.server.rest import create_app, is_loopback, require_loopback_for_no_auth
from clew.surface import surface
from tests.conftest import FIXTURES

from .conftest import ACME, ADMIN, MISSING, NARROW, READER, auth

UNAVAILABLE = {"status": "unavailable", "detail": "no readable passage has this id"}


def unavailable(response: httpx.Response) -> dict:
    """A 404 whose body is the tool's result with status unavailable; returns the status and detail."""
    assert response.status_code == 404, response.text
    body = response.json()
    return {"status": body["status"], "detail": body["detail"]}


def malformed(response: httpx.Response) -> None:
    """A malformed id is a result with that status (200), as on every surface."""
    assert response.status_code == 200, response.text
    body = response.json()
    status = body["status"] if "evidence" not in body else body["evidence"][0]["status"]
    assert status == "malformed", body


def bad(response: httpx.Response, field: str) -> None:
    assert response.status_code == 400, response.text
    body = response.json()
    assert (body["error"], body["field"]) == ("input", field), body
    assert body["message"]


# -- authentication -------------------------------------------------------------------------

def test_no_key_and_a_wrong_key_are_401(client: TestClient) -> None:
    body = {"evidence_id": ACME[0], "relation": "next"}
    assert client.post("/v1/tools/navigate_document_tree", json=body).status_code == 401
    assert client.post("/v1/tools/navigate_document_tree", json=body, headers=auth("wrong-key-0001")).status_code == 401
    assert client.post("/v1/tools/navigate_document_tree", json=body, headers={"X-API-Key": "nope"}).status_code == 401
    assert client.post("/v1/tools/navigate_document_tree", json=body, headers=auth(ADMIN)).status_code == 200
    assert client.post("/v1/tools/navigate_document_tree", json=body, headers={"X-API-Key": ADMIN}).status_code == 200


def test_an_unknown_tool_is_404_naming_it_and_the_tools(client: TestClient) -> None:
    assert client.post("/v1/tools/serch", json={"query": "x"}).status_code == 401  # the key first, as for a tool
    typo = client.post("/v1/tools/serch", json={"query": "x"}, headers=auth(ADMIN))
    assert typo.status_code == 404  # was FastAPI's {"detail": "Not Found"}, naming nothing
    body = typo.json()
    assert (body["error"], body["field"]) == ("input", "name"), body
    assert body["message"].startswith("unknown tool 'serch'; tools: check_citations, ")
    assert body["message"].endswith(", read, retrieve, search")
    assert client.post("/v1/tools/retrieve", json={"query": "acme"}, headers=auth(ADMIN)).status_code == 200
    assert "/v1/tools/{name}" not in client.get("/openapi.json").json()["paths"]


def test_healthz_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/v1/agents/retrieval", *(f"/v1/tools/{name}" for name in surface.names() if name != "retrieve"),
                 "/v1/evidence/{evidence_id}", "/v1/citations/check", "/v1/collections/{name}/documents", "/healthz"):
        assert path in paths
    schema = paths["/v1/tools/navigate_document_tree"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("NavigateDocumentTreeRequest")
    document = client.get("/openapi.json").json()
    retrieval = document["paths"]["/v1/agents/retrieval"]["post"]["requestBody"]["content"]["application/json"]
    assert retrieval["schema"]["$ref"] == "#/components/schemas/RetrievalRequest"
    components = document["components"]["schemas"]
    assert "steps" in components["RetrievalRequest"]["properties"]
    assert "Principal" in components and "Navigation" in components

    def refs(node: object) -> list[str]:
        found: list[str] = []
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                found.append(node["$ref"])
            for value in node.values():
                found.extend(refs(value))
        elif isinstance(node, list):
            for value in node:
                found.extend(refs(value))
        return found

    for ref in refs(document):  # every reference resolves
        assert ref.removeprefix("#/components/schemas/") in components, ref


def test_openapi_declares_the_400_a_malformed_request_gets_not_fastapis_422(client: TestClient) -> None:
    """Every route answers malformed input 400 with InputError's body; the document declared FastAPI's 422
    (``{"detail": [{"loc", "msg", "type"}]}``) on each, which none sends (task U40)."""
    import jsonschema

    document = client.get("/openapi.json").json()
    operations = {(method, path): op for path, ops in document["paths"].items() for method, op in ops.items()}
    assert not [key for key, op in operations.items() if "422" in op["responses"]]
    assert "HTTPValidationError" not in document["components"]["schemas"]
    taking = [key for key, op in operations.items() if "requestBody" in op or op.get("parameters")]
    assert len(taking) == len(operations) - 1  # all but /healthz
    for key in taking:
        assert operations[key]["responses"]["400"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/InputError"}, key
    declared = document["components"]["schemas"]["InputError"]
    sent = [client.post("/v1/agents/retrieval", json={"query": "x", "max_tool_calls": "many"}, headers=auth(ADMIN)),
            client.post("/v1/tools/search", json={"query": ""}, headers=auth(ADMIN)),
            client.post("/v1/agents/retrieval", content=b"{",
                        headers={**auth(ADMIN), "content-type": "application/json"}),
            client.get("/v1/collections/notes/documents?removed=maybe", headers=auth(ADMIN))]
    for response in sent:
        assert response.status_code == 400, response.text
        jsonschema.validate(response.json(), declared)


def test_no_auth_only_on_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    with pytest.raises(InputError) as caught:
        require_loopback_for_no_auth("0.0.0.0")
    assert caught.value.field == "host"


def test_no_auth_serves_as_a_local_principal(corpus: Corpus) -> None:
    with TestClient(create_app(corpus, ServerConfig(), auth=False), base_url="http://127.0.0.1") as local:
        assert (
            local.post(
                "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "next"}
            ).status_code
            == 200
        )


def test_a_tool_the_key_may_not_use_is_403(client: TestClient) -> None:
    response = client.post(
        "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "next"}, headers=auth(NARROW)
    )
    assert response.status_code == 403
    assert client.post("/v1/tools/search", json={"query": "orion"}, headers=auth(NARROW)).status_code == 200


# -- search ---------------------------------------------------------------------------------

def test_search(client: TestClient, secret_id: str) -> None:
    response = client.post("/v1/tools/search", json={"query": "Orion budget", "limit": 999}, headers=auth())
    assert response.status_code == 200
    result = response.json()
    assert result["applied"]["limit"] == 100  # clamped, not an error
    assert secret_id in [h["evidence_id"] for h in result["hits"]]
    # the reader's row filter hides the restricted document
    hidden = client.post("/v1/tools/search", json={"query": "Orion budget"}, headers=auth(READER)).json()
    assert secret_id not in [h["evidence_id"] for h in hidden["hits"]] and hidden["hits"]


def test_search_filter(client: TestClient) -> None:
    body = {"query": "orion", "filter": {"term": {"status": "published"}}}
    hits = client.post("/v1/tools/search", json=body, headers=auth()).json()["hits"]
    assert [h["document_key"] for h in hits] == ["lunch.txt"]
    bad(
        client.post("/v1/tools/search", json={"query": "orion", "filter": {"tern": {"a": 1}}}, headers=auth()), "filter"
    )
    nan = b'{"query": "orion", "filter": {"range": {"year": {"lt": NaN}}}}'  # JSON as Python writes a NaN
    response = client.post("/v1/tools/search", content=nan, headers={**auth(), "content-type": "application/json"})
    bad(response, "filter")
    assert response.json()["message"] == "malformed filter at range.year.lt: must be a finite number, not nan"


def test_search_bad_input(client: TestClient) -> None:
    bad(client.post("/v1/tools/search", json={"query": "  "}, headers=auth()), "query")
    bad(client.post("/v1/tools/search", json={"query": "x", "limit": "5"}, headers=auth()), "limit")
    bad(client.post("/v1/tools/search", json={"query": "x", "mode": "fuzzy"}, headers=auth()), "mode")
    bad(client.post("/v1/tools/search", json={"query": "x", "bogus": 1}, headers=auth()), "bogus")
    bad(client.post("/v1/tools/search", content=b"{not json", headers={**auth(), "content-type": "application/json"}),
        "body")


def test_search_unknown_and_unreadable_collections_are_the_same_404(client: TestClient) -> None:
    missing = client.post("/v1/tools/search", json={"query": "x", "collection": "nope"}, headers=auth())
    assert missing.status_code == 404
    body = missing.json()
    assert body["error"] == "unavailable" and body["field"] == "collection"
    unreadable = client.post("/v1/tools/search", json={"query": "x", "collection": "notes"}, headers=auth(NARROW))
    assert unreadable.status_code == 200  # narrow may read notes
    other = client.post("/v1/tools/search", json={"query": "orion", "collection": "private"}, headers=auth(NARROW))
    text = "unknown collection 'private'"
    assert (other.status_code, other.json()) == (404, {**body, "message": text, "detail": text})
    assert client.post("/v1/tools/search", json={"query": "orion", "collection": "private"}, headers=auth()).json()[
        "hits"
    ]


# -- navigation -----------------------------------------------------------------------------

def test_navigate_matches_the_python_call(client: TestClient, corpus: Corpus) -> None:
    body = {"evidence_id": ACME[0], "relation": "next", "limit": 3, "max_chars": 4000}
    response = client.post("/v1/tools/navigate_document_tree", json=body, headers=auth())
    assert response.status_code == 200
    direct = navigate_document_tree(Scope(corpus), TreeArgs(**body))
    assert response.json() == direct.model_dump(mode="json")
    clamped = client.post(
        "/v1/tools/navigate_document_tree", json={**body, "limit": 10_000, "max_chars": -4}, headers=auth()
    ).json()
    assert clamped["applied"] == {"limit": 50, "max_chars": 1}


def test_navigate_bad_input(client: TestClient) -> None:
    bad(
        client.post(
            "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "cousins"}, headers=auth()
        ),
        "relation",
    )
    bad(
        client.post(
            "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "NEXT"}, headers=auth()
        ),
        "relation",
    )
    bad(
        client.post("/v1/tools/navigate_document_tree", json={"evidence_id": " ", "relation": "next"}, headers=auth()),
        "evidence_id",
    )
    malformed(client.post("/v1/tools/navigate_document_tree", json={"evidence_id": "garbage", "relation": "next"},
                          headers=auth()))
    bad(client.post("/v1/tools/navigate_document_tree", json={"relation": "next"}, headers=auth()), "evidence_id")
    bad(
        client.post(
            "/v1/tools/navigate_document_tree",
            json={"evidence_id": ACME[0], "relation": "next", "limit": True},
            headers=auth(),
        ),
        "limit",
    )


def test_navigate_denied_is_the_missing_404(client: TestClient, secret_id: str) -> None:
    missing = client.post(
        "/v1/tools/navigate_document_tree", json={"evidence_id": MISSING, "relation": "next"}, headers=auth(READER)
    )
    denied = client.post(
        "/v1/tools/navigate_document_tree", json={"evidence_id": secret_id, "relation": "next"}, headers=auth(READER)
    )
    assert (missing.status_code, missing.json()) == (denied.status_code, denied.json())
    assert unavailable(missing) == UNAVAILABLE
    allowed = client.post(
        "/v1/tools/navigate_document_tree", json={"evidence_id": secret_id, "relation": "parent"}, headers=auth()
    )
    assert allowed.status_code == 200


def test_read_and_grep(client: TestClient) -> None:
    read = client.post("/v1/tools/read", json={"document": "acme-notes.md", "top_k": 2}, headers=auth()).json()
    assert [i["evidence_id"] for i in read["items"]] == ACME[:2]
    grep = client.post(
        "/v1/tools/grep", json={"document": "acme-notes.md", "pattern": "daniel okafor"}, headers=auth()
    ).json()
    assert [i["evidence_id"] for i in grep["items"]] == [ACME[1]]


def test_read_and_grep_bad_input(client: TestClient) -> None:
    bad(
        client.post("/v1/tools/read", json={"document": "acme-notes.md", "start": 50, "end": 10}, headers=auth()), "end"
    )
    bad(client.post("/v1/tools/read", json={"document": "acme-notes.md", "top_k": "2"}, headers=auth()), "top_k")
    bad(
        client.post(
            "/v1/tools/grep", json={"document": "acme-notes.md", "pattern": "x", "mode": "regex"}, headers=auth()
        ),
        "mode",
    )
    bad(client.post("/v1/tools/grep", json={"document": "acme-notes.md"}, headers=auth()), "pattern")


def test_read_and_grep_denied_is_the_missing_404(client: TestClient) -> None:
    for path, extra in (("/v1/tools/read", {}), ("/v1/tools/grep", {"pattern": "orion"})):
        missing = client.post(path, json={"document": "nope.txt", **extra}, headers=auth(READER))
        denied = client.post(path, json={"document": "budget.txt", **extra}, headers=auth(READER))
        assert (missing.status_code, missing.json()) == (denied.status_code, denied.json())
        assert missing.status_code == 404
        assert client.post(path, json={"document": "budget.txt", **extra}, headers=auth()).status_code == 200


def test_expand(client: TestClient, secret_id: str) -> None:
    result = client.post(
        "/v1/tools/expand_neighbors",
        json={"ids": [ACME[0]], "relationship_types": ["next"], "limit": 99},
        headers=auth(),
    ).json()
    assert result["limit"] == 24 and ACME[1] in [n["id"] for n in result["neighbors"]]
    bad(client.post("/v1/tools/expand_neighbors", json={"ids": [ACME[0]], "depth": "2"}, headers=auth()), "depth")
    bad(client.post("/v1/tools/expand_neighbors", json={"ids": []}, headers=auth()), "ids")
    missing = client.post("/v1/tools/expand_neighbors", json={"ids": [MISSING]}, headers=auth(READER))
    denied = client.post("/v1/tools/expand_neighbors", json={"ids": [secret_id]}, headers=auth(READER))
    assert missing.status_code == denied.status_code == 404
    assert missing.text.replace(MISSING, "ID") == denied.text.replace(secret_id, "ID")


def test_slice(client: TestClient, secret_id: str) -> None:
    result = client.post("/v1/tools/fetch_slice", json={"id": ACME[1], "window": 500}, headers=auth()).json()
    assert result["applied"]["window"] == 64 and [p["evidence_id"] for p in result["passages"]] == ACME
    bad(client.post("/v1/tools/fetch_slice", json={"id": ACME[1], "window": 2.5}, headers=auth()), "window")
    malformed(client.post("/v1/tools/fetch_slice", json={"id": "ev1:x"}, headers=auth()))
    missing = client.post("/v1/tools/fetch_slice", json={"id": MISSING}, headers=auth(READER))
    denied = client.post("/v1/tools/fetch_slice", json={"id": secret_id}, headers=auth(READER))
    assert (missing.status_code, missing.json()) == (denied.status_code, denied.json())
    assert unavailable(missing) == UNAVAILABLE


# -- evidence and citations -----------------------------------------------------------------

def test_evidence(client: TestClient, secret_id: str) -> None:
    result = client.get(f"/v1/evidence/{ACME[1]}", headers=auth()).json()
    assert result["evidence"][0]["item"]["evidence_id"] == ACME[1]
    malformed(client.get("/v1/evidence/ev1:c:nope", headers=auth()))
    bad(client.get(f"/v1/evidence/{ACME[1]}?max_chars=many", headers=auth()), "max_chars")
    missing = client.get(f"/v1/evidence/{MISSING}", headers=auth(READER))
    denied = client.get(f"/v1/evidence/{secret_id}", headers=auth(READER))
    assert missing.status_code == denied.status_code == 404
    assert missing.text.replace(MISSING, "ID") == denied.text.replace(secret_id, "ID")
    entry = missing.json()["evidence"][0]
    assert (missing.json()["status"], entry["status"], entry["detail"]) == ("unavailable", *UNAVAILABLE.values())


def test_citations(client: TestClient, secret_id: str) -> None:
    body = {"ids": [ACME[0], ACME[1], MISSING, secret_id], "fetched": [ACME[0], MISSING, secret_id]}
    report = client.post("/v1/citations/check", json=body, headers=auth(READER)).json()
    reasons = [v["reason"] for v in report["verdicts"]]
    assert reasons == ["ok", "not_fetched", "unavailable", "unavailable"]  # denied reads as missing
    assert report["citable"] == [ACME[0]] and not report["all_citable"]
    bad(client.post("/v1/citations/check", json={"ids": []}, headers=auth()), "ids")
    bad(client.post("/v1/citations/check", json={"ids": "ev1:c:1:1:0"}, headers=auth()), "ids")


# -- the agent ------------------------------------------------------------------------------

def ask(query: str = "who owns Orion Maps", **extra: object) -> dict:
    return {"query": query, "queries": [{"collection": "notes"}],
            "steps": {"retrieval": {"navigation": {"strategy": "tree"}}}, **extra}


def test_retrieval(client: TestClient) -> None:
    response = client.post("/v1/agents/retrieval", json=ask(max_tool_calls=99), headers=auth())
    assert response.status_code == 200
    result = response.json()
    assert result["status"] in ("ok", "incomplete") and result["summary"]["steps"] and "steps" not in result
    assert result["applied"]["max_tool_calls"] == 20
    assert ACME[1] in [h["evidence_id"] for h in result["hits"]]


def test_retrieval_bad_input(client: TestClient) -> None:
    bad(client.post("/v1/agents/retrieval", json={"query": " "}, headers=auth()), "query")
    bad(client.post("/v1/agents/retrieval", json=["query"], headers=auth()), "request")
    nav = {"strategy": "tree", "max_steps": 3}
    response = client.post("/v1/agents/retrieval", json=ask(steps={"retrieval": {"navigation": nav}}), headers=auth())
    bad(response, "steps.retrieval.navigation.max_steps")


def test_retrieval_in_an_unknown_or_unreadable_collection_is_404(client: TestClient) -> None:
    for stream in (False, True):
        body = {**ask(stream=stream), "queries": [{"collection": "nope"}]}
        missing = client.post("/v1/agents/retrieval", json=body, headers=auth())
        body = {**ask(stream=stream), "queries": [{"collection": "private"}]}
        unreadable = client.post("/v1/agents/retrieval", json=body, headers=auth(NARROW))
        assert missing.status_code == unreadable.status_code == 404
        assert missing.json()["field"] == unreadable.json()["field"] == "collection"


def test_retrieval_streams_events_then_the_result_in_process(client: TestClient) -> None:
    response = client.post("/v1/agents/retrieval", json=ask(stream=True), headers=auth())
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    kinds = [line.removeprefix("event: ") for line in response.text.splitlines() if line.startswith("event: ")]
    assert kinds[-1] == "result" and set(kinds[:-1]) == {"step"}


def test_retrieval_principal_comes_from_the_key(client: TestClient, secret_id: str) -> None:
    # the body asks to read everything; the reader's key decides, and the restricted row stays out
    widened = ask("Orion budget restricted", principal={"name": "root"})
    result = client.post("/v1/agents/retrieval", json=widened, headers=auth(READER)).json()
    assert secret_id not in [h["evidence_id"] for h in result["hits"]]
    admin = client.post("/v1/agents/retrieval", json=ask("Orion budget restricted"), headers=auth()).json()
    assert secret_id in [h["evidence_id"] for h in admin["hits"]]


def test_retrieval_without_the_walk_permission_is_403(client: TestClient, config: ServerConfig,
                                                       corpus: Corpus) -> None:
    for stream in (False, True):
        response = client.post("/v1/agents/retrieval", json=ask(stream=stream), headers=auth(NARROW))
        assert response.status_code == 403
        text = "tree navigation needs the tree_search permission"
        assert response.json() == {"error": "forbidden", "message": text, "detail": text}


def test_every_route_is_403_for_a_tool_the_key_may_not_use(client: TestClient) -> None:
    refused = [client.get(f"/v1/evidence/{ACME[1]}", headers=auth(NARROW)),
               client.post("/v1/citations/check", json={"ids": [ACME[1]]}, headers=auth(NARROW)),
               client.post("/v1/tools/get_chunk", json={"evidence_id": ACME[1]}, headers=auth(NARROW)),
               client.post("/v1/tools/retrieve", json=ask(), headers=auth(NARROW)),
               client.post("/db/v1/agents/retrieval", json=ask(), headers=auth(NARROW))]
    assert [r.status_code for r in refused] == [403] * len(refused)
    assert all(r.json()["error"] == "forbidden" for r in refused)


# -- ingestion ------------------------------------------------------------------------------

def test_ingest_json_records_then_search(client: TestClient) -> None:
    records = {"records": [{"key": "ops.txt", "text": "Zebrafish escalation goes to the night desk."}]}
    response = client.post("/v1/collections/ops/documents", json=records, headers=auth())
    assert response.status_code == 200, response.text
    assert response.json()["versions_created"] == 1
    hits = client.post("/v1/tools/search", json={"query": "zebrafish", "collection": "ops"}, headers=auth()).json()[
        "hits"
    ]
    assert [h["document_key"] for h in hits] == ["ops.txt"]


def test_ingest_uploaded_files(client: TestClient, acme_path: Path) -> None:
    files = [("files", ("guide.md", b"# Guide\n\n## Kiwi\n\nKiwi deploys happen on Tuesdays.\n")),
             ("files", ("acme-notes.md", acme_path.read_bytes()))]
    response = client.post("/v1/collections/docs/documents?chunk_tokens=160&merge_sections=true", files=files,
                           headers=auth())
    assert response.status_code == 200, response.text
    assert response.json()["documents"] == 2
    hits = client.post("/v1/tools/search", json={"query": "kiwi", "collection": "docs"}, headers=auth()).json()["hits"]
    assert hits[0]["document_key"] == "guide.md"


def test_an_uploaded_epub_is_one_document(client: TestClient) -> None:
    book = (FIXTURES / "epub" / "pandoc-npm-scope-workspaces.epub").read_bytes()
    response = client.post("/v1/collections/books/documents", files=[("files", ("npm.epub", book))], headers=auth())
    assert response.status_code == 200, response.text
    assert response.json()["documents"] == 1
    hits = client.post("/v1/tools/search", json={"query": "scoped packages install", "collection": "books"},
                       headers=auth()).json()["hits"]
    assert hits[0]["document_key"] == "npm.epub" and hits[0]["heading_path"][0] == "Scope"


def test_ingest_bad_input_and_permissions(client: TestClient) -> None:
    bad(client.post("/v1/collections/ops/documents", json={"records": "x"}, headers=auth()), "records")
    bad(client.post("/v1/collections/ops/documents", json={"records": [1]}, headers=auth()), "records.0")
    bad(
        client.post(
            "/v1/collections/ops/documents", content=b"{", headers={**auth(), "content-type": "application/json"}
        ),
        "records",
    )
    bad(client.post("/v1/collections/ops/documents?chunk_tokens=2", json={"records": [{"key": "a", "text": "b"}]},
                    headers=auth()), "chunk_tokens")
    refused = client.post("/v1/collections/notes/documents", json={"records": [{"key": "a", "text": "b"}]},
                          headers=auth(NARROW))
    assert refused.status_code == 403
    assert client.post("/v1/collections/ops/documents", json={"records": []}).status_code == 401


def test_ingest_into_a_read_only_corpus_is_409(db_path: Path, config: ServerConfig) -> None:
    with Corpus(db_path, read_only=True) as corpus, TestClient(create_app(corpus, config)) as ro:
        response = ro.post("/v1/collections/ops/documents", json={"records": [{"key": "a", "text": "b"}]},
                           headers=auth())
        assert response.status_code == 409


def test_principal_for_key_builds_the_configured_principal(config: ServerConfig) -> None:
    reader = config.principal_for_key(READER)
    assert isinstance(reader, Principal) and reader.name == "reader" and reader.row_filter is not None
    assert config.principal_for_key("") is None and config.principal_for_key("reader") is None


@pytest.mark.filterwarnings(r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning")
def test_the_configured_model_options_reach_the_model(corpus: Corpus, config: ServerConfig,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import litellm

    from tests.agent.test_agent_model import Flaky

    handler = Flaky([])
    monkeypatch.setattr(litellm, "custom_provider_map", [{"provider": "clew-test-flaky", "custom_handler": handler}])
    configured = config.model_copy(update={"model": "clew-test-flaky/m",
                                           "model_options": ModelOptions(max_tokens=7, extra={"seed": 3})})
    with TestClient(create_app(corpus, configured)) as client:
        response = client.post("/v1/agents/retrieval", headers=auth(ADMIN), json={
            "query": "who owns the Orion Planner", "queries": [{"collection": "notes"}],
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}})
    assert response.status_code == 200, response.text
    sent = handler.seen[0]["optional_params"]
    assert (sent["max_tokens"], sent["seed"], sent["temperature"]) == (7, 3, 0)
