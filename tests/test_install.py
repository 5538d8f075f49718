"""A fresh virtual environment with clew's core only (``pip install -e .``, pinned by
constraints.txt): the CLI ingests, searches and answers, the demo runs, and what needs an extra
says which one to install.

The one test that uses the package registry (through pip, in a subprocess; a few minutes, most
of it served from pip's cache). ``CLEW_SKIP_INSTALL_TEST=1`` skips it where there is no registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

EXTRA_MODULES = ("fastapi", "uvicorn", "mcp", "python_multipart", "matplotlib", "ray", "torch", "sentence_transformers",
                 "pytest", "bm25s", "langchain_core", "llama_index", "pydantic_ai")
"""Modules the core must not install: each belongs to an extra (or to the test tools)."""

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
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def core_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("core") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    made = sh(base, "-m", "venv", venv, cwd=ROOT)
    assert made.returncode == 0, made.stderr
    installed = sh(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                   "-c", ROOT / "constraints.txt", "-e", ROOT, cwd=ROOT, timeout=1200)
    assert installed.returncode == 0, installed.stderr[-4000:]
    return venv


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
