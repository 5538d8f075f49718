"""Start-up time of the command line, printed as JSON.

Builds a small corpus (``--chunks`` generated passages, in a temporary folder), then times
whole processes, each ``--runs`` times in rotating order so that a loaded machine slows
every command alike:

- ``python -c pass``: the interpreter alone, the baseline;
- ``import clew.cli``: what every ``clew`` command pays before it does anything;
- ``clew --help``, ``clew search QUERY``, ``clew nav EVIDENCE_ID parent``: as a user runs them;
- ``clew ask QUERY``: the same question as the search, answered by a ranked walk and an extract
  (no model), reported as ``ask_over_search`` too (issue 40: <= 1.5).

Each command runs from bytecode, as an installed package does: the children's
``PYTHONDONTWRITEBYTECODE`` is dropped and ``PYTHONPYCACHEPREFIX`` points into the temporary
folder, so the warm-up run compiles clew once (``--no-bytecode`` keeps the environment as it is:
where it forbids bytecode, every run compiles clew's modules again). ``--warmups`` sets how many
untimed runs of each command come first (default 1; 0 where nothing is timed, as in the tests).

Each is reported as its median wall time, its ratio to the baseline's median and its time
over the baseline (what clew itself costs), and its median CPU time (user + system: on a
loaded machine, wall time also counts waits for a core). Target (issue 17): ``clew --help``, ``clew
search`` and ``clew nav`` <= 0.2 s wall on a small corpus. Usage::

    python benchmarks/startup.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from corpus_gen import write_markdown_corpus  # noqa: E402

TARGET_SECONDS = 0.2
ASK_OVER_SEARCH = 1.5


def build(folder: Path, chunks: int) -> tuple[Path, str]:
    """A corpus of ``chunks`` generated passages, and the evidence id of one of them."""
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.store import Corpus

    docs = folder / "docs"
    write_markdown_corpus(docs, chunks)
    db = folder / "startup.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [docs], glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        document, version = corpus.cursor().execute(
            "SELECT id, current_version FROM documents ORDER BY id LIMIT 1").fetchone()
    return db, f"ev1:c:{document}:{version}:1"


def clew_command() -> list[str]:
    """The console script installed beside this interpreter, else ``python -m clew.cli``."""
    script = Path(sys.executable).with_name("clew")
    return [str(script)] if script.exists() else [sys.executable, "-m", "clew.cli"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_env(folder: Path, bytecode: bool) -> dict[str, str]:
    env = {**os.environ, "COLUMNS": "100", "CLEW_CACHE_DIR": str(folder / "cache")}  # written by the warm-up
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``argv``."""
    cpu, began = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env)
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return elapsed, _children_cpu() - cpu


def walls_ok(samples: list[float]) -> bool:
    return statistics.median(samples) <= TARGET_SECONDS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=200)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--no-bytecode", action="store_true", help="keep the environment's bytecode setting")
    parser.add_argument("--warmups", type=int, default=1,
                        help="untimed runs of every command first (they warm the file cache and write the bytecode)")
    args = parser.parse_args()
    if args.warmups < 0:
        parser.error(f"--warmups must be 0 or more, not {args.warmups}")
    with tempfile.TemporaryDirectory() as tmp:
        db, evidence_id = build(Path(tmp), args.chunks)
        env = child_env(Path(tmp), not args.no_bytecode)
        clew = clew_command()
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "import clew.cli": [sys.executable, "-c", "import clew.cli"],
            "clew --help": [*clew, "--help"],
            "clew search": [*clew, "search", "section document", "--db", str(db)],
            "clew nav": [*clew, "nav", evidence_id, "parent", "--db", str(db)],
            "clew ask": [*clew, "ask", "section document", "--db", str(db)],
        }
        names = list(commands)
        for _ in range(args.warmups):
            for name in names:
                timed(commands[name], Path(tmp), env)
        walls: dict[str, list[float]] = {name: [] for name in names}
        cpus: dict[str, list[float]] = {name: [] for name in names}
        for run in range(args.runs):
            for name in names[run % len(names):] + names[:run % len(names)]:
                wall, cpu = timed(commands[name], Path(tmp), env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    baseline = statistics.median(walls["python -c pass"])
    cpu_baseline = statistics.median(cpus["python -c pass"])
    results: dict[str, object] = {"chunks": args.chunks, "runs": args.runs, "warmups": args.warmups,
                                  "target_seconds": TARGET_SECONDS,
                                  "bytecode": not args.no_bytecode or "PYTHONDONTWRITEBYTECODE" not in os.environ,
                                  "load_average": [round(x, 1) for x in os.getloadavg()]}
    for name in names:
        median, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        results[name] = {"median_s": round(median, 3), "min_s": round(min(walls[name]), 3),
                         "x_baseline": round(median / baseline, 2), "over_baseline_s": round(median - baseline, 3),
                         "cpu_s": round(cpu, 3), "cpu_x_baseline": round(cpu / cpu_baseline, 2)}
    results["within_target"] = sorted(n for n in names[2:] if n != "clew ask" and walls_ok(walls[n]))
    results["ask_over_search"] = {
        "wall": round(statistics.median(walls["clew ask"]) / statistics.median(walls["clew search"]), 2),
        "cpu": round(statistics.median(cpus["clew ask"]) / statistics.median(cpus["clew search"]), 2),
        "target": ASK_OVER_SEARCH}
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
