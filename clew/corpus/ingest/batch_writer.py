"""Write ingest batches in a thread of their own while the caller prepares the next batch.

DuckDB releases the GIL while it inserts, resolves links and commits, so on two cores the
store's work overlaps the parsing, chunking and tokenising of the next batch (which, in C and
Rust, also release it in part). At most one batch is in flight: ``put`` waits until the
previous batch is written, so memory holds the batch being written and the one being filled.

Batches are written in order, each in its own transaction. Once a write fails no later batch is
written, and the failure is raised in the caller's thread: at the next ``put`` or at the end of
the ``with`` block. A failure in the caller's thread ends the block only after the batch in
flight is written, so what is stored is what a synchronous loop would have stored.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

T = TypeVar("T")


class BatchWriter(Generic[T]):
    """``with BatchWriter(write) as writer: writer.put(batch)``; ``write`` runs in the writer's thread."""

    def __init__(self, write: Callable[[T], None]) -> None:
        self._write = write
        self._queue: queue.Queue[tuple[T] | None] = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="clew-ingest-writer", daemon=True)
        self.batches = 0
        """Batches handed over so far."""

    def __enter__(self) -> BatchWriter[T]:
        self._thread.start()
        return self

    def put(self, batch: T) -> None:
        """Hand ``batch`` over once the previous one is written; raises that write's failure, if any."""
        self._queue.join()
        self._raise()
        self.batches += 1
        self._queue.put((batch,))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._queue.put(None)
        self._thread.join()
        if kind is None:
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            try:
                if self._error is None:
                    self._write(item[0])
            except BaseException as error:  # noqa: BLE001  (raised again in the caller's thread)
                self._error = error
            finally:
                self._queue.task_done()
        self._queue.task_done()
