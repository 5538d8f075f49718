"""Who is reading a corpus, so that a rewrite of its file waits for them (or for nobody).

A rewrite (``clew.corpus.rewrite``) swaps the corpus's file and opens its connection again,
which closes every cursor taken on the old one. A process that reads in other threads while it
writes (a server: requests beside an upload) marks each reader's span with ``reading()``; the
rewrite closes the gate to new readers, waits for those inside to leave, and runs only if they
did within its wait (else it gives up, the gate opens again, and the file is compacted after a
later write). A process with no marked readers (the CLI, a script) never waits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Readers:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._inside = 0
        self._closed = False
        self._rewrites = threading.Lock()  # one rewrite at a time closes and opens the gate

    def try_enter(self) -> bool:
        """Enter unless a rewrite has closed the gate (never waits)."""
        with self._changed:
            if self._closed:
                return False
            self._inside += 1
            return True

    def enter(self) -> None:
        """Enter, waiting while a rewrite runs."""
        with self._changed:
            self._changed.wait_for(lambda: not self._closed)
            self._inside += 1

    def leave(self) -> None:
        with self._changed:
            self._inside -= 1
            self._changed.notify_all()

    @contextmanager
    def reading(self) -> Iterator[None]:
        self.enter()
        try:
            yield
        finally:
            self.leave()

    @contextmanager
    def drained(self, wait_seconds: float) -> Iterator[bool]:
        """Close the gate to new readers for the block; it receives whether every reader left
        within ``wait_seconds`` (False: some are still reading, and the block must not rewrite)."""
        deadline = time.monotonic() + wait_seconds
        with self._rewrites:
            with self._changed:
                self._closed = True
                idle = self._changed.wait_for(lambda: self._inside == 0,
                                              timeout=max(0.0, deadline - time.monotonic()))
            try:
                yield idle
            finally:
                with self._changed:
                    self._closed = False
                    self._changed.notify_all()
