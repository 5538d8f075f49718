"""benchmarks/html_structure.py runs, on a folder shaped like a Sphinx build made of the fixtures
(the real python3.11-doc run is in docs/measurements/structure-2026-12-05.md, not here)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_benchmarks import run_here

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "html"


def test_the_benchmark_reports_structure_files_and_the_functools_outline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "html"
    (docs / "library").mkdir(parents=True)
    shutil.copy(FIXTURES / "sphinx-functools.html", docs / "library" / "functools.html")
    shutil.copy(FIXTURES / "sphinx-graphlib.html", docs / "library" / "graphlib.html")
    (docs / "genindex.html").write_text("<h1>Index</h1>", encoding="utf-8")
    (docs / "_sources" / "library").mkdir(parents=True)
    (docs / "_sources" / "library" / "graphlib.rst.txt").write_text(
        ":mod:`graphlib` --- Functionality to operate with graph-like structures\n"
        "==================================================================\n\n"
        ".. class:: TopologicalSorter(graph=None)\n\n   Provides functionality to topologically sort a graph of "
        "hashable nodes.\n", encoding="utf-8")
    # in this process (an interpreter and clew's imports saved), as the scripts that start no process of their own
    report = run_here("html_structure.py", "--docs", str(docs), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)
    structure = report["structure"]
    assert structure["pages"] == 2
    assert structure["headings"]["share"] == structure["api_entries"]["share"] == 1.0
    assert (structure["chrome_sections_left"], structure["admonition_sections"], structure["permalinks_left"]) == (
        0, 0, 0)
    assert report["files"]["excluded"] == 2 and report["files"]["with_sources_taken_back"]["twins_skipped"] == 1
    functools = report["functools"]
    assert functools["title"] == "functools — Higher-order functions and operations on callable objects"
    assert functools["lru_cache_anchor_lands_on"]["heading_path"][-1] == "functools.lru_cache"
    assert any("functools.lru_cache  section" in line for line in functools["outline"])
