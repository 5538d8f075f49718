"""Schema version 4: the per-version tables without keys or indexes, the writer keeping their rows
unique, DuckDB's vacuum off on read-write connections, and a version-3 file read as it is read-only
and upgraded whole (or not at all) read-write."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import duckdb
import pytest

from clew.corpus import schema
from clew.corpus.access import Principal
from clew.corpus.documents import remove_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.schema import KEYLESS, LOOKUP_INDEXES, SCHEMA_VERSION
from clew.corpus.store import LOOKUP_DROPPED, Corpus
from clew.errors import StoreFailure
from tests.conftest import FIXTURES

V3_DDL = (Path(__file__).parent / "schema_v3.sql").read_text(encoding="utf-8")
TABLES = ("documents", "anchors", "edges", *KEYLESS)


def contents(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[int, str]]:
    """Each table's row count and a hash of its rows in order (all columns)."""
    out = {}
    for table in TABLES:
        rows = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
        out[table] = (len(rows), hashlib.sha256(repr(rows).encode()).hexdigest())
    return out


def keys_and_indexes(con: duckdb.DuckDBPyConnection) -> tuple[set[str], set[str]]:
    """The ``KEYLESS`` tables that have a primary key, and the file's index names."""
    keyed = {t for (t,) in con.execute(
        "SELECT table_name FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'").fetchall()}
    indexes = {i for (i,) in con.execute("SELECT index_name FROM duckdb_indexes()").fetchall()}
    return keyed & set(KEYLESS), indexes


def duplicates(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Rows per ``KEYLESS`` table beyond one per natural key."""
    return {table: int(con.execute(f"SELECT count(*) - count(DISTINCT ({', '.join(key)})) FROM {table}").fetchone()[0])
            for table, key in KEYLESS.items()}


@pytest.fixture(scope="module")
def current(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A version-4 corpus of the Markdown and DOCX fixtures (DOCX has pages), one document in two versions."""
    folder = tmp_path_factory.mktemp("sources")
    shutil.copytree(FIXTURES / "markdown", folder / "markdown", ignore=shutil.ignore_patterns("*.LICENSE"))
    shutil.copytree(FIXTURES / "docx", folder / "docx", ignore=shutil.ignore_patterns("*.LICENSE"))
    path = tmp_path_factory.mktemp("db") / "v4.duckdb"
    with Corpus(path) as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=60)
        changed = next(folder.glob("markdown/*.md"))
        changed.write_text(changed.read_text(encoding="utf-8") + "\n\n## Added later\n\nA new section.\n",
                           encoding="utf-8")
        ingest_paths(corpus, [folder], chunk_tokens=60)
    return path


@pytest.fixture()
def v3_file(current: Path, tmp_path: Path) -> Path:
    """A real version-3 file: the start revision's DDL (keys and indexes), holding ``current``'s rows."""
    path = tmp_path / "v3.duckdb"
    con = duckdb.connect(str(path))
    con.execute(V3_DDL)
    con.execute(f"ATTACH '{current}' AS src (READ_ONLY)")
    for table in (*TABLES, "collections", "search_docs", "search_terms", "search_postings", "search_stats"):
        con.execute(f"INSERT INTO {table} SELECT * FROM src.{table}")
    con.execute("INSERT INTO clew_meta SELECT * FROM src.clew_meta WHERE key <> 'schema_version'")
    con.execute("INSERT INTO clew_meta VALUES ('schema_version', '3')")
    for sequence, last in con.execute(  # past the copied ids
            "SELECT sequence_name, coalesce(last_value, 0) FROM duckdb_sequences() WHERE database_name = 'src'"
    ).fetchall():
        con.execute(f"SELECT nextval('{sequence}') FROM range({int(last)})")
    con.execute("DETACH src")
    assert keys_and_indexes(con) == (set(KEYLESS), keys_and_indexes(con)[1])
    assert set(LOOKUP_INDEXES) <= keys_and_indexes(con)[1]
    con.close()
    return path


def read_everything(path: Path) -> dict[tuple[int, int], tuple[object, ...]]:
    """What navigation reads of every version (structure, text, fields, pages)."""
    with Corpus(path, read_only=True) as corpus:
        keys = [(int(d), int(v)) for d, v in corpus.cursor().execute(
            "SELECT document_id, version FROM document_versions").fetchall()]
        found = Scope(corpus, Principal()).documents(keys)
    return {key: (doc.meta, doc.current_version, doc.skeleton.text, doc.skeleton.nodes, doc.skeleton.chunks,
                  doc.skeleton.pages) for key, doc in found.items()}


def test_a_new_file_has_no_keys_or_indexes_on_the_per_version_tables(current: Path) -> None:
    con = duckdb.connect(str(current), read_only=True)
    keyed, indexes = keys_and_indexes(con)
    assert keyed == set()
    assert {"documents_key", "edges_src", "edges_dst", "embeddings_document", *LOOKUP_INDEXES} <= indexes
    assert con.execute("SELECT value FROM clew_meta WHERE key = 'schema_version'").fetchone() == ("4",)
    con.close()


def test_read_write_connections_run_without_vacuum_and_read_only_ones_as_duckdb_sets(current: Path,
                                                                                      tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    shutil.copy(current, path)
    with Corpus(path) as corpus:
        assert corpus.cursor().execute("SELECT current_setting('max_vacuum_tasks')").fetchone() == (0,)
    with duckdb.connect() as fresh:
        default = fresh.execute("SELECT current_setting('max_vacuum_tasks')").fetchone()
    with Corpus(path, read_only=True) as corpus:
        assert corpus.cursor().execute("SELECT current_setting('max_vacuum_tasks')").fetchone() == default != (0,)


def lookup_state(con: duckdb.DuckDBPyConnection) -> tuple[set[str], bool]:
    """Which lookup indexes the file has, and whether ``LOOKUP_DROPPED`` is recorded."""
    indexes = {i for (i,) in con.execute("SELECT index_name FROM duckdb_indexes()").fetchall()}
    dropped = con.execute(f"SELECT count(*) FROM clew_meta WHERE key = '{LOOKUP_DROPPED}'").fetchone() == (1,)
    return indexes & set(LOOKUP_INDEXES), dropped


def test_a_bulk_write_drops_the_lookup_indexes_and_builds_them_again_at_its_end(current: Path,
                                                                                 tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    shutil.copy(current, path)
    with Corpus(path) as corpus:
        assert lookup_state(corpus.cursor()) == (set(LOOKUP_INDEXES), False)
        with corpus.bulk_write("nothing"):
            assert lookup_state(corpus.cursor()) == (set(), True)
            with corpus.bulk_write("nothing"):  # an inner block changes nothing
                pass
            assert lookup_state(corpus.cursor()) == (set(), True)
        assert lookup_state(corpus.cursor()) == (set(LOOKUP_INDEXES), False)


def test_lookup_indexes_a_dead_bulk_write_left_dropped_are_built_at_a_read_write_open(
        current: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    shutil.copy(current, path)
    with Corpus(path) as corpus:
        corpus._drop_lookup_indexes()  # what a process that died inside a bulk write leaves
    with Corpus(path, read_only=True) as corpus:
        assert lookup_state(corpus.cursor()) == (set(), True)
    assert read_everything(path) == read_everything(current)  # read by scans
    with Corpus(path) as corpus:
        assert lookup_state(corpus.cursor()) == (set(LOOKUP_INDEXES), False)


def test_new_versions_retirements_and_returns_leave_one_row_per_natural_key(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    shutil.copytree(FIXTURES / "markdown", folder, ignore=shutil.ignore_patterns("*.LICENSE"))
    files = sorted(folder.glob("*.md"))
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=60)
        ingest_paths(corpus, [folder], chunk_tokens=60)  # unchanged: nothing written again
        files[0].write_text(files[0].read_text(encoding="utf-8") + "\n\nOne more line.\n", encoding="utf-8")
        ingest_paths(corpus, [folder], chunk_tokens=60)  # a new version of one document
        moved = files[1].rename(tmp_path / files[1].name)
        assert ingest_paths(corpus, [folder], chunk_tokens=60, prune=True).retired == [files[1].name]
        assert remove_documents(corpus, Scope(corpus, collection="default"), [files[2].name]).removed == [files[2].name]
        moved.rename(files[1])
        ingest_paths(corpus, [folder], chunk_tokens=60)  # the pruned one and the removed one come back
        assert remove_documents(corpus, Scope(corpus, collection="default"), [files[1].name]).removed == [files[1].name]
        ingest_paths(corpus, [folder], chunk_tokens=60)  # and one of them again
        con = corpus.cursor()
        assert duplicates(con) == dict.fromkeys(KEYLESS, 0)
        versions = dict(con.execute(
            "SELECT d.key, count(*) FROM documents d JOIN document_versions v ON v.document_id = d.id "
            "GROUP BY d.key").fetchall())
        assert versions[files[0].name] == 2 and versions[files[1].name] == 3 and versions[files[2].name] == 2
        assert all(n == 1 for key, n in versions.items() if key not in {f.name for f in files[:3]})
        # every version that documents point at as current has its rows
        assert con.execute("SELECT count(*) FROM documents d LEFT JOIN document_versions v ON v.document_id = d.id "
                           "AND v.version = d.current_version WHERE v.document_id IS NULL").fetchone() == (0,)


def test_a_version_3_file_is_read_as_it_is_read_only_and_upgraded_read_write(current: Path, v3_file: Path) -> None:
    con = duckdb.connect(str(v3_file), read_only=True)
    before = contents(con)
    con.close()
    with Corpus(v3_file, read_only=True) as corpus:
        assert corpus.schema_version == 3
    assert read_everything(v3_file) == read_everything(current)
    with Corpus(v3_file) as corpus:
        assert corpus.schema_version == SCHEMA_VERSION == 4
        con = corpus.cursor()
        keyed, indexes = keys_and_indexes(con)
        assert keyed == set() and {"edges_dst", *LOOKUP_INDEXES} <= indexes
        assert contents(con) == before
        assert con.execute("SELECT value FROM clew_meta WHERE key = 'schema_version'").fetchone() == ("4",)
        # the columns keep their constraints
        assert con.execute("SELECT is_nullable FROM information_schema.columns WHERE table_name = 'chunks' "
                           "AND column_name = 'body'").fetchone() == ("NO",)
    assert read_everything(v3_file) == read_everything(current)


def test_an_upgrade_that_fails_leaves_the_version_3_file_as_it_was(
        v3_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(v3_file), read_only=True)
    before = contents(con)
    con.close()
    real = schema.table_ddl

    def broken(table: str, name: str) -> str:  # the last table's copy fails, after the others were recreated
        return real(table, name) if table != "skeletons" else "CREATE TABLE clew_broken AS SELECT * FROM nowhere"

    monkeypatch.setattr(schema, "table_ddl", broken)
    with pytest.raises(StoreFailure, match="nowhere"):
        Corpus(v3_file)
    monkeypatch.undo()
    con = duckdb.connect(str(v3_file), read_only=True)
    assert keys_and_indexes(con)[0] == set(KEYLESS) and set(LOOKUP_INDEXES) <= keys_and_indexes(con)[1]
    assert contents(con) == before
    assert con.execute("SELECT value FROM clew_meta WHERE key = 'schema_version'").fetchone() == ("3",)
    con.close()
    with Corpus(v3_file) as corpus:
        assert corpus.schema_version == 4 and contents(corpus.cursor()) == before
