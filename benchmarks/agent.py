"""Controller overhead, printed as JSON.

On a generated corpus (default 100,000 chunks, cached under --cache): (1) ranked tree runs
end to end (seed search, expansions, extractive answer), p50/p95 over 30 questions; (2) an
agentic tree run with a zero-latency scripted model that always chooses the first offered
candidate: wall time per step minus the time spent inside the model (the fake's own token
counting), i.e. the controller's overhead plus the store reads it makes. Targets: <= 5 ms per step, ranked run p50 <=
150 ms.

With ``--model NAME`` (and ``--model-option KEY=VALUE``, as on the command line) it runs
against that real endpoint instead, on the demo runbooks: agentic tree, agentic graph, free
and ranked-with-generator runs over a few questions, reporting per system the statuses, model
calls, tokens, latency per step and per model call, and the share of model steps whose call
was parsed from text. ``--serve-smollm2`` starts SmolLM2-135M on llama.cpp's server first
(``benchmarks/llama_server.py``) and points the model at it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_gen import WORDS, write_markdown_corpus  # noqa: E402

from clew.agent.api import retrieve  # noqa: E402
from clew.agent.prompts import shown_ids  # noqa: E402
from clew.agent.run import Run  # noqa: E402
from clew.corpus.ingest.api import ingest_paths  # noqa: E402
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS  # noqa: E402
from clew.corpus.store import Corpus  # noqa: E402
from clew.testing import FunctionModel, reply_text, reply_tool_call  # noqa: E402


def build(db: Path, chunks: int, work: Path) -> None:
    if db.exists():
        return
    folder = work / f"agent-md-{chunks}"
    write_markdown_corpus(folder, chunks, sections_per_doc=20)
    with Corpus(db) as corpus:
        ingest_paths(corpus, [folder], collection="bench", glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)


class TimedModel:
    """Wraps a model and adds up the time spent inside it (excluded from controller overhead)."""

    def __init__(self, model: FunctionModel) -> None:
        self.model, self.name, self.ms = model, model.name, 0.0

    async def complete(self, messages: list[dict], tools: list[dict] | None = None, *, tool_choice: str | None = None):  # noqa: ANN201
        started = time.perf_counter()
        try:
            return await self.model.complete(messages, tools, tool_choice=tool_choice)
        finally:
            self.ms += (time.perf_counter() - started) * 1000


def first_offered(messages: list[dict], tools: list[dict] | None) -> dict:
    if tools is None:
        return reply_text("done")
    last = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    if "<<data " not in last:
        return reply_tool_call("finish", {})
    # the first offered candidate: a passage (taken) or a section (opened)
    return reply_tool_call("navigate", {"evidence_id": shown_ids(last)[0]})


class StoreClock:
    """Adds up time spent in the store reads the walk makes (``Run.store``: search, opening
    nodes, following links, neighbours), which is not the controller's own overhead."""

    def __init__(self) -> None:
        self.ms = 0.0
        original = Run.store

        async def timed(run, fn, *args):  # noqa: ANN001, ANN002, ANN202
            started = time.perf_counter()
            try:
                return await original(run, fn, *args)
            finally:
                self.ms += (time.perf_counter() - started) * 1000

        Run.store = timed


async def main_async(db: Path, questions: int) -> dict:
    rng = random.Random(5)
    texts = [" ".join(rng.sample(WORDS[100:3000], 4)) for _ in range(questions)]
    ranked_ms: list[float] = []
    per_step_ms: list[float] = []
    controller_ms: list[float] = []
    clock = StoreClock()
    with Corpus(db, read_only=True) as corpus:
        def request(text: str, selection: str) -> dict:
            return {"query": text, "queries": [{"collection": "bench", "limit": 10}], "context_budget_tokens": 4000,
                    "max_internal_iterations": 10, "steps": {"retrieval": {"navigation": {
                        "strategy": "tree", "selection": selection, "max_depth": 2, "beam_width": 3}}}}

        await retrieve(request(texts[0], "ranked"), corpus=corpus)  # warm
        for text in texts:
            started = time.perf_counter()
            await retrieve(request(text, "ranked"), corpus=corpus)
            ranked_ms.append((time.perf_counter() - started) * 1000)
        for text in texts[:10]:
            model = TimedModel(FunctionModel(first_offered))
            clock.ms = 0.0
            started = time.perf_counter()
            result = await retrieve(request(text, "agentic"), corpus=corpus, model=model)
            elapsed = (time.perf_counter() - started) * 1000 - model.ms
            per_step_ms.append(elapsed / max(1, result.summary.steps))
            controller_ms.append((elapsed - clock.ms) / max(1, result.summary.steps))
    ranked_ms.sort()
    return {
        "ranked_tree_run_ms": {"p50": round(statistics.median(ranked_ms), 1),
                               "p95": round(ranked_ms[int(0.95 * (len(ranked_ms) - 1))], 1)},
        "agentic_ms_per_step_zero_latency_model": {"mean": round(statistics.mean(per_step_ms), 2),
                                                   "max": round(max(per_step_ms), 2)},
        "controller_ms_per_step_excluding_model_and_store": {"mean": round(statistics.mean(controller_ms), 2),
                                                             "max": round(max(controller_ms), 2)},
        "targets": {"ms_per_step": 5, "ranked_run_p50_ms": 150},
    }


REAL_QUESTIONS = [
    "Who is paged when a SEV1 incident is declared?",
    "How do I promote a replica during a database failover?",
    "When should a deploy be rolled back?",
]
REAL_SYSTEMS = {
    "tree-agentic": {"strategy": "tree", "selection": "agentic", "beam_width": 2},
    "graph-agentic": {"strategy": "graph", "selection": "agentic", "index": "workflow", "max_steps": 2},
    "free": None,
    "tree-ranked+generator": {"strategy": "tree", "selection": "ranked"},
}


async def real_model_async(model: object, work: Path, questions: int, systems: list[str]) -> dict:
    from clew.corpus.ingest.edges import ingest_edges
    from clew.demo import DEMO_CORPUS, DEMO_EDGES

    db = work / "agent-real-demo.duckdb"
    if not db.exists():
        with Corpus(db) as corpus:
            ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks", chunk_tokens=DEFAULT_CHUNK_TOKENS)
            ingest_edges(corpus, DEMO_EDGES.read_text(), collection="runbooks")
    out: dict = {}
    with Corpus(db, read_only=True) as corpus:
        for system in systems:
            navigation = REAL_SYSTEMS[system]
            rows = []
            for text in REAL_QUESTIONS[:questions]:
                ranked = navigation is not None and navigation["selection"] == "ranked"
                request: dict = {"query": text, "queries": [{"collection": "runbooks"}], "timeout_seconds": 600,
                                 "include_steps": True,
                                 "context_budget_tokens": 1500 if ranked else 6000}
                if not ranked:  # a model turn each: keep the runs short
                    request.update(max_tool_calls=4, max_internal_iterations=3)
                if navigation is not None:
                    request["steps"] = {"retrieval": {"navigation": navigation}}
                timed = TimedModel(model)
                started = time.perf_counter()
                result = await retrieve(request, corpus=corpus, model=timed)
                seconds = time.perf_counter() - started
                chosen = [s for s in result.steps if s.chosen_by == "model"]
                rows.append({"status": f"{result.status} / {result.stop_reason}", "seconds": seconds,
                             "steps": len(result.steps), "model_calls": result.usage.model_calls,
                             "input_tokens": result.usage.model_input_tokens,
                             "output_tokens": result.usage.model_output_tokens, "model_ms": timed.ms,
                             "model_steps": len(chosen), "from_text": sum(s.parsed_from == "text" for s in chosen),
                             "valid_citations": len(result.generation.citations) if result.generation else 0})
            calls = sum(r["model_calls"] for r in rows)
            model_steps = sum(r["model_steps"] for r in rows)
            out[system] = {
                "statuses": dict(
                    sorted({r["status"]: sum(x["status"] == r["status"] for x in rows) for r in rows}.items())
                ),
                "seconds_per_question": round(statistics.median(r["seconds"] for r in rows), 1),
                "model_calls": calls,
                "model_input_tokens": sum(r["input_tokens"] for r in rows),
                "model_output_tokens": sum(r["output_tokens"] for r in rows),
                "seconds_per_step": round(sum(r["seconds"] for r in rows) / max(1, sum(r["steps"] for r in rows)), 2),
                "seconds_per_model_call": round(sum(r["model_ms"] for r in rows) / 1000 / max(1, calls), 2),
                "model_steps": model_steps,
                "share_parsed_from_text": round(sum(r["from_text"] for r in rows) / model_steps, 2)
                if model_steps
                else None,
                "valid_citations": sum(r["valid_citations"] for r in rows),
            }
    return out


def real_model(args: argparse.Namespace) -> dict:
    from clew.commands.models import configured_model

    server = None
    pairs = list(args.model_option or [])
    setup_s = None
    if args.serve_smollm2:
        import subprocess

        started = time.perf_counter()
        port = args.port
        server = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "llama_server.py"), "--port", str(port)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        info = json.loads(server.stdout.readline())  # type: ignore[union-attr]
        setup_s = round(time.perf_counter() - started, 1)
        pairs = [f"api_base={info['url']}/v1", "tools_as_text=true", *pairs]
    try:
        model, options = configured_model(args.model, pairs, None)
        if model is None:
            raise SystemExit("--model names no model")
        started = time.perf_counter()
        systems = args.systems.split(",") if args.systems else list(REAL_SYSTEMS)
        unknown = [s for s in systems if s not in REAL_SYSTEMS]
        if unknown:
            raise SystemExit(f"unknown --systems {unknown}; known: {', '.join(REAL_SYSTEMS)}")
        result = asyncio.run(real_model_async(model, args.cache, args.questions, systems))
        return {"model": model.name, "model_options": options.model_dump(exclude_defaults=True),
                "server_start_s": setup_s, "total_s": round(time.perf_counter() - started, 1), "systems": result}
    finally:
        if server is not None:
            server.stdin.close()  # type: ignore[union-attr]
            server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/clew-bench"))
    parser.add_argument("--model", help="a litellm model string: measure a real endpoint instead (see above)")
    parser.add_argument("--model-option", action="append", metavar="KEY=VALUE")
    parser.add_argument("--serve-smollm2", action="store_true", help="start SmolLM2-135M on llama.cpp's server first")
    parser.add_argument("--port", type=int, default=18480)
    parser.add_argument("--systems", help=f"with --model: some of {', '.join(REAL_SYSTEMS)} (default: all)")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.model is not None:
        print(json.dumps(real_model(args), indent=2))
        return
    db = args.cache / f"agent-{args.chunks}.duckdb"
    build(db, args.chunks, args.cache)
    result = asyncio.run(main_async(db, args.questions))
    result["chunks"] = args.chunks
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
