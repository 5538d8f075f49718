"""Ingest throughput and peak memory, against the parser library's own time, printed as JSON.

Corpora: the shared SQLite documentation (HTML, if it is beside the checkout; ``--html DIR``
measures another HTML folder in its place) and a generated Markdown corpus (default 100,000 chunks).
Each is ingested into a fresh DuckDB file by a child process so that its peak RSS is its own (the
peak of its parsing worker processes is reported beside it), once per ``--workers`` setting (``1``
prepares in the ingesting process; ``auto`` is clew's default policy). The baseline, measured in the
same child right before, is the parser library alone over the same files (``PARSERS``: markdown-it's
``parse`` for Markdown, the standard library's ``HTMLParser.feed`` for HTML); ``parser_ratio`` is
ingest seconds over it (``cpu_parser_ratio``: the same in CPU seconds, every thread of the ingesting
process counted, steadier on a shared machine). Each measurement is the median of ``--rounds``
rounds, the settings interleaved.

A third corpus is PDF: the three real manuals of tests/fixtures/pdf (271 pages) copied
``--pdf-copies`` times, with pages per second; its baseline is PDFium's bare text extraction
of the same pages (pypdfium2). Target: >= 20 pages/s without OCR.

Targets on a 2-core machine: >= 6,000 chunks/s on the generated corpus and <= 5x the parser's
time there, the SQLite set <= 3x HTMLParser's time, peak memory <= 2 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import write_markdown_corpus  # noqa: E402


def _markdown_it() -> Callable[[str], object]:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")  # clew's configuration
    return parser.parse


def _html_parser() -> Callable[[str], object]:
    from html.parser import HTMLParser

    def feed(text: str) -> None:
        parser = HTMLParser(convert_charrefs=True)
        parser.feed(text)
        parser.close()

    return feed


def _pdfium_text() -> Callable[[bytes], object]:
    import pypdfium2 as pdfium

    def extract(data: bytes) -> None:
        pdf = pdfium.PdfDocument(data)
        for index in range(len(pdf)):
            pdf[index].get_textpage().get_text_range()
        pdf.close()

    return extract


PARSERS: dict[str, Callable[[], Callable[..., object]]] = {".md": _markdown_it, ".html": _html_parser,
                                                           ".pdf": _pdfium_text}
"""File suffix -> the parser library alone (a factory, imported in the child)."""


def parser_seconds(path: Path, glob: str) -> tuple[float, float] | None:
    """Wall and CPU seconds of the parser library alone over the files (None: no single parser)."""
    files = sorted(path.glob(glob))
    factories = {PARSERS[f.suffix] for f in files if f.suffix in PARSERS}
    if not files or len(factories) != 1:
        return None
    parse = factories.pop()()
    texts = [f.read_bytes() if f.suffix == ".pdf" else f.read_text(encoding="utf-8", errors="replace")
             for f in files]
    started, cpu = time.perf_counter(), time.process_time()
    for text in texts:
        parse(text)
    return time.perf_counter() - started, time.process_time() - cpu


def child(path: str, db: str, glob: str, workers: str) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.store import Corpus

    parsed = parser_seconds(Path(path), glob)
    parser, parser_cpu = (None, None) if parsed is None else parsed
    started, cpu = time.perf_counter(), time.process_time()
    with Corpus(db) as corpus:
        report = ingest_paths(corpus, [path], glob=glob, chunk_tokens=DEFAULT_CHUNK_TOKENS,
                              workers="auto" if workers == "auto" else int(workers))
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    with Corpus(db, read_only=True) as corpus:
        cur = corpus.cursor()
        pages = cur.execute("SELECT coalesce(sum(len(starts)), 0) FROM page_offsets").fetchone()[0]
        total_blocks, free_blocks = cur.execute("SELECT total_blocks, free_blocks FROM pragma_database_size() "
                                                "WHERE database_name = current_database()").fetchone()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers_used = resource.getrusage(resource.RUSAGE_CHILDREN)  # the ended worker processes (none before the ingest)
    worker_peak_mb = workers_used.ru_maxrss / 1024
    print(json.dumps({
        "documents": report.documents, "chunks": report.chunks, "skipped": report.skipped,
        "seconds": round(seconds, 2), "chunks_per_second": round(report.chunks / seconds, 1),
        "parser_seconds": None if parser is None else round(parser, 2),
        "parser_ratio": None if parser is None else round(seconds / parser, 1),
        # CPU seconds of every thread of this process (DuckDB's included; not the workers'): steadier
        # than wall time on a shared machine, where the load moves during a run
        "cpu_seconds": round(cpu_seconds, 2),
        "parser_cpu_seconds": None if parser_cpu is None else round(parser_cpu, 2),
        "cpu_parser_ratio": None if parser_cpu is None else round(cpu_seconds / parser_cpu, 1),
        # the worker processes' CPU seconds beside it (their whole lives: start-up and imports included)
        "worker_cpu_seconds": round(workers_used.ru_utime + workers_used.ru_stime, 2),
        "peak_memory_mb": round(peak_mb, 1), "worker_peak_memory_mb": round(worker_peak_mb, 1),
        "db_mb": round(Path(db).stat().st_size / 2**20, 1),
        # what the ingest left of the file unused (DuckDB reuses free blocks but never gives them back)
        "free_block_share": round(free_blocks / total_blocks, 3) if total_blocks else 0.0,
        "file_compacted": None if report.file_compacted is None else report.file_compacted.model_dump(),
        **({"pages": int(pages), "pages_per_second": round(pages / seconds, 1)} if pages else {}),
    }))


def write_pdf_corpus(folder: Path, copies: int) -> None:
    """The fixture manuals of tests/fixtures/pdf, ``copies`` times each under distinct names."""
    import gzip
    import shutil

    folder.mkdir(parents=True)
    for source in sorted((ROOT / "tests" / "fixtures" / "pdf").glob("*.pdf*")):
        for copy in range(copies):
            target = folder / f"{source.name.split('.')[0]}-{copy}.pdf"
            if source.name.endswith(".gz"):
                target.write_bytes(gzip.decompress(source.read_bytes()))
            else:
                shutil.copyfile(source, target)


def measure(path: Path, glob: str, workdir: Path, workers: str) -> dict:
    db = workdir / f"{path.name}-{workers}.duckdb"
    db.unlink(missing_ok=True)
    out = subprocess.run([sys.executable, __file__, "--child", str(path), str(db), glob, workers],
                         check=True, capture_output=True, text=True)
    db.unlink(missing_ok=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def median_runs(runs: list[dict]) -> dict:
    """The run of median seconds, with every run's seconds beside it."""
    ordered = sorted(runs, key=lambda r: r["seconds"])
    out = dict(ordered[len(ordered) // 2])
    out["seconds_per_round"] = [r["seconds"] for r in runs]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", default="1,auto", help="comma-separated: 1, 2, ..., auto")
    parser.add_argument("--pdf-copies", type=int, default=4, help="copies of the fixture manuals (0: no PDF corpus)")
    parser.add_argument("--html", type=Path, default=None,
                        help="an HTML folder measured in place of the shared SQLite documentation (reported as html)")
    parser.add_argument("--child", nargs=4)
    args = parser.parse_args()
    if args.html is not None and not args.html.is_dir():
        parser.error(f"--html: {args.html} is not a folder")
    if args.child:
        child(*args.child)
        return
    results: dict[str, object] = {"targets": {"chunks_per_second": 6000, "parser_ratio_markdown": 5,
                                              "parser_ratio_html": 3, "peak_memory_mb": 2048,
                                              "pdf_pages_per_second": 20}}
    corpora: list[tuple[str, Path, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sqlite_docs = ROOT.parent / "shared" / "evals" / "sqlite-docs" / "corpus"
        if args.html is not None:
            corpora.append(("html", args.html, "*.html"))
        elif sqlite_docs.is_dir():
            corpora.append(("sqlite_docs", sqlite_docs, "*.html"))
        generated = work / "generated"
        started = time.perf_counter()
        write_markdown_corpus(generated, args.chunks)
        results["generation_seconds"] = round(time.perf_counter() - started, 2)
        corpora.append(("generated_markdown", generated, "*.md"))
        if args.pdf_copies:
            write_pdf_corpus(work / "pdf", args.pdf_copies)
            corpora.append(("pdf_manuals", work / "pdf", "*.pdf"))
        settings = args.workers.split(",")
        for name, path, glob in corpora:
            runs: dict[str, list[dict]] = {w: [] for w in settings}
            for r in range(args.rounds):
                for w in settings[r % len(settings):] + settings[: r % len(settings)]:
                    runs[w].append(measure(path, glob, work, w))
            results[name] = {f"workers_{w}": median_runs(runs[w]) for w in settings}
            if "1" in runs and len(settings) > 1:
                one = statistics.median(r["seconds"] for r in runs["1"])
                results[name]["speedup_over_one_process"] = {
                    w: round(one / statistics.median(r["seconds"] for r in runs[w]), 2) for w in settings if w != "1"}
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
