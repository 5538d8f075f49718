"""A model that never calls a tool, behind a real OpenAI-compatible server on 127.0.0.1: the
agentic walk hands over to the ranking and its evidence equals the ranked walk's."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clew.agent.api import retrieve_sync
from clew.agent.model import model_from_name
from clew.config.model_options import ModelOptions
from clew.corpus.store import Corpus
from clew.testing import FunctionModel, reply_text

from .conftest import tree_request

PROSE = "I think the incident commander is paged, and the database on-call too. Let me know if you need more."


class Prose(BaseHTTPRequestHandler):
    """Every chat completion is the same prose: never a tool call, never a citation."""

    calls: list[dict] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Prose.calls.append(body)
        reply = {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                 "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": PROSE}}],
                 "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return None


@contextmanager
def serving_prose() -> Iterator[str]:
    """The prose model's server on 127.0.0.1 (its base URL), its calls recorded from empty."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Prose)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Prose.calls = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture
def prose_server() -> Iterator[str]:
    with serving_prose() as url:
        yield url


@pytest.mark.parametrize("budget", [1000, 3000])
def test_a_model_that_only_writes_prose_leaves_the_evidence_of_the_ranked_walk(
        runbooks: Corpus, prose_server: str, budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the data marker is random per run and its tokens are kept for each passage's block in the answer
    # prompt: one marker for both runs, so that a budget that binds binds the same
    monkeypatch.setattr("clew.agent.api.new_marker", lambda: "CLEWDATA0123")
    model = model_from_name("openai/prose", ModelOptions(api_base=prose_server, retries=0))
    question = "Who is paged for a SEV1 incident, and who promotes the replica?"
    agentic = retrieve_sync({**tree_request(question, "runbooks", selection="agentic"), "include_steps": True,
                             "context_budget_tokens": budget}, corpus=runbooks, model=model)
    writer = FunctionModel(lambda messages, tools: reply_text("No answer."))  # the same room for the answer prompt
    ranked = retrieve_sync({**tree_request(question, "runbooks"), "context_budget_tokens": budget},
                           corpus=runbooks, model=writer)
    assert [h.evidence_id for h in agentic.hits] == [h.evidence_id for h in ranked.hits]
    # the model's conversation left the budget when the ranking took over: the same tokens as the ranked run
    assert agentic.usage.context_tokens == ranked.usage.context_tokens <= budget
    select = [s for s in agentic.steps if s.state == "select"]
    assert select[1].detail.startswith('the model answered instead of choosing ("I think the incident commander')
    tools_offered = [c for c in Prose.calls if c.get("tools")]
    assert len(tools_offered) == 2 and all(c["max_tokens"] == 128 for c in tools_offered)  # the choice, the repair
    generation = agentic.generation  # the prose cites nothing: the extract stands in for it, and says so
    assert generation is not None and generation.kind == "extract" and generation.fallback is not None
    assert generation.unsupported and generation.unsupported[0].startswith("I think the incident commander")
