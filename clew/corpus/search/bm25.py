"""BM25 queries over the inverted index.

Scores are Okapi BM25 (``k1 = 1.2``, ``b = 0.75``, Lucene's idf) over the indexed text of a
chunk (heading path + text), with the statistics of the scope's principal
(``clew.corpus.search.stats``: corpus-wide, or counted over what a restricted principal may
read; from postings held in memory, a restricted principal's partial scores are repriced at
its mean length: ``clew.corpus.search.postings``). Sparse terms are scored from the
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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from clew.corpus.reader import Scope
from clew.corpus.search.index import document_title, index_text
from clew.corpus.search.postings import memory_postings, memory_search
from clew.corpus.search.stats import (
    TermStats,
    allowed_documents_sql,
    corpus_stats,
    reader_mask,
    term_stats,
)
from clew.corpus.structure import DocumentVersion
from clew.corpus.tokenize import tokenize

K1 = 1.2
B = 0.75
_K1_PLUS_1 = K1 + 1


@dataclass(frozen=True, slots=True)
class ScoredChunk:
    document_id: int
    version: int
    ordinal: int
    score: float


TOP_FIRST_SLACK = 10_000
"""Retired plus excluded chunks up to which a full-corpus query ranks chunk ids before joining."""
BOUNDED_CANDIDATES = 200
"""Chunks scored in full when a query mixes rare and common terms (see ``_bounded``)."""


def _num(value: float) -> str:
    # literals without the cast become DECIMAL, which makes the arithmetic ~50x slower
    return f"{value!r}::DOUBLE"



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
                                                            allowed, params, reader_mask(scope, index))]
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
        idf, self.avgdl = term_idf(scope, set(tokenize(query)))
        # summed in one order whatever the process's string hashing: a set's order would change the
        # float rounding of a score, and so which of two near-equal candidates a walk takes first
        self.idf = dict(sorted(idf.items()))
        self._pairs = tuple(self.idf.items())

    def score(self, terms: dict[str, int], length: int) -> float:
        norm = K1 * (1 - B + B * length / self.avgdl)
        total = 0.0
        get = terms.get  # a walk scores hundreds of passages a run: the loop reads no attribute
        for term, idf in self._pairs:
            tf = get(term)
            if tf:
                total += idf * tf * _K1_PLUS_1 / (tf + norm)
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


def node_terms(doc: DocumentVersion, node: int) -> tuple[dict[str, int], int]:
    """The index terms of every passage under a node, counted together, and their total length:
    a section scored as one unit. Kept with the skeleton like :func:`passage_terms` (a walk prices
    the same sections in every run; merging a large one's terms was a third of a warm walk)."""
    sk = doc.skeleton
    key = ("node terms", node)
    found = sk.memo.get(key)
    if found is None:
        counts: dict[str, int] = {}
        length = 0
        for ordinal in sk.subtree(node):
            terms, n = passage_terms(doc, ordinal)
            length += n
            for term, count in terms.items():
                counts[term] = counts.get(term, 0) + count
        found = sk.memo[key] = (counts, length)
    return found
