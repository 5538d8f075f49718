import threading

import pytest

from clew.corpus.ingest.batch_writer import BatchWriter


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
