"""The no-model answer (the extract) on the shared dev sets, against a baseline. Prints JSON.

For each set in ``--sets`` (a bare name is ``../shared/evals/<name>``: ``sqlite-docs`` HTML, ``npm-docs``
Markdown; a path such as ``evals/<name>`` is that folder; the ingest glob follows what its corpus holds) the
corpus is ingested into a DuckDB file, and every question is answered by the ranked tree walk at
the request's default context budget (8,192 tokens): the default ``clew ask`` path, no model.
The run's answer (``generation.kind == "extract"``, its citations taken out) is scored against the question's gold
``answers``, and so is a baseline measured on the same evidence in the same run: the first
sentence of the best passage (the fetched passage the walk priced highest).

- ``answer_found``: share of questions whose gold answer (any of them) occurs in the text as whole
  words, both normalised as SQuAD does but with identifiers kept whole and apart (``cmp_to_key`` is in
  ``functools.cmp_to_key(func)``; ``clew.evals.metrics.answer_found``);
- ``f1``: token F1 against the gold answers (best over them), mean over questions;
- ``words``: mean length of the text in words;
- ``retention``: share of the gold evidence phrases the fetched evidence holds that the extract holds;
- ``extract_tokens``: the extract's size as a caller gets it (citations included, as ``clew eval``
  counts it), median and p90; ``text_tokens``: the same without its citations;
- ``ceiling``: share of questions whose gold answer occurs anywhere in the fetched evidence.

``--cache DIR`` keeps the ingested DuckDB files between runs (ingest is a no-op on unchanged
files); ``--dump FILE`` writes each question's fetched evidence as JSON lines (its set's name, and each
passage's id, text, score, heading path and document title); ``--extract-tokens N`` sets the request's
``extract_tokens`` (default: the request's default).

    python benchmarks/extract.py --sets sqlite-docs,npm-docs --budget 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from clew.agent.api import retrieve
from clew.agent.generate import CITATION
from clew.agent.units import sentences
from clew.budgets.limits import DEFAULT_CONTEXT_TOKENS, DEFAULT_EXTRACT_TOKENS
from clew.budgets.tokens import count_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.store import Corpus
from clew.evals.metrics import answer_found, evidence_found, mean, token_f1

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from evalsets import resolve_all  # noqa: E402

DEFAULT_BUDGET = DEFAULT_CONTEXT_TOKENS


def baseline(fetched: list) -> str:
    """The first sentence of the fetched passage priced highest (ties: the one fetched first)."""
    if not fetched:
        return ""
    best = max(fetched, key=lambda h: h.score if h.score is not None else float("-inf"))
    units = sentences(best.text)
    return units[0] if units else ""


def score(texts: list[str], qs: list[dict]) -> dict:
    return {
        "answer_found": round(mean(answer_found(t, q["answers"]) for t, q in zip(texts, qs, strict=True)) or 0, 3),
        "f1": round(mean(token_f1(t, q["answers"]) for t, q in zip(texts, qs, strict=True)) or 0, 3),
        "words": round(mean(float(len(t.split())) for t in texts) or 0, 1),
    }


def retention(extract: str, evidence: list[str], phrases: list[str]) -> tuple[int, int]:
    """(evidence phrases the extract holds, evidence phrases the pack holds)."""
    held = [p for p, found in zip(phrases, evidence_found(phrases, evidence), strict=True) if found]
    return sum(evidence_found(held, [extract])), len(held)


def evaluate(corpus: Corpus, qs: list[dict], budget: int, dump: list[dict] | None,
             extract_tokens: int | None = None, name: str = "") -> dict:
    extracts, baselines, evidence = [], [], []
    kept, held, sizes, text_sizes = 0, 0, [], []
    by_kind: dict[str, list[int]] = {}
    kinds: list[str | None] = []
    started = time.perf_counter()
    for q in qs:
        request = {"query": q["question"], "queries": [{"collection": "dev"}], "context_budget_tokens": budget}
        if extract_tokens is not None:
            request["extract_tokens"] = extract_tokens
        result = asyncio.run(retrieve(request, corpus=corpus, offload=False))
        fetched = [h for h in result.hits if h.fetched]
        generation = result.generation
        kinds.append(generation.kind if generation is not None else None)
        extracts.append(CITATION.sub("", generation.answer) if generation is not None else "")
        baselines.append(baseline(fetched))
        evidence.append("\n\n".join(h.text for h in fetched))
        k, h = retention(extracts[-1], [x.text for x in fetched], q["evidence"])
        kept, held = kept + k, held + h
        counts = by_kind.setdefault(q["kind"], [0, 0, 0, 0])
        counts[0], counts[1] = counts[0] + k, counts[1] + h
        counts[2] += answer_found(extracts[-1], q["answers"]) or 0
        counts[3] += 1
        sizes.append(count_tokens(generation.answer) if generation is not None else 0)
        text_sizes.append(count_tokens(extracts[-1]))
        if dump is not None:
            dump.append({"set": name, "id": q["id"], "question": q["question"], "answers": q["answers"],
                         "evidence": [[h.evidence_id, h.text, h.score, h.heading_path, h.document_title]
                                      for h in fetched]})
    return {
        "questions": len(qs),
        "extract": score(extracts, qs),
        "retention": round(kept / held, 3) if held else None,
        "extract_tokens": {"median": statistics.median(sizes), "p90": sorted(sizes)[int(0.9 * (len(sizes) - 1))]},
        "text_tokens": {"median": statistics.median(text_sizes),
                        "p90": sorted(text_sizes)[int(0.9 * (len(text_sizes) - 1))]},
        "by_kind": {kind: {"retention": round(c[0] / c[1], 3) if c[1] else None, "answer_found": round(c[2] / c[3], 3)}
                    for kind, c in sorted(by_kind.items())},
        "baseline": score(baselines, qs),
        "ceiling": round(mean(answer_found(e, q["answers"]) for e, q in zip(evidence, qs, strict=True)) or 0, 3),
        "kinds": {k or "none": kinds.count(k) for k in dict.fromkeys(kinds)},
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="context budget in tokens")
    parser.add_argument("--cache", type=Path, help="keep the ingested DuckDB files in this folder")
    parser.add_argument("--dump", type=Path, help="write each question's fetched evidence here (JSON lines)")
    parser.add_argument("--extract-tokens", type=int, help="the request's extract_tokens (default: its default)")
    args = parser.parse_args()
    dump: list[dict] | None = [] if args.dump else None
    report: dict = {"budget": args.budget, "extract_tokens": args.extract_tokens or DEFAULT_EXTRACT_TOKENS,
                    "chunk_tokens": DEFAULT_CHUNK_TOKENS, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        folder_for_db = args.cache or Path(tmp)
        folder_for_db.mkdir(parents=True, exist_ok=True)
        for evalset in resolve_all(args.sets):
            name = evalset.name
            with Corpus(folder_for_db / f"{name}.duckdb") as corpus:
                ingest_paths(corpus, [evalset.corpus], collection="dev", glob=evalset.glob,
                             chunk_tokens=DEFAULT_CHUNK_TOKENS)
                report["sets"][name] = evaluate(corpus, evalset.questions(), args.budget, dump, args.extract_tokens,
                                               name)
            print(json.dumps({"set": name, **report["sets"][name]}), file=sys.stderr, flush=True)
    if args.dump and dump is not None:
        args.dump.write_text("".join(json.dumps(row) + "\n" for row in dump))
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
