"""Small helpers for DuckDB queries: one row, and column lists handed over as Arrow tables."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import duckdb

from clew.errors import CorpusError


def one(cur: duckdb.DuckDBPyConnection, sql: str, params: object = None) -> tuple[Any, ...]:
    """The row of a query that always returns one (an aggregate, ``nextval``, ``EXISTS``)."""
    row = cur.execute(sql, params).fetchone()
    if row is None:
        raise CorpusError(f"expected one row from: {sql.split(chr(10))[0][:80]}")
    return row


@contextmanager
def arrow_view(cur: duckdb.DuckDBPyConnection, name: str, columns: Mapping[str, Any]) -> Iterator[str]:
    """Expose column lists to SQL as a view for one block.

    Large Python lists passed as query parameters are converted value by value (and DuckDB
    probes for pandas on each); an Arrow table is handed over in one piece.
    """
    import pyarrow as pa  # only writers need it: loading it costs readers a third of their start-up

    cur.register(name, pa.table({key: values if hasattr(values, "dtype") else list(values)  # numpy as it is
                                 for key, values in columns.items()}))
    try:
        yield name
    finally:
        cur.unregister(name)


def insert_columns(cur: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, Any]) -> None:
    """Bulk insert column lists through one Arrow table (fast; types are cast by DuckDB)."""
    lengths = {len(values) for values in columns.values()}
    if len(lengths) > 1:
        raise CorpusError(f"insert into {table}: columns of unequal length {sorted(lengths)}")
    if not lengths or lengths == {0}:
        return
    names = ", ".join(columns)
    with arrow_view(cur, "clew_rows", columns):
        cur.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM clew_rows")
