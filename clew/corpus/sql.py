"""Small helpers for DuckDB queries: one row, values written into SQL, and column lists handed over in bulk.

Writers never bind a query parameter or scan an Arrow table, and never build an Arrow array
from Python values: DuckDB's Python client imports pandas (when it is installed) the first time
a statement binds a parameter other than None, and its Arrow scan imports ``pyarrow.dataset``,
which imports pandas too, as ``pyarrow.array`` does when it is handed Python values. That
import cost an ingest of the SQLite documentation 0.29 of its 1.8 s. So a writer's values are
written into its SQL as literals (``execute``, ``inline``), and its column lists go to DuckDB
as a Parquet file that DuckDB reads (``arrow_view``, ``insert_columns``), its Arrow arrays built
from buffers (``clew.corpus.columns``); a small insert's cells go in as literals (``VALUES_CELLS``).
"""

from __future__ import annotations

import math
import numbers
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import duckdb

from clew.errors import CorpusError


def literal(value: object) -> str:
    """``value`` as a DuckDB SQL literal: None, a bool, an integer, a finite float, a str, or a list
    or tuple of them (a DuckDB list). Typed as a bound parameter would be: a float is a DOUBLE."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, numbers.Integral):  # a numpy integer too
        return str(int(value))  # int(): a subclass's own __str__ is not trusted
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise CorpusError(f"no SQL literal for the float {value!r}")
        return f"CAST('{float(value)!r}' AS DOUBLE)"
    if isinstance(value, str):
        quoted = "'" + value.replace("'", "''") + "'"
        if "\x00" in value:  # a NUL character cannot stand in a quoted string: chr(0) joins the parts
            return "(" + quoted.replace("\x00", "' || chr(0) || '") + ")"
        return quoted
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(literal, value)) + "]"
    raise CorpusError(f"no SQL literal for a {type(value).__name__} value")


def inline(sql: str, params: Sequence[object] | None) -> str:
    """``sql`` with its placeholders outside quotes and comments replaced by ``params`` as literals:
    each ``?`` by the next one, each ``$n`` by the n-th (the two kinds are not mixed)."""
    if not params:
        return sql
    parts: list[str] = []
    used = 0
    numbered: set[int] = set()
    quote: str | None = None
    start = i = 0
    while i < len(sql):
        char = sql[i]
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            i = len(sql) if end < 0 else end
            continue
        elif char == "?" or (char == "$" and sql[i + 1 : i + 2].isdigit()):
            end = i + 1
            if char == "?":
                index, used = used, used + 1
            else:
                while end < len(sql) and sql[end].isdigit():
                    end += 1
                index = int(sql[i + 1 : end]) - 1
                numbered.add(index)
            if not 0 <= index < len(params):
                raise CorpusError(f"no parameter {index + 1} of {len(params)} for: {sql.split(chr(10))[0][:80]}")
            parts += [sql[start:i], literal(params[index])]
            start = i = end
            continue
        i += 1
    if (used and numbered) or max(used, len(numbered)) != len(params):
        raise CorpusError(f"{len(params)} parameters for {max(used, len(numbered))} placeholders in: "
                          f"{sql.split(chr(10))[0][:80]}")
    return "".join(parts) + sql[start:]


def execute(cur: duckdb.DuckDBPyConnection, sql: str,
            params: Sequence[object] | None = None) -> duckdb.DuckDBPyConnection:
    """``cur.execute`` with ``params`` written into the SQL as literals (no parameter is bound)."""
    return cur.execute(inline(sql, params))


def one(cur: duckdb.DuckDBPyConnection, sql: str, params: object = None) -> tuple[Any, ...]:
    """The row of a query that always returns one (an aggregate, ``nextval``, ``EXISTS``); writers
    pass ``inline(sql, params)`` (see the module docstring)."""
    row = cur.execute(sql, params).fetchone()
    if row is None:
        raise CorpusError(f"expected one row from: {sql.split(chr(10))[0][:80]}")
    return row


@contextmanager
def parquet_rows(columns: Mapping[str, Any]) -> Iterator[str]:
    """The columns as a Parquet file for one block: ``read_parquet('...')``, to read in SQL.

    The file is written without compression, dictionaries or statistics (what DuckDB reads back
    fastest) into the system's temporary folder, and removed at the block's end: nothing is left
    there by a process that ends without running its exit handlers (a Ray or pytest-xdist worker,
    a process killed by a signal), as a folder kept for the process's lifetime was (2026-12-07:
    453 such folders in /tmp).
    """
    import pyarrow.parquet as pq  # only writers need it: loading pyarrow costs readers a third of their start-up

    from clew.corpus.columns import arrow_table

    handle, name = tempfile.mkstemp(prefix="clew-rows-", suffix=".parquet")
    os.close(handle)
    path = Path(name)
    try:
        pq.write_table(arrow_table(columns), path, compression="none", use_dictionary=False,
                       write_statistics=False, store_schema=False)
        yield f"read_parquet({literal(str(path))})"
    finally:
        path.unlink(missing_ok=True)


@contextmanager
def arrow_view(cur: duckdb.DuckDBPyConnection, name: str, columns: Mapping[str, Any]) -> Iterator[str]:
    """Expose column lists to SQL as a temporary view ``name`` for one block (read from a Parquet
    file: ``parquet_rows``; large Python lists passed as query parameters are converted value by value).
    A few cells (``VALUES_CELLS``) of the kinds ``_view_type`` knows are a ``VALUES`` list instead, each
    column cast to the type it reads back as from Parquet (a ``CREATE TABLE ... AS`` keeps the same types):
    1.1-1.3 ms a small view against 1.7-1.8 ms."""
    typed = _typed_values(columns)
    with nullcontext(typed) if typed is not None else parquet_rows(columns) as rows:
        source = rows if typed is not None else f"SELECT * FROM {rows}"
        cur.execute(f"CREATE OR REPLACE TEMPORARY VIEW {name} AS {source}")
        try:
            yield name
        finally:
            cur.execute(f"DROP VIEW IF EXISTS {name}")


_NUMPY_TYPES = {"b1": "BOOLEAN", "i2": "SMALLINT", "i4": "INTEGER", "i8": "BIGINT", "f4": "FLOAT", "f8": "DOUBLE"}


def _view_type(values: Any) -> str | None:
    """The DuckDB type a column reads back as from Parquet (``clew.corpus.columns.arrow_array``'s rules: a
    numpy array's dtype, else its first value that is not None), for the kinds a typed ``VALUES`` list
    takes: booleans, integers, floats, strings. None for any other (lists, other dtypes, no value)."""
    dtype = getattr(values, "dtype", None)
    if dtype is not None:
        return _NUMPY_TYPES.get(dtype.str[1:])
    first = next((v for v in values if v is not None), None)
    if isinstance(first, bool):  # a numpy bool is neither this nor a number: Parquet takes it
        return "BOOLEAN"
    if isinstance(first, numbers.Integral):
        return "BIGINT"
    if isinstance(first, numbers.Real):
        return "DOUBLE"
    return "VARCHAR" if isinstance(first, str) else None


def _typed_values(columns: Mapping[str, Any]) -> str | None:
    """``SELECT`` of the columns from a ``VALUES`` list, each cast to its ``_view_type``; None where one has
    none, or the rows cannot be a ``VALUES`` list (``_values_list``; no rows)."""
    types = [_view_type(values) for values in columns.values()]
    lengths = {len(values) for values in columns.values()}
    if None in types or len(lengths) != 1 or 0 in lengths:
        return None
    values = _values_list(columns, lengths.pop())
    if values is None:
        return None
    names = [f"c{i}" for i in range(len(types))]
    casts = ", ".join(f"CAST({c} AS {t}) AS \"{n}\"" for c, t, n in zip(names, types, columns, strict=True))
    return f"SELECT {casts} FROM (VALUES {values}) AS clew_values({', '.join(names)})"


VALUES_CELLS = 128
"""At most this many cells (rows x columns) go into an ``INSERT`` as a ``VALUES`` list of literals;
more go through a Parquet file. DuckDB parses a literal in about 7 us, and a Parquet file costs
about 2 ms whatever its size (written, opened, read): 10 rows of 6 columns 1.2-1.8 ms against
2.9-3.2 ms, 50 rows 3.6 against 3.1 ms. A small ingest's batch makes a dozen such inserts."""
VALUES_CHARS = 32_768
"""Nor more than this many characters of literals (a long text parses slower than it reads from Parquet:
ten 5,000-character cells 3.2 ms either way, ten of 50,000 13.6 ms against 6.2 ms)."""


def insert_columns(cur: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, Any]) -> None:
    """Bulk insert column lists (types are cast by DuckDB): a few cells as literals (``VALUES_CELLS``),
    more through one Parquet file."""
    lengths = {len(values) for values in columns.values()}
    if len(lengths) > 1:
        raise CorpusError(f"insert into {table}: columns of unequal length {sorted(lengths)}")
    if not lengths or lengths == {0}:
        return
    names = ", ".join(columns)
    values = _values_list(columns, lengths.pop())
    if values is not None:
        cur.execute(f"INSERT INTO {table} ({names}) VALUES {values}")
        return
    with parquet_rows(columns) as rows:
        cur.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {rows}")


def _values_list(columns: Mapping[str, Any], rows: int) -> str | None:
    """The columns' rows as SQL ``VALUES`` rows, or None when they hold more than ``VALUES_CELLS`` cells
    or ``VALUES_CHARS`` characters, or a value ``literal`` cannot write (a NaN, a numpy scalar of a
    kind it does not know): those go through Parquet."""
    if rows * len(columns) > VALUES_CELLS:
        return None
    # a numpy array's values as Python's (tolist), without importing numpy here: readers never load it
    cells = [values.tolist() if hasattr(values, "tolist") else values for values in columns.values()]
    out: list[str] = []
    size = 0
    try:
        for row in zip(*cells):
            text = "(" + ", ".join(map(literal, row)) + ")"
            size += len(text)
            if size > VALUES_CHARS:
                return None
            out.append(text)
    except CorpusError:
        return None
    return ", ".join(out)
