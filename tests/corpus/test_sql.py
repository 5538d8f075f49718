"""Writers' values go into SQL as literals and their columns through Parquet, or a few cells as a VALUES
list (clew.corpus.sql): the same rows as bound parameters and Arrow tables gave, and an ingest that
imports neither pandas nor pyarrow.dataset (which DuckDB's Python client and pyarrow import for a bound
parameter, an Arrow scan or ``pyarrow.array``)."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pytest

from clew.corpus import sql
from clew.corpus.columns import arrow_array
from clew.corpus.sql import arrow_view, execute, inline, insert_columns, literal
from clew.errors import CorpusError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

VALUES: list[object] = [
    None, True, False, 0, -7, 2**62, 1.5, -0.1, 1e300, 5e-324, "", "it's", "a ? b $1 -- c", 'dou"ble',
    "ünïcödé ✓ 𝄞", "line\nbreak\ttab\\back", "nul\x00in'side", ["a", "b'c"], [1, 2, 3], [], [None, "x"],
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_a_literal_reads_back_as_the_bound_parameter(value: object) -> None:
    con = duckdb.connect()
    assert con.execute(f"SELECT {literal(value)}").fetchall() == con.execute("SELECT ?", [value]).fetchall()
    if isinstance(value, float):  # typed as a bound float is: DOUBLE, not DECIMAL
        assert con.execute(f"SELECT typeof({literal(value)})").fetchone() == ("DOUBLE",)


def test_inline_fills_placeholders_outside_quotes_and_comments() -> None:
    sql = "SELECT ?, '?', \"?\" -- ?\n, ?"
    assert inline(sql, [1, "it's"]) == "SELECT 1, '?', \"?\" -- ?\n, 'it''s'"
    assert inline("SELECT $2, $1, $2", ["a", 3]) == "SELECT 3, 'a', 3"
    assert inline("SELECT 1", None) == "SELECT 1"
    con = duckdb.connect()
    assert execute(con, "SELECT ? || '?'", ["x"]).fetchone() == ("x?",)
    # numpy's numbers too, which DuckDB does not bind
    assert execute(con, "SELECT ?, ?", [np.int64(-5), np.float32(0.5)]).fetchone() == (-5, 0.5)


@pytest.mark.parametrize(("sql", "params", "message"), [
    ("SELECT ?", [1, 2], "2 parameters for 1 placeholders"),
    ("SELECT ?, ?", [1], "no parameter 2 of 1"),
    ("SELECT $3", [1], "no parameter 3 of 1"),
    ("SELECT ?", [float("nan")], "no SQL literal for the float nan"),
    ("SELECT ?", [b"bytes"], "no SQL literal for a bytes value"),
])
def test_inline_refuses_what_it_cannot_write(sql: str, params: list[object], message: str) -> None:
    with pytest.raises(CorpusError, match=message):
        inline(sql, params)


@pytest.fixture(params=["values", "parquet"])
def insert_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each insert of the test through one path: a few cells as a ``VALUES`` list (``VALUES_CELLS``), or
    every insert through a Parquet file (``VALUES_CELLS`` 0); the Parquet files written, recorded."""
    if request.param == "parquet":
        monkeypatch.setattr(sql, "VALUES_CELLS", 0)
    written: list[str] = []
    real = sql.parquet_rows

    def recorded(columns: dict[str, object]) -> object:
        written.append(",".join(columns))
        return real(columns)

    monkeypatch.setattr(sql, "parquet_rows", recorded)
    return written


def test_columns_go_in_as_arrow_tables_did(insert_path: list[str]) -> None:
    columns: dict[str, object] = {
        "i": [1, None, 3], "s": ["x", None, "zé'"], "b": [True, False, None], "f": [1.5, None, -2.0],
        "l": [[1, 2], [], None], "h": [["a"], [], ["b", "c"]], "e": [[], [], []], "n": [None, None, None],
        "np_i16": np.array([1, -2, 3], dtype=np.int16), "np_b": np.array([True, False, True]),
        "r": range(3),
    }
    con = duckdb.connect()
    con.execute("CREATE TABLE t (i INTEGER, s VARCHAR, b BOOLEAN, f DOUBLE, l INTEGER[], h VARCHAR[], e INTEGER[], "
                "n INTEGER, np_i16 SMALLINT, np_b BOOLEAN, r BIGINT)")
    insert_columns(con, "t", columns)
    assert len(insert_path) == (1 if sql.VALUES_CELLS == 0 else 0)
    assert con.execute("SELECT * FROM t").fetchall() == [
        (1, "x", True, 1.5, [1, 2], ["a"], [], None, 1, True, 0),
        (None, None, False, None, [], [], [], None, -2, False, 1),
        (3, "zé'", None, -2.0, None, ["b", "c"], [], None, 3, True, 2),
    ]
    with arrow_view(con, "clew_v", {"k": ["a", "b"]}):
        assert con.execute("SELECT count(*) FROM clew_v").fetchone() == (2,)
    assert con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = 'clew_v'").fetchone() == (0,)


def test_string_columns_keep_their_cells_whether_ascii_or_not(insert_path: list[str]) -> None:
    # an ASCII column is sized by characters, any other by each cell's UTF-8 bytes
    columns = {"a": ["", "plain", "x y"], "u": ["日本", "", "😀é"], "h": [["é"], [], ["a", "日"]],
               "m": ["ascii", None, "ü"]}
    con = duckdb.connect()
    con.execute("CREATE TABLE t (a VARCHAR, u VARCHAR, h VARCHAR[], m VARCHAR)")
    insert_columns(con, "t", columns)
    assert con.execute("SELECT * FROM t").fetchall() == [
        ("", "日本", ["é"], "ascii"), ("plain", "", [], None), ("x y", "😀é", ["a", "日"], "ü")]


def test_a_view_reads_the_same_types_and_rows_either_way(insert_path: list[str]) -> None:
    """A small view is a typed VALUES list, each column cast to the type Parquet gives it (a CREATE TABLE ... AS
    from it keeps them): the same DESCRIBE and rows as through Parquet; a list column goes through Parquet."""
    columns: dict[str, object] = {
        "s": ["a", None, "b'c"], "i": [1, None, 2**40], "f": [1.5, 2.0, None], "b": [True, False, None],
        "n16": np.array([1, -2, 3], dtype=np.int16), "n32": np.array([1, 2, 3], dtype=np.int32),
        "n64": np.arange(3), "f32": np.array([0.5, 0.1, 2], dtype=np.float32), "nb": np.array([True, False, True]),
        "r": range(3), "ni": [np.int64(3), 4, None]}
    con = duckdb.connect()
    with arrow_view(con, "clew_v", columns):
        con.execute("CREATE TABLE t AS SELECT * FROM clew_v")
    assert len(insert_path) == (1 if sql.VALUES_CELLS == 0 else 0)
    assert [(name, kind) for name, kind, *_ in con.execute("DESCRIBE t").fetchall()] == [
        ("s", "VARCHAR"), ("i", "BIGINT"), ("f", "DOUBLE"), ("b", "BOOLEAN"), ("n16", "SMALLINT"), ("n32", "INTEGER"),
        ("n64", "BIGINT"), ("f32", "FLOAT"), ("nb", "BOOLEAN"), ("r", "BIGINT"), ("ni", "BIGINT")]
    assert con.execute("SELECT * FROM t").fetchall() == [
        ("a", 1, 1.5, True, 1, 1, 0, 0.5, True, 0, 3),
        (None, None, 2.0, False, -2, 2, 1, float(np.float32(0.1)), False, 1, 4),
        ("b'c", 2**40, None, None, 3, 3, 2, 2.0, True, 2, None)]
    with arrow_view(con, "clew_l", {"k": ["x"], "l": [["a", "b"]]}):
        assert con.execute("SELECT * FROM clew_l").fetchall() == [("x", ["a", "b"])]
    assert insert_path[-1] == "k,l", "a list column has no VALUES type: Parquet"


HOSTILE = ["it's", "'); DROP TABLE t; --", "back\\slash\\", "\\'", "''", "nul\x00in'side\x00", "𝄞 non-BMP",
           "a ? b $1 /* c", "\n\r\t", ""]


def test_no_cell_breaks_out_of_its_literal(insert_path: list[str]) -> None:
    """Quotes, backslashes, NULs, placeholders and comment marks in cells (strings, lists of them) read back as
    written, through a VALUES list as through Parquet, and run no SQL of their own."""
    lists = [[cell, None] for cell in HOSTILE]
    floats = [-0.0, 1e308, 5e-324, None, 2.5, 1.0, 0.1, -1e-300, 3.0, None]
    con = duckdb.connect()
    con.execute("CREATE TABLE t (s VARCHAR, l VARCHAR[], f DOUBLE)")
    insert_columns(con, "t", {"s": HOSTILE, "l": lists, "f": floats})
    with arrow_view(con, "clew_v", {"s": HOSTILE, "f": floats}):
        viewed = con.execute("SELECT * FROM clew_v").fetchall()
    assert len(insert_path) == (2 if sql.VALUES_CELLS == 0 else 0)
    rows = list(zip(HOSTILE, lists, floats, strict=True))
    assert con.execute("SELECT * FROM t").fetchall() == rows
    assert list(map(repr, viewed)) == [repr((s, f)) for s, _, f in rows]  # repr: -0.0 stays -0.0
    assert con.execute("SELECT table_name FROM duckdb_tables()").fetchall() == [("t",)]


@pytest.mark.parametrize(("columns", "why"), [
    ({"i": list(range(sql.VALUES_CELLS + 1))}, "more cells than VALUES_CELLS"),
    ({"s": ["x" * (sql.VALUES_CHARS // 2)] * 3}, "more characters than VALUES_CHARS"),
    ({"f": [1.0, float("nan")]}, "a value no literal writes"),
])
def test_what_a_values_list_cannot_hold_goes_through_parquet(columns: dict[str, list[object]], why: str,
                                                              insert_path: list[str]) -> None:
    con = duckdb.connect()
    name, values = next(iter(columns.items()))
    con.execute(f"CREATE TABLE t ({name} {dict(i='BIGINT', s='VARCHAR', f='DOUBLE')[name]})")
    insert_columns(con, "t", columns)
    assert insert_path == [name], why
    got = [row[0] for row in con.execute("SELECT * FROM t").fetchall()]
    assert list(map(repr, got)) == list(map(repr, values))  # by repr: a NaN reads back as one


def test_a_column_of_no_known_type_is_named() -> None:
    with pytest.raises(CorpusError, match="column when: no Arrow type for a object value"):
        arrow_array("when", [object()])
    with pytest.raises(CorpusError, match="column grid: a numpy column must be one-dimensional"):
        arrow_array("grid", np.zeros((2, 2)))


@pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas is not installed: nothing to import")
def test_an_ingest_imports_neither_pandas_nor_pyarrow_dataset_nor_compute(tmp_path: Path) -> None:
    script = f"""
import sys
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
with Corpus({str(tmp_path / "c.duckdb")!r}) as corpus:
    first = ingest_paths(corpus, [{str(FIXTURES / "html")!r}, {str(FIXTURES / "markdown")!r}], workers=1)
    again = ingest_paths(corpus, [{str(FIXTURES / "markdown")!r}], workers=1, prune=True)
unwanted = ("pandas", "pyarrow.dataset", "pyarrow.compute")
print(first.chunks > 0, again.retired != [], sorted(m for m in unwanted if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split("\n")[-2] == "True True []", out.stdout + out.stderr


def test_a_worker_that_ends_without_exit_handlers_leaves_no_rows_file(tmp_path: Path) -> None:
    """A Ray or pytest-xdist worker ends with ``os._exit``, which runs no exit handler: the Parquet
    rows of a bulk insert are removed when the insert ends, not at the process's exit."""
    script = (
        "import os, duckdb\n"
        "from clew.corpus import sql\n"
        "sql.VALUES_CELLS = 0\n"
        "con = duckdb.connect()\n"
        "con.execute('CREATE TABLE t (i INTEGER)')\n"
        "sql.insert_columns(con, 't', {'i': [1, 2, 3]})\n"
        "assert con.execute('SELECT sum(i) FROM t').fetchone() == (6,)\n"
        "os._exit(0)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=60)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("clew-rows-")] == []
