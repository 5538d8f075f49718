"""Batch throughput, printed as JSON: ``clew.evals.runner.run_batch`` over many questions.

The embedded demo corpus is ingested into a temporary DuckDB file; each question runs the
chosen system (default ``tree-ranked``: a ranked walk, then one model call that writes the
answer) against a scripted model (``clew.testing.FunctionModel``) that sleeps ``--latency``
seconds per call and cites the first passage it is shown. The ideal time is the model time
alone spread over the concurrency: ``model calls x latency / concurrency``. Target (issue 6):
1,000 questions at concurrency 32 with 100 ms per call finish within 1.5x the ideal.

``worker_processes`` runs the same batch in ``--workers`` processes (``clew batch --workers``).

``runner_only`` times the runner by itself (each item only sleeps ``--latency``): the gap
between it and the main figure is the agent's own CPU time per question (one process, one
GIL: seed search, walk, token counting), which concurrency cannot hide.

    python benchmarks/batch.py --questions 1000 --concurrency 32 --latency 0.1
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import re
import tempfile
import time
from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.evals.datasets import Question
from clew.evals.processes import ProcessExecutor
from clew.evals.runner import run_batch, run_resumable
from clew.evals.systems import SYSTEMS
from clew.testing import FunctionModel, reply_text

TOPICS = ["check replication lag", "promote the replica", "when to roll back a deploy", "verify a rollback",
          "declaring an incident", "severity levels", "incident roles", "handing over an incident",
          "after the incident", "reporting a breach"]
EVIDENCE_ID = re.compile(r"ev1:c:\d+:\d+:\d+")


async def answer(latency: float, messages: list[dict], tools: list[dict] | None) -> dict:
    await asyncio.sleep(latency)
    shown = EVIDENCE_ID.findall(messages[-1]["content"])
    reply = reply_text(f"See the runbook [{shown[0]}]." if shown else "No evidence.")
    # a remote model reports its own usage: no local token counting on its behalf
    prompt_chars = sum(len(m.get("content") or "") for m in messages)
    return {**reply, "input_tokens": prompt_chars // 4, "output_tokens": len(reply["content"]) // 4}


def scripted(latency: float) -> FunctionModel:
    """Module-level parts only, so that worker processes can unpickle it."""
    return FunctionModel(functools.partial(answer, latency), name="scripted-latency")


async def measure(corpus: Corpus, args: argparse.Namespace, out: Path, workers: int) -> dict:
    questions = [Question(id=f"b{i:05d}", question=f"{TOPICS[i % len(TOPICS)]} (case {i})")
                 for i in range(args.questions)]
    executor = None
    if workers > 1:
        executor = ProcessExecutor(corpus.path, workers=workers, budget_tokens=2000, model=scripted(args.latency),
                                   timeout_s=120, concurrency=args.concurrency)
    started = time.perf_counter()
    rows = await run_batch(questions, SYSTEMS[args.system], corpus, out, model=scripted(args.latency),
                           concurrency=args.concurrency, timeout_s=120, executor=executor)
    wall = time.perf_counter() - started
    calls = sum(r["usage"].get("model_calls", 0) for r in rows)
    ideal = calls * args.latency / args.concurrency
    status: dict[str, int] = {}
    for row in rows:
        status[row["status"]] = status.get(row["status"], 0) + 1
    return {
        "questions": len(rows), "workers": workers, "system": args.system, "concurrency": args.concurrency,
        "latency_s": args.latency,
        "model_calls": calls, "status": status, "wall_s": round(wall, 3), "ideal_s": round(ideal, 3),
        "ratio": round(wall / ideal, 3) if ideal else None, "target_ratio": 1.5,
        "questions_per_s": round(len(rows) / wall, 1),
    }


async def runner_only(args: argparse.Namespace, out: Path) -> dict:
    """The runner alone: every item only waits ``--latency`` once (its own overhead, no agent work)."""

    async def wait(question: Question) -> dict:
        await asyncio.sleep(args.latency)
        return {"id": question.id}

    items = [Question(id=f"r{i:05d}", question="-") for i in range(args.questions)]
    started = time.perf_counter()
    await run_resumable(items, key=lambda q: q.id, row_key=lambda r: r["id"], work=wait,
                        failed=lambda q, e, t: {"id": q.id, "error": str(e)}, path=out, concurrency=args.concurrency)
    wall = time.perf_counter() - started
    ideal = args.questions * args.latency / args.concurrency
    return {"wall_s": round(wall, 3), "ideal_s": round(ideal, 3), "ratio": round(wall / ideal, 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--system", default="tree-ranked", choices=[n for n, s in SYSTEMS.items() if not s.flat])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="also measure this many worker processes (clew batch --workers); the main figure is one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.duckdb"
        with Corpus(db) as corpus:
            ingest_paths(corpus, [DEMO_CORPUS], chunk_tokens=DEFAULT_CHUNK_TOKENS)
        with Corpus(db, read_only=True) as corpus:
            result = asyncio.run(measure(corpus, args, Path(tmp) / "answers.jsonl", 1))
            if args.workers > 1:
                result["worker_processes"] = asyncio.run(measure(corpus, args, Path(tmp) / "answers-w.jsonl",
                                                                 args.workers))
        result["runner_only"] = asyncio.run(runner_only(args, Path(tmp) / "runner.jsonl"))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
