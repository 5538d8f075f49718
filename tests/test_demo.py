import subprocess
import sys
from pathlib import Path


def demo(folder: Path, **env: str) -> str:
    """The demo's output, run as ``make demo`` runs it (no model call allowed), its stdout not a terminal."""
    result = subprocess.run(
        [sys.executable, "-m", "clew.demo", "--db", str(folder / "demo.duckdb")],
        capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "CLEW_FORBID_MODEL_CALLS": "1", **env},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def rules(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("─")]


def test_demo_answers_three_questions_offline(tmp_path: Path) -> None:
    out = demo(tmp_path)
    # not a terminal and no COLUMNS: 80 columns (was always 160, so every separator wrapped at 80)
    assert len(rules(out)) == 5 and {len(line) for line in rules(out)} == {80}
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


def test_demo_follows_the_terminal_width_it_is_given(tmp_path: Path) -> None:
    out = demo(tmp_path, COLUMNS="100")
    assert len(rules(out)) == 5 and {len(line) for line in rules(out)} == {100}
    assert "incomplete: tool calls ran out (3 of 3) with" in out
