"""The extract alone on dumped packs: each set's figures in seconds, what changed, why a phrase was left out.

``benchmarks/extract.py --dump`` writes the evidence the walk fetched for each question; the extract
(``clew.agent.generate.extractive_answer``) run again on those packs gives that benchmark's figures
(retention, answers found, the median extract in tokens, citations included), without a walk: a change of
the extract is measured on the six sets in a few seconds of CPU. The packs are loaded as
``extract_fit.py`` loads them (``--sets``: the dump's sets, as ``extract.py`` takes them).

- ``--out FILE``: each question's extract and figures, as JSON lines (set, id, kept, held, found, tokens,
  missed, answer);
- ``--against FILE``: an earlier run's ``--out``; the report lists the questions whose extract changed, with
  their phrases and answer before and after;
- ``--why``: for each held phrase the extract leaves out, the first unit holding it in the extract's ranking
  (its rank, its share of the best unit's score, its kind, its place in its passage, whether a lead-in
  introduces it, whether its passage is quoted, its size in tokens with a citation) and the cause: ``no unit``
  (no single unit holds it), ``scores 0`` (no question term of its own), ``under KEEP`` (below ``KEEP`` of the
  best: never taken), ``reached, not chosen`` (taken in turn, but the units before it had filled the room);
  with the ranks of the units the extract quoted. Prints JSON.

    python benchmarks/extract.py --sets $SETS --budget 2000 --dump /tmp/dump.jsonl
    python benchmarks/extract_replay.py /tmp/dump.jsonl --sets $SETS --out /tmp/before.jsonl
    # change the extract, then
    python benchmarks/extract_replay.py /tmp/dump.jsonl --sets $SETS --against /tmp/before.jsonl --why
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clew.agent.generate as generate
from clew.agent.generate import CITATION, extractive_answer
from clew.agent.units import Unit
from clew.budgets.tokens import count_tokens
from clew.evals.metrics import answer_found, evidence_found

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from evalsets import resolve_all  # noqa: E402
from extract_fit import SHIPPED_SCORE, Pack, load, scoring  # noqa: E402

SETS = ("sqlite-docs,npm-docs,evals/postgresql-docs,evals/bootstrap-docs,evals/python-docs,evals/git-docs,"
        "evals/pdf-docs,evals/mdbook-docs,evals/mkdocs-docs,evals/docusaurus-docs,evals/texinfo-docs,"
        "evals/doxygen-docs,evals/structlog-docs,evals/libsoup-docs")
"""The default ``--sets``: the two shared dev sets and the repository's twelve."""


@dataclass
class Replayed:
    """One question's extract on its dumped pack, and the units the extract scored (for ``--why``)."""

    answer: str
    kept: list[str]
    found: bool
    tokens: int
    scored: list[tuple[float, Unit]] = field(default_factory=list)
    """Each scored unit and its score, in the extract's order of scoring."""


def replay(pack: Pack, max_tokens: int = generate.EXTRACT_TOKENS) -> Replayed:
    """The shipped extract of ``pack``, with every unit's score recorded as the extract ranks it."""
    scored: list[tuple[float, Unit]] = []
    notes = generate.VERSION_NOTE if generate._VERSIONED.search(pack.question) is None else 1.0

    def score(unit: Unit, *args: Any, **kwargs: Any) -> float:
        value = SHIPPED_SCORE(unit, *args, **kwargs)
        scored.append((value * (notes if generate._NOTE.match(unit.own) else 1.0), unit))  # as the extract weighs it
        return value

    with scoring(score, generate.KEEP):
        generation = extractive_answer(pack.question, pack.evidence, max_tokens=max_tokens, paths=pack.paths,
                                       titles=pack.titles)
    answer = generation.answer if generation is not None else ""
    text = CITATION.sub("", answer)
    kept = [p for p, found in zip(pack.held, evidence_found(pack.held, [text]), strict=True) if found]
    return Replayed(answer, kept, bool(answer_found(text, pack.answers)), count_tokens(answer) if answer else 0, scored)


def why(pack: Pack, run: Replayed) -> list[dict[str, Any]]:
    """For each held phrase ``run`` leaves out: the first unit holding it in the ranking, and the cause."""
    order = sorted(range(len(run.scored)), key=lambda i: (-run.scored[i][0], i))  # the extract's ranking
    ranks = {i: n for n, i in enumerate(order)}
    best = run.scored[order[0]][0] if order else 0.0
    cited = set(CITATION.findall(run.answer))
    chosen = [n for n, i in enumerate(order) if evidence_found([run.scored[i][1].own], [run.answer])[0]]
    out: list[dict[str, Any]] = []
    for phrase in (p for p in pack.held if p not in run.kept):
        holding = [i for i, (_, u) in enumerate(run.scored) if any(evidence_found([phrase], [u.own, u.text]))]
        row: dict[str, Any] = {"id": pack.id, "phrase": phrase}
        if not holding:
            out.append({**row, "cause": "no unit"})
            continue
        i = min(holding, key=ranks.__getitem__)
        value, unit = run.scored[i]
        cause = "scores 0" if value <= 0 else "under KEEP" if value < generate.KEEP * best else "reached, not chosen"
        out.append(
            {
                **row,
                "cause": cause,
                "rank": ranks[i],
                "share": round(value / best, 2) if best else 0.0,
                "kind": unit.kind,
                "introduced": unit.intro is not None,
                "position": unit.position,
                "evidence_id": unit.evidence_id,
                "passage_quoted": unit.evidence_id in cited,
                "tokens": count_tokens(f"{unit.text} [{unit.evidence_id}]"),
                "extract_tokens": run.tokens,
                "quoted_ranks": chosen,
                "unit": unit.own,
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("dump", type=Path, help="benchmarks/extract.py --dump output (of the sets in --sets)")
    parser.add_argument("--sets", default=SETS, help="the dump's sets, as extract.py takes them (comma-separated)")
    parser.add_argument("--extract-tokens", type=int, default=generate.EXTRACT_TOKENS, help="the extract's size")
    parser.add_argument("--out", type=Path, help="write each question's extract and figures here (JSON lines)")
    parser.add_argument("--against", type=Path, help="an earlier --out: list the questions whose extract changed")
    parser.add_argument("--why", action="store_true", help="say why each held phrase left out was left out")
    args = parser.parse_args()
    packs = load(args.dump, resolve_all(args.sets))
    before = (
        {(r["set"], r["id"]): r for r in map(json.loads, args.against.read_text().splitlines())} if args.against else {}
    )
    report: dict[str, Any] = {"extract_tokens": args.extract_tokens, "sets": {}, "changed": [], "why": []}
    rows: list[dict[str, Any]] = []
    for name, group in packs.items():
        kept = held = found = 0
        sizes: list[int] = []
        for pack in group:
            run = replay(pack, args.extract_tokens)
            kept, held, found = kept + len(run.kept), held + len(pack.held), found + run.found
            sizes.append(run.tokens)
            rows.append(
                {
                    "set": name,
                    "id": pack.id,
                    "kept": len(run.kept),
                    "held": len(pack.held),
                    "found": run.found,
                    "tokens": run.tokens,
                    "missed": [p for p in pack.held if p not in run.kept],
                    "answer": run.answer,
                }
            )
            old = before.get((name, pack.id))
            if old is not None and old["answer"] != run.answer:
                report["changed"].append(
                    {
                        "set": name,
                        "id": pack.id,
                        "kept": [old["kept"], len(run.kept)],
                        "found": [old["found"], run.found],
                        "tokens": [old["tokens"], run.tokens],
                    }
                )
            if args.why:
                report["why"].extend({"set": name, **w} for w in why(pack, run))
        report["sets"][name] = {
            "retention": round(kept / held, 3) if held else None,
            "phrases": [kept, held],
            "answer_found": round(found / len(group), 3) if group else None,
            "answers": [found, len(group)],
            "median_tokens": statistics.median(sizes) if sizes else None,
        }
    if args.out:
        args.out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
