"""Run evaluation pairs on a Ray cluster through Ray Data (optional extra ``clew[ray]``).

The (system, question) pairs become a Ray dataset; ``map_batches`` runs them on stateful
workers (one actor each, ``concurrency`` actors), and each worker opens the DuckDB file
read-only once and scores its pairs with the same code as the local executor
(``clew.evals.runner.evaluate_pair``, the same per-question timeout, failures recorded as
rows). Rows stream back to the driver, which writes results.jsonl as they arrive, so a
killed run resumes like a local one.

The DuckDB file must be readable at the same path on every node (a shared file system, or
copy it to each node first). To use an existing cluster, start it (``ray start --head`` on
one node, ``ray start --address=HEAD:6379`` on the others) and point clew at it::

    RAY_ADDRESS=HEAD:6379 clew eval questions.jsonl --db /shared/corpus.duckdb --executor ray ...

Without ``RAY_ADDRESS`` (and with no cluster running on this machine) ``ray.init`` starts a
local instance.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from typing import Any

from clew.evals.datasets import Question
from clew.evals.systems import SYSTEMS, System
from clew.llm import run_loop

BATCH_SIZE = 4


class _Worker:
    """One Ray actor: the corpus opened read-only once, then pairs scored batch by batch."""

    def __init__(self, db: str, budget_tokens: int, collection: str, model: Any, timeout_s: float | None) -> None:
        from clew.corpus.store import Corpus

        self.corpus = Corpus(db, read_only=True)
        self.budget_tokens, self.collection, self.timeout_s = budget_tokens, collection, timeout_s
        self.model = model  # a model instance (pickled with its options), or a litellm model string
        if isinstance(model, str):
            from clew.agent.model import model_from_name

            self.model = model_from_name(model)

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        budgets = batch.get("budget", [self.budget_tokens] * len(batch["system"]))
        return {"row": [run_loop(self._one(s, q, int(b)))
                        for s, q, b in zip(batch["system"], batch["question"], budgets, strict=True)]}

    async def _one(self, system_name: str, question_json: str, budget_tokens: int) -> str:
        import time

        from clew.evals.runner import evaluate_pair, failure_row

        system = SYSTEMS[str(system_name)]
        question = Question.from_dict(json.loads(str(question_json)))
        began = time.perf_counter()
        try:
            row = await asyncio.wait_for(evaluate_pair(system, question, self.corpus, budget_tokens=budget_tokens,
                                                       collection=self.collection, model=self.model), self.timeout_s)
        except Exception as error:  # noqa: BLE001 - recorded in the row, as the local executor does
            if isinstance(error, TimeoutError):
                error = TimeoutError(f"timed out after {self.timeout_s} s")
            row = failure_row(question, system, error, time.perf_counter() - began, budget_tokens)
        return json.dumps(row, ensure_ascii=False)


class RayExecutor:
    """Pass as ``run_eval(..., executor=RayExecutor(...))``; ``rows(pairs, collection=...)`` yields result rows."""

    def __init__(self, db: str, *, budget_tokens: int, model: Any = None, timeout_s: float | None = None,
                 concurrency: int = 2, address: str | None = None) -> None:
        self.db, self.budget_tokens = db, budget_tokens
        self.model, self.timeout_s, self.concurrency, self.address = model, timeout_s, concurrency, address

    def rows(self, pairs: Sequence[tuple[System, Question] | tuple[System, Question, int]], *,
             collection: str) -> Iterator[dict[str, Any]]:
        """Rows of ``(system, question)`` pairs (under ``budget_tokens``) or ``(system, question, budget)`` items,
        searched in ``collection`` (``run_eval``'s, which its report records)."""
        if not pairs:
            return
        from clew.extras import require

        require("ray.data", "ray")
        import ray
        if not ray.is_initialized():
            ray.init(address=self.address, ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
        items = [{"system": p[0].name, "question": json.dumps(p[1].as_dict(), ensure_ascii=False),
                  "budget": p[2] if len(p) > 2 else self.budget_tokens} for p in pairs]
        dataset = ray.data.from_items(items).map_batches(
            _Worker,
            batch_size=BATCH_SIZE,
            compute=ray.data.ActorPoolStrategy(size=max(1, self.concurrency)),
            num_cpus=1,
            fn_constructor_kwargs={
                "db": str(self.db),
                "budget_tokens": self.budget_tokens,
                "collection": collection,
                "model": self.model,
                "timeout_s": self.timeout_s,
            },
        )
        for record in dataset.iter_rows():
            yield json.loads(record["row"])
