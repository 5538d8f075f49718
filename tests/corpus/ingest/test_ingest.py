import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.errors import InputError


def chunk_rows(corpus: Corpus, key: str, version: int | None = None) -> list[tuple]:
    return corpus.cursor().execute(
        """SELECT c.ordinal, c.kind, c.sections, c.node, c.table_node, c.heading_path, c.header, c.body
           FROM documents d JOIN chunks c ON c.document_id = d.id
           WHERE d.key = ? AND c.version = coalesce(?, d.current_version) ORDER BY c.ordinal""",
        [key, version],
    ).fetchall()


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def test_acme_merged_structure_is_stored(corpus: Corpus, acme_path: Path) -> None:
    report = ingest_paths(corpus, [acme_path], collection="notes", chunk_tokens=160, merge_sections=True)
    assert (report.documents, report.versions_created, report.chunks, report.skipped) == (1, 1, 3, 0)
    rows = chunk_rows(corpus, "acme-notes.md")
    assert [(r[1], r[5]) for r in rows] == [
        ("text", ["Acme Robotics engineering notes", "Route planning"]),
        ("table", ["Acme Robotics engineering notes", "Dependencies"]),
        ("text", ["Acme Robotics engineering notes", "Data retention"]),
    ]
    headings = dict(corpus.cursor().execute("SELECT ordinal, heading FROM nodes WHERE kind != 'table'").fetchall())
    assert [headings[s] for s in rows[0][2]] == ["Route planning", "Dependencies"]
    assert rows[1][7].startswith("| Component | Owner | Purpose |")
    table_node = (
        corpus.cursor()
        .execute("SELECT ordinal, parent, first_chunk, last_chunk FROM nodes WHERE kind = 'table'")
        .fetchall()
    )
    assert table_node == [(rows[1][4], rows[1][2][0], 1, 1)]
    text = corpus.cursor().execute("SELECT text FROM document_versions").fetchone()[0]
    assert "".join(r[7] for r in rows) == text


def test_acme_default_has_three_chunks(corpus: Corpus, acme_path: Path) -> None:
    ingest_paths(corpus, [acme_path], chunk_tokens=160)
    # "Dependencies" and its one-sentence lead-in open the table's chunk
    assert [r[1] for r in chunk_rows(corpus, "acme-notes.md")] == ["text", "table", "text"]


def test_built_in_graphs(corpus: Corpus, acme_path: Path) -> None:
    ingest_paths(corpus, [acme_path], chunk_tokens=160)
    graphs = dict(corpus.cursor().execute("SELECT graph, count(*) FROM edges GROUP BY graph").fetchall())
    # root -> h1, h1 -> three h2 sections, Dependencies -> its table
    assert graphs == {"section_hierarchy": 5, "reading_order": 2}
    nexts = corpus.cursor().execute("SELECT src, dst FROM edges WHERE graph = 'reading_order' ORDER BY src").fetchall()
    assert nexts == [(f"ev1:c:1:1:{i}", f"ev1:c:1:1:{i + 1}") for i in range(2)]


def test_unchanged_is_a_no_op_and_changed_makes_a_version(corpus: Corpus, tmp_path: Path, acme_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    target = folder / "acme-notes.md"
    shutil.copy(acme_path, target)
    first = ingest_paths(corpus, [folder], chunk_tokens=160)
    again = ingest_paths(corpus, [folder], chunk_tokens=160)
    assert (first.versions_created, again.versions_created, again.unchanged) == (1, 0, 1)
    old_rows = chunk_rows(corpus, "acme-notes.md")
    target.write_text(target.read_text().replace("30 days", "45 days"))
    changed = ingest_paths(corpus, [folder], chunk_tokens=160)
    assert changed.versions_created == 1
    stats = corpus.stats()[0]
    assert (stats.documents, stats.versions, stats.superseded_versions) == (1, 2, 1)
    assert chunk_rows(corpus, "acme-notes.md", version=1) == old_rows
    assert "45 days" in chunk_rows(corpus, "acme-notes.md")[-1][7]
    # a different chunking of the same content is a new version too
    assert ingest_paths(corpus, [folder], chunk_tokens=64).versions_created == 1


def test_a_newer_chunker_re_chunks_unchanged_content(corpus: Corpus, tmp_path: Path, acme_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import clew.corpus.ingest.prepare as prepare

    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(acme_path, folder / "acme-notes.md")
    assert ingest_paths(corpus, [folder], chunk_tokens=160).versions_created == 1
    monkeypatch.setattr(prepare, "CHUNKER_REVISION", prepare.CHUNKER_REVISION + 1)
    again = ingest_paths(corpus, [folder], chunk_tokens=160)
    assert (again.versions_created, again.unchanged) == (1, 0)


def test_a_reader_that_reads_the_same_text_better_makes_a_new_version(corpus: Corpus, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """After an upgrade whose reader finds more structure in the same text (a heading, a link), a re-ingest
    stores the better reading; the same reading twice is unchanged (U6: reStructuredText pages kept their old,
    linkless rows)."""
    import clew.corpus.ingest.prepare as prepare

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("# Guide\n\nRead the [setup](setup.md) first.\n\n## Usage\n\nRun it.\n")
    (folder / "setup.md").write_text("# Setup\n\nInstall it.\n")
    real = prepare.PARSERS["markdown"]

    def flat(source: str) -> Any:  # an older reader: the same text, without its links
        parsed = real(source)
        parsed.links = []
        return parsed

    monkeypatch.setitem(prepare.PARSERS, "markdown", flat)
    assert ingest_paths(corpus, [folder], workers=1).versions_created == 2
    assert ingest_paths(corpus, [folder], workers=1).unchanged == 2
    monkeypatch.setitem(prepare.PARSERS, "markdown", real)
    better = ingest_paths(corpus, [folder], workers=1)
    assert (better.versions_created, better.unchanged) == (1, 1)  # guide.md's link is new; setup.md read the same
    assert better.links_resolved == 1
    assert ingest_paths(corpus, [folder], workers=1).unchanged == 2


def test_bad_files_are_skipped_or_repaired_by_name(corpus: Corpus, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "empty.md").write_text("  \n\n")
    (folder / "binary.txt").write_bytes(b"\x89PNG\r\n\x00\x00\x00IHDR")
    (folder / "latin1.txt").write_bytes("Caf\xe9 opening hours are 9 to 5.".encode("latin-1"))
    (folder / "image.png").write_bytes(b"\x89PNG")
    (folder / "broken.html").write_text("<html><body><h1>Broken<p>unclosed <b>bold <table><tr><td>cell")
    (folder / "good.md").write_text("# Good\n\nFine text.\n")
    report = ingest_paths(corpus, [folder], chunk_tokens=160)
    problems = {Path(p.path).name: (p.skipped, p.message) for p in report.problems}
    assert problems["empty.md"] == (True, "empty file")
    assert problems["binary.txt"][0] is True and "binary" in problems["binary.txt"][1]
    assert problems["image.png"][0] is True and "unsupported file type" in problems["image.png"][1]
    # a file skipped for its type says which, so that callers count them by type (clew ingest does)
    assert {Path(p.path).name: p.unread_type for p in report.problems if p.unread_type} == {"image.png": ".png"}
    assert problems["latin1.txt"][0] is False and "replaced 1 undecodable byte" in problems["latin1.txt"][1]
    assert (report.skipped, report.repaired, report.versions_created) == (3, 1, 3)
    keys = {r[0] for r in corpus.cursor().execute("SELECT key FROM documents").fetchall()}
    assert keys == {"latin1.txt", "broken.html", "good.md"}


def test_an_html_page_with_a_nul_character_is_read_as_browsers_read_it(corpus: Corpus, tmp_path: Path) -> None:
    """javadoc 17 writes the character '\\0' as itself in CharUtils' page (commons-lang3's ``NUL`` constant): the
    page was skipped as a binary file, the class missing from the API (task U12). An HTML page reads without its NUL
    characters, as browsers show it; a page of many NUL bytes (one in 1,000) or any other file with one is still
    binary."""
    folder = tmp_path / "api"
    folder.mkdir()
    about = b"<p>" + b"Operations on char primitives and Character objects. " * 20 + b"</p>"  # 1 KB as pages are
    (folder / "CharUtils.html").write_bytes(b"<!DOCTYPE HTML>\n<html><head><title>CharUtils</title></head><body><h1>"
                                            b"Class CharUtils</h1><p><code>\x00</code> null control character "
                                            b"('\\0'), abbreviated NUL.</p>" + about + b"</body></html>")
    (folder / "data.html").write_bytes(b"\x89PNG\r\n\x00\x00\x00IHDR")
    (folder / "blob.html").write_bytes(b"<html>\x00\x01\x02</html>")
    report = ingest_paths(corpus, [folder], chunk_tokens=160)
    assert sorted((Path(p.path).name, p.message) for p in report.problems) == [
        ("blob.html", "binary file (NUL bytes)"), ("data.html", "binary file (NUL bytes)")]
    text = corpus.cursor().execute("SELECT text FROM document_versions").fetchone()[0]
    assert text.startswith("# Class CharUtils\n\nnull control character ('\\0'), abbreviated NUL.\n\nOperations")


def test_an_html_page_is_read_in_the_encoding_it_declares(corpus: Corpus, tmp_path: Path) -> None:
    """An ISO-8859-1 page (DocBook XSL's default) with its meta charset is read as browsers read it: its
    no-break spaces and accents are text, not U+FFFD, and nothing is reported."""
    folder = tmp_path / "docbook"
    folder.mkdir()
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'
            "<title>Installing</title></head><body><h1>Chapter\xa01.\xa0Installing</h1>"
            "<p>Caf\xe9 opening hours are 9 to 5.</p></body></html>")
    (folder / "ch01.html").write_bytes(page.encode("latin-1"))
    report = ingest_paths(corpus, [folder], chunk_tokens=160)
    assert report.problems == []
    text = corpus.cursor().execute("SELECT text FROM document_versions").fetchone()[0]
    assert "Caf\xe9 opening hours" in text and "Chapter 1. Installing" in text and "\ufffd" not in text


def test_jsonl_records_keep_fields_and_report_bad_lines(corpus: Corpus, tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(
        json.dumps(
            {"key": "policy-1", "text": "Laptops are replaced every three years.", "title": "Laptops", "acl": ["it"]}
        )
        + "\n{not json\n"
        + json.dumps({"key": "policy-2", "text": "Badges must be worn on site.", "status": "draft"})
        + "\n"
    )
    report = ingest_paths(corpus, [path], chunk_tokens=160)
    assert report.versions_created == 2 and report.skipped == 1
    assert report.problems[0].path.endswith("records.jsonl:2")
    fields = dict(
        corpus.cursor()
        .execute("SELECT d.key, v.fields FROM documents d JOIN document_versions v ON v.document_id = d.id")
        .fetchall()
    )
    assert json.loads(fields["policy-1"]) == {"title": "Laptops", "acl": ["it"]}
    assert json.loads(fields["policy-2"]) == {"status": "draft"}


def test_links_resolve_to_the_anchored_chunk_and_dangle_otherwise(corpus: Corpus, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    (folder / "guide").mkdir(parents=True)
    (folder / "guide" / "start.md").write_text(
        "# Start\n\nSee [the retention rules](../policy.md#data-retention) and [missing](../nowhere.md) "
        "and [web](https://example.org/x).\n"
    )
    # only the first document arrives in this batch: its links dangle until policy.md exists
    first = ingest_paths(corpus, [folder], glob="guide/*.md", chunk_tokens=160)
    assert first.links_dangling == 3
    (folder / "policy.md").write_text("# Policy\n\n## Intro\n\nHello.\n\n## Data retention\n\nLogs are kept 30 days.\n")
    report = ingest_paths(corpus, [folder], glob="**/*.md", chunk_tokens=160)
    assert (report.versions_created, report.unchanged) == (1, 1)
    assert report.links_dangling == 2
    rows = corpus.cursor().execute(
        "SELECT dst_ref, dst FROM edges WHERE graph = 'links' ORDER BY dst_ref"
    ).fetchall()
    resolved = dict(rows)
    assert resolved["https://example.org/x"] is None
    assert resolved["nowhere.md"] is None
    dst = resolved["policy.md#data-retention"]
    body = corpus.cursor().execute(
        "SELECT c.body FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.key = 'policy.md' "
        "AND 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal = ?", [dst]
    ).fetchone()[0]
    assert "Logs are kept 30 days." in body


def test_site_style_links_resolve_without_suffix_from_the_collection_root(corpus: Corpus, tmp_path: Path) -> None:
    """npm's docs link to ``/commands/npm-install`` and ``../using-npm/config#save-exact``."""
    folder = tmp_path / "docs"
    (folder / "commands").mkdir(parents=True)
    (folder / "using-npm").mkdir()
    (folder / "commands" / "npm-install.md").write_text(
        "# npm install\n\nSee [config](/using-npm/config#save-exact), [ci](npm-ci), [guides](/using-npm/) "
        "and [nothing](/commands/npm-nothing).\n")
    (folder / "commands" / "npm-ci.md").write_text(
        "# npm ci\n\nClean install. Back to [install](./npm-install), see [exact](../using-npm/config#save-exact).\n")
    (folder / "using-npm" / "config.md").write_text(
        "# Config\n\n## Intro\n\nSettings.\n\n## save-exact\n\nSaved dependencies use an exact version.\n")
    (folder / "using-npm" / "index.md").write_text("# Using npm\n\nThe guides.\n")
    report = ingest_paths(corpus, [folder], glob="**/*.md", chunk_tokens=16)
    assert (report.links_resolved, report.links_dangling) == (5, 1)
    assert report.links_dangling_by_reason == {"missing_document": 1}
    rows = dict(corpus.cursor().execute(
        """SELECT e.dst_ref, d.key || ':' || c.body FROM edges e
           LEFT JOIN chunks c ON e.dst = 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal
           LEFT JOIN documents d ON d.id = c.document_id WHERE e.graph = 'links'""").fetchall())
    assert rows["/using-npm/config#save-exact"].startswith("using-npm/config.md:") and "exact version" in rows[
        "/using-npm/config#save-exact"]
    assert rows["commands/npm-ci"].startswith("commands/npm-ci.md:")
    assert rows["using-npm/config#save-exact"] == rows["/using-npm/config#save-exact"]  # ../ from commands/
    assert rows["commands/npm-install"].startswith("commands/npm-install.md:")
    assert rows["/using-npm"].startswith("using-npm/index.md:")
    assert rows["/commands/npm-nothing"] is None


@pytest.mark.parametrize(("cpus", "files", "two_cpu_bytes", "expected"), [
    (2, 80, None, 1),  # 80 tiny files: far below what pays on 2 CPUs
    (2, 80, 1000, 2),  # the same files once they count as enough to parse
    (2, 10, 1000, 1),  # too few files whatever their size
    (1, 80, 1000, 1),
    (4, 80, None, 4), (16, 80, None, 4), (8, 10, None, 1),
])
def test_the_pool_starts_only_with_enough_cpus_and_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cpus: int,
                                                         files: int, two_cpu_bytes: int | None, expected: int) -> None:
    from clew.corpus.ingest import api as ingest

    if two_cpu_bytes is not None:
        monkeypatch.setattr(ingest, "TWO_CPU_POOL_MIN_BYTES", two_cpu_bytes)

    chosen = []
    real = ingest.iter_prepared

    def recorded(sources, config, problems, workers=1):  # noqa: ANN001, ANN202
        chosen.append(workers)
        return real(sources, config, problems, 1)

    monkeypatch.setattr(ingest.os, "cpu_count", lambda: cpus)
    monkeypatch.setattr(ingest, "iter_prepared", recorded)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(files):
        (folder / f"d{i}.md").write_text(f"# D{i}\n\nText {i}.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        assert ingest_paths(corpus, [folder], chunk_tokens=64, workers="auto").chunks == files
        assert ingest_paths(corpus, [folder], chunk_tokens=64).unchanged == files  # the library default
    assert chosen == [expected, 1]


def test_the_size_that_decides_the_pool_on_two_cpus_counts_every_file_found(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.ingest import api as ingest

    monkeypatch.setattr(ingest.os, "cpu_count", lambda: 2)
    (tmp_path / "a.md").write_text("x" * 300)
    (tmp_path / "b.md").write_text("y" * 700)
    files = [(tmp_path / "a.md", "a.md"), (tmp_path / "b.md", "b.md"), (tmp_path / "gone.md", "gone.md")]
    assert ingest.total_size(files) == 1000  # a file removed since it was found counts nothing
    assert ingest.auto_workers(ingest.POOL_MIN_FILES, ingest.TWO_CPU_POOL_MIN_BYTES - 1) == 1
    assert ingest.auto_workers(ingest.POOL_MIN_FILES, ingest.TWO_CPU_POOL_MIN_BYTES) == 2
    assert ingest.auto_workers(ingest.POOL_MIN_FILES - 1, 10 * ingest.TWO_CPU_POOL_MIN_BYTES) == 1


def test_the_library_starts_no_process_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus.ingest import api as ingest

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("ingest_paths started a process pool it was not asked for")

    monkeypatch.setattr(ingest.os, "cpu_count", lambda: 16)
    monkeypatch.setattr(ingest, "ProcessPoolExecutor", refused)
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(ingest.POOL_MIN_FILES * 2):
        (folder / f"d{i}.md").write_text(f"# D{i}\n\nText {i}.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        assert ingest_paths(corpus, folder, chunk_tokens=64).documents == ingest.POOL_MIN_FILES * 2
        with pytest.raises(AssertionError, match="not asked for"):
            ingest_paths(corpus, [folder], chunk_tokens=64, workers="auto")


def test_a_missing_path_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nText.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        with pytest.raises(InputError, match="path not found: .*nope") as raised:
            ingest_paths(corpus, [tmp_path / "a.md", tmp_path / "nope"], chunk_tokens=64)
        assert raised.value.field == "paths"
        assert corpus.cursor().execute("SELECT count(*) FROM documents").fetchone()[0] == 0
        with pytest.raises(InputError, match="workers") as bad:
            ingest_paths(corpus, [tmp_path / "a.md"], chunk_tokens=64, workers=0)
        assert bad.value.field == "workers"


def test_a_worker_pool_ingests_what_one_process_does(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(6):
        (folder / f"d{i}.md").write_text(
            f"# Doc {i}\n\n## Part\n\nText {i} with SQLITE_BUSY.\n\n[next](d{(i + 1) % 6}.md)\n"
        )
    rows = []
    for workers in (1, 2):
        with Corpus(tmp_path / f"c{workers}.duckdb") as corpus:
            report = ingest_paths(corpus, [folder], chunk_tokens=64, workers=workers)
            rows.append(
                (
                    report.chunks,
                    report.links_resolved,
                    corpus.cursor()
                    .execute(
                        "SELECT d.key, c.ordinal, c.body FROM chunks c JOIN documents d ON d.id = c.document_id "
                        "ORDER BY ALL"
                    )
                    .fetchall(),
                    corpus.cursor().execute("SELECT count(*), sum(tf) FROM search_postings").fetchone(),
                )
            )
    assert rows[0] == rows[1] and rows[0][0] == 6 and rows[0][1] == 6
