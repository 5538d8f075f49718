"""The ``skeletons`` table: one row per version, written with it, read on a first touch, and the
same answers as reading ``nodes`` and ``chunks`` (which stay the record)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest

from clew.corpus import skeleton_rows
from clew.corpus.access import Principal, parse_filter
from clew.corpus.documents import remove_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.schema import SCHEMA_VERSION
from clew.corpus.store import Corpus
from clew.corpus.structure import DocumentVersion, load_skeletons
from clew.errors import StoreFailure
from clew.testing import recorded_statements
from tests.conftest import FIXTURES

FORMATS = ("markdown", "html", "text", "jsonl", "runbook", "docx")
READER = Principal(name="reader",
                   row_filter=parse_filter({"bool": {"must_not": [{"term": {"title": "Deployment guide"}}]}}))
NO_TABLE = property(lambda self: False)


@pytest.fixture(scope="module")
def fixtures_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A corpus of the tests' fixture files (every format with structure; DOCX has pages) in two
    collections, one document of it in a second version."""
    folder = tmp_path_factory.mktemp("sources")
    for name in FORMATS:
        shutil.copytree(FIXTURES / name, folder / name, ignore=shutil.ignore_patterns("*.LICENSE", "README.md"))
    shutil.copy(FIXTURES / "pdf" / "camlidl-manual.pdf", folder / "camlidl-manual.pdf")
    path = tmp_path_factory.mktemp("db") / "fixtures.duckdb"
    with Corpus(path) as corpus:
        ingest_paths(corpus, [folder / "markdown", folder / "runbook"], collection="notes", chunk_tokens=60)
        ingest_paths(corpus, [folder], collection="all", chunk_tokens=120)
        guide = folder / "runbook" / "deployment-guide.md"
        guide.write_text(guide.read_text() + "\n\n## Added later\n\nA section of the second version.\n")
        ingest_paths(corpus, [folder / "runbook"], collection="notes", chunk_tokens=60)
    return path


def versions(corpus: Corpus) -> list[tuple[int, int]]:
    return [(int(d), int(v)) for d, v in corpus.cursor().execute(
        "SELECT document_id, version FROM document_versions ORDER BY ALL").fetchall()]


def stored_rows(corpus: Corpus) -> list[tuple[Any, ...]]:
    return corpus.cursor().execute("SELECT * FROM skeletons ORDER BY document_id, version").fetchall()


def same(a: DocumentVersion, b: DocumentVersion) -> None:
    assert (a.meta, a.meta.fields, a.current_version) == (b.meta, b.meta.fields, b.current_version)
    sa, sb = a.skeleton, b.skeleton
    assert (sa.document_id, sa.version, sa.text, sa.nodes, sa.chunks, sa.pages) == (
        sb.document_id, sb.version, sb.text, sb.nodes, sb.chunks, sb.pages)
    assert (sa.starts, sa.ends, sa.children, sa.own) == (sb.starts, sb.ends, sb.children, sb.own)


def read_all(path: Path, principal: Principal, monkeypatch: pytest.MonkeyPatch | None = None,
             **scope: Any) -> dict[tuple[int, int], DocumentVersion]:
    """Every readable version, read as a first touch (a fresh corpus object has empty caches);
    with ``monkeypatch`` through ``nodes`` and ``chunks`` as before the table."""
    with pytest.MonkeyPatch.context() as patch:
        if monkeypatch is not None:
            patch.setattr(Corpus, "has_skeletons", NO_TABLE)
        with Corpus(path, read_only=True) as corpus:
            return Scope(corpus, principal, **scope).documents(versions(corpus) + [(999, 1)])


def test_every_version_has_its_row_written_at_ingest(fixtures_db: Path) -> None:
    with Corpus(fixtures_db, read_only=True) as corpus:
        rows = stored_rows(corpus)
        expected = corpus.cursor().execute(
            """SELECT v.document_id, v.version, d.collection_id, col.name, d.key, v.fields, v.text
               FROM document_versions v JOIN documents d ON d.id = v.document_id
               JOIN collections col ON col.id = d.collection_id ORDER BY v.document_id, v.version""").fetchall()
        assert [r[:7] for r in rows] == expected
        old = load_skeletons(corpus.cursor(), versions(corpus))
        formats = {f for (f,) in corpus.cursor().execute("SELECT DISTINCT format FROM document_versions").fetchall()}
        assert {"markdown", "html", "text", "pdf", "docx"} <= formats
        assert any(sk.pages for sk in old.values())  # a paged version's page offsets are in its row too
        for doc, version, *_, text, value in rows:
            decoded = skeleton_rows.decode(doc, version, text, value)
            assert decoded is not None
            assert skeleton_rows.encode_skeleton(decoded) == value
            original = old[(doc, version)]
            assert (decoded.text, decoded.nodes, decoded.chunks, decoded.pages) == (
                original.text, original.nodes, original.chunks, original.pages)


@pytest.mark.parametrize("scope", [{}, {"collection": "notes"},
                                   {"filter": parse_filter({"exists": {"field": "title"}})}])
@pytest.mark.parametrize("principal", [Principal(), READER, Principal(name="n", collections=frozenset({"notes"}))])
def test_the_stored_rows_read_exactly_what_nodes_and_chunks_read(
        fixtures_db: Path, principal: Principal, scope: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    stored = read_all(fixtures_db, principal, **scope)
    before = read_all(fixtures_db, principal, monkeypatch, **scope)
    assert sorted(stored) == sorted(before) and stored
    assert len(stored) < len(read_all(fixtures_db, Principal())) or (principal, scope) == (Principal(), {})
    for key in stored:
        same(stored[key], before[key])


def test_a_superseded_version_keeps_its_own_row(fixtures_db: Path) -> None:
    with Corpus(fixtures_db, read_only=True) as corpus:
        (doc,), = corpus.cursor().execute("SELECT id FROM documents WHERE current_version = 2").fetchall()
        rows = [r for r in stored_rows(corpus) if r[0] == doc]
        assert [r[1] for r in rows] == [1, 2] and "Added later" in rows[1][6] and "Added later" not in rows[0][6]
        found = Scope(corpus).documents([(doc, 1), (doc, 2)])
        assert found[(doc, 1)].superseded and not found[(doc, 2)].superseded
        assert len(found[(doc, 2)].skeleton.nodes) > len(found[(doc, 1)].skeleton.nodes)


def test_a_retired_document_reads_as_before_and_comes_back_with_a_row(
        fixtures_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "retired.duckdb"
    shutil.copy(fixtures_db, path)
    with Corpus(path) as corpus:
        assert remove_documents(corpus, Scope(corpus, collection="notes"), ["acme-notes.md"]).removed
        (doc, current), = corpus.cursor().execute(
            "SELECT id, current_version FROM documents WHERE key = 'acme-notes.md' AND collection_id = "
            "(SELECT id FROM collections WHERE name = 'notes')").fetchall()
    stored, before = read_all(path, Principal()), read_all(path, Principal(), monkeypatch)
    assert (doc, current - 1) in stored and (doc, current) not in stored and sorted(stored) == sorted(before)
    assert stored[(doc, current - 1)].superseded
    for key in stored:
        same(stored[key], before[key])
    with Corpus(path) as corpus:  # ingested again: the version it lacked is written, with its row
        ingest_paths(corpus, [FIXTURES / "markdown"], collection="notes", chunk_tokens=60)
        assert any(r[:2] == (doc, current) for r in stored_rows(corpus))
        assert not Scope(corpus).document(doc, current).superseded  # type: ignore[union-attr]


def downgrade(path: Path) -> None:
    """Make ``path`` a schema-2 file: what this code's predecessor wrote (no skeletons table)."""
    con = duckdb.connect(str(path))
    con.execute("DROP INDEX skeletons_document")
    con.execute("DROP TABLE skeletons")
    con.execute("UPDATE clew_meta SET value = '2' WHERE key = 'schema_version'")
    con.close()


def test_an_older_file_is_read_without_the_table_and_upgraded_when_opened_read_write(
        fixtures_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.duckdb"
    shutil.copy(fixtures_db, path)
    with Corpus(path, read_only=True) as corpus:
        written = stored_rows(corpus)
    downgrade(path)
    with Corpus(path, read_only=True) as corpus:
        assert corpus.schema_version == 2 and not corpus.has_skeletons
    old = read_all(path, Principal())
    for key, found in read_all(fixtures_db, Principal(), monkeypatch).items():
        same(old[key], found)
    with Corpus(path) as corpus:
        assert corpus.has_skeletons
        assert stored_rows(corpus) == written  # the same rows ingestion wrote
        value, = corpus.cursor().execute("SELECT value FROM clew_meta WHERE key = 'schema_version'").fetchone()
        assert value == str(SCHEMA_VERSION)
    for key, found in read_all(path, Principal()).items():
        same(found, old[key])


def test_an_upgrade_that_fails_leaves_the_file_as_it_was(
        fixtures_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.duckdb"
    shutil.copy(fixtures_db, path)
    downgrade(path)

    def broken(cur: duckdb.DuckDBPyConnection) -> int:
        cur.execute("INSERT INTO skeletons SELECT * FROM skeletons_missing")
        return 0

    monkeypatch.setattr(skeleton_rows, "backfill", broken)
    with pytest.raises(StoreFailure, match="skeletons_missing"):
        Corpus(path)
    monkeypatch.undo()
    with Corpus(path, read_only=True) as corpus:
        assert corpus.schema_version == 2
        tables = {t for (t,) in corpus.cursor().execute("SELECT table_name FROM information_schema.tables").fetchall()}
        assert "skeletons" not in tables
    with Corpus(path) as corpus:
        assert corpus.has_skeletons and len(stored_rows(corpus)) == len(versions(corpus))


@pytest.mark.parametrize("principal", [Principal(), READER])
def test_a_bad_or_missing_row_is_read_from_nodes_and_chunks(
        fixtures_db: Path, tmp_path: Path, principal: Principal, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bad.duckdb"
    shutil.copy(fixtures_db, path)
    con = duckdb.connect(str(path))
    keep = con.execute("SELECT document_id FROM document_versions WHERE format = 'markdown' ORDER BY ALL").fetchall()
    (gone,), (truncated,), (other,), (shape,) = keep[:4]
    con.execute("DELETE FROM skeletons WHERE document_id = ?", [gone])
    con.execute("UPDATE skeletons SET structure = left(structure, 40) WHERE document_id = ?", [truncated])
    con.execute("UPDATE skeletons SET structure = '[2, [], [], []]' WHERE document_id = ?", [other])
    con.execute("UPDATE skeletons SET structure = '[1, [[0]], [], []]' WHERE document_id = ?", [shape])
    con.close()
    before = read_all(path, principal, monkeypatch)
    with Corpus(path, read_only=True) as corpus:
        keys = [k for k in versions(corpus) if k[0] in (gone, truncated, other, shape)]
        with recorded_statements() as statements:
            stored = Scope(corpus, principal).documents(keys)
        # the stored rows, then the old way for the four without a good one; a restricted principal
        # asks readability first, the stored way and the old way (for the version without a row),
        # then its documents' current versions as it sees them (clew.corpus.reader: version_status over
        # what it may read), then structure, the stored way and the old way; and first, once per write,
        # the newest document id its decoys are folded into (Scope._decoys: a missing id reads a row too)
        assert len(statements) == (2 if principal.reads_everything else 6)
    assert sorted(stored) == sorted(k for k in keys if k in before) and stored
    for key in stored:
        same(stored[key], before[key])
