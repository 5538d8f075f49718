"""Rewriting a corpus into a fresh file, so that the blocks deletes freed are given back.

DuckDB reuses the blocks a delete or a dropped table frees but never shrinks its file: after
the BM25 index has been compacted a few times (every compaction rewrites the postings) a
third or more of the file is free blocks. ``rewrite`` copies every table, index and sequence
(``COPY FROM DATABASE``) into a new file beside the corpus, renames it over the old one and
opens the corpus's connection on it again (``clew compact``).

Why it is safe:

- The corpus is open read-write, which DuckDB allows to one process at a time and only while
  no other process has the file open, read-only or not: nobody else reads or writes during
  the rewrite, and a process that tries is refused by DuckDB's lock as it would be by any
  writer. In this process the corpus's write lock is held throughout.
- The copy is written under another name (``.NAME.rewrite``) and made durable (``fsync``)
  before ``os.replace`` swaps it in, which is atomic: whoever opens the corpus afterwards
  finds the old file or the whole new one, never a half-written copy. If anything fails
  before the swap, the copy is removed and the old file is untouched.
- The old connection stays open on the old file until after the swap, so no other process
  can open and write the old file between the two (its writes would be lost).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
from pydantic import BaseModel, Field

from clew.corpus.checkpoint import default_setting, size_bytes
from clew.corpus.search.index import compact, is_compact
from clew.corpus.sql import one
from clew.corpus.store import Corpus, fsync
from clew.corpus.write_turn import in_turn
from clew.errors import CorpusError

logger = logging.getLogger(__name__)

COPY_NAME = "clew_rewrite"
REWRITE_FREE_SHARE = 0.10
"""An ingest (``ingest_paths``: ``clew ingest``, the REST upload, the Python API) rewrites the file
when it leaves more than this share of it free (in practice after the ingests whose index
compaction rewrote the postings, and after every small ingest into a small corpus: its checkpoints free
4-5 of the file's 26-42 blocks). There is no floor in bytes under which free blocks are left to DuckDB: the
rewrite also gives back what DuckDB counts as used, each small ingest's rows in blocks of their own (a block for
each of six tables). Without it, 50 one-file ingests grew an 80-chunk corpus's file from 11 to 88 MB (6.5 MB with
it), 20 into a 4,000-chunk one's 15 -> 54 MB (10.5), each ingest 0.12-0.33 s of CPU cheaper
(docs/measurements/ingest-2026-12-04.md, task F2)."""
READERS_WAIT_SECONDS = 10.0
"""How long that rewrite waits for marked readers (``Corpus.readers``: a server's requests) to finish."""


@dataclass(frozen=True, slots=True)
class FileSpace:
    """Blocks of a DuckDB file (``PRAGMA database_size``)."""

    total_blocks: int
    used_blocks: int
    free_blocks: int
    bytes: int

    @property
    def free_share(self) -> float:
        return self.free_blocks / self.total_blocks if self.total_blocks else 0.0


@dataclass(frozen=True, slots=True)
class RewriteReport:
    before: FileSpace
    after: FileSpace
    seconds: float


class FileCompaction(BaseModel):
    """The rewrite that ended an ingest (``give_back_free_blocks``)."""

    free_share_before: float = Field(description="share of the file's blocks that were free before the rewrite")
    free_share_after: float
    mb_before: float
    mb_after: float
    seconds: float


@in_turn
def give_back_free_blocks(corpus: Corpus, *, wait_seconds: float | None = None
                          ) -> tuple[FileCompaction | None, bool]:
    """After a write: rewrite the file when more than ``REWRITE_FREE_SHARE`` of it is free.

    Returns the rewrite (None when there was none) and whether it was put off: marked readers
    (``Corpus.readers``) were still reading after ``wait_seconds`` (None: ``READERS_WAIT_SECONDS``),
    or the rewrite failed (a full disk; logged, the corpus unchanged). A later write (or
    ``clew compact``) does it then. Nothing is rewritten inside a caller's bulk write
    (``Corpus.deferred_checkpoint``: its one checkpoint is still to come), nor in an in-memory corpus."""
    if corpus.read_only or corpus.path == ":memory:" or corpus.in_bulk_write:
        return None, False
    try:
        if space(corpus).free_share <= REWRITE_FREE_SHARE:
            return None, False
        with corpus.readers.drained(READERS_WAIT_SECONDS if wait_seconds is None else wait_seconds) as idle:
            if not idle:
                logger.info("file compaction put off: requests were still reading after the ingest")
                return None, True
            done = rewrite(corpus)
    except (duckdb.Error, CorpusError) as error:
        logger.warning("file compaction put off to a later ingest (the ingested documents are stored): %s", error)
        return None, True
    mib = 2**20
    return FileCompaction(free_share_before=round(done.before.free_share, 3),
                          free_share_after=round(done.after.free_share, 3), mb_before=round(done.before.bytes / mib, 1),
                          mb_after=round(done.after.bytes / mib, 1), seconds=done.seconds), False


REWRITE_MEMORY_LIMIT = "1GB"
"""DuckDB's ``memory_limit`` while ``rewrite`` copies the corpus (unless already lower). At the
default (80% of the machine's memory) the buffer pool keeps every block the copy reads: rewriting
a 1M-chunk corpus (1.3 GB) alone peaked at 2,785 MB, the peak of a whole 1M ingest, and at this
limit 1,281 MB, in about the same time (13.7 and 14.5 s)."""


def _lower_memory_limit(con: duckdb.DuckDBPyConnection) -> str | None:
    """Lower the connection's memory limit to ``REWRITE_MEMORY_LIMIT``; the statement that restores
    it (None: it was not higher, and is left as it is)."""
    found = str(one(con, "SELECT current_setting('memory_limit')")[0])
    size, cap = size_bytes(found), size_bytes(REWRITE_MEMORY_LIMIT)
    if size is None or cap is None or size <= cap:
        return None
    con.execute(f"SET memory_limit = '{REWRITE_MEMORY_LIMIT}'")
    return "RESET memory_limit" if found == default_setting("memory_limit") else f"SET memory_limit = '{found}'"


def _database_name(cur: duckdb.DuckDBPyConnection) -> str:
    return str(one(cur, "SELECT current_database()")[0])


def space(corpus: Corpus) -> FileSpace:
    """Used and free blocks of the corpus's file, after a checkpoint (the WAL folded in)."""
    cur = corpus.cursor()
    if not corpus.read_only:
        cur.execute("CHECKPOINT")
    name = _database_name(cur)
    total, used, free = next((row[3], row[4], row[5]) for row in cur.execute("PRAGMA database_size").fetchall()
                             if row[0] == name)
    size = Path(corpus.path).stat().st_size if corpus.path != ":memory:" else 0
    return FileSpace(int(total), int(used), int(free), size)


def _wal(path: Path) -> Path:
    return path.with_name(path.name + ".wal")


@in_turn
def compact_corpus(corpus: Corpus) -> RewriteReport:
    """``clew compact``: compact the BM25 index if it holds retired rows or unsorted postings, then
    rewrite the file."""
    with corpus.transaction() as cur:
        done = is_compact(cur)
    if not done:
        compact(corpus)
    return rewrite(corpus)


@in_turn
def rewrite(corpus: Corpus) -> RewriteReport:
    """Copy the corpus into a fresh file and swap it in (see the module docstring); the corpus
    stays open on the new file. Its content (rows, ids, sequences, indexes) is unchanged."""
    if corpus.read_only:
        raise CorpusError(f"{corpus.path} is open read-only: compacting it needs it read-write")
    if corpus.path == ":memory:":
        raise CorpusError("an in-memory corpus has no file to compact")
    path = Path(corpus.path).resolve()
    copy = path.with_name(f".{path.name}.rewrite")
    before = space(corpus)
    started = time.perf_counter()
    with corpus.exclusive() as con:
        for leftover in (copy, _wal(copy)):  # of a rewrite that crashed: never a corpus anyone opened
            leftover.unlink(missing_ok=True)
        name = _database_name(con)
        restore: str | None = None
        try:
            con.execute("SET enable_progress_bar = false")  # the command line reports; DuckDB's bar would mix in
            con.execute("CHECKPOINT")
            restore = _lower_memory_limit(con)
            con.execute(f"ATTACH '{str(copy).replace(chr(39), chr(39) * 2)}' AS {COPY_NAME}")
            try:
                con.execute(f'COPY FROM DATABASE "{name}" TO {COPY_NAME}')
            finally:
                con.execute(f"DETACH {COPY_NAME}")  # checkpoints the copy: no WAL is left beside it
            if _wal(copy).exists():
                raise CorpusError(f"{copy}: the copy left a write-ahead log; the corpus is unchanged")
            fsync(copy)
            os.replace(copy, path)
        except (duckdb.Error, OSError) as error:
            raise CorpusError(f"{path}: cannot compact the corpus (it is unchanged): {error}") from error
        finally:
            copy.unlink(missing_ok=True)  # a failed copy (after the swap there is none left)
            if restore is not None:
                con.execute(restore)
        fsync(path.parent)  # the rename itself durable
    return RewriteReport(before, space(corpus), round(time.perf_counter() - started, 3))
