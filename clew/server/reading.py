"""Every request but an upload is a marked reader of the corpus (``Corpus.readers``).

An upload's ingest may end by rewriting the corpus file (``clew.corpus.rewrite``), which opens
the corpus's connection again and so would close the cursors of requests still reading. That
rewrite waits for the marked readers to finish, and requests that arrive meanwhile wait for it
(seconds: the rewrite's time is in the upload's report). An upload is not a reader: it is the
writer whose ingest may wait for the others.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send

from clew.corpus.store import Corpus
from clew.server.guard import UPLOAD_PATH

WAIT_POLL_SECONDS = 0.05


class MarkReaders:
    def __init__(self, app: ASGIApp, corpus: Corpus) -> None:
        self.app = app
        self.readers = corpus.readers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"] == "POST" and UPLOAD_PATH.fullmatch(scope["path"])):
            await self.app(scope, receive, send)
            return
        while not self.readers.try_enter():  # a rewrite runs: wait for it (polled, so a cancelled wait holds nothing)
            await asyncio.sleep(WAIT_POLL_SECONDS)
        try:
            await self.app(scope, receive, send)
        finally:
            self.readers.leave()
