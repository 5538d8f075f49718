"""Shared fixtures: real files, real DuckDB corpora in tmp_path, no network."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from clew import _process
from tests.forked_cli import ForkedCli
from tests.model_server import LlamaServer

if TYPE_CHECKING:
    from clew.corpus.store import Corpus

# the order the files run in: the slow install test, then the longest files first
pytest_plugins = ["tests.ordering"]

# the interpreter's teardown at a test process's end (each xdist worker imported every test module: litellm, mcp,
# openai) walked every object in its collections, 1.4-1.8 s of CPU a process: frozen first, as the executable does
_process.no_final_collections()

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


def build_sqlite_docs(folder: Path) -> None:
    """The shared SQLite dev set's 64 pages in ``folder / "sqlite-docs.duckdb"`` (collection ``sqlite``, the default
    chunk size) and its ingest report in ``ingest-report.json``: built once a session (``prebuilt``) for the test
    files that ingest, search or walk it, where each ingested it for itself (1.1 s of CPU an ingest)."""
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    with Corpus(folder / "sqlite-docs.duckdb") as corpus:
        report = ingest_paths(corpus, [SQLITE_DOCS / "corpus"], collection="sqlite", glob="*.html")
    (folder / "ingest-report.json").write_text(report.model_dump_json(), encoding="utf-8")


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
    """Write ``{name: text}`` into ``folder`` (created, with the folders a name holds) and return it: a small
    real corpus."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def document_keys(corpus: Corpus, collection: str = "docs", removed: bool = False) -> list[str]:
    """The keys ``clew ls`` lists in ``collection`` (with the removed ones where ``removed``)."""
    from clew.corpus.documents import list_documents
    from clew.corpus.reader import Scope

    return [row.key for row in list_documents(Scope(corpus, collection=collection), include_removed=removed)]


@pytest.fixture
def acme_path() -> Path:
    return FIXTURES / "markdown" / "acme-notes.md"


class Prebuilt:
    """Corpora built once per session (per xdist worker) and copied into each test's own folder.

    ``prebuilt(build, tmp_path)`` runs ``build(folder)`` in a session folder the first time it
    meets ``build`` (a module-level function), then copies that folder's files (the DuckDB file
    and the sources it wrote) into ``tmp_path``: a test may change its copy as it likes. A copy
    takes milliseconds where an ingest takes a tenth of a second or more. The copied corpus's
    ``source`` column names the session folder, where the same files stay.
    """

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self._factory = factory
        self._built: dict[Callable[[Path], object], Path] = {}

    def __call__(self, build: Callable[[Path], object], into: Path) -> Path:
        folder = self._built.get(build)
        if folder is None:
            folder = self._factory.mktemp(build.__name__)
            build(folder)
            self._built[build] = folder
        shutil.copytree(folder, into, dirs_exist_ok=True)
        return into


@pytest.fixture(scope="session")
def prebuilt(tmp_path_factory: pytest.TempPathFactory) -> Prebuilt:
    return Prebuilt(tmp_path_factory)


@pytest.fixture(scope="session")
def forked_cli() -> Iterator[ForkedCli]:
    """``python -m clew`` runs forked from one process that imported the CLI and litellm once a
    session (tests/forked_cli.py): a process of its own each, without the cold imports."""
    cli = ForkedCli()
    yield cli
    cli.close()


@pytest.fixture(scope="session")
def llama() -> Iterator[LlamaServer]:
    """The real small model (tests/model_server.py), one server a session (per xdist worker) for every test
    that asks it; started by the first such test. A test that needs a context window of its own starts its own."""
    server = LlamaServer(ctx=8192)
    try:
        yield server
    finally:
        server.stop()


# Tests never call a real model: clew.agent.model.LiteLLMModel refuses while this is set (only
# litellm's mock_response and "clew-test..." custom providers answer). Set at import, not with
# setdefault, so that no outer environment can switch the guard off for the suite.
os.environ["CLEW_FORBID_MODEL_CALLS"] = "1"

# clew caches the token encoding's ranks on disk (clew.budgets.bpe_cache): in a folder of the
# run's own, never the user's cache folder (subprocesses inherit it).
_CACHE = tempfile.mkdtemp(prefix="clew-test-cache-")
os.environ["CLEW_CACHE_DIR"] = _CACHE


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's cache folder goes when its process's pytest ends: a pytest-xdist worker ends with
    ``os._exit``, which runs no exit handler (an ``atexit`` removal left a folder per worker and run)."""
    shutil.rmtree(_CACHE, ignore_errors=True)

# The terminal's size is no test's input. pytest imports readline, which sets COLUMNS=80 and
# LINES=24 in the process's C environment (os.environ does not show them); pytest-xdist's workers
# inherit them into os.environ, and a console made there would keep 80 columns for the whole
# worker, whatever COLUMNS a later test passes. Neither the tests nor their subprocesses see them.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)
    os.unsetenv(_name)
