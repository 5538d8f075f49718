"""scripts/child_cpu: the recorder of the child processes a test run starts, and its report by kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def test_every_python_child_writes_its_cpu_and_the_report_sums_them_by_kind(tmp_path: Path) -> None:
    out = tmp_path / "children.jsonl"
    path = os.pathsep.join(filter(None, [str(ROOT / "scripts" / "child_cpu"), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "CLEW_CHILD_CPU": str(out), "PYTHONPATH": path}
    version = subprocess.run([sys.executable, "-m", "clew", "--version"], env=env, capture_output=True, text=True,
                             timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("clew "), version.stderr
    # os._exit skips the exit handlers (clew's one-shot commands end so): the recorder writes first
    ended = subprocess.run([sys.executable, "-c", "import os; print('ending'); os._exit(3)"], env=env,
                           capture_output=True, text=True, timeout=120)
    assert (ended.returncode, ended.stdout) == (3, "ending\n")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["argv"][1:3] for row in rows] == [["-m", "clew"], ["-c", "import os; print('ending'); os._exit(3)"]]
    assert all(row["test"].startswith("tests/test_child_cpu.py::") and not row["forked"] for row in rows)
    assert rows[0]["cpu"] >= rows[0]["imports"] > 0  # clew's CLI imports typer before it reads its arguments
    report = subprocess.run([sys.executable, str(ROOT / "scripts" / "child_cpu_report.py"), str(out)],
                            capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert report[0] == "| kind | processes | CPU (s) | imports (s) |"
    assert sorted(line.split(" | ")[:2] for line in report[2:]) == [["| clew (other commands)", "1"],
                                                                     ["| python -c", "1"]]


def test_without_its_variable_the_recorder_does_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CLEW_CHILD_CPU"}
    env["PYTHONPATH"] = str(ROOT / "scripts" / "child_cpu")
    done = subprocess.run([sys.executable, "-c", "import os, sitecustomize; print(os._exit.__module__)"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "posix\n" and list(tmp_path.iterdir()) == []
