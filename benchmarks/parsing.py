"""Parsing and chunking time against input size, printed as JSON: it should grow linearly.

Each case is one generated document of ``n`` small units, prepared the way an ingest worker
prepares a file (``clew.corpus.ingest.api.prepare_source``: parse, chunk, count index terms; no
database): ``x\\n`` lines as one text paragraph and as Markdown (one paragraph of ``n`` lines),
``x\\n\\n`` as ``n`` text paragraphs, and HTML ``<div>`` nested ``n`` deep, with and without text
at every level (deeper than ``clew.corpus.ingest.formats.html_stack.MAX_DEPTH`` is flattened and reported).
For each size the report gives seconds (the median of ``--rounds`` rounds below 1M units, one
round above), microseconds per unit, and ``per_unit_ratio``: the time per unit at the largest
size over the time per unit at the smallest (1.0 is linear; quadratic work over 10k -> 1M
would read ~100). ``python benchmarks/parsing.py [--quick]`` took 2.6 minutes on a 2-core machine
at a load average of 9-10 (``--quick`` stops at 100k units).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clew.budgets.tokens import encoding  # noqa: E402
from clew.corpus.ingest.api import prepare_source  # noqa: E402
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS  # noqa: E402
from clew.corpus.ingest.prepare import ChunkingConfig  # noqa: E402
from clew.corpus.ingest.sources import Format, Source  # noqa: E402

LINES = [10_000, 100_000, 1_000_000]
NESTING = [1_000, 10_000, 100_000]


def nested(n: int) -> str:
    return "<div>" * n + "deep" + "</div>" * n


def nested_text(n: int) -> str:
    return "".join(f"<div>level {i} " for i in range(n)) + "</div>" * n


CASES: list[tuple[str, Format, Callable[[int], str], list[int]]] = [
    ("text: n lines 'x' (one paragraph)", "text", lambda n: "x\n" * n, LINES),
    ("text: n paragraphs 'x'", "text", lambda n: "x\n\n" * n, LINES),
    ("markdown: n lines 'x' (one paragraph)", "markdown", lambda n: "x\n" * n, LINES),
    ("html: n nested <div>", "html", nested, NESTING),
    ("html: n nested <div> with text at each level", "html", nested_text, NESTING),
]


def measure(fmt: Format, text: str, rounds: int) -> tuple[float, int, int]:
    """Median seconds of ``prepare_source``, with the chunks and the problems of the last round."""
    config = ChunkingConfig(DEFAULT_CHUNK_TOKENS, False)
    times, chunks, problems = [], 0, 0
    for _ in range(rounds):
        started = time.perf_counter()
        docs, found = prepare_source(Source("bench", "bench", fmt, text), config)
        times.append(time.perf_counter() - started)
        chunks, problems = sum(len(doc.chunks) for doc in docs), len(found)
    return statistics.median(times), chunks, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per size below 1M units (median)")
    parser.add_argument("--quick", action="store_true", help="stop at 100k units")
    args = parser.parse_args()
    encoding()  # load the tokenizer before the clock starts
    report: dict[str, object] = {"chunk_tokens": DEFAULT_CHUNK_TOKENS, "cases": []}
    started = time.perf_counter()
    for name, fmt, make, sizes in CASES:
        sizes = [n for n in sizes if not args.quick or n <= 100_000]
        rows = []
        for n in sizes:
            seconds, chunks, problems = measure(fmt, make(n), args.rounds if n < 1_000_000 else 1)
            rows.append({"n": n, "seconds": round(seconds, 4), "us_per_unit": round(seconds / n * 1e6, 2),
                         "chunks": chunks, "problems": problems})
            print(f"{name} n={n:,}: {seconds:.3f} s", file=sys.stderr, flush=True)
        per_unit = [row["us_per_unit"] for row in rows]
        report["cases"].append({  # type: ignore[union-attr]
            "case": name, "format": fmt, "sizes": rows,
            "per_unit_ratio": round(per_unit[-1] / per_unit[0], 2) if per_unit[0] else None,
            "per_unit_ratio_steps": [round(b / a, 2) if a else None for a, b in zip(per_unit, per_unit[1:])],
        })
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
