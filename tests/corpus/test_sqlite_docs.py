"""The real SQLite documentation corpus ingests cleanly and keeps its structure."""


import pytest

from clew.corpus.ingest.api import IngestReport
from clew.corpus.store import Corpus

from ..conftest import Prebuilt, build_sqlite_docs, needs_sqlite_docs

pytestmark = needs_sqlite_docs


@pytest.fixture(scope="module")
def sqlite_corpus(tmp_path_factory: pytest.TempPathFactory, prebuilt: Prebuilt) -> tuple[Corpus, IngestReport]:
    """The 64 pages ingested (collection ``sqlite``, the default chunk size) and that ingest's report: the session's
    one ingest of them (``build_sqlite_docs``), which the search and walk tests copy too."""
    folder = prebuilt(build_sqlite_docs, tmp_path_factory.mktemp("sqlite"))
    corpus = Corpus(folder / "sqlite-docs.duckdb")
    report = IngestReport.model_validate_json((folder / "ingest-report.json").read_text(encoding="utf-8"))
    yield corpus, report
    corpus.close()


def test_ingests_every_page_without_problems(sqlite_corpus: tuple[Corpus, IngestReport]) -> None:
    _, report = sqlite_corpus
    assert (report.documents, report.versions_created, report.skipped, report.repaired) == (64, 64, 0, 0)
    assert report.problems == []
    assert report.chunks > 1500


def test_every_chunk_body_is_the_text_at_its_offsets(sqlite_corpus: tuple[Corpus, IngestReport]) -> None:
    corpus, _ = sqlite_corpus
    cur = corpus.cursor()
    mismatches = cur.execute(
        """SELECT count(*) FROM chunks c JOIN document_versions v USING (document_id, version)
           WHERE substr(v.text, c.start_offset + 1, c.end_offset - c.start_offset) != c.body"""
    ).fetchone()[0]
    assert mismatches == 0
    gaps = cur.execute(
        """SELECT count(*) FROM (
               SELECT start_offset, lag(end_offset) OVER (PARTITION BY document_id, version ORDER BY ordinal) AS
               prev_end
               FROM chunks) WHERE prev_end IS NOT NULL AND prev_end != start_offset"""
    ).fetchone()[0]
    assert gaps == 0


def test_headings_are_recorded(sqlite_corpus: tuple[Corpus, IngestReport]) -> None:
    corpus, _ = sqlite_corpus
    headings = {
        r[0] for r in corpus.cursor().execute(
            """SELECT n.heading FROM nodes n JOIN documents d ON d.id = n.document_id
               WHERE d.key = 'wal.html' AND n.kind = 'section'"""
        ).fetchall()
    }
    assert any("Overview" in h for h in headings)
    assert any("Checkpointing" in h for h in headings)
    path = corpus.cursor().execute(
        """SELECT c.heading_path FROM chunks c JOIN documents d ON d.id = c.document_id
           WHERE d.key = 'pragma.html' AND c.body LIKE '%PRAGMA schema.journal_mode = DELETE | TRUNCATE%' LIMIT 1"""
    ).fetchone()[0]
    assert path[-1] == "PRAGMA journal_mode"


def test_tables_repeat_their_header_in_every_chunk(sqlite_corpus: tuple[Corpus, IngestReport]) -> None:
    corpus, _ = sqlite_corpus
    cur = corpus.cursor()
    rows = cur.execute(
        """SELECT c.table_node, c.ordinal, c.header, c.body FROM chunks c JOIN documents d ON d.id = c.document_id
           WHERE d.key = 'fileformat2.html' AND c.kind = 'table' ORDER BY c.ordinal"""
    ).fetchall()
    by_table: dict[int, list[tuple[str, str]]] = {}
    for table, _, header, body in rows:
        by_table.setdefault(table, []).append((header, body))
    multi = {t: parts for t, parts in by_table.items() if len(parts) > 1}

    def table_of(body: str) -> str:  # a short lead-in (the table's title here) opens its first chunk (c33bcfb)
        return body if body.startswith("| ") else body.split("\n\n", 1)[1]

    with_header = {t: parts for t, parts in multi.items() if table_of(parts[0][1]).split("\n")[1].startswith("| ---")}
    assert len(with_header) >= 2, "fileformat2.html has headed tables long enough to span several chunks"
    for parts in multi.values():
        if table_of(parts[0][1]).split("\n")[1].startswith("| ---"):
            continue
        assert all(header == "" for header, _ in parts)  # a table without a header row repeats nothing
    for parts in with_header.values():
        first_header, first_body = parts[0]
        assert first_header == ""
        header = parts[1][0]
        assert header and table_of(first_body).startswith(header)
        assert header.splitlines()[-1].startswith("| ---")
        for later_header, later_body in parts[1:]:
            assert later_header == header and later_body.startswith("| ") and not later_body.startswith(header)
    offset_44 = cur.execute(
        """SELECT c.header || chr(10) || c.body FROM chunks c JOIN documents d ON d.id = c.document_id
           WHERE d.key = 'fileformat2.html' AND c.kind = 'table'
             AND c.body LIKE '%| 44 | 4 | The schema format number.%'"""
    ).fetchone()[0]
    assert offset_44.startswith("| Offset | Size | Description |")
    first = cur.execute(
        """SELECT c.body FROM chunks c JOIN documents d ON d.id = c.document_id
           WHERE d.key = 'fileformat2.html' AND c.kind = 'table' AND c.body LIKE '%| 0 | 16 | The header string%'"""
    ).fetchone()[0]
    assert first.startswith("Database Header Format\n\n| Offset | Size | Description |\n| --- |")


def test_inter_page_links_are_resolved_and_dangling_ones_kept(sqlite_corpus: tuple[Corpus, IngestReport]) -> None:
    corpus, report = sqlite_corpus
    cur = corpus.cursor()
    resolved, dangling = cur.execute(
        "SELECT count(*) FILTER (WHERE dst IS NOT NULL), count(*) FILTER (WHERE dst IS NULL) FROM edges WHERE graph "
        "= 'links'"
    ).fetchone()
    assert resolved > 1000 and dangling > 1000
    assert report.links_dangling == dangling
    # pragma.html links to lang_vacuum.html; the edge lands on a chunk of that page
    target = cur.execute(
        """SELECT dk.key FROM edges e
           JOIN documents sd ON e.src LIKE 'ev1:c:' || sd.id || ':%'
           JOIN documents dk ON e.dst LIKE 'ev1:c:' || dk.id || ':%'
           WHERE e.graph = 'links' AND sd.key = 'pragma.html' AND e.dst_ref = 'lang_vacuum.html'
           LIMIT 1"""
    ).fetchone()
    assert target == ("lang_vacuum.html",)
    anchored = cur.execute(
        """SELECT c.body FROM edges e JOIN chunks c ON e.dst = 'ev1:c:' || c.document_id || ':' || c.version || ':'
            || c.ordinal
           WHERE e.graph = 'links' AND e.dst_ref = 'pragma.html#pragma_journal_mode' LIMIT 1"""
    ).fetchone()
    assert anchored is not None and "journal_mode" in anchored[0]
