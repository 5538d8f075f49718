"""An ingest runs Python's young, middle and full garbage collections less often, and puts the thresholds back."""

import gc
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.collector import (
    FULL_EVERY,
    MIDDLE_AT_LEAST,
    YOUNG_AT_LEAST,
    fewer_collections_for_good,
    fewer_full_collections,
)
from clew.corpus.store import Corpus
from tests.conftest import write_files


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    found = gc.get_threshold()
    yield
    gc.set_threshold(*found)


def test_the_thresholds_are_raised_in_the_block_and_restored() -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_full_collections():
        assert gc.get_threshold() == (YOUNG_AT_LEAST, MIDDLE_AT_LEAST, 10 * FULL_EVERY)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_young_threshold_is_kept_in_the_block() -> None:
    gc.set_threshold(YOUNG_AT_LEAST * 2, 10, 10)
    with fewer_full_collections():
        assert gc.get_threshold() == (YOUNG_AT_LEAST * 2, MIDDLE_AT_LEAST, 10 * FULL_EVERY)
    assert gc.get_threshold() == (YOUNG_AT_LEAST * 2, 10, 10)


def test_an_ingest_runs_inside_it(tmp_path: Path) -> None:
    gc.set_threshold(700, 10, 10)
    folder = write_files(tmp_path / "docs", {f"doc{i}.md": f"# T {i}\n\nBody {i}.\n" for i in range(4)})
    seen: list[tuple[int, int, int]] = []
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], batch_size=2, chunk_tokens=160,
                     on_document=lambda key: seen.append(gc.get_threshold()))
    assert set(seen) == {(YOUNG_AT_LEAST, MIDDLE_AT_LEAST, 10 * FULL_EVERY)}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_higher_middle_threshold_is_kept_in_the_block_and_a_middle_one_set_inside_is_kept_after() -> None:
    gc.set_threshold(700, MIDDLE_AT_LEAST * 3, 10)
    with fewer_full_collections():
        assert gc.get_threshold() == (YOUNG_AT_LEAST, MIDDLE_AT_LEAST * 3, 10 * FULL_EVERY)
    assert gc.get_threshold() == (700, MIDDLE_AT_LEAST * 3, 10)
    gc.set_threshold(700, 10, 10)
    with fewer_full_collections():
        young, _, old = gc.get_threshold()
        gc.set_threshold(young, 20, old)  # the caller's own middle threshold stays
    assert gc.get_threshold() == (700, 20, 10)


def test_young_cycles_are_still_collected_in_the_block() -> None:
    class Node:
        pass

    with fewer_full_collections():
        node = Node()
        node.self = node  # type: ignore[attr-defined]
        gone = weakref.ref(node)
        del node
        gc.collect(0)
        assert gone() is None


def test_overlapping_blocks_restore_when_the_last_one_ends() -> None:
    gc.set_threshold(700, 10, 10)
    inner_started, outer_may_end = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_full_collections():
            inner_started.set()
            outer_may_end.wait(5)

    with fewer_full_collections():
        thread = threading.Thread(target=other)
        thread.start()
        inner_started.wait(5)
    assert gc.get_threshold()[2] == 10 * FULL_EVERY, "the other thread's block is still open"
    outer_may_end.set()
    thread.join(5)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_threshold_the_caller_set_inside_the_block_is_kept() -> None:
    gc.set_threshold(700, 10, 10)
    with fewer_full_collections():
        gc.set_threshold(500, 5, 7)
    assert gc.get_threshold() == (500, 5, 7)


def test_a_failing_block_restores_it() -> None:
    gc.set_threshold(700, 10, 10)
    with pytest.raises(RuntimeError), fewer_full_collections():
        raise RuntimeError("boom")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_preparing_worker_keeps_the_raised_thresholds() -> None:
    gc.set_threshold(700, 10, 10)
    fewer_collections_for_good()
    assert gc.get_threshold() == (YOUNG_AT_LEAST, MIDDLE_AT_LEAST, 10 * FULL_EVERY)
