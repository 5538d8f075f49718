"""Ingest over Ray Data beside the plain ingest, on a local Ray of ``--cpus`` CPUs, printed as JSON.

The same folder is ingested into fresh DuckDB files three ways:

- ``plain_workers_1`` and ``plain_workers_auto``: ``ingest_paths`` (``workers=1``: parse and chunk
  in this process; ``"auto"``: clew's process-pool policy);
- ``ray``: the files' sources (``iter_sources``, read here) go to ``ray.data.from_items``; a
  ``map_batches`` of Ray tasks (one CPU each) calls ``prepare_source`` on each; the prepared
  documents come back in source order (``preserve_order``) and stream into ``ingest_documents``,
  the one writer of the DuckDB file (DuckDB takes one writing process per file).

Each run reports wall seconds, CPU seconds of this (the driver) process, CPU seconds of the
processes below it (the plain pool's reaped workers; Ray's raylet and workers, read from
``/proc`` before Ray stops) and documents and chunks; ``ray_over_*`` are the Ray run's wall and
driver-CPU seconds over each plain run's. ``same_chunks`` checks that the Ray-built file holds
the same ordered chunk texts per document key as the plain one. ``prepare_then_write`` parses
and chunks every file first, then times ``ingest_documents`` alone: the writer's share, which
no spreading of the parsing takes away. Ray's start (``ray.init``) is
timed apart: a cluster is started once, not per ingest. ``--address`` connects to a Ray cluster
already running on this machine (its GCS address) instead of starting one: its tasks then run in
workers below that cluster's raylet, whose CPU counts as the Ray run's ``children_cpu_seconds``
(the test suite shares one local cluster this way).

Run from the checkout: ``python benchmarks/ray_ingest.py --chunks 10000 [--sqlite-docs]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import write_markdown_corpus  # noqa: E402

SOURCES_PER_TASK = 16
"""Sources handed to one Ray task (``map_batches`` batch size)."""


def tree_cpu_seconds(root: int) -> dict[tuple[int, int], float]:
    """User + system CPU seconds of each live process below ``root``, by (pid, start time): a pid the
    system gives again to a new process is another key (from /proc; Linux only)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    starts: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # the process ended while we looked
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / ticks
        starts[int(entry)] = int(fields[19])
    below: set[int] = set()
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in below]
        below.update(children)
        frontier.extend(children)
    return {(pid, starts[pid]): times[pid] for pid in below}


def cpu_spent(before: dict[tuple[int, int], float], after: dict[tuple[int, int], float]) -> float:
    """CPU seconds the processes of ``after`` spent since ``before`` (a process started since counts whole).
    Per process, so that one which ended in between (a worker of an earlier run on a shared cluster) takes
    its past CPU out of neither side: the sums' difference went negative when it did."""
    return sum(seconds - before.get(key, 0.0) for key, seconds in after.items())


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def stored_chunks(db: Path) -> dict[str, list[str]]:
    """Document key -> its current version's chunk texts in order."""
    from clew.corpus.store import Corpus

    with Corpus(db, read_only=True) as corpus:
        rows = corpus.cursor().execute(
            "SELECT d.key, list(c.body ORDER BY c.ordinal) FROM chunks c "
            "JOIN documents d ON d.id = c.document_id AND c.version = d.current_version GROUP BY d.key"
        ).fetchall()
    return {key: bodies for key, bodies in rows}


def plain(folder: Path, glob: str, db: Path, workers: str) -> dict[str, Any]:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    started, cpu, below = time.perf_counter(), time.process_time(), children_cpu_seconds()
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [folder], glob=glob, workers="auto" if workers == "auto" else int(workers))
    return {"seconds": round(time.perf_counter() - started, 2),
            "driver_cpu_seconds": round(time.process_time() - cpu, 2),
            "children_cpu_seconds": round(children_cpu_seconds() - below, 2),
            "documents": report.documents, "chunks": report.chunks, "skipped": report.skipped}


def split(folder: Path, glob: str, db: Path) -> dict[str, Any]:
    """Parse and chunk every file first (this process), then write them: the writer's own share."""
    from clew.corpus.ingest.api import ingest_documents, iter_sources, prepare_source
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.ingest.prepare import ChunkingConfig
    from clew.corpus.ingest.sources import Problem, find_files
    from clew.corpus.store import Corpus

    started, cpu = time.perf_counter(), time.process_time()
    problems: list[Problem] = []
    config = ChunkingConfig(DEFAULT_CHUNK_TOKENS, False)
    documents = [d for s in iter_sources(find_files([folder], glob, []).files, problems)
                 for d in prepare_source(s, config)[0]]
    prepare_seconds, prepare_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    with Corpus(db) as corpus:
        report = ingest_documents(corpus, documents, collection="default")
    return {"prepare_seconds": round(prepare_seconds, 2), "prepare_cpu_seconds": round(prepare_cpu, 2),
            "write_seconds": round(time.perf_counter() - started, 2),
            "write_cpu_seconds": round(time.process_time() - cpu, 2), "chunks": report.chunks}


def _prepare_batch(batch: dict[str, Any]) -> dict[str, Any]:
    """One Ray task: ``prepare_source`` on each source of the batch (prepared documents and problems)."""
    from clew.corpus.ingest.api import prepare_source
    from clew.corpus.ingest.prepare import ChunkingConfig

    out: dict[str, list[Any]] = {"documents": [], "problems": []}
    for source, config in zip(batch["source"], batch["config"], strict=True):
        documents, problems = prepare_source(source, ChunkingConfig(*config))
        out["documents"].append(documents)
        out["problems"].append(problems)
    return out


def _parent_pid() -> int:
    """One Ray task: the pid of the process its worker runs below (the cluster's raylet)."""
    return os.getppid()


def with_ray(folder: Path, glob: str, db: Path, cpus: int, ray_root: int) -> dict[str, Any]:
    """``ray_root``: the process Ray's raylet and workers run below (their CPU is ``children_cpu_seconds``)."""
    import ray

    from clew.corpus.ingest.api import ingest_documents, iter_sources
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.ingest.prepare import PreparedDocument
    from clew.corpus.ingest.sources import Problem, find_files
    from clew.corpus.store import Corpus

    started, cpu, below = time.perf_counter(), time.process_time(), tree_cpu_seconds(ray_root)
    problems: list[Problem] = []
    found = find_files([folder], glob, [])
    problems.extend(found.problems)
    config = (DEFAULT_CHUNK_TOKENS, False)  # ChunkingConfig's fields: plain values travel to the tasks
    items = [{"source": source, "config": config} for source in iter_sources(found.files, problems)]
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True  # the writer gets documents in source order
    context.enable_progress_bars = False
    dataset = ray.data.from_items(items).map_batches(_prepare_batch, batch_size=SOURCES_PER_TASK, num_cpus=1,
                                                     compute=ray.data.TaskPoolStrategy(size=cpus),
                                                     batch_format="numpy")

    def prepared() -> Iterator[PreparedDocument]:
        for row in dataset.iter_rows():
            problems.extend(row["problems"])
            yield from row["documents"]

    with Corpus(db) as corpus:
        report = ingest_documents(corpus, prepared(), collection="default")
    return {"seconds": round(time.perf_counter() - started, 2),
            "driver_cpu_seconds": round(time.process_time() - cpu, 2),
            "children_cpu_seconds": round(cpu_spent(below, tree_cpu_seconds(ray_root)), 2),
            "documents": report.documents, "chunks": report.chunks,
            "skipped": sum(p.skipped for p in problems) + report.skipped}


def compare(folder: Path, glob: str, work: Path, cpus: int, ray_root: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    dbs = {name: work / f"{folder.name}-{name}.duckdb" for name in ("plain_workers_1", "plain_workers_auto", "ray")}
    out["plain_workers_1"] = plain(folder, glob, dbs["plain_workers_1"], "1")
    out["plain_workers_auto"] = plain(folder, glob, dbs["plain_workers_auto"], "auto")
    out["ray"] = with_ray(folder, glob, dbs["ray"], cpus, ray_root)
    out["prepare_then_write"] = split(folder, glob, work / f"{folder.name}-split.duckdb")
    for name in ("plain_workers_1", "plain_workers_auto"):
        out[f"ray_over_{name}"] = {
            "seconds": round(out["ray"]["seconds"] / out[name]["seconds"], 2),
            "driver_cpu_seconds": round(out["ray"]["driver_cpu_seconds"]
                                        / max(out[name]["driver_cpu_seconds"], 0.01), 2),
        }
    reference = stored_chunks(dbs["plain_workers_1"])
    out["same_chunks"] = (stored_chunks(dbs["ray"]) == reference == stored_chunks(dbs["plain_workers_auto"]))
    out["stored_documents"] = len(reference)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=10_000, help="chunks of the generated Markdown corpus")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray (num_cpus) and tasks at once")
    parser.add_argument("--address", default=None,
                        help="a running Ray cluster's address (host:port of its GCS) to connect to, on this "
                             "machine, instead of starting a local Ray of --cpus")
    parser.add_argument("--sqlite-docs", action="store_true",
                        help="also the shared SQLite documentation (../shared/evals/sqlite-docs/corpus)")
    args = parser.parse_args()
    if args.chunks < 1:
        parser.error(f"--chunks must be at least 1, got {args.chunks}")
    if args.cpus < 1:
        parser.error(f"--cpus must be at least 1, got {args.cpus}")
    sqlite_docs = ROOT.parent / "shared" / "evals" / "sqlite-docs" / "corpus"
    if args.sqlite_docs and not sqlite_docs.is_dir():
        parser.error(f"--sqlite-docs: {sqlite_docs} is not a folder")
    import ray

    results: dict[str, Any] = {"cpus": args.cpus, "sources_per_task": SOURCES_PER_TASK}
    started = time.perf_counter()
    if args.address is None:
        # the settings of tests/evals/test_ray.py: a local Ray, no dashboard, workers' logs kept from the driver
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        results["ray_init_seconds"] = round(time.perf_counter() - started, 2)
        ray_root = os.getpid()  # the raylet and its workers are this process's children
    else:
        ray.init(address=args.address, log_to_driver=False, configure_logging=False)
        results["ray_init_seconds"] = round(time.perf_counter() - started, 2)
        results["address"] = args.address
        ray_root = ray.get(ray.remote(num_cpus=0)(_parent_pid).remote())  # the raylet the workers run below
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            generated = work / "generated"
            write_markdown_corpus(generated, args.chunks)
            results["generated_markdown"] = compare(generated, "*.md", work, args.cpus, ray_root)
            if args.sqlite_docs:
                results["sqlite_docs"] = compare(sqlite_docs, "*.html", work, args.cpus, ray_root)
    finally:
        ray.shutdown()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
