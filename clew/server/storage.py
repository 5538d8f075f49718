"""A storage fault leaves the server answering.

When DuckDB meets a fatal error (a checkpoint that could not write the file: a full disk) it
invalidates the database, and every later query on that connection fails. ``StoreHealth``
notices it (a request that failed in DuckDB, or ``GET /healthz``), closes the connection and
opens the file again (``Corpus.reopen``: the write-ahead log is replayed, so every committed
write is back). While that fails (the disk is still full), every request is answered 503 with
a JSON reason and ``Retry-After: 1``::

    {"error": "store_unavailable", "message": "<file>: the database failed ...; reopening it failed: ...; "
     "it is tried again at the next request (at most once a second)", "status": "unavailable", "detail": <the same>}

and the first request after space is back reopens it and is served: no restart. A write is
answered 200 only after its transaction committed to the write-ahead log, which the reopen
replays, so no write answered 200 is lost.

REST and MCP answer a failed call through the same ``StoreHealth.diagnose``: REST as the JSON
body with its status, MCP as a tool error naming the same ``error`` and ``message``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from typing import Any

import duckdb
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from clew.corpus.store import Corpus
from clew.errors import CorpusError, StoreFailure, error_body

logger = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""A failed reopen is tried again by the next request, at most this often."""


def _words(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


class StoreHealth:
    """Whether the served corpus answers, and the reopening of it when it does not."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.failure: str | None = None
        """Why the corpus cannot answer now (None: it answers, as far as the last request knows)."""
        self._lock = threading.Lock()
        self._tried = -math.inf
        self.reopened = 0
        """How many times the corpus was opened again in this process."""

    def check(self) -> str | None:
        """None when the corpus answers a query, reopened first if it had failed; else why it does not.
        Blocking (a worker thread): one check at a time, a reopen at most once per ``RETRY_SECONDS``."""
        with self._lock:
            broken = self._query_error()
            if broken is None:
                self.failure = None
                return None
            if self.failure is None:
                self.failure = f"{self.corpus.path}: the database failed: {_words(broken)}"
                logger.error("%s", self.failure)
            now = time.monotonic()
            if now - self._tried < RETRY_SECONDS:
                return self.failure
            self._tried = now
            try:
                self.corpus.reopen()
            except (CorpusError, duckdb.Error) as error:
                first = self.failure.split("; reopening it failed: ")[0]
                self.failure = (f"{first}; reopening it failed: {_words(error)}; it is tried again at the next "
                                f"request (at most once every {RETRY_SECONDS:g} s)")
                return self.failure
            broken = self._query_error()
            if broken is not None:
                self.failure = f"{self.corpus.path}: reopened, but the database still fails: {_words(broken)}"
                return self.failure
            logger.warning("%s: reopened after a storage failure (%s)", self.corpus.path, self.failure)
            self.failure = None
            self.reopened += 1
            return None

    def diagnose(self, error: duckdb.Error | StoreFailure) -> tuple[int, dict[str, Any]]:
        """How to answer a call that failed in DuckDB, as (HTTP status, JSON body). If the store itself
        failed (invalidated), it is reopened (``check``) and the call answered 503 ``store_unavailable``
        with the reason (retry: it was reopened; else it cannot be yet). An error of the call alone is a
        ``StoreFailure``'s own 503, or a 500 ``failed`` naming it. Blocking (a worker thread)."""
        reopened = self.reopened
        failure = self.check()
        if failure is not None:
            return 503, unavailable_body(failure)
        detail = _words(error)
        if self.reopened != reopened:
            return 503, unavailable_body(f"{detail}; the store had failed and was opened again: retry the request")
        if isinstance(error, StoreFailure):
            return error.http_status, error.payload()
        return 500, error_body("failed", detail)

    def _query_error(self) -> duckdb.Error | None:
        try:
            cur = self.corpus.cursor()
            try:
                cur.execute("SELECT 1").fetchone()
            finally:
                cur.close()
        except duckdb.Error as error:
            return error
        return None


def unavailable_body(failure: str) -> dict[str, Any]:
    return error_body("store_unavailable", failure, status="unavailable")


def unavailable(failure: str) -> JSONResponse:
    return answer(503, unavailable_body(failure))


def answer(status: int, body: dict[str, Any]) -> JSONResponse:
    """``diagnose``'s answer as a REST response (a 503 says when to retry)."""
    headers = {"Retry-After": f"{math.ceil(RETRY_SECONDS)}"} if status == 503 else None
    return JSONResponse(body, status_code=status, headers=headers)


class GuardStore:
    """ASGI middleware: while the corpus is known to have failed, each request first tries to reopen
    it (``StoreHealth.check``) and is answered 503 with the reason if it still fails."""

    def __init__(self, app: ASGIApp, health: StoreHealth) -> None:
        self.app = app
        self.health = health

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.health.failure is not None:
            failure = await asyncio.to_thread(self.health.check)
            if failure is not None:
                await unavailable(failure)(scope, receive, send)
                return
        await self.app(scope, receive, send)
