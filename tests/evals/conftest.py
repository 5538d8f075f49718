"""A small real corpus (the Markdown fixtures) and questions over it."""

import json
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.evals.datasets import Question
from tests.conftest import FIXTURES

QUESTIONS = [
    {"id": "q1", "question": "How long are robot logs kept?", "answers": ["30 days"],
     "evidence": ["Robot logs are kept for 30 days."], "sources": ["acme-notes.md"], "kind": "exact_term"},
    {"id": "q2", "question": "Who owns Orion Maps?", "answers": ["Daniel Okafor"],
     "evidence": ["Daniel Okafor"], "sources": ["acme-notes.md"], "kind": "table"},
    {"id": "q3", "question": "When does the logistics team plan delivery routes?", "answers": ["every morning"],
     "evidence": ["plans delivery routes every morning", "a phrase that is in no document at all"],
     "sources": ["acme-notes.md"], "kind": "section"},
]


@pytest.fixture(scope="session")
def notes_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("evals") / "notes.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown"], chunk_tokens=40)
    return db


@pytest.fixture
def notes(notes_db: Path) -> Corpus:
    with Corpus(notes_db, read_only=True) as corpus:
        yield corpus


@pytest.fixture
def questions() -> list[Question]:
    return [Question(id=q["id"], question=q["question"], kind=q["kind"], answers=tuple(q["answers"]),
                     evidence=tuple(q["evidence"]), sources=tuple(q["sources"])) for q in QUESTIONS]


@pytest.fixture
def questions_file(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return path
