"""What a caller receives from the default run, on the shared dev sets. Prints JSON.

For each dev set (``../shared/evals/<name>``) and each context budget, every question is asked
as a query-only request (``{"query": ..., "context_budget_tokens": N}``: the default walk over
the corpus's only collection) through a real MCP client session (in memory) against
``clew mcp``'s server, and the benchmark counts:

- each ``(status, stop_reason)`` pair the runs ended with;
- the evidence's tokens (the text of the passages returned), and the tokens of the MCP
  result's text block and of its structured content (JSON), with their ratio to the evidence;
  the target is each at most 1.5x the evidence + 300 tokens (``*_within_target`` count the
  questions that meet it);
- the lines ``clew ask`` prints at 80 columns for the same result.

    python benchmarks/caller.py --sets sqlite-docs,npm-docs --budgets 2000,8192
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console

from clew.agent.result import RetrievalResult
from clew.budgets.tokens import count_tokens
from clew.commands.render import print_result
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus

ROOT = Path(__file__).resolve().parents[1]
EVALS = ROOT.parent / "shared" / "evals"
GLOBS = {"sqlite-docs": "*.html", "npm-docs": "**/*.md"}


def questions(folder: Path, limit: int | None) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def printed_lines(result: RetrievalResult, width: int = 80) -> int:
    """Lines ``clew ask`` prints for ``result`` in a terminal ``width`` columns wide."""
    buffer = io.StringIO()
    print_result(Console(file=buffer, width=width, soft_wrap=True, emoji=False, color_system=None), result)
    return sum(max(1, -(-len(line) // width)) for line in buffer.getvalue().splitlines())


async def ask_all(corpus: Corpus, qs: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    from mcp.client.client import Client

    from clew.server.mcp import build_server

    out = []
    async with Client(build_server(corpus)) as client:
        for q in qs:
            called = await client.call_tool("retrieve", {"query": q["question"], "context_budget_tokens": budget})
            if called.is_error:
                raise SystemExit(f"{q['id']}: {called.content[0].text}")
            result = RetrievalResult.model_validate(called.structured_content)
            evidence = sum(count_tokens(h.text) for h in result.hits)
            text = count_tokens(called.content[0].text)
            structured = count_tokens(json.dumps(called.structured_content, separators=(",", ":"), ensure_ascii=False))
            out.append({"pair": f"{result.status}/{result.stop_reason}", "evidence": evidence, "text": text,
                        "structured": structured, "lines": printed_lines(result),
                        "text_within": text <= 1.5 * evidence + 300,
                        "structured_within": structured <= 1.5 * evidence + 300})
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    evidence = sum(r["evidence"] for r in rows)
    return {
        "questions": len(rows),
        "pairs": dict(Counter(r["pair"] for r in rows).most_common()),
        "mean_evidence_tokens": round(evidence / len(rows)),
        "text_per_evidence": round(sum(r["text"] for r in rows) / evidence, 2),
        "structured_per_evidence": round(sum(r["structured"] for r in rows) / evidence, 2),
        "max_text_over_target": max(r["text"] - (1.5 * r["evidence"] + 300) for r in rows),
        "max_structured_over_target": max(r["structured"] - (1.5 * r["evidence"] + 300) for r in rows),
        "text_within_target": sum(r["text_within"] for r in rows),
        "structured_within_target": sum(r["structured_within"] for r in rows),
        "ask_lines_median": statistics.median(r["lines"] for r in rows),
        "ask_lines_max": max(r["lines"] for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budgets", default="2000,8192")
    parser.add_argument("--questions", type=int, default=None, help="only the first N questions of each set")
    parser.add_argument("--evals", type=Path, default=EVALS)
    args = parser.parse_args()
    report: dict[str, Any] = {"budgets": args.budgets, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            folder = args.evals / name
            if not folder.is_dir():
                sys.exit(f"the dev set is not at {folder}")
            qs = questions(folder, args.questions)
            with Corpus(Path(tmp) / f"{name}.duckdb") as corpus:
                ingest_paths(corpus, [folder / "corpus"], collection="dev", glob=GLOBS.get(name, "**/*"),
                             chunk_tokens=DEFAULT_CHUNK_TOKENS)
                report["sets"][name] = {b: summary(asyncio.run(ask_all(corpus, qs, int(b))))
                                        for b in args.budgets.split(",")}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
