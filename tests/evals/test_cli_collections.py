"""``clew batch`` and ``clew eval`` on a corpus of several collections (task U20)."""

import json
from pathlib import Path

from typer.testing import CliRunner

from clew import Corpus, ingest_paths
from clew.cli import app
from tests.conftest import FIXTURES

runner = CliRunner()


def _two_collections(tmp_path: Path) -> Path:
    db = tmp_path / "two.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown"], collection="guides", chunk_tokens=40)
        ingest_paths(corpus, [FIXTURES / "runbook"], collection="runbooks", chunk_tokens=40)
    return db


def test_batch_and_eval_name_the_collections_of_a_corpus_of_several_before_any_work(tmp_path: Path) -> None:
    """Every question's run failed on its own, "unknown collection 'default'", exit status 3 (before)."""
    db = _two_collections(tmp_path)
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": "how do I roll back?", "evidence": ["roll back"]}) + "\n")
    for args, out in ((["batch", str(questions), "--out", str(tmp_path / "a.jsonl")], tmp_path / "a.jsonl"),
                      (["eval", str(questions), "--out", str(tmp_path / "ev")], tmp_path / "ev")):
        result = runner.invoke(app, [*args, "--db", str(db)])
        assert result.exit_code == 2, result.output
        assert (f"clew {args[0]} needs one collection and the corpus has 2 (guides, runbooks): pass --collection NAME"
                in result.stderr)
        assert not out.exists()


def test_batch_reads_the_collection_it_is_given_in_a_corpus_of_several(tmp_path: Path) -> None:
    db = _two_collections(tmp_path)
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": "how do I roll back a deploy?"}) + "\n")
    answers = tmp_path / "a.jsonl"
    result = runner.invoke(app, ["batch", str(questions), "--out", str(answers), "--db", str(db),
                                 "--collection", "runbooks"])
    assert result.exit_code == 0, result.output
    (line,) = [json.loads(row) for row in answers.read_text().splitlines()]
    assert line["status"] in {"ok", "incomplete"} and line["evidence_ids"]
