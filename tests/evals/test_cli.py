"""``clew eval`` and ``clew batch`` end to end on a small real corpus."""

import json
import subprocess
from pathlib import Path
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from clew.cli import app
from tests.conftest import FIXTURES
from tests.envelope import result as result_of
from tests.forked_cli import ForkedCli

runner = CliRunner()


def test_eval_ingests_runs_and_reports(tmp_path: Path, questions_file: Path) -> None:
    db, out = tmp_path / "c.duckdb", tmp_path / "out"
    args = ["eval", str(questions_file), "--db", str(db), "--corpus", str(FIXTURES / "markdown"),
            "--systems", "bm25,tree-ranked,graph-ranked", "--budget-tokens", "400", "--limit", "2", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "| bm25 |" in result.stdout and "| graph-ranked |" in result.stdout
    report = json.loads((out / "report.json").read_text())
    assert list(report["systems"]) == ["bm25", "tree-ranked", "graph-ranked"]
    assert report["config"]["budget_tokens"] == 400 and report["config"]["limit"] == 2
    assert {"evidence_recall", "all_evidence_rate", "mean_context_tokens", "incomplete_rate"} <= set(
        report["systems"]["bm25"]
    )
    assert len((out / "results.jsonl").read_text().splitlines()) == 2 * 3 * 5  # the budget and the curve's four
    assert report["config"]["curve_budgets"] == [400, 1000, 2000, 4000, 8000]
    assert (out / "recall_vs_tokens.png").exists() and (out / "recall_vs_tokens.csv").exists()
    assert report["models"]["bm25"] == {"embedder": None, "answers": None}
    assert report["models"]["tree-ranked"] == {"embedder": None, "answers": "extract"}
    assert "| tree-ranked | none (BM25 only) | extract |" in result.stdout


def test_eval_refuses_a_corpus_folder_that_is_missing_or_empty(tmp_path: Path, questions_file: Path) -> None:
    db, out = tmp_path / "c.duckdb", tmp_path / "out"
    missing = runner.invoke(app, ["eval", str(questions_file), "--db", str(db), "--corpus", str(tmp_path / "nope"),
                                  "--out", str(out)])
    assert missing.exit_code == 2 and "no such folder" in missing.output and not out.exists()
    (tmp_path / "empty").mkdir()
    empty = runner.invoke(app, ["eval", str(questions_file), "--db", str(db), "--corpus", str(tmp_path / "empty"),
                                "--out", str(out)])
    assert empty.exit_code == 2 and "no document matches" in empty.output and not out.exists()


def test_eval_and_batch_name_a_questions_file_that_is_missing_or_a_folder(tmp_path: Path, notes_db: Path) -> None:
    """A mistyped questions file was "unexpected FileNotFoundError ..." with exit status 3, a bug's (task U4)."""
    for target in (tmp_path / "qestions.jsonl", tmp_path):
        for args in (["eval", str(target), "--db", str(notes_db), "--out", str(tmp_path / "out")],
                     ["batch", str(target), "--db", str(notes_db), "--out", str(tmp_path / "answers.jsonl")]):
            result = runner.invoke(app, args)
            assert result.exit_code == 2, result.output
            said = "no such file of questions" if target.suffix else "a folder, not a JSONL file of questions"
            assert f"error: {target}: {said}" in result.stderr and "unexpected" not in result.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "answers.jsonl").exists()


def test_eval_multihop_builds_its_corpus(tmp_path: Path) -> None:
    items = [
        {
            "id": "m1",
            "question": "Where was Ann Bell born?",
            "answer": "Paris",
            "paragraphs": [
                {"title": "Ann Bell", "paragraph_text": "Ann Bell was born in Paris.", "is_supporting": True},
                {"title": "Bar", "paragraph_text": "Bar is a river in the north.", "is_supporting": False},
            ],
        }
    ]
    path = tmp_path / "mh.json"
    path.write_text(json.dumps(items))
    result = runner.invoke(app, ["eval", str(path), "--format", "multihop", "--db", str(tmp_path / "m.duckdb"),
                                 "--systems", "bm25", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["systems"]["bm25"]["evidence_recall"] == 1.0
    assert report["systems"]["bm25"]["recall_at_10"] == 1.0


def test_eval_names_malformed_lines_and_unknown_systems(tmp_path: Path, questions_file: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(questions_file.read_text() + '{"id": "q9"\n')
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["eval", str(bad), "--db", str(db), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert "bad.jsonl:4: not JSON" in result.output
    result = runner.invoke(app, ["eval", str(questions_file), "--db", str(db), "--systems", "bm25,free",
                                 "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "free need(s) a model" in result.output


def test_batch_writes_one_line_per_question(tmp_path: Path, notes_db: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "question": "How long are robot logs kept?"}\n'
                         '{"id": "b", "question": "Who owns Orion Maps?"}\n')
    out = tmp_path / "answers.jsonl"
    result = runner.invoke(app, ["batch", str(questions), "--db", str(notes_db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert all(r["evidence_ids"] and r["usage"]["context_tokens"] > 0 for r in rows)
    assert "2 questions answered" in result.stdout and "answers in" in result.stdout
    as_json = runner.invoke(app, ["batch", str(questions), "--db", str(notes_db), "--out", str(out), "--json"])
    assert result_of(as_json.stdout)["questions"] == 2


def _batch(questions: Path, db: Path, out: Path, *more: str) -> Result:
    return runner.invoke(app, ["batch", str(questions), "--db", str(db), "--out", str(out), *more])


def _batch_process(cli: ForkedCli, questions: Path, db: Path, out: Path,
                   *more: str) -> subprocess.CompletedProcess[str]:
    """``clew batch`` as a process of its own, as a user runs it: a model's batch in this test process
    would share litellm's process-wide state (its logging worker, bound to an event loop) with
    every test that ran before it on the same worker. Forked from a process that imported the CLI
    and litellm once (``forked_cli``): a cold start imports litellm for 3.5 s of CPU."""
    return cli.run(["batch", str(questions), "--db", str(db), "--out", str(out), *more], timeout=300)


def _answers(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.read_text().splitlines()]


MODEL = ["--system", "free", "--model", "openai/smollm2", "--model-option", "api_base=http://127.0.0.1:9/v1",
         "--model-option", "retries=0"]
"""A model system whose endpoint litellm's mock answer stands in for (``extra.mock_response``)."""
FAILING = [*MODEL, "--model-option", "extra.mock_response=litellm.InternalServerError"]
ANSWERING = [*MODEL, "--model-option", "extra.mock_response=Robot logs are kept for 30 days."]


def test_batch_exits_3_when_every_question_failed_and_a_rerun_answers_them_again(
    tmp_path: Path, notes_db: Path, forked_cli: ForkedCli,
) -> None:
    questions, out = tmp_path / "q.jsonl", tmp_path / "answers.jsonl"
    questions.write_text('{"id": "a", "question": "How long are robot logs kept?"}\n'
                         '{"id": "b", "question": "Who owns Orion Maps?"}\n')
    failed = _batch_process(forked_cli, questions, notes_db, out, *FAILING, "--json")
    assert failed.returncode == 3, failed.stderr
    envelope = json.loads(failed.stdout)
    assert (envelope["status"], envelope["result"]["failed"], envelope["result"]["questions"]) == ("failed", 2, 2)
    assert [(r["id"], r["status"], r["stop_reason"]) for r in _answers(out)] == [
        ("a", "failed", "model_error"), ("b", "failed", "model_error")]
    again = _batch_process(forked_cli, questions, notes_db, out, *ANSWERING)
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr and "0 answers kept, 2 errored answered again" in again.stderr
    assert [r["id"] for r in _answers(out)] == ["a", "b"]
    statuses = [(r["id"], r["status"], r["stop_reason"], r.get("detail")) for r in _answers(out)]
    assert not any(status in ("failed", "error") for _, status, _, _ in statuses), (statuses, again.stderr)
    assert "failed" not in again.stderr, again.stderr


def test_batch_with_some_failed_questions_exits_0_and_counts_them(tmp_path: Path, notes_db: Path,
                                                                   forked_cli: ForkedCli) -> None:
    questions, out = tmp_path / "q.jsonl", tmp_path / "answers.jsonl"
    questions.write_text('{"id": "a", "question": "How long are robot logs kept?"}\n')
    assert _batch_process(forked_cli, questions, notes_db, out, *ANSWERING).returncode == 0
    (kept,) = _answers(out)
    questions.write_text(questions.read_text() + '{"id": "b", "question": "Who owns Orion Maps?"}\n')
    partly = _batch_process(forked_cli, questions, notes_db, out, *FAILING)
    assert partly.returncode == 0, partly.stderr
    assert "resuming" in partly.stderr and "1 answer kept" in partly.stderr
    first, second = _answers(out)
    assert first == kept and (second["id"], second["status"]) == ("b", "failed")
    assert "1 question failed; the reason is on its line" in partly.stderr
    assert f"2 questions answered (failed 1, {kept['status']} 1)" in partly.stdout


def test_batch_never_mixes_its_answers_into_a_file_it_did_not_write(tmp_path: Path, notes_db: Path) -> None:
    questions, out = tmp_path / "q.jsonl", tmp_path / "answers.jsonl"
    questions.write_text('{"id": "a", "question": "How long are robot logs kept?"}\n')
    other = tmp_path / "notes.jsonl"
    other.write_text('{"id": "a", "question": "How long are robot logs kept?"}\n')  # not answers
    refused = _batch(questions, notes_db, other)
    assert refused.exit_code == 2
    assert f"--out {other}:1: not an answers line" in refused.stderr and "--overwrite" in refused.stderr
    assert other.read_text() == '{"id": "a", "question": "How long are robot logs kept?"}\n'  # untouched
    same = _batch(questions, notes_db, questions)
    assert same.exit_code == 2 and "is the file of questions" in same.stderr

    assert _batch(questions, notes_db, out, "--budget-tokens", "400").exit_code == 0
    (first,) = _answers(out)
    assert (first["system"], first["model"], first["budget_tokens"]) == ("tree-ranked", None, 400)
    other_budget = _batch(questions, notes_db, out)
    assert other_budget.exit_code == 2
    assert "answered with budget_tokens 400, this batch runs 2000" in other_budget.stderr
    questions.write_text('{"id": "a", "question": "Who owns Orion Maps?"}\n')  # the same id, another question
    reworded = _batch(questions, notes_db, out, "--budget-tokens", "400")
    assert reworded.exit_code == 2 and "question 'a' reads differently" in reworded.stderr
    assert _answers(out) == [first]
    fresh = _batch(questions, notes_db, out, "--overwrite")
    assert fresh.exit_code == 0, fresh.output
    (row,) = _answers(out)
    assert (row["question"], row["budget_tokens"]) == ("Who owns Orion Maps?", 2000)


def test_eval_beir_scores_documents_against_qrels(tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        json.dumps({"_id": "d1", "title": "Tea", "text": "Green tea is steamed, rolled and dried."}) + "\n"
        + json.dumps({"_id": "d2", "title": "Coffee", "text": "Coffee beans are roasted and ground."}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "1", "text": "how are coffee beans roasted"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td2\t1\n")
    result = runner.invoke(app, ["eval", str(folder), "--format", "beir", "--db", str(tmp_path / "b.duckdb"),
                                 "--systems", "bm25", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [r["budget_tokens"] for r in rows] == [1000, 2000, 4000, 8000]  # --budget-tokens 2000 is one of the curve's
    (row,) = [r for r in rows if r["budget_tokens"] == 2000]
    assert (row["recall_at_10"], row["mrr"], row["ndcg_at_10"]) == (1.0, 1.0, 1.0)
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["systems"]["bm25"]["ndcg_at_10"] == 1.0
    assert row["evidence_found"] == [True]  # BEIR: one flag per relevant document


def test_eval_runs_the_model_systems_against_a_configured_endpoint(tmp_path: Path, questions_file: Path) -> None:
    """tree-agentic and free through --model and --model-option (litellm's mock answer stands in for the
    server: the same options reach it), with evidence recall reported for both."""
    db, out = tmp_path / "c.duckdb", tmp_path / "out"
    toml = tmp_path / "clew.toml"
    toml.write_text('model = "openai/smollm2"\n[model_options]\napi_base = "http://127.0.0.1:9/v1"\nmax_tokens = 32\n')
    args = ["eval", str(questions_file), "--db", str(db), "--corpus", str(FIXTURES / "markdown"), "--config", str(toml),
            "--systems", "tree-agentic,free", "--budget-tokens", "3000", "--limit", "2", "--out", str(out),
            "--model-option", "extra.mock_response=I cannot tell.", "--curve-budgets", ""]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    assert list(report["systems"]) == ["tree-agentic", "free"]
    assert report["config"]["model"] == "openai/smollm2"
    assert report["config"]["model_options"] == {"api_base": "http://127.0.0.1:9/v1", "max_tokens": 32,
                                                 "extra": {"mock_response": "I cannot tell."}}
    for system in ("tree-agentic", "free"):
        assert "evidence_recall" in report["systems"][system]
        assert report["models"][system] == {"embedder": None, "answers": "openai/smollm2"}
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(row["model_calls"] >= 1 for row in rows)
