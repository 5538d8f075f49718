"""Batch question answering over a folder: ingest it, answer every question concurrently, print JSON lines.

    python examples/batch_qa.py                                   # the bundled runbooks, three questions
    python examples/batch_qa.py ~/notes questions.txt             # your folder, one question a line
    python examples/batch_qa.py ~/notes questions.txt --model openai/gpt-4o-mini   # a model writes the answers

Without --model the answer is sentences quoted from the evidence (no model, no key). Each line
carries the question, the answer, the evidence ids it cites (each with its pages), and why the
walk stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import clew
from clew.demo import DEMO_CORPUS

QUESTIONS = [
    "What error rate means a deploy should be rolled back?",
    "Who do I call about a security incident?",
    "How do I fail over the primary database?",
]


async def answer(corpus: clew.Corpus, question: str, model: str | None, limit: asyncio.Semaphore) -> dict[str, Any]:
    async with limit:
        result = await clew.retrieve({"query": question, "context_budget_tokens": 2000, "generator": model},
                                     corpus=corpus)
    generation = result.generation
    return {
        "question": question,
        "answer": generation.answer if generation is not None else None,
        "citations": [{"id": c.evidence_id, "pages": c.page_numbers} for c in generation.citations if c.valid]
        if generation is not None else [],
        "stop": result.stop_line(),
    }


async def main(folder: Path, questions: list[str], model: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp, clew.Corpus(Path(tmp) / "qa.duckdb") as corpus:
        report = await clew.aingest_paths(corpus, [folder], collection="docs")
        print(json.dumps({"documents": report.documents, "chunks": report.chunks, "skipped": report.skipped}))
        limit = asyncio.Semaphore(4)  # at most four walks (and model calls) at once
        for line in await asyncio.gather(*(answer(corpus, q, model, limit) for q in questions)):
            print(json.dumps(line))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEMO_CORPUS)
    parser.add_argument("questions", nargs="?", type=Path, help="a text file, one question a line")
    parser.add_argument("--model", help="a litellm model string (default: no model, quoted answers)")
    args = parser.parse_args()
    asked = [q.strip() for q in args.questions.read_text().splitlines() if q.strip()] if args.questions else QUESTIONS
    asyncio.run(main(args.folder, asked, args.model))
