"""Run evaluation pairs or batch questions in worker processes on this machine (``--workers N``).

One Python process runs the agent's own work (search, walk, scoring) under one GIL, so on a
machine with several cores a single event loop is CPU-bound long before the model's latency
is hidden. ``ProcessExecutor`` starts ``workers`` spawned processes; each opens the DuckDB
file read-only once, builds its model once, and runs its share of the items (every
``workers``-th) on one event loop with ``ceil(concurrency / workers)`` in flight, using the
same code as the in-process runner (``evaluate_pair`` / ``answer_question``, the same
per-item timeout, failures recorded as rows). Each row comes back through a queue as soon as
it is done and the runner writes it at once, so a killed run resumes like a local one; the
final file is in item order.

The model is passed by name (a litellm model string, built in each worker) or as a model
object that pickles (a module-level class or function).
"""

from __future__ import annotations

import asyncio
import json
import math
import multiprocessing
import queue
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from clew.agent.model import Model
from clew.evals.datasets import Question
from clew.evals.systems import SYSTEMS, System
from clew.llm import run_loop

_worker: dict[str, Any] = {}


def _start(db: str, model: str | Model | None, rows: Any) -> None:
    from clew.corpus.store import Corpus

    _worker["rows"] = rows
    _worker["corpus"] = Corpus(db, read_only=True, threads=1)  # the processes are the parallelism
    if isinstance(model, str):
        from clew.agent.model import model_from_name

        model = model_from_name(model)
    _worker["model"] = model


def _share(kind: str, items: list[tuple[str, str, int]], concurrency: int, timeout_s: float | None,
           collection: str, doc_filter: dict[str, Any] | None) -> int:
    """Rows for ``(system name, question JSON, budget)`` items, each put on the queue when done; their number."""
    from clew.evals.runner import answer_failure_row, answer_question, evaluate_pair, failure_row

    corpus, model = _worker["corpus"], _worker["model"]

    async def one(gate: asyncio.Semaphore, system: System, question: Question, budget_tokens: int) -> None:
        async with gate:
            began = time.perf_counter()
            try:
                row = await asyncio.wait_for(
                    evaluate_pair(system, question, corpus, budget_tokens=budget_tokens, collection=collection,
                                  model=model) if kind == "eval" else
                    answer_question(system, question, corpus, budget_tokens=budget_tokens, collection=collection,
                                    model=model, doc_filter=doc_filter), timeout_s)
            except Exception as error:  # noqa: BLE001 - recorded in the row; the run goes on
                if isinstance(error, TimeoutError):
                    error = TimeoutError(f"timed out after {timeout_s} s")
                spent = time.perf_counter() - began
                row = failure_row(question, system, error, spent, budget_tokens) if kind == "eval" else \
                    answer_failure_row(question, error, spent)
            _worker["rows"].put(json.dumps(row, ensure_ascii=False))

    async def all_of() -> None:
        gate = asyncio.Semaphore(max(1, concurrency))
        await asyncio.gather(*(one(gate, SYSTEMS[name], Question.from_dict(json.loads(data)), budget)
                               for name, data, budget in items))

    run_loop(all_of())
    return len(items)


class ProcessExecutor:
    """Pass as ``run_eval(..., executor=...)`` or ``run_batch(..., executor=...)``."""

    def __init__(self, db: str, *, workers: int, budget_tokens: int, model: str | Model | None = None,
                 timeout_s: float | None = None, concurrency: int = 8) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.db, self.workers, self.budget_tokens = db, workers, budget_tokens
        self.model, self.timeout_s = model, timeout_s
        self.per_worker = max(1, math.ceil(concurrency / workers))

    def rows(self, pairs: Sequence[tuple[System, Question] | tuple[System, Question, int]], *, collection: str,
             kind: str = "eval", doc_filter: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        """Rows of ``(system, question)`` pairs (under ``budget_tokens``) or ``(system, question, budget)`` items,
        searched in ``collection`` (``run_eval``'s or ``run_batch``'s, which their rows record);
        ``doc_filter``: a batch's (``run_batch``'s, ``clew batch --filter``), over the documents of ``collection``."""
        if not pairs:
            return
        items = [(p[0].name, json.dumps(p[1].as_dict(), ensure_ascii=False), p[2] if len(p) > 2 else self.budget_tokens)
                 for p in pairs]
        workers = min(self.workers, len(items))
        context = multiprocessing.get_context("spawn")
        done = context.Queue()
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start,
                                 initargs=(self.db, self.model, done)) as pool:
            futures = [pool.submit(_share, kind, items[w::workers], self.per_worker, self.timeout_s, collection,
                                   doc_filter) for w in range(workers)]
            received = 0
            while received < len(items):
                try:
                    row = done.get(timeout=0.2)
                except queue.Empty:
                    failed = [error for f in futures if f.done() and (error := f.exception()) is not None]
                    if failed:
                        raise failed[0]  # a worker died: rows so far are already written
                    continue
                received += 1
                yield json.loads(row)
