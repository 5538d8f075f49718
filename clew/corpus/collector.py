"""Fewer full runs of Python's cyclic garbage collector while an ingest allocates.

The collector runs a full collection (every tracked object of the process) each time ten
collections of the middle generation have run and the objects that survived them exceed a
quarter of the old ones. An ingest keeps two batches of prepared documents alive (hundreds of
thousands of objects, promoted as they survive) while it allocates millions of short-lived
ones (markdown-it's tokens, chunk and term records), so that condition held again and again: on
the generated 100,000-chunk corpus, 6,215 collections took 2.5 s of a 20.7 s ingest, most of it
in full collections (README, Measured: "Garbage collection during an ingest"). Inside
``fewer_full_collections`` the oldest generation is collected ``FULL_EVERY`` times less often;
the young generations as before, so a reference cycle among new objects is still freed at
once, and nothing is turned off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FULL_EVERY = 10
"""How many times fewer full collections run inside the block (its third threshold times this)."""

_lock = threading.Lock()
_depth = 0
_restore: int | None = None


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Raise the collector's oldest-generation threshold for the block, then put back what it found.

    Blocks may overlap (ingests in threads of one server): the first one in raises it, the last
    one out restores it. A threshold changed by the caller inside the block is left as it is.
    """
    global _depth, _restore
    with _lock:
        if _depth == 0:
            young, middle, old = gc.get_threshold()
            _restore = old
            gc.set_threshold(young, middle, old * FULL_EVERY)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _restore is not None:
                young, middle, old = gc.get_threshold()
                if old == _restore * FULL_EVERY:
                    gc.set_threshold(young, middle, _restore)
                _restore = None
