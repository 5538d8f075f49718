"""The DuckDB store: opening, schema checks, collections, bulk writes.

One ``Corpus`` holds one DuckDB connection. DuckDB allows one read-write process, or many
read-only ones, per file (another process is refused with an error naming the one that holds
it: ``held_by``); inside a process, threads share the connection and each takes its own
``cursor()``, and the writers take turns (``Corpus.turn``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb

from clew.corpus.checkpoint import raising
from clew.corpus.readers import Readers
from clew.corpus.schema import DDL, LOOKUP_INDEXES, SCHEMA_VERSION, upgrade
from clew.corpus.shared_change import SharedChange, Undo
from clew.corpus.sql import execute, inline, one
from clew.corpus.write_turn import turn_for
from clew.errors import CorpusError, InputError, SchemaVersionError, StoreFailure, UnknownCollection

logger = logging.getLogger(__name__)


WRITE_CONFIG: dict[str, str | bool | int | float | list[str]] = {"max_vacuum_tasks": 0}
"""DuckDB settings of every read-write connection. No vacuum: at a checkpoint DuckDB merges a
table's small row groups (one per commit in a table without an index, ``clew.corpus.schema``)
into larger ones, writing them again and freeing the old copies in a doubling pattern: a 1M-chunk
ingest left a third of its file free without it. Rows a delete leaves (the index compaction's
retired postings) stay in their row groups until ``clew compact`` copies the file
(``clew.corpus.rewrite``), which writes full row groups; docs/measurements/performance-2026-12-05.md,
"2026-12-06 night, task P3"."""

LOOKUP_DROPPED = "lookup_indexes_dropped"
"""The ``clew_meta`` key a bulk write sets while the lookup indexes (``clew.corpus.schema.LOOKUP_INDEXES``)
are dropped; a read-write open builds them again if a process died inside one."""

PENDING_POSTINGS = "pending_postings"
"""The ``clew_meta`` key of a staged index compaction (``clew.corpus.search.index.compact``) whose
second step has not run: its value names, in order, the Parquet files beside the corpus that hold
the sorted postings ``search_postings`` waits for. A read-write open finishes it."""


def staged_postings_files(corpus: Path) -> list[Path]:
    """The sorted-postings files of compactions beside ``corpus`` (``{name}.postings-{write}-{i}.parquet``:
    named by a pending record, or left by a process that died before its first commit)."""
    return sorted(corpus.parent.glob(f"{corpus.name}.postings-*.parquet"))


_HELD_IN = "Conflicting lock is held in "
_HELD = re.compile(r"(?P<program>.+?) \(PID (?P<pid>\d+)\)")
"""DuckDB's refusal of a file another process holds (``IO Error: Could not set lock on file "...": Conflicting lock
is held in /usr/bin/python3.11 (PID 4242)``), matched after the last ``_HELD_IN`` only: searched for anywhere, the
lazy run took time quadratic in a message of many (200,000 characters: about 7 s)."""


def held_by(error: duckdb.Error) -> str | None:
    """What a user is told when another process holds the file (None: ``error`` is not that)."""
    text = str(error)
    at = text.rfind(_HELD_IN)
    held = _HELD.match(text, at + len(_HELD_IN)) if at >= 0 else None
    if held is None:
        return None
    return (f"process {held['pid']} ({held['program']}) has it open, and DuckDB's file lock lets no other process "
            "open a file one is writing, nor write one another has open; nothing was read or written here. Wait "
            "for that process to end (or close the corpus in it), or send the writes to it (a server's upload)")


def fsync(path: Path) -> None:
    """Make what ``path`` holds durable: a file's bytes, or a folder's entries (a rename, a new file)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class CheckpointFailure(StoreFailure):
    """The checkpoint at the end of ``Corpus.deferred_checkpoint`` failed (a full disk): every
    write the block committed is in the write-ahead log, replayed at the next open."""


@dataclass(frozen=True, slots=True)
class CollectionStats:
    name: str
    documents: int
    versions: int
    superseded_versions: int
    chunks: int
    table_chunks: int
    sections: int
    tables: int
    edges: dict[str, int]


class Corpus:
    """A clew corpus in one DuckDB file (``":memory:"`` for a throwaway one)."""

    def __init__(self, path: str | Path, *, read_only: bool = False, threads: int | None = None) -> None:
        """``threads`` caps DuckDB's threads for this connection (default: one per core)."""
        self.path = str(path)
        self.read_only = read_only
        if read_only and self.path != ":memory:" and not Path(self.path).exists():
            raise CorpusError(f"{self.path}: no such corpus file")
        if not read_only and self.path != ":memory:":
            _make_folder(Path(self.path).parent, self.path)
        self._config: dict[str, str | bool | int | float | list[str]] = {} if read_only else dict(WRITE_CONFIG)
        if threads is not None:
            self._config["threads"] = threads
        self._con = self._connect()
        self._write_lock = threading.Lock()
        self.turn = turn_for(self.path)
        """Writers of this corpus file, one at a time, each for its whole write (``clew.corpus.write_turn``):
        ``ingest_paths``, ``remove_documents``, ``embed_missing``, ``compact_corpus`` hold it; a caller's own
        steps that must not meet another thread's write hold it too (``with corpus.turn.held(): ...``)."""
        self.readers = Readers()
        """Threads that mark their reads (a server's requests), waited for before the file is rewritten."""
        self._bulk = SharedChange()
        self._fewer_threads = SharedChange()
        self.generation = 0
        self._collections: tuple[int, list[tuple[str, bool]]] | None = None
        self.schema_version = SCHEMA_VERSION
        """The file's schema version (``clew.corpus.schema``): older only for a file opened read-only."""
        self.uses: Counter[str] = Counter()
        """Queries served by kind in this process (in-memory indexes are built once it pays)."""
        """Committed write transactions in this process. DuckDB lets no other process write a
        file this one holds, so caches keyed by it stay true until it moves."""
        try:
            pending = self._check_schema()
        except duckdb.Error as error:
            self._con.close()
            raise StoreFailure(self.path, error, "creating the schema", "nothing was written") from error
        if pending:
            self._finish_at_open()

    # -- lifecycle -------------------------------------------------------------------------
    def _connect(self) -> duckdb.DuckDBPyConnection:
        try:
            return duckdb.connect(self.path, read_only=self.read_only, config=self._config)
        except duckdb.Error as error:
            raise CorpusError(f"{self.path}: cannot open the corpus: {held_by(error) or error}") from error

    def close(self) -> None:
        """Close the file (DuckDB checkpoints it: what was committed is already in its log)."""
        try:
            self._con.close()
        except duckdb.Error as error:
            kept = "every committed write is in the write-ahead log and is replayed at the next open"
            raise StoreFailure(self.path, error, "the checkpoint at close", kept) from error

    def reopen(self) -> None:
        """Open the file again on a new connection, after DuckDB invalidated the old one (a failed
        checkpoint on a full disk: every later query on it fails). The old connection and its
        cursors are closed; the new one replays the write-ahead log, so every committed write is
        there. Raises ``CorpusError`` while the file cannot be opened (the disk is still full): the
        corpus stays unusable until a later ``reopen`` succeeds."""
        with self._write_lock:
            try:
                self._con.close()
            except duckdb.Error:  # an invalidated database may fail its checkpoint at close too
                pass
            self._con = self._connect()
            self.generation += 1

    @contextmanager
    def exclusive(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The connection itself, outside any transaction, with the write lock held (for statements
        that cannot run inside one: ``ATTACH``, ``COPY FROM DATABASE``). Afterwards the connection
        is opened again on ``path``, so the block may replace the file (``clew.corpus.rewrite``);
        cursors taken before it are closed with the old connection."""
        if self.read_only:
            raise CorpusError(f"{self.path} is open read-only")
        with self._write_lock:
            try:
                yield self._con
            finally:
                self._con.close()
                self._con = self._connect()
                self.generation += 1

    @contextmanager
    def sharing_cores(self, processes: int) -> Iterator[None]:
        """DuckDB's threads lowered, for the block, to the CPUs left beside the parsing (at least one):
        ``processes`` worker processes parse on every core they have, or, with none (``processes`` <= 1),
        this process's own thread does, and DuckDB's threads only competed with them. Two workers on
        2 CPUs: a 100,000-chunk ingest 3.8% faster, its writing process 13% less CPU
        (docs/measurements/ingest-2026-12-04.md). One process on 2 CPUs (DuckDB at 1 thread, not 2): the
        same ingest 29.2-29.3 s of CPU instead of 32.0-34.0, peak RSS 841-849 MB instead of 903-924, the
        file rewrite after it 3.5-4.8 s instead of 7.0-8.9 (load 6-7; docs/measurements/performance-2026-12-05.md,
        section 12b). A setting already as low is left as it is. Overlapping blocks (threads of one process)
        restore the value the first one found when the last one ends. The setting only paces DuckDB: a
        failure to change it is logged, never raised."""
        wanted = max(1, (os.cpu_count() or 1) - max(processes, 1))
        with self._fewer_threads.held(lambda: self._lower_threads(wanted)):
            yield

    def _lower_threads(self, wanted: int) -> Undo | None:
        """Set DuckDB's threads to ``wanted`` if that is lower; what puts back the value found."""
        try:
            found = int(one(self._con.cursor(), "SELECT current_setting('threads')")[0])
        except duckdb.Error as error:
            logger.warning("DuckDB's thread count left as it is: %s", error)
            return None
        if wanted >= found or not self._set_threads(wanted):
            return None

        def restore() -> None:
            self._set_threads(found)

        return restore

    def _set_threads(self, threads: int) -> bool:
        try:
            self._con.cursor().execute(f"SET threads = {int(threads)}").close()
        except duckdb.Error as error:
            # a database that a failed write invalidated (a full disk) refuses every statement, and the
            # failure that invalidated it is the one reported; a reopened file starts from the
            # connection's own setting, so nothing is left to put back
            level = logging.DEBUG if isinstance(error, duckdb.FatalException) else logging.WARNING
            logger.log(level, "DuckDB's thread count not set to %d: %s", threads, error)
            return False
        return True

    @contextmanager
    def deferred_checkpoint(self) -> Iterator[None]:
        """Let the write-ahead log grow to ``checkpoint.BULK_CHECKPOINT_THRESHOLD`` in the block, then checkpoint once.

        DuckDB checkpoints at a commit whenever the log has passed ``checkpoint_threshold``
        (16 MB by default), and a checkpoint writes the file's indexes out again, so a bulk
        write in many transactions (an ingest's batches) paid a checkpoint every second batch,
        each longer than the last as the corpus grew: 7.5 of the 19 s its writer spent on a
        100,000-chunk ingest. Each commit stays durable (the log is synced); a crash inside
        the block leaves a longer log, replayed at the next open. A larger threshold already
        set on the connection is left as it is. Blocks may overlap (threads of one process):
        the first one in raises the threshold, the last one out restores the value it found
        and checkpoints. A failure of that checkpoint is a ``CheckpointFailure`` that
        loses nothing (what was committed is in the log); when the block itself raised, it is
        only logged (at debug level when the block's error was the store's own, as on a full
        disk), so that the block's error is the one the caller sees.
        """
        if self.read_only or self.path == ":memory:":
            yield
            return
        with self._bulk.held(self._raise_threshold):
            yield

    @property
    def in_bulk_write(self) -> bool:
        """A ``deferred_checkpoint`` block is open (its one checkpoint still to come)."""
        return self._bulk.held_now

    def _raise_threshold(self) -> Undo:
        """Raise the checkpoint threshold (unless already as high) and drop the lookup indexes; what
        builds them again, restores the threshold and checkpoints."""
        self._drop_lookup_indexes()  # first: if it fails, nothing is left to undo
        try:
            cur = self._con.cursor()
            statements = raising(str(one(cur, "SELECT current_setting('checkpoint_threshold')")[0]))
            if statements is not None:
                cur.execute(statements[0])
            cur.close()
        except duckdb.Error as error:
            raise StoreFailure(self.path, error, "raising the checkpoint threshold",
                               "nothing was written; a read-write open builds the lookup indexes again") from error
        return lambda: self._end_bulk(None if statements is None else statements[1])

    def _drop_lookup_indexes(self) -> None:
        """Drop the indexes that only reads use (``clew.corpus.schema.LOOKUP_INDEXES``) for a bulk write:
        DuckDB appends a small commit to the last row group of an indexed table, and every checkpoint
        then writes that row group again whole (a 1M-chunk ingest left a third of its file free). Until
        the write ends, a first touch of a document in this process scans those tables."""
        with self.transaction() as cur:
            for name in LOOKUP_INDEXES:
                cur.execute(f"DROP INDEX IF EXISTS {name}")
            cur.execute(f"INSERT OR REPLACE INTO clew_meta VALUES ('{LOOKUP_DROPPED}', 'true')")

    def _build_lookup_indexes(self) -> None:
        """Build the lookup indexes again (about 10 ms per 5,000 versions), clear ``LOOKUP_DROPPED`` and
        checkpoint: DuckDB cannot replay an index's creation from the log on a read-only open."""
        with self.transaction() as cur:
            cur.execute("".join(LOOKUP_INDEXES.values()))
            cur.execute(f"DELETE FROM clew_meta WHERE key = '{LOOKUP_DROPPED}'")
        self.checkpoint("after building the lookup indexes")

    @contextmanager
    def bulk_write(self, what: str) -> Iterator[None]:
        """``deferred_checkpoint`` for a caller that has nothing to undo when only the checkpoint fails.

        A ``CheckpointFailure`` at the end (a full disk) is a warning naming ``what`` was stored
        (it is in the write-ahead log and replayed at the next open), not an error: an ingest or
        an embedding run returns its report. Any other error propagates as it is.
        """
        try:
            with self.deferred_checkpoint():
                yield
        except CheckpointFailure as error:
            logger.warning("checkpoint deferred (%s are stored and in the write-ahead log): %s", what, error)

    def _end_bulk(self, restore: str | None) -> None:
        if restore is not None:
            try:  # a fresh cursor: the block may have opened the file again (``exclusive``)
                self._con.cursor().execute(restore).close()
            except duckdb.Error as error:
                raise CheckpointFailure(self.path, error, "restoring the checkpoint threshold after a bulk write",
                                        "every committed write is in the write-ahead log") from error
        # the writes into the file first: if that fails (a full disk), the lookup indexes are built at the
        # next read-write open, and no index's creation waits in the log (a read-only open could not replay it)
        self.checkpoint("after a bulk write")
        try:
            self._build_lookup_indexes()
        except StoreFailure as error:  # a CheckpointFailure too
            raise CheckpointFailure(self.path, error.cause, "building the lookup indexes again after a bulk write",
                                    "every committed write is stored; reads scan until a read-write open builds them"
                                    ) from error

    def checkpoint(self, when: str) -> None:
        """Write what the write-ahead log holds into the file now (inside ``deferred_checkpoint`` too):
        what a checkpoint has not written stays in memory. A failure is a ``CheckpointFailure`` naming
        ``when`` (every committed write is in the log, replayed at the next open)."""
        if self.read_only or self.path == ":memory:":
            return
        try:  # a fresh cursor: the block may have opened the file again (``exclusive``)
            cur = self._con.cursor()
            cur.execute("CHECKPOINT")
            cur.close()
        except duckdb.Error as error:
            raise CheckpointFailure(self.path, error, f"the checkpoint {when}",
                                    "every committed write is in the write-ahead log and is replayed at the next open"
                                    ) from error

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        try:
            self.close()
        except StoreFailure:
            if kind is None:
                raise  # else the error already on its way says what failed; this one would hide it

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor for the calling thread (cheap; take one per request or thread)."""
        return self._con.cursor()

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """One write transaction at a time; rolled back on any exception.

        A DuckDB error inside it, or at its commit (a full disk, an I/O error), becomes a
        ``StoreFailure`` naming the file: nothing of the transaction is stored.
        """
        if self.read_only:
            raise CorpusError(f"{self.path} is open read-only")
        with self._write_lock:
            cur = self._con.cursor()
            try:
                cur.execute("BEGIN TRANSACTION")
                try:
                    yield cur
                except BaseException:
                    _rollback(cur)
                    raise
                try:
                    cur.execute("COMMIT")
                except duckdb.Error:
                    _rollback(cur)
                    raise
                self.generation += 1
            except duckdb.Error as error:
                raise StoreFailure(self.path, error) from error
            finally:
                cur.close()

    def _finish_at_open(self) -> None:
        """Finish a compaction a process died inside (``PENDING_POSTINGS``); a read-only open cannot."""
        if self.read_only:
            self._con.close()
            raise CorpusError(
                f"{self.path}: an index compaction was interrupted before it wrote the sorted postings back "
                "(they wait in the Parquet files beside the corpus); open the corpus read-write once to finish "
                f"it (`clew compact --db {self.path}`, or any command that opens it read-write)")
        try:
            self.finish_compaction()
        except BaseException:
            self._con.close()
            raise

    def finish_compaction(self) -> None:
        """The second step of a staged index compaction: the sorted postings its first step wrote to
        the files ``PENDING_POSTINGS`` names are written back into ``search_postings`` (in their order)
        and the record cleared in one transaction; then the files are deleted. No record: nothing to do."""
        with self.transaction() as cur:
            row = cur.execute(f"SELECT value FROM clew_meta WHERE key = '{PENDING_POSTINGS}'").fetchone()
            if row is None:
                return
            files = [Path(self.path).with_name(name) for name in json.loads(row[0])]
            missing = [str(f) for f in files if not f.exists()]
            if missing:
                raise CorpusError(
                    f"{self.path}: an interrupted index compaction's sorted postings are missing "
                    f"({', '.join(missing)}): the BM25 postings cannot be restored; "
                    "keep those files beside the corpus when moving it")
            for f in files:
                cur.execute("INSERT INTO search_postings SELECT * FROM read_parquet('"
                            + str(f).replace("'", "''") + "')")
            cur.execute(f"DELETE FROM clew_meta WHERE key = '{PENDING_POSTINGS}'")
        for f in files:
            f.unlink(missing_ok=True)

    def _check_schema(self) -> bool:
        """Check (or create, or upgrade) the schema; whether a staged compaction waits (``PENDING_POSTINGS``)."""
        cur = self._con.cursor()
        try:  # the rows themselves: asking information_schema first cost each open ~10 ms more
            # the key as a literal: a bound parameter makes DuckDB import pandas (clew.corpus.sql)
            rows = dict(cur.execute(f"SELECT key, value FROM clew_meta WHERE key IN "
                                    f"('schema_version', '{PENDING_POSTINGS}', '{LOOKUP_DROPPED}')").fetchall())
            has_meta = True
        except duckdb.CatalogException:  # no clew_meta table: not a clew corpus (yet)
            rows, has_meta = {}, False
        found = 0
        pending = PENDING_POSTINGS in rows
        if has_meta:
            found = int(rows.get("schema_version", 0))
            if found > SCHEMA_VERSION:
                raise SchemaVersionError(self.path, found, SCHEMA_VERSION)
            if found == SCHEMA_VERSION or (found >= 1 and self.read_only):
                self.schema_version = found
                if LOOKUP_DROPPED in rows and not self.read_only:  # a process died inside a bulk write
                    self._build_lookup_indexes()
                return pending
        if self.read_only:
            raise CorpusError(f"{self.path} is not a clew corpus (no schema); open it read-write once")
        from clew.corpus.skeleton_rows import backfill  # it reads through the structure module, which needs this one

        cur.execute("BEGIN TRANSACTION")  # an older file is upgraded whole or not at all
        try:
            if 1 <= found < 4:
                upgrade(cur)  # the per-version tables without their keys (clew.corpus.schema)
            cur.execute(DDL)
            cur.execute("INSERT INTO search_stats SELECT 0, 0, 0, 0, 0 WHERE NOT EXISTS (SELECT * FROM search_stats)")
            if found >= 1:
                backfill(cur)
            execute(cur, 
                "INSERT OR REPLACE INTO clew_meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)]
            )
            cur.execute("COMMIT")
        except BaseException:
            _rollback(cur)
            raise
        self.schema_version = SCHEMA_VERSION
        return pending

    @property
    def has_skeletons(self) -> bool:
        """Whether the file has the ``skeletons`` table (schema version 3 on)."""
        return self.schema_version >= 3

    # -- collections -----------------------------------------------------------------------
    def collection_id(self, name: str) -> int:
        """The id of an existing collection, else ``UnknownCollection``."""
        row = execute(self.cursor(), "SELECT id FROM collections WHERE name = ?", [name]).fetchone()
        if row is None:
            raise UnknownCollection(name)
        return int(row[0])

    def ensure_collection(self, cur: duckdb.DuckDBPyConnection, name: str) -> int:
        if not isinstance(name, str) or not name.strip():
            raise InputError("collection", "a collection name must be a non-blank string")
        row = execute(cur, "SELECT id FROM collections WHERE name = ?", [name]).fetchone()
        if row is not None:
            return int(row[0])
        return int(
            one(cur, inline(
                "INSERT INTO collections (id, name) VALUES (nextval('collection_ids'), ?) RETURNING id",
                [name],
            ))[0]
        )

    def collections(self, *, with_documents: bool = False) -> list[str]:
        """Collection names (only those holding a document), read once per write generation."""
        known = self._collections
        if known is None or known[0] != self.generation:
            rows = self.cursor().execute(
                """SELECT c.name, EXISTS (SELECT 1 FROM documents d WHERE d.collection_id = c.id)
                   FROM collections c ORDER BY c.name""").fetchall()
            known = self._collections = (self.generation, [(name, bool(has)) for name, has in rows])
        return [name for name, has in known[1] if has or not with_documents]

    def stats(self) -> list[CollectionStats]:
        cur = self.cursor()
        out = []
        for cid, name in cur.execute("SELECT id, name FROM collections ORDER BY name").fetchall():
            docs, versions, superseded = one(cur,
                """SELECT count(DISTINCT d.id), count(*), count(*) FILTER (WHERE v.version < d.current_version)
                   FROM documents d JOIN document_versions v ON v.document_id = d.id
                   WHERE d.collection_id = ?""",
                [cid],
            )
            chunks, table_chunks = one(cur,
                """SELECT count(*), count(*) FILTER (WHERE c.kind = 'table')
                   FROM documents d JOIN chunks c ON c.document_id = d.id AND c.version = d.current_version
                   WHERE d.collection_id = ?""",
                [cid],
            )
            sections, tables = one(cur,
                """SELECT count(*) FILTER (WHERE n.kind = 'section'), count(*) FILTER (WHERE n.kind = 'table')
                   FROM documents d JOIN nodes n ON n.document_id = d.id AND n.version = d.current_version
                   WHERE d.collection_id = ?""",
                [cid],
            )
            edges = dict(
                cur.execute(
                    "SELECT graph, count(*) FROM edges WHERE collection_id = ? GROUP BY graph ORDER BY graph",
                    [cid],
                ).fetchall()
            )
            out.append(CollectionStats(name, docs, versions, superseded, chunks, table_chunks, sections, tables, edges))
        return out


def _rollback(cur: duckdb.DuckDBPyConnection) -> None:
    try:
        cur.execute("ROLLBACK")
    except duckdb.Error:  # a failed or invalidated database has no transaction left to roll back
        pass


def _make_folder(folder: Path, path: str) -> None:
    """The folder a new corpus file goes in, made when missing (``clew ingest --db db/docs.duckdb`` in a
    fresh clone: DuckDB creates the file, not its folder)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CorpusError(f"{path}: cannot make the corpus's folder {folder}: {error.strerror or error}") from error
