"""Two writers of one ``Corpus`` in one process (threads, ``aingest_paths`` in ``asyncio.gather``) take turns
(``Corpus.turn``, ``clew.corpus.write_turn``), each for its whole write with its index compaction and file
rewrite; a second process is refused with an error naming the file and the process that holds it.

The overlaps are forced, not hoped for: the first writer holds inside its write until the second is either
inside its own (the fault) or queued for the turn (``WriteTurn.waiting``), with events, never a sleep."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import clew.corpus.search.index as index
from clew.corpus.aio import aingest_paths
from clew.corpus.ingest.api import IngestReport, ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import CorpusError, StoreFailure
from tests.conftest import write_files

WAIT_SECONDS = 30
"""A bound on waits that end at once when the code is right (an event set, a writer queued)."""


def page(writer: str, i: int, extra: str = "") -> str:
    return (f"# {writer.title()} {i}\n\nThe {writer}{i} planner reads depot {i} {extra}.\n\n"
            f"## Battery\n\nLowest battery level for {writer}{i} is {i} percent {extra}.\n")


def folders(tmp_path: Path, extra: str) -> dict[str, Path]:
    return {w: write_files(tmp_path / w, {f"{w}{i}.md": page(w, i, extra) for i in range(6)})
            for w in ("alpha", "beta")}


class Overlap:
    """The first writer to call ``inside`` holds there until the second is inside too or queued for the turn."""

    def __init__(self, corpus: Corpus) -> None:
        self.turn = corpus.turn
        self.seen: list[str] = []
        self._lock = threading.Lock()

    def inside(self, who: str) -> None:
        with self._lock:
            if who in self.seen:
                return
            self.seen.append(who)
            first = len(self.seen) == 1
        with self.turn.changed:
            if first:
                self.turn.changed.wait_for(lambda: len(self.seen) == 2 or self.turn.waiting == 1, WAIT_SECONDS)
                self.seen.append("second inside" if len(self.seen) == 2 else "second queued")
            else:
                self.turn.changed.notify_all()

    def on_document(self, who: str) -> Callable[[str], None]:
        return lambda key: self.inside(who)


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ingest compacts the index (two steps, staged files) and rewrites the file (documented thresholds)."""
    monkeypatch.setattr(index, "COMPACT_SHARE", -1.0)
    monkeypatch.setattr("clew.corpus.rewrite.REWRITE_FREE_SHARE", -1.0)


def check_stored(corpus: Corpus, reports: list[IngestReport]) -> None:
    assert all(r.file_compacted is not None and not r.file_compaction_deferred and not r.compaction_deferred
               for r in reports), [(r.file_compacted, r.file_compaction_deferred, r.compaction_deferred)
                                    for r in reports]
    rows = corpus.cursor().execute("SELECT d.key, d.current_version, count(v.version) FROM documents d JOIN "
                                   "document_versions v ON v.document_id = d.id GROUP BY ALL ORDER BY 1").fetchall()
    assert rows == [(f"{w}{i}.md", 2, 2) for w in ("alpha", "beta") for i in range(6)]
    for w in ("alpha", "beta"):
        for i in range(6):
            hits = search(corpus, {"query": f"{w}{i} planner", "limit": 3}).hits
            assert hits and hits[0].document_key == f"{w}{i}.md", (w, i)
            assert hits[0].version == 2 and "round two" in hits[0].text


@pytest.mark.usefixtures("forced")
def test_two_threads_ingesting_into_one_corpus_take_turns_and_each_compacts_and_rewrites(tmp_path: Path) -> None:
    """Before the turns the second ingest ran inside the first: the one that ended while the other's bulk
    write was open skipped its file rewrite and reported neither a rewrite nor one put off."""
    with Corpus(tmp_path / "c.duckdb") as corpus:
        for folder in folders(tmp_path, "round one").values():
            ingest_paths(corpus, [folder], collection="notes")
        overlap = Overlap(corpus)
        changed = folders(tmp_path, "round two")
        with ThreadPoolExecutor(2) as pool:
            reports = list(pool.map(lambda w: ingest_paths(corpus, [changed[w]], collection="notes",
                                                           on_document=overlap.on_document(w)), changed))
        assert overlap.seen[1] == "second queued", overlap.seen
        check_stored(corpus, reports)
    assert not list(tmp_path.glob("c.duckdb.*"))  # no staged postings, no log left beside the file


@pytest.mark.usefixtures("forced")
def test_aingest_paths_twice_in_asyncio_gather_take_turns(tmp_path: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        for folder in folders(tmp_path, "round one").values():
            ingest_paths(corpus, [folder], collection="notes")
        overlap = Overlap(corpus)
        changed = folders(tmp_path, "round two")

        async def both() -> list[IngestReport]:
            return list(await asyncio.gather(*(aingest_paths(corpus, [changed[w]], collection="notes",
                                                             on_document=overlap.on_document(w)) for w in changed)))

        reports = asyncio.run(both())
        assert overlap.seen[1] == "second queued", overlap.seen
        check_stored(corpus, reports)


@pytest.mark.usefixtures("forced")
def test_two_corpus_objects_on_one_file_share_the_turn(tmp_path: Path) -> None:
    """DuckDB gives the ``Corpus`` objects of one process open on one file one database: their writers take the
    same turns as those of one ``Corpus`` (an in-memory corpus has a turn of its own)."""
    db = tmp_path / "c.duckdb"
    with Corpus(db) as one, Corpus(tmp_path / "." / "c.duckdb") as other:
        assert one.turn is other.turn
        with Corpus(":memory:") as first, Corpus(":memory:") as second:
            assert first.turn is not second.turn
        for folder in folders(tmp_path, "round one").values():
            ingest_paths(one, [folder], collection="notes")
        overlap = Overlap(one)
        changed = folders(tmp_path, "round two")
        with ThreadPoolExecutor(2) as pool:
            reports = list(pool.map(lambda w, corpus: ingest_paths(corpus, [changed[w]], collection="notes",
                                                                   on_document=overlap.on_document(w)),
                                    changed, (one, other)))
        assert overlap.seen[1] == "second queued", overlap.seen
    with Corpus(db) as corpus:
        check_stored(corpus, reports)


def test_a_compaction_whose_second_step_failed_is_finished_by_the_next_not_swept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A compaction's second step fails (a full disk): its sorted postings wait in the staged files its record
    names. The next compaction finishes it first; before, it removed those files as stale and replaced the
    record, and every posting they held was lost (search found nothing ingested before)."""
    refill = index._refill
    failures = []

    def failing(corpus: Corpus) -> None:
        if not failures:
            failures.append(corpus.path)
            raise StoreFailure(corpus.path, OSError(28, "No space left on device"), "the second step")
        refill(corpus)

    monkeypatch.setattr(index, "_refill", failing)
    monkeypatch.setattr(index, "COMPACT_SHARE", -1.0)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        alpha = write_files(tmp_path / "a", {f"alpha{i}.md": page("alpha", i) for i in range(6)})
        first = ingest_paths(corpus, [alpha])
        assert first.compaction_deferred and len(list(tmp_path.glob("c.duckdb.postings-*.parquet"))) == 1
        beta = write_files(tmp_path / "b", {f"beta{i}.md": page("beta", i) for i in range(6)})
        second = ingest_paths(corpus, [beta])
        assert not second.compaction_deferred
        for w in ("alpha", "beta"):
            for i in range(6):
                hits = search(corpus, {"query": f"{w}{i} planner", "limit": 1}).hits
                assert hits and hits[0].document_key == f"{w}{i}.md", (w, i)
        with corpus.transaction() as cur:
            assert index.is_compact(cur)
    assert not list(tmp_path.glob("c.duckdb.postings-*"))


HOLDER = textwrap.dedent("""
    import sys
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus
    with Corpus(sys.argv[1]) as corpus:
        ingest_paths(corpus, [sys.argv[2]], collection="notes")
        print("ready", flush=True)
        sys.stdin.readline()  # holds the file until told
        ingest_paths(corpus, [sys.argv[3]], collection="notes")
    print("done", flush=True)
""")


def test_a_second_process_is_refused_with_the_file_and_the_process_that_holds_it(tmp_path: Path) -> None:
    """DuckDB lets one process write a file: a second one (the library or the command line) gets an error that
    names the file and the holder's process id, not a traceback, and nothing the holder writes is lost."""
    db = tmp_path / "c.duckdb"
    first = write_files(tmp_path / "first", {f"alpha{i}.md": page("alpha", i) for i in range(4)})
    later = write_files(tmp_path / "later", {f"gamma{i}.md": page("gamma", i) for i in range(4)})
    refused = write_files(tmp_path / "refused", {f"beta{i}.md": page("beta", i) for i in range(4)})
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), str(first), str(later)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "ready"
        for read_only in (False, True):
            with pytest.raises(CorpusError) as refusal:
                Corpus(db, read_only=read_only)
            assert str(refusal.value).startswith(f"{db}: cannot open the corpus: process {holder.pid} (")
            assert "nothing was read or written here" in str(refusal.value)
        cli = subprocess.run([sys.executable, "-m", "clew", "ingest", "--db", str(db), str(refused)],
                             capture_output=True, text=True, timeout=120)
        assert cli.returncode != 0 and "Traceback" not in cli.stderr, cli.stderr
        assert f"process {holder.pid} (" in cli.stderr and str(db) in cli.stderr
        out, err = holder.communicate("go\n", timeout=120)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    assert holder.returncode == 0 and out.strip() == "done", err
    with Corpus(db, read_only=True) as corpus:
        keys = [row[0] for row in corpus.cursor().execute("SELECT key FROM documents ORDER BY key").fetchall()]
    assert keys == [f"{w}{i}.md" for w in ("alpha", "gamma") for i in range(4)]
