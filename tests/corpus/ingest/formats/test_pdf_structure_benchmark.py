"""benchmarks/pdf_structure.py runs, on the reportlab guide fixture (the real bashref.pdf run is in
docs/measurements/structure-2026-12-05.md, not here: the file is not shipped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_benchmarks import run_here

ROOT = Path(__file__).resolve().parents[4]


def test_the_benchmark_reports_bookmarks_sections_title_and_ranks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process (an interpreter and clew's imports saved), as the scripts that start no process of their own
    out = run_here("pdf_structure.py", str(ROOT / "tests" / "fixtures" / "pdf" / "reportlab-userguide.pdf"),
                   "--query", "drawString", "--definition", "drawString", cwd=tmp_path, monkeypatch=monkeypatch,
                   capsys=capsys)
    assert out["bookmarks"]["levels_0_2"] == 104 and out["bookmarks"]["share"] == 1.0
    assert out["sections_not_bookmarks"] == 0
    assert out["title"] == "ReportLab PDF Generation User Guide"
    assert out["search"]["definition_rank"] == 1
