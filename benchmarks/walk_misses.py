"""Where a walk's missed evidence sits, phrase by phrase. Prints JSON.

For each evaluation set (a bare name means ``../shared/evals/<name>``; a path such as
``evals/postgresql-docs`` a folder of the repository, as in ``benchmarks/dev_recall.py``) the
corpus is ingested into a fresh DuckDB file, every question is answered by one agent system
(default ``tree-ranked``) under each context budget, and every gold phrase the returned passages
miss is reported with:

- ``at``: the passages that hold it (``key#ordinal``; the dev sets' matching rule);
- ``where``: ``neighbour`` (right before or after a passage the walk took), ``same_page`` (on a
  page it took from) or ``other_page``;
- ``offered``: whether the walk had it in hand (offered at a step: a seed hit, or one of the
  best candidates of a later step) and took something else;
- ``flat_rank``: its rank in flat BM25's top 100 for the question (None: not there);
- ``flat_found``: whether flat BM25's own pack at the same budget holds it (what the walk's seed
  search alone would have returned: a miss of the walk, not of the search).

``by_cause`` counts the misses by (where, offered, flat rank band: 1-10, 11-30, 31-100, none),
``flat_found`` how many of them flat BM25's pack holds;
``route_tokens`` is the share of the taken tokens by how each passage was reached (``via``: seed,
children, links, adjacent, continued) and ``route_gold`` how many taken passages held a gold phrase.

    python benchmarks/walk_misses.py --sets sqlite-docs,npm-docs,evals/postgresql-docs --budgets 1000,2000
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from clew.evals.matching import matches, normalize
from clew.evals.systems import SYSTEMS, agent_request, flat_hits, pack

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalsets import EvalSet, current_passages, resolve_all

COLLECTION = "dev"
Place = tuple[str, int]  # (document key, ordinal)


def band(rank: int | None) -> str:
    if rank is None:
        return "none"
    return "1-10" if rank <= 10 else "11-30" if rank <= 30 else "31-100"


def place(evidence_id: str, key: str) -> Place:
    return key, int(evidence_id.rsplit(":", 1)[1])


def corpus_texts(corpus: Corpus) -> dict[str, tuple[Place, str]]:
    """Every current passage of the collection, by evidence id: where it is, its normalised text."""
    return {passage.evidence_id: ((key, ordinal), normalize(passage.text))
            for key, ordinal, passage in current_passages(corpus, COLLECTION)}


def where(held: list[Place], taken: set[Place]) -> str:
    if any((key, ordinal + step) in taken for key, ordinal in held for step in (-1, 1)):
        return "neighbour"
    pages = {key for key, _ in taken}
    return "same_page" if any(key in pages for key, _ in held) else "other_page"


def diagnose(corpus: Corpus, texts: dict[str, tuple[Place, str]], questions: list[dict], system: str,
             budget: int) -> dict:
    misses: list[dict] = []
    causes: Counter[str] = Counter()
    route_tokens: Counter[str] = Counter()
    route_gold: Counter[str] = Counter()
    for q in questions:
        request = agent_request(SYSTEMS[system], q["question"], budget, COLLECTION)
        request["include_steps"] = True
        result = retrieve_sync(request, corpus=corpus)
        hits = [h for h in result.hits if h.fetched]
        taken = {place(h.evidence_id, h.document_key) for h in hits}
        normalized = [normalize(h.text) for h in hits]
        for hit, text in zip(hits, normalized, strict=True):
            route_tokens[hit.via or "?"] += hit.tokens or 0
            if any(matches(p, text) for p in q["evidence"]):
                route_gold[hit.via or "?"] += 1
        offered = {texts[i][0] for step in result.steps or [] for i in step.offered if i in texts}
        ranked = flat_hits(corpus, q["question"], "bm25", COLLECTION)
        flat = {place(h.evidence_id, h.document_key): rank for rank, h in enumerate(ranked, 1)}
        flat_pack = [normalize(h.text) for h in pack(ranked, budget)[0]]
        for phrase in q["evidence"]:
            if any(matches(phrase, text) for text in normalized):
                continue
            held = [at for at, text in texts.values() if matches(phrase, text)]
            ranks = [flat[at] for at in held if at in flat]
            rank = min(ranks) if ranks else None
            was_offered = any(at in offered for at in held)
            cause = where(held, taken)
            causes[f"{cause}/{'offered' if was_offered else 'not_offered'}/{band(rank)}"] += 1
            misses.append({"id": q["id"], "kind": q["kind"], "phrase": phrase[:80],
                           "at": [f"{k}#{o}" for k, o in held], "where": cause, "offered": was_offered,
                           "flat_rank": rank, "flat_found": any(matches(phrase, text) for text in flat_pack)})
    spent = sum(route_tokens.values()) or 1
    return {
        "missed": len(misses),
        "by_cause": dict(sorted(causes.items())),
        "flat_found": sum(miss["flat_found"] for miss in misses),
        "route_tokens": {via: round(n / spent, 3) for via, n in route_tokens.most_common()},
        "route_gold": dict(route_gold.most_common()),
        "misses": misses,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--system", default="tree-ranked")
    parser.add_argument("--budgets", default="1000,2000")
    args = parser.parse_args()
    system = SYSTEMS.get(args.system)
    if system is None or system.flat or system.needs_model or system.needs_vectors:
        sys.exit(f"--system must be a walk that needs no model or embeddings (tree-ranked, graph-ranked), "
                 f"not {args.system!r}")
    budgets = [int(b) for b in args.budgets.split(",")]
    report: dict = {"system": args.system, "budgets": budgets, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for evalset in resolve_all(args.sets):
            report["sets"][evalset.name] = run_set(evalset, Path(tmp), args.system, budgets)
    print(json.dumps(report, indent=2))


def run_set(evalset: EvalSet, tmp: Path, system: str, budgets: list[int]) -> dict:
    questions = evalset.questions()
    with Corpus(tmp / f"{evalset.name}.duckdb") as corpus:
        ingest_paths(corpus, [evalset.corpus], collection=COLLECTION, glob=evalset.glob)
        texts = corpus_texts(corpus)
        return {str(b): diagnose(corpus, texts, questions, system, b) for b in budgets}


if __name__ == "__main__":
    main()
