"""While worker processes parse, DuckDB's own threads leave them their cores (``Corpus.sharing_cores``),
and the setting is as it was afterwards."""

from pathlib import Path

import pytest

from clew.corpus import store
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import write_files


def threads(corpus: Corpus) -> int:
    return int(corpus.cursor().execute("SELECT current_setting('threads')").fetchone()[0])


def test_an_ingest_lowers_duckdbs_threads_while_it_runs(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store.os, "cpu_count", lambda: 4)
    folder = write_files(tmp_path / "docs", {f"doc{i}.md": f"# Title {i}\n\nBody {i} about widgets.\n"
                                             for i in range(6)})
    seen: list[int] = []
    with Corpus(tmp_path / "c.duckdb", threads=4) as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=160, workers=2, on_document=lambda _: seen.append(
            threads(corpus)))
        assert report.documents == 6
        assert set(seen) == {2}, "4 CPUs less 2 workers"
        assert threads(corpus) == 4
        seen.clear()
        (folder / "doc0.md").write_text("# Title 0\n\nChanged body.\n")
        ingest_paths(corpus, [folder], chunk_tokens=160, on_document=lambda _: seen.append(threads(corpus)))
        assert set(seen) == {3}, "no workers: 4 CPUs less this process's own parsing"


@pytest.mark.parametrize(("setting", "workers", "inside"), [
    (1, 2, 1),  # a user's lower setting is kept
    (2, 4, 1),  # more workers than CPUs: DuckDB keeps one thread
    (2, 1, 1),  # no workers: this process parses on one of the two CPUs
])
def test_a_setting_already_lower_is_kept_and_at_least_one_thread_is_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: int, workers: int, inside: int) -> None:
    monkeypatch.setattr(store.os, "cpu_count", lambda: 2)
    with Corpus(tmp_path / "c.duckdb", threads=setting) as corpus:
        with corpus.sharing_cores(workers):
            assert threads(corpus) == inside
        assert threads(corpus) == setting


def test_overlapping_blocks_restore_the_setting_when_the_last_one_ends(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store.os, "cpu_count", lambda: 8)
    with Corpus(tmp_path / "c.duckdb", threads=8) as corpus:
        with corpus.sharing_cores(4):
            assert threads(corpus) == 4
            with corpus.sharing_cores(6):
                assert threads(corpus) == 4, "the first block's setting holds"
            assert threads(corpus) == 4, "the outer block still runs"
        assert threads(corpus) == 8
        with pytest.raises(RuntimeError, match="boom"), corpus.sharing_cores(4):
            raise RuntimeError("boom")
        assert threads(corpus) == 8, "restored after an error too"
