"""Agentic selection with a real small model against the ranked walk, on the shared dev sets. Prints JSON.

A model can only add: when its replies cannot be used the ranked choice takes over, so an
agentic walk should find at least what the ranked walk finds. Both walks keep room in their
context budget for the answer prompt (a walk with a model does): the ranked one runs with a
scripted generator, since its evidence does not depend on what the generator writes. This measures it with
SmolLM2-135M-Instruct served by llama.cpp on 127.0.0.1 (``benchmarks/llama_server.py``,
started here): for each dev set, the first ``--questions`` questions are walked ranked and
agentic at ``--budget`` tokens (the model also writes the answer; ``--answer-tokens`` bounds
it, ``--select-tokens`` a reply that offers tools), and the benchmark reports evidence recall of
both, and what the model did: its choices, the steps it chose before the ranking took over
and why it took over, and how many answers kept a citation (else the extract stood in).

    python benchmarks/agentic.py --sets sqlite-docs,npm-docs --questions 10 --budget 2000

``--api-base`` asks a server that already runs (the same model, e.g. the test suite's) instead
of starting one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from clew.agent.api import retrieve
from clew.agent.model import model_from_name
from clew.config.model_options import ModelOptions
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.evals.metrics import evidence_found
from clew.testing import FunctionModel, reply_text

ROOT = Path(__file__).resolve().parents[1]
EVALS = ROOT.parent / "shared" / "evals"
GLOBS = {"sqlite-docs": "*.html", "npm-docs": "**/*.md"}


def request(question: str, budget: int, selection: str) -> dict[str, Any]:
    return {"query": question, "context_budget_tokens": budget, "include_steps": True,
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": selection}}}}


def why(detail: str) -> str:
    """The hand-over's reason, without the quoted reply."""
    return detail.split(" (")[0].split(":")[0]


async def walk(corpus: Corpus, qs: list[dict[str, Any]], budget: int, model: Any) -> dict[str, Any]:
    found: dict[str, list[bool]] = {"ranked": [], "agentic": []}
    chosen, handed, reasons, cited, seconds = 0, 0, Counter(), 0, []
    # the ranked walk with a generator keeps the same room for the answer prompt as the agentic one;
    # its evidence does not depend on what the generator says, so a scripted one stands in for it
    writer = FunctionModel(lambda messages, tools: reply_text("No answer."))
    for q in qs:
        ranked = await retrieve(request(q["question"], budget, "ranked"), corpus=corpus, model=writer)
        found["ranked"] += evidence_found(q["evidence"], [h.text for h in ranked.hits])
        started = time.perf_counter()
        agentic = await retrieve(request(q["question"], budget, "agentic"), corpus=corpus, model=model)
        seconds.append(time.perf_counter() - started)
        found["agentic"] += evidence_found(q["evidence"], [h.text for h in agentic.hits])
        selects = [s for s in agentic.steps or [] if s.state == "select"]
        chosen += sum(s.chosen_by == "model" and s.next_state == "visit" for s in selects)
        over = next((s for s in selects if s.chosen_by == "ranked"), None)
        if over is not None:
            handed += 1
            reasons[why(over.detail or "")] += 1
        cited += agentic.generation is not None and agentic.generation.kind == "model"
    recall = {name: round(sum(f) / len(f), 3) for name, f in found.items()}
    return {"questions": len(qs), "evidence_recall": recall,
            "agentic_minus_ranked": round(recall["agentic"] - recall["ranked"], 3),
            "model_choices": chosen, "handed_over": handed, "hand_over_reasons": dict(reasons),
            "answers_with_a_citation": cited, "agentic_seconds_median": round(sorted(seconds)[len(seconds) // 2], 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--questions", type=int, default=10)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--answer-tokens", type=int, default=128)
    parser.add_argument("--select-tokens", type=int, default=128, help="bound on a reply that offers tools")
    parser.add_argument("--port", type=int, default=8095, help="the model server's port (0: a free one)")
    parser.add_argument("--batch-threads", default="2", help="the model server's prompt threads (llama_server.py)")
    parser.add_argument("--api-base", help="the OpenAI base URL (.../v1) of a running llama_server.py: none is started")
    parser.add_argument("--evals", type=Path, default=EVALS)
    args = parser.parse_args()
    server = None if args.api_base else subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "llama_server.py"), "--port", str(args.port),
         "--batch-threads", args.batch_threads], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        api_base = args.api_base or f"{json.loads(server.stdout.readline())['url']}/v1"  # type: ignore[union-attr]
        options = ModelOptions(api_base=api_base, tools_as_text=True, timeout_seconds=300, retries=1,
                               max_tokens=args.answer_tokens, select_max_tokens=args.select_tokens)
        model = model_from_name("openai/smollm2", options)
        report: dict[str, Any] = {"model": "SmolLM2-135M-Instruct (llama.cpp, 127.0.0.1)", "budget": args.budget,
                                  "sets": {}}
        with tempfile.TemporaryDirectory() as tmp:
            for name in args.sets.split(","):
                folder = args.evals / name
                qs = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines()
                      if line.strip()][:args.questions]
                with Corpus(Path(tmp) / f"{name}.duckdb") as corpus:
                    ingest_paths(corpus, [folder / "corpus"], collection="dev", glob=GLOBS.get(name, "**/*"))
                    report["sets"][name] = asyncio.run(walk(corpus, qs, args.budget, model))
                print(json.dumps({"set": name, **report["sets"][name]}), file=sys.stderr, flush=True)
    finally:
        if server is not None:
            server.stdin.close()  # type: ignore[union-attr]
            server.wait(30)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
