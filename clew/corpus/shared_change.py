"""A change that overlapping blocks share: the first one in makes it, the last one out undoes it.

An ingest changes process-wide settings for its length (DuckDB's checkpoint threshold and thread
count, Python's collector threshold), and ingests may overlap in the threads of one process (a
server): each setting must be changed once and put back once, when no block needs it any more.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from clew.errors import StoreFailure

logger = logging.getLogger(__name__)

Undo = Callable[[], None]


class SharedChange:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._undo: Undo | None = None

    @property
    def held_now(self) -> bool:
        """Some block holds the change."""
        return self._depth > 0

    @contextmanager
    def held(self, make: Callable[[], Undo | None]) -> Iterator[None]:
        """Run the block with the change made: ``make()`` makes it when no other block holds it and
        returns what undoes it (None: nothing to undo). The last block out runs the undo. When the
        block itself raised, an undo that fails with a ``StoreFailure`` is logged and the block's
        error is the one raised (at debug level when that error is the store's own: a full disk
        fails both)."""
        with self._lock:
            if self._depth == 0:
                self._undo = make()
            self._depth += 1
        try:
            yield
        except BaseException as error:
            try:
                self._release()
            except StoreFailure as failure:
                logger.log(logging.DEBUG if isinstance(error, StoreFailure) else logging.WARNING, "%s", failure)
            raise
        self._release()

    def _release(self) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._undo is not None:
                undo, self._undo = self._undo, None
                undo()
