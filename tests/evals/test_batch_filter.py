"""``clew batch --filter`` (issue 35): the option and parsing of ``clew ask --filter``, applied to every question,
recorded in each answers line, so that a resume under another filter (or none) is refused as other settings are."""

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.evals.datasets import Question
from clew.evals.processes import ProcessExecutor
from clew.evals.runner import run_batch
from clew.evals.systems import parse_systems
from tests.agent.test_path_filter import PYTHON, build
from tests.conftest import Prebuilt

QUESTIONS = [
    {"id": "install", "question": "Which Python versions does Widget support?"},
    {"id": "config", "question": "Which file does Widget read?"},
]


@pytest.fixture
def db(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    return prebuilt(build, tmp_path) / "docs.duckdb"


def batch(db: Path, out: Path, *options: str) -> tuple[int, str, list[dict]]:
    questions = out.parent / "q.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    ran = CliRunner().invoke(app, ["batch", str(questions), "--db", str(db), "--out", str(out), *options])
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return ran.exit_code, ran.stderr, rows


@pytest.mark.parametrize("workers", ["1", "2"])
def test_every_question_of_a_batch_reads_the_filtered_release(db: Path, tmp_path: Path, workers: str) -> None:
    code, said, rows = batch(db, tmp_path / "v2.jsonl", "--filter", "path=v2", "--workers", workers)
    assert code == 0, said
    assert [row["filter"] for row in rows] == [{"path": "v2"}] * 2  # recorded as it is matched
    assert all(row["status"] == "ok" for row in rows) and f"Python {PYTHON['v2']} and newer" in rows[0]["answer"]
    for row in rows:
        assert row["evidence_ids"] and all(other not in row["answer"] for other in ("3.6", "3.10"))


def test_a_resume_under_another_filter_or_none_is_refused(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    assert batch(db, out, "--filter", '{"term": {"status": "published"}}')[0] == 0
    code, said, _ = batch(db, out, "--filter", "status=published")  # the same filter, written the short way
    assert code == 0 and "2 answers kept" in said, said
    for other in (["--filter", "path=v2"], []):
        code, said, rows = batch(db, out, *other)
        assert code == 2 and "answered with filter {'term': {'status': 'published'}}, this batch runs" in said, said
        assert len(rows) == 2  # untouched
    unfiltered = tmp_path / "all.jsonl"
    assert batch(db, unfiltered)[0] == 0
    code, said, _ = batch(db, unfiltered, "--filter", "path=v1")
    assert code == 2 and "answered with filter None, this batch runs {'path': 'v1'}" in said, said


def test_a_bad_filter_is_refused_before_any_question(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    for given, says in (
        ("path=/", "filter: malformed filter at path: the path glob is empty"),
        ("{", "filter: not valid JSON"),
        ("status", "filter: expected FIELD=VALUE"),
    ):
        code, said, _ = batch(db, out, "--filter", given)
        assert code == 2 and says in said and not out.exists(), said


def test_run_batch_checks_and_records_its_filter_as_the_command_does(db: Path, tmp_path: Path) -> None:
    """Python's ``run_batch`` takes the filter the command takes: a bad one is refused before any question (no
    answers file), and one filter written two ways is recorded one way, so a resume across the two surfaces holds."""
    (system,) = parse_systems("bm25", have_model=False)
    questions = [Question(id=q["id"], question=q["question"]) for q in QUESTIONS]
    out = tmp_path / "answers.jsonl"
    with Corpus(db, read_only=True) as corpus:
        with pytest.raises(InputError, match="filter: malformed filter at path: the path glob is empty"):
            asyncio.run(run_batch(questions, system, corpus, out, collection="docs", doc_filter={"path": "/"}))
        assert not out.exists()
        rows = asyncio.run(
            run_batch(
                questions,
                system,
                corpus,
                out,
                collection="docs",
                doc_filter={"bool": {"must": [{"path": "v2"}], "should": []}},
            )
        )
    assert [row["filter"] for row in rows] == [{"bool": {"must": [{"path": "v2"}]}}] * 2
    code, said, _ = batch(
        db, out, "--system", "bm25", "--collection", "docs", "--filter", '{"bool": {"must": [{"path": "v2"}]}}'
    )
    assert code == 0 and "2 answers kept" in said, said


def test_run_batch_in_worker_processes_answers_under_its_own_filter_and_budget(db: Path, tmp_path: Path) -> None:
    """The executor answers each question with the collection, filter and budget ``run_batch`` records in its lines,
    not with settings of its own: its answers read every release while the lines said {"path": "v2"}, and a
    collection of its own (``default`` unless given) searched another collection than the run's ``docs``."""
    (system,) = parse_systems("tree-ranked", have_model=False)
    questions = [Question(id=q["id"], question=q["question"]) for q in QUESTIONS]
    executor = ProcessExecutor(str(db), workers=2, budget_tokens=50)
    with Corpus(db, read_only=True) as corpus:
        rows = asyncio.run(
            run_batch(
                questions,
                system,
                corpus,
                tmp_path / "answers.jsonl",
                collection="docs",
                budget_tokens=2000,
                doc_filter={"path": "v2"},
                executor=executor,
            )
        )
    assert [(row["filter"], row["budget_tokens"], row["status"]) for row in rows] == [({"path": "v2"}, 2000, "ok")] * 2
    install = next(row for row in rows if row["id"] == "install")
    assert f"Python {PYTHON['v2']} and newer" in install["answer"], install["answer"]
    assert all(other not in install["answer"] for other in (PYTHON["v1"], PYTHON["latest"]))
