"""Every take of the walk and the fate of every phrase it misses, question by question. Prints JSON.

The harness tasks W2, W4 and W5 diagnosed the walk with (docs/measurements/walk-2026-12-05.md).
For each set in ``--sets`` (as in ``benchmarks/dev_recall.py``) the corpus is ingested once and
every question is walked (``tree-ranked``, the code path of ``clew eval``) under each budget. For
each question whose walk misses a gold phrase (or is named in ``--show``) it reports:

- ``found``: phrases found by the walk, by flat bm25's own pack of the same budget, and in all;
- ``takes``: the walk's takes in order, each with its route (``via``), own worth (the walk's
  ``Scorer``), priority (worth plus the bonus of its route), tokens, flat bm25 rank, whether it
  holds a gold phrase and whether it is still in the pack (the floor may have displaced it);
- ``floor``: the floor's swaps (the flat hit taken in, the takes it displaced);
- ``misses``: for each phrase missed, the passages of flat bm25's top 100 that hold it, each with
  its flat rank, worth, tokens, whether flat bm25's pack holds it, and its ``fate`` in the walk:
  ``frontier`` (still queued at the end) or ``aside`` (set aside: too large for the tokens left), both
  with the priority it had; ``visited`` (taken or skipped); ``never_offered``.

``walk`` and ``flat`` sum the phrases per budget. The walk's methods are wrapped while it runs
(``recording``) and restored after: nothing in clew changes.

    python benchmarks/walk_takes.py --sets sqlite-docs --budgets 1000,2000
    python benchmarks/walk_takes.py --sets npm-docs --budgets 4000 --show npm-035
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from clew.agent.frontier import Candidate, Frontier
from clew.agent.run import Run
from clew.agent.scoring import Scorer
from clew.agent.tree import TreeWalk
from clew.agent.walk import Walk
from clew.budgets.tokens import count_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Passage, Scope, passage_of
from clew.corpus.store import Corpus
from clew.evals.matching import matches, normalize
from clew.evals.systems import SYSTEMS, flat_hits, pack, run_system

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalsets import EvalSet, resolve_all

COLLECTION = "dev"


RECORD: dict[str, Any] = {}
"""What ``recording`` keeps of the walk running now (cleared before each walk)."""


@contextmanager
def recording() -> Iterator[dict[str, Any]]:
    """While it lasts, each walk's takes, its frontier when it ends and what it set aside go to ``RECORD``."""
    take, finish, set_aside = Walk.take, TreeWalk.finish, Frontier.set_aside

    def took(self: Walk, run: Run, chosen: Candidate, passage: Passage, *, depth: int | None,
             step: int | None) -> bool:
        ok = take(self, run, chosen, passage, depth=depth, step=step)
        if ok:
            RECORD.setdefault("takes", []).append((passage.evidence_id, chosen.via, chosen.score, chosen.priority,
                                                   chosen.tokens))
        return ok

    def finished(self: TreeWalk, run: Run) -> None:
        frontier = run.state.frontier
        RECORD["frontier"] = {c.id: c.priority for c in frontier.items.values()}
        RECORD["visited"] = set(frontier.visited)
        finish(self, run)
        RECORD["floor"] = [{"taken": s.taken, "displaced": s.displaced} for s in run.note.floor]

    def put_aside(self: Frontier, candidate: Candidate) -> None:
        RECORD.setdefault("aside", {})[candidate.id] = candidate.priority
        set_aside(self, candidate)

    Walk.take, TreeWalk.finish, Frontier.set_aside = took, finished, put_aside  # type: ignore[method-assign]
    try:
        yield RECORD
    finally:
        Walk.take, TreeWalk.finish, Frontier.set_aside = take, finish, set_aside  # type: ignore[method-assign]


def fate(evidence_id: str) -> tuple[str, float | None]:
    if evidence_id in RECORD.get("frontier", {}):
        return "frontier", RECORD["frontier"][evidence_id]
    if evidence_id in RECORD.get("aside", {}):
        return "aside", RECORD["aside"][evidence_id]
    return ("visited" if evidence_id in RECORD.get("visited", ()) else "never_offered"), None


def walk_question(corpus: Corpus, scope: Scope, q: dict, budgets: list[int], show: set[str]) -> dict[int, dict]:
    ranked = flat_hits(corpus, q["question"], "bm25", COLLECTION)
    rank = {h.evidence_id: at for at, h in enumerate(ranked, 1)}
    scorer = Scorer(scope, q["question"])

    def worth(key: str, evidence_id: str) -> float:
        doc = scope.document_by_key(key)
        return 0.0 if doc is None else scorer.passage(passage_of(doc, int(evidence_id.rsplit(":", 1)[1])))

    out = {}
    for budget in budgets:
        RECORD.clear()
        outcome = asyncio.run(run_system(SYSTEMS["tree-ranked"], corpus, q["question"], budget=budget,
                                         collection=COLLECTION))
        texts = {p.evidence_id: normalize(p.text) for p in outcome.passages}
        flat = pack(ranked, budget)[0]
        flat_texts = [normalize(h.text) for h in flat]
        walk_found = [any(matches(ph, t) for t in texts.values()) for ph in q["evidence"]]
        flat_found = [any(matches(ph, t) for t in flat_texts) for ph in q["evidence"]]
        cell: dict[str, Any] = {"found": [sum(walk_found), sum(flat_found), len(q["evidence"])]}
        if all(walk_found) and q["id"] not in show:
            out[budget] = cell
            continue
        cell["takes"] = [{"id": eid, "via": via, "worth": round(score, 2), "priority": round(priority, 2),
                          "tokens": tokens, "flat_rank": rank.get(eid),
                          "gold": eid in texts and any(matches(ph, texts[eid]) for ph in q["evidence"]),
                          "kept": eid in texts}
                         for eid, via, score, priority, tokens in RECORD.get("takes", [])]
        cell["floor"] = RECORD.get("floor", [])
        cell["misses"] = []
        flat_ids = {h.evidence_id for h in flat}
        for phrase, found in zip(q["evidence"], walk_found, strict=True):
            if found:
                continue
            held = []
            for h in (h for h in ranked if matches(phrase, normalize(h.text))):
                where, priority = fate(h.evidence_id)
                held.append({"id": h.evidence_id, "flat_rank": rank[h.evidence_id],
                             "worth": round(worth(h.document_key, h.evidence_id), 2), "tokens": count_tokens(h.text),
                             "in_flat_pack": h.evidence_id in flat_ids, "fate": where,
                             "priority": None if priority is None else round(priority, 2)})
            cell["misses"].append({"phrase": phrase[:80], "at": held})
        out[budget] = cell
    return out


def run_set(evalset: EvalSet, tmp: Path, budgets: list[int], show: set[str]) -> dict:
    report: dict[str, Any] = {str(b): {"walk": 0, "flat": 0, "phrases": 0, "questions": {}} for b in budgets}
    with Corpus(tmp / f"{evalset.name}.duckdb") as corpus, recording():
        ingest_paths(corpus, [evalset.corpus], collection=COLLECTION, glob=evalset.glob)
        scope = Scope(corpus, collection=COLLECTION)
        for q in evalset.questions():
            for budget, cell in walk_question(corpus, scope, q, budgets, show).items():
                totals = report[str(budget)]
                for at, name in enumerate(("walk", "flat", "phrases")):
                    totals[name] += cell["found"][at]
                if "takes" in cell:
                    totals["questions"][q["id"]] = cell
    return report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="sqlite-docs")
    parser.add_argument("--budgets", default="1000,2000")
    parser.add_argument("--show", default="", help="question ids to report even when the walk misses nothing")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    show = {s.strip() for s in args.show.split(",") if s.strip()}
    report: dict = {"budgets": budgets, "sets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for evalset in resolve_all(args.sets):
            report["sets"][evalset.name] = run_set(evalset, Path(tmp), budgets, show)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
