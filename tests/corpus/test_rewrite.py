"""Rewriting a corpus file (``clew compact``, and every ingest once the index compaction has
freed blocks): nothing read from it changes, the free blocks go, a failure changes nothing, and
the rewrite after an ingest waits for marked readers or is put off."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.documents import list_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.rewrite import REWRITE_FREE_SHARE, give_back_free_blocks, rewrite, space
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import CorpusError
from clew.navigation.tree import TreeArgs, navigate_document_tree
from tests.conftest import Prebuilt, write_files

runner = CliRunner()
QUERIES = ["planner depot", "battery level", "launch date", "harbour tides", "section"]


def note(i: int, extra: str = "") -> str:
    return (f"# Note {i}\n\nThe planner reads the depot file {i} {extra}.\n\n## Battery\n\n"
            f"Lowest battery level allowed is {i} percent.\n\n## Tides\n\nHarbour tides turn at {i}.\n")


def build_fragmented(folder: Path) -> Path:
    """A corpus with two collections and superseded versions (retired index rows), ingested by
    three processes in turn (each compacts the index), as a clew that never rewrote the file
    after an ingest left it: over a tenth of it free blocks (14.6%; a third before schema version 4,
    whose checkpoints no longer write the per-version tables again)."""
    db = folder / "c.duckdb"
    first = write_files(folder / "a", {f"n{i}.md": note(i) for i in range(30)})
    second = write_files(folder / "b", {f"m{i}.md": note(100 + i) for i in range(10)})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("clew.corpus.rewrite.REWRITE_FREE_SHARE", 1.0)
        for source, collection in ((first, "notes"), (second, "more"), (first, "notes")):
            with Corpus(db) as corpus:
                ingest_paths(corpus, [source], collection=collection, chunk_tokens=40)
            write_files(first, {f"n{i}.md": note(i, "changed") for i in range(0, 30, 3)})
    return db


@pytest.fixture
def fragmented(tmp_path: Path, prebuilt: Prebuilt) -> Path:
    """``build_fragmented``'s corpus (``c.duckdb``) in the test's own folder: built once a session
    (six ingests' worth of CPU a test), copied for each test, which may change its copy."""
    prebuilt(build_fragmented, tmp_path)
    return tmp_path / "c.duckdb"


def everything(corpus: Corpus) -> dict[str, object]:
    """What a reader can get out of the corpus: search results, every version's passages, listings, a walk."""
    scope = Scope(corpus)
    versions = corpus.cursor().execute(
        "SELECT document_id, version FROM document_versions ORDER BY document_id, version").fetchall()
    first = f"ev1:c:{versions[0][0]}:{versions[0][1]}:1"
    return {
        "search": [search(corpus, {"query": q, "limit": 20}).model_dump() for q in QUERIES],
        "in_collection": search(corpus, {"query": "tides", "collection": "more"}).model_dump(),
        "passages": [[p.evidence_id, p.text, p.heading_path] for d, v in versions for p in scope.passages(d, v)],
        "documents": [list_documents(Scope(corpus, collection=name), include_removed=True)
                      for name in ("notes", "more")],
        "walk": navigate_document_tree(scope, TreeArgs(evidence_id=first, relation="children")).model_dump(),
        "stats": corpus.stats(),
        "sequences": corpus.cursor().execute(
            "SELECT sequence_name, last_value FROM duckdb_sequences() ORDER BY 1").fetchall(),
        "indexes": corpus.cursor().execute("SELECT index_name, sql FROM duckdb_indexes() ORDER BY 1").fetchall(),
    }


def test_compact_keeps_every_answer_and_leaves_few_free_blocks(tmp_path: Path, fragmented: Path) -> None:
    db = fragmented
    with Corpus(db, read_only=True) as corpus:
        before = everything(corpus)
        assert space(corpus).free_share > REWRITE_FREE_SHARE  # what the ingests' index compactions left
    result = runner.invoke(app, ["compact", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)["result"]
    assert report["after"]["free_share"] <= 0.10 and report["after"]["bytes"] < report["before"]["bytes"]
    with Corpus(db, read_only=True) as corpus:
        assert everything(corpus) == before
        assert space(corpus).free_share <= 0.10
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["c.duckdb"]  # no copy left behind


def test_the_corpus_stays_open_on_the_new_file_and_keeps_its_ids(tmp_path: Path, fragmented: Path) -> None:
    db = fragmented
    with Corpus(db) as corpus:
        highest = corpus.cursor().execute("SELECT max(id) FROM documents").fetchone()[0]
        report = rewrite(corpus)
        assert report.after.free_blocks <= 0.10 * report.after.total_blocks
        assert space(corpus) == report.after  # read through the reopened connection
        ingest_paths(corpus, [write_files(tmp_path / "c", {"late.md": note(999)})], collection="notes",
                     chunk_tokens=40)
    with Corpus(db, read_only=True) as corpus:
        (late,) = corpus.cursor().execute("SELECT id FROM documents WHERE key = 'late.md'").fetchall()
        assert late[0] > highest  # the sequences went on from where they were
        assert search(corpus, {"query": "depot file 999"}).hits[0].document_key == "late.md"


def test_a_failed_rewrite_changes_nothing(tmp_path: Path, fragmented: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = fragmented
    with Corpus(db) as corpus:
        before = everything(corpus)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("clew.corpus.rewrite.os.replace", refuse)
    with Corpus(db) as corpus:
        with pytest.raises(CorpusError, match="cannot compact the corpus \\(it is unchanged\\): disk full"):
            rewrite(corpus)
        assert everything(corpus) == before  # still open, on the old file
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["c.duckdb"]


def test_a_corpus_another_process_holds_is_not_compacted(fragmented: Path) -> None:
    db = fragmented
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, duckdb
        con = duckdb.connect({str(db)!r}, read_only=True)
        print("open", flush=True)
        sys.stdin.readline()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        result = runner.invoke(app, ["compact", "--db", str(db)])
        assert result.exit_code == 3 and "cannot open the corpus" in result.output
    finally:
        holder.communicate("\n", timeout=60)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_read_only_and_in_memory_corpora_are_refused(fragmented: Path) -> None:
    db = fragmented
    with Corpus(db, read_only=True) as corpus, pytest.raises(CorpusError, match="open read-only"):
        rewrite(corpus)
    with Corpus(":memory:") as corpus, pytest.raises(CorpusError, match="in-memory corpus has no file"):
        rewrite(corpus)


def test_cli_ingest_gives_back_what_the_index_compaction_freed(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    first = write_files(tmp_path / "a", {f"n{i}.md": note(i) for i in range(30)})
    second = write_files(tmp_path / "b", {f"m{i}.md": note(100 + i) for i in range(10)})
    assert runner.invoke(app, ["ingest", str(first), "--db", str(db), "--chunk-tokens", "40"]).exit_code == 0
    result = runner.invoke(app, ["ingest", str(second), "--db", str(db), "--chunk-tokens", "40"])
    assert result.exit_code == 0, result.output
    assert "file compacted:" in result.stderr  # a third more postings: the index was compacted, then the file
    with Corpus(db, read_only=True) as corpus:
        assert space(corpus).free_share <= REWRITE_FREE_SHARE
        assert search(corpus, {"query": "depot file 105"}).hits[0].document_key == "m5.md"


def test_python_ingest_gives_back_what_the_index_compaction_freed(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    first = write_files(tmp_path / "a", {f"n{i}.md": note(i) for i in range(30)})
    second = write_files(tmp_path / "b", {f"m{i}.md": note(100 + i) for i in range(10)})
    with Corpus(db) as corpus:
        assert ingest_paths(corpus, [first], chunk_tokens=40).file_compacted is None  # a fresh file: nothing freed
        report = ingest_paths(corpus, [second], collection="more", chunk_tokens=40)
        done = report.file_compacted
        assert done is not None and not report.file_compaction_deferred
        assert done.free_share_before > REWRITE_FREE_SHARE >= done.free_share_after
        assert done.mb_after < done.mb_before
        assert space(corpus).free_share <= REWRITE_FREE_SHARE
        assert search(corpus, {"query": "depot file 105"}).hits[0].document_key == "m5.md"  # open on the new file


def test_one_file_ingests_into_a_small_corpus_leave_its_file_the_size_it_was(tmp_path: Path) -> None:
    """Each small ingest's rows take blocks of their own, which DuckDB counts as used, not free: the rewrite after
    it (its checkpoints leave more than ``REWRITE_FREE_SHARE`` free) is what gives them back. Left to DuckDB (a
    floor of free bytes under which nothing is rewritten, task F2), each one-file ingest grew the file by 1.5 MB."""
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [write_files(tmp_path / "a", {f"n{i}.md": note(i) for i in range(20)})])
        sizes = []
        for i in range(3):
            report = ingest_paths(corpus, [write_files(tmp_path / f"one{i}", {f"m{i}.md": note(100 + i)})])
            assert report.file_compacted is not None
            sizes.append(db.stat().st_size)
    assert sizes[2] <= sizes[0]


def test_clew_rm_gives_back_free_blocks_as_an_ingest_does(fragmented: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("clew.corpus.rewrite.REWRITE_FREE_SHARE", 0.02)  # the removal's writes reuse free blocks
    with Corpus(fragmented, read_only=True) as corpus:
        assert space(corpus).free_share > 0.02
    result = runner.invoke(app, ["rm", "n1.md", "--db", str(fragmented), "--collection", "notes"])
    assert result.exit_code == 0, result.output
    assert "file compacted:" in result.stderr and "retired n1.md" in result.stdout
    with Corpus(fragmented, read_only=True) as corpus:
        assert space(corpus).free_share <= 0.02
        keys = [row.key for row in list_documents(Scope(corpus, collection="notes"))]
        assert "n1.md" not in keys and "n2.md" in keys
    missing = runner.invoke(app, ["rm", "gone.md", "--db", str(fragmented), "--collection", "notes", "--json"])
    assert missing.exit_code == 1 and json.loads(missing.stdout)["result"]["file_compacted"] is None  # nothing written


def test_the_rewrite_after_an_ingest_is_put_off_while_a_marked_reader_reads(fragmented: Path) -> None:
    db = fragmented
    with Corpus(db) as corpus:
        corpus.readers.enter()  # a request still reading (a server's)
        assert give_back_free_blocks(corpus, wait_seconds=0.2) == (None, True)
        assert space(corpus).free_share > REWRITE_FREE_SHARE
        corpus.readers.leave()
        done, deferred = give_back_free_blocks(corpus, wait_seconds=0.2)
        assert done is not None and not deferred and space(corpus).free_share <= REWRITE_FREE_SHARE


def test_the_rewrite_waits_for_a_reader_to_finish_and_later_readers_wait_for_it(fragmented: Path) -> None:
    db = fragmented
    with Corpus(db) as corpus:
        corpus.readers.enter()
        generation = corpus.generation
        seen: list[tuple[int, int]] = []

        def finish_reading() -> None:
            time.sleep(0.3)
            corpus.readers.leave()

        def read_later() -> None:
            time.sleep(0.1)  # arrives while the rewrite waits or runs
            with corpus.readers.reading():
                (chunks,) = corpus.cursor().execute("SELECT count(*) FROM chunks").fetchone()
                seen.append((corpus.generation, chunks))

        threads = [threading.Thread(target=finish_reading), threading.Thread(target=read_later)]
        for thread in threads:
            thread.start()
        done, deferred = give_back_free_blocks(corpus, wait_seconds=30)
        for thread in threads:
            thread.join()
        assert done is not None and not deferred
        chunks = corpus.cursor().execute("SELECT count(*) FROM chunks").fetchone()[0]
        assert seen == [(generation + 1, chunks)]  # it read once the file was swapped and reopened


def test_the_copy_runs_under_a_lower_memory_limit_that_is_then_restored(tmp_path: Path) -> None:
    import duckdb

    from clew.corpus.checkpoint import size_bytes
    from clew.corpus.rewrite import REWRITE_MEMORY_LIMIT, _lower_memory_limit

    con = duckdb.connect(str(tmp_path / "limits.duckdb"))
    default = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    restore = _lower_memory_limit(con)
    assert restore == "RESET memory_limit"
    lowered = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    assert size_bytes(lowered) == pytest.approx(size_bytes(REWRITE_MEMORY_LIMIT), rel=0.1)
    con.execute(restore)
    assert con.execute("SELECT current_setting('memory_limit')").fetchone()[0] == default
    con.execute("SET memory_limit = '5GB'")  # a limit of the caller's own is put back as it was
    five = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    restore = _lower_memory_limit(con)
    assert restore == f"SET memory_limit = '{five}'"
    con.execute(restore)  # as DuckDB shows it, so within its rounding (4.6 GiB may read back 4.5)
    back = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    assert size_bytes(back) == pytest.approx(size_bytes(five), rel=0.05)
    con.execute("SET memory_limit = '500MB'")  # already lower: left alone
    assert _lower_memory_limit(con) is None
    con.close()


def test_a_rewrite_leaves_the_reopened_corpus_at_the_default_memory_limit(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome words about limits.\n", encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs])
        default = corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0]
        rewrite(corpus)
        assert corpus.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0] == default
        assert search(corpus, {"query": "limits"}).hits[0].document_key == "a.md"  # still reads


def table_digests(corpus: Corpus) -> dict[str, str]:
    """An md5 of every table's rows in order of their text, times of ingest left out (two ingests differ there)."""
    cur = corpus.cursor()
    digests = {}
    for (name,) in cur.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall():
        columns = ", ".join(f'"{c}"' for (c,) in cur.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = ? AND data_type NOT LIKE 'TIMESTAMP%' "
            "ORDER BY column_index", [name]).fetchall())
        digests[name] = cur.execute(f"SELECT md5(coalesce(string_agg(t::VARCHAR, '|' ORDER BY t::VARCHAR), '')) "
                                    f"FROM (SELECT {columns} FROM {name}) t").fetchone()[0]
    return digests


@pytest.fixture(scope="module")
def before_the_crash(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The notes folder (its third ingest's files), ``ingested_twice.duckdb`` (its first two ingests, with a
    second collection between them) and ``plain.duckdb`` (the same, then the third ingest in one process):
    built once for both of the killed-process tests (three ingests each, about 0.9 s of CPU)."""
    root = tmp_path_factory.mktemp("crash")
    folder = write_files(root / "a", {f"n{i}.md": note(i) for i in range(30)})
    more = write_files(root / "b", {f"m{i}.md": note(100 + i) for i in range(10)})
    plain, twice = root / "plain.duckdb", root / "ingested_twice.duckdb"
    with Corpus(plain) as corpus:
        ingest_paths(corpus, [folder], collection="notes", chunk_tokens=40)
        ingest_paths(corpus, [more], collection="more", chunk_tokens=40)
    assert not list(root.glob("plain.duckdb.*"))  # closed whole: the one file is the corpus
    shutil.copyfile(plain, twice)  # the same two ingests, done once
    write_files(folder, {f"n{i}.md": note(i, "changed") for i in range(0, 30, 3)})
    with Corpus(plain) as corpus:
        ingest_paths(corpus, [folder], collection="notes", chunk_tokens=40)
    return folder, twice, plain


@pytest.mark.parametrize("dies_in", ["clew.corpus.search.index._refill", "clew.corpus.store.Corpus.finish_compaction"])
def test_a_process_killed_between_the_compactions_two_steps_loses_nothing(
        tmp_path: Path, dies_in: str, before_the_crash: tuple[Path, Path, Path]) -> None:
    """The staged compaction's first commit drops the unsorted postings; a process that dies before
    (``_refill``: the commit only in the write-ahead log) or after the checkpoint between the steps
    leaves the sorted postings in Parquet files, which the next read-write open writes back."""
    folder, twice, plain = before_the_crash
    crashed = tmp_path / "crashed.duckdb"
    shutil.copyfile(twice, crashed)
    patch = ("store.Corpus.finish_compaction = lambda self: os._exit(9)" if dies_in.endswith("finish_compaction")
             else "index._refill = lambda corpus: os._exit(9)")
    child = textwrap.dedent(f"""
        import os
        import clew.corpus.search.index as index
        import clew.corpus.store as store
        from clew.corpus.ingest.api import ingest_paths
        {patch}
        corpus = store.Corpus({str(crashed)!r})
        ingest_paths(corpus, [{str(folder)!r}], collection="notes", chunk_tokens=40)
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    staged = sorted(p.name for p in tmp_path.glob("crashed.duckdb.postings-*.parquet"))
    assert len(staged) == 1 and re.fullmatch(r"crashed\.duckdb\.postings-[0-9a-f]{12}-0\.parquet", staged[0])
    with pytest.raises(CorpusError, match=r"compaction was interrupted.*clew compact --db"):
        Corpus(crashed, read_only=True)  # a reader cannot write the postings back: it names the fix
    with Corpus(crashed) as corpus:  # the read-write open finishes the compaction
        assert not list(tmp_path.glob("crashed.duckdb.postings-*"))
        cur = corpus.cursor()
        assert cur.execute("SELECT count(*) FROM clew_meta WHERE key = 'pending_postings'").fetchone()[0] == 0
        unsorted = cur.execute(
            """SELECT count(*) FROM (SELECT term_id, chunk_id, lag(term_id) OVER (ORDER BY rowid) AS t,
               lag(chunk_id) OVER (ORDER BY rowid) AS c FROM search_postings)
               WHERE t > term_id OR (t = term_id AND c > chunk_id)"""
        ).fetchone()[0]
        assert unsorted == 0 and cur.execute("SELECT count(*) FROM search_postings").fetchone()[0] > 0
        recovered, recovered_tables = everything(corpus), table_digests(corpus)
    with Corpus(plain, read_only=True) as corpus:
        expected = everything(corpus)
        assert {k: v for k, v in recovered.items() if k != "documents"} == {
            k: v for k, v in expected.items() if k != "documents"}  # listings differ in their times of ingest
        assert recovered_tables == table_digests(corpus)
        assert len(recovered_tables) > 10 and recovered["search"][0]["hits"]


def test_a_compaction_with_a_reader_inside_runs_in_one_transaction(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the two steps ``search_postings`` is empty: a reader that does not leave (a server's
    request) makes the compaction keep to one transaction, so no reader ever meets the empty table."""
    import clew.corpus.search.index as index

    def staged(*args: object) -> list[str]:
        raise AssertionError("the postings were staged with a reader inside")

    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "a", {f"n{i}.md": note(i) for i in range(30)})
    with Corpus(db) as corpus:
        ingest_paths(corpus, [folder], collection="notes", chunk_tokens=40)
        write_files(folder, {f"n{i}.md": note(i, "changed") for i in range(0, 30, 3)})
        monkeypatch.setattr(index, "READERS_WAIT_SECONDS", 0.05)
        monkeypatch.setattr("clew.corpus.rewrite.READERS_WAIT_SECONDS", 0.05)  # the file rewrite after it
        monkeypatch.setattr(index, "_stage_sorted", staged)
        with corpus.readers.reading():
            ingest_paths(corpus, [folder], collection="notes", chunk_tokens=40)
            with corpus.transaction() as cur:
                assert index.is_compact(cur)
            hits = search(corpus, {"query": "planner depot changed", "limit": 5}).hits
            assert hits and all(h.version == 2 for h in hits if "changed" in h.text)
    assert not list(tmp_path.glob("c.duckdb.postings-*"))


def test_a_failure_to_sync_the_staged_postings_defers_the_compaction(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The sorted postings' file cannot be synced (an I/O error): the compaction is rolled back and
    reported deferred, the ingested documents are stored and searchable, and no record waits."""
    import clew.corpus.search.index as index

    def failing(path: Path) -> None:
        raise OSError(5, "Input/output error", str(path))

    db = tmp_path / "c.duckdb"
    folder = write_files(tmp_path / "a", {f"n{i}.md": note(i) for i in range(30)})
    with Corpus(db) as corpus:  # a first ingest writes its postings sorted (no compaction): the index is not empty
        ingest_paths(corpus, [write_files(tmp_path / "first", {"n0.md": note(0)})], collection="notes",
                     chunk_tokens=40)
    monkeypatch.setattr(index, "fsync", failing)  # as index.py imported it
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [folder], collection="notes", chunk_tokens=40)
        assert report.compaction_deferred and report.documents == 30
        cur = corpus.cursor()
        assert cur.execute("SELECT count(*) FROM clew_meta WHERE key = 'pending_postings'").fetchone()[0] == 0
        assert search(corpus, {"query": "harbour tides", "limit": 5}).hits
    monkeypatch.undo()
    with Corpus(db) as corpus:  # the next compaction removes the unsynced file and runs
        index.compact(corpus)
        with corpus.transaction() as cur:
            assert index.is_compact(cur)
    assert not list(tmp_path.glob("c.duckdb.postings-*"))
