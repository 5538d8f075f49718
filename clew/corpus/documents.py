"""The corpus as a set of documents: list them, show one's outline, retire some.

*Retiring* a document (``clew rm``, ``clew ingest --prune``) keeps every version it had, so
that evidence ids already handed out still resolve (marked ``superseded``), but leaves it
with no current version: it is no longer searched (its passages leave the BM25 index and
its vectors are no longer current), navigated by key, or a link target. It is done by
moving ``documents.current_version`` one past its last version, which has no row: every
reader already takes "current" as that join. Ingesting the key again later writes that
version and the document is back.

Every function reads through a :class:`~clew.corpus.reader.Scope`: a document the caller
may not read is neither listed, outlined nor removed (it reads as missing).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Literal

import duckdb
from pydantic import BaseModel, Field

from clew.budgets.bounds import MAX_LIST_ITEMS
from clew.corpus.reader import Scope
from clew.corpus.rewrite import FileCompaction, give_back_free_blocks
from clew.corpus.search.index import index_chunks
from clew.corpus.sql import execute, one
from clew.corpus.store import Corpus
from clew.corpus.structure import DocumentVersion
from clew.corpus.write_turn import in_turn
from clew.errors import InputError


class DocumentInfo(BaseModel):
    collection: str
    key: str
    version: int = Field(description="the current version (for a removed document: its last one)")
    status: Literal["current", "removed"]
    format: str
    title: str | None = None
    source: str | None = Field(None, description="the file it was read from")
    chunks: int
    tokens: int
    chars: int = Field(description="size of its normalised text")
    pages: int = Field(0, description="pages, for paged formats (PDF, DOCX with rendered page breaks)")
    ingested_at: str


class OutlineNode(BaseModel):
    id: str = Field(description="the node's evidence id (ev1:d:... for the document, ev1:s:... below)")
    kind: Literal["document", "section", "table"]
    heading: str | None
    level: int
    passages: int = Field(description="passages under it, its subsections' included")
    tokens: int
    children: list[OutlineNode] = Field(default_factory=list)


class RemoveReport(BaseModel):
    collection: str
    removed: list[str] = Field(default_factory=list, description="keys retired now")
    missing: list[str] = Field(default_factory=list, description="keys with no current readable document")
    file_compacted: FileCompaction | None = Field(None, description="the file rewritten without its free blocks, "
                                                  "as an ingest does, when the removal left more than 10% free")


_LIST_SQL = """
WITH last AS (SELECT document_id, max(version) AS version FROM document_versions GROUP BY document_id),
     sizes AS (SELECT document_id, version, count(*) AS chunks, sum(token_count) AS tokens FROM chunks
               GROUP BY document_id, version)
SELECT col.name, d.key, v.version, v.version = d.current_version, v.format, v.title, v.source, length(v.text),
       coalesce(s.chunks, 0), coalesce(s.tokens, 0), coalesce(len(p.starts), 0), strftime(v.ingested_at,
       '%Y-%m-%dT%H:%M:%SZ')
FROM documents d JOIN collections col ON col.id = d.collection_id
JOIN last ON last.document_id = d.id
JOIN document_versions v ON v.document_id = d.id AND v.version = last.version
LEFT JOIN sizes s ON s.document_id = d.id AND s.version = v.version
LEFT JOIN {pages} p ON p.document_id = d.id AND p.version = v.version
WHERE {predicate} {current}
ORDER BY col.name, d.key"""


def list_documents(scope: Scope, *, include_removed: bool = False) -> list[DocumentInfo]:
    """The readable documents of the scope (its collection, else every readable one), by key."""
    params: list[object] = []
    predicate = scope.predicate(params)
    has_pages = one(scope.cursor(),
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'page_offsets'")[0]
    pages = (
        "page_offsets" if has_pages else "(SELECT NULL::BIGINT AS document_id, NULL::INTEGER AS version, [] AS starts)"
    )
    sql = _LIST_SQL.format(predicate=predicate, pages=pages,
                           current="" if include_removed else "AND v.version = d.current_version")
    return [
        DocumentInfo(collection=c, key=k, version=v, status="current" if current else "removed", format=f, title=t,
                     source=s, chars=n, chunks=chunks, tokens=tokens, pages=pages, ingested_at=at)
        for c, k, v, current, f, t, s, n, chunks, tokens, pages, at in scope.cursor().execute(sql, params).fetchall()
    ]


def outline(scope: Scope, key: str) -> OutlineNode | None:
    """The section tree of the current readable version of ``key`` (or of the one document titled so:
    ``document_meant``) with passage counts, or None."""
    return outline_or_keys_meant(scope, key, near=False)[0]


def outline_or_keys_meant(scope: Scope, key: str, *, near: bool = True) -> tuple[OutlineNode | None, list[str]]:
    """``outline``, and where it finds no document, ``keys_meant`` (when ``near``): what ``clew outline`` and the
    REST outline answer, the readable titles read once for both (``document_or_keys_meant``)."""
    doc, meant = document_or_keys_meant(scope, key, near=near)
    return (None if doc is None else _tree(doc)), meant


def _tree(doc: DocumentVersion) -> OutlineNode:
    sk = doc.skeleton

    def build(ordinal: int) -> OutlineNode:
        node = sk.nodes[ordinal]
        under = sk.subtree(ordinal)
        return OutlineNode(
            id=doc.evidence_id if ordinal == 0 else doc.node_id(ordinal), kind=node.kind,  # type: ignore[arg-type]
            heading=node.heading, level=sk.depth(ordinal), passages=len(under),
            tokens=sum(sk.chunks[o].token_count for o in under),
            children=[build(child) for child in sk.children.get(ordinal, ())],
        )

    return build(0)


@in_turn
def remove_documents(corpus: Corpus, scope: Scope, keys: list[str]) -> RemoveReport:
    """Retire the current readable documents named by ``keys`` in the scope's collection."""
    if scope.collection is None:
        raise InputError("collection", "name the collection of the documents to remove")
    if not keys:
        raise InputError("key", "name at least one document key to remove")
    blank = next((index for index, key in enumerate(keys) if not key.strip()), None)
    if blank is not None:
        raise InputError("key", f"key {blank + 1} of {len(keys)} is blank: name a document key")
    if len(keys) > MAX_LIST_ITEMS:
        raise InputError("key", f"at most {MAX_LIST_ITEMS} keys at a time, got {len(keys)}")
    report = RemoveReport(collection=scope.collection)
    with corpus.readers.reading():  # a reader until it writes: a server's upload may rewrite the file meanwhile
        found = scope.current_by_keys(keys, scope.collection)
    targets = [(v.document_id, v.version) for v in found.values()]
    report.removed = sorted(v.key for v in found.values())
    report.missing = sorted(set(keys) - set(report.removed))
    if targets:
        with corpus.transaction() as cur:
            retire(cur, targets)
        report.file_compacted = give_back_free_blocks(corpus)[0]  # every write path leaves <= 10% free
    return report


def retire(cur: duckdb.DuckDBPyConnection, versions: list[tuple[int, int]]) -> None:  # a cursor in a transaction
    """Retire documents at their current ``(document_id, version)``: see the module docstring."""
    for doc_id, version in versions:
        execute(cur, "UPDATE documents SET current_version = ? WHERE id = ? AND current_version = ?",
                [version + 1, doc_id, version])
    index_chunks(cur, [], versions)
    # links that led into a retired document dangle again (and resolve if it comes back)
    execute(cur,
        """UPDATE edges SET dst = NULL, dst_kind = 'chunk'
           WHERE graph = 'links' AND dst IS NOT NULL AND dst IN (
               SELECT 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal FROM chunks c
               WHERE (c.document_id, c.version) IN (SELECT (unnest(?::BIGINT[]), unnest(?::INTEGER[]))))""",
        [[d for d, _ in versions], [v for _, v in versions]],
    )


SIMILAR_KEYS = 3
"""The most keys a surface offers for one it did not find (``clew outline``, ``clew rm``, ``clew slice``, REST's
``did_you_mean``, the tools that take a document key)."""

_TITLES_SQL = """
SELECT col.name, d.key, v.title FROM documents d JOIN collections col ON col.id = d.collection_id
JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
WHERE {predicate} ORDER BY col.name, d.key"""


def _plain(text: str) -> str:
    """A title or a typed name as they are compared: white space collapsed, any case."""
    return " ".join(text.split()).casefold()


def readable_titles(scope: Scope) -> list[tuple[str, str, str | None]]:
    """``(collection, key, title)`` of the current documents the scope may read, by collection and key."""
    params: list[object] = []
    sql = _TITLES_SQL.format(predicate=scope.predicate(params))
    return [(c, k, t) for c, k, t in scope.cursor().execute(sql, params).fetchall()]


def keys_meant(scope: Scope, given: str, rows: list[tuple[str, str, str | None]] | None = None) -> list[str]:
    """The keys of readable current documents a user most likely meant by ``given``: those of the documents
    ``titles_meant`` finds, then ``similar_keys``'s: what every surface offers for a key it did not find. Only
    documents the scope may read are looked at, so that neither a key nor a title of another is ever offered
    (``rows``: ``readable_titles(scope)`` where the caller has read them already)."""
    rows = readable_titles(scope) if rows is None else rows
    titles: dict[str, str | None] = {}
    for _, key, title in rows:
        titles.setdefault(key, title)
    meant = sorted(key for _, key in titles_meant(rows, given))
    return list(dict.fromkeys(meant + similar_keys(given, list(titles), titles)))[:SIMILAR_KEYS]


def document_meant(scope: Scope, given: str) -> DocumentVersion | None:
    """The current readable document whose key is ``given``; failing that, the one ``titles_meant`` finds
    (``clew outline 'Tags Overview'``, task S1; ``clew outline 'Overview of actions in GTK'`` for the page titled
    "Gtk – 4.0: Overview of actions in GTK", task S3) where it finds exactly one. For the commands that read
    (``outline``, ``slice``, ``read``, ``grep``); ``clew rm`` takes keys only."""
    return document_or_keys_meant(scope, given, near=False)[0]


def document_or_keys_meant(scope: Scope, given: str, *, near: bool = True) -> tuple[DocumentVersion | None, list[str]]:
    """``document_meant``, and where it finds none, ``keys_meant`` (when ``near``): the readable titles are read
    once for both (a key that names nothing read them twice: 8 ms against 1.8 ms for a key found)."""
    doc = scope.document_by_key(given)
    if doc is not None:
        return doc, []
    rows = readable_titles(scope) if given.strip() or near else []
    titled = titles_meant(rows, given) if given.strip() else []
    if len(titled) == 1:
        collection, key = titled[0]
        doc = next(iter(scope.current_by_keys([key], collection).values()), None)
    return doc, (keys_meant(scope, given, rows) if doc is None and near else [])


SITE_PART_TITLES = 3
"""A title's site part (``titles_meant``) is one at least this many titles of its collection share."""
SITE_PARTS_WEIGHED = 8
"""The most parts a title typed could be the site part of (``titles_meant``), those of the most titles first,
counted over their collection's titles: a word many titles end with ("Overview") names no page anyway."""
_SITE_PREFIX = re.compile(r"(?:\s[-\u2013\u2014|\u00b7\u00bb:]|:)\s\Z")
_SITE_SUFFIX = re.compile(r"\s(?:[-\u2013\u2014|\u00b7\u00bb:]\s|\()")
"""Where a site's part of a title ends or begins (on ``_plain`` text): a dash, a bar, a dot, a guillemet or a colon
set off by spaces, a colon and a space ("Gtk – 4.0: ", " - Rust", " | luxon", " — Python 3.11 documentation"), or
an opening parenthesis for a suffix (javadoc's " (Apache Commons Lang 3.12.0 API)")."""


def _rust_title(wanted: str) -> str:
    """rustdoc titles an item by its name and module ("HashMap in std::collections"); a Rust user types its path
    ("std::collections::HashMap"): the title that path reads as, or "" where ``wanted`` is no path."""
    module, separator, name = wanted.rpartition("::")
    return f"{name} in {module}" if separator and module and name and " " not in wanted else ""


def titles_meant(rows: list[tuple[str, str, str | None]], given: str) -> list[tuple[str, str]]:
    """``(collection, key)`` of the documents in ``rows`` (``readable_titles``) titled ``given`` (any case, white
    space collapsed); failing those, of the documents whose title is ``given`` with its site part, a prefix or suffix
    (``_SITE_PREFIX``, ``_SITE_SUFFIX``) at least ``SITE_PART_TITLES`` titles of its collection share: a title as
    it reads on the page, typed without the site's name (gtk4's "Gtk – 4.0: Overview of actions in GTK" typed
    "Overview of actions in GTK", "HashMap in std::collections - Rust" typed "HashMap in std::collections"; task S3;
    the HTML reader already drops some generators' parts: rustdoc's " - Rust"; rustdoc's "HashMap in
    std::collections" is also the title of the path "std::collections::HashMap", ``_rust_title``). A part no other
    titles share is the title's own ("SQLite Query Planning" is not "Query Planning": SQLite's titles share no part).
    The titles are read once; a part is counted over its collection's titles only where a title ends or begins with
    ``given`` after it (``SITE_PARTS_WEIGHED``)."""
    wanted = _plain(given)
    if not wanted:
        return []
    plain = [(collection, key, _plain(title)) for collection, key, title in rows if title]
    forms = {wanted, _rust_title(wanted)} - {""}  # a blank title is no rustdoc title of a non-path
    exact = [(collection, key) for collection, key, title in plain if title in forms]
    if exact:
        return exact
    parts: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (collection, site part) -> documents
    for collection, key, title in plain:
        if len(title) <= len(wanted):
            continue
        if title.endswith(wanted) and _SITE_PREFIX.search(title, 0, len(title) - len(wanted)):
            parts.setdefault((collection, title[: -len(wanted)]), []).append((collection, key))
        elif title.startswith(wanted) and _SITE_SUFFIX.match(title, len(wanted)):
            parts.setdefault((collection, title[len(wanted):]), []).append((collection, key))
    if not parts:
        return []
    titles: dict[str, list[str]] = {}
    for collection, _, title in plain:
        titles.setdefault(collection, []).append(title)
    meant = []
    for (collection, part), docs in sorted(parts.items(), key=lambda item: -len(item[1]))[:SITE_PARTS_WEIGHED]:
        prefix = not part.startswith(" ")  # a suffix begins with its separator's space, a prefix ends with it
        shared = sum(1 for title in titles[collection] if (title.startswith(part) if prefix else title.endswith(part)))
        if shared >= SITE_PART_TITLES:
            meant += docs
    return sorted(meant)


def similar_keys(given: str, keys: list[str], titles: Mapping[str, str | None] | None = None) -> list[str]:
    """The keys a user most likely meant by ``given``: the keys of documents titled ``given`` (in
    ``titles``, any case, white space collapsed: a page's title typed for its key, ``Tags Overview``
    for ``file.tags.html``, task S1); the same key in another case, or a key whose
    file name (or tail of folders) is ``given``, in any case (``Options.html`` for
    ``zsh/Options.html``); where ``given`` names no suffix, a key that is it with one
    (``nodejs/timers.html`` or ``timers.html`` for ``nodejs/timers``, ``timers``: a page's name as its
    title reads, task U8); failing those, a key in the same folder whose file name is ``given``'s misspelt
    (``scala/concurrent/Future.html`` for ``scala/concurrent/Futur.html``, task U13), then a key whose
    title is ``given`` misspelt (``Tags Overveiw``): difflib's ratio at least 0.8, the closest first;
    at most ``SIMILAR_KEYS``, in order."""
    titles = titles or {}
    wanted = given.strip("/").casefold()
    folder, _, wanted_name = wanted.rpartition("/")
    bare = "." not in wanted_name
    wanted_title = _plain(given)

    def means(key: str) -> bool:
        if bare and "." in (name := key.rpartition("/")[2]):
            key = key[: len(key) - len(name)] + name.rpartition(".")[0]
        return key == wanted or key.endswith("/" + wanted)

    plain_titles = {key: _plain(title) for key, title in titles.items() if title}
    titled = sorted(key for key in keys if wanted_title and plain_titles.get(key) == wanted_title)
    meant = titled + sorted(key for key in keys if key not in titled and means(key.casefold()))
    if meant or not wanted_name:
        return meant[:SIMILAR_KEYS]
    siblings: dict[str, str] = {}
    by_title: dict[str, str] = {}
    for key in sorted(keys):
        key_folder, _, name = key.casefold().rpartition("/")
        if key_folder == folder:
            siblings.setdefault(name, key)
        if key in plain_titles:
            by_title.setdefault(plain_titles[key], key)
    close = [siblings[name] for name in difflib.get_close_matches(wanted_name, siblings, SIMILAR_KEYS, 0.8)]
    return close or [by_title[t] for t in difflib.get_close_matches(wanted_title, by_title, SIMILAR_KEYS, 0.8)]
