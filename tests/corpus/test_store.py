from pathlib import Path

import duckdb
import pytest

from clew.corpus.schema import SCHEMA_VERSION
from clew.corpus.sql import insert_columns
from clew.corpus.store import Corpus
from clew.errors import CorpusError, SchemaVersionError, UnknownCollection


def test_new_file_records_the_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    Corpus(path).close()
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("SELECT value FROM clew_meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    con.close()


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "c.duckdb"
    Corpus(path).close()
    con = duckdb.connect(str(path))
    con.execute("UPDATE clew_meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)])
    con.close()
    with pytest.raises(SchemaVersionError, match=f"schema version {SCHEMA_VERSION + 1}.*upgrade clew"):
        Corpus(path)


def test_read_only_needs_an_existing_corpus(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="no such corpus file"):
        Corpus(tmp_path / "missing.duckdb", read_only=True)
    plain = tmp_path / "plain.duckdb"
    duckdb.connect(str(plain)).close()
    with pytest.raises(CorpusError, match="not a clew corpus"):
        Corpus(plain, read_only=True)


def test_unknown_collection_names_itself(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus, pytest.raises(UnknownCollection, match="'nope'") as caught:
        corpus.collection_id("nope")
    assert caught.value.field == "collection"


def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        with pytest.raises(RuntimeError), corpus.transaction() as cur:
            corpus.ensure_collection(cur, "docs")
            raise RuntimeError("boom")
        assert corpus.collections() == []


def test_insert_columns_refuses_ragged_columns(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus, corpus.transaction() as cur:
        with pytest.raises(CorpusError, match="unequal length"):
            insert_columns(
                cur, "anchors", {"document_id": [1, 2], "version": [1], "anchor": ["a", "b"], "chunk": [0, 0]}
            )


def test_a_new_corpus_file_gets_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "db" / "docs" / "c.duckdb"
    Corpus(path).close()
    assert Corpus(path, read_only=True).schema_version == SCHEMA_VERSION


def test_a_file_where_the_folder_goes_is_named(tmp_path: Path) -> None:
    (tmp_path / "db").write_text("not a folder")
    with pytest.raises(CorpusError, match=r"cannot make the corpus's folder .*db"):
        Corpus(tmp_path / "db" / "c.duckdb")
    assert (tmp_path / "db").read_text() == "not a folder"
