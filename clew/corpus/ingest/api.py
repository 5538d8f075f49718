"""Ingest sources into a corpus, one atomic batch at a time.

Each batch of documents is written in one transaction: a crash or kill in the middle of a
batch leaves the corpus as it was before that batch. Batches are written in order by a thread
of their own while the next one is prepared (``clew.corpus.ingest.batch_writer``). A key whose content (and chunking) is
unchanged is a no-op; changed content becomes a new version and the old one is kept,
superseded. After each batch, links in the collection that point at the batch's keys, and the
batch's own links, are resolved again; at the first batch (and after any other write in between)
every dangling link of the collection too. What dangles is counted once, after the last batch.

A writer (``principal``) with a row filter never replaces, supersedes or learns of a document
it may not read: a key whose latest version it cannot read is not written (whatever the bytes;
logged, never reported to it), and its report withholds every count that depends on what the
corpus holds (``IngestReport.withheld``): a key it may not write and an absent key it wrote get
the same answer. What it may read it learns by reading back. The BM25 index is written in the
same transaction as the chunks it indexes, and compacted after the ingest when its unsorted
tail has grown. An ingest is one bulk write (``Corpus.bulk_write``: one checkpoint at its end), unless it is
one batch into a corpus that holds no document yet, or one that stores no version (``_one_commit``).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Literal

from clew.corpus.access import Filter, Principal
from clew.corpus.ingest.batch_writer import BatchWriter
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS, Chunk, chunk_documents
from clew.corpus.ingest.collector import fewer_collections_for_good, fewer_full_collections
from clew.corpus.ingest.formats.jsonl import parse_jsonl
from clew.corpus.ingest.parse_process import BinaryParsers, Job, Prepared, Ready, watch_parent
from clew.corpus.ingest.parsed import ParsedDocument, UnreadableDocument
from clew.corpus.ingest.prepare import ChunkingConfig, PreparedDocument, parse, prepare
from clew.corpus.ingest.report import IngestReport, SkippedItem
from clew.corpus.ingest.same_files import aliased, leave_out_copies
from clew.corpus.ingest.side_by_side import side_by_side
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import BINARY_FORMATS, FileLimits, Problem, Source, find_files, suffix_twins
from clew.corpus.ingest.version_rows import existing_versions, files_gone, insert_versions, prune_collection
from clew.corpus.links import dangling_by_reason, resolve_links
from clew.corpus.rewrite import give_back_free_blocks
from clew.corpus.search.index import compact, index_chunks, needs_compaction
from clew.corpus.sql import arrow_view, execute, insert_columns
from clew.corpus.store import Corpus
from clew.corpus.tokenize import count_terms_bulk
from clew.corpus.write_turn import in_turn
from clew.errors import InputError, StoreFailure

logger = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 1024
"""Documents written in one transaction (at most; ``BATCH_CHUNKS`` ends a batch sooner). Each batch
pays a fixed cost (its commit, its statements, a scan of the collection's links), so fewer, larger
batches cost less: the generated 100k corpus (5,000 documents, 20 chunks each) in one process,
256 against 1024 documents a batch, 2 interleaved rounds at load 6.8-7.7, CPU 36.7, 34.7 -> 33.7,
32.3 s; peak RSS 861-866 -> 909-968 MB."""
BATCH_CHUNKS = 32_768
"""A batch also ends once it holds this many chunks, so that a batch of large documents (PDF
manuals of thousands of chunks) does not hold a thousand of them in memory."""
REFUSED_WRITE = "not written: this principal may not write this key"
"""What the log says of a write of a key whose latest version the writer may not read (the
writer's own report does not say it: ``IngestReport.withheld``)."""
POOL_MIN_FILES = 64
"""Below this many files, starting worker processes costs more than it saves."""
POOL_MIN_CPUS = 2
"""On one CPU the workers only take turns with the writer."""
TWO_CPU_POOL_MIN_BYTES = 16 * 2**20
"""On 2 CPUs the pool pays once there is enough to parse: the parent's writes and two workers share
the two cores, and starting the workers costs a few tenths of a second. ``benchmarks/ingest.py``,
``--workers 1`` against ``2``, 3 rounds each, idle: generated Markdown 2 MB 0.90x, 4 MB 1.0x, 8 MB
1.05x, 40 MB (100,000 chunks) 1.13x; the SQLite HTML pages 7.2 MB 1.0x, twice over (14 MB) 1.15x,
five times (36 MB) 1.3x. On 3 CPUs or more, ``POOL_MIN_FILES`` alone decides."""


def auto_workers(files: int, size: int) -> int:
    """The parsing processes worth starting for ``files`` files of ``size`` bytes in all on this machine
    (``workers="auto"``): one per CPU, up to 4, once there are ``POOL_MIN_FILES`` files, on 3 CPUs or
    more; on 2 CPUs, two once the files hold ``TWO_CPU_POOL_MIN_BYTES``; else 1 (no pool)."""
    cpus = os.cpu_count() or 1
    if files < POOL_MIN_FILES or cpus < POOL_MIN_CPUS or (cpus == 2 and size < TWO_CPU_POOL_MIN_BYTES):
        return 1
    return min(cpus, 4)


def total_size(files: Iterable[tuple[Path, str]]) -> int:
    """Bytes in ``files`` (one that cannot be read counts 0: reading it reports the problem)."""
    size = 0
    for file, _ in files:
        try:
            size += file.stat().st_size
        except OSError:
            continue
    return size


def iter_sources(files: Iterable[tuple[Path, str]], problems: list[Problem],
                 on_file: Callable[[str], None] | None = None, limits: FileLimits | None = None, *,
                 keys_as_sources: bool = False, targets: dict[str, dict[str, str]] | None = None) -> Iterator[Source]:
    """Each file read (a skipped one's problem appended to ``problems``); ``keys_as_sources``: the
    source a version keeps is the file's key, not its path on this machine; ``targets``: ``Found.targets``."""
    for file, key in files:
        if on_file is not None:
            on_file(key)
        source, problem = read_source(file, key, limits, (targets or {}).get(str(file)))
        if problem is not None:
            problems.append(problem)
        if source is not None:
            yield dataclasses.replace(source, path=key) if keys_as_sources else source


def prepare_source(source: Source, config: ChunkingConfig) -> Prepared:
    """Parse, chunk and tokenise one source (pure; runs in worker processes for big ingests)."""
    return prepare_sources([source], config)[0]


def prepare_sources(sources: list[Source], config: ChunkingConfig) -> list[Prepared]:
    """``prepare_source`` of each source, in order; the text sources' documents are chunked together
    (``chunk_documents``: their blocks' tokens counted at once). One file's failure never sinks the
    others: if chunking them together fails, each is chunked alone."""
    out: list[Prepared | None] = [None] * len(sources)
    parsed: list[tuple[int, ParsedDocument]] = []
    for index, source in enumerate(sources):
        if source.format == "jsonl":
            content = source.content if isinstance(source.content, str) else source.content.decode("utf-8")
            records, bad = parse_jsonl(content)
            problems = [Problem(f"{source.path}:{p.line}", p.message, True) for p in bad]
            out[index] = ([prepare(r.key, "text", r.document, config, source=f"{source.path}:{r.line}")
                           for r in records], problems)
            continue
        try:
            document = parse(source.format, source.content, source.bounds, dict(source.targets))
        except Exception as error:  # noqa: BLE001 - one file's failure never sinks the others
            out[index] = _unreadable(source, error)
            continue
        if not document.text.strip():
            out[index] = [], [Problem(source.path, "no text content after parsing", True)]
        else:
            parsed.append((index, document))
    try:
        chunked: list[list[Chunk] | None] = list(chunk_documents(
            [document for _, document in parsed], chunk_tokens=config.chunk_tokens,
            merge_sections=config.merge_sections))
    except Exception:  # noqa: BLE001 - chunked alone below, where a failure is its own file's
        chunked = [None] * len(parsed)
    for (index, document), chunks in zip(parsed, chunked):
        source = sources[index]
        try:
            prepared = prepare(source.key, source.format, document, config, source=source.path, chunks=chunks)
        except Exception as error:  # noqa: BLE001 - one file's failure never sinks the others
            out[index] = _unreadable(source, error)
            continue
        notes = [Problem(source.path, message, False, warning=True) for message in document.warnings]
        notes += [Problem(source.path, message, False) for message in document.repairs]
        out[index] = [prepared], notes
    return [item for item in out if item is not None]


def _unreadable(source: Source, error: Exception) -> Prepared:
    if isinstance(error, UnreadableDocument):
        return [], [Problem(source.path, str(error), True)]
    return [], [Problem(source.path, f"could not be read ({type(error).__name__}: {error})", True)]


GROUP_SOURCES = 256
GROUP_CHARS = 1 << 22
"""Text sources prepared together (``prepare_sources``) in this process, at most this many and (past the
first) this many characters of content: enough that their words repeat (the blocks' tokens of the 100k
generated corpus, 5,000 files: 2.7 s of CPU one block at a time, 2.3-2.4 s in groups of 32 files, 1.5 s of
256, 1.45 s of 1,024)."""


def _groups(sources: Iterable[Source], most: int = GROUP_SOURCES) -> Iterator[list[Source]]:
    """Consecutive text sources in groups (``most`` of them, ``GROUP_CHARS``); a PDF or DOCX file alone."""
    group: list[Source] = []
    chars = 0
    for source in sources:
        binary = source.format in BINARY_FORMATS
        if group and (binary or len(group) >= most or chars + len(source.content) > GROUP_CHARS):
            yield group
            group, chars = [], 0
        if binary:
            yield [source]
            continue
        group.append(source)
        chars += len(source.content)
    if group:
        yield group


def iter_prepared(
    sources: Iterable[Source], config: ChunkingConfig, problems: list[Problem], workers: int = 1
) -> Iterator[PreparedDocument]:
    """Prepared documents in source order: in this process a group of text sources at a time (``_groups``),
    with ``workers`` > 1 one source at a time in a process pool. PDF and DOCX files are prepared in workers
    that are ended when one outlasts its time bound (``clew.corpus.ingest.parse_process``; up to ``workers``
    files at once)."""
    if workers <= 1:
        with BinaryParsers(prepare_source, config) as binary:
            for group in _groups(sources):
                if group[0].format in BINARY_FORMATS:
                    results = [binary.submit(group[0]).result()]
                else:
                    results = prepare_sources(group, config)
                for docs, bad in results:
                    problems.extend(bad)
                    yield from docs
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_worker_start, initargs=(os.getpid(),)) as pool, \
            BinaryParsers(prepare_source, config, workers) as binary:
        # a task per source: with a group of files per task (32 or 256) the workers spent about 10% less CPU
        # at 100k chunks, but the ingest took longer in 5 of 6 interleaved pairs (load 7.5-14.6;
        # docs/measurements/performance-2026-12-05.md, section 18)
        pending: deque[Future[Prepared] | Job | Ready] = deque()
        for source in sources:
            pending.append(binary.submit(source) if source.format in BINARY_FORMATS
                           else pool.submit(prepare_source, source, config))
            while len(pending) > workers * 4:  # a bounded window: sources are read as they go
                docs, bad = pending.popleft().result()
                problems.extend(bad)
                yield from docs
        while pending:
            docs, bad = pending.popleft().result()
            problems.extend(bad)
            yield from docs


def _worker_start(parent: int) -> None:
    """A preparing worker's start: it ends with ``parent`` (``watch_parent``) and collects garbage as an
    ingest does (``fewer_collections_for_good``)."""
    watch_parent(parent)
    fewer_collections_for_good()


@in_turn
def ingest_paths(
    corpus: Corpus,
    paths: str | Path | Iterable[str | Path],
    *,
    collection: str | None = None,
    glob: str = "**/*",
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
    merge_sections: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_document: Callable[[str], None] | None = None,
    workers: int | Literal["auto"] = 1,
    exclude: Iterable[str] = (),
    prune: bool = False,
    on_total: Callable[[int], None] | None = None,
    on_file: Callable[[str], None] | None = None,
    principal: Principal | None = None,
    limits: FileLimits | None = None,
    follow_symlinks: bool = False,
    keys_as_sources: bool = False,
) -> IngestReport:
    """Ingest files and folders; see the module docstring for the guarantees.

    The defaults are ``clew ingest``'s: ``collection`` None is the corpus's only collection, else
    ``default``; chunks of ``DEFAULT_CHUNK_TOKENS``. One difference: ``clew ingest`` parses with
    ``workers="auto"``, and a library call starts no process unless asked.

    ``workers``: processes that parse and chunk. The default, 1, prepares text formats in this
    process, and PDF and DOCX files in one spawned worker that is ended (and the file skipped)
    when a parse outlasts its time bound, and kept for the next ingest (``clew.corpus.ingest.parse_process``;
    the ``__main__`` rule below holds for it too). More (or ``"auto"``: :func:`auto_workers`, what ``clew ingest``
    uses) start a pool of *spawned* processes, and spawning re-imports the caller's main module:
    a script that asks for them must keep its top-level code under ``if __name__ == "__main__":``
    (as with any ``multiprocessing`` pool), else each worker re-runs the script.
    A path that does not exist raises ``InputError`` (field ``paths``) before anything is read.
    ``exclude``: glob patterns of files to leave out (with each folder's ``.clewignore``; see
    ``clew.corpus.ingest.sources.find_files``). ``follow_symlinks``: take files that links inside a
    folder point to outside it (default: each is skipped and reported). ``prune``: afterwards,
    retire the collection's current documents that this ingest did not find (``clew.corpus.documents``); under a
    ``principal`` with a row filter, only those it may read (the others are not reported). Without it, the
    report's ``files_gone`` names the documents read from a folder given whose files are gone.
    ``on_total`` is told how many files will be read, then ``on_file`` each one's key as it is.
    ``principal``: who writes (None: an unrestricted writer); see the module docstring.
    ``keys_as_sources``: each version keeps its key (its path under the folder given) as its source,
    not its path on this machine: an upload ingested from a temporary folder keeps the name the
    client sent, and a JSON Lines record ``KEY:LINE``, never a path that is gone after the call.
    ``limits``: the largest file read (``FileLimits``: 16 MiB of text, 128 MiB of PDF or DOCX by
    default); a larger file is skipped with a problem naming it and the limit; and what parsing one
    PDF or DOCX may cost (``ParseBounds``: 120 s, 50,000 objects on a PDF page, 512 MiB unzipped):
    past one, that file is skipped with the reason (past the time bound within about half a second,
    even inside one PDFium call: its worker is terminated).
    An ingest that leaves more than ``REWRITE_FREE_SHARE`` of the file free rewrites it
    (``clew.corpus.rewrite.give_back_free_blocks``; ``file_compacted`` in the report), which
    reopens the corpus's connection: cursors taken before the call are closed.
    """
    started = time.perf_counter()
    problems: list[Problem] = []
    if collection is None:
        held = corpus.collections(with_documents=True)
        collection = held[0] if len(held) == 1 else "default"
    config = ChunkingConfig(chunk_tokens, merge_sections)
    roots = [Path(p) for p in ([paths] if isinstance(paths, (str, Path)) else paths)]
    missing = [str(root) for root in roots if not root.exists()]
    if missing:
        raise InputError("paths", f"path not found: {', '.join(missing)}")
    if workers != "auto" and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise InputError("workers", f"must be a whole number of at least 1 or 'auto', got {workers!r}")
    found = find_files(roots, glob, list(exclude), follow_symlinks=follow_symlinks)
    files, aliases, copies = leave_out_copies(found.files, roots, list(exclude))
    problems.extend(found.problems + copies)
    problems.extend(suffix_twins(files))
    if on_total is not None:
        on_total(len(files))
    if workers == "auto":
        workers = auto_workers(len(files), total_size(files))
    sources = iter_sources(files, problems, on_file, limits, keys_as_sources=keys_as_sources, targets=found.targets)
    seen = {key for _, key in files}
    read: list[str] = []

    def noted(documents: Iterable[PreparedDocument]) -> Iterator[PreparedDocument]:
        for document in documents:
            seen.add(document.key)
            read.append(document.key)
            yield aliased(document, aliases) if aliases else document

    # nothing found for a collection the corpus does not hold (a mistyped path, --glob or --collection):
    # no empty collection is created, and there is nothing to prune
    writes = bool(files) or collection in corpus.collections()
    folders = [root for root in roots if root.is_dir()]  # a link to a file they hold is left out, not missing
    if writes:
        with corpus.sharing_cores(workers):  # DuckDB's threads leave the workers their cores
            report = _ingest_documents(
                corpus, noted(iter_prepared(sources, config, problems, workers)), collection, batch_size,
                on_document, principal, one_batch=len(files) <= batch_size, folders=folders)
    else:
        report = IngestReport(collection=collection)
    report.excluded, report.side_by_side = found.excluded + len(aliases), side_by_side(read)
    if prune and writes:
        report.retired = prune_collection(corpus, collection, seen, _row_filter(principal))
        if report.retired:
            with corpus.transaction() as cur:
                report.links_dangling_by_reason = dangling_by_reason(
                    cur, corpus.collection_id(collection), _row_filter(principal), folders)
                report.links_dangling = sum(report.links_dangling_by_reason.values())
    elif writes:  # without prune, a deleted file's document stays current: say so (task K1)
        try:
            report.files_gone = files_gone(corpus, collection, seen, roots, _row_filter(principal))
        except StoreFailure as error:  # a note, not the write: a store failed after the write leaves it out
            logger.warning("files gone from the folders not looked for (the ingested documents are stored): %s",
                           error)
    report.problems = [SkippedItem(path=p.path, message=p.message, skipped=p.skipped, warning=p.warning,
                                   unread_type=p.unread_type, taken_by=p.taken_by, named_as=p.named_as)
                       for p in problems] + report.problems  # after them: writes refused by permission
    skipped = sum(p.skipped for p in problems)
    report.skipped += skipped
    report.warnings = sum(p.warning for p in problems)
    report.repaired = len(problems) - skipped - report.warnings
    # the index compaction frees the postings it rewrote; DuckDB reuses free blocks but never gives them back
    report.file_compacted, report.file_compaction_deferred = give_back_free_blocks(corpus)
    if _row_filter(principal) is not None:
        report.withhold()
    report.seconds = round(time.perf_counter() - started, 3)
    return report


@in_turn
def ingest_documents(
    corpus: Corpus,
    documents: Iterable[PreparedDocument],
    *,
    collection: str = "default",
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_document: Callable[[str], None] | None = None,
    principal: Principal | None = None,
) -> IngestReport:
    return _ingest_documents(corpus, documents, collection, batch_size, on_document, principal,
                             one_batch=isinstance(documents, Sized) and len(documents) <= batch_size)


def _ingest_documents(corpus: Corpus, documents: Iterable[PreparedDocument], collection: str, batch_size: int,
                      on_document: Callable[[str], None] | None, principal: Principal | None, *,
                      one_batch: bool, folders: Sequence[Path] = ()) -> IngestReport:
    """``ingest_documents``; ``one_batch``: the documents are expected to make one batch (``_one_commit``);
    ``folders``: those the documents were read from (``links.dangling_by_reason``)."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    report = IngestReport(collection=collection)
    # fewer full garbage collections while the batches are prepared (clew.corpus.ingest.collector)
    with fewer_full_collections(), ExitStack() as bulk:

        def in_bulk() -> None:  # one checkpoint for the whole ingest, not one every few batches
            bulk.enter_context(corpus.bulk_write("the ingested documents"))

        one, documents = _one_commit(corpus, collection, documents, batch_size, _row_filter(principal), one_batch)
        if not one:
            in_bulk()
        _write_all(corpus, collection, documents, batch_size, on_document, _row_filter(principal), report,
                   in_bulk if one else None, folders)
    if _row_filter(principal) is not None:
        report.withhold()
    return report


def _writes_nothing(corpus: Corpus, collection: str, batch: list[PreparedDocument]) -> bool:
    """Whether writing ``batch`` (by an unrestricted writer) would store no version: each key is current with the same
    content and chunking (``_write_batch`` decides the same, in its transaction)."""
    if collection not in corpus.collections():
        return not batch
    cur = corpus.cursor()
    try:
        found = existing_versions(cur, corpus.collection_id(collection), list({doc.key for doc in batch}))
    finally:
        cur.close()
    last = {doc.key: doc for doc in batch}  # the last occurrence of a key in a batch wins
    return all(key in found and found[key][2] == doc.content_hash for key, doc in last.items())


def _one_commit(corpus: Corpus, collection: str, documents: Iterable[PreparedDocument], batch_size: int,
                row_filter: Filter | None, one_batch: bool) -> tuple[bool, Iterable[PreparedDocument]]:
    """Whether an ingest whose documents are expected to make one batch (``one_batch``) is written outside a bulk
    write (``Corpus.bulk_write``), and its documents (the first batch read ahead where that decides): when the corpus
    holds no document yet, or the batch would store no version (files ingested again unchanged). Then the lookup
    indexes are not dropped and built again, and the first checkpoint after the commit writes it into the file
    (``give_back_free_blocks``' or the close's). A bulk write keeps many commits from appending to indexed tables'
    last row groups and from checkpointing every 16 MB of log; one commit into empty tables does neither. If a second
    batch comes after all (a JSON Lines file's records, ``BATCH_CHUNKS``), the rest is one bulk write. Into a corpus
    that holds documents, one batch that stores a version outside a bulk write cost more (an indexed row group written
    again), so it stays one (docs/measurements/tests-2026-12-05.md, "task T11"). A writer with a row filter always
    writes in a bulk write: how long its ingest takes says nothing of what the corpus holds that it may not read."""
    if not one_batch or row_filter is not None:
        return False, documents
    if not corpus.collections(with_documents=True):
        return True, documents
    rest = iter(documents)
    head = list(itertools.islice(rest, batch_size + 1))
    one = len(head) <= batch_size and _writes_nothing(corpus, collection, head)
    return one, itertools.chain(head, rest)


def _write_all(corpus: Corpus, collection: str, documents: Iterable[PreparedDocument], batch_size: int,
               on_document: Callable[[str], None] | None, row_filter: Filter | None, report: IngestReport,
               before_second: Callable[[], None] | None = None, folders: Sequence[Path] = ()) -> None:
    """Write ``documents`` in batches (``before_second`` called before the second is handed on), then count what
    dangles and compact the index if it is stale."""
    batch: list[PreparedDocument] = []
    chunks = 0
    state = _Progress()
    # batches are written in a thread of their own while the next one is prepared (see batch_writer)
    with BatchWriter[list[PreparedDocument]](
            lambda written: _write_or_fail(corpus, collection, written, report, row_filter, state)) as writer:
        for document in documents:
            batch.append(document)
            chunks += len(document.chunks)
            if on_document is not None:
                on_document(document.key)
            if len(batch) >= batch_size or chunks >= BATCH_CHUNKS:
                _put(writer, batch, before_second)
                batch, chunks = [], 0
        if batch or writer.batches == 0 and collection in corpus.collections():
            _put(writer, batch, before_second)
    if writer.batches == 0:  # nothing read (every file skipped) for a collection the corpus does not hold: none made
        return
    with corpus.transaction() as cur:
        report.links_dangling_by_reason = dangling_by_reason(cur, corpus.collection_id(collection), row_filter,
                                                             folders)
    report.links_dangling = sum(report.links_dangling_by_reason.values())
    _compact_if_stale(corpus, report)


def _put(writer: BatchWriter[list[PreparedDocument]], batch: list[PreparedDocument],
         before_second: Callable[[], None] | None) -> None:
    if writer.batches == 1 and before_second is not None:
        before_second()
    writer.put(batch)


class _Progress:
    """What the writer thread remembers between the batches of one ingest."""

    def __init__(self) -> None:
        self.generation: int | None = None
        """``Corpus.generation`` right after this ingest's last commit (None before its first)."""


def _write_or_fail(corpus: Corpus, collection: str, batch: list[PreparedDocument], report: IngestReport,
                   row_filter: Filter | None, state: _Progress) -> None:
    """Write one batch; a store failure says what it rolled back and what earlier batches stored."""
    stored = report.documents
    try:
        # every dangling link is tried again unless this ingest's previous batch was the last write
        _write_batch(corpus, collection, batch, report, row_filter,
                     retry_dangling=state.generation is None or state.generation != corpus.generation)
        state.generation = corpus.generation
    except StoreFailure as error:
        raise StoreFailure(
            corpus.path, error.cause, f"writing a batch of {len(batch)} document(s)",
            f"that batch was rolled back; the {stored} document(s) of earlier batches are stored "
            "(the same ingest run again completes it)") from error


def _compact_if_stale(corpus: Corpus, report: IngestReport) -> None:
    """Compact the BM25 index when its unsorted tail has grown. Its failure (a full disk) loses
    nothing: the batches are committed and search reads the index as it is, so it is logged,
    reported (``compaction_deferred``) and tried again after the next ingest."""
    try:
        with corpus.transaction() as cur:
            stale = needs_compaction(cur)
        if stale:
            compact(corpus)
    except StoreFailure as error:
        logger.warning("BM25 index compaction deferred to the next ingest (the ingested documents are stored): %s",
                       error)
        report.compaction_deferred = True


def _row_filter(principal: Principal | None) -> Filter | None:
    return None if principal is None else principal.row_filter


def _write_batch(corpus: Corpus, collection: str, batch: list[PreparedDocument], report: IngestReport,
                 row_filter: Filter | None = None, *, retry_dangling: bool = True) -> None:
    with corpus.transaction() as cur:
        collection_id = corpus.ensure_collection(cur, collection)
        # the last occurrence of a key in one batch wins
        by_key = {doc.key: doc for doc in batch}
        existing = existing_versions(cur, collection_id, list(by_key), row_filter)
        new_keys = [key for key in by_key if key not in existing]
        # one statement for all the batch's new ids (a statement per document was ~2 ms each)
        new_ids = sorted(int(r[0]) for r in execute(cur, 
            "SELECT nextval('document_ids') FROM range(?)", [len(new_keys)]).fetchall()) if new_keys else []
        id_of = dict(zip(new_keys, new_ids))
        written: list[tuple[int, int, PreparedDocument]] = []
        retired: list[tuple[int, int]] = []
        for key, doc in by_key.items():
            found = existing.get(key)
            if found is not None and not found[3]:  # refused before anything about it is compared
                logger.info("%s: %s (%s)", collection, REFUSED_WRITE, doc.source or key)
                continue
            if found is None:
                written.append((id_of[key], 1, doc))
            elif found[2] is None:  # retired (clew rm, --prune): it comes back as the version it lacks
                doc_id, version = found[0], found[1]
                written.append((doc_id, version, doc))
            elif found[2] == doc.content_hash:
                report.unchanged += 1
            else:
                doc_id, version = found[0], found[1] + 1
                written.append((doc_id, version, doc))
                retired.append((doc_id, found[1]))
        insert_columns(cur, "documents", {"id": new_ids, "collection_id": [collection_id] * len(new_ids),
                                          "key": new_keys, "current_version": [1] * len(new_ids)})
        if retired:
            with arrow_view(cur, "clew_moved", {"id": [d for d, _ in retired],
                                                "version": [v + 1 for _, v in retired]}):
                cur.execute("UPDATE documents SET current_version = m.version FROM clew_moved m "
                            "WHERE documents.id = m.id")
        report.documents += len(batch)
        report.versions_created += len(written)
        report.chunks += sum(len(doc.chunks) for _, _, doc in written)
        edges = insert_versions(cur, collection_id, written)
        index_chunks(cur, [(doc_id, version, ordinal) for doc_id, version, doc in written
                            for ordinal in range(len(doc.chunks))], retired,
                     count_terms_bulk([text for _, _, doc in written for text in doc.index_texts()]))
        report.links_resolved += resolve_links(cur, collection_id, [doc.key for _, _, doc in written],
                                               [doc_id for doc_id, _, _ in written], row_filter,
                                               retry_dangling=retry_dangling, new_edges=edges)
        insert_columns(cur, "edges", edges)
