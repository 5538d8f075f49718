"""What parsing PDF and DOCX files in a killable worker costs (``clew.corpus.ingest.parse_process``). JSON.

- ``worker_start_s``: starting one worker and warming it (imports, the tokenizer), each of
  ``--starts`` times: what a process per file would cost every file;
- per file (a one-line PDF, the PDF and DOCX fixtures): the median of ``--rounds`` runs of
  ``prepare_source`` in this process and through a warm worker, and their difference;
- ``hostile``: a 37 KB page whose forms draw 2,500,000 text objects (``nested_forms_pdf``), one
  ``ingest_paths`` under a ``--bound``-second bound: how long until it is skipped, from a cold
  start (no kept worker) and from a warm one; between them, an ingest of a one-line PDF that
  starts the worker the warm run finds.

Usage::

    python benchmarks/parse_process.py --rounds 20 --starts 3

``--files`` names the fixtures to time (default: every PDF and DOCX in tests/fixtures); the
one-line PDF is always timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clew.corpus.ingest import parse_process  # noqa: E402
from clew.corpus.ingest.api import ingest_paths, prepare_source  # noqa: E402
from clew.corpus.ingest.parse_process import BinaryParsers, Worker  # noqa: E402
from clew.corpus.ingest.parsed import ParseBounds  # noqa: E402
from clew.corpus.ingest.prepare import ChunkingConfig  # noqa: E402
from clew.corpus.ingest.sources import FileLimits, Source  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402
from tests.corpus.ingest.formats.test_parse_bounds import nested_forms_pdf, pdf_with, text_page  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"


def per_file(name: str, fmt: str, data: bytes, rounds: int, config: ChunkingConfig) -> dict[str, float | int]:
    source = Source(name, name, fmt, data)  # type: ignore[arg-type]
    prepare_source(source, config)
    here = []
    for _ in range(rounds):
        started = time.perf_counter()
        prepare_source(source, config)
        here.append(time.perf_counter() - started)
    with BinaryParsers(prepare_source, config) as parsers:
        parsers.submit(source).result()
        there = []
        for _ in range(rounds):
            started = time.perf_counter()
            parsers.submit(source).result()
            there.append(time.perf_counter() - started)
    in_process, worker = statistics.median(here) * 1000, statistics.median(there) * 1000
    return {"bytes": len(data), "in_process_ms": round(in_process, 2), "worker_ms": round(worker, 2),
            "added_ms": round(worker - in_process, 2)}


def hostile(bound: float) -> dict[str, float]:
    """Seconds of one ingest of the hostile file alone: with no kept worker (one starts), and with
    a warm one kept; and of an ingest of a one-line PDF (the ingest's own cost beside the parse)."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder, small = Path(tmp) / "docs", Path(tmp) / "small"
        folder.mkdir()
        small.mkdir()
        (folder / "hostile.pdf").write_bytes(nested_forms_pdf())
        (small / "one-line.pdf").write_bytes(pdf_with([text_page(["The", "kiwi", "manual."])]))
        for run, path in (("cold_s", folder), ("one_line_pdf_cold_s", small), ("warm_s", folder)):
            if run == "cold_s":
                parse_process.end_kept()
            with Corpus(Path(tmp) / f"{run}.duckdb") as corpus:
                started = time.perf_counter()
                report = ingest_paths(corpus, [path], limits=FileLimits(parse=ParseBounds(bound)))
                out[run] = round(time.perf_counter() - started, 3)
            wanted = [parse_process.timed_out(bound)] if path == folder else []
            if [problem.message for problem in report.problems] != wanted:
                raise SystemExit(f"{run}: expected the problems {wanted}, got {report.problems}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--bound", type=float, default=0.5)
    parser.add_argument("--files", default="", help="comma-separated fixture names to time (default: all)")
    args = parser.parse_args()
    fixtures = sorted((FIXTURES / "pdf").glob("*.pdf")) + sorted((FIXTURES / "docx").glob("*.docx"))
    names = [name for name in args.files.split(",") if name]
    unknown = sorted(set(names) - {path.name for path in fixtures})
    if unknown:
        parser.error(f"--files: no fixture named {', '.join(unknown)} in tests/fixtures/pdf or docx")
    config = ChunkingConfig(220, False)
    starts = []
    for _ in range(args.starts):
        started = time.perf_counter()
        Worker(prepare_source).end()
        starts.append(round(time.perf_counter() - started, 3))
    files = {"one-line.pdf": ("pdf", pdf_with([text_page(["The", "kiwi", "manual", "says", "hello."])]))}
    for path in fixtures:
        if names and path.name not in names:
            continue
        files[path.name] = (path.suffix[1:], path.read_bytes())
    print(json.dumps({
        "worker_start_s": starts,
        "per_file": {name: per_file(name, fmt, data, args.rounds, config) for name, (fmt, data) in files.items()},
        "hostile": {"bound_s": args.bound, **hostile(args.bound)},
    }, indent=2))


if __name__ == "__main__":
    main()
