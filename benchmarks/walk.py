"""The warm ranked tree walk against a search of the same question, printed as JSON.

Issue 40: a warm ranked walk at a 2,000-token context budget within 10x a search. For each
shared dev set (``../shared/evals``; ingested once into ``--cache``) every question is asked
twice first (the process warm: caches filled, code paths loaded), then ``--rounds`` times
each way, alternating: ``clew.retrieve_sync`` with a ranked tree walk (the request defaults, as
``clew eval``'s ``tree-ranked``; the sync entry point, as ``clew ask`` and a script call it) and
``clew.corpus.search.api.search`` (BM25, the request defaults). Reported per set: median
milliseconds of each, wall and CPU (``time.process_time``: every thread of the process, steadier
than wall on a shared machine), the ratio of the medians (and the median of the per-question
ratios), the walk's steps, and steps per passage it took. Evidence recall is
``benchmarks/dev_recall.py``'s.

    python benchmarks/walk.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus

ROOT = Path(__file__).resolve().parents[1]
EVALS = ROOT.parent / "shared" / "evals"
GLOBS = {"sqlite-docs": "*.html", "npm-docs": "**/*.md"}
TARGET = 10.0


def corpus_file(name: str, cache: Path) -> Path:
    db = cache / f"walk-{name}.duckdb"
    if not db.exists():
        cache.mkdir(parents=True, exist_ok=True)
        with Corpus(db) as corpus:
            ingest_paths(corpus, [EVALS / name / "corpus"], collection="dev", glob=GLOBS[name])
    return db


def walk_request(question: str, budget: int) -> dict:
    return {"query": question, "queries": [{"collection": "dev"}], "context_budget_tokens": budget,
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked"}}}}


def measure(db: Path, questions: list[str], budget: int, rounds: int) -> dict:
    walls: dict[str, dict[str, list[float]]] = {w: {q: [] for q in questions} for w in ("walk", "search")}
    cpus: dict[str, dict[str, list[float]]] = {w: {q: [] for q in questions} for w in ("walk", "search")}
    steps, taken = [], []
    with Corpus(db, read_only=True) as corpus:
        for question in questions * 2:  # warm
            retrieve_sync(walk_request(question, budget), corpus=corpus)
            search(corpus, {"query": question, "collection": "dev"})
        for r in range(rounds):
            for question in questions:
                order = ("walk", "search") if r % 2 == 0 else ("search", "walk")
                for what in order:
                    started, cpu = time.perf_counter(), time.process_time()
                    if what == "walk":
                        result = retrieve_sync(walk_request(question, budget), corpus=corpus)
                        if r == 0:
                            steps.append(result.summary.steps)
                            taken.append(sum(1 for h in result.hits if h.fetched))
                    else:
                        search(corpus, {"query": question, "collection": "dev"})
                    walls[what][question].append(time.perf_counter() - started)
                    cpus[what][question].append(time.process_time() - cpu)

    def ms(samples: dict[str, list[float]]) -> float:
        return statistics.median(statistics.median(v) for v in samples.values()) * 1000

    walk_ms, search_ms = ms(walls["walk"]), ms(walls["search"])
    walk_cpu, search_cpu = ms(cpus["walk"]), ms(cpus["search"])
    ratios = [statistics.median(walls["walk"][q]) / statistics.median(walls["search"][q]) for q in questions]
    return {"questions": len(questions), "walk_ms_median": round(walk_ms, 2), "search_ms_median": round(search_ms, 2),
            "walk_over_search": round(walk_ms / search_ms, 1),
            "per_question_ratio_median": round(statistics.median(ratios), 1),
            "walk_cpu_ms_median": round(walk_cpu, 2), "search_cpu_ms_median": round(search_cpu, 2),
            "walk_over_search_cpu": round(walk_cpu / search_cpu, 1),
            "steps_median": statistics.median(steps), "taken_median": statistics.median(taken),
            "steps_per_taken": round(sum(steps) / max(1, sum(taken)), 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/clew-bench"))
    args = parser.parse_args()
    out: dict[str, object] = {"budget": args.budget, "rounds": args.rounds, "target_walk_over_search": TARGET}
    for name in args.sets.split(","):
        lines = (EVALS / name / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        questions = [json.loads(line)["question"] for line in lines if line.strip()]
        out[name] = measure(corpus_file(name, args.cache), questions, args.budget, args.rounds)
    out["load_average"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
