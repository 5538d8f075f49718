import subprocess
import sys
from pathlib import Path


def test_demo_answers_three_questions_offline(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clew.demo", "--db", str(tmp_path / "demo.duckdb")],
        capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "CLEW_FORBID_MODEL_CALLS": "1"},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "4 documents" in out and "3 workflow edges" in out
    # ranked tree walk: the table row that answers, with its citation
    assert (
        "| SEV2 | A core feature degraded for many customers | 30 minutes | Incident commander and the owning team |"
        in out
    )
    # graph walk along workflow:next reaches the failover and rollback runbooks
    assert "database-failover.md › Database failover › Before you start" in out
    assert "deploy-rollback.md › Rolling back a deploy" in out
    # the third question runs out of tool calls and says so, keeping what it found
    assert "incomplete: tool calls ran out (3 of 3) with" in out
    assert out.count("extract (quoted from the evidence, no model):") == 3 and out.count("evidence (") == 3
