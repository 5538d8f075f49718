import subprocess
import sys
from pathlib import Path


def test_demo_runs_offline_and_shows_structure(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clew.demo", "--db", str(tmp_path / "demo.duckdb")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "4 documents" in out and "3 workflow edges" in out
    assert "| Severity | Customer impact | First update within | Who is paged |" in out
    assert "incident-response.md -> database-failover.md#before-you-start" in out
