"""Worker processes (``--workers``) give the in-process runner's rows, in the same order."""

import asyncio
import json
from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.store import Corpus
from clew.evals.datasets import Question
from clew.evals.processes import ProcessExecutor
from clew.evals.runner import run_batch, run_eval
from clew.evals.systems import SYSTEMS

runner = CliRunner()


def rows_without_latency(path: Path) -> list[dict]:
    def strip(row: dict) -> dict:
        row = {k: v for k, v in row.items() if k != "latency_s"}
        if "usage" in row:
            row["usage"] = {k: v for k, v in row["usage"].items() if k != "latency_s"}
        return row

    return [strip(json.loads(line)) for line in path.read_text().splitlines()]


def test_eval_in_worker_processes_matches_one_process(
    notes_db: Path, questions: list[Question], tmp_path: Path
) -> None:
    systems = [SYSTEMS["bm25"], SYSTEMS["tree-ranked"]]
    with Corpus(notes_db, read_only=True) as corpus:
        asyncio.run(run_eval(questions, systems, corpus, tmp_path / "here", budget_tokens=300))
        executor = ProcessExecutor(str(notes_db), workers=2, budget_tokens=300, concurrency=4)
        asyncio.run(run_eval(questions, systems, corpus, tmp_path / "workers", budget_tokens=300, executor=executor))
    here = rows_without_latency(tmp_path / "here" / "results.jsonl")
    assert rows_without_latency(tmp_path / "workers" / "results.jsonl") == here and len(here) == 2 * len(questions)


def test_batch_cli_with_workers_matches_one_process(notes_db: Path, questions_file: Path, tmp_path: Path) -> None:
    args = ["batch", str(questions_file), "--db", str(notes_db), "--budget-tokens", "300"]
    assert runner.invoke(app, [*args, "--out", str(tmp_path / "one.jsonl")]).exit_code == 0
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "two.jsonl"), "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert rows_without_latency(tmp_path / "two.jsonl") == rows_without_latency(tmp_path / "one.jsonl")


def test_a_failing_question_is_a_row_and_done_ones_are_not_redone(notes_db: Path, tmp_path: Path) -> None:
    questions = [Question(id="ok", question="route planning"), Question(id="bad", question="   ")]
    out = tmp_path / "answers.jsonl"
    executor = ProcessExecutor(str(notes_db), workers=2, budget_tokens=300)
    with Corpus(notes_db, read_only=True) as corpus:
        rows = asyncio.run(run_batch(questions, SYSTEMS["tree-ranked"], corpus, out, executor=executor))
        assert [r["id"] for r in rows] == ["ok", "bad"]
        assert rows[0]["status"] != "error" and rows[1]["status"] == "error" and "query" in rows[1]["error"]
        out.write_text(out.read_text().splitlines()[0] + "\n")  # as if killed after the first row
        again = asyncio.run(run_batch(questions, SYSTEMS["tree-ranked"], corpus, out, executor=executor))
    assert again[0] == rows[0] and again[1]["status"] == "error"
