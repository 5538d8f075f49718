"""Loading DuckDB's ``fts`` extension offline, from its pip package, by file path.

clew's own BM25 does not use it (its index is not updated on insert and its ``match_bm25``
scores row by row); the search benchmark uses it as the baseline.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import duckdb

from clew.errors import CorpusError


def extension_path(name: str = "fts") -> Path:
    spec = importlib.util.find_spec(f"duckdb_extension_{name}")
    if spec is None or not spec.submodule_search_locations:
        raise CorpusError(f"the package duckdb-extension-{name} is not installed")
    root = Path(next(iter(spec.submodule_search_locations))) / "extensions" / f"v{duckdb.__version__}"
    found = sorted(root.glob(f"{name}.duckdb_extension"))
    if not found:
        raise CorpusError(f"duckdb-extension-{name} has no build for duckdb {duckdb.__version__} under {root}")
    return found[0]


def load_fts(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(f"LOAD '{extension_path('fts')}'")
