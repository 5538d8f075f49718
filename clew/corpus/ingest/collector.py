"""Fewer full runs of Python's cyclic garbage collector while an ingest allocates.

The collector runs a full collection (every tracked object of the process) each time ten
collections of the middle generation have run and the objects that survived them exceed a
quarter of the old ones. An ingest keeps two batches of prepared documents alive (hundreds of
thousands of objects, promoted as they survive) while it allocates millions of short-lived
ones (markdown-it's tokens, chunk and term records), so that condition held again and again: on
the generated 100,000-chunk corpus, 6,215 collections took 2.5 s of a 20.7 s ingest, most of it
in full collections (docs/measurements/ingest-2026-12-04.md, "Garbage collection during an ingest"). Inside
``fewer_full_collections`` the oldest generation is collected ``FULL_EVERY`` times less often,
the middle one after ``MIDDLE_AT_LEAST`` young collections (Python's default is 10),
and the youngest only once ``YOUNG_AT_LEAST`` new objects are pending (Python's default is 700):
a document's tokens and records are freed by their reference counts once it is prepared, so
with room for them a young collection finds few survivors, where at 700 it promoted the live
ones of the document in hand again and again, and those promotions are what brought on the
middle and the full collections. Nothing is turned off: a reference cycle among new objects is
freed at the next young collection, a few thousand allocations later.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from clew.corpus.shared_change import SharedChange, Undo

FULL_EVERY = 10
"""How many times fewer full collections run inside the block (its third threshold times this)."""
YOUNG_AT_LEAST = 20_000
"""The youngest generation's threshold inside the block, unless already higher. At 100k generated chunks
in one process (1 pair, load 4.5): the collector's CPU 1.25 -> 0.63 s (6,137 -> 197 young collections,
6 -> 1 full), the ingest's CPU 22.0 -> 20.3 s (docs/measurements/ingest-2026-12-04.md, section 20)."""

MIDDLE_AT_LEAST = 100
"""Young collections between two of the middle generation inside the block, unless already more. What survives
a young collection (the batch in hand, the next one's documents) is freed by reference counts once written, and
at 10 the middle collections traversed it first, finding nothing: at 100k generated chunks in one process, 11 of
them took 0.54-0.61 s of the collector's thread CPU, 5 took 0.005 s at 100 (5 alternating pairs, load 3-10; the young
collections 0.46-0.60 -> 0.54-0.71 s, the full one 0.03 either way: 1.03-1.25 -> 0.58-0.75 s in all; 104-136 objects
freed, either way)."""

_FEWER = SharedChange()


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Raise the collector's thresholds for the block, then put back what it found.

    Blocks may overlap (ingests in threads of one server): the first one in raises it, the last
    one out restores it. A threshold changed by the caller inside the block is left as it is.
    """
    with _FEWER.held(_raise_oldest):
        yield


def _raise_oldest() -> Undo:
    young, middle, old = gc.get_threshold()
    raised = (max(young, YOUNG_AT_LEAST), max(middle, MIDDLE_AT_LEAST), old * FULL_EVERY)
    gc.set_threshold(*raised)

    def restore() -> None:
        now = gc.get_threshold()
        if now[0] == raised[0] and now[2] == raised[2]:
            gc.set_threshold(young, middle if now[1] == raised[1] else now[1], old)

    return restore


def fewer_collections_for_good() -> None:
    """The block's thresholds for the rest of the process: for a worker process that only prepares
    sources (``clew.corpus.ingest.api.iter_prepared``'s pool), whose tokens die as the main process's do."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG_AT_LEAST), max(middle, MIDDLE_AT_LEAST), old * FULL_EVERY)
