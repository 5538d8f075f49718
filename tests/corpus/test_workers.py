"""Parse workers end with the ingest that started them, even when it is SIGKILLed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux) to find the workers")


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    """Running, and not a zombie waiting for a reaper that may never come (PID 1 of a container)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def is_worker(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return False
    return b"multiprocessing" in command and b"resource_tracker" not in command


def test_workers_exit_when_the_ingest_is_killed(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(40):  # ~1 s of markdown-it each: the ingest runs long enough to be killed mid-way
        (folder / f"d{i:02}.md").write_text(f"# Doc {i}\n\n" + "word\n" * 20_000)
    process = subprocess.Popen(
        [sys.executable, "-m", "clew.cli", "ingest", str(folder), "--db", str(tmp_path / "c.duckdb"), "--workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2:
            assert process.poll() is None, "the ingest ended before its workers were seen"
            assert time.monotonic() < deadline, "no two workers appeared"
            time.sleep(0.2)
            workers = [pid for pid in children(process.pid) if is_worker(pid)]
        time.sleep(1.0)  # both are busy parsing now
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if alive(pid)] == [], "workers outlived the killed ingest"
    finally:
        if process.poll() is None:
            process.kill()
        for pid in workers:  # only when the test failed: leave no stray process behind
            if alive(pid) and is_worker(pid):
                os.kill(pid, signal.SIGKILL)
