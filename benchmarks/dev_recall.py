"""Evidence recall on the shared dev sets, per system, budget and question kind. Prints JSON.

For each set in ``--sets`` (a bare name is ``../shared/evals/<name>``: ``sqlite-docs`` HTML, ``npm-docs``
Markdown; a path such as ``evals/<name>`` is that folder; the ingest glob follows what its corpus holds)
the corpus is ingested into a fresh DuckDB file (``--chunk-tokens``, default clew's own; ``--merge-sections`` as
``clew ingest --merge-sections``; the report gives its chunks and how many are under 25 tokens), and
every question is answered by each system under each context budget through
``clew.evals.systems.run_system``, the code path of ``clew eval``: flat ``bm25`` /
``vector`` / ``hybrid`` pack their top hits in rank order; ``tree-ranked`` and
``graph-ranked`` run the agent with the request defaults. A gold phrase counts as found when
it occurs in a returned passage (the dev sets' matching rule, ``clew.evals.matching``). Each
run also reports its mean and least context tokens and how the agent systems' runs ended
(``status/stop_reason``: whether a walk stopped at its context budget or with budget left).

The ``goal`` block reports, per set, tree-ranked (and tree-hybrid) minus bm25 at each budget
and the best system at 2,000 tokens. ``vector`` and ``hybrid`` need an embedder (``--embed minilm`` with
``clew[dense]``; ``hashing`` is lexical, not semantic, and only proves the path). ``--dump FILE`` writes one JSON
line per set (``<set>@<chunk tokens>`` when several are given), system, budget and question: which of its gold
phrases were found (in the set's order) and the evidence ids returned, for a per-phrase diff of two systems or
of two runs (issue 36: where a walk trails flat BM25).

    python benchmarks/dev_recall.py --sets sqlite-docs,npm-docs --systems bm25,hybrid,tree-ranked --embed minilm
    python benchmarks/dev_recall.py --sets sqlite-docs --systems bm25 --chunk-tokens 100,160,220,320
    python benchmarks/dev_recall.py --sets sqlite-docs,npm-docs --merge-sections
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus
from clew.evals.metrics import evidence_found
from clew.evals.systems import SYSTEMS, run_system

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from evalsets import resolve_all  # noqa: E402


def evaluate(corpus: Corpus, qs: list[dict], system: str, budget: int, dump: list[dict] | None = None,
             name: str = "") -> dict:
    found_all: list[bool] = []
    by_kind: dict[str, list[bool]] = {}
    tokens = []
    stops: Counter[str] = Counter()
    started = time.perf_counter()
    for q in qs:
        outcome = asyncio.run(run_system(SYSTEMS[system], corpus, q["question"], budget=budget, collection="dev"))
        found = evidence_found(q["evidence"], [p.text for p in outcome.passages])
        found_all += found
        if dump is not None:
            dump.append({"set": name, "system": system, "budget": budget, "id": q["id"], "found": found,
                         "evidence_ids": [p.evidence_id for p in outcome.passages]})
        by_kind.setdefault(q["kind"], []).extend(found)
        tokens.append(outcome.context_tokens)
        if outcome.stop_reason is not None:
            stops[f"{outcome.status}/{outcome.stop_reason}"] += 1
    return {
        "evidence_recall": round(sum(found_all) / len(found_all), 3),
        "by_kind": {k: round(sum(v) / len(v), 3) for k, v in sorted(by_kind.items())},
        "mean_context_tokens": round(sum(tokens) / len(tokens)),
        "min_context_tokens": min(tokens),
        "stops": dict(sorted(stops.items())),
        "seconds": round(time.perf_counter() - started, 1),
    }


def goal(runs: dict[str, dict[int, dict]], budgets: list[int]) -> dict:
    out: dict = {}
    for walk in ("tree-ranked", "tree-hybrid"):
        if "bm25" in runs and walk in runs:
            out[f"{walk.replace('-', '_')}_minus_bm25"] = {b: round(runs[walk][b]["evidence_recall"]
                                                                    - runs["bm25"][b]["evidence_recall"], 3)
                                                           for b in budgets}
    if 2000 in budgets:
        best = max(runs, key=lambda name: runs[name][2000]["evidence_recall"])
        out["best_at_2000"] = {"system": best, "evidence_recall": runs[best][2000]["evidence_recall"]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--systems", default="bm25,tree-ranked")
    parser.add_argument("--budgets", default="1000,2000,4000,8000")
    parser.add_argument("--chunk-tokens", default=str(DEFAULT_CHUNK_TOKENS))
    parser.add_argument("--embed", default=None, help="embedding model to fill before vector/hybrid runs")
    parser.add_argument("--merge-sections", action="store_true",
                        help="let small consecutive sections share a chunk (clew ingest --merge-sections)")
    parser.add_argument("--dump", type=Path, help="write each question's found phrases and evidence ids here "
                                                  "(JSON lines, one per set, system, budget and question)")
    args = parser.parse_args()
    dump: list[dict] | None = [] if args.dump else None
    systems = [s for s in args.systems.split(",") if s]
    unknown = [s for s in systems if s not in SYSTEMS or SYSTEMS[s].needs_model]
    if unknown:
        sys.exit(f"unknown or model-needing systems: {', '.join(unknown)}")
    if any(SYSTEMS[s].needs_vectors for s in systems) and not args.embed:
        sys.exit("vector, hybrid and tree-hybrid need --embed (minilm, hashing or a litellm embedding model)")
    budgets = [int(b) for b in args.budgets.split(",")]
    report: dict = {"budgets": budgets, "systems": systems, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for evalset in resolve_all(args.sets):
            name, qs = evalset.name, evalset.questions()
            for size in (int(s) for s in args.chunk_tokens.split(",")):
                started = time.perf_counter()
                with Corpus(Path(tmp) / f"{name}-{size}.duckdb") as corpus:
                    ingested = ingest_paths(corpus, [evalset.corpus], collection="dev", glob=evalset.glob,
                                            chunk_tokens=size, merge_sections=args.merge_sections)
                    ingest_seconds = time.perf_counter() - started
                    small = corpus.cursor().execute(
                        "SELECT count(*) FROM chunks WHERE token_count < 25").fetchall()[0][0]
                    embed_seconds: float | None = None
                    if args.embed:
                        from clew.corpus.embedders import embedder_from_name
                        from clew.corpus.search.embedding import embed_missing

                        embedding = time.perf_counter()
                        embed_missing(corpus, embedder_from_name(args.embed))
                        embed_seconds = time.perf_counter() - embedding
                    key = name if len(args.chunk_tokens.split(",")) == 1 else f"{name}@{size}"
                    runs: dict[str, dict[int, dict]] = {}
                    for system in systems:
                        runs[system] = {b: evaluate(corpus, qs, system, b, dump, key) for b in budgets}
                        print(json.dumps({"set": name, "chunk_tokens": size, "system": system,
                                          **{str(b): r["evidence_recall"] for b, r in runs[system].items()}}),
                              file=sys.stderr, flush=True)
                report["sets"][key] = {
                    "questions": len(qs), "chunks": ingested.chunks, "chunks_under_25_tokens": small,
                    "chunk_tokens": size, "merge_sections": args.merge_sections,
                    "ingest_seconds": round(ingest_seconds, 1),
                    "embed_seconds": None if embed_seconds is None else round(embed_seconds, 1),
                    "embedder": args.embed, "runs": runs, "goal": goal(runs, budgets),
                }
    if args.dump and dump is not None:
        args.dump.write_text("".join(json.dumps(row) + "\n" for row in dump))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
