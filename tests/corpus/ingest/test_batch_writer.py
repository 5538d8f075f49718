import threading
from pathlib import Path
from typing import Any

import pytest

from clew.corpus.ingest import api
from clew.corpus.ingest.batch_writer import BatchWriter
from clew.corpus.store import Corpus


class WriteFailed(Exception):
    pass


def test_batches_are_written_in_order_in_another_thread() -> None:
    written: list[tuple[int, str]] = []
    with BatchWriter[int](lambda batch: written.append((batch, threading.current_thread().name))) as writer:
        for batch in range(5):
            writer.put(batch)
    assert [batch for batch, _ in written] == [0, 1, 2, 3, 4]
    assert {name for _, name in written} == {"clew-ingest-writer"}
    assert writer.batches == 5


def test_at_most_one_batch_is_in_flight() -> None:
    release = threading.Event()
    started: list[int] = []

    def write(batch: int) -> None:
        started.append(batch)
        release.wait(5)

    with BatchWriter[int](write) as writer:
        writer.put(0)
        second = threading.Thread(target=writer.put, args=(1,))
        second.start()
        second.join(0.2)
        assert second.is_alive(), "the second put returned while the first batch was still being written"
        assert started == [0]
        release.set()
        second.join(5)
    assert started == [0, 1]


def test_a_failed_write_is_raised_at_the_next_put_and_later_batches_are_not_written() -> None:
    written: list[int] = []

    def write(batch: int) -> None:
        if batch == 1:
            raise WriteFailed("disk full")
        written.append(batch)

    with pytest.raises(WriteFailed, match="disk full"):
        with BatchWriter[int](write) as writer:
            for batch in range(4):
                writer.put(batch)
    assert written == [0]


def test_a_failed_last_write_is_raised_at_the_end_of_the_block() -> None:
    def write(batch: int) -> None:
        raise WriteFailed(f"batch {batch}")

    with pytest.raises(WriteFailed, match="batch 0"):
        with BatchWriter[int](write) as writer:
            writer.put(0)


def test_a_failure_in_the_callers_block_ends_it_after_the_batch_in_flight_is_written() -> None:
    written: list[int] = []
    release = threading.Event()

    def write(batch: int) -> None:
        release.wait(5)
        written.append(batch)

    with pytest.raises(KeyError):
        with BatchWriter[int](write) as writer:
            writer.put(0)
            threading.Timer(0.1, release.set).start()
            raise KeyError("a document could not be prepared")
    assert written == [0]


def test_a_batch_ends_at_its_documents_or_its_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i, sections in enumerate([1, 1, 3, 1, 1, 1]):  # chunks per document (one per section)
        (folder / f"d{i}.md").write_text("".join(f"# Part {s}\n\nWords of part {s} of document {i}.\n\n"
                                                 for s in range(sections)))
    batches: list[list[str]] = []
    real = api._write_batch

    def write_batch(corpus: Corpus, collection: str, batch: list[Any], *rest: Any, **named: Any) -> None:
        batches.append([doc.key for doc in batch])
        real(corpus, collection, batch, *rest, **named)

    monkeypatch.setattr(api, "_write_batch", write_batch)
    monkeypatch.setattr(api, "BATCH_CHUNKS", 4)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = api.ingest_paths(corpus, [folder], glob="*.md", batch_size=3)
    # d0 + d1 + d2 reach 5 chunks (>= 4) at three documents; d3 d4 d5 are three documents of 3 chunks
    assert batches == [["d0.md", "d1.md", "d2.md"], ["d3.md", "d4.md", "d5.md"]]
    assert report.chunks == 8
    monkeypatch.setattr(api, "BATCH_CHUNKS", 2)
    batches.clear()
    with Corpus(tmp_path / "c2.duckdb") as corpus:
        api.ingest_paths(corpus, [folder], glob="*.md", batch_size=3)
    assert batches == [["d0.md", "d1.md"], ["d2.md"], ["d3.md", "d4.md"], ["d5.md"]]
