"""Fewer full runs of Python's cyclic garbage collector while an ingest allocates.

The collector runs a full collection (every tracked object of the process) each time ten
collections of the middle generation have run and the objects that survived them exceed a
quarter of the old ones. An ingest keeps two batches of prepared documents alive (hundreds of
thousands of objects, promoted as they survive) while it allocates millions of short-lived
ones (markdown-it's tokens, chunk and term records), so that condition held again and again: on
the generated 100,000-chunk corpus, 6,215 collections took 2.5 s of a 20.7 s ingest, most of it
in full collections (docs/measurements/ingest-2026-12-04.md, "Garbage collection during an ingest"). Inside
``fewer_full_collections`` the oldest generation is collected ``FULL_EVERY`` times less often;
the young generations as before, so a reference cycle among new objects is still freed at
once, and nothing is turned off.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from clew.corpus.shared_change import SharedChange, Undo

FULL_EVERY = 10
"""How many times fewer full collections run inside the block (its third threshold times this)."""

_FEWER = SharedChange()


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Raise the collector's oldest-generation threshold for the block, then put back what it found.

    Blocks may overlap (ingests in threads of one server): the first one in raises it, the last
    one out restores it. A threshold changed by the caller inside the block is left as it is.
    """
    with _FEWER.held(_raise_oldest):
        yield


def _raise_oldest() -> Undo:
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, old * FULL_EVERY)

    def restore() -> None:
        now = gc.get_threshold()
        if now[2] == old * FULL_EVERY:
            gc.set_threshold(now[0], now[1], old)

    return restore
