"""BM25 queries over the inverted index.

Scores are Okapi BM25 (``k1 = 1.2``, ``b = 0.75``, Lucene's idf) over the indexed text of a
chunk (heading path + text). Statistics (chunk count, mean length, document frequencies) are
corpus-wide for a principal that may read every document, and otherwise counted over the live
chunks that principal may read (``scoped_stats``), so that rows it cannot read move neither its
scores nor its time: a word only in denied rows is looked up exactly like a word nowhere.
On a corpus whose postings are held in memory a restricted principal's statistics are counted
there and its partial scores repriced at its mean length (``clew.corpus.search.postings``);
otherwise in SQL. Sparse terms are scored from the
posting lists (sorted by term, so DuckDB's zone maps read only the query's terms); dense
terms from their columns in ``search_docs``. The caller's scope (principal, collection,
filter) and the exclusions are applied before the limit, so the top ``limit`` are the best
*readable* chunks. One statement per query, by the cheapest exact route:

- a read-only corpus small enough: in memory (``clew.corpus.search.postings``);
- a scope that reads every document: chunk ids ranked from the postings first, and only the
  best joined to ``search_docs`` (``_top_first``); rare and common terms together try a
  MaxScore bound first (``_bounded``);
- otherwise: every matching chunk joined to the documents the scope may read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any, Literal

from clew.corpus.reader import Scope
from clew.corpus.search.postings import (
    MemoryPostings,
    RowMask,
    frequencies,
    loaded_postings,
    memory_postings,
    memory_search,
    reader_rows,
)
from clew.corpus.search.tokenize import tokenize
from clew.corpus.search.index import document_title, index_text
from clew.corpus.structure import FROZEN, DocumentVersion, int_list, str_list
from clew.corpus.sql import one

K1 = 1.2
B = 0.75


@dataclass(frozen=True, slots=True)
class ScoredChunk:
    document_id: int
    version: int
    ordinal: int
    score: float


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


def term_stats(scope: Scope, terms: Iterable[str]) -> TermStats:
    """The statistics the scope's principal is scored with (see the module docstring)."""
    terms = set(terms)
    stats = corpus_stats(scope, terms)
    readers = Scope(scope.corpus, scope.principal)  # the principal's rows, not the caller's narrowing
    if readers.reads_everything():
        return stats
    index = loaded_postings(scope.corpus)
    return scoped_stats(readers, stats, terms) if index is None else held_scoped_stats(readers, index, stats, terms)


def held_scoped_stats(readers: Scope, index: MemoryPostings, corpus: TermStats, terms: set[str]) -> TermStats:
    """What :func:`scoped_stats` counts, counted over the postings held in memory."""
    params: list[Any] = []
    allowed = allowed_documents_sql(readers, params, [])
    assert allowed is not None  # noqa: S101  (a restricted principal)
    mask = reader_rows(readers, index, allowed, params)
    asked = sorted(terms)  # every asked term is counted, indexed or not: a word of denied rows costs a word nowhere's
    counts = frequencies(index, mask, [corpus.terms[t][0] if t in corpus.terms else None for t in asked])
    shown = {t: (corpus.terms[t][0], df, corpus.terms[t][2]) for t, df in zip(asked, counts, strict=True) if df > 0}
    return TermStats(mask.live, corpus.dead, mask.avgdl, shown, scoped=True)


def _reader(scope: Scope, index: MemoryPostings) -> RowMask | None:
    """A restricted principal's rows among the held ones (None for a principal that reads everything)."""
    readers = Scope(scope.corpus, scope.principal)
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
TOP_FIRST_SLACK = 10_000
BOUNDED_CANDIDATES = 200
"""Chunks scored in full when a query mixes rare and common terms (see ``_bounded``)."""
"""Retired plus excluded chunks up to which a full-corpus query ranks chunk ids before joining."""


def _num(value: float) -> str:
    # literals without the cast become DECIMAL, which makes the arithmetic ~50x slower
    return f"{value!r}::DOUBLE"


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


def bm25_search(
    scope: Scope,
    query: str,
    *,
    limit: int,
    exclude_chunks: list[tuple[int, int, int]] = (),  # type: ignore[assignment]
    exclude_document_keys: list[str] = (),  # type: ignore[assignment]
) -> list[ScoredChunk]:
    terms = sorted(set(tokenize(query)))
    if not terms:
        return []
    stats = term_stats(scope, terms)
    if not stats.live or not stats.terms:
        return []
    whole = corpus_stats(scope, ()) if stats.scoped else stats  # the index holds corpus-wide partial scores
    index = memory_postings(scope.corpus, whole.avgdl, K1, B)
    if index is not None:  # a read-only corpus small enough to score in memory, with the same rules
        params: list[Any] = []
        allowed = allowed_documents_sql(scope, params, list(exclude_document_keys))
        weights = [(term_id, stats.idf(df)) for term_id, df, _ in (stats.terms[t] for t in sorted(stats.terms))]
        return [ScoredChunk(*row) for row in memory_search(scope, index, weights, int(limit), list(exclude_chunks),
                                                            allowed, params, _reader(scope, index))]
    cur = scope.cursor()
    avgdl = stats.avgdl
    sparse: list[tuple[int, float]] = []
    dense: list[tuple[int, float]] = []
    for term_id, df, dense_col in (stats.terms[t] for t in sorted(stats.terms)):
        idf = stats.idf(df)
        (dense if dense_col is not None else sparse).append((dense_col if dense_col is not None else term_id, idf))
    params = []
    allowed = allowed_documents_sql(scope, params, list(exclude_document_keys))
    if allowed is None and stats.dead + len(exclude_chunks) <= TOP_FIRST_SLACK:
        if sparse and dense:
            found = _bounded(cur, stats, sparse, dense, limit, list(exclude_chunks))
            if found is not None:
                return found
        return _top_first(cur, stats, sparse, dense, limit, list(exclude_chunks))
    filters = "s.live" if allowed is None else f"s.live AND s.document_id IN ({allowed})"
    if exclude_chunks:
        filters += EXCLUDED_CHUNKS
        params.extend([[c[0] for c in exclude_chunks], [c[1] for c in exclude_chunks], [c[2] for c in exclude_chunks]])
    norm = _norm(avgdl)
    ctes = [_sparse_cte(sparse, avgdl)] if sparse else []
    if dense:
        dense_score = " + ".join(f"{_num(idf)} * d{col} * {_num(K1 + 1)} / (d{col} + nrm)" for col, idf in dense)
        ctes.append(
            f"""dn AS (SELECT chunk_id, document_id, version, ordinal, {dense_score} AS score
                FROM (SELECT s.*, {norm} AS nrm FROM search_docs s WHERE {filters}
                      AND ({" OR ".join(f"s.d{col} > 0" for col, _ in dense)})))"""
        )
        source = "dn LEFT JOIN sp ON sp.chunk_id = dn.chunk_id" if sparse else "dn"
        score = "dn.score + coalesce(sp.score, 0)" if sparse else "dn.score"
        select = f"SELECT dn.document_id, dn.version, dn.ordinal, {score} AS score, dn.chunk_id FROM {source}"
        if sparse:
            # chunks holding only sparse terms of the query
            select += f""" UNION ALL SELECT s.document_id, s.version, s.ordinal, sp.score, s.chunk_id
                FROM search_docs s JOIN sp ON sp.chunk_id = s.chunk_id
                WHERE {filters} AND NOT ({" OR ".join(f"s.d{col} > 0" for col, _ in dense)})"""
            params = params + params  # the filters appear twice
    else:
        select = f"""SELECT s.document_id, s.version, s.ordinal, sp.score, s.chunk_id
                     FROM search_docs s JOIN sp ON sp.chunk_id = s.chunk_id WHERE {filters}"""
    sql = (f"WITH {', '.join(ctes)} SELECT document_id, version, ordinal, score FROM ({select})"
           f" ORDER BY score DESC, chunk_id LIMIT {int(limit)}")
    return [ScoredChunk(int(d), int(v), int(o), float(s)) for d, v, o, s in cur.execute(sql, params).fetchall()]


def term_idf(scope: Scope, terms: Iterable[str]) -> tuple[dict[str, float], float]:
    """Lucene idf of each indexed term among ``terms`` (unknown ones left out), and the mean chunk length."""
    stats = term_stats(scope, terms)
    return {term: stats.idf(df) for term, (_, df, _) in stats.terms.items()}, stats.avgdl


def _norm(avgdl: float) -> str:
    return f"{_num(K1)} * ({_num(1 - B)} + {_num(B)} * s.length / {_num(avgdl)})"


def _sparse_cte(sparse: list[tuple[int, float]], avgdl: float) -> str:
    """``sp``: (chunk_id, score) of every chunk holding a sparse query term, from the postings alone."""
    weights = " ".join(f"WHEN {term_id} THEN {_num(idf)}" for term_id, idf in sparse)
    return f"""sp AS (SELECT p.chunk_id, sum(CASE p.term_id {weights} END * p.tf * {_num(K1 + 1)}
               / (p.tf + {_num(K1)} * ({_num(1 - B)} + {_num(B)} * p.length / {_num(avgdl)}))) AS score
               FROM search_postings p WHERE p.term_id IN ({", ".join(str(t) for t, _ in sparse)})
               GROUP BY p.chunk_id)"""


def _top_first(cur: Any, stats: TermStats, sparse: list[tuple[int, float]], dense: list[tuple[int, float]],
               limit: int, exclude_chunks: list[tuple[int, int, int]]) -> list[ScoredChunk]:
    """For a scope that reads every document: rank chunk ids first, then look up only the best.

    Scores come from the postings (and the dense columns) without touching the rest of
    ``search_docs``; only the top ``limit`` plus as many as could be retired or excluded are
    joined to it, which drops retired and excluded chunks and keeps the order and ties
    (score, then chunk id) of the joined path.
    """
    ctes = [_sparse_cte(sparse, stats.avgdl)] if sparse else []
    if dense:
        columns = ", ".join(f"s.d{col}" for col, _ in dense)
        score = " + ".join(f"{_num(idf)} * d{col} * {_num(K1 + 1)} / (d{col} + nrm)" for col, idf in dense)
        ctes.append(f"""dn AS (SELECT chunk_id, {score} AS score
                        FROM (SELECT s.chunk_id, {columns}, {_norm(stats.avgdl)} AS nrm FROM search_docs s
                              WHERE {" OR ".join(f"s.d{col} > 0" for col, _ in dense)}))""")
    scored = "sp" if not dense else "dn" if not sparse else (
        "(SELECT chunk_id, sum(score) AS score FROM (SELECT chunk_id, score FROM dn UNION ALL "
        "SELECT chunk_id, score FROM sp) GROUP BY chunk_id)")
    head = int(limit) + stats.dead + len(exclude_chunks)
    params: list[Any] = []
    excluded = _exclusion(exclude_chunks, params)
    sql = f"""WITH {", ".join(ctes)}, top AS (SELECT chunk_id, score FROM {scored} ORDER BY score DESC, chunk_id
              LIMIT {head})
              SELECT s.document_id, s.version, s.ordinal, top.score FROM top JOIN search_docs s ON s.chunk_id =
              top.chunk_id
              WHERE s.live{excluded} ORDER BY top.score DESC, top.chunk_id LIMIT {int(limit)}"""
    return [ScoredChunk(int(d), int(v), int(o), float(sc)) for d, v, o, sc in cur.execute(sql, params).fetchall()]


EXCLUDED_CHUNKS = (" AND (s.document_id, s.version, s.ordinal) NOT IN"
                   " (SELECT (unnest(?::BIGINT[]), unnest(?::INTEGER[]), unnest(?::INTEGER[])))")


def _exclusion(exclude_chunks: list[tuple[int, int, int]], params: list[Any]) -> str:
    if not exclude_chunks:
        return ""
    params.extend([[c[0] for c in exclude_chunks], [c[1] for c in exclude_chunks], [c[2] for c in exclude_chunks]])
    return EXCLUDED_CHUNKS


def _bounded(cur: Any, stats: TermStats, sparse: list[tuple[int, float]], dense: list[tuple[int, float]],
             limit: int, exclude_chunks: list[tuple[int, int, int]]) -> list[ScoredChunk] | None:
    """Rare and common terms together, without scoring every chunk that holds a common term (MaxScore).

    ``dense`` is (dense column, idf). The best ``BOUNDED_CANDIDATES`` chunks by their rare-term
    (sparse) score are scored in full, their common-term part read from the dense columns of
    those rows alone. The common terms add at most ``bound`` = sum of their idf x (k1 + 1) to
    any chunk, so a chunk left out scores at most the last candidate's sparse score + ``bound``
    (or ``bound`` alone if it holds no rare term); when the ``limit``-th best full score is above
    both, the answer is exact. Otherwise None: the caller scores every chunk.
    """
    bound = sum(idf for _, idf in dense) * (K1 + 1)
    head = int(limit) + stats.dead + len(exclude_chunks)
    candidates = max(BOUNDED_CANDIDATES, 10 * head)
    common = " + ".join(f"{_num(idf)} * s.d{col} * {_num(K1 + 1)} / (s.d{col} + nrm)" for col, idf in dense)
    params: list[Any] = []
    excluded = _exclusion(exclude_chunks, params)
    sql = f"""WITH {_sparse_cte(sparse, stats.avgdl)},
              cand AS (SELECT chunk_id, score FROM sp ORDER BY score DESC, chunk_id LIMIT {candidates}),
              edge AS (SELECT count(*) AS n, min(score) AS lowest FROM cand),
              scored AS (SELECT s.document_id, s.version, s.ordinal, c.chunk_id, c.score + {common} AS score
                         FROM cand c JOIN (SELECT s.*, {_norm(stats.avgdl)} AS nrm FROM search_docs s) s
                         ON s.chunk_id = c.chunk_id WHERE s.live{excluded})
              SELECT document_id, version, ordinal, score, (SELECT n FROM edge), (SELECT lowest FROM edge)
              FROM scored ORDER BY score DESC, chunk_id LIMIT {int(limit)}"""
    rows = cur.execute(sql, params).fetchall()
    if len(rows) < limit:
        return None
    kth, considered, lowest = rows[-1][3], rows[-1][4], rows[-1][5]
    left_out = bound + (lowest if considered >= candidates else 0.0)
    if kth <= max(bound, left_out):
        return None
    return [ScoredChunk(int(d), int(v), int(o), float(sc)) for d, v, o, sc, _, _ in rows]


class QueryScorer:
    """BM25 of passages against one query, from their index terms, with the corpus statistics.

    The statistics are looked up once; each passage is then scored in memory (a passage's
    terms: :func:`passage_terms`). The scores equal what the index gives the same chunks.
    """

    def __init__(self, scope: Scope, query: str) -> None:
        self.idf, self.avgdl = term_idf(scope, set(tokenize(query)))

    def score(self, terms: dict[str, int], length: int) -> float:
        norm = K1 * (1 - B + B * length / self.avgdl)
        total = 0.0
        for term, idf in self.idf.items():
            tf = terms.get(term)
            if tf:
                total += idf * tf * (K1 + 1) / (tf + norm)
        return total


def score_texts(scope: Scope, query: str, texts: list[str]) -> list[float]:
    """BM25 scores of passages given as their indexed text (see ``index.index_text``)."""
    scorer = QueryScorer(scope, query)
    return [scorer.score(*_counts(tokenize(text))) for text in texts]


def _counts(tokens: list[str]) -> tuple[dict[str, int], int]:
    counts: dict[str, int] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    return counts, len(tokens)


def passage_terms(doc: DocumentVersion, ordinal: int) -> tuple[dict[str, int], int]:
    """A passage's index terms with their counts, and its length in terms (what the index holds for it).

    Computed from the version's immutable skeleton once and kept with it.
    """
    sk = doc.skeleton
    key = ("terms", ordinal)
    terms = sk.memo.get(key)
    if terms is None:
        chunk = sk.chunks[ordinal]
        terms = sk.memo[key] = _counts(tokenize(index_text(sk.heading_path(ordinal), chunk.header, sk.body(ordinal),
                                                           document_title(doc.meta.fields))))
    return terms
