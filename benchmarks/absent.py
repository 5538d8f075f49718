"""Question words neither the evidence nor the corpus holds (``generation.absent_terms``), on real questions
and on negative controls. Prints JSON.

For each set in ``--sets`` (named as ``benchmarks/extract.py`` names them) the corpus is ingested and every
question is asked of it by the default ranked walk, no model, at ``--budget`` tokens (2,000): the share of
questions with any absent word is the false alarm rate (the corpus answers them), and each flagged question is
listed with its words (``null``: the run found no evidence and gave no answer; counted as flagged, and in
``no_answer``). Then each pair of ``--cross`` (``QUESTIONS:CORPUS``, set names; default: the sets
paired in order, each way: 1 with 2, 3 with 4, ...) asks one set's questions of another set's corpus: the
share flagged there is the rate at which the signal catches a question the corpus cannot answer.

    python benchmarks/absent.py --sets sqlite-docs,npm-docs --budget 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from clew.agent.api import retrieve
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from evalsets import EvalSet, resolve_all  # noqa: E402

DEFAULT_BUDGET = 2000


def ask(corpus: Corpus, qs: list[dict], budget: int) -> dict:
    """The absent words of each question asked of ``corpus``: the share flagged and the flagged ones."""
    flagged: list[dict] = []
    started, cpu = time.perf_counter(), time.process_time()
    for q in qs:
        request = {"query": q["question"], "queries": [{"collection": "dev"}], "context_budget_tokens": budget}
        result = asyncio.run(retrieve(request, corpus=corpus, offload=False))
        absent = result.generation.absent_terms if result.generation is not None else None
        if absent is None or absent:
            flagged.append({"id": q["id"], "absent": absent, "question": q["question"]})
    return {"questions": len(qs), "flagged": len(flagged), "share": round(len(flagged) / len(qs), 3) if qs else None,
            "no_answer": sum(q["absent"] is None for q in flagged),
            "seconds": round(time.perf_counter() - started, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
            "questions_flagged": flagged}


def pairs(names: list[str], cross: str | None) -> list[tuple[str, str]]:
    """(questions' set, corpus's set) for the negative controls."""
    if cross:
        return [(a.strip(), b.strip()) for a, b in (p.split(":") for p in cross.split(",") if p.strip())]
    out: list[tuple[str, str]] = []
    for a, b in zip(names[::2], names[1::2], strict=False):
        out += [(a, b), (b, a)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="context budget in tokens")
    parser.add_argument("--cross", help="QUESTIONS:CORPUS pairs of set names, comma-separated (default: the sets "
                                        "paired in order, each way)")
    parser.add_argument("--cache", type=Path, help="keep the ingested DuckDB files in this folder")
    args = parser.parse_args()
    sets: dict[str, EvalSet] = {s.name: s for s in resolve_all(args.sets)}
    report: dict = {"budget": args.budget, "own": {}, "cross": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.cache or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        corpora: dict[str, Path] = {}
        for name, evalset in sets.items():
            corpora[name] = folder / f"{name}.duckdb"
            with Corpus(corpora[name]) as corpus:
                ingest_paths(corpus, [evalset.corpus], collection="dev", glob=evalset.glob,
                             chunk_tokens=DEFAULT_CHUNK_TOKENS)
                report["own"][name] = ask(corpus, evalset.questions(), args.budget)
            print(json.dumps({"own": name, "share": report["own"][name]["share"]}), file=sys.stderr, flush=True)
        for questions, corpus_name in pairs(list(sets), args.cross):
            key = f"{questions} on {corpus_name}"
            with Corpus(corpora[corpus_name]) as corpus:
                report["cross"][key] = ask(corpus, sets[questions].questions(), args.budget)
            print(json.dumps({"cross": key, "share": report["cross"][key]["share"]}), file=sys.stderr, flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
