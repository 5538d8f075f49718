"""PDF, DOCX and EPUB files are parsed in a process of their own, ended when one outlasts its time bound.

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

Spawning re-imports the caller's main module, as any ``multiprocessing`` pool does, and runs
its top-level code again unless that code sits under ``if __name__ == "__main__":``. So before
the first worker starts, :func:`unguarded_main` reads the main script: where the top-level line
that led to this ingest is not under that guard (a quick script), no worker is started: the
files are parsed in this process, bounded only between steps, and one warning names the line.
A worker that cannot start within ``START_SECONDS`` is not waited for either.
"""

from __future__ import annotations

import ast
import atexit
import functools
import importlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.pool import AsyncResult, Pool
from pathlib import Path
from types import TracebackType

from clew.corpus.ingest.parsed import ParseBounds
from clew.corpus.ingest.prepare import ChunkingConfig, PreparedDocument
from clew.corpus.ingest.sources import BINARY_FORMATS, Problem, Source

logger = logging.getLogger(__name__)

Prepared = tuple[list[PreparedDocument], list[Problem]]
Prepare = Callable[[Source, ChunkingConfig], Prepared]
"""Parse, chunk and tokenise one source (``clew.corpus.ingest.api.prepare_source``): a module-level
function, so that the worker can import it."""

KILL_GRACE_SECONDS = 0.5
"""How long past its ``seconds`` bound a parse is waited for before its worker is terminated."""
KEPT_IDLE = 4
"""Idle workers kept for later ingests in one process; more are closed."""
START_SECONDS = 60.0
"""How long a new worker may take to start and import the parsers (about a second when idle)."""
DEATH_POLL_SECONDS = 0.25
"""How often an ingest waiting for a parse looks whether its worker died (a crash, not a hang)."""
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
    import clew.corpus.ingest.formats.docx
    import clew.corpus.ingest.formats.epub
    import clew.corpus.ingest.formats.pdf  # noqa: F401
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
                self.outcome = self._wait()
                self.parsers.idle.append(self.worker)
            except multiprocessing.TimeoutError:
                self.worker.end()
                self.outcome = [], [Problem(self.source.path, timed_out(self.seconds), True)]
            except WorkerDied:
                self.worker.end()
                self.outcome = [], [Problem(self.source.path, crashed(), True)]
            except Exception as error:  # noqa: BLE001 - a result that cannot come back skips its file only
                self.parsers.idle.append(self.worker)
                self.outcome = [], [Problem(self.source.path, f"could not be read ({type(error).__name__}: "
                                                              f"{error})", True)]
        return self.outcome

    def _wait(self) -> Prepared:
        """The result, looking every ``DEATH_POLL_SECONDS`` whether the worker still lives: a pool
        replaces a worker that died (a crash inside the parser) and never answers its call."""
        while True:
            left = self.ends - time.monotonic()
            try:
                return self.pending.get(max(0.0, min(left, DEATH_POLL_SECONDS)))
            except multiprocessing.TimeoutError:
                if not _alive(self.worker.pid):
                    raise WorkerDied from None
                if left <= DEATH_POLL_SECONDS:
                    raise


class WorkerDied(Exception):
    """The worker's process ended while it prepared a source."""


def crashed() -> str:
    """The reason given for a file whose parse ended its worker process."""
    return "the parser's process ended while reading it (a crash inside the parser): not ingested"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` (a worker of this process's pool) is still one of its children (a
    pool reaps a dead worker within a tenth of a second)."""
    return any(child.pid == pid for child in multiprocessing.active_children())


class Ready:
    """A source prepared in this process (no worker could start)."""

    def __init__(self, outcome: Prepared) -> None:
        self.outcome = outcome

    def result(self) -> Prepared:
        return self.outcome


_FREE: list[Worker] = []
_FREE_LOCK = threading.Lock()


def unguarded_main() -> tuple[str, int] | None:
    """``(file, line)`` of the main script's top-level line that is running now, when a spawned
    process would run it again: it is not under ``if __name__ == "__main__":``. None when a spawn
    is safe: no main script (an interpreter, ``python -c``, a notebook), one run as a module
    (``python -m``, a console script: re-imported under another name), or a guarded line."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if not isinstance(path, str) or getattr(main, "__spec__", None) is not None:
        return None
    frames = [sys._getframe()]
    main_thread = threading.main_thread().ident
    if main_thread is not None and main_thread != threading.get_ident():
        frames.append(sys._current_frames().get(main_thread))  # type: ignore[arg-type]
    for frame in frames:
        while frame is not None:
            if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__":
                return None if frame.f_lineno in _guarded_lines(path) else (path, frame.f_lineno)
            frame = frame.f_back  # type: ignore[assignment]
    return None


@functools.lru_cache(maxsize=8)
def _guarded_lines(path: str) -> frozenset[int]:
    """The lines of the script at ``path`` inside an ``if __name__ == "__main__":`` block."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"), path)
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return frozenset()
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_main_test(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return frozenset(lines)


def _is_main_test(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return (any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides)
            and any(isinstance(side, ast.Constant) and side.value == "__main__" for side in sides))


KINDS = "/".join(sorted(fmt.upper() for fmt in BINARY_FORMATS))
"""The files a parse worker reads, as the warnings name them: ``DOCX/EPUB/PDF``."""

_WARNED: set[tuple[str, int]] = set()
"""What has been warned of once: an unguarded script's line, or ``_DAEMONIC``."""
_DAEMONIC = ("<daemonic process>", 0)


def _take(prepare: Prepare) -> Worker | None:
    """A kept idle worker, else a new one; None when none can start (see the module docstring)."""
    with _FREE_LOCK:
        if _FREE:
            return _FREE.pop()
    if multiprocessing.current_process().daemon:  # a pool's worker may not have children of its own
        if _DAEMONIC not in _WARNED:
            _WARNED.add(_DAEMONIC)
            logger.warning("this ingest runs in a daemonic process (a multiprocessing pool's worker), which may not "
                           "start a %s parse worker: parsing in this process, where the time bound is checked "
                           "only between pages and lines", KINDS)
        return None
    unguarded = unguarded_main()
    if unguarded is not None:
        if unguarded not in _WARNED:
            _WARNED.add(unguarded)
            logger.warning("%s, line %d, is not under `if __name__ == \"__main__\":`, so a %s parse worker "
                           "would run it again: parsing in this process, where the time bound is checked only "
                           "between pages and lines", *unguarded, KINDS)
        return None
    try:
        return Worker(prepare)
    except (multiprocessing.TimeoutError, OSError) as error:  # OSError: no process could be made
        logger.warning("a %s parse worker did not start within %g s (%s; does the script keep its "
                       "top-level code under `if __name__ == \"__main__\":`?): parsing in this process, where "
                       "the time bound is checked only between pages and lines", KINDS, START_SECONDS,
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
