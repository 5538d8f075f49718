"""PDF and DOCX files are parsed in a process of their own, ended when one outlasts its time bound.

``ParseBounds.seconds`` is checked between pages, lines and drawn paths, but one PDFium call
cannot be cut short from inside: a 37 KB page whose forms draw one another 2,500 times spends
about 10 s in two calls (loading the page, then its text). So every binary source is prepared in
a spawned worker (a ``multiprocessing`` pool of one process), and the ingest waits for it
``seconds`` plus ``KILL_GRACE_SECONDS`` (the worker's own check, which names the page, gets the
first chance); past that the worker is terminated with the call inside it, the file is skipped
with the reason, and the next binary file gets a fresh worker.

A worker is started once and kept: when an ingest ends, its idle workers wait in a process-wide
free list (at most ``KEPT_IDLE``) for the next one (a server's next upload), so a small PDF pays
a round trip to a warm process, not a process start (docs/measurements/hardening-2026-12-05.md, item 7).
Text formats are parsed where they were (this process, or the ingest's pool): their parse is
linear in their size, which ``FileLimits`` bounds.

Spawning re-imports the caller's main module, as any ``multiprocessing`` pool does: a script
ingesting PDF or DOCX files keeps its top-level code under ``if __name__ == "__main__":``. A
worker that cannot start within ``START_SECONDS`` (a script without that guard) is not waited
for: the files are parsed in this process, bounded only between steps, and a warning says why.
"""

from __future__ import annotations

import atexit
import importlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from multiprocessing.pool import AsyncResult, Pool
from types import TracebackType

from clew.corpus.parsed import ParseBounds
from clew.corpus.prepare import ChunkingConfig, PreparedDocument
from clew.corpus.sources import Problem, Source

logger = logging.getLogger(__name__)

Prepared = tuple[list[PreparedDocument], list[Problem]]
Prepare = Callable[[Source, ChunkingConfig], Prepared]
"""Parse, chunk and tokenise one source (``clew.corpus.ingest.prepare_source``): a module-level
function, so that the worker can import it."""

KILL_GRACE_SECONDS = 0.5
"""How long past its ``seconds`` bound a parse is waited for before its worker is terminated."""
KEPT_IDLE = 4
"""Idle workers kept for later ingests in one process; more are closed."""
START_SECONDS = 60.0
"""How long a new worker may take to start and import the parsers (about a second when idle)."""
PARENT_POLL_SECONDS = 0.5
"""How often a parse worker checks that the ingest that started it is still alive."""


def timed_out(seconds: float) -> str:
    """The reason given for a file whose parse was ended by terminating its worker."""
    return (f"parsing took longer than the {seconds:g} s limit (stopped inside one parser call; its process "
            "was ended): not ingested; raise the limit (--max-parse-seconds)")


def watch_parent(parent: int) -> None:
    """Pool initializer: end this worker once ``parent`` (the ingest process) is gone.

    A worker busy parsing, or blocked on its queues, would otherwise outlive a SIGKILLed ingest.
    A daemon thread polls ``os.getppid()``: when the parent dies the worker is re-parented
    (to init or a subreaper) and exits at once. Portable where the parent id changes on the
    parent's death (Linux, macOS, the BSDs); ``prctl(PR_SET_PDEATHSIG)`` is not used because it
    follows the thread that spawned the worker, which may be a server's short-lived thread.
    """
    threading.Thread(target=_exit_when_orphaned, args=(parent,), name="clew-parent-watch", daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # no cleanup to run: the parent that wanted the results is gone


def _warm(module: str) -> int:
    """Run once in a new worker: ``module`` (the one whose function it will run), the parsers and
    the tokenizer's tables (0.1-1 s in all), so that no file's clock pays for them."""
    import clew.corpus.formats.docx
    import clew.corpus.formats.pdf  # noqa: F401
    from clew.budgets.tokens import count_tokens, encoding

    for name in (module, "docx", "lxml.etree", "pdfplumber.page", "pdfplumber.table"):
        importlib.import_module(name)
    encoding()
    count_tokens("warm")
    return os.getpid()


class Worker:
    """One spawned process that prepares one binary source at a time."""

    def __init__(self, prepare: Prepare) -> None:
        self.pool: Pool = multiprocessing.get_context("spawn").Pool(1, initializer=watch_parent,
                                                                    initargs=(os.getpid(),))
        try:
            self.pid = self.pool.apply_async(_warm, (prepare.__module__,)).get(START_SECONDS)
        except multiprocessing.TimeoutError:
            self.end()
            raise

    def end(self) -> None:
        """Terminate the process, and the call it may be inside."""
        self.pool.terminate()
        self.pool.join()


class Job:
    """One binary source being prepared by a worker; ``result`` waits for it within its bound."""

    def __init__(self, parsers: BinaryParsers, worker: Worker, source: Source, pending: AsyncResult[Prepared],
                 seconds: float) -> None:
        self.parsers, self.worker, self.source, self.pending = parsers, worker, source, pending
        self.seconds = seconds
        self.ends = time.monotonic() + seconds + KILL_GRACE_SECONDS
        self.outcome: Prepared | None = None

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def result(self) -> Prepared:
        if self.outcome is None:
            try:
                self.outcome = self.pending.get(max(0.0, self.ends - time.monotonic()))
                self.parsers.idle.append(self.worker)
            except multiprocessing.TimeoutError:
                self.worker.end()
                self.outcome = [], [Problem(self.source.path, timed_out(self.seconds), True)]
            except Exception as error:  # noqa: BLE001 - a result that cannot come back skips its file only
                self.parsers.idle.append(self.worker)
                self.outcome = [], [Problem(self.source.path, f"could not be read ({type(error).__name__}: "
                                                              f"{error})", True)]
        return self.outcome


class Ready:
    """A source prepared in this process (no worker could start)."""

    def __init__(self, outcome: Prepared) -> None:
        self.outcome = outcome

    def result(self) -> Prepared:
        return self.outcome


_FREE: list[Worker] = []
_FREE_LOCK = threading.Lock()


def _take(prepare: Prepare) -> Worker | None:
    """A kept idle worker, else a new one; None when none can start (see the module docstring)."""
    with _FREE_LOCK:
        if _FREE:
            return _FREE.pop()
    try:
        return Worker(prepare)
    except (multiprocessing.TimeoutError, OSError) as error:  # OSError: no process could be made
        logger.warning("a PDF/DOCX parse worker did not start within %g s (%s; does the script keep its "
                       "top-level code under `if __name__ == \"__main__\":`?): parsing in this process, where "
                       "the time bound is checked only between pages and lines", START_SECONDS,
                       _words(error))
        return None


def _keep(workers: list[Worker]) -> None:
    with _FREE_LOCK:
        while workers and len(_FREE) < KEPT_IDLE:
            _FREE.append(workers.pop())
    for worker in workers:
        worker.end()


def _words(error: BaseException) -> str:
    return str(error) or type(error).__name__


def kept() -> list[int]:
    """The process ids of the idle workers kept for later ingests."""
    with _FREE_LOCK:
        return [worker.pid for worker in _FREE]


@atexit.register
def end_kept() -> None:
    """End the idle workers kept for later ingests (done at exit too)."""
    with _FREE_LOCK:
        kept = list(_FREE)
        _FREE.clear()
    for worker in kept:
        worker.end()


class BinaryParsers:
    """The workers one ingest parses its PDF and DOCX files in: up to ``slots`` files at once."""

    def __init__(self, prepare: Prepare, config: ChunkingConfig, slots: int = 1) -> None:
        self.prepare, self.config, self.slots = prepare, config, slots
        self.idle: list[Worker] = []
        self.busy: list[Job] = []
        self.in_place = False
        """True once no worker could start: sources are prepared in this process."""

    def __enter__(self) -> BinaryParsers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for job in self.busy:
            if not job.finished:  # the ingest stopped early: nobody wants this result
                job.worker.end()
        _keep(self.idle)

    def submit(self, source: Source) -> Job | Ready:
        """Start preparing ``source`` in a worker (waiting for an earlier file when all ``slots`` are
        busy); prepared here, at once, when no worker can start."""
        self.busy = [job for job in self.busy if not job.finished]
        while len(self.busy) >= self.slots:
            self.busy.pop(0).result()
        worker = None if self.in_place else self.idle.pop() if self.idle else _take(self.prepare)
        if worker is None:
            self.in_place = True
            return Ready(self.prepare(source, self.config))
        seconds = (source.bounds or ParseBounds()).seconds
        job = Job(self, worker, source, worker.pool.apply_async(self.prepare, (source, self.config)), seconds)
        self.busy.append(job)
        return job
