"""The real small model for the tests: ``benchmarks/llama_server.py`` (llama.cpp's own server,
SmolLM2-135M-Instruct) in a process of its own, and the session's one server (fixture
``llama`` in tests/conftest.py) that every real-model test uses where it needs no window of
its own: the real-model tests and the agentic benchmark's test. One start a session (about
0.8 s of CPU and 2-3 s of wall each), and llama.cpp's prompt cache keeps what one test's
prompts share with another's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "llama_server.py"


class LlamaServer:
    """``benchmarks/llama_server.py`` in its own process, stopped by closing its stdin."""

    def __init__(self, ctx: int) -> None:
        self.process = subprocess.Popen(
            # port 0: the server binds a free port and says which. One prompt thread: beside the other test
            # worker, two spin-waiting ones cost a third more CPU
            [sys.executable, str(SCRIPT), "--port", "0", "--ctx", str(ctx), "--batch-threads", "1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line:
            self.stop()
            raise RuntimeError(f"the llama.cpp server did not start (exit {self.process.returncode})")
        self.info = json.loads(line)
        self.port = int(self.info["url"].rsplit(":", 1)[1])
        self.api_base = f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        if self.process.stdout is not None:
            self.process.stdout.close()
