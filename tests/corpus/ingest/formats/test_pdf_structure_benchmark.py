"""benchmarks/pdf_structure.py runs, on the reportlab guide fixture (the real bashref.pdf run is in
docs/measurements/structure-2026-12-05.md, not here: the file is not shipped)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def test_the_benchmark_reports_bookmarks_sections_title_and_ranks(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "pdf_structure.py"),
                           str(ROOT / "tests" / "fixtures" / "pdf" / "reportlab-userguide.pdf"),
                           "--query", "drawString", "--definition", "drawString"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert out["bookmarks"]["levels_0_2"] == 104 and out["bookmarks"]["share"] == 1.0
    assert out["sections_not_bookmarks"] == 0
    assert out["title"] == "ReportLab PDF Generation User Guide"
    assert out["search"]["definition_rank"] == 1
