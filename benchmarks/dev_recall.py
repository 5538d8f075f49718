"""Evidence recall of flat retrieval on the shared SQLite dev set, per chunk size and mode.

For each chunk size the corpus is ingested into a fresh DuckDB file; each question is
searched, hits are packed in rank order into a context budget (default 2,000 tokens,
tiktoken cl100k_base over the hit text), and a gold evidence phrase counts as found when it
occurs in a packed hit (the matching rule of the dev set's README). Also reports recall@10:
the share of phrases found in the top 10 hits regardless of budget. Prints JSON.

    python benchmarks/dev_recall.py --chunk-tokens 120,160,200,300,400 --modes bm25
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from clew.corpus.ingest import ingest_paths
from clew.corpus.store import Corpus
from clew.evals.metrics import evidence_found
from clew.evals.systems import flat_hits, pack

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "evals" / "sqlite-docs"


def evaluate(corpus: Corpus, questions: list[dict], mode: str, budget: int) -> dict:
    """Packing and matching are clew.evals' own (the ``bm25``/``vector``/``hybrid`` baselines of ``clew eval``)."""
    found_budget = found_top10 = total = 0
    by_kind: dict[str, list[int]] = {}
    tokens_used = []
    for q in questions:
        hits = flat_hits(corpus, q["question"], mode)
        packed, used = pack(hits, budget)
        tokens_used.append(used)
        in_budget = evidence_found(q["evidence"], [h.text for h in packed])
        in_top10 = evidence_found(q["evidence"], [h.text for h in hits[:10]])
        kind = by_kind.setdefault(q["kind"], [0, 0])
        total += len(in_budget)
        kind[1] += len(in_budget)
        found_budget += sum(in_budget)
        kind[0] += sum(in_budget)
        found_top10 += sum(in_top10)
    return {
        "evidence_recall": round(found_budget / total, 3),
        "recall_at_10": round(found_top10 / total, 3),
        "mean_context_tokens": round(sum(tokens_used) / len(tokens_used)),
        "by_kind": {k: round(v[0] / v[1], 3) for k, v in sorted(by_kind.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk-tokens", default="160")
    parser.add_argument("--modes", default="bm25")
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--merge-sections", action="store_true")
    parser.add_argument("--embed", default=None, help="embedding model to fill before vector/hybrid runs")
    args = parser.parse_args()
    if not DEV.is_dir():
        sys.exit(f"the dev set is not at {DEV}")
    questions = [json.loads(line) for line in (DEV / "questions.jsonl").read_text().splitlines() if line.strip()]
    results = {"budget_tokens": args.budget, "questions": len(questions), "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.chunk_tokens.split(",")):
            db = Path(tmp) / f"dev-{size}.duckdb"
            started = time.perf_counter()
            with Corpus(db) as corpus:
                report = ingest_paths(corpus, [DEV / "corpus"], glob="*.html", chunk_tokens=size,
                                      merge_sections=args.merge_sections)
                if args.embed:
                    from clew.corpus.embedders import embedder_from_name
                    from clew.corpus.search.vectors import embed_missing

                    embed_missing(corpus, embedder_from_name(args.embed))
                ingest_seconds = time.perf_counter() - started
                for mode in args.modes.split(","):
                    run = {"chunk_tokens": size, "mode": mode, "chunks": report.chunks,
                           "ingest_seconds": round(ingest_seconds, 1)}
                    run.update(evaluate(corpus, questions, mode, args.budget))
                    results["runs"].append(run)
                    print(json.dumps(run), file=sys.stderr)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
