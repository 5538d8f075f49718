"""The REST API served by a real uvicorn on 127.0.0.1: streamed steps arrive while the run goes on."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.server.rest import create_app
from clew.testing import FunctionModel, reply_text
from tests.conftest import ROOT

from .conftest import ACME, ADMIN, auth, free_port


class Served:
    def __init__(self, app: object, port: int | None = None) -> None:
        self.port = port or free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise TimeoutError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def gate() -> threading.Event:
    return threading.Event()


@pytest.fixture
def gated_model(gate: threading.Event) -> FunctionModel:
    """A model that cannot answer until the test has seen a streamed step."""

    async def answer(messages: list[dict], tools: list[dict] | None) -> dict:
        released = await asyncio.to_thread(gate.wait, 20)
        assert released, "the client never saw a step while the run was waiting"
        return reply_text("Maria Chen owns the Orion Planner.")

    return FunctionModel(answer, name="gated")


@pytest.fixture
def served(corpus: Corpus, config: ServerConfig, gated_model: FunctionModel) -> Iterator[Served]:
    with Served(create_app(corpus, config, model=gated_model)) as running:
        yield running


def test_steps_stream_one_by_one_before_the_run_ends(served: Served, gate: threading.Event,
                                                      gated_model: FunctionModel) -> None:
    request = {"query": "who owns the Orion Planner", "queries": [{"collection": "notes"}], "stream": True,
               "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "agentic"}}}}
    events: list[tuple[str, dict, bool]] = []  # (event, data, the model was still held)
    with httpx.Client(base_url=served.url, timeout=30) as client, \
            client.stream("POST", "/v1/agents/retrieval", json=request, headers=auth(ADMIN)) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                events.append((kind or "", json.loads(line.removeprefix("data: ")), not gate.is_set()))
                if kind == "step":
                    gate.set()  # only now may the run go on
    kinds = [kind for kind, _, _ in events]
    assert kinds[-1] == "result" and set(kinds[:-1]) == {"step"} and len(kinds) >= 3
    assert events[0][2], "the first step arrived while the run was still waiting on its model"
    assert gated_model.requests, "the run asked its model only after the client saw a step"
    steps = [data["step"] for kind, data, _ in events if kind == "step"]
    assert [s["index"] for s in steps] == list(range(len(steps)))
    assert "steps" not in events[-1][1]["result"]  # streamed one by one, not repeated in the result
    assert events[-1][1]["result"]["summary"]["steps"] == len(steps)
    # the guide says what a client parses (task U40: it said only "a result event with the whole result")
    assert {tuple(sorted(data)) for _, data, _ in events} == {("step", "type"), ("result", "type")}
    guide = " ".join((ROOT / "docs" / "guides" / "rest.md").read_text().split())
    assert '`{"type": "step", "step": {...}}`' in guide and '`{"type": "result", "result": {...}}`' in guide


def test_the_live_server_answers_navigation_and_auth(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert (
            client.post(
                "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "next"}
            ).status_code
            == 401
        )
        response = client.post(
            "/v1/tools/navigate_document_tree", json={"evidence_id": ACME[0], "relation": "next"}, headers=auth()
        )
        assert [i["evidence_id"] for i in response.json()["items"]] == [ACME[1]]


def test_concurrent_requests_each_get_their_own_cursor(served: Served) -> None:
    async def many() -> list[int]:
        async with httpx.AsyncClient(base_url=served.url, timeout=30, headers=auth()) as client:
            calls = [
                client.post("/v1/tools/navigate_document_tree", json={"evidence_id": ACME[i % 3], "relation": "parent"})
                for i in range(24)
            ]
            calls += [client.post("/v1/tools/search", json={"query": "orion"}) for _ in range(24)]
            return [r.status_code for r in await asyncio.gather(*calls)]

    assert asyncio.run(many()) == [200] * 48


def test_a_long_model_call_keeps_the_stream_alive(corpus: Corpus, config: ServerConfig) -> None:
    """While the model thinks, the stream sends ': ping' comments; the events still arrive whole."""

    async def slow(messages: list[dict], tools: list[dict] | None) -> dict:
        await asyncio.sleep(1.2)
        return reply_text("Maria Chen owns the Orion Planner.")

    request = {"query": "who owns the Orion Planner", "queries": [{"collection": "notes"}], "stream": True}
    lines: list[tuple[float, str]] = []
    app = create_app(corpus, config, model=FunctionModel(slow, name="slow"), keepalive_seconds=0.25)
    with Served(app) as running, httpx.Client(base_url=running.url, timeout=30) as client, \
            client.stream("POST", "/v1/agents/retrieval", json=request, headers=auth(ADMIN)) as response:
        assert response.status_code == 200
        lines = [(time.monotonic(), line) for line in response.iter_lines() if line]
    pings = [at for at, line in lines if line == ": ping"]
    kinds = [line.removeprefix("event: ") for _, line in lines if line.startswith("event: ")]
    assert len(pings) >= 3 and kinds[-1] == "result" and set(kinds[:-1]) == {"step"}
    gaps = [b - a for a, b in zip([at for at, _ in lines], [at for at, _ in lines][1:], strict=False)]
    assert max(gaps) < 1.0  # never silent as long as the model call
