"""Every tool through every front end on one corpus: Python, the CLI, REST (a real uvicorn on
127.0.0.1) and MCP (a real client session over stdio and over streamable HTTP, each a
``clew mcp`` process). The same arguments give the same result JSON; a denied, a missing
and a malformed id the same status; an unknown argument the same error; an out-of-range
bound the same clamped, reported value."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from clew.cli import app
from clew.commands.common import EXIT_CODES
from clew.config.settings import load_config
from clew.corpus.access import Principal
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import ClewError
from clew.server.rest import create_app
from clew.surface import surface
from clew.tools.registry import ToolContext
from tests.envelope import envelope

from .conftest import ACME, CONFIG, MISSING, READER, auth, build_corpus, free_port, wait_for_mcp_http
from .test_rest_live import Served

CLEW = [sys.executable, "-m", "clew.cli"]
OK: dict[str, dict[str, Any]] = {
    "search": {"query": "Daniel Okafor", "collection": "notes", "limit": 3},
    "get_chunk": {"evidence_id": ACME[1]},
    "navigate": {"document": "acme-notes.md", "start_offset": 0, "end_offset": 10, "top_k": 2},
    "read": {"document": "acme-notes.md", "top_k": 2},
    "grep": {"document": "acme-notes.md", "pattern": "daniel okafor"},
    "navigate_document_tree": {"evidence_id": ACME[0], "relation": "next", "max_chars": 4000},
    "expand_neighbors": {"ids": [ACME[0]], "relationship_types": ["next"]},
    "fetch_slice": {"id": ACME[1], "window": 2},
    "fetch_evidence": {"ids": [ACME[1]]},
    "check_citations": {"ids": [ACME[2]]},  # never fetched here: not citable in any session
    "retrieve": {"query": "Which component does Daniel Okafor own?", "queries": [{"table": "notes"}],
                 "steps": {"retrieval": {"navigation": {"strategy": "tree"}}}},
}
# (tool, the argument that names the row, its value for: denied, missing, malformed)
IDS: list[tuple[str, str, Callable[[str], Any]]] = [
    ("get_chunk", "evidence_id", lambda v: v),
    ("navigate_document_tree", "evidence_id", lambda v: v),
    ("fetch_slice", "id", lambda v: v),
    ("fetch_evidence", "ids", lambda v: [v]),
    ("expand_neighbors", "ids", lambda v: [v]),
    ("check_citations", "ids", lambda v: [v]),
    ("read", "document", lambda v: v),
    ("grep", "document", lambda v: v),
]
BOUNDS = {"search": ("limit", 1000, 100), "read": ("top_k", 999, 50), "fetch_slice": ("window", -5, 1),
          "expand_neighbors": ("depth", 9, 3), "navigate_document_tree": ("max_chars", 10**9, 20000),
          "retrieve": ("max_tool_calls", 99, 20)}


def comparable(result: Any) -> Any:
    """A result with scores to six significant digits: from a process's ninth query on, BM25 scores
    a read-only corpus in memory in float32 (``clew.corpus.search``), SQL in float64, so the same
    hit's score differs in the eighth digit between a long-lived server and a one-off CLI call."""
    if isinstance(result, dict):
        return {k: float(f"{v:.6g}") if k == "score" and isinstance(v, float) else comparable(v)
                for k, v in result.items()}
    if isinstance(result, list):
        return [comparable(v) for v in result]
    return result


def status_of(result: dict[str, Any]) -> str:
    if "verdicts" in result:
        return str(result["verdicts"][0]["reason"])
    return str(result["status"])


class Mcp:
    """One MCP client session held open on a thread of its own (the SDK's contexts live in one task)."""

    def __init__(self, transport: Callable[[], Any]) -> None:
        self.transport = transport
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=lambda: self.loop.run_until_complete(self._main()), daemon=True)
        self.thread.start()
        assert self.ready.wait(60), "the MCP session did not start"

    async def _main(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        async with Client(self.transport()) as client:
            self.ready.set()
            while (item := await self.queue.get()) is not None:
                name, arguments, future = item
                try:
                    future.set_result(await client.call_tool(name, arguments))
                except BaseException as error:  # noqa: BLE001  (handed to the waiting test)
                    future.set_exception(error)

    def __call__(self, name: str, arguments: dict[str, Any]) -> tuple[str, Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (name, arguments, future))
        result = future.result(120)
        return ("error", result.content[0].text) if result.is_error else ("ok", result.structured_content)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, None)
        self.thread.join(30)
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("surfaces")
    db = build_corpus(folder, Path(__file__).parents[1] / "fixtures" / "markdown" / "acme-notes.md")
    config_path = folder / "clew.toml"
    config_path.write_text(CONFIG, encoding="utf-8")
    reader = load_config(config_path).principal_for_key(READER)
    port = free_port()
    http = subprocess.Popen([*CLEW, "mcp", "--db", str(db), "--config", str(config_path), "--principal", "reader",
                             "--transport", "http", "--port", str(port)], stderr=subprocess.DEVNULL)
    corpus = Corpus(db, read_only=True)
    sessions: list[Mcp] = []
    try:
        # one REST client for the module's calls (each client builds an SSL context, about 20 ms of CPU); a
        # connection a call, as before: none kept open for the server to close while the client reuses it
        with Served(create_app(corpus, load_config(config_path))) as served, \
                httpx.Client(base_url=served.url, timeout=120,
                             limits=httpx.Limits(max_keepalive_connections=0)) as rest_client:
            stdio = StdioServerParameters(command=CLEW[0], args=[*CLEW[1:], "mcp", "--db", str(db), "--config",
                                                                 str(config_path), "--principal", "reader"])
            sessions.append(Mcp(lambda: stdio_client(stdio)))
            wait_for_mcp_http(port, http)
            sessions.append(Mcp(lambda: streamable_http_client(f"http://127.0.0.1:{port}/mcp")))
            from clew.corpus.search.api import search

            secret = next(h.evidence_id for h in search(corpus, {"query": "budget restricted"}).hits
                          if h.document_key == "budget.txt")
            yield {"db": db, "corpus": corpus, "reader": reader, "rest": served.url, "http": rest_client,
                   "secret": secret, "mcp-stdio": sessions[0], "mcp-http": sessions[1]}
    finally:
        for session in sessions:
            session.close()
        http.terminate()
        http.wait(20)
        corpus.close()


def python(world: dict[str, Any], name: str, arguments: dict[str, Any], principal: Principal | None = None
           ) -> tuple[str, Any]:
    principal = principal or world["reader"]
    try:
        result = asyncio.run(surface.acall(name, arguments, ToolContext(Scope(world["corpus"], principal))))
    except ClewError as error:
        return "error", str(error)
    return "ok", result.model_dump(mode="json")


def rest(world: dict[str, Any], name: str, arguments: dict[str, Any]) -> tuple[str, Any]:
    response = world["http"].post(f"/v1/tools/{name}", json=arguments, headers=auth(READER))
    body = response.json()
    if response.status_code in (200, 404) and "error" not in body:
        return "ok", body
    return "error", f"{body['field']}: {body.get('message', body.get('detail'))}" if "field" in body else body["detail"]


def cli_arguments(name: str, arguments: dict[str, Any]) -> list[str]:
    schema = surface.get(name).parameters()
    words = [str(arguments[k]) for k in schema.get("required", ()) if k in arguments]
    for key, value in arguments.items():
        if key in schema.get("required", ()):
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            words.append(flag if value else f"--no-{key.replace('_', '-')}")
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            for one in value:
                words += [flag, one]
        elif isinstance(value, dict | list):
            words += [flag, json.dumps(value)]
        else:
            words += [flag, str(value)]
    return words


def cli(world: dict[str, Any], name: str, arguments: dict[str, Any]) -> tuple[str, Any]:
    required = surface.get(name).parameters().get("required", ())
    listed = {k: v for k, v in arguments.items() if k in required and isinstance(v, list)}
    words = cli_arguments(name, {k: v for k, v in arguments.items() if k not in listed})
    for values in listed.values():  # a required list is the trailing positional arguments
        words = [*values, *words]
    result = CliRunner().invoke(app, [name, *words, "--db", str(world["db"]), "--json"])
    body = envelope(result.stdout)
    if body["error"] is not None:
        assert result.exit_code == body["exit_code"] and result.stderr.strip() == f"error: {body['error']['message']}"
        return "error", body["error"]["message"]
    assert result.exit_code == body["exit_code"] == EXIT_CODES[body["status"]]
    return "ok", body["result"]


SURFACES = {"python": python, "cli": cli, "rest": rest,
            "mcp-stdio": lambda w, n, a: w["mcp-stdio"](n, a), "mcp-http": lambda w, n, a: w["mcp-http"](n, a)}
READERS = [s for s in SURFACES if s != "cli"]  # the CLI reads as the corpus' owner: nothing is denied to it


@pytest.mark.parametrize("name", sorted(OK))
def test_every_tool_gives_the_same_result_on_every_surface(world: dict[str, Any], name: str) -> None:
    answers = {surface_name: call(world, name, OK[name]) for surface_name, call in SURFACES.items()}
    kinds = {s: a[0] for s, a in answers.items()}
    assert set(kinds.values()) == {"ok"}, answers
    first = comparable(answers["python"][1])
    assert status_of(first) in ("ok", "incomplete", "not_fetched"), first
    owner = comparable(python(world, name, OK[name], Principal(name="owner"))[1])
    for surface_name, (_, result) in answers.items():
        assert comparable(result) == (owner if surface_name == "cli" else first), surface_name


@pytest.mark.parametrize(("name", "field", "wrap"), IDS, ids=[i[0] for i in IDS])
def test_denied_missing_and_malformed_ids_have_the_same_status_everywhere(
        world: dict[str, Any], name: str, field: str, wrap: Callable[[str], Any]) -> None:
    base = {k: v for k, v in OK[name].items() if k != field}
    documents = field == "document"
    values = {"denied": "budget.txt" if documents else world["secret"], "missing": "nope.txt" if documents else MISSING,
              "malformed": "ev1:c:garbage"}
    expected = {"denied": "unavailable", "missing": "unavailable", "malformed": "malformed"}
    for case, value in values.items():
        arguments = {**base, field: wrap(value)}
        surfaces = READERS if case == "denied" else list(SURFACES)
        seen = {s: SURFACES[s](world, name, arguments) for s in surfaces}
        assert {s: a[0] for s, a in seen.items()} == dict.fromkeys(surfaces, "ok"), seen
        assert {s: status_of(a[1]) for s, a in seen.items()} == dict.fromkeys(surfaces, expected[case]), (case, seen)
        bodies = {json.dumps(comparable(a[1]), sort_keys=True) for a in seen.values()}
        assert len(bodies) == 1, (case, bodies)


def test_a_title_typed_for_a_key_is_read_and_offered_the_same_everywhere(world: dict[str, Any]) -> None:
    """A page's title where a key is asked (task S1): the title of the one readable document titled so reads it
    as its key does, a misspelt one is unavailable with the key meant, on every surface; the reader's denied
    ``budget.txt`` ("Budget") is neither read nor offered by its title."""
    for name, field in (("read", "document"), ("grep", "document"), ("fetch_slice", "id")):
        base = {**{k: v for k, v in OK[name].items() if k != field}, "collection": "notes"}
        by_key = comparable(python(world, name, {**base, field: "acme-notes.md"})[1])
        seen = {s: call(world, name, {**base, field: "acme robotics  ENGINEERING notes"})
                for s, call in SURFACES.items()}
        assert {s: comparable(a[1]) for s, a in seen.items()} == dict.fromkeys(SURFACES, by_key), (name, seen)
        assert status_of(by_key) == "ok" and by_key["document_key"] == "acme-notes.md"
        for given, surfaces, detail in (
                ("Acme Robotics engineering note", list(SURFACES),
                 "no readable document has this key (did you mean acme-notes.md?)"),
                ("Budget", READERS, "no readable document has this key"),
                ("Budgett", READERS, "no readable document has this key")):
            answers = {s: SURFACES[s](world, name, {**base, field: given}) for s in surfaces}
            assert {s: (a[0], status_of(a[1]), a[1]["detail"]) for s, a in answers.items()} == dict.fromkeys(
                surfaces, ("ok", "unavailable", detail)), (name, given, answers)


NOT_CANONICAL = {"arabic-indic": "ev1:c:\u0661:1:1", "fullwidth": "ev1:c:\uff11:1:1", "leading-zeros": "ev1:c:0001:1:1"}
"""``ev1:c:1:1:1`` spelt three other ways that ``int()`` reads alike: each is malformed on every surface."""


@pytest.mark.parametrize(("name", "field", "wrap"), IDS, ids=[i[0] for i in IDS])
def test_a_non_canonical_id_is_malformed_everywhere(world: dict[str, Any], name: str, field: str,
                                                    wrap: Callable[[str], Any]) -> None:
    base = {k: v for k, v in OK[name].items() if k != field}
    for case, value in NOT_CANONICAL.items():
        seen = {s: call(world, name, {**base, field: wrap(value)}) for s, call in SURFACES.items()}
        assert {s: (a[0], status_of(a[1])) for s, a in seen.items()} == dict.fromkeys(SURFACES, ("ok", "malformed")), (
            case, seen)
        assert len({json.dumps(comparable(a[1]), sort_keys=True) for a in seen.values()}) == 1, (case, seen)


@pytest.mark.parametrize("name", sorted(OK))
def test_an_unknown_argument_is_the_same_error_everywhere(world: dict[str, Any], name: str) -> None:
    seen = {s: call(world, name, {**OK[name], "bogus": 1}) for s, call in SURFACES.items()}
    assert list(seen.values()) == [("error", "bogus: Extra inputs are not permitted")] * len(seen), seen


@pytest.mark.parametrize("name", sorted(OK))
def test_a_misspelt_argument_names_the_one_meant_the_same_everywhere(world: dict[str, Any], name: str) -> None:
    meant = max(OK[name], key=len)
    typo = meant[:-1]  # "collectio", "evidence_i": a user's slip
    seen = {s: call(world, name, {**OK[name], typo: 1}) for s, call in SURFACES.items()}
    expected = ("error", f"{typo}: Extra inputs are not permitted; did you mean {meant!r}?")
    assert list(seen.values()) == [expected] * len(seen), seen


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_an_out_of_range_bound_is_clamped_and_reported_the_same_everywhere(world: dict[str, Any], name: str) -> None:
    bound, asked, applied = BOUNDS[name]
    seen = {s: call(world, name, {**OK[name], bound: asked}) for s, call in SURFACES.items()}
    results = {s: comparable(a[1]) for s, a in seen.items()}
    assert all(kind == "ok" for kind, _ in seen.values()), seen
    first = results["python"]
    reported = first.get("applied", {}).get(bound, first.get(bound))
    assert reported == applied
    # the CLI reads as the owner: its BM25 statistics count rows the reader may not read
    owner = comparable(python(world, name, {**OK[name], bound: asked}, Principal(name="owner"))[1])
    assert all(result == (owner if s == "cli" else first) for s, result in results.items()), seen


def test_collection_is_honoured_on_every_surface(world: dict[str, Any]) -> None:
    outside = {s: call(world, "read", {"document": "acme-notes.md", "collection": "private"})
               for s, call in SURFACES.items()}
    assert {s: status_of(a[1]) for s, a in outside.items()} == dict.fromkeys(SURFACES, "unavailable"), outside
    unknown = {s: call(world, "search", {"query": "orion", "collection": "nosuch"}) for s, call in SURFACES.items()}
    assert list(unknown.values()) == [("error", "collection: unknown collection 'nosuch'")] * len(SURFACES), unknown
