"""BM25 statistics: chunk count, mean chunk length and document frequencies, for a scope's principal.

Corpus-wide for a principal that may read every document; otherwise counted over the live chunks
that principal may read (its collections and row filter; a request's own narrowing does not
change them), so that rows it cannot read move neither its scores nor its time: a word only in
denied rows is looked up exactly like a word nowhere. Counted from the postings held in memory
when a read-only corpus holds them (``clew.corpus.search.postings``), else in SQL; both are
cached until the next write (``FROZEN``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from clew.corpus.reader import Scope
from clew.corpus.search.postings import MemoryPostings, RowMask, frequencies, loaded_postings, reader_rows
from clew.corpus.sql import one
from clew.corpus.structure import FROZEN, int_list, str_list


@dataclass(frozen=True, slots=True)
class TermStats:
    live: int
    """Live (searchable) chunks."""
    dead: int
    """Rows of retired chunks still in ``search_docs`` (until the next compaction)."""
    avgdl: float
    terms: dict[str, tuple[int, int, int | None]]
    """term -> (term_id, df, dense column or None), for the asked terms that occur."""
    scoped: bool = False
    """Counted over what a restricted principal may read (not corpus-wide)."""

    def idf(self, df: int) -> float:
        return math.log(1 + (self.live - df + 0.5) / (df + 0.5))


def term_stats(scope: Scope, terms: Iterable[str], *, narrowed: bool = False) -> TermStats:
    """The statistics the scope's principal is scored with (see the module docstring). ``narrowed``:
    counted over what ``scope`` itself reads, its collection and filter too (``clew.agent.absent``
    asks whether the collection a question was asked of holds a word, not the whole corpus)."""
    terms = set(terms)
    stats = corpus_stats(scope, terms)
    readers = scope if narrowed else Scope(scope.corpus, scope.principal)  # by default not the caller's narrowing
    if readers.reads_everything():
        return stats
    index = loaded_postings(scope.corpus)
    mask = None if index is None else _rows(readers, index)
    if index is None or mask is None:
        return scoped_stats(readers, stats, terms)
    return held_scoped_stats(index, mask, stats, terms)


def held_scoped_stats(index: MemoryPostings, mask: RowMask, corpus: TermStats, terms: set[str]) -> TermStats:
    """What :func:`scoped_stats` counts, counted over the postings held in memory under a principal's rows."""
    asked = sorted(terms)  # every asked term is counted, indexed or not: a word of denied rows costs a word nowhere's
    counts = frequencies(index, mask, [corpus.terms[t][0] if t in corpus.terms else None for t in asked])
    shown = {t: (corpus.terms[t][0], df, corpus.terms[t][2]) for t, df in zip(asked, counts, strict=True) if df > 0}
    return TermStats(mask.live, corpus.dead, mask.avgdl, shown, scoped=True)


def reader_mask(scope: Scope, index: MemoryPostings) -> RowMask | None:
    """A restricted principal's rows among the held ones (None for a principal that reads everything)."""
    return _rows(Scope(scope.corpus, scope.principal), index)


def _rows(readers: Scope, index: MemoryPostings) -> RowMask | None:
    """The held rows ``readers`` may read (None where it reads everything)."""
    if readers.reads_everything():
        return None
    params: list[Any] = []
    allowed = allowed_documents_sql(readers, params, [])
    return None if allowed is None else reader_rows(readers, index, allowed, params)


def scoped_stats(readers: Scope, corpus: TermStats, terms: set[str]) -> TermStats:
    """``corpus`` recounted over the live chunks ``readers`` may read, cached per view until the
    next write. The frequency query runs whenever a term is not cached, with ids or without
    (a term of denied rows only, and one that occurs nowhere, cost the same)."""
    params: list[Any] = []
    allowed = allowed_documents_sql(readers, params, [])
    base = FROZEN.get(readers.corpus, ("scope_stats", readers.view))
    if base is None:
        base = (
            readers.cursor()
            .execute(
                f"SELECT count(*), coalesce(sum(length), 0) FROM search_docs s WHERE s.live AND s.document_id IN "
                f"({allowed})",
                params,
            )
            .fetchone()
        )
        FROZEN.put(readers.corpus, ("scope_stats", readers.view), base)
    live, total = int(base[0]), int(base[1])
    found: dict[str, int] = {}
    asked = []
    for term in terms:
        known = FROZEN.get(readers.corpus, ("scope_df", readers.view, term))
        if known is None:
            asked.append(term)
        else:
            found[term] = known
    if asked:
        ids = {corpus.terms[t][0]: t for t in asked if t in corpus.terms}
        rows = dict(readers.cursor().execute(
            f"""SELECT p.term_id, count(*) FROM search_postings p JOIN search_docs s ON s.chunk_id = p.chunk_id
                WHERE p.term_id IN ({int_list(sorted(ids))}) AND s.live AND s.document_id IN ({allowed})
                GROUP BY p.term_id""", params).fetchall())
        for term in asked:
            df = int(rows.get(corpus.terms[term][0], 0)) if term in corpus.terms else 0
            FROZEN.put(readers.corpus, ("scope_df", readers.view, term), df)
            found[term] = df
    shown = {t: (corpus.terms[t][0], df, corpus.terms[t][2]) for t, df in found.items() if df > 0}
    return TermStats(live, corpus.dead, (total / live) if live else 1.0, shown, scoped=True)


def corpus_stats(scope: Scope, terms: Iterable[str]) -> TermStats:
    """Corpus statistics and the asked terms' rows, cached until the next write (``FROZEN``)."""
    cur = None
    stats = FROZEN.get(scope.corpus, ("search_stats",))
    if stats is None:
        cur = scope.cursor()
        stats = one(cur,
            "SELECT live_chunks, total_length, (SELECT count(*) FROM search_docs) FROM search_stats")
        FROZEN.put(scope.corpus, ("search_stats",), stats)
    live, total_length, total_rows = stats
    vocabulary: dict[str, tuple[int, int, int | None]] | Literal[False] | None = (
        FROZEN.get(scope.corpus, ("vocabulary",)) if scope.corpus.read_only else False)
    if vocabulary is None:
        scope.corpus.uses["terms"] += 1
    if vocabulary is None and scope.corpus.uses["terms"] > VOCABULARY_WARM_QUERIES:
        cur = cur or scope.cursor()
        size = one(cur, "SELECT count(*) FROM search_terms WHERE df > 0")[0]
        vocabulary = False  # too large: each query looks its terms up
        if size <= VOCABULARY_IN_MEMORY:
            vocabulary = {term: (int(term_id), int(df), dense_col) for term, term_id, df, dense_col in cur.execute(
                "SELECT term, term_id, df, dense_col FROM search_terms WHERE df > 0").fetchall()}
        FROZEN.put(scope.corpus, ("vocabulary",), vocabulary)
    if isinstance(vocabulary, dict):  # else (too large, read-write, or not loaded yet) look the terms up
        found = {term: vocabulary[term] for term in set(terms) if term in vocabulary}
        return TermStats(int(live or 0), max(0, int(total_rows or 0) - int(live or 0)),
                         (total_length / live) if live else 1.0, found)
    found = {}
    asked = []
    for term in set(terms):
        known = FROZEN.get(scope.corpus, ("term", term))
        if known is None:
            asked.append(term)
        elif known != ():
            found[term] = known
    if asked:
        cur = cur or scope.cursor()
        rows = {
            term: (int(term_id), int(df), dense_col)
            for term, term_id, df, dense_col in cur.execute(
                f"SELECT term, term_id, df, dense_col FROM search_terms WHERE term IN ({str_list(sorted(asked))}) "
                f"AND df > 0"
            ).fetchall()
        }  # literals: binding a list costs more than the lookup itself
        for term in asked:
            FROZEN.put(scope.corpus, ("term", term), rows.get(term, ()))
        found.update(rows)
    return TermStats(
        int(live or 0), max(0, int(total_rows or 0) - int(live or 0)), (total_length / live) if live else 1.0, found
    )


VOCABULARY_IN_MEMORY = 250_000
"""A read-only corpus with a vocabulary up to this many terms holds it in memory (about 50 MB at
the limit; 241k terms for a million generated chunks); otherwise each query looks its terms up
(and keeps them until the next write)."""
VOCABULARY_WARM_QUERIES = 2
"""Statistics asked before the vocabulary is loaded: the first queries look their terms up, so that a
one-off search (``clew search``) reads its own terms, not every term of the corpus."""


def allowed_documents_sql(scope: Scope, params: list[Any], exclude_document_keys: list[str]) -> str | None:
    """Current document versions the scope may read, minus the excluded keys; None for all."""
    if not exclude_document_keys and scope.reads_everything():
        return None  # live chunks are exactly the current versions, and all are readable here
    predicate = scope.predicate(params)
    excluded = ""
    if exclude_document_keys:
        excluded = " AND d.key NOT IN (SELECT unnest(?::VARCHAR[]))"
        params.append(list(exclude_document_keys))
    return f"""SELECT d.id FROM documents d
               JOIN collections col ON col.id = d.collection_id
               JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
               WHERE {predicate}{excluded}"""

