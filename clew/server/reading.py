"""Every request but an upload or a removal is a marked reader of the corpus (``Corpus.readers``).

An upload's ingest and a removal (``DELETE`` of documents) may end by rewriting the corpus file
(``clew.corpus.rewrite``) or compacting its index, which opens the corpus's connection again and so
would close the cursors of requests still reading. That rewrite waits for the marked readers to
finish, and requests that arrive meanwhile wait for it (seconds: the rewrite's time is in the
writer's report). An upload or a removal is not a reader: it is the writer that may wait for the
others. (A removal marked as a reader waited its whole ``READERS_WAIT_SECONDS``, 10 s, for itself
to leave, then put the file's compaction off.)

The writers take turns: an upload reads outside its transactions (the collections, DuckDB's settings,
the file's free blocks), so another writer's file rewrite, which closes the connection, must not run
meanwhile; one at a time, the rewrite of one never meets the reads of another, and a writer waits for
nobody but the writers before it. The turn itself is the corpus's (``Corpus.turn``: ``ingest_paths`` and
``remove_documents`` hold it, as they do in any caller's threads); ``Writers`` is only the queue in front
of it, in the event loop, so that a queued upload holds no worker thread (the default pool has
``min(32, CPUs + 4)``, 6 on 2 CPUs, which every request's reads share) while it waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable
from typing import TypeVar

from starlette.applications import Starlette
from starlette.types import ASGIApp, Receive, Scope, Send

from clew.corpus.store import Corpus
from clew.corpus.write_turn import Waiters
from clew.server.guard import UPLOAD_PATH

WAIT_POLL_SECONDS = 0.05
WRITES = frozenset({"POST", "DELETE"})
"""The methods that write on the documents route: an upload, a removal."""
T = TypeVar("T")


class MarkReaders:
    def __init__(self, app: ASGIApp, corpus: Corpus) -> None:
        self.app = app
        self.readers = corpus.readers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"] in WRITES and UPLOAD_PATH.fullmatch(scope["path"])):
            await self.app(scope, receive, send)
            return
        while not self.readers.try_enter():  # a rewrite runs: wait for it (polled, so a cancelled wait holds nothing)
            await asyncio.sleep(WAIT_POLL_SECONDS)
        try:
            await self.app(scope, receive, send)
        finally:
            self.readers.leave()


class Writers(Waiters):
    """A server's writers (an upload's ingest, a removal of documents), one at a time, in turn."""

    def __init__(self) -> None:
        super().__init__()
        self._turn = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def write(self, work: Callable[[], T]) -> T:
        """``work()`` in a thread once the writers before it are done. The thread cannot be stopped, so a
        request cancelled meanwhile (a server's forced shutdown cancels its requests) ends when it does
        (``_outlasted``): the turn stays its write's until then, and so does what the write reads (an
        upload's folder, removed as its request ends: before, under the ingest still reading it)."""
        turn = self._lock()
        self._count(+1)
        try:
            await turn.acquire()
        finally:
            self._count(-1)
        try:  # a future, not a task: the event loop's own shutdown cancels every task, which would end the wait
            return await _outlasted(asyncio.get_running_loop().run_in_executor(
                None, contextvars.copy_context().run, work))
        finally:
            turn.release()

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an app served again by a new event loop (a test's second server)
            self._loop, self._turn = loop, asyncio.Lock()
        return self._turn


async def _outlasted(running: asyncio.Future[T]) -> T:
    """``running``'s result; where the caller is cancelled, the cancellation is raised once ``running`` ends."""
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        while not running.done():
            with contextlib.suppress(asyncio.CancelledError):  # cancelled again: the thread still runs
                await asyncio.wait([running])
        raise


def writers_of(app: Starlette) -> Writers:
    """The app's ``Writers`` (made at its first write; in the event loop's thread, so made once)."""
    found: Writers | None = getattr(app.state, "writers", None)
    if found is None:
        found = app.state.writers = Writers()
    return found
