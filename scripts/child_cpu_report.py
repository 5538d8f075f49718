"""The child processes a test run started, by kind: ``python scripts/child_cpu_report.py LINES``.

LINES is the file ``scripts/child_cpu/sitecustomize.py`` wrote (``CLEW_CHILD_CPU``); a run that records::

    CLEW_CHILD_CPU=/tmp/children.jsonl PYTHONPATH=scripts/child_cpu python -m pytest -q -n auto ...

Prints a Markdown table: each kind (``clew`` and its command, a server, a script, ``python -c``, a
multiprocessing worker), how many processes, their CPU and the CPU of their imports, in seconds. The test
processes themselves (pytest and its xdist workers) are left out.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def kind(row: dict[str, Any]) -> str | None:
    """What started: None for pytest's own processes."""
    argv: list[str] = row["argv"]
    joined = " ".join(argv)
    if row["forked"] and "forked_cli.py" in joined:
        return "clew, forked (tests/forked_cli.py): " + next((a for a in row["sys_argv"][1:] if a[:1] != "-"), "")
    words = argv[1:]
    while words and words[0].startswith("-") and words[0] not in ("-m", "-c"):
        words = words[1:]
    if not words or any(w.endswith("pytest") for w in argv[:3]) or "exec(eval(" in joined:
        return None
    if words[0] == "-c":
        code = words[1] if len(words) > 1 else ""
        return ("multiprocessing worker" if "multiprocessing" in code else "python -c")
    if words[0] == "-m" and len(words) > 1 and words[1] not in ("clew", "clew.cli"):
        return f"python -m {words[1]}"
    if words[0] == "-m" or words[0].endswith("/clew"):
        rest = [w for w in words[2 if words[0] == "-m" else 1:] if not w.startswith("-")]
        command = rest[0] if rest else "(none)"
        return f"clew {command}" if command in ("serve", "mcp", "ingest") else "clew (other commands)"
    return "script " + Path(words[0]).name


def main() -> None:
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for line in Path(sys.argv[1]).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        name = kind(row)
        if name is not None:
            total = totals[name]
            total[0] += 1
            total[1] += row["cpu"]
            total[2] += row["imports"]
    print("| kind | processes | CPU (s) | imports (s) |\n| --- | ---: | ---: | ---: |")
    for name, (count, cpu, imports) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(f"| {name} | {count:.0f} | {cpu:.1f} | {imports:.1f} |")


if __name__ == "__main__":
    main()
