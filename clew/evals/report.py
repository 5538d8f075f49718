"""Reports of an evaluation run: report.json, report.md and recall_vs_tokens.png.

Everything here is a function of the result rows and the config, so a resumed run that ends
with the same rows writes the same report.json and report.md.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clew.evals.metrics import aggregate

TABLE = (
    ("evidence_recall", "evidence recall"), ("all_evidence_rate", "all evidence"), ("recall_at_10", "recall@10"),
    ("mrr", "MRR"), ("ndcg_at_10", "nDCG@10"), ("exact_match", "EM"), ("f1", "F1"),
    ("citation_precision", "citation precision"), ("mean_context_tokens", "mean ctx tokens"),
    ("p95_context_tokens", "p95 ctx tokens"), ("p50_latency_s", "p50 latency s"), ("p95_latency_s", "p95 latency s"),
    ("incomplete_rate", "incomplete"), ("failed", "failed"),
)


def build_report(rows: Sequence[dict[str, Any]], systems: Sequence[str], config: dict[str, Any]) -> dict[str, Any]:
    by_system = {name: [r for r in rows if r["system"] == name] for name in systems}
    by_kind: dict[str, dict[str, Any]] = {}
    for name, mine in by_system.items():
        kinds = sorted({r["kind"] for r in mine})
        by_kind[name] = {kind: aggregate([r for r in mine if r["kind"] == kind]) for kind in kinds}
    return {
        "systems": {name: aggregate(mine) for name, mine in by_system.items()},
        "by_kind": by_kind,
        "config": config,
    }


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.0f}"
    return str(value)


def markdown(report: dict[str, Any]) -> str:
    systems = report["systems"]
    shown = [(k, label) for k, label in TABLE if any(s.get(k) is not None for s in systems.values())]
    lines = [f"Budget: {report['config'].get('budget_tokens')} context tokens; "
             f"{report['config'].get('questions')} questions.", "",
             "| system | " + " | ".join(label for _, label in shown) + " |",
             "|---|" + "---:|" * len(shown)]
    lines += [f"| {name} | " + " | ".join(_cell(agg.get(k)) for k, _ in shown) + " |" for name, agg in systems.items()]
    kinds = sorted({kind for per in report["by_kind"].values() for kind in per})
    if len(kinds) > 1:
        lines += ["", "Evidence recall by kind:", "", "| system | " + " | ".join(kinds) + " |",
                  "|---|" + "---:|" * len(kinds)]
        for name, per in report["by_kind"].items():
            lines.append(
                f"| {name} | " + " | ".join(_cell(per.get(k, {}).get("evidence_recall")) for k in kinds) + " |"
            )
    reasons = {name: agg["incomplete_reasons"] for name, agg in systems.items() if agg["incomplete_reasons"]}
    if reasons:
        lines += ["", "Incomplete runs by reason:", ""]
        lines += [f"- {name}: " + ", ".join(f"{r} {n}" for r, n in per.items()) for name, per in reasons.items()]
    return "\n".join(lines) + "\n"


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    points = [
        (name, agg.get("mean_context_tokens"), agg.get("evidence_recall")) for name, agg in report["systems"].items()
    ]
    points = [(name, x, y) for name, x, y in points if x is not None and y is not None]
    for name, x, y in points:
        axes.scatter([x], [y], label=name)
    if points:
        axes.legend(loc="lower right")
    axes.set_xlabel("mean context tokens")
    axes.set_ylabel("evidence recall")
    axes.set_ylim(0, 1.05)
    axes.set_xlim(0, max([x for _, x, _ in points], default=1) * 1.1 or 1)
    axes.set_title(f"Evidence recall vs context tokens (budget {report['config'].get('budget_tokens')})")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def write_reports(
    rows: Sequence[dict[str, Any]], systems: Sequence[str], out: Path, config: dict[str, Any]
) -> dict[str, Any]:
    report = build_report(rows, systems, config)
    (out / "report.json").write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    (out / "report.md").write_text(markdown(report), encoding="utf-8")
    plot(report, out / "recall_vs_tokens.png")
    return report
