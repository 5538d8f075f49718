"""Small helpers for DuckDB queries."""

from __future__ import annotations

from typing import Any

import duckdb

from clew.errors import CorpusError


def one(cur: duckdb.DuckDBPyConnection, sql: str, params: object = None) -> tuple[Any, ...]:
    """The row of a query that always returns one (an aggregate, ``nextval``, ``EXISTS``)."""
    row = cur.execute(sql, params).fetchone()
    if row is None:
        raise CorpusError(f"expected one row from: {sql.split(chr(10))[0][:80]}")
    return row
