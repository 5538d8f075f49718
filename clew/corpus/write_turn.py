"""The writers of one corpus take turns: ``Corpus.turn``, held for a whole write.

A write (an ingest, a removal, an embedding run, ``clew compact``) is more than its transactions: it
reads outside them (the collections, DuckDB's settings, the file's free blocks), compacts the BM25
index in two steps with a checkpoint between them (``clew.corpus.search.index.compact``) and may end by
rewriting the file, which closes the connection (``clew.corpus.rewrite``). Two writes of one ``Corpus``
in the threads of one process (a thread pool over folders, ``aingest_paths`` in ``asyncio.gather``, a
framework's loader in threads) interleaved there: one's compaction ran between the two steps of the
other's and swapped its staged postings (the index lost them), a rewrite was skipped unreported while
the other's bulk write was open, and a checkpoint failed on the other's open transaction. So each write
holds the turn from its first read to its last step, and a writer in another thread waits for it; the
holder's nested writes (an ingest's compaction and file rewrite) pass. Readers never take it: a
server's requests are marked readers (``Corpus.readers``), which the file rewrite waits for. Every
``Corpus`` of this process open on one file shares its turn (``turn_for``): DuckDB gives them one database.
"""

from __future__ import annotations

import functools
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Concatenate, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Waiters:
    """How many writers wait for their turn: ``waiting``, with ``changed`` notified at each change (what a test
    waits on to know a writer is queued). The corpus's turn and a server's queue in front of it count alike."""

    def __init__(self) -> None:
        self.waiting = 0
        self.changed = threading.Condition()

    def _count(self, step: int) -> None:
        with self.changed:
            self.waiting += step
            self.changed.notify_all()


class WriteTurn(Waiters):
    """One writer at a time (reentrant: the holder's thread may take it again)."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.RLock()

    @contextmanager
    def held(self) -> Iterator[None]:
        """The block runs once the writers before it are done."""
        if not self._lock.acquire(blocking=False):
            self._count(+1)
            try:
                self._lock.acquire()
            finally:
                self._count(-1)
        try:
            yield
        finally:
            self._lock.release()


_TURNS: weakref.WeakValueDictionary[str, WriteTurn] = weakref.WeakValueDictionary()
_MAKING = threading.Lock()


def turn_for(path: str) -> WriteTurn:
    """The turn of the corpus file at ``path``, shared by the ``Corpus`` objects of this process open on it
    (kept while one is); a turn of its own for an in-memory corpus."""
    if path == ":memory:":
        return WriteTurn()
    key = os.path.realpath(path)
    with _MAKING:
        turn = _TURNS.get(key)
        if turn is None:
            turn = _TURNS[key] = WriteTurn()
        return turn


class HasTurn(Protocol):
    @property
    def turn(self) -> WriteTurn: ...


C = TypeVar("C", bound=HasTurn)


def in_turn(write: Callable[Concatenate[C, P], R]) -> Callable[Concatenate[C, P], R]:
    """``write(corpus, ...)`` holding ``corpus.turn`` for its whole length."""

    @functools.wraps(write)
    def run(corpus: C, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with corpus.turn.held():
            return write(corpus, *args, **kwargs)

    return run
