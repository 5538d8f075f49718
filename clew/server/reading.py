"""Every request but an upload or a removal is a marked reader of the corpus (``Corpus.readers``).

An upload's ingest and a removal (``DELETE`` of documents) may end by rewriting the corpus file
(``clew.corpus.rewrite``) or compacting its index, which opens the corpus's connection again and so
would close the cursors of requests still reading. That rewrite waits for the marked readers to
finish, and requests that arrive meanwhile wait for it (seconds: the rewrite's time is in the
writer's report). An upload or a removal is not a reader: it is the writer that may wait for the
others. (A removal marked as a reader waited its whole ``READERS_WAIT_SECONDS``, 10 s, for itself
to leave, then put the file's compaction off.)
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send

from clew.corpus.store import Corpus
from clew.server.guard import UPLOAD_PATH

WAIT_POLL_SECONDS = 0.05
WRITES = frozenset({"POST", "DELETE"})
"""The methods that write on the documents route: an upload, a removal."""


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
