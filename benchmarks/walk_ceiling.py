"""How far a pack of whole passages can go, and how the walk packs its budget. Prints JSON.

For each evaluation set (as in ``benchmarks/dev_recall.py``: a bare name is ``../shared/evals/<name>``,
a path such as ``evals/postgresql-docs`` a folder) the corpus is ingested into a fresh DuckDB file and:

- ``oracle``: per question, the fewest tokens of whole passages (chunks as stored, each at its stored
  token count) that hold a given subset of its gold phrases, found exactly (a cover over the subsets of
  its phrases, one passage at a time: a question has a handful of phrases, and only passages holding one
  count). ``recall`` is the share of phrases the best pack of each budget can hold (the ceiling of any
  retrieval that returns whole passages), overall and by question kind; ``all_within`` the share of
  questions whose every phrase fits the budget; ``all_tokens`` the median and the most tokens a
  question's every phrase takes (None: one is unheld); ``unheld`` the phrases no single passage holds (cut
  across two: no pack of whole passages finds them by the matching rule).
- ``walk`` (unless ``--no-walk``): ``--system`` (default ``tree-ranked``) under each budget: its
  recall, the tokens it used over the budget (mean, least), the tokens left at the end (mean), and
  ``left_fits``: the runs that ended with a passage of flat BM25's top 100 untaken that would still have
  fit the tokens left (``left_fits_gold``: one holding a gold phrase the walk missed).

    python benchmarks/walk_ceiling.py --sets sqlite-docs,npm-docs --budgets 1000,2000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.budgets.tokens import count_tokens, passage_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.evals.matching import matches, normalize
from clew.evals.systems import SYSTEMS, agent_request, flat_hits

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalsets import EvalSet, current_passages, resolve_all

COLLECTION = "dev"
Held = tuple[str, int]  # (normalised text, tokens) of one passage


def corpus_passages(corpus: Corpus) -> dict[str, Held]:
    """Every current passage of the collection, by evidence id: its normalised text and its tokens."""
    return {passage.evidence_id: (normalize(passage.text), passage_tokens(passage))
            for _, _, passage in current_passages(corpus, COLLECTION)}


def cover_costs(phrases: list[str], passages: dict[str, Held]) -> list[float]:
    """The fewest tokens of whole passages holding each subset of ``phrases`` (bit i: phrase i), exactly:
    every passage that holds a phrase is tried once against every subset reached so far."""
    full = 1 << len(phrases)
    cost = [float("inf")] * full
    cost[0] = 0.0
    for text, tokens in passages.values():
        mask = sum(1 << i for i, phrase in enumerate(phrases) if matches(phrase, text))
        if not mask:
            continue
        for have in range(full - 1, -1, -1):  # downwards: each passage joins a pack at most once
            if cost[have] + tokens < cost[have | mask]:
                cost[have | mask] = cost[have] + tokens
    return cost


def best_within(cost: list[float], budget: int) -> int:
    """The most phrases a pack of at most ``budget`` tokens holds."""
    return max(bin(mask).count("1") for mask, tokens in enumerate(cost) if tokens <= budget)


def oracle(questions: list[dict], passages: dict[str, Held], budgets: list[int]) -> dict:
    costs = {q["id"]: cover_costs(q["evidence"], passages) for q in questions}
    phrases = sum(len(q["evidence"]) for q in questions)
    unheld = sum(not any(matches(p, text) for text, _ in passages.values()) for q in questions for p in q["evidence"])
    every = sorted(cost[-1] for cost in costs.values())
    median, most = (None if tokens == float("inf") else int(tokens) for tokens in (every[len(every) // 2], every[-1]))
    out: dict = {"phrases": phrases, "unheld": unheld, "all_tokens": {"median": median, "max": most}, "budgets": {}}
    for budget in budgets:
        held = {q["id"]: best_within(costs[q["id"]], budget) for q in questions}
        by_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for q in questions:
            by_kind[q["kind"]][0] += held[q["id"]]
            by_kind[q["kind"]][1] += len(q["evidence"])
        out["budgets"][str(budget)] = {
            "recall": round(sum(held.values()) / phrases, 3),
            "by_kind": {kind: round(n / total, 3) for kind, (n, total) in sorted(by_kind.items())},
            "all_within": round(sum(held[q["id"]] == len(q["evidence"]) for q in questions) / len(questions), 3),
        }
    return out


def walk(corpus: Corpus, questions: list[dict], system: str, budget: int) -> dict:
    found = total = left_fits = left_fits_gold = 0
    used: list[int] = []
    for q in questions:
        result = retrieve_sync(agent_request(SYSTEMS[system], q["question"], budget, COLLECTION), corpus=corpus)
        taken = [h for h in result.hits if h.fetched]
        texts = [normalize(h.text) for h in taken]
        missed = [p for p in q["evidence"] if not any(matches(p, text) for text in texts)]
        found += len(q["evidence"]) - len(missed)
        total += len(q["evidence"])
        spent = result.usage.context_tokens
        used.append(spent)
        ids = {h.evidence_id for h in taken}
        fits = [normalize(h.text) for h in flat_hits(corpus, q["question"], "bm25", COLLECTION)
                if h.evidence_id not in ids and count_tokens(h.text) <= budget - spent]
        left_fits += bool(fits)
        left_fits_gold += any(matches(p, text) for p in missed for text in fits)
    return {
        "recall": round(found / total, 3),
        "used_share": round(sum(used) / len(used) / budget, 3),
        "least_used_share": round(min(used) / budget, 3),
        "mean_left": round(budget - sum(used) / len(used), 1),
        "left_fits": left_fits,
        "left_fits_gold": left_fits_gold,
        "runs": len(questions),
    }


def run_set(evalset: EvalSet, tmp: Path, budgets: list[int], system: str | None) -> dict:
    questions = evalset.questions()
    with Corpus(tmp / f"{evalset.name}.duckdb") as corpus:
        ingest_paths(corpus, [evalset.corpus], collection=COLLECTION, glob=evalset.glob)
        out = {"oracle": oracle(questions, corpus_passages(corpus), budgets)}
        if system is not None:
            out["walk"] = {str(b): walk(corpus, questions, system, b) for b in budgets}
        return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budgets", default="1000,2000")
    parser.add_argument("--system", default="tree-ranked")
    parser.add_argument("--no-walk", action="store_true", help="the oracle only")
    args = parser.parse_args()
    system = None if args.no_walk else args.system
    if system is not None and (system not in SYSTEMS or SYSTEMS[system].flat or SYSTEMS[system].needs_model
                               or SYSTEMS[system].needs_vectors):
        sys.exit(f"--system must be a walk that needs no model or embeddings (tree-ranked, graph-ranked), "
                 f"not {system!r}")
    budgets = [int(b) for b in args.budgets.split(",")]
    report: dict = {"budgets": budgets, "system": system, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for evalset in resolve_all(args.sets):
            report["sets"][evalset.name] = run_set(evalset, Path(tmp), budgets, system)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
