"""The runner: every (system, question) pair, concurrently, resumable, in a deterministic order.

``run_resumable`` is the core that ``run_eval`` and ``run_batch`` share: asyncio with a
concurrency limit and a per-item timeout; an item that raises (or times out) is recorded with
its error and the run goes on; each finished row is appended to the JSONL file at once, so a
killed run loses only what was in flight; rerunning with the same file skips the items
already there (failed ones included: delete their lines to retry) and finally rewrites the
file in item order. ``run_batch`` checks an existing answers file first
(``prepare_answers_file``): it resumes only its own earlier lines and answers errored ones
again. A progress bar with throughput goes to stderr when it is a terminal.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from clew.agent.model import Model
from clew.budgets.tokens import count_tokens
from clew.corpus.access import matched_filter
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.evals import metrics
from clew.evals.datasets import Question
from clew.evals.systems import DEFAULT_BUDGET_TOKENS, Outcome, System, run_system

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

Item = TypeVar("Item")
DEFAULT_CONCURRENCY = 8
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_CURVE_BUDGETS = (1000, 2000, 4000, 8000)
"""The budgets of the recall-vs-tokens curve (the report's own budget is always one of its points)."""


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a results file; a line cut short by a killed run is left out (it is redone)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def _write_rows(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    temp = path.with_name(path.name + ".tmp")
    with temp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(temp, path)


def _progress(total: int, description: str) -> tuple[Progress, TaskID] | None:
    if not sys.stderr.isatty() or total == 0:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), console=Console(stderr=True))
    return progress, progress.add_task(description, total=total, rate="")


async def run_resumable(
    items: Sequence[Item],
    key: Callable[[Item], str],
    row_key: Callable[[dict[str, Any]], str],
    work: Callable[[Item], Awaitable[dict[str, Any]]],
    failed: Callable[[Item, BaseException, float], dict[str, Any]],
    path: Path,
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    timeout_s: float | None = DEFAULT_TIMEOUT_S,
    description: str = "running",
    elsewhere: Callable[[list[Item]], Iterable[dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """Rows for ``items`` in item order; see the module docstring.

    ``elsewhere`` (e.g. the Ray executor) computes the rows of the items still to do, yielding
    each as it is ready (with failures already recorded as rows); otherwise ``work`` runs here.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = {row_key(row): row for row in read_rows(path)}
    _write_rows(path, list(existing.values()))  # drops a line cut short by a kill
    todo = [item for item in items if key(item) not in existing]
    done: dict[str, dict[str, Any]] = {}
    gate = asyncio.Semaphore(max(1, concurrency))
    bar = _progress(len(todo), description)
    started = time.perf_counter()

    with path.open("a", encoding="utf-8") as handle:

        async def one(item: Item) -> None:
            async with gate:
                began = time.perf_counter()
                try:
                    row = await asyncio.wait_for(work(item), timeout_s)
                except Exception as error:  # noqa: BLE001 - recorded in the row; the run goes on
                    if isinstance(error, TimeoutError):
                        error = TimeoutError(f"timed out after {timeout_s} s")
                    row = failed(item, error, time.perf_counter() - began)
                record(key(item), row)

        def record(item_key: str, row: dict[str, Any]) -> None:
            done[item_key] = row
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            handle.flush()
            if bar is not None:
                rate = len(done) / max(time.perf_counter() - started, 1e-9)
                bar[0].update(bar[1], advance=1, rate=f"{rate:.1f}/s")

        if bar is not None:
            bar[0].start()
        try:
            if elsewhere is not None:
                for row in elsewhere(list(todo)):
                    record(row_key(row), row)
            else:
                await asyncio.gather(*(one(item) for item in todo))
        finally:
            if bar is not None:
                bar[0].stop()
    ordered = [done.get(key(item)) or existing[key(item)] for item in items]
    wanted = {key(item) for item in items}
    _write_rows(path, ordered + [row for k, row in existing.items() if k not in wanted])
    return ordered


# --- evaluation -------------------------------------------------------------------------------


def gold_documents(question: Question) -> list[str]:
    """Relevant document keys: positive qrels, else the question's sources."""
    qrels = question.qrels or {source: 1 for source in question.sources}
    return [key for key, grade in qrels.items() if grade > 0]


def score(question: Question, system: System, outcome: Outcome, latency_s: float) -> dict[str, Any]:
    """One results.jsonl row: what the system returned for the question, and its metrics."""
    ranked = metrics.dedupe(p.document_key for p in outcome.passages)
    relevant = gold_documents(question)
    if question.evidence:  # gold phrases; a passage supports when it holds one
        found = metrics.evidence_found(question.evidence, [p.text for p in outcome.passages])
        supporting = [
            p.evidence_id for p in outcome.passages if any(metrics.evidence_found(question.evidence, [p.text]))
        ]
    else:  # BEIR: the gold is the relevant documents, one flag each
        found = [key in ranked for key in relevant]
        supporting = [p.evidence_id for p in outcome.passages if p.document_key in relevant]
    answer = outcome.answer
    quoted = metrics.without_citations(answer) if answer is not None else None
    held = [phrase for phrase, hit in zip(question.evidence, found, strict=True) if hit] if question.evidence else []
    return {
        "system": system.name,
        "id": question.id,
        "kind": question.kind,
        "status": outcome.status,
        "stop_reason": outcome.stop_reason,
        "error": None,
        "evidence_found": found,
        "evidence_recall": metrics.recall(found),
        "recall_at_10": metrics.recall_at_k(ranked, relevant, 10),
        "mrr": metrics.reciprocal_rank(ranked, relevant) if relevant else None,
        "ndcg_at_10": metrics.ndcg_at_k(ranked, question.qrels, 10) if question.qrels else None,
        "answer": answer,
        "exact_match": metrics.exact_match(answer, question.answers) if answer is not None else None,
        "f1": metrics.token_f1(answer, question.answers) if answer is not None else None,
        "answer_kind": outcome.answer_kind,
        "answer_tokens": count_tokens(answer) if answer is not None else None,
        # the answer's share of the gold phrases the returned passages hold (None: they hold none)
        "answer_phrases": metrics.evidence_found(held, [quoted]) if quoted is not None and held else None,
        "answer_contained": metrics.answer_found(quoted, question.answers) if quoted is not None else None,
        "citations": outcome.citations,
        "absent_terms": outcome.absent_terms,
        "citation_precision": metrics.citation_precision(outcome.citations, supporting),
        "context_tokens": outcome.context_tokens,
        "tool_calls": outcome.tool_calls,
        "iterations": outcome.iterations,
        "latency_s": round(latency_s, 4),
        "model_calls": outcome.model_calls,
        "model_input_tokens": outcome.model_input_tokens,
        "model_output_tokens": outcome.model_output_tokens,
        "model_cost_usd": outcome.model_cost_usd,
        "evidence_ids": [p.evidence_id for p in outcome.passages],
    }


def failure_row(question: Question, system: System, error: BaseException, latency_s: float,
                budget_tokens: int | None = None) -> dict[str, Any]:
    """A question that raised: recorded with its error, counted as finding nothing."""
    return {
        "system": system.name, "id": question.id, "kind": question.kind, "budget_tokens": budget_tokens,
        "status": "error", "stop_reason": "error",
        "error": f"{type(error).__name__}: {error}",
        "evidence_found": [False] * len(question.evidence or gold_documents(question)),
        "evidence_recall": 0.0, "context_tokens": 0, "tool_calls": 0, "iterations": 0,
        "latency_s": round(latency_s, 4), "evidence_ids": [], "citations": [], "absent_terms": [],
    }


EvalItem = tuple[System, Question, int]
"""One evaluation item: a system, a question and the context budget it runs under."""


def item_key(item: EvalItem) -> str:
    return f"{item[0].name}\t{item[1].id}\t{item[2]}"


def row_key(row: dict[str, Any]) -> str:
    return f"{row['system']}\t{row['id']}\t{row.get('budget_tokens')}"


def parse_budgets(text: str) -> list[int]:
    """``"1000,2000"`` to budgets (``""``: none); anything else is an ``InputError`` naming curve_budgets."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise InputError("curve_budgets", f"comma-separated whole token counts, got {text!r}") from None


def curve_budgets_of(budget_tokens: int, curve_budgets: Sequence[int]) -> list[int]:
    """Every budget an evaluation runs: the curve's and the report's own, ascending."""
    bad = [b for b in curve_budgets if b < 1]
    if bad:
        raise InputError("curve_budgets", f"budgets are positive token counts, got {bad}")
    return sorted({budget_tokens, *curve_budgets})


async def evaluate_pair(system: System, question: Question, corpus: Corpus, *, budget_tokens: int, collection: str,
                        model: Model | None) -> dict[str, Any]:
    """One results row: run ``system`` on ``question`` and score it (what every executor runs)."""
    began = time.perf_counter()
    outcome = await run_system(
        system, corpus, question.question, budget=budget_tokens, collection=collection, model=model
    )
    return {**score(question, system, outcome, time.perf_counter() - began), "budget_tokens": budget_tokens}


def describe_systems(systems: Sequence[System], corpus: Corpus, collection: str,
                     model: Model | None) -> dict[str, dict[str, str | None]]:
    """Which model produced each system's vectors (``embedder``; None: it uses none) and its answers
    (``answers``: the model's name, ``extract`` for the model-free quoted answer, None for a flat baseline).
    A walk whose seed query names no search is seeded by hybrid search where the vectors are semantic."""
    from clew.corpus.search.embedded import default_model, seed_search

    stored = default_model(corpus, collection)
    out: dict[str, dict[str, str | None]] = {}
    for system in systems:
        uses_vectors = system.needs_vectors or (
            system.navigation is not None and system.seed is None and seed_search(stored) == "hybrid")
        embedder = (stored or "none stored") if uses_vectors else None
        answers = None if system.flat else (model.name if model is not None else "extract")
        out[system.name] = {"embedder": embedder, "answers": answers}
    return out


async def run_eval(
    questions: Sequence[Question], systems: Sequence[System], corpus: Corpus, out: Path, *,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS, curve_budgets: Sequence[int] = (),
    collection: str = "default", model: Model | None = None,
    concurrency: int = DEFAULT_CONCURRENCY, timeout_s: float | None = DEFAULT_TIMEOUT_S,
    config: dict[str, Any] | None = None, executor: Any = None,
) -> dict[str, Any]:
    """Run every system on every question under every budget; write results.jsonl (one row per
    system, question and budget), report.json and report.md (at ``budget_tokens``), and the
    recall curve over ``curve_budgets`` and ``budget_tokens`` (recall_vs_tokens.png and .csv;
    ``clew eval`` asks for ``DEFAULT_CURVE_BUDGETS``; by default here the curve is the one point).

    ``executor`` (e.g. ``clew.evals.ray_executor.RayExecutor``) runs the items elsewhere; its
    ``rows(items, collection=collection)`` yields result rows. By default they run here, on the event loop.
    """
    from clew.evals.report import write_reports

    budgets = curve_budgets_of(budget_tokens, curve_budgets)
    items: list[EvalItem] = [(s, q, b) for b in budgets for s in systems for q in questions]

    async def work(item: EvalItem) -> dict[str, Any]:
        return await evaluate_pair(item[0], item[1], corpus, budget_tokens=item[2], collection=collection, model=model)

    rows = await run_resumable(
        items, key=item_key, row_key=row_key, work=work,
        failed=lambda i, e, t: failure_row(i[1], i[0], e, t, i[2]), path=out / "results.jsonl",
        concurrency=concurrency, timeout_s=timeout_s, description="eval",
        elsewhere=None if executor is None else lambda todo: executor.rows(todo, collection=collection),
    )
    full_config = {"budget_tokens": budget_tokens, "curve_budgets": budgets, "systems": [s.name for s in systems],
                   "questions": len(questions), "collection": collection,
                   "models": describe_systems(systems, corpus, collection, model), **(config or {})}
    return write_reports(rows, [s.name for s in systems], out, full_config)


# --- batch answering --------------------------------------------------------------------------


async def answer_question(system: System, question: Question, corpus: Corpus, *, budget_tokens: int, collection: str,
                          model: Model | None, doc_filter: dict[str, Any] | None = None) -> dict[str, Any]:
    """One answers.jsonl row: id, question, status, answer and its kind (``extract`` or ``model``, the result's
    ``generation.kind``, as an eval row's ``answer_kind``), citations, absent terms, evidence ids, usage."""
    began = time.perf_counter()
    o = await run_system(system, corpus, question.question, budget=budget_tokens, collection=collection, model=model,
                         doc_filter=doc_filter)
    return {"id": question.id, "question": question.question, "status": o.status, "stop_reason": o.stop_reason,
            "error": None, "answer": o.answer, "answer_kind": o.answer_kind, "citations": o.citations,
            "absent_terms": o.absent_terms,
            "evidence_ids": [p.evidence_id for p in o.passages],
            "usage": {"context_tokens": o.context_tokens, "tool_calls": o.tool_calls, "iterations": o.iterations,
                      "model_calls": o.model_calls, "model_input_tokens": o.model_input_tokens,
                      "model_output_tokens": o.model_output_tokens, "model_cost_usd": o.model_cost_usd,
                      "latency_s": round(time.perf_counter() - began, 4)}}


def answer_failure_row(question: Question, error: BaseException, latency_s: float) -> dict[str, Any]:
    return {"id": question.id, "question": question.question, "status": "error", "stop_reason": "error",
            "error": f"{type(error).__name__}: {error}", "answer": None, "answer_kind": None, "citations": [],
            "absent_terms": [], "evidence_ids": [],
            "usage": {"latency_s": round(latency_s, 4)}}


FAILED_ANSWERS = frozenset({"error", "failed"})
"""Answer statuses that count as a failed question (``clew batch`` exits 3 when every question has one)."""
ANSWER_KEYS = ("id", "question", "status", "answer")


@dataclass(frozen=True, slots=True)
class Resume:
    """What an existing answers file brings to a batch: answers kept, and errored ones to answer again."""

    kept: int
    retried: int


def batch_settings(system: System, model: Model | None, budget_tokens: int,
                   doc_filter: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settings every answers line carries, so a rerun with other settings cannot mix its lines in
    (``doc_filter``, recorded as ``filter``: a line written without one has none)."""
    return {"system": system.name, "model": None if model is None else model.name, "budget_tokens": budget_tokens,
            "filter": doc_filter}


def prepare_answers_file(path: Path, questions: Sequence[Question], settings: dict[str, Any], *,
                         overwrite: bool = False) -> Resume:
    """Make ``path`` ready for a batch: empty it (``overwrite``), or resume it.

    Resuming keeps the answers of an earlier run of the same questions with the same
    ``settings`` and drops its errored lines (they are answered again). Anything else in the
    file (a line that is not an answer, a question the file of questions does not hold or words
    differently, other settings) is refused with an ``InputError`` on ``out``: old and new lines
    are never mixed. Only a last line cut short by a killed run is dropped (it is redone).
    """
    if path.is_dir():
        raise InputError("out", f"--out {path} is a folder; name a file such as answers.jsonl")
    if overwrite or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")
        return Resume(kept=0, retried=0)
    asked = {q.id: q.question for q in questions}
    lines = path.read_text(encoding="utf-8").splitlines()
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):  # cut short by a kill
                continue
            row = None
        problem = _foreign_answer(row, asked, settings)
        if problem:
            raise InputError("out", f"--out {path}:{number}: {problem}; it holds lines this batch did not write, "
                                    f"so it is not resumed: pass --overwrite to replace it, or name another --out")
        rows.append(row)
    kept = [row for row in rows if row["status"] not in FAILED_ANSWERS]
    _write_rows(path, kept)
    return Resume(kept=len(kept), retried=len(rows) - len(kept))


def _foreign_answer(row: Any, asked: dict[str, str], settings: dict[str, Any]) -> str | None:
    """Why ``row`` is not an answer of this batch, or None."""
    if not isinstance(row, dict) or any(key not in row for key in ANSWER_KEYS):
        return f"not an answers line (one JSON object with {', '.join(ANSWER_KEYS)})"
    if row["id"] not in asked:
        return f"question {row['id']!r} is not in the file of questions"
    if row["question"] != asked[row["id"]]:
        return f"question {row['id']!r} reads differently in the file of questions"
    for name, value in settings.items():
        if row.get(name) != value:
            return f"answered with {name} {row.get(name)!r}, this batch runs {value!r}"
    return None


async def run_batch(
    questions: Sequence[Question], system: System, corpus: Corpus, out_file: Path, *,
    budget_tokens: int = DEFAULT_BUDGET_TOKENS, collection: str = "default", model: Model | None = None,
    concurrency: int = DEFAULT_CONCURRENCY, timeout_s: float | None = DEFAULT_TIMEOUT_S, executor: Any = None,
    overwrite: bool = False, whole: Sequence[Question] | None = None, doc_filter: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Answer every question (no gold) over the documents ``doc_filter`` matches; one line each (see
    ``answer_question``) with ``batch_settings``.

    An existing ``out_file`` is resumed or refused (``prepare_answers_file``; ``whole`` is the whole
    file of questions when ``questions`` is a part of it); ``overwrite`` empties it first.
    ``executor`` (``clew.evals.processes.ProcessExecutor``) runs them in worker processes. A ``doc_filter`` that
    cannot be one is an ``InputError`` naming ``filter`` before any question, as ``clew batch --filter``'s is.
    """
    doc_filter = matched_filter(doc_filter)
    settings = batch_settings(system, model, budget_tokens, doc_filter)
    prepare_answers_file(out_file, questions if whole is None else whole, settings, overwrite=overwrite)

    async def work(question: Question) -> dict[str, Any]:
        row = await answer_question(system, question, corpus, budget_tokens=budget_tokens, collection=collection,
                                    model=model, doc_filter=doc_filter)
        return {**row, **settings}

    elsewhere = None
    if executor is not None:
        def elsewhere(todo: list[Question]) -> Iterable[dict[str, Any]]:
            pairs = [(system, q, budget_tokens) for q in todo]  # the budget and filter its lines record
            rows: Iterable[dict[str, Any]] = executor.rows(pairs, collection=collection, kind="batch",
                                                           doc_filter=doc_filter)
            return ({**row, **settings} for row in rows)

    return await run_resumable(questions, key=lambda q: q.id, row_key=lambda r: r["id"], work=work,
                               failed=lambda q, e, t: {**answer_failure_row(q, e, t), **settings}, path=out_file,
                               concurrency=concurrency, timeout_s=timeout_s, description="batch", elsewhere=elsewhere)
