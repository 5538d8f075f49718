"""An ``ollama/`` model reaches only the ``api_base`` it is given: litellm's model-information
look-ups (``/api/show``, before and after each call, for a model missing from its cost map) used
to go to ``localhost:11434`` beside it. A fake Ollama on 127.0.0.1 answers; a listener on
11434 counts what reaches the default port."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clew.agent.model import LiteLLMModel

ANSWER = "Deploys happen on Tuesdays."
TOOLS = [{"type": "function", "function": {"name": "finish", "description": "End the walk.",
                                           "parameters": {"type": "object", "properties": {}}}}]


class FakeOllama(BaseHTTPRequestHandler):
    paths: list[str] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        FakeOllama.paths.append(self.path)
        body = json.dumps({"model": "m", "created_at": "2026-12-05T00:00:00Z", "done": True, "response": ANSWER,
                           "message": {"role": "assistant", "content": ANSWER}, "prompt_eval_count": 5,
                           "eval_count": 4}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def ollama() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeOllama)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    FakeOllama.paths = []
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def default_port() -> Iterator[list[bytes]]:
    """What reaches 127.0.0.1:11434 (Ollama's default) while the test runs."""
    trap = socket.socket()
    try:
        trap.bind(("127.0.0.1", 11434))
    except OSError:
        trap.close()
        pytest.skip("127.0.0.1:11434 is in use (an Ollama running here?): nothing to watch it with")
    trap.listen(16)
    trap.settimeout(0.2)
    reached: list[bytes] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            try:
                connection, _ = trap.accept()
            except OSError:
                continue
            with connection:
                connection.settimeout(1)
                try:
                    reached.append(connection.recv(200))
                except OSError:
                    reached.append(b"(connected)")

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield reached
    finally:
        stop.set()
        watcher.join()
        trap.close()


@pytest.mark.parametrize("name", ["ollama/qwen2.5:0.5b-clew-test", "ollama_chat/qwen2.5:0.5b-clew-test-chat"])
def test_an_ollama_model_calls_only_its_api_base(name: str, ollama: str, default_port: list[bytes]) -> None:
    model = LiteLLMModel(name, api_base=ollama, retries=0)
    plain = asyncio.run(model.complete([{"role": "user", "content": "When are deploys?"}]))
    with_tools = asyncio.run(model.complete([{"role": "user", "content": "When are deploys?"}], TOOLS))
    assert plain.content == with_tools.content == ANSWER
    assert len(FakeOllama.paths) == 2 and set(FakeOllama.paths) <= {"/api/generate", "/api/chat"}
    assert default_port == []
