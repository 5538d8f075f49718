"""Reading passages under a principal's permissions.

Every read in clew goes through a :class:`Scope`: the principal (readable collections, row
filter over document fields), optionally one collection, and optionally a caller's filter
(e.g. a seed query's). A row outside the scope is indistinguishable from a row that does
not exist: both come back as ``None`` / absent, in the same code path.

Navigation reads whole document versions (``Scope.document`` and friends): one indexed
query decides, for a batch of versions, which exist *and* may be read; their structure comes
from ``clew.corpus.structure`` (see there for the caches and why they are safe).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import duckdb

from clew.corpus import ids, skeleton_rows
from clew.corpus.access import Filter, Principal, compile_filter
from clew.corpus.store import Corpus
from clew.corpus.structure import (
    CURRENT_SQL,
    FROZEN,
    KEYS_SQL,
    READABLE,
    SKELETONS,
    VERSIONS_SQL,
    VERSIONS_WITH_STRUCTURE_SQL,
    DocumentVersion,
    VersionMeta,
    int_list,
    skeletons_of,
    str_list,
)
from clew.errors import InputError, UnknownCollection


def _version_columns(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """VERSIONS_SQL's columns, from a version row of VERSIONS_WITH_STRUCTURE_SQL."""
    _, doc, version, _, col_id, current_version, *_, col_name, key, fields = row
    return doc, version, col_id, col_name, key, current_version, fields


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
    pages: tuple[int, ...] = ()
    """The pages it spans, for paged formats (PDF, DOCX with rendered page breaks); else empty."""

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


def passage_of(doc: DocumentVersion, ordinal: int) -> Passage:
    """A passage built from a version's cached structure (equal to the stored row).

    Kept with the structure once built (a passage is immutable and its version's metadata never
    changes) and built again only when its document's current version has moved: a warm walk asks
    for the same passages run after run, about 65 a walk."""
    sk = doc.skeleton
    key = ("passage", ordinal)
    held: Passage | None = sk.memo.get(key)
    if held is not None and held.current_version == doc.current_version:
        return held
    chunk = sk.chunks[ordinal]
    made = sk.memo[key] = Passage(
        doc.document_id, doc.version, ordinal, doc.meta.collection, doc.meta.key, doc.current_version, chunk.kind,
        chunk.start, chunk.end, chunk.node, tuple(chunk.sections), chunk.table_node, chunk.header,
        tuple(sk.heading_path(ordinal)), sk.body(ordinal), chunk.token_count, doc.meta.fields,
        tuple(sk.page_numbers(ordinal)))
    return made


@dataclass(frozen=True)
class Scope:
    """What a read may see. Build one per request; it never widens."""

    corpus: Corpus
    principal: Principal = field(default_factory=Principal)
    collection: str | None = None
    filter: Filter | None = None
    _held: dict[tuple[int, int], tuple[int, DocumentVersion]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """Versions ``documents`` found, with the corpus generation they were read at, for ``document`` (a
    walk asks for the same few documents at every step; the corpus-wide caches behind ``documents``
    cost more)."""

    def __post_init__(self) -> None:
        if self.collection is not None:
            # an unreadable collection is reported exactly like a missing one
            if (
                not self.principal.may_read_collection(self.collection)
                or self.collection not in self.corpus.collections()
            ):
                raise UnknownCollection(self.collection)

    def predicate(self, params: list[Any], *, rows: bool = True, collection: str = "col.name",
                  key: str = "d.key") -> str:
        """SQL over aliases ``col`` (collections), ``v`` (document_versions) and ``d`` (documents).

        ``rows=False`` leaves out the row filters: the collections part alone, for questions
        asked per collection (never per row) that must not reveal unreadable rows.
        ``collection``, ``key``: where the collection's name and the document's key are
        (``v.collection`` and ``v.key`` over ``skeletons``).
        """
        clauses = []  # collection names as literals: a bound parameter makes DuckDB import pandas (0.2 s)
        if self.collection is not None:
            clauses.append(f"{collection} = {str_list([self.collection])}")
        if self.principal.collections is not None:
            clauses.append(f"{collection} IN ({str_list(sorted(self.principal.collections))})")
        for flt in (self.principal.row_filter, self.filter) if rows else ():
            if flt is not None:
                clauses.append(compile_filter(flt, params, "v", key))
        return " AND ".join(clauses) if clauses else "TRUE"

    def reads_everything(self) -> bool:
        """Whether every document of the corpus is readable here: no row filter or filter, and
        no collection restriction that leaves a document out (cached until the next write)."""
        if self.principal.row_filter is not None or self.filter is not None:
            return False
        holding = self.corpus.collections(with_documents=True)
        wanted = set(holding)
        if self.collection is not None:
            wanted &= {self.collection}
        if self.principal.collections is not None:
            wanted &= set(self.principal.collections)
        return wanted == set(holding)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self.corpus.cursor()

    def passages(self, document_id: int, version: int, ordinals: list[int] | None = None) -> list[Passage]:
        """Chunks of one readable document version in reading order (all, or the given ordinals)."""
        key = (int(document_id), int(version))
        doc = self.documents([key]).get(key)
        if doc is None:
            return []
        size = len(doc.skeleton.chunks)
        picks = range(size) if ordinals is None else sorted({o for o in ordinals if 0 <= o < size})
        return [passage_of(doc, o) for o in picks]

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
        docs = self.documents(wanted)  # readable versions, their structure loaded in one batch
        for key, ordinals in wanted.items():
            doc = docs.get(key)
            if doc is None:
                continue
            for ordinal in sorted(set(ordinals)):
                if 0 <= ordinal < len(doc.skeleton.chunks):
                    passage = passage_of(doc, ordinal)
                    found[passage.evidence_id] = passage
        return found

    # -- whole document versions (navigation) ----------------------------------------------
    @cached_property
    def view(self) -> str:
        """What decides readability here: the compiled predicate and its parameters."""
        params: list[Any] = []
        sql = self.predicate(params)
        return json.dumps([sql, params], default=str)

    def within(self, collection: str | None) -> Scope:
        """This scope narrowed to ``collection`` (None: unchanged). It never widens."""
        if collection is None or collection == self.collection:
            return self
        if self.collection is not None:
            raise UnknownCollection(collection)  # outside the scope reads as "no such collection"
        return Scope(self.corpus, self.principal, collection, self.filter)

    def documents(
        self, wanted: Iterable[tuple[int, int]], current: dict[int, int] | None = None
    ) -> dict[tuple[int, int], DocumentVersion]:
        """The readable versions among ``wanted`` (document id, version), with their structure.

        A version that does not exist and one the scope may not read are both simply absent:
        the first answer about either comes from the same query. ``current`` may pass
        current versions the caller has just read.
        """
        asked_current = current
        metas, current = self._readable(wanted, current)
        if metas and self.principal.row_filter is not None:
            current = self._current_as_seen(current, {doc for doc, _ in metas})
        skeletons = {key: SKELETONS.get(self.corpus, key) for key in metas}
        missing = [key for key, skeleton in skeletons.items() if skeleton is None]
        if missing:  # one batch of indexed lookups for every version not cached yet
            for key, skeleton in skeleton_rows.load(self.cursor(), missing, stored=self.corpus.has_skeletons).items():
                SKELETONS.put(self.corpus, skeleton)
                skeletons[key] = skeleton
        out = {key: DocumentVersion(meta, int(current[key[0]]), found)
               for key, meta in metas.items() if (found := skeletons[key]) is not None}
        if asked_current is None:  # what ``document`` would find: kept for it (a walk prices its seed hits)
            generation = self.corpus.generation
            for key, doc in out.items():
                self._held[key] = (generation, doc)
        return out

    def _readable(
        self, wanted: Iterable[tuple[int, int]], current: dict[int, int] | None = None, *, ask: bool = False,
        decoys: Iterable[int] = (),
    ) -> tuple[dict[tuple[int, int], VersionMeta], dict[int, int]]:
        """Metadata of the readable versions among ``wanted``, and their current versions.

        A version that is denied and one that does not exist are remembered alike as absent
        until the next write (``FROZEN``), so neither is asked again before the other is.
        ``ask``: run the readability query even when nothing is left to ask (a caller that
        found no row does the same work as one whose rows turned out denied). For a restricted
        principal the query also reads decoy rows (``_decoys``) and drops them, so that a missing
        version costs a row read, as a denied one does.
        """
        wanted = list(dict.fromkeys(wanted))
        current = dict(current or {})
        metas = {key: READABLE.get(self.corpus, self.view, key) for key in wanted}
        unknown = {key for key, meta in metas.items()
                   if meta is None and FROZEN.get(self.corpus, ("absent", self.view, key)) is None}
        cur = None  # a cursor only when something is not cached
        if unknown or ask:
            cur = self.cursor()
            # a principal that may read everything gets the structure in the same statement (what it
            # may not read, it cannot be told apart by: a restricted one keeps the readability query
            # alone, so that a denied version costs what a missing one does)
            structure = self.principal.reads_everything and any(SKELETONS.get(self.corpus, k) is None for k in unknown)
            pending, asked = unknown, False
            also = set() if self.principal.reads_everything else self._decoys(cur, unknown, decoys)
            if self.corpus.has_skeletons:  # from the stored rows (what had no good row: below)
                pending, asked = self._read_stored(cur, unknown, metas, current, structure=structure, also=also), True
            if pending or not asked:
                self._read_versions(cur, pending, metas, current, structure=structure and bool(pending), also=also)
            for key in unknown:
                if metas[key] is None:
                    FROZEN.put(self.corpus, ("absent", self.view, key), True)
        readable = {key: meta for key, meta in metas.items() if meta is not None}
        for doc in {doc for doc, _ in readable if doc not in current}:
            known = FROZEN.get(self.corpus, ("current", doc))
            if known is not None:
                current[doc] = known
        stale = sorted({doc for doc, _ in readable if doc not in current})
        if stale:
            cur = cur or self.cursor()
            current.update(cur.execute(CURRENT_SQL.format(ids=int_list(stale))).fetchall())
        for doc, version in current.items():
            FROZEN.put(self.corpus, ("current", doc), version)
        return readable, current

    def _current_as_seen(self, current: dict[int, int], docs: set[int]) -> dict[int, int]:
        """Each of ``docs``'s current version as this principal's row filter sees it, so that a
        version's status (current, superseded, removed) is computed over the versions it may read
        and tells nothing of one it may not: where the current version is hidden from it, its
        newest readable version is current to it (a retired document whose last version it may
        read stays retired). Asked for every document such a principal reads, superseded or not,
        and remembered until the next write, so a hidden newer version costs no extra work."""
        unknown = [doc for doc in docs if FROZEN.get(self.corpus, ("seen current", self.principal_view, doc)) is None]
        if unknown:
            params: list[Any] = []
            readable = Scope(self.corpus, self.principal).predicate(params)
            rows = self.cursor().execute(
                f"""WITH v AS MATERIALIZED (SELECT document_id, version, fields FROM document_versions
                                            WHERE document_id IN ({int_list(unknown)}))
                    SELECT d.id, d.current_version, max(v.version) FILTER (WHERE {readable}),
                           bool_or(v.version = d.current_version)
                    FROM documents d JOIN collections col ON col.id = d.collection_id
                    JOIN v ON v.document_id = d.id WHERE d.id IN ({int_list(unknown)})
                    GROUP BY d.id, d.current_version""",
                params).fetchall()
            for doc, stored, newest, has_current in rows:
                seen = int(stored)
                if newest is not None and not (int(newest) == seen or (not has_current and int(newest) == seen - 1)):
                    seen = int(newest)
                FROZEN.put(self.corpus, ("seen current", self.principal_view, int(doc)), seen)
        out = dict(current)
        for doc in docs:
            seen = FROZEN.get(self.corpus, ("seen current", self.principal_view, doc))
            if seen is not None:
                out[doc] = seen
        return out

    @cached_property
    def principal_view(self) -> str:
        """What decides which versions the principal itself may read (its collections and row filter)."""
        return Scope(self.corpus, self.principal).view

    def _decoys(self, cur: duckdb.DuckDBPyConnection, unknown: set[tuple[int, int]], named: Iterable[int]) -> set[int]:
        """Documents a restricted principal's readability query reads beside ``unknown`` and drops: each
        asked id folded into the stored ids (``(id - 1) % newest + 1``: an id that exists is itself, one
        past the newest lands on a stored document), and ``named`` folded alike (a key that found no
        row). A missing version then costs the read of a stored row, as a denied one does, instead
        of being ruled out by DuckDB's zone maps without reading anything (issue 38, item 10)."""
        newest = FROZEN.get(self.corpus, ("newest document",))
        if newest is None:
            newest = int(cur.execute("SELECT coalesce(max(id), 0) FROM documents").fetchone()[0])  # type: ignore[index]
            FROZEN.put(self.corpus, ("newest document",), newest)
        if newest <= 0:
            return set()
        return {(int(doc) - 1) % newest + 1 for doc in [*(doc for doc, _ in unknown), *named]} - {
            doc for doc, _ in unknown}

    def _read_versions(self, cur: duckdb.DuckDBPyConnection, unknown: set[tuple[int, int]],
                       metas: dict[tuple[int, int], VersionMeta | None], current: dict[int, int], *,
                       structure: bool, also: Iterable[int] = ()) -> None:
        """Readability and metadata of ``unknown`` versions (with their structure from ``nodes`` and
        ``chunks`` where ``structure``) in one statement; fills ``metas`` and ``current``. ``also``:
        decoy documents read and dropped (``_decoys``)."""
        params: list[Any] = []
        predicate = self.predicate(params)
        asked = {doc for doc, _ in unknown}
        sql = (VERSIONS_WITH_STRUCTURE_SQL if structure else VERSIONS_SQL).format(
            ids=int_list(sorted(asked | (set() if structure else set(also)))), predicate=predicate)
        rows = cur.execute(sql, params).fetchall()
        versions = [_version_columns(row) for row in rows if row[0] == 0] if structure else rows
        for doc, version, col_id, col_name, key, current_version, fields in versions:
            if doc not in asked:
                continue
            current[doc] = int(current_version)
            if (doc, version) in unknown:
                meta = VersionMeta(int(col_id), col_name, key, json.loads(fields) if fields else {})
                metas[(doc, version)] = meta
                READABLE.put(self.corpus, self.view, (doc, version), meta)
        if structure:
            readable_now = {key for key in unknown if metas[key] is not None}
            for skeleton in skeletons_of(cur, rows, readable_now).values():
                SKELETONS.put(self.corpus, skeleton)

    def _read_stored(self, cur: duckdb.DuckDBPyConnection, unknown: set[tuple[int, int]],
                     metas: dict[tuple[int, int], VersionMeta | None], current: dict[int, int], *,
                     structure: bool, also: Iterable[int] = ()) -> set[tuple[int, int]]:
        """Readability and metadata (and, where ``structure``, the structure) of ``unknown`` versions
        from their stored rows, with their documents' current versions, in one statement
        (``skeleton_rows.read_stored``); fills ``metas`` and ``current`` and returns the versions still
        to ask: those of an existing document that had no row, or a row that did not decode (a
        version the predicate refused is decided)."""
        params: list[Any] = []
        predicate = self.predicate(params, collection="v.collection", key="v.key")
        found, currents = skeleton_rows.read_stored(cur, unknown, predicate, params, structure=structure, also=also)
        current.update(currents)
        for key, got in found.items():
            if got is not None:
                meta, skeleton = got
                metas[key] = meta
                READABLE.put(self.corpus, self.view, key, meta)
                if skeleton is not None:
                    SKELETONS.put(self.corpus, skeleton)
        return {key for key in unknown if key not in found and key[0] in currents and key[1] <= currents[key[0]]}

    def document(self, document_id: int, version: int) -> DocumentVersion | None:
        """One readable version with its structure, or None (missing and denied alike)."""
        key = (document_id, version)
        held = self._held.get(key)
        if held is not None and held[0] == self.corpus.generation:
            return held[1]
        return self.documents([key]).get(key)  # kept in ``_held`` when found

    def current_by_keys(
        self, keys: Iterable[str], collection: str | None = None
    ) -> dict[tuple[str, str], DocumentVersion]:
        """Current readable versions of documents by key: (collection, key) -> version."""
        keys = sorted(set(keys))
        if not keys:
            return {}
        # per view and key, the readable rows only: a denied key and a missing one are both an
        # empty list, found by the same two queries (the key's rows, then their readability)
        rows = []
        asked = []
        for key in keys:
            known = FROZEN.get(self.corpus, ("key", self.view, key))
            if known is None:
                asked.append(key)
            else:
                rows.extend(known)
        if asked:
            fresh = self.cursor().execute(KEYS_SQL.format(keys=str_list(asked))).fetchall()
            unfound = sorted(set(asked) - {row[0] for row in fresh})  # the readability query reads one decoy
            readable, _ = self._readable([(int(doc), int(version)) for _, doc, version, _ in fresh],
                                         {int(doc): int(version) for _, doc, version, _ in fresh}, ask=True,
                                         decoys=[zlib.crc32("\n".join(unfound).encode()) + 1] if unfound else [])
            fresh = [r for r in fresh if (int(r[1]), int(r[2])) in readable]
            rows.extend(fresh)
            for key in asked:
                FROZEN.put(self.corpus, ("key", self.view, key), [r for r in fresh if r[0] == key])
        rows = [r for r in rows if collection is None or r[3] == collection]
        current = {int(doc): int(version) for _, doc, version, _ in rows}
        found = self.documents([(int(doc), int(version)) for _, doc, version, _ in rows], current)
        return {(v.collection, v.key): v for v in found.values()}

    def resolve_keys(self, names: Iterable[str], collection: str | None = None, *,
                     field: str = "key") -> dict[str, DocumentVersion]:
        """Readable current documents named the way a link names them (``deployment-guide`` finds
        ``deployment-guide.md``; ``clew.corpus.links.key_candidates``): name -> the document of its
        first candidate key that exists (in ``collection``, or in one readable collection: a name
        whose best key sits in several is an error naming them). A name that finds nothing is absent."""
        from clew.corpus.links import key_candidates

        wanted = {name: key_candidates(name) for name in names}
        found = self.current_by_keys([k for keys in wanted.values() for k in keys], collection)
        by_key: dict[str, list[DocumentVersion]] = {}
        for (_, key), doc in sorted(found.items()):
            by_key.setdefault(key, []).append(doc)
        out: dict[str, DocumentVersion] = {}
        for name, keys in wanted.items():
            docs = next((by_key[k] for k in keys if k in by_key), [])
            if len(docs) > 1:
                names = ", ".join(d.collection for d in docs)
                raise InputError(field, f"{name!r} names documents in several collections ({names}); name a "
                                        "collection in queries[]")
            if docs:
                out[name] = docs[0]
        return out

    def document_by_key(self, key: str) -> DocumentVersion | None:
        """The current version of the readable document with ``key``; ambiguity is an error."""
        found = list(self.current_by_keys([key]).values())
        if len(found) > 1:
            names = ", ".join(sorted(v.collection for v in found))
            raise InputError("document", f"key {key!r} names documents in several collections ({names}); "
                                         "name a collection")
        return found[0] if found else None
