"""The first read of a document version in a process: its readability and its structure in one
statement for a principal that reads everything, two for a restricted one (the structure from the
version's ``skeletons`` row: clew.corpus.skeleton_rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clew.corpus.access import Principal, parse_filter
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.evidence import FetchArgs, fetch_evidence
from clew.navigation.tree import TreeArgs, navigate_document_tree
from tests.conftest import Prebuilt, write_files
from tests.navigation.conftest import GUIDE, PUBLIC, SECRET

READER = Principal(name="reader", row_filter=parse_filter({"bool": {"must_not": [{"term": {"status": "draft"}}]}}))


def build_first(folder: Path) -> None:
    """The three pages in docs (40 tokens a chunk), built once a session (``prebuilt``) for every test."""
    pages = write_files(folder / "docs", {"guide.md": GUIDE, "public.md": PUBLIC, "secret.md": SECRET})
    with Corpus(folder / "first.duckdb") as corpus:
        ingest_paths(corpus, [pages], collection="docs", chunk_tokens=40)


@pytest.fixture
def db(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    return prebuilt(build_first, tmp_path) / "first.duckdb"


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
            asked = [s for s in statements if "coalesce(max(id), 0)" not in s]  # the newest id: once per write
            assert len(asked) == 1 and "FROM nodes" not in asked[0] and "structure" not in asked[0]
        statements.clear()
        assert fetch_evidence(scope, FetchArgs(ids=[readable])).evidence[0].status == "ok"
        assert len(statements) == 3 and "FROM nodes" not in statements[0] and "structure" not in statements[0]
        assert "max(v.version) FILTER" in statements[1]  # its current version as it sees it (asked for every read)
        assert "structure FROM skeletons" in statements[2] and "FROM nodes" not in statements[2]


def readability_ids(statements: list[str]) -> set[int]:
    """The document ids a restricted principal's readability query (the stored rows) asked for."""
    import re

    asked = [s for s in statements if "FROM skeletons v WHERE document_id IN" in s]
    assert len(asked) == 1, statements
    found = re.search(r"document_id IN \(([^)]*)\)", asked[0])
    assert found is not None
    return {int(value) for value in found.group(1).split(",")} - {-1}


def test_a_missing_id_or_key_reads_a_stored_row_as_a_denied_one_does(db: Path, statements: list[str]) -> None:
    """DuckDB rules a missing id out by its zone maps without reading a row, where a denied one reads
    its row: a restricted principal's readability query reads a stored decoy for a missing id or key
    and drops it, and the answer is the denied one's (issue 38, item 10)."""
    from clew.navigation.reading import ReadArgs, read

    with Corpus(db, read_only=True) as corpus:
        stored = {doc for (doc,) in corpus.cursor().execute("SELECT id FROM documents").fetchall()}
        denied = ids(corpus, "secret.md")[0]
        scope = Scope(corpus, READER)
        statements.clear()
        missing = fetch_evidence(scope, FetchArgs(ids=["ev1:c:999999:1:0"])).evidence[0]
        assert readability_ids(statements) - {999999} <= stored and readability_ids(statements) - {999999}
        assert missing.model_dump() == {**fetch_evidence(scope, FetchArgs(ids=[denied])).evidence[0].model_dump(),
                                        "id": "ev1:c:999999:1:0"}
        statements.clear()
        absent = read(scope, ReadArgs(document="nothing.md")).model_dump()
        decoys = readability_ids(statements)
        assert len(decoys) == 1 and decoys <= stored
        assert absent == read(scope, ReadArgs(document="secret.md")).model_dump()
        # a principal that reads everything has nothing to hide: no decoy
        statements.clear()
        fetch_evidence(Scope(corpus, Principal()), FetchArgs(ids=["ev1:c:999998:1:0"]))
        assert readability_ids(statements) == {999998}
