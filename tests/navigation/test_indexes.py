"""No navigation lookup scans a table: DuckDB must answer each through an index."""

from __future__ import annotations

import json

import pytest

from clew.corpus import skeleton_rows, structure
from clew.corpus.reader import Scope
from clew.corpus.search.vectors import VERSION_VECTORS_SQL
from clew.corpus.store import Corpus
from clew.navigation.edges import EDGES_SQL

BIG = {"chunks", "nodes", "edges", "document_versions", "documents", "embeddings", "skeletons"}


def scans(corpus: Corpus, sql: str, params: list) -> dict[str, set[str]]:
    """table -> the scan types the executed plan used for it."""
    plan = json.loads(corpus.cursor().execute(f"EXPLAIN (ANALYZE, FORMAT json) {sql}", params).fetchall()[0][1])
    found: dict[str, set[str]] = {}

    def walk(node: dict) -> None:
        info = node.get("extra_info", {})
        if "Table" in info:
            found.setdefault(info["Table"].rsplit(".", 1)[-1], set()).add(info.get("Type", "?"))
        for child in node.get("children", []):
            walk(child)

    walk(plan)
    return found


def lookups(guide: Corpus) -> list[tuple[str, str, list]]:
    params: list = []
    predicate = Scope(guide).predicate(params)
    at = {"ids": structure.int_list([1, 2])}
    stored_params: list = []
    stored_predicate = Scope(guide, collection="docs").predicate(stored_params, collection="v.collection")
    return [
        ("versions", structure.VERSIONS_SQL.format(ids=structure.int_list([1, 2]), predicate=predicate), params),
        ("current", structure.CURRENT_SQL.format(ids=structure.int_list([1, 2])), []),
        ("keys", structure.KEYS_SQL.format(keys=structure.str_list(["guide.md"])), []),
        ("structure", structure.STRUCTURE_SQL.format(**at), []),
        ("versions_with_structure", structure.VERSIONS_WITH_STRUCTURE_SQL.format(**at, predicate=predicate), params),
        ("edges", EDGES_SQL.format(names=structure.str_list(["ev1:c:2:1:0", "guide.md"]), incoming="TRUE"), []),
        ("vectors", VERSION_VECTORS_SQL.format(document=1), [1, "hashing"]),
        ("stored", skeleton_rows.STORED_SQL.format(**at, predicate=stored_predicate, **skeleton_rows.PAYLOAD),
         stored_params),
        ("stored_readability", skeleton_rows.STORED_SQL.format(**at, predicate=stored_predicate,
                                                               **skeleton_rows.NO_PAYLOAD), stored_params),
        ("stored_structure", skeleton_rows.STORED_STRUCTURE_SQL.format(**at), []),
    ]


@pytest.mark.parametrize("name", ["versions", "current", "keys", "structure", "versions_with_structure", "edges",
                                  "vectors", "stored", "stored_readability",
                                  "stored_structure"])
def test_lookups_use_index_scans(guide: Corpus, name: str) -> None:
    if name == "vectors":  # an empty table is not scanned at all
        from clew.corpus.embedders import embedder_from_name
        from clew.corpus.search.embedding import embed_missing

        embed_missing(guide, embedder_from_name("hashing"))
    (sql, params), = [(s, p) for n, s, p in lookups(guide) if n == name]
    used = scans(guide, sql, params)
    assert used, f"{name}: no table scan found in the plan"
    for table, types in used.items():
        if table in BIG:
            assert types == {"Index Scan"}, f"{name}: {table} read by {types}"
