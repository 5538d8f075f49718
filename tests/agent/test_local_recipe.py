"""The local-model recipe of docs/guides/local-models.md, run as written: its shell block, in a bash of its own.

It starts the real SmolLM2-135M-Instruct on llama.cpp's server (xllamacpp), asks one question with
it, and stops the server. Two of the server script's options differ from the page: a free port
instead of 8090 (in the server's command and in ``api_base``), so that two test runs on one machine
never meet, and one prompt thread (``--batch-threads 1``, as every test server: beside the other
test worker two spin and cost about a third more CPU). The question's context budget is 400 tokens,
not the page's 1,500: the test checks that the commands work together, not how much evidence the
answer reads, and the model reads its prompt at about 7 ms of CPU a token. Skipped, saying why,
where the wheel or the model cannot be installed (``make install`` installs both).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT
from tests.server.conftest import free_port

sys.path.insert(0, str(ROOT / "benchmarks"))
from llama_server import missing

PAGE = ROOT / "docs" / "guides" / "local-models.md"
SERVER = "python benchmarks/llama_server.py --port 8090 --background"
API_BASE = "api_base=http://127.0.0.1:8090/v1"
BUDGET = "--context-tokens 1500"


def recipe() -> str:
    block = re.search(r"<!-- recipe:local-model -->\n```sh\n(.*?)\n```", PAGE.read_text(), re.S)
    assert block is not None, "docs/guides/local-models.md lost its local-model recipe"
    return block.group(1)


def on_port(script: str, port: int) -> str:
    """The recipe with the server on ``port`` (and one prompt thread) and a 400-token budget, everything else
    as written."""
    assert script.count(SERVER) == 1 and script.count(API_BASE) == 1 and script.count(BUDGET) == 1, (
        "the recipe's server, api_base or context budget changed")
    return (script.replace(SERVER, f"python benchmarks/llama_server.py --port {port} --batch-threads 1 --background")
            .replace(API_BASE, f"api_base=http://127.0.0.1:{port}/v1").replace(BUDGET, "--context-tokens 400"))


def test_the_recipe_asks_a_question_with_the_real_model_and_stops_the_server() -> None:
    why = missing()
    if why is not None:
        pytest.skip(why)
    port = free_port()
    made = [ROOT / name for name in ("demo.duckdb", ".llama-server.pid", ".llama-server.log")]
    existed = [path for path in made if path.exists()]
    if existed:
        pytest.skip(f"the recipe would overwrite {existed[0]}")
    env = {k: v for k, v in os.environ.items() if k != "CLEW_FORBID_MODEL_CALLS"}  # the real model, on loopback
    # the answer bounded at 16 tokens, as in the other real-model tests (clew reads CLEW_* beside clew.toml): what
    # is checked is that the commands work together (an answer or the extract standing in for it, with citations),
    # and SmolLM2 fills any bound, at 28 ms of CPU a token (the 512-token default: 15 s more here)
    env["CLEW_MODEL_OPTIONS__MAX_TOKENS"] = "16"
    try:
        ran = subprocess.run(["bash", "-euo", "pipefail", "-c", on_port(recipe(), port)], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=600)
        assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
        out = ran.stdout
        serving = re.search(rf"serving SmolLM2-135M-Instruct as model openai/smollm2 at http://127\.0\.0\.1:{port}/v1 "
                            r"\(pid (\d+)", out)
        assert serving is not None, out
        assert "stop it: kill " in out
        assert re.search(r"^(answer|extract \(quoted from the evidence[^)]*\)):", out, re.M)
        assert "[ev1:c:" in out and re.search(r"^ev1:c:\d+:\d+:\d+  deploy-rollback\.md", out, re.M)
        pid = Path(f"/proc/{serving.group(1)}")
        deadline = time.monotonic() + 30
        while pid.exists() and "zombie" not in pid.joinpath("status").read_text() and time.monotonic() < deadline:
            time.sleep(0.2)  # the last line stopped it: it is shutting down
        assert not pid.exists() or "zombie" in pid.joinpath("status").read_text()
        # a stopped server removes its pid file: a later kill "$(cat .llama-server.pid)" meets no reused pid (task U36)
        assert not (ROOT / ".llama-server.pid").exists()
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
    finally:
        for path in made:
            path.unlink(missing_ok=True)
