"""Would a floor of flat BM25's own pack help the walk? Phrase by phrase, after the fact. Prints JSON.

Issue 36 asks that a walk never return less than its own seed search returns flat. This measures the
floor rule the issue suggests without changing the walk: for each set in ``--sets`` (as in
``benchmarks/dev_recall.py``) the corpus is ingested once, each question is walked (``tree-ranked``)
under each budget, and then, for each rule in ``--rules``, the walk's pack is compared with flat BM25's
pack of the same budget: the flat pack's top hits the walk lacks, best first, displace the walk's
lowest-worth takes when they are worth more on one scale (the walk's own worth: BM25 plus half the
section's, ``clew.agent.scoring``; a flat hit priced as the walk would price it) and fit the room
freed. A rule is ``top=...,margin=...,routes=...,drop=...``:

- ``top``: how many of the flat pack's hits may come in: ``all``, or budget / ``top`` (200: 5 at
  1,000 tokens, 40 at 8,000);
- ``margin``: a take is displaced only when the flat hit is worth more than ``margin`` times it;
- ``routes``: which takes may go: ``all``, ``nonseed`` (not the walk's own seed hits), ``links``
  (link targets only), ``nonadj`` (neither seed hits nor a seed hit's neighbours);
- ``drop``: how many takes one flat hit may displace;
- ``least``: a flat hit comes in only when worth at least ``least`` times the best seed hit (the
  walk's ``Scorer.top``: the best worth among the search's first budget / 80 hits, at least 10).

Per set and budget: phrases found by flat ``bm25``, by the ``walk`` and by each rule, and each
question a rule changes (``id: [walk, rule]``). Measured 2026-12-06 (task W2,
docs/measurements/walk-2026-12-05.md); ``top=200,margin=1.1,routes=nonseed,drop=2,least=0.4`` is in the
walk since task W3 (``clew.agent.floor``), so the ``walk`` measured here already holds its swaps (its
hits ``via: floor``) and a rule is measured on top of it.

    python benchmarks/walk_floor.py --sets sqlite-docs,npm-docs --budgets 1000,2000,4000,8000
    python benchmarks/walk_floor.py --rules "top=200,margin=1.1,routes=nonseed,drop=2"
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from clew.agent.api import retrieve_sync
from clew.agent.scoring import Scorer
from clew.budgets.tokens import count_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope, passage_of
from clew.corpus.store import Corpus
from clew.evals.matching import matches, normalize
from clew.evals.systems import SYSTEMS, agent_request, flat_hits, pack

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalsets import EvalSet, resolve_all

COLLECTION = "dev"
ROUTES: dict[str, Callable[[str | None], bool]] = {
    "all": lambda via: True,
    "nonseed": lambda via: via != "seed",
    "links": lambda via: via == "links",
    "nonadj": lambda via: via not in ("seed", "adjacent"),
}
"""Which of the walk's takes a flat hit may displace, by how the walk reached them (``via``)."""
DEFAULT_RULES = ("top=all,margin=1,routes=nonseed,drop=99;top=200,margin=1.1,routes=nonseed,drop=2;"
                 "top=200,margin=1.1,routes=nonseed,drop=2,least=0.3;top=200,margin=1.1,routes=nonseed,drop=2,least=0.35;"
                 "top=200,margin=1.1,routes=nonseed,drop=2,least=0.4;top=200,margin=1.1,routes=nonseed,drop=2,least=0.45;"
                 "top=200,margin=1.2,routes=all,drop=2,least=0.4;top=all,margin=1.1,routes=links,drop=99")


@dataclass(frozen=True, slots=True)
class Take:
    id: str
    text: str  # normalised: what makes two passages duplicates, and what a gold phrase is matched in
    tokens: int
    worth: float
    via: str | None


@dataclass(frozen=True, slots=True)
class Rule:
    top: int | None  # None: the whole flat pack; else budget // top of its hits
    margin: float
    routes: str
    drop: int
    least: float

    @classmethod
    def parse(cls, spec: str) -> Rule:
        fields = dict(part.split("=", 1) for part in spec.split(",") if part.strip())
        unknown = set(fields) - {"top", "margin", "routes", "drop", "least"}
        routes = fields.get("routes", "nonseed")
        if unknown or routes not in ROUTES:
            raise SystemExit(f"bad rule {spec!r}: give top=all|N, margin=X, routes={'|'.join(ROUTES)}, drop=N, "
                             "least=X")
        top = fields.get("top", "all")
        return cls(None if top == "all" else int(top), float(fields.get("margin", 1)), routes,
                   int(fields.get("drop", 99)), float(fields.get("least", 0)))

    def movable(self, take: Take) -> bool:
        return ROUTES[self.routes](take.via)


def floored(walk: Sequence[Take], flat: Sequence[Take], budget: int, rule: Rule, best: float = 0.0) -> list[Take]:
    """The walk's pack after the flat pack's best hits it lacks displaced its lowest-worth takes (see the module);
    ``best``: the best seed hit's worth."""
    out = list(walk)
    used = sum(t.tokens for t in out)
    coming = [t for t in (flat if rule.top is None else flat[:budget // rule.top]) if t.worth >= rule.least * best]
    protected = {t.id for t in coming}
    for hit in coming:
        if any(t.id == hit.id or t.text == hit.text for t in out):
            continue
        room, gone = budget - used, []
        for take in sorted((t for t in out if t.id not in protected and rule.movable(t)), key=lambda t: t.worth):
            if room >= hit.tokens or len(gone) >= rule.drop or take.worth * rule.margin >= hit.worth:
                break
            gone.append(take)
            room += take.tokens
        if room >= hit.tokens:
            ids = {t.id for t in gone}
            out = [t for t in out if t.id not in ids] + [hit]
            used = budget - room + hit.tokens
    return out


def found(evidence: list[str], takes: Sequence[Take]) -> int:
    return sum(any(matches(phrase, t.text) for t in takes) for phrase in evidence)


def run_set(evalset: EvalSet, tmp: Path, budgets: list[int], rules: dict[str, Rule]) -> dict:
    out: dict = {str(b): {"bm25": 0, "walk": 0, "rules": {name: 0 for name in rules},
                          "changed": {name: {} for name in rules}} for b in budgets}
    with Corpus(tmp / f"{evalset.name}.duckdb") as corpus:
        ingest_paths(corpus, [evalset.corpus], collection=COLLECTION, glob=evalset.glob)
        scope = Scope(corpus, collection=COLLECTION)
        for q in evalset.questions():
            scorer = Scorer(scope, q["question"])
            ranked = flat_hits(corpus, q["question"], "bm25", COLLECTION)
            worths: dict[str, float] = {}
            for hit in ranked:
                doc, ordinal = scope.document_by_key(hit.document_key), int(hit.evidence_id.rsplit(":", 1)[1])
                worths[hit.evidence_id] = 0.0 if doc is None else scorer.passage(passage_of(doc, ordinal))
            for budget in budgets:
                best = max((worths[h.evidence_id] for h in ranked[:max(10, budget // 80)]), default=0.0)
                flat = []
                for hit in pack(ranked, budget)[0]:
                    worth = worths[hit.evidence_id]
                    flat.append(Take(hit.evidence_id, normalize(hit.text), count_tokens(hit.text), worth, "flat"))
                request = agent_request(SYSTEMS["tree-ranked"], q["question"], budget, COLLECTION)
                request["include_steps"] = True
                walk = [Take(h.evidence_id, normalize(h.text), h.tokens or count_tokens(h.text), h.score or 0.0, h.via)
                        for h in retrieve_sync(request, corpus=corpus).hits if h.fetched]
                cell = out[str(budget)]
                cell["bm25"] += found(q["evidence"], flat)
                before = found(q["evidence"], walk)
                cell["walk"] += before
                for name, rule in rules.items():
                    after = found(q["evidence"], floored(walk, flat, budget, rule, best))
                    cell["rules"][name] += after
                    if after != before:
                        cell["changed"][name][q["id"]] = [before, after]
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs,npm-docs")
    parser.add_argument("--budgets", default="1000,2000,4000,8000")
    parser.add_argument("--rules", default=DEFAULT_RULES, help="rules separated by ';' (see the module)")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    rules = {spec.strip(): Rule.parse(spec) for spec in args.rules.split(";") if spec.strip()}
    report: dict = {"budgets": budgets, "rules": list(rules), "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for evalset in resolve_all(args.sets):
            report["sets"][evalset.name] = run_set(evalset, Path(tmp), budgets, rules)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
