"""Reading passages under a principal's permissions.

Every read in clew goes through a :class:`Scope`: the principal (readable collections, row
filter over document fields), optionally one collection, and optionally a caller's filter
(e.g. a seed query's). A row outside the scope is indistinguishable from a row that does
not exist: both come back as ``None`` / absent, in the same code path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import duckdb

from clew.corpus import ids
from clew.corpus.access import Filter, Principal, compile_filter
from clew.corpus.store import Corpus
from clew.errors import UnknownCollection

CHUNK_COLUMNS = """c.document_id, c.version, c.ordinal, col.name, d.key, d.current_version, c.kind,
    c.start_offset, c.end_offset, c.node, c.sections, c.table_node, c.header, c.heading_path, c.body,
    c.token_count, v.fields"""


@dataclass(frozen=True, slots=True)
class Passage:
    """One chunk as stored, with its document's identity and fields."""

    document_id: int
    version: int
    ordinal: int
    collection: str
    document_key: str
    current_version: int
    kind: str
    start: int
    end: int
    node: int
    sections: tuple[int, ...]
    table_node: int | None
    header: str
    heading_path: tuple[str, ...]
    body: str
    token_count: int
    fields: dict[str, Any] = field(hash=False, compare=False)

    @property
    def evidence_id(self) -> str:
        return ids.chunk_id(self.document_id, self.version, self.ordinal)

    @property
    def text(self) -> str:
        """What a reader sees: repeated table header rows, then the body."""
        return f"{self.header}\n{self.body}" if self.header else self.body

    @property
    def superseded(self) -> bool:
        return self.version < self.current_version

    @classmethod
    def from_row(cls, row: tuple) -> Passage:
        (doc, version, ordinal, collection, key, current, kind, start, end, node, sections, table_node,
         header, heading_path, body, tokens, fields) = row
        return cls(doc, version, ordinal, collection, key, current, kind, start, end, node, tuple(sections),
                   table_node, header, tuple(heading_path), body, tokens, json.loads(fields) if fields else {})


@dataclass(frozen=True)
class Scope:
    """What a read may see. Build one per request; it never widens."""

    corpus: Corpus
    principal: Principal = field(default_factory=Principal)
    collection: str | None = None
    filter: Filter | None = None

    def __post_init__(self) -> None:
        if self.collection is not None:
            # an unreadable collection is reported exactly like a missing one
            if not self.principal.may_read_collection(self.collection) or self.collection not in self.corpus.collections():
                raise UnknownCollection(self.collection)

    def predicate(self, params: list[Any]) -> str:
        """SQL over aliases ``col`` (collections) and ``v`` (document_versions)."""
        clauses = []
        if self.collection is not None:
            clauses.append("col.name = ?")
            params.append(self.collection)
        if self.principal.collections is not None:
            clauses.append("col.name IN (SELECT unnest(?::VARCHAR[]))")
            params.append(sorted(self.principal.collections))
        for flt in (self.principal.row_filter, self.filter):
            if flt is not None:
                clauses.append(compile_filter(flt, params, "v"))
        return " AND ".join(clauses) if clauses else "TRUE"

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self.corpus.cursor()

    def passages(self, document_id: int, version: int, ordinals: list[int] | None = None) -> list[Passage]:
        """Chunks of one document version in reading order (all, or the given ordinals)."""
        params: list[Any] = [document_id, version]
        where = ""
        if ordinals is not None:
            if not ordinals:
                return []
            where = " AND c.ordinal IN (SELECT unnest(?::INTEGER[]))"
            params.append(sorted(set(ordinals)))
        predicate = self.predicate(params)
        rows = self.cursor().execute(
            f"""SELECT {CHUNK_COLUMNS}
                FROM chunks c
                JOIN documents d ON d.id = c.document_id
                JOIN collections col ON col.id = d.collection_id
                JOIN document_versions v ON v.document_id = c.document_id AND v.version = c.version
                WHERE c.document_id = ? AND c.version = ?{where} AND {predicate}
                ORDER BY c.ordinal""",
            params,
        ).fetchall()
        return [Passage.from_row(row) for row in rows]

    def passage(self, evidence_id: str) -> Passage | None:
        """The chunk an id names, or None when it does not exist *or* may not be read."""
        decoded = ids.decode(evidence_id)
        if decoded.kind != "c" or decoded.ordinal is None:
            return None
        found = self.passages(decoded.document, decoded.version, [decoded.ordinal])
        return found[0] if found else None

    def passages_by_ids(self, evidence_ids: list[str]) -> dict[str, Passage]:
        """Readable chunks among ``evidence_ids`` (malformed ids raise; others are left out)."""
        wanted: dict[tuple[int, int], list[int]] = {}
        for value in evidence_ids:
            decoded = ids.decode(value)
            if decoded.kind == "c" and decoded.ordinal is not None:
                wanted.setdefault((decoded.document, decoded.version), []).append(decoded.ordinal)
        found: dict[str, Passage] = {}
        for (doc, version), ordinals in wanted.items():
            for passage in self.passages(doc, version, ordinals):
                found[passage.evidence_id] = passage
        return found

    def document_readable(self, document_id: int, version: int) -> bool:
        params: list[Any] = [document_id, version]
        predicate = self.predicate(params)
        row = self.cursor().execute(
            f"""SELECT 1 FROM document_versions v
                JOIN documents d ON d.id = v.document_id
                JOIN collections col ON col.id = d.collection_id
                WHERE v.document_id = ? AND v.version = ? AND {predicate}""",
            params,
        ).fetchone()
        return row is not None
