"""``clew eval`` names the ``sources`` of an eval set that no document of the collection has (task U24)."""

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from clew import Corpus, ingest_paths
from clew.cli import app
from tests.conftest import FIXTURES

runner = CliRunner()


def _site(tmp_path: Path) -> Path:
    """A corpus whose keys carry the site's folder ("guide/planner-guide.md"), as when a folder of sites is
    ingested."""
    (tmp_path / "sites" / "guide").mkdir(parents=True)
    shutil.copy(FIXTURES / "markdown" / "planner-guide.md", tmp_path / "sites" / "guide")
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [tmp_path / "sites"], chunk_tokens=40)
    return db


def test_eval_names_a_source_no_document_has_and_the_key_meant(tmp_path: Path) -> None:
    """recall@10 and MRR read 0.000 and nothing said why: the sources were written relative to the site's folder
    (U24's "Reference/Errors.html" for "fastify/Reference/Errors.html")."""
    db = _site(tmp_path)
    questions = tmp_path / "q.jsonl"
    rows = [{"id": "q1", "question": "How does the planner pick a route?", "evidence": ["picks a route"],
             "sources": ["planner-guide.md"]},
            {"id": "q2", "question": "What must the floor maps be?", "evidence": ["less than a day old"],
             "sources": ["guide/planner-guide.md"]}]
    questions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "ev"
    result = runner.invoke(app, ["eval", str(questions), "--db", str(db), "--out", str(out), "--systems", "bm25",
                                 "--curve-budgets", ""])
    assert result.exit_code == 0, result.output
    assert ("warning q1: source 'planner-guide.md' is no document of collection 'default' (did you mean "
            "'guide/planner-guide.md'?); recall@10 and MRR count it as never found" in result.stderr)
    assert "q2" not in result.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["systems"]["bm25"]["recall_at_10"] == 0.5


def test_eval_counts_the_sources_past_the_first_five_no_document_has(tmp_path: Path) -> None:
    db = _site(tmp_path)
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps({"id": f"q{n}", "question": "How does the planner pick a route?",
                                             "evidence": ["picks a route"], "sources": [f"page-{n}.md"]}) + "\n"
                                 for n in range(7)))
    result = runner.invoke(app, ["eval", str(questions), "--db", str(db), "--out", str(tmp_path / "ev"),
                                 "--systems", "bm25", "--curve-budgets", ""])
    assert result.exit_code == 0, result.output
    assert "warning q4: source 'page-4.md' is no document of collection 'default'; recall@10" in result.stderr
    assert "q5" not in result.stderr
    assert "warning 2 more sources are no document of collection 'default'" in result.stderr
