"""The package as it would be published, in a fresh virtual environment: ``python -m build`` makes
the sdist and the wheel (the wheel built from the sdist), ``twine check --strict`` passes their
metadata, and the wheel installed with clew's core only (pinned by constraints.txt) runs: the CLI
ingests, searches and answers, the demo runs, and what needs an extra says which one to install.

The one test file that uses the package registry (in a subprocess, most of it served from the
installer's cache): through uv where ``make test`` put it beside this interpreter (the Makefile installs
with it), else through pip, as a user may install either way; both install the same wheel under the
same pins. ``CLEW_SKIP_INSTALL_TEST=1`` skips it where there is no registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import clew
from tests.conftest import ROOT

EXTRA_MODULES = ("fastapi", "uvicorn", "mcp", "python_multipart", "matplotlib", "ray", "torch", "sentence_transformers",
                 "pytest", "bm25s", "langchain_core", "llama_index", "pydantic_ai", "agents")
"""Modules the core must not install: each belongs to an extra (or to the test tools)."""
UV = Path(sys.executable).parent / "uv"
"""uv, where ``make test`` installed it into this venv."""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("CLEW_SKIP_INSTALL_TEST") == "1", reason="CLEW_SKIP_INSTALL_TEST=1"),
]


def found(value: Any, key: str) -> Any:
    """The first value under ``key`` anywhere in a JSON document (whatever envelope wraps it)."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            hit = found(item, key)
            if hit is not None:
                return hit
    return None


def sh(*args: str | Path, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    # bytecode written: the core venv's modules are compiled by the first command that imports them
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, as ``python -m build`` makes them for an upload."""
    out = tmp_path_factory.mktemp("dist")
    installer = ["--installer", "uv"] if UV.exists() else []
    built = sh(sys.executable, "-m", "build", *installer, "--outdir", out, ROOT, cwd=ROOT, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory: pytest.TempPathFactory, dist: Path) -> Path:
    venv = tmp_path_factory.mktemp("core") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    made = sh(base, "-m", "venv", "--without-pip", venv, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    (wheel,) = dist.glob("clew-*.whl")
    # uv (or this interpreter's pip) installs into the venv (--python) and compiles nothing up front: the
    # commands below compile what they import (13 s of CPU less than pip inside the venv compiling every module)
    python = venv / "bin" / "python"
    pins = ("--quiet", "-c", ROOT / "constraints.txt", wheel)
    pip = (sys.executable, "-m", "pip", "--python", python, "install", "--no-compile", "--disable-pip-version-check")
    installed = sh(UV, "pip", "install", "--python", python, *pins, cwd=ROOT, timeout=1200) if UV.exists() else None
    if installed is None or installed.returncode != 0:  # uv reads no pip.conf: what only pip reaches, pip installs
        installed = sh(*pip, *pins, cwd=ROOT, timeout=1200)
    assert installed.returncode == 0, installed.stderr[-4000:]
    return venv


def test_the_sdist_and_the_wheel_are_ready_to_upload(dist: Path, core_venv: Path, tmp_path: Path) -> None:
    files = sorted(path.name for path in dist.iterdir())
    assert files == [f"clew-{clew.__version__}-py3-none-any.whl", f"clew-{clew.__version__}.tar.gz"]
    checked = sh(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()), cwd=tmp_path)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(f"clew-{clew.__version__}.dist-info/METADATA").decode()
    assert {"clew/py.typed", "clew/demo/workflow.jsonl", "clew/demo/corpus/deploy-rollback.md",
            "clew/integrations/langchain.py", f"clew-{clew.__version__}.dist-info/licenses/LICENSE"} <= set(names)
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    headers = [line for line in metadata.splitlines() if ": " in line and not line.startswith(" ")]
    assert "License-Expression: MIT" in headers and "Description-Content-Type: text/markdown" in headers
    assert not [h for h in headers if h.startswith("Project-URL")]  # none until real ones exist (test_layout)
    assert "Classifier: Typing :: Typed" in headers
    assert {"Provides-Extra: langchain", "Provides-Extra: llama-index", "Provides-Extra: server"} <= set(headers)

    version = sh(core_venv / "bin" / "clew", "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.strip() == f"clew {clew.__version__}", version.stderr
    where = sh(core_venv / "bin" / "python", "-c", "import clew; print(clew.__file__)", cwd=tmp_path)
    assert where.stdout.startswith(str(core_venv)), where.stdout  # the wheel's copy, not the source tree


def test_the_core_install_is_lean_and_its_cli_ingests_searches_and_answers(core_venv: Path, tmp_path: Path) -> None:
    python, clew = core_venv / "bin" / "python", core_venv / "bin" / "clew"
    probe = sh(python, "-c", f"import importlib.util as u; print([m for m in {EXTRA_MODULES!r} if u.find_spec(m)])",
               cwd=tmp_path)
    assert probe.stdout.strip() == "[]", probe.stdout + probe.stderr

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "backups.md").write_text("# Backups\n\n## Restore\n\nRestore the latest backup with "
                                     "`backupctl restore --latest`, then check the row counts.\n")
    (docs / "alerts.md").write_text("# Alerts\n\n## Paging\n\nA disk alert pages the storage on-call.\n")
    db = tmp_path / "c.duckdb"
    ingested = sh(clew, "ingest", docs, "--db", db, "--json", cwd=tmp_path)
    assert ingested.returncode == 0, ingested.stderr
    assert found(json.loads(ingested.stdout), "documents") == 2

    searched = sh(clew, "search", "restore the latest backup", "--db", db, "--json", cwd=tmp_path)
    assert searched.returncode == 0, searched.stderr
    assert found(json.loads(searched.stdout), "hits")[0]["document_key"] == "backups.md"

    asked = sh(clew, "ask", "How do I restore the latest backup?", "--db", db, "--collection", "default", "--json",
               cwd=tmp_path)
    assert asked.returncode == 0, asked.stderr
    result = json.loads(asked.stdout)
    assert found(result, "status") == "ok"
    assert "backupctl restore --latest" in found(result, "generation")["answer"]

    demo = sh(python, "-m", "clew.demo", cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    assert "ok: the walk took everything it found" in demo.stdout  # the stop line of the first question


def test_what_needs_an_extra_names_it(core_venv: Path, tmp_path: Path) -> None:
    python, clew = core_venv / "bin" / "python", core_venv / "bin" / "clew"
    for command in ("serve", "mcp"):
        done = sh(clew, command, "--db", tmp_path / "c.duckdb", cwd=tmp_path)
        assert done.returncode != 0
        assert "needs the 'server' extra" in done.stderr and "pip install -e '.[server]'" in done.stderr, done.stderr
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "q1", "question": "Who is paged?", "evidence": ["storage on-call"]}\n')
    evaluated = sh(clew, "eval", questions, "--db", tmp_path / "c.duckdb", "--out", tmp_path / "out", cwd=tmp_path)
    assert evaluated.returncode != 0 and "needs the 'plot' extra" in evaluated.stderr, evaluated.stderr
    imported = sh(python, "-c", "import clew.server.rest", cwd=tmp_path)
    assert "clew.errors.MissingExtra" in imported.stderr and "pip install -e '.[server]'" in imported.stderr
