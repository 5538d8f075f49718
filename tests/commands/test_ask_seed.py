"""``clew ask`` with no search named seeds from the best search the collection has (issue 36, task E4)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus import embedders
from clew.corpus.embedders import HashingEmbedder
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.embedding import embed_missing
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.errors import InputError
from tests.envelope import result as result_of

runner = CliRunner()
QUESTION = "Who is paged for a SEV1 incident?"


class Semantic(HashingEmbedder):
    """Stands in for a semantic model (MiniLM needs the dense extra): stored under a name that is not
    ``hashing``, so the walk takes its vectors for semantic ones."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "semantic-stand-in"


def ask(db: Path) -> dict:
    answered = runner.invoke(app, ["ask", QUESTION, "--db", str(db), "--json"])
    assert answered.exit_code == 0, answered.output
    return result_of(answered.stdout)


def test_ask_seeds_from_hybrid_where_the_collection_has_semantic_vectors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks")
    plain = ask(db)
    assert plain["applied"]["seed_mode"] == "bm25" and plain["hits"]  # no vectors: BM25
    shown = runner.invoke(app, ["ask", QUESTION, "--db", str(db)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "evidence (" in shown.stdout and "seeded by" not in shown.stdout, shown.stdout

    real = embedders.embedder_from_name
    monkeypatch.setattr(embedders, "embedder_from_name",
                        lambda spec: Semantic() if spec == "semantic-stand-in" else real(spec))
    with Corpus(db) as corpus:
        report = embed_missing(corpus, Semantic())
    assert report.embedded > 0 and report.model == "semantic-stand-in"
    seeded = ask(db)
    assert seeded["applied"]["seed_mode"] == "hybrid" and seeded["hits"]
    shown = runner.invoke(app, ["ask", QUESTION, "--db", str(db)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "passages, seeded by hybrid search" in shown.stdout, shown.stdout
    assert seeded["generation"]["kind"] == "extract" and seeded["generation"]["citations"]

    def cannot(spec: str) -> object:
        raise InputError("model", f"{spec!r} cannot run: torch is not installed")

    monkeypatch.setattr(embedders, "embedder_from_name", cannot)
    fallback = ask(db)  # the corpus' model cannot embed the question here (no dense extra): BM25, still an answer
    assert fallback["applied"]["seed_mode"] == "bm25" and fallback["hits"]


def test_ask_seeds_from_bm25_where_the_vectors_are_lexical(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks")
        assert embed_missing(corpus, HashingEmbedder()).embedded > 0
    assert ask(db)["applied"]["seed_mode"] == "bm25"  # hashing vectors share BM25's terms: nothing to add
