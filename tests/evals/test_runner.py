"""The runner: results, reports, a failing question, timeouts, resume after a partial or killed run."""

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from clew.agent.model import ModelReply
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.evals import runner
from clew.evals.datasets import Question
from clew.evals.systems import SYSTEMS, System, parse_systems
from clew.testing import FunctionModel, reply_text
from tests.conftest import ROOT

BM25_TREE = [SYSTEMS["bm25"], SYSTEMS["tree-ranked"]]


def cite_first(messages: list[dict]) -> dict:
    """A reply that answers and cites the first evidence shown in the last message that holds its
    words (a kept sentence cites evidence holding its terms), else the first shown."""
    blocks = re.findall(r"(ev1:c:\d+:\d+:\d+)\n<<data \w+>>\n(.*?)\n<<end data", messages[-1]["content"], re.S)
    ids = [i for i, text in blocks if "days" in text] or re.findall(r"ev1:c:\d+:\d+:\d+", messages[-1]["content"])
    return reply_text(f"Thirty days [{ids[0]}].")


def run(questions: list[Question], systems: list[System], corpus: Corpus, out: Path, **kw: Any) -> dict:
    return asyncio.run(runner.run_eval(questions, systems, corpus, out, **kw))


def stable(report: dict) -> dict:
    """The report without wall-clock latencies (which a rerun of the same question changes)."""
    drop = ("p50_latency_s", "p95_latency_s")
    systems = {n: {k: v for k, v in agg.items() if k not in drop} for n, agg in report["systems"].items()}
    kinds = {n: {k: {m: v for m, v in agg.items() if m not in drop} for k, agg in per.items()}
             for n, per in report["by_kind"].items()}
    return {"systems": systems, "by_kind": kinds, "config": report["config"]}


def test_eval_writes_results_and_reports(notes: Corpus, questions: list[Question], tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = run(questions, BM25_TREE, notes, out, budget_tokens=300)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["system"], r["id"]) for r in rows] == [
        (s, q) for s in ("bm25", "tree-ranked") for q in ("q1", "q2", "q3")
    ]
    bm25 = {r["id"]: r for r in rows if r["system"] == "bm25"}
    assert bm25["q1"]["evidence_found"] == [True]
    assert bm25["q3"]["evidence_found"] == [True, False]
    assert all(r["context_tokens"] <= 300 for r in rows)
    assert set(report) == {"systems", "by_kind", "models", "curve", "config"}
    assert report["systems"]["bm25"]["evidence_recall"] == pytest.approx(3 / 4)
    assert report["by_kind"]["bm25"]["section"]["evidence_recall"] == 0.5
    assert report["config"]["budget_tokens"] == 300
    assert json.loads((out / "report.json").read_text()) == report
    table = (out / "report.md").read_text()
    assert "| bm25 | 0.750 |" in table and "Evidence recall by kind" in table
    assert (out / "recall_vs_tokens.png").read_bytes()[:4] == b"\x89PNG"


def test_an_eval_row_carries_the_absent_terms_a_batch_line_carries(notes: Corpus, tmp_path: Path) -> None:
    asked = [Question(id="k", question="Are kubernetes robot logs kept?", evidence=("30 days",))]
    run(asked, [SYSTEMS["tree-ranked"]], notes, tmp_path / "eval", curve_budgets=[])
    row = json.loads((tmp_path / "eval" / "results.jsonl").read_text())
    line = asyncio.run(runner.run_batch(asked, SYSTEMS["tree-ranked"], notes, tmp_path / "answers.jsonl"))[0]
    assert row["absent_terms"] == line["absent_terms"] == ["kubernetes"]
    guide = " ".join((ROOT / "docs" / "guides" / "evals.md").read_text().split())
    documented = re.search(r"`DIR/results.jsonl` \(one line per question, system and budget: `\{(.*?)\}`", guide)
    assert documented is not None and set(row) == set(re.findall(r'"(\w+)"', documented.group(1)))
    failed = runner.failure_row(asked[0], SYSTEMS["tree-ranked"], RuntimeError("gone"), 0.1)
    unanswered = runner.answer_failure_row(asked[0], RuntimeError("gone"), 0.1)
    assert failed["absent_terms"] == unanswered["absent_terms"] == []


def test_a_batch_line_says_which_answer_it_carries_as_an_eval_row_does(notes: Corpus, tmp_path: Path) -> None:
    """``answer_kind`` (the result's ``generation.kind``): a model's answer, or the extract, also where the
    extract stands in for a model's answer that cited nothing while the line's ``model`` names the model."""
    asked = [Question(id="k", question="How long are robot logs kept?", evidence=("30 days",))]

    def line(model: FunctionModel | None, name: str) -> dict:
        return asyncio.run(runner.run_batch(asked, SYSTEMS["tree-ranked"], notes, tmp_path / name, model=model))[0]

    cited = line(FunctionModel(lambda messages, tools: cite_first(messages)), "cited.jsonl")
    uncited = line(FunctionModel(lambda messages, tools: reply_text("Thirty days.")), "uncited.jsonl")
    plain = line(None, "plain.jsonl")
    assert (cited["answer_kind"], cited["answer"].startswith("Thirty days [ev1:")) == ("model", True)
    assert uncited["model"] is not None and uncited["answer_kind"] == "extract"
    assert "Thirty days." not in uncited["answer"]
    assert (plain["model"], plain["answer_kind"]) == (None, "extract")
    assert runner.answer_failure_row(asked[0], RuntimeError("gone"), 0.1)["answer_kind"] is None
    run(asked, [SYSTEMS["tree-ranked"]], notes, tmp_path / "eval", curve_budgets=[])
    row = json.loads((tmp_path / "eval" / "results.jsonl").read_text())
    assert row["answer_kind"] == plain["answer_kind"]
    guide = " ".join((ROOT / "docs" / "guides" / "batch.md").read_text().split())
    documented = re.search(r"Each line of `answers.jsonl` is `\{(.*?)\}`", guide)
    assert documented is not None and set(plain) == set(re.findall(r'"(\w+)"', documented.group(1)))


def test_one_failing_question_is_recorded_and_the_run_goes_on(
    notes: Corpus, questions: list[Question], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = runner.run_system

    async def flaky(system: System, corpus: Corpus, query: Question, **kw: Any) -> dict:
        if query == questions[1].question:
            raise RuntimeError("the store went away")
        return await real(system, corpus, query, **kw)

    monkeypatch.setattr(runner, "run_system", flaky)
    report = run(questions, [SYSTEMS["bm25"]], notes, tmp_path / "out")
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [(r["id"], r["status"], r["error"]) for r in rows] == [
        ("q1", "ok", None), ("q2", "error", "RuntimeError: the store went away"), ("q3", "ok", None)]
    assert rows[1]["evidence_found"] == [False]
    agg = report["systems"]["bm25"]
    assert (agg["failed"], agg["incomplete_reasons"]) == (1, {"error": 1})
    assert agg["evidence_recall"] == pytest.approx(2 / 4)


def test_a_question_past_its_timeout_fails_alone(notes: Corpus, questions: list[Question], tmp_path: Path) -> None:
    async def slow(messages: list[dict], tools: list[dict]) -> ModelReply:
        if "question: how long are robot logs kept" in json.dumps(messages).lower():  # that question is slow
            await asyncio.sleep(5)
        return cite_first(messages)

    report = run(questions, [SYSTEMS["tree-ranked"]], notes, tmp_path / "out", model=FunctionModel(slow), timeout_s=0.5)
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["error", "ok", "ok"]
    assert rows[0]["error"] == "TimeoutError: timed out after 0.5 s"
    assert rows[1]["answer"].startswith("Thirty days [ev1:") and rows[1]["citation_precision"] is not None
    assert report["systems"]["tree-ranked"]["failed"] == 1


def test_resume_after_a_partial_run_redoes_only_what_is_missing(
    notes: Corpus, questions: list[Question], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    first = run(questions, BM25_TREE, notes, out)
    lines = (out / "results.jsonl").read_text().splitlines()
    # as a kill leaves it: four rows written, out of order, and a fifth cut short
    (out / "results.jsonl").write_text("\n".join([lines[3], lines[0], lines[4], lines[1], lines[5][:40]]))
    calls = []
    real = runner.run_system

    async def spy(system: System, corpus: Corpus, query: Question, **kw: Any) -> dict:
        calls.append((system.name, query))
        return await real(system, corpus, query, **kw)

    monkeypatch.setattr(runner, "run_system", spy)
    second = run(questions, BM25_TREE, notes, out)
    assert calls == [("bm25", questions[2].question), ("tree-ranked", questions[2].question)]
    resumed = (out / "results.jsonl").read_text().splitlines()
    assert [resumed[i] for i in (0, 1, 3, 4)] == [lines[i] for i in (0, 1, 3, 4)]  # kept as they were, in order
    assert [json.loads(line)["id"] for line in resumed] == ["q1", "q2", "q3"] * 2
    assert stable(second) == stable(first)
    calls.clear()
    assert stable(run(questions, BM25_TREE, notes, out)) == stable(first)
    assert calls == []


KILLED_RUN = """
import asyncio, sys, time
from pathlib import Path
from clew.corpus.store import Corpus
from clew.evals import runner
from clew.evals.datasets import Question
from clew.evals.systems import SYSTEMS

real = runner.run_system
async def slow(*args, **kw):
    await asyncio.sleep(0.3)
    return await real(*args, **kw)
runner.run_system = slow
questions = [Question(id=f"q{i}", question=f"robot logs question {i}", evidence=("Robot logs are kept for 30 days.",))
             for i in range(20)]
with Corpus(sys.argv[1], read_only=True) as corpus:
    asyncio.run(runner.run_eval(questions, [SYSTEMS["bm25"]], corpus, Path(sys.argv[2]), concurrency=1))
"""


def test_resume_after_a_killed_process(notes_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    script = tmp_path / "killed.py"
    script.write_text(KILLED_RUN)
    process = subprocess.Popen([sys.executable, str(script), str(notes_db), str(out)], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    partial = [json.loads(line)["id"] for line in results.read_text().splitlines() if line.endswith("}")]
    assert 3 <= len(partial) < 20
    questions = [
        Question(id=f"q{i}", question=f"robot logs question {i}", evidence=("Robot logs are kept for 30 days.",))
        for i in range(20)
    ]
    with Corpus(notes_db, read_only=True) as corpus:
        report = run(questions, [SYSTEMS["bm25"]], corpus, out)
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["id"] for r in rows] == [f"q{i}" for i in range(20)]
    assert report["systems"]["bm25"]["questions"] == 20 and report["systems"]["bm25"]["failed"] == 0


def test_batch_answers_every_question(notes: Corpus, questions: list[Question], tmp_path: Path) -> None:
    model = FunctionModel(lambda messages, tools: cite_first(messages))
    rows = asyncio.run(
        runner.run_batch(questions, SYSTEMS["tree-ranked"], notes, tmp_path / "answers.jsonl", model=model)
    )
    assert [(r["id"], r["status"]) for r in rows] == [(q.id, "ok") for q in questions]
    assert all(r["answer"].startswith("Thirty days [ev1:") and len(r["citations"]) == 1 for r in rows)
    assert set(rows[0]) == {
        "id",
        "question",
        "status",
        "stop_reason",
        "error",
        "answer",
        "answer_kind",
        "citations",
        "absent_terms",
        "evidence_ids",
        "usage",
        "system",
        "model",
        "budget_tokens",
        "filter",
    }
    assert (rows[0]["system"], rows[0]["model"], rows[0]["budget_tokens"], rows[0]["filter"]) == (
        "tree-ranked", model.name, 2000, None)
    assert rows[0]["usage"]["model_calls"] >= 1


def test_batch_resumes_only_its_own_answers(notes: Corpus, questions: list[Question], tmp_path: Path) -> None:
    """An answers file of another system is refused on ``out`` and left as it was; ``overwrite`` replaces it."""
    out = tmp_path / "answers.jsonl"
    asyncio.run(runner.run_batch(questions[:1], SYSTEMS["bm25"], notes, out))
    before = out.read_text()
    with pytest.raises(InputError, match="answered with system 'bm25', this batch runs 'tree-ranked'") as caught:
        asyncio.run(runner.run_batch(questions[:1], SYSTEMS["tree-ranked"], notes, out))
    assert caught.value.field == "out" and out.read_text() == before
    rows = asyncio.run(runner.run_batch(questions[:1], SYSTEMS["tree-ranked"], notes, out, overwrite=True))
    assert [r["system"] for r in rows] == ["tree-ranked"] and len(out.read_text().splitlines()) == 1


def test_systems_are_parsed_strictly() -> None:
    assert [s.name for s in parse_systems("bm25, graph-ranked", have_model=False)] == ["bm25", "graph-ranked"]
    with pytest.raises(InputError, match="unknown system"):
        parse_systems("bm25,bm26", have_model=False)
    with pytest.raises(InputError, match="tree-agentic need"):
        parse_systems("tree-agentic", have_model=False)
    with pytest.raises(InputError, match="named twice"):
        parse_systems("bm25,bm25", have_model=False)
