"""``clew batch`` lines carry the question's words that neither the evidence nor the corpus holds."""

import json
from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app


def test_each_batch_line_lists_the_words_the_corpus_does_not_hold(tmp_path: Path, notes_db: Path) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "a", "question": "Who owns Orion Maps in our kubernetes cluster?"}\n'
                         '{"id": "b", "question": "Who owns Orion Maps?"}\n')
    out = tmp_path / "answers.jsonl"
    result = CliRunner().invoke(app, ["batch", str(questions), "--db", str(notes_db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert rows["a"]["absent_terms"] == ["kubernetes", "cluster"] and "Daniel Okafor" in rows["a"]["answer"]
    assert rows["b"]["absent_terms"] == [] and "Daniel Okafor" in rows["b"]["answer"]
