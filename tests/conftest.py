"""Shared fixtures: real files, real DuckDB corpora in tmp_path, no network."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"


def shared_dir() -> Path | None:
    """``../shared`` beside the checkout (the dev-set lives there); None when absent."""
    for candidate in (ROOT.parent / "shared", Path(os.environ.get("CLEW_SHARED_DIR", "/nonexistent"))):
        if (candidate / "evals" / "sqlite-docs" / "corpus").is_dir():
            return candidate
    return None


SQLITE_DOCS = (shared_dir() or Path("/nonexistent")) / "evals" / "sqlite-docs"
needs_sqlite_docs = pytest.mark.skipif(
    not SQLITE_DOCS.is_dir(),
    reason="the shared SQLite dev set (../shared/evals/sqlite-docs) is not beside this checkout",
)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never reach a network: refuse connections to anything but loopback."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else address
        if (
            isinstance(host, str)
            and not (host.startswith("127.") or host in ("localhost", "::1"))
            and self.family != socket.AF_UNIX
        ):
            raise ConnectionRefusedError(f"tests may not reach the network ({address!r})")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


def python_output(code: str) -> str:
    """The standard output of ``code`` run by a fresh interpreter (what a process imports or builds
    from a clean start); a failure is an assertion with its stderr."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def write_files(folder: Path, files: dict[str, str]) -> Path:
    """Write ``{name: text}`` into ``folder`` (created) and return it: a small real corpus."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def acme_path() -> Path:
    return FIXTURES / "markdown" / "acme-notes.md"


# Tests never call a real model: clew.agent.model.LiteLLMModel refuses while this is set (only
# litellm's mock_response and "clew-test..." custom providers answer). Set at import, not with
# setdefault, so that no outer environment can switch the guard off for the suite.
os.environ["CLEW_FORBID_MODEL_CALLS"] = "1"
