"""A harness's own question file (``{"id", "question", "expected"}``) with ``clew batch`` and ``clew eval``."""

import json
from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app

runner = CliRunner()
LINE = {"id": "h1", "question": "Who is paged for a SEV1?", "expected": "the incident commander"}


def test_eval_says_where_a_harness_expected_answer_goes(tmp_path: Path, notes_db: Path) -> None:
    """Before: "missing field 'evidence'" alone, with nothing on what became of "expected"."""
    questions = tmp_path / "harness.jsonl"
    questions.write_text(json.dumps(LINE) + "\n")
    result = runner.invoke(app, ["eval", str(questions), "--db", str(notes_db), "--out", str(tmp_path / "ev")])
    assert result.exit_code == 2, result.output
    assert (f"{questions}:1: missing field 'evidence' (the gold phrases a returned passage must hold); 'expected' "
            "is not read: expected answers go in 'answers', a list" in result.stderr)
    assert not (tmp_path / "ev").exists()


def test_batch_answers_a_harness_file_and_its_lines_keep_the_ids(tmp_path: Path, notes_db: Path) -> None:
    questions, answers = tmp_path / "harness.jsonl", tmp_path / "answers.jsonl"
    questions.write_text(json.dumps(LINE) + "\n" + json.dumps({**LINE, "id": "h2", "question": "How do I roll back?"})
                         + "\n")
    result = runner.invoke(app, ["batch", str(questions), "--db", str(notes_db), "--out", str(answers)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    assert [row["id"] for row in rows] == ["h1", "h2"] and all("expected" not in row for row in rows)
