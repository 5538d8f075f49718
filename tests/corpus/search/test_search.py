"""BM25 search over real corpora: exact identifiers, filters, projection, exclusions, principals."""

import os
from pathlib import Path

import pytest

from clew.corpus.access import Principal
from clew.corpus.checkpoint import size_bytes
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.corpus.structure import FROZEN
from clew.errors import InputError, MalformedEvidenceId, UnknownCollection
from tests.conftest import SQLITE_DOCS, Prebuilt, build_sqlite_docs, needs_sqlite_docs, write_files


@pytest.fixture(scope="module")
def sqlite_corpus(tmp_path_factory: pytest.TempPathFactory, prebuilt: Prebuilt) -> Corpus:
    if not SQLITE_DOCS.is_dir():
        pytest.skip("the shared SQLite dev set is not beside this checkout")
    corpus = Corpus(prebuilt(build_sqlite_docs, tmp_path_factory.mktemp("search")) / "sqlite-docs.duckdb")
    yield corpus
    corpus.close()


@needs_sqlite_docs
@pytest.mark.parametrize(
    ("query", "document", "needle"),
    [
        ("SQLITE_BUSY", "rescode.html", "SQLITE_BUSY"),
        ("SQLITE_MAX_VARIABLE_NUMBER", None, "SQLITE_MAX_VARIABLE_NUMBER"),
        ("journal_size_limit", "pragma.html", "journal_size_limit"),
        ("PRAGMA journal_mode", "pragma.html", "journal_mode"),
        ("wal_autocheckpoint", None, "wal_autocheckpoint"),
        ("3.23.41", "nulls.html", "3.23.41"),
        ("32766", None, "32766"),
        ("2147483647", None, "2147483647"),
        ("--directory", "cli.html", "--directory"),
        ("SQLITE_TEMP_STORE", None, "SQLITE_TEMP_STORE"),
        ("remove_diacritics", "fts5.html", "remove_diacritics"),
        ("nBackfill", "walformat.html", "nBackfill"),
        ("json_extract", "json1.html", "json_extract"),
    ],
)
def test_exact_identifiers_are_found(sqlite_corpus: Corpus, query: str, document: str | None, needle: str) -> None:
    result = search(sqlite_corpus, {"query": query, "collection": "sqlite", "limit": 5})
    assert result.hits, query
    top = result.hits[0]
    assert needle.lower() in top.text.lower()
    if document is not None:
        assert any(h.document_key == document for h in result.hits[:3])
    assert top.rank == 1 and top.retrievers["bm25"].rank == 1 and top.score > 0
    assert top.evidence_id.startswith("ev1:c:")


@needs_sqlite_docs
def test_a_string_is_the_query_alone(sqlite_corpus: Corpus) -> None:
    asked = search(sqlite_corpus, "SQLITE_BUSY")
    assert asked.model_dump() == search(sqlite_corpus, {"query": "SQLITE_BUSY"}).model_dump()
    assert asked.hits and "SQLITE_BUSY" in asked.hits[0].text
    with pytest.raises(InputError) as caught:
        search(sqlite_corpus, "")
    assert caught.value.field == "query"


@needs_sqlite_docs
def test_limit_is_clamped_and_reported(sqlite_corpus: Corpus) -> None:
    assert search(sqlite_corpus, {"query": "database", "limit": 500}).limit == 100
    assert len(search(sqlite_corpus, {"query": "database", "limit": 500}).hits) == 100
    result = search(sqlite_corpus, {"query": "database", "limit": 0})
    assert result.limit == 1 and len(result.hits) == 1 and result.applied["limit"] == 1


@needs_sqlite_docs
def test_exclusions_apply_before_the_limit(sqlite_corpus: Corpus) -> None:
    first = search(sqlite_corpus, {"query": "checkpoint", "limit": 5})
    excluded = [h.evidence_id for h in first.hits[:3]]
    again = search(sqlite_corpus, {"query": "checkpoint", "limit": 5, "exclude_ids": excluded})
    assert len(again.hits) == 5
    assert not set(excluded) & {h.evidence_id for h in again.hits}
    assert [h.evidence_id for h in again.hits[:2]] == [h.evidence_id for h in first.hits[3:5]]
    no_wal = search(sqlite_corpus, {"query": "checkpoint", "limit": 10, "exclude_document_keys": ["wal.html"]})
    assert len(no_wal.hits) == 10 and all(h.document_key != "wal.html" for h in no_wal.hits)


@needs_sqlite_docs
def test_max_chars_cuts_text_with_a_flag(sqlite_corpus: Corpus) -> None:
    hit = search(sqlite_corpus, {"query": "SQLITE_BUSY", "limit": 1, "max_chars": 40}).hits[0]
    assert len(hit.text) == 40 and hit.text_truncated


def build_acl_corpus(into: Path) -> None:
    folder = into / "docs"
    folder.mkdir()
    (folder / "public.md").write_text(
        "---\nstatus: published\nacl: [staff, oncall]\nyear: 2024\n---\n# Failover\n\nThe failover drill runs weekly.\n"
    )
    (folder / "draft.md").write_text(
        "---\nstatus: draft\nacl: [dba]\nyear: 2021\n---\n# Failover draft\n\nThe failover drill secret plan.\n")
    for i in range(6):
        (folder / f"note{i}.md").write_text(
            f"---\nstatus: published\nacl: [staff]\nyear: {2018 + i}\n---\n# Note {i}\n\nA failover note number {i}.\n")
    with Corpus(into / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="ops", chunk_tokens=DEFAULT_CHUNK_TOKENS)


@pytest.fixture
def acl_corpus(tmp_path: Path, prebuilt: Prebuilt) -> Corpus:
    """Eight Markdown notes with status, acl and year, in collection ops: built once a session, copied here."""
    with Corpus(prebuilt(build_acl_corpus, tmp_path) / "c.duckdb") as corpus:
        yield corpus


def keys(result) -> list[str]:  # noqa: ANN001
    return [h.document_key for h in result.hits]


def test_filters_on_document_fields(acl_corpus: Corpus) -> None:
    assert "draft.md" in keys(search(acl_corpus, {"query": "failover", "limit": 20}))
    published = search(acl_corpus, {"query": "failover", "limit": 20, "filter": {"term": {"status": "published"}}})
    assert "draft.md" not in keys(published) and len(published.hits) == 7
    recent = search(acl_corpus, {"query": "failover", "filter": {"range": {"year": {"gte": 2022}}}})
    assert sorted(keys(recent)) == ["note4.md", "note5.md", "public.md"]
    both = search(acl_corpus, {"query": "failover", "filter": {"bool": {"must": [
        {"terms": {"acl": ["dba", "oncall"]}}, {"exists": {"field": "year"}}]}}})
    assert sorted(keys(both)) == ["draft.md", "public.md"]


def test_fields_projection(acl_corpus: Corpus) -> None:
    hit = search(acl_corpus, {"query": "drill", "limit": 1, "fields": ["status", "missing"]}).hits[0]
    assert hit.fields == {"status": "published"} or hit.fields == {"status": "draft"}
    assert search(acl_corpus, {"query": "drill", "limit": 1}).hits[0].fields == {}


def test_principal_row_filter_is_applied_inside_the_query(acl_corpus: Corpus) -> None:
    staff = Principal(name="staff", row_filter={"term": {"acl": "staff"}})
    result = search(acl_corpus, {"query": "failover secret plan drill", "limit": 3}, staff)
    # the draft would rank first, but it is not readable: it neither shows nor shrinks the result
    assert "draft.md" not in keys(result) and len(result.hits) == 3


def test_a_principal_who_may_read_nothing_gets_an_empty_result(acl_corpus: Corpus) -> None:
    nobody = Principal(name="nobody", row_filter={"term": {"acl": "no-such-group"}})
    result = search(acl_corpus, {"query": "failover", "limit": 10}, nobody)
    assert result.hits == [] and result.limit == 10
    outsider = Principal(name="outsider", collections=frozenset({"hr"}))
    assert search(acl_corpus, {"query": "failover"}, outsider).hits == []
    with pytest.raises(UnknownCollection) as denied:
        search(acl_corpus, {"query": "failover", "collection": "ops"}, outsider)
    with pytest.raises(UnknownCollection) as missing:
        search(acl_corpus, {"query": "failover", "collection": "nope"}, outsider)
    assert str(denied.value).replace("ops", "X") == str(missing.value).replace("nope", "X")


def test_changed_documents_are_searched_at_their_current_version_only(acl_corpus: Corpus, tmp_path: Path) -> None:
    (tmp_path / "docs" / "public.md").write_text(
        "---\nstatus: published\nacl: [staff]\n---\n# Failover\n\nThe failover drill moved to Fridays.\n")
    ingest_paths(acl_corpus, [tmp_path / "docs"], collection="ops", chunk_tokens=DEFAULT_CHUNK_TOKENS)
    hits = search(acl_corpus, {"query": "fridays weekly", "limit": 10}).hits
    texts = " ".join(h.text for h in hits)
    assert "Fridays" in texts and "weekly" not in texts


@pytest.mark.parametrize(
    ("request_", "field", "message"),
    [
        ({"query": "   "}, "query", "blank"),
        ({"query": "x", "mode": "fuzzy"}, "mode", "bm25"),
        ({"query": "x", "limit": "many"}, "limit", "integer"),
        ({"query": "x", "filter": {"match": {"a": 1}}}, "filter", "term, terms, range, exists, bool or path"),
        ({"query": "x", "surprise": 1}, "surprise", "Extra inputs"),
    ],
)
def test_bad_requests_name_the_field(acl_corpus: Corpus, request_: dict, field: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as caught:
        search(acl_corpus, request_)
    assert caught.value.field.startswith(field)


def test_unknown_collection_and_malformed_exclusion(acl_corpus: Corpus) -> None:
    with pytest.raises(UnknownCollection, match="'nope'"):
        search(acl_corpus, {"query": "x", "collection": "nope"})
    with pytest.raises(MalformedEvidenceId):
        search(acl_corpus, {"query": "x", "exclude_ids": ["not-an-id"]})


def test_vector_search_without_embeddings_says_how_to_fix_it(acl_corpus: Corpus) -> None:
    with pytest.raises(InputError, match="clew embed") as caught:
        search(acl_corpus, {"query": "failover", "mode": "vector"})
    assert caught.value.field == "mode"


def test_scores_from_text_equal_the_index_scores(acl_corpus: Corpus) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search.bm25 import bm25_search, score_texts
    from clew.corpus.search.index import document_title, index_text

    scope = Scope(acl_corpus)
    hits = bm25_search(scope, "failover drill plan", limit=5)
    passages = [scope.passages(h.document_id, h.version, [h.ordinal])[0] for h in hits]
    texts = [index_text(p.heading_path, p.header, p.body, document_title(p.fields)) for p in passages]
    assert score_texts(scope, "failover drill plan", texts) == pytest.approx([h.score for h in hits])


def build_zipf_corpus(into: Path) -> None:
    """12 documents of Zipf-distributed words (acl a/b), compacted with dense-term columns, then one
    changed so that its old chunks are retired rows until the next compaction: ``c.duckdb``."""
    import random

    from clew.corpus.search import index

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(index, "MIN_DENSE_CHUNKS", 10)  # small enough for dense-term columns here
        rng = random.Random(7)
        words = [f"w{i}" for i in range(60)]
        folder = into / "docs"
        folder.mkdir()
        for d in range(12):
            sections = "\n\n".join(f"## S{s}\n\n" + " ".join(rng.choices(words, weights=range(60, 0, -1), k=40))
                                   + (f" q{d}" if s == 0 else "") for s in range(4))  # q<d>: one rare term each
            (folder / f"d{d}.md").write_text(f"---\nacl: [{'a' if d % 2 else 'b'}]\n---\n# Doc {d}\n\n{sections}\n")
        for twin in ("twin1", "twin2", "twin3"):  # identical chunks: exact ties, ranked by chunk id
            (folder / f"{twin}.md").write_text(
                f"---\nacl: [{'a' if twin == 'twin2' else 'b'}]\n---\n# Twin\n\ntwin w0 w7 twin.\n"
            )
        with Corpus(into / "c.duckdb") as corpus:
            ingest_paths(corpus, [folder], chunk_tokens=64)
            index.compact(corpus)
            assert corpus.cursor().execute("SELECT dense_terms FROM search_stats").fetchone()[0] > 0
            (folder / "d3.md").write_text((folder / "d3.md").read_text() + "\nw3 w5 w44 w45 w50 w51 appended.\n")
            ingest_paths(corpus, [folder], chunk_tokens=64)  # retired rows stay until the next compaction


def zipf_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prebuilt: Prebuilt) -> Path:
    """A copy of the Zipf corpus (built once a session: 0.65 s of CPU each time it was built for a test),
    with the same small ``MIN_DENSE_CHUNKS`` for the test's own writes and compactions."""
    from clew.corpus.search import index

    monkeypatch.setattr(index, "MIN_DENSE_CHUNKS", 10)
    return prebuilt(build_zipf_corpus, tmp_path) / "c.duckdb"


def test_ranking_chunk_ids_first_equals_the_joined_query(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         prebuilt: Prebuilt) -> None:
    import itertools

    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25

    bounded, outcomes = bm25._bounded, []

    def recorded(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        found = bounded(*args, **kwargs)
        outcomes.append(found is not None)
        return found

    monkeypatch.setattr(bm25, "_bounded", recorded)
    monkeypatch.setattr(bm25, "BOUNDED_CANDIDATES", 3)  # small, so that some queries need the full scoring
    with Corpus(zipf_corpus(tmp_path, monkeypatch, prebuilt)) as corpus:
        scope = Scope(corpus)
        assert bm25.term_stats(scope, []).dead > 0
        first = bm25.bm25_search(scope, "w0", limit=1)[0]
        queries = ["w0 w1", "w40 w41", "w0 w45 w50", "w5 w51", "w59", "w0 q3", "w1 w2 q5 q9", "w0 w3 q7 q8"]
        for query, limit in itertools.product(queries, (1, 2, 7)):
            for exclude in ([], [(first.document_id, first.version, first.ordinal)]):
                fast = bm25.bm25_search(scope, query, limit=limit, exclude_chunks=exclude)
                monkeypatch.setattr(bm25, "TOP_FIRST_SLACK", -1)  # forces the joined query
                joined = bm25.bm25_search(scope, query, limit=limit, exclude_chunks=exclude)
                monkeypatch.setattr(bm25, "TOP_FIRST_SLACK", 10_000)
                assert fast == joined and fast, query
    assert True in outcomes and False in outcomes  # mixed queries answered by the bound, and by full scoring


def test_postings_load_only_once_a_process_has_asked_enough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            prebuilt: Prebuilt) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, postings

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    with Corpus(db, read_only=True) as corpus:
        assert bm25.bm25_search(Scope(corpus), "w0 w1", limit=3)
        assert corpus not in postings._loaded  # a one-off search is answered in SQL
        before = corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone()
        for _ in range(postings.WARM_QUERIES):
            bm25.bm25_search(Scope(corpus), "w0 w1", limit=3)
        assert postings._loaded.get(corpus) is not None
        # the load reads under a small buffer pool (it kept every block it read), and puts the limit
        # back after it: a later query that materialises more than the small limit still runs
        after = corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone()
        assert before is not None and after == before
        assert size_bytes(postings.HELD_MEMORY_LIMIT) < (size_bytes(before[0]) or 0)
        big = corpus.cursor().execute("SELECT range, repeat('x', 1000) FROM range(100000)").to_arrow_table()
        assert big.num_rows == 100_000 and big.nbytes > size_bytes(postings.HELD_MEMORY_LIMIT)


def test_term_statistics_agree_from_memory_and_from_lookups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, stats

    folder = write_files(tmp_path / "docs", {
        "a.md": "# Replicas\n\nThe replica streams WAL from the primary; lag is 5432 bytes.\n",
        "b.md": "# Primary\n\nThe primary accepts writes. SQLITE_BUSY means retry.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=64)
    terms = ["replica", "primari", "5432", "sqlite_busy", "absent"]
    monkeypatch.setattr(stats, "VOCABULARY_WARM_QUERIES", 0)  # the vocabulary at the first query
    with Corpus(tmp_path / "c.duckdb", read_only=True) as corpus:
        in_memory = bm25.term_stats(Scope(corpus), terms)
        assert isinstance(FROZEN.get(corpus, ("vocabulary",)), dict)
        hits = bm25.bm25_search(Scope(corpus), "replica 5432", limit=5)
    monkeypatch.setattr(stats, "VOCABULARY_IN_MEMORY", 0)  # one lookup per query instead
    with Corpus(tmp_path / "c.duckdb", read_only=True) as corpus:
        looked_up = bm25.term_stats(Scope(corpus), terms)
        assert bm25.bm25_search(Scope(corpus), "replica 5432", limit=5) == hits and hits
    assert in_memory == looked_up and "absent" not in in_memory.terms and len(in_memory.terms) == 4


def test_a_one_off_search_looks_its_terms_up_and_later_ones_load_the_vocabulary(tmp_path: Path) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, stats

    folder = write_files(tmp_path / "docs", {"a.md": "# Replicas\n\nThe replica streams WAL from the primary.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=64)
    with Corpus(tmp_path / "c.duckdb", read_only=True) as corpus:
        first = bm25.bm25_search(Scope(corpus), "replica", limit=3)
        assert FROZEN.get(corpus, ("vocabulary",)) is None and FROZEN.get(corpus, ("term", "replica")) is not None
        for _ in range(stats.VOCABULARY_WARM_QUERIES):
            assert bm25.bm25_search(Scope(corpus), "replica", limit=3) == first and first
        assert "replica" in FROZEN.get(corpus, ("vocabulary",))


@pytest.mark.parametrize("column_share", [1 / 3, 0.05, 2.0])  # some, most, no terms held as dense columns
def test_postings_in_memory_rank_like_sql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prebuilt: Prebuilt,
                                         column_share: float) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, postings

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    monkeypatch.setattr(postings, "WARM_QUERIES", 0)
    monkeypatch.setattr(postings, "MIN_COLUMN_ROWS", 10)
    monkeypatch.setattr(postings, "COLUMN_SHARE", column_share)
    monkeypatch.setattr(postings, "READABLE_SCOPES", 2)  # fewer than the cases' scopes: some are read again
    principal = Principal(name="a", row_filter={"term": {"acl": "a"}})
    cases = [({}, "w0 w1"), ({}, "w40 w41 w3"), ({"principal": principal}, "w0 w44"),
             ({"exclude_document_keys": ["d1.md"]}, "w2 w45"), ({}, "w59"), ({}, "q3 q5 w58"),
             ({"principal": principal}, "q3 q5 w57"), ({}, "twin"), ({"principal": principal}, "twin w0"),
             ({}, "w3 w5 w44"), ({"exclude_document_keys": ["twin1.md"]}, "twin"), ({}, "absentterm w0")]

    def run_all() -> list:
        with Corpus(db, read_only=True) as corpus:
            out = []
            for extra, query in cases:
                scope = Scope(corpus, extra.get("principal", Principal()))
                first = bm25.bm25_search(scope, query, limit=1)
                exclude = [(first[0].document_id, first[0].version, first[0].ordinal)] if first else []
                for limit in (1, 3, 7, 100):
                    out.append(bm25.bm25_search(scope, query, limit=limit, exclude_chunks=exclude,
                                                exclude_document_keys=extra.get("exclude_document_keys", [])))
            loaded = postings.memory_postings(corpus, 1.0, bm25.K1, bm25.B)
            assert (loaded is not None) == (postings.max_bytes() > 0)
            if loaded is not None:
                assert len(loaded.dead) > 0  # retired rows are held and never returned
                assert bool(loaded.columns) == (column_share < 1)
                assert len(loaded.readable) == 2
                assert loaded.readers  # the principal was scored from the held rows too
            assert bm25.term_stats(Scope(corpus), []).dead > 0
            return out

    in_memory = run_all()
    monkeypatch.setenv("CLEW_POSTINGS_MEMORY_MB", "0")  # too small: SQL
    in_sql = run_all()
    assert all(in_memory) and len(in_memory) == len(in_sql)
    assert any(len({h.score for h in hits}) < len(hits) for hits in in_sql)  # ties are among the cases
    for memory, sql in zip(in_memory, in_sql, strict=True):
        assert [(h.document_id, h.version, h.ordinal) for h in memory] == [
            (h.document_id, h.version, h.ordinal) for h in sql
        ]
        assert [h.score for h in memory] == pytest.approx([h.score for h in sql], rel=1e-6)


def test_a_row_filtered_principal_counts_its_statistics_over_held_postings_as_sql_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prebuilt: Prebuilt) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, postings

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    monkeypatch.setattr(postings, "WARM_QUERIES", 0)
    monkeypatch.setattr(postings, "MIN_COLUMN_ROWS", 10)
    principal = Principal(name="a", row_filter={"term": {"acl": "a"}})  # the odd documents and twin2
    terms = ["w0", "w1", "w44", "w59", "q3", "q4", "twin", "absentterm"]  # q4: only in d4, which it cannot read
    with Corpus(db, read_only=True) as corpus:
        scope = Scope(corpus, principal)
        in_sql = bm25.term_stats(scope, terms)  # nothing held yet: counted in SQL
        assert postings.loaded_postings(corpus) is None
        bm25.bm25_search(Scope(corpus), "w0", limit=1)
        index = postings.loaded_postings(corpus)
        assert index is not None and index.columns and len(index.dead) > 0
        held = bm25.term_stats(scope, terms)
        assert len(index.readers) == 1
        everyone = bm25.term_stats(Scope(corpus), terms)
    assert held == in_sql and held.scoped
    assert "q4" not in held.terms and "q4" in everyone.terms and "absentterm" not in held.terms
    assert held.live < everyone.live and held.avgdl != everyone.avgdl  # its scores are repriced


def test_the_document_title_leads_the_indexed_heading_path(tmp_path: Path) -> None:
    from clew.corpus.search.index import index_text

    assert (
        index_text(["Description"], "", "Used to set access.", "npm-access")
        == "npm-access > Description\nUsed to set access."
    )
    assert (
        index_text(["Guide", "Setup"], "", "Run it.", "guide") == "Guide > Setup\nRun it."
    )  # already its first heading
    assert index_text([], "", "Loose text.", "Notes") == "Notes\nLoose text."
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "npm-access.md").write_text(
        "---\ntitle: npm-access\n---\n\n### Description\n\nSets the level on packages.\n"
    )
    (folder / "npm-team.md").write_text("---\ntitle: npm-team\n---\n\n### Description\n\nManages teams of an org.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        hits = search(corpus, {"query": "access"}).hits
    assert [h.document_key for h in hits] == ["npm-access.md"]  # "access" is only in its title


def test_an_ordered_list_items_number_is_a_marker_not_an_indexed_term() -> None:
    from clew.corpus.search.index import index_text
    from clew.corpus.tokenize import tokenize

    body = "Steps:\n1. Stop the server.\n  2) Copy the 3 files.\n10. Start it.\nRelease 2019. was late."
    assert index_text(["Backup"], "", body) == (
        "Backup\nSteps:\nStop the server.\n  Copy the 3 files.\nStart it.\nRelease 2019. was late.")
    numbered = tokenize(index_text([], "", "1. Stop the server.\n2. Start it."))
    assert numbered == tokenize(index_text([], "", "- Stop the server.\n- Start it."))  # as a bullet list
    assert "3" in tokenize(index_text([], "", body)) and "2019" in tokenize(index_text([], "", body))


def test_postings_too_large_for_memory_are_scored_in_sql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         prebuilt: Prebuilt) -> None:
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, postings

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    monkeypatch.setattr(postings, "WARM_QUERIES", 0)
    monkeypatch.setenv("CLEW_POSTINGS_MEMORY_MB", "0.001")
    with Corpus(db, read_only=True) as corpus:
        before = corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone()
        assert bm25.bm25_search(Scope(corpus), "w0 w1", limit=3)
        assert postings._loaded.get(corpus, "absent") is None  # tried once, too large: SQL from then on
        # SQL scores every query from then on: DuckDB's memory limit is put back
        assert corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone() == before
    with Corpus(db) as corpus:  # a writable corpus never holds them
        assert bm25.bm25_search(Scope(corpus), "w0 w1", limit=3)
        assert corpus not in postings._loaded


def test_compaction_pivots_dense_terms_the_same_in_slices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          prebuilt: Prebuilt) -> None:
    """Each dense column holds its term's tf from the postings (0 elsewhere), in chunk-id order,
    whether the chunks are pivoted in one slice or in several."""
    import shutil

    from clew.corpus.search import index

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    sliced = tmp_path / "sliced.duckdb"
    shutil.copyfile(db, sliced)
    rows = {}
    for path, slice_chunks in ((db, index.PIVOT_CHUNKS), (sliced, 7)):
        monkeypatch.setattr(index, "PIVOT_CHUNKS", slice_chunks)
        with Corpus(path) as corpus:
            index.compact(corpus)
            cur = corpus.cursor()
            rows[slice_chunks] = cur.execute("SELECT * FROM search_docs").fetchall()
            dense = cur.execute("SELECT term_id, dense_col FROM search_terms WHERE dense_col IS NOT NULL").fetchall()
            columns = index.dense_columns(cur)
            assert len(dense) == len(columns) > 0
            for term_id, col in dense:
                expected = dict(cur.execute("SELECT chunk_id, tf FROM search_postings WHERE term_id = ?",
                                            [term_id]).fetchall())
                got = cur.execute(f"SELECT chunk_id, d{col} FROM search_docs").fetchall()
                assert {chunk: tf for chunk, tf in got if tf} == expected
    assert rows[7] == rows[index.PIVOT_CHUNKS]
    assert [r[0] for r in rows[7]] == sorted(r[0] for r in rows[7]) and len(rows[7]) > 14


def test_compaction_sorts_the_postings_the_same_in_ranges_of_terms(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     prebuilt: Prebuilt) -> None:
    """Sorted a range of term ids at a time (a bounded sort), the postings table is the same, in
    the same physical (term, chunk) order, and every search answers the same."""
    import shutil

    from clew.corpus.search import index

    db = zipf_corpus(tmp_path, monkeypatch, prebuilt)
    ranged = tmp_path / "ranged.duckdb"
    shutil.copyfile(db, ranged)
    stored, answers = {}, {}
    for path, size in ((db, index.SORT_POSTINGS), (ranged, 40)):
        monkeypatch.setattr(index, "SORT_POSTINGS", size)
        with Corpus(path) as corpus:
            index.compact(corpus)
            cur = corpus.cursor()
            stored[size] = cur.execute("SELECT term_id, chunk_id, tf, length FROM search_postings ORDER BY rowid"
                                       ).fetchall()
            answers[size] = [[(h.evidence_id, h.score) for h in search(corpus, {"query": q}).hits]
                             for q in ("w0 w1", "w3", "w7 w2 w11")]
            assert index.is_compact(cur)
    assert stored[40] == stored[index.SORT_POSTINGS] == sorted(stored[40])
    assert len({term for term, *_ in stored[40]}) > 10 and len(stored[40]) > 40 * 5, "several ranges were sorted"
    assert answers[40] == answers[index.SORT_POSTINGS]


def test_a_passage_score_sums_its_terms_in_one_order_whatever_the_string_hashing(tmp_path: Path) -> None:
    """The query's terms come as a set, whose order follows PYTHONHASHSEED: summed in that order, a
    score's last bits, and so a walk's choice between near-equal passages, changed from process to
    process (measured: 3 different results over 4 seeds on the dev sets at 8,192 tokens). The
    scorer sums in sorted term order."""
    import subprocess
    import sys

    from clew.corpus.reader import Scope
    from clew.corpus.search.bm25 import QueryScorer

    docs = write_files(tmp_path / "docs", {"a.md": "# Gears\n\nGears mesh with sprockets and chains turn wheels.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=DEFAULT_CHUNK_TOKENS)
        scorer = QueryScorer(Scope(corpus, collection="docs"), "wheels turn chains mesh gears sprockets")
        assert list(scorer.idf) == sorted(scorer.idf) and len(scorer.idf) == 6
    script = ("import sys; from clew.corpus.store import Corpus; from clew.corpus.reader import Scope; "
              "from clew.corpus.search.bm25 import QueryScorer\n"
              "with Corpus(sys.argv[1], read_only=True) as c:\n"
              "    scorer = QueryScorer(Scope(c, collection='docs'), 'wheels turn chains mesh gears sprockets')\n"
              "    print(list(scorer.idf))")
    orders = {subprocess.run([sys.executable, "-c", script, str(tmp_path / "c.duckdb")], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}, check=True).stdout for seed in (1, 2, 3)}
    assert len(orders) == 1


# the most frequent term fits a byte, or needs the table's SMALLINT; partials from a table or computed
@pytest.mark.parametrize(("repeats", "table"), [(3, True), (300, True), (300, False)])
def test_held_postings_keep_every_term_frequency(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 repeats: int, table: bool) -> None:
    """The held postings give back every (chunk, tf) of ``search_postings``, frequency 1 first in
    each term, and score as SQL does (the partial of each posting is priced at the query)."""
    from clew.corpus.reader import Scope
    from clew.corpus.search import bm25, postings

    if not table:
        monkeypatch.setattr(postings, "TF_TABLE", 0)

    folder = write_files(tmp_path / "docs", {
        "a.md": "# Zeta\n\n" + "zeta " * repeats + "alpha beta.\n",
        "b.md": "# Alpha\n\nalpha alpha zeta gamma. " + "beta " * 2 + "\n",
        "c.md": "# Beta\n\nbeta gamma delta; zeta once.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=1000)
    monkeypatch.setattr(postings, "WARM_QUERIES", 0)
    queries = ["zeta", "alpha beta", "gamma zeta delta", "beta"]
    with Corpus(tmp_path / "c.duckdb", read_only=True) as corpus:
        held = [bm25.bm25_search(Scope(corpus), q, limit=5) for q in queries]
        index = postings.loaded_postings(corpus)
        assert index is not None
        assert index.tails.dtype == ("int16" if repeats > 255 else "uint8")
        assert (index.by_tf is not None) == table
        cur = corpus.cursor()
        chunk_ids = [c for (c,) in cur.execute("SELECT chunk_id FROM search_docs ORDER BY chunk_id").fetchall()]
        terms = cur.execute("SELECT DISTINCT term_id FROM search_postings").fetchall()
        for (term_id,) in terms:
            span = index.span(term_id)
            assert span is not None
            got = []
            for rows, tf in index.runs(*span):
                got += [(chunk_ids[r], 1 if tf is None else int(f)) for r, f in zip(rows, tf if tf is not None
                                                                                 else [1] * len(rows), strict=True)]
            assert [f for _, f in got] == sorted([f for _, f in got], key=lambda f: f != 1)  # frequency 1 first
            stored = cur.execute("SELECT chunk_id, tf FROM search_postings WHERE term_id = ?", [term_id]).fetchall()
            assert sorted(got) == sorted(stored)
        top = cur.execute("SELECT max(tf) FROM search_postings").fetchone()[0]
        assert max(int(f) for f in index.tails) == top and (top > 255) == (repeats > 255)
    monkeypatch.setenv("CLEW_POSTINGS_MEMORY_MB", "0")  # too small: SQL
    with Corpus(tmp_path / "c.duckdb", read_only=True) as corpus:
        in_sql = [bm25.bm25_search(Scope(corpus), q, limit=5) for q in queries]
    assert all(held)
    for memory, sql in zip(held, in_sql, strict=True):
        assert [(h.document_id, h.ordinal) for h in memory] == [(h.document_id, h.ordinal) for h in sql]
        assert [h.score for h in memory] == pytest.approx([h.score for h in sql], rel=1e-6)
