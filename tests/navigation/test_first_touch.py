"""The first read of a document version in a process: its readability and its structure in one
statement for a principal that reads everything, two for a restricted one (the structure from the
version's ``skeletons`` row: clew.corpus.skeleton_rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.evidence import FetchArgs, fetch_evidence
from clew.navigation.tree import TreeArgs, navigate_document_tree
from tests.navigation.conftest import GUIDE, PUBLIC, SECRET, write

READER = Principal(name="reader", row_filter=parse_filter({"bool": {"must_not": [{"term": {"status": "draft"}}]}}))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = write(tmp_path / "docs", {"guide.md": GUIDE, "public.md": PUBLIC, "secret.md": SECRET})
    path = tmp_path / "first.duckdb"
    with Corpus(path) as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=40)
    return path


def ids(corpus: Corpus, key: str) -> list[str]:
    rows = corpus.cursor().execute("""SELECT c.document_id, c.version, c.ordinal FROM documents d JOIN chunks c
                                      ON c.document_id = d.id AND c.version = d.current_version
                                      WHERE d.key = ? ORDER BY c.ordinal""", [key]).fetchall()
    return [f"ev1:c:{d}:{v}:{o}" for d, v, o in rows]


@pytest.mark.parametrize("read_only", [True, False])
def test_first_touch_is_one_statement_and_answers_as_a_warm_call(db: Path, read_only: bool,
                                                                  statements: list[str]) -> None:
    with Corpus(db, read_only=read_only) as corpus:
        start = ids(corpus, "guide.md")[4]
        statements.clear()
        first = navigate_document_tree(Scope(corpus), TreeArgs(evidence_id=start, relation="parent"))
        assert len(statements) == 1
        warm = navigate_document_tree(Scope(corpus), TreeArgs(evidence_id=start, relation="parent"))
        assert first.status == "ok" and first.items
        assert first.model_dump() == warm.model_dump()


def test_a_batch_of_documents_is_one_statement(db: Path, statements: list[str]) -> None:
    with Corpus(db, read_only=True) as corpus:
        wanted = [ids(corpus, key)[0] for key in ("guide.md", "public.md", "secret.md")]
        statements.clear()
        found = Scope(corpus).passages_by_ids(wanted)
        assert len(statements) == 1
        assert sorted(found) == sorted(wanted)


def test_a_restricted_principal_asks_readability_alone_first(db: Path, statements: list[str]) -> None:
    """Its readability query reads no structure, so a denied version costs what a missing one does."""
    with Corpus(db, read_only=True) as corpus:
        denied, readable = ids(corpus, "secret.md")[0], ids(corpus, "public.md")[0]
        missing = "ev1:c:999:1:0"
        scope = Scope(corpus, READER)
        for evidence_id in (denied, missing):
            statements.clear()
            assert fetch_evidence(scope, FetchArgs(ids=[evidence_id])).evidence[0].status == "unavailable"
            assert len(statements) == 1 and "FROM nodes" not in statements[0] and "structure" not in statements[0]
        statements.clear()
        assert fetch_evidence(scope, FetchArgs(ids=[readable])).evidence[0].status == "ok"
        assert len(statements) == 3 and "FROM nodes" not in statements[0] and "structure" not in statements[0]
        assert "max(v.version) FILTER" in statements[1]  # its current version as it sees it (asked for every read)
        assert "structure FROM skeletons" in statements[2] and "FROM nodes" not in statements[2]
