"""DuckDB's refusal of a file another process holds, read for the process it names (``clew.corpus.store.held_by``;
the refusal itself: tests/corpus/test_write_turns.py) in time linear in the message."""

from __future__ import annotations

import subprocess
import sys

LONG = r"""
import duckdb
from clew.corpus.store import held_by
n = 800_000
print(held_by(duckdb.IOException("Conflicting lock is held in " * (n // 28))) is None,
      held_by(duckdb.IOException("Conflicting lock is held in " + " (PID 1" * (n // 7) + "x")) is None,
      held_by(duckdb.IOException("Conflicting lock is held in " + "p" * n + " (PID 7).")) is not None, flush=True)
"""


def test_the_message_is_read_in_time_linear_in_it() -> None:
    """Before, the pattern was searched for anywhere, its lazy run quadratic in a message repeating DuckDB's words:
    80,000 characters 1.1 s, 200,000 6.9 s, these 800,000 past the child's 60 s; now each a few milliseconds."""
    done = subprocess.run([sys.executable, "-c", LONG], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, "True True True\n"), done.stderr
