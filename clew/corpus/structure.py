"""The structure of one document version, held in memory, and the caches behind it.

Navigation moves inside one document version: up to a section, along to the next passage,
into a table. It needs the version's structure tree (``nodes``), the spans of its passages
(``chunks``) and its text. A version never changes once written, so this *skeleton* is read
once, with indexed lookups, and kept in a per-corpus cache bounded by versions and by
characters of text. Chunk bodies are slices of the version text (ingestion writes
``body = text[start:end]``), so the skeleton can answer with passages without reading
``chunks.body`` again.

Permissions are not in a skeleton. What a *view* (collections, row filter, caller filter)
may read is decided in SQL by ``clew.corpus.reader.Scope``; because a version's fields and
collection never change either, a positive decision is kept per view (``ReadableCache``);
a denied version and a missing one are kept alike as absent until the next write
(``FROZEN``), so that neither answers faster than the other. Which
version is current can change, and is asked on every call, except on a corpus opened
read-only, which no one can write while it is open (``FrozenCache``).

Why the SQL looks the way it does: DuckDB answers ``WHERE col = ?`` with an index scan only
when ``col`` has a single-column index and it is the scan's *only* filter (the composite
primary keys are never used for scans, and a second pushed-down filter turns the scan into a
sequential one). So every lookup filters on one indexed column inside a ``MATERIALIZED`` CTE
and applies the rest outside it. ``tests/navigation/test_indexes.py`` checks the plans.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, Literal, NamedTuple, TypeVar

import duckdb

from clew.corpus import ids


class NodeInfo(NamedTuple):  # a named tuple: a first touch makes one per node (a frozen dataclass took 4x as long)
    ordinal: int
    parent: int | None
    kind: str  # document | section | table
    heading: str | None
    heading_path: tuple[str, ...]
    start: int
    end: int
    first_chunk: int | None
    last_chunk: int | None


class ChunkInfo(NamedTuple):  # a named tuple, as NodeInfo
    ordinal: int
    start: int
    end: int
    kind: str  # text | table
    node: int
    """Innermost structure node: the chunk's table, else its first section."""
    sections: tuple[int, ...]
    table_node: int | None
    header: str
    token_count: int


@dataclass(frozen=True, eq=False)
class Skeleton:
    """The immutable structure and text of one document version (no permissions in it)."""

    document_id: int
    version: int
    text: str = field(repr=False)
    nodes: tuple[NodeInfo, ...] = field(repr=False)
    chunks: tuple[ChunkInfo, ...] = field(repr=False)
    starts: tuple[int, ...] = field(repr=False)
    ends: tuple[int, ...] = field(repr=False)
    children: dict[int, tuple[int, ...]] = field(repr=False)
    """Node ordinal -> its child nodes, in document order."""
    own: frozenset[int] = field(repr=False)
    """Sections holding text of some passage (a section that is only a heading holds none)."""
    pages: tuple[int, ...] = field(default=(), repr=False)
    """Offset where each page begins (page 1 first), for paged formats (PDF); else empty."""
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """Values derived from this immutable skeleton, computed once on demand (e.g. index terms)."""

    @classmethod
    def build(
        cls, document_id: int, version: int, text: str, nodes: list[NodeInfo], chunks: list[ChunkInfo],
        pages: tuple[int, ...] = (),
    ) -> Skeleton:
        children: dict[int, list[int]] = {}
        for node in nodes:
            if node.parent is not None:
                children.setdefault(node.parent, []).append(node.ordinal)
        return cls(document_id, version, text, tuple(nodes), tuple(chunks), tuple(c.start for c in chunks),
                   tuple(c.end for c in chunks), {k: tuple(v) for k, v in children.items()},
                   frozenset(s for c in chunks for s in c.sections), tuple(pages))

    def page_numbers(self, ordinal: int) -> list[int]:
        """The pages passage ``ordinal`` spans (empty for formats without pages)."""
        chunk = self.chunks[ordinal]
        if not self.pages:
            return []
        return pages_of(self.pages, chunk.start, chunk.end)

    def body(self, ordinal: int) -> str:
        chunk = self.chunks[ordinal]
        return self.text[chunk.start:chunk.end]

    def display_text(self, ordinal: int) -> str:
        """What a reader sees: repeated table header rows, then the body (= ``Passage.text``)."""
        chunk = self.chunks[ordinal]
        body = self.text[chunk.start:chunk.end]
        return f"{chunk.header}\n{body}" if chunk.header else body

    def heading_path(self, ordinal: int) -> tuple[str, ...]:
        """A passage's heading path: that of the first section it spans (as ingestion stores it)."""
        return self.nodes[self.chunks[ordinal].sections[0]].heading_path

    def subtree(self, node: int) -> tuple[int, ...]:
        """Ordinals of the passages under a node (itself or any descendant is their innermost node)."""
        under = self.memo.get("subtree")
        if under is None:
            lists: dict[int, list[int]] = {}
            for chunk in self.chunks:
                at: int | None = chunk.node
                while at is not None:
                    lists.setdefault(at, []).append(chunk.ordinal)
                    at = self.nodes[at].parent
            under = self.memo["subtree"] = {k: tuple(v) for k, v in lists.items()}
        found: tuple[int, ...] = under.get(node, ())
        return found

    def depth(self, node: int) -> int:
        """Levels between the document root (0) and a node."""
        level, at = 0, self.nodes[node].parent
        while at is not None:
            level, at = level + 1, self.nodes[at].parent
        return level


@dataclass(frozen=True, slots=True)
class VersionMeta:
    """What never changes about a version besides its structure."""

    collection_id: int
    collection: str
    key: str
    fields: dict[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True, eq=False)
class DocumentVersion:
    """A version the scope may read, with its structure. Only ``Scope`` methods make one."""

    meta: VersionMeta
    current_version: int
    skeleton: Skeleton

    @property
    def document_id(self) -> int:
        return self.skeleton.document_id

    @property
    def version(self) -> int:
        return self.skeleton.version

    @property
    def key(self) -> str:
        return self.meta.key

    @property
    def collection(self) -> str:
        return self.meta.collection

    @property
    def superseded(self) -> bool:
        return self.version < self.current_version

    @property
    def version_status(self) -> Literal["current", "superseded"]:
        return "superseded" if self.superseded else "current"

    @property
    def evidence_id(self) -> str:
        return ids.document_id(self.document_id, self.version)

    def chunk_id(self, ordinal: int) -> str:
        return ids.chunk_id(self.document_id, self.version, ordinal)

    def node_id(self, ordinal: int) -> str:
        return ids.node_id(self.document_id, self.version, ordinal)


K = TypeVar("K")
V = TypeVar("V")


class _Lru(Generic[K, V]):
    def __init__(self, max_entries: int, weight: Any = None, max_weight: int = 0) -> None:
        self.max_entries = max_entries
        self.weight = weight
        self.max_weight = max_weight
        self.total = 0
        self.entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self.entries.get(key)
        if value is not None:
            self.entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        if key in self.entries:
            return
        self.entries[key] = value
        self.total += self.weight(value) if self.weight else 0
        while len(self.entries) > 1 and (
            len(self.entries) > self.max_entries or (self.weight and self.total > self.max_weight)
        ):
            _, dropped = self.entries.popitem(last=False)
            self.total -= self.weight(dropped) if self.weight else 0


class SkeletonCache:
    """Per corpus: (document, version) -> Skeleton, least recently used first out."""

    def __init__(self, max_versions: int = 4096, max_chars: int = 64 * 2**20) -> None:
        self._lock = threading.Lock()
        self._per_corpus: weakref.WeakKeyDictionary[Any, _Lru[tuple[int, int], Skeleton]] = weakref.WeakKeyDictionary()
        self.max_versions = max_versions
        self.max_chars = max_chars

    def get(self, corpus: Any, key: tuple[int, int]) -> Skeleton | None:
        with self._lock:
            lru = self._per_corpus.get(corpus)
            return lru.get(key) if lru is not None else None

    def put(self, corpus: Any, skeleton: Skeleton) -> None:
        with self._lock:
            lru = self._per_corpus.get(corpus)
            if lru is None:
                lru = self._per_corpus[corpus] = _Lru(self.max_versions, lambda s: len(s.text), self.max_chars)
            lru.put((skeleton.document_id, skeleton.version), skeleton)

    def recent(self, corpus: Any, limit: int) -> list[Skeleton]:
        """Up to ``limit`` of the versions kept for ``corpus``, the most recently used first."""
        with self._lock:
            lru = self._per_corpus.get(corpus)
            return [] if lru is None else list(itertools.islice(reversed(lru.entries.values()), limit))


class ReadableCache:
    """Per corpus and view: versions the view was allowed to read, with their metadata."""

    def __init__(self, max_versions: int = 65536) -> None:
        self._lock = threading.Lock()
        self._per_corpus: weakref.WeakKeyDictionary[Any, _Lru[tuple[str, int, int], VersionMeta]] = (
            weakref.WeakKeyDictionary())
        self.max_versions = max_versions

    def get(self, corpus: Any, view: str, key: tuple[int, int]) -> VersionMeta | None:
        with self._lock:
            lru = self._per_corpus.get(corpus)
            return lru.get((view, *key)) if lru is not None else None

    def put(self, corpus: Any, view: str, key: tuple[int, int], meta: VersionMeta) -> None:
        with self._lock:
            lru = self._per_corpus.get(corpus)
            if lru is None:
                lru = self._per_corpus[corpus] = _Lru(self.max_versions)
            lru.put((view, *key), meta)


class FrozenCache:
    """Per corpus: answers that change only through a write (current versions, edges).

    DuckDB lets no other process write a file while this one holds it (read-only or
    read-write), so an answer stays true until this process commits a write: a read-only
    corpus never invalidates, a read-write one whenever ``corpus.generation`` moves.
    """

    def __init__(self, max_entries: int = 262144) -> None:
        self._lock = threading.Lock()
        self._per_corpus: weakref.WeakKeyDictionary[Any, tuple[int, _Lru[Any, Any]]] = weakref.WeakKeyDictionary()
        self.max_entries = max_entries

    def get(self, corpus: Any, key: Any) -> Any:
        with self._lock:
            entry = self._per_corpus.get(corpus)
            if entry is None or entry[0] != corpus.generation:
                return None
            return entry[1].get(key)

    def put(self, corpus: Any, key: Any, value: Any) -> None:
        with self._lock:
            entry = self._per_corpus.get(corpus)
            if entry is None or entry[0] != corpus.generation:
                entry = self._per_corpus[corpus] = (corpus.generation, _Lru(self.max_entries))
            entry[1].put(key, value)


SKELETONS = SkeletonCache()
READABLE = ReadableCache()
FROZEN = FrozenCache()


# Values of the hot lookups are written into the SQL as literals rather than bound: binding
# costs DuckDB's client about 0.1 ms per parameter where pandas is not installed (it tries to
# import it for each one), a quarter of an indexed lookup. Literals are made safe by
# construction (``int()``; strings with their quotes doubled, the only escape a standard SQL
# string literal has).


def int_list(values: Any) -> str:
    """Integers as SQL literals, plus -1 (no document has it): the -1 keeps a list of
    consecutive ids from being rewritten into a range, which DuckDB reads by a full scan."""
    return ", ".join([*(str(int(v)) for v in values), "-1"])


def str_list(values: Any) -> str:
    """Strings as SQL literals (``NULL`` for none, which matches nothing)."""
    quoted = ["'" + str(v).replace("'", "''") + "'" for v in values]
    return ", ".join(quoted) if quoted else "NULL"


# -- SQL ------------------------------------------------------------------------------------

# format: ids (int_list); parameters: the scope predicate's
VERSIONS_SQL = """WITH v AS MATERIALIZED (SELECT document_id, version, fields FROM document_versions
                            WHERE document_id IN ({ids})),
     d AS MATERIALIZED (SELECT id, collection_id, key, current_version FROM documents WHERE id IN ({ids}))
SELECT v.document_id, v.version, col.id, col.name, d.key, d.current_version, v.fields
FROM v JOIN d ON d.id = v.document_id JOIN collections col ON col.id = d.collection_id
WHERE {predicate}"""
# format: ids (int_list)
CURRENT_SQL = "SELECT id, current_version FROM documents WHERE id IN ({ids})"
# format: keys (str_list)
KEYS_SQL = """WITH d AS MATERIALIZED (SELECT id, collection_id, key, current_version FROM documents
                            WHERE key IN ({keys}))
SELECT d.key, d.id, d.current_version, col.name FROM d JOIN collections col ON col.id = d.collection_id"""
# The structure of versions in one statement (one per table before): a version row (its text and
# format; with VERSIONS_WITH_STRUCTURE_SQL also VERSIONS_SQL's columns), then a row per node and per
# chunk, all of one shape (``kind`` of row first: 0 version, 1 node, 2 chunk). Each table is read
# through its document index inside its own CTE; versions are matched after. No aggregation:
# DuckDB's GROUP BY costs more than the three statements it would replace.
_NODE_AND_CHUNK_ROWS = """n AS MATERIALIZED (SELECT document_id, version, ordinal, parent, kind, heading, heading_path,
                              start_offset, end_offset, first_chunk, last_chunk FROM nodes
                       WHERE document_id IN ({ids})),
     c AS MATERIALIZED (SELECT document_id, version, ordinal, start_offset, end_offset, kind, node, sections,
                              table_node, header, token_count FROM chunks WHERE document_id IN ({ids}))"""
_VERSION_ROW = """0, v.document_id, v.version, NULL::INTEGER, {a}::BIGINT, {b}::BIGINT, NULL::BIGINT, NULL::BIGINT,
       NULL::BIGINT, v.format::VARCHAR, v.text::VARCHAR, NULL::VARCHAR[], NULL::INTEGER[], {m1}::VARCHAR,
       {m2}::VARCHAR, {m3}::VARCHAR"""
_REST = """UNION ALL
SELECT 1, document_id, version, ordinal, parent, start_offset, end_offset, first_chunk, last_chunk, kind, heading,
       heading_path, NULL, NULL, NULL, NULL FROM n
UNION ALL
SELECT 2, document_id, version, ordinal, node, start_offset, end_offset, table_node, token_count, kind, header, NULL,
       sections, NULL, NULL, NULL FROM c"""
# format: ids (int_list)
STRUCTURE_SQL = f"""WITH v AS MATERIALIZED (SELECT document_id, version, text, format FROM document_versions
                            WHERE document_id IN ({{ids}})),
     {_NODE_AND_CHUNK_ROWS}
SELECT {_VERSION_ROW.format(a="NULL", b="NULL", m1="NULL", m2="NULL", m3="NULL")} FROM v
{_REST}"""
# format: ids (int_list), predicate (the scope's); the version row carries VERSIONS_SQL's columns:
# collection id and current version (a, b), collection name, key and fields (m1, m2, m3)
VERSIONS_WITH_STRUCTURE_SQL = f"""WITH v AS MATERIALIZED (SELECT document_id, version, fields, text, format
                            FROM document_versions WHERE document_id IN ({{ids}})),
     d AS MATERIALIZED (SELECT id, collection_id, key, current_version FROM documents WHERE id IN ({{ids}})),
     {_NODE_AND_CHUNK_ROWS}
SELECT {_VERSION_ROW.format(a="col.id", b="d.current_version", m1="col.name", m2="d.key", m3="v.fields")}
FROM v JOIN d ON d.id = v.document_id JOIN collections col ON col.id = d.collection_id
WHERE {{predicate}}
{_REST}"""
PAGES_SQL = """WITH p AS MATERIALIZED (SELECT document_id, version, starts FROM page_offsets WHERE document_id IN
                ({ids}))
SELECT * FROM p"""
PAGED_FORMATS = frozenset({"pdf", "docx"})


def load_skeletons(cur: duckdb.DuckDBPyConnection, wanted: list[tuple[int, int]]) -> dict[tuple[int, int], Skeleton]:
    """Read the structure of several versions at once (one statement; two when one is paged);
    missing ones are absent."""
    wanted_set = {(int(d), int(v)) for d, v in wanted}
    if not wanted_set:
        return {}
    rows = cur.execute(STRUCTURE_SQL.format(ids=int_list(sorted({d for d, _ in wanted_set})))).fetchall()
    return skeletons_of(cur, rows, wanted_set)


def skeletons_of(cur: duckdb.DuckDBPyConnection, rows: list[tuple[Any, ...]],
                 wanted: set[tuple[int, int]]) -> dict[tuple[int, int], Skeleton]:
    """The skeletons of the ``wanted`` versions among rows of ``STRUCTURE_SQL``'s shape (a version
    without its version row is left out); paged versions' page offsets take one more lookup."""
    texts: dict[tuple[int, int], str] = {}
    nodes: dict[tuple[int, int], list[NodeInfo]] = {}
    chunks: dict[tuple[int, int], list[ChunkInfo]] = {}
    paged: set[int] = set()
    for part, d, v, o, a, b, c, e, f, kind, text, path, sections, *_ in rows:
        key = (d, v)
        if key not in wanted:
            continue
        if part == 0:
            texts[key] = text
            if kind in PAGED_FORMATS:
                paged.add(d)
        elif part == 1:
            nodes.setdefault(key, []).append(NodeInfo(o, a, kind, text, tuple(path), b, c, e, f))
        else:
            chunks.setdefault(key, []).append(ChunkInfo(o, b, c, kind, a, tuple(sections), e, text, f))
    pages: dict[tuple[int, int], tuple[int, ...]] = {}
    if paged:  # only paged formats have page offsets (and a version-1 file has no such table)
        for d, v, starts in cur.execute(PAGES_SQL.format(ids=int_list(sorted(paged)))).fetchall():
            pages[(d, v)] = tuple(starts)
    by_ordinal = attrgetter("ordinal")
    return {key: Skeleton.build(key[0], key[1], text, sorted(nodes.get(key, ()), key=by_ordinal),
                                sorted(chunks.get(key, ()), key=by_ordinal), pages.get(key, ()))
            for key, text in texts.items()}


def pages_of(pages: Sequence[int], start: int, end: int) -> list[int]:
    """The 1-based pages that the span ``[start, end)`` of a rendered text overlaps (empty pages,
    which begin where the next one does, hold nothing and are never named)."""
    if not pages or end <= start:
        return []
    first = max(bisect_right(pages, start), 1)  # the page holding ``start`` (1-based)
    last = max(bisect_left(pages, end), 1)  # the last page beginning before ``end``
    return [n for n in range(first, last + 1) if n == len(pages) or pages[n] > pages[n - 1]]
