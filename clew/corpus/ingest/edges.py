"""User graphs: typed edges between document keys (e.g. a ``workflow`` graph of ``next``).

Built-in graphs (``section_hierarchy``, ``reading_order``, ``links``) are written by
ingestion and cannot be written here. Each line of an edges file is one JSON object with
``graph``, ``src``, ``dst``, ``type`` and an optional ``weight``; both ends must be keys of
documents in the collection. Bad lines are reported with their line number and not
written; an edge that already exists has its weight replaced.
"""

from __future__ import annotations

import json
import math

import duckdb
from pydantic import BaseModel, Field

from clew.corpus.sql import arrow_view, insert_columns
from clew.corpus.store import Corpus
from clew.corpus.write_turn import in_turn

BUILT_IN_GRAPHS = frozenset({"section_hierarchy", "reading_order", "links"})


class EdgeProblem(BaseModel):
    line: int
    message: str


class EdgesReport(BaseModel):
    collection: str
    edges: int = Field(0, description="edges written (new or re-weighted)")
    problems: list[EdgeProblem] = Field(default_factory=list)


def _check(record: object, line: int) -> tuple[tuple[str, str, str, str, float] | None, str | None]:
    if not isinstance(record, dict):
        return None, "expected a JSON object"
    values = []
    for name in ("graph", "src", "dst", "type"):
        value = record.get(name)
        if not isinstance(value, str) or not value.strip():
            return None, f"field {name!r} must be a non-blank string"
        values.append(value.strip() if name in ("graph", "type") else value)
    if values[0] in BUILT_IN_GRAPHS:
        return None, f"graph {values[0]!r} is built in and written by ingestion"
    weight = record.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight):
        return None, "field 'weight' must be a finite number"
    return (values[0], values[1], values[2], values[3], float(weight)), None


@in_turn
def ingest_edges(corpus: Corpus, content: str, *, collection: str) -> EdgesReport:
    report = EdgesReport(collection=collection)
    candidates: list[tuple[int, tuple[str, str, str, str, float]]] = []
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            report.problems.append(EdgeProblem(line=number, message=f"invalid JSON: {error.msg}"))
            continue
        edge, problem = _check(record, number)
        if edge is None:
            report.problems.append(EdgeProblem(line=number, message=problem or "invalid edge"))
        else:
            candidates.append((number, edge))
    with corpus.transaction() as cur:
        collection_id = corpus.collection_id(collection)
        keys = {e[1] for _, e in candidates} | {e[2] for _, e in candidates}
        known = {
            r[0]
            for r in cur.execute(
                "SELECT key FROM documents WHERE collection_id = ? AND key IN (SELECT unnest(?::VARCHAR[]))",
                [collection_id, sorted(keys)],
            ).fetchall()
        }
        unique: dict[tuple[str, str, str, str], float] = {}
        for number, (graph, src, dst, type_, weight) in candidates:
            missing = [k for k in (src, dst) if k not in known]
            if missing:
                report.problems.append(
                    EdgeProblem(
                        line=number, message=f"no document with key {missing[0]!r} in collection {collection!r}"
                    )
                )
                continue
            unique[(graph, type_, src, dst)] = weight
        if unique:
            _replace_existing(cur, collection_id, list(unique))
        rows = list(unique.items())
        insert_columns(cur, "edges", {
            "collection_id": [collection_id] * len(rows),
            "graph": [k[0] for k, _ in rows],
            "type": [k[1] for k, _ in rows],
            "src_kind": ["key"] * len(rows),
            "src": [k[2] for k, _ in rows],
            "dst_kind": ["key"] * len(rows),
            "dst": [k[3] for k, _ in rows],
            "dst_ref": [k[3] for k, _ in rows],
            "weight": [w for _, w in rows],
        })
        report.edges = len(rows)
    report.problems.sort(key=lambda p: p.line)
    return report


def _replace_existing(
    cur: duckdb.DuckDBPyConnection, collection_id: int, edges: list[tuple[str, str, str, str]]
) -> None:
    """Delete the stored copies of ``(graph, type, src, dst)`` user edges about to be loaded again."""
    with arrow_view(cur, "clew_new_edges", {
        "graph": [e[0] for e in edges], "type": [e[1] for e in edges],
        "src": [e[2] for e in edges], "dst": [e[3] for e in edges],
    }):
        cur.execute(
            """DELETE FROM edges USING clew_new_edges n
               WHERE edges.collection_id = ? AND edges.src_kind = 'key' AND edges.graph = n.graph
                 AND edges.type = n.type AND edges.src = n.src AND edges.dst = n.dst""",
            [collection_id],
        )
