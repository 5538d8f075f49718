"""Reports of an evaluation run: report.json, report.md, recall_vs_tokens.csv and recall_vs_tokens.png.

Everything here is a function of the result rows and the config, so a resumed run that ends
with the same rows writes the same report.json and report.md.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from clew.evals.metrics import aggregate

TABLE = (
    ("evidence_recall", "evidence recall"), ("all_evidence_rate", "all evidence"), ("recall_at_10", "recall@10"),
    ("mrr", "MRR"), ("ndcg_at_10", "nDCG@10"), ("exact_match", "EM"), ("f1", "F1"),
    ("citation_precision", "citation precision"), ("answer_retention", "answer retention"),
    ("answer_containment", "answer containment"), ("p50_answer_tokens", "p50 answer tokens"),
    ("mean_context_tokens", "mean ctx tokens"),
    ("p95_context_tokens", "p95 ctx tokens"), ("p50_latency_s", "p50 latency s"), ("p95_latency_s", "p95 latency s"),
    ("incomplete_rate", "incomplete"), ("failed", "failed"),
)


CURVE_COLUMNS = ("system", "budget_tokens", "evidence_recall", "mean_context_tokens", "questions", "embedder",
                 "answers")
"""The columns of recall_vs_tokens.csv: one row per system and budget, the numbers the plot draws."""
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
DODGE = 0.04
"""How far apart (in doublings of the budget) the systems' points are drawn around each budget;
the CSV holds the exact budgets."""


def _at(row: dict[str, Any], budget: int | None) -> bool:
    """A row of this budget (rows written before budgets were recorded count as the report's own)."""
    return row.get("budget_tokens", budget) == budget


def build_report(rows: Sequence[dict[str, Any]], systems: Sequence[str], config: dict[str, Any]) -> dict[str, Any]:
    """The report at ``config["budget_tokens"]``, the curve over ``config["curve_budgets"]`` and the
    models behind each system (``config["models"]``)."""
    budget = config.get("budget_tokens")
    main = [r for r in rows if _at(r, budget)]
    by_system = {name: [r for r in main if r["system"] == name] for name in systems}
    by_kind: dict[str, dict[str, Any]] = {}
    for name, mine in by_system.items():
        kinds = sorted({r["kind"] for r in mine})
        by_kind[name] = {kind: aggregate([r for r in mine if r["kind"] == kind]) for kind in kinds}
    models = config.get("models") or {}
    config = {k: v for k, v in config.items() if k != "models"}  # reported once, as "models"
    curve: dict[str, list[dict[str, Any]]] = {}
    for name in systems:
        points = []
        for b in config.get("curve_budgets") or ([budget] if budget is not None else []):
            mine = [r for r in rows if r["system"] == name and _at(r, b)]
            if mine:
                agg = aggregate(mine)
                points.append({"budget_tokens": b, "evidence_recall": agg.get("evidence_recall"),
                               "mean_context_tokens": agg.get("mean_context_tokens"), "questions": len(mine)})
        curve[name] = points
    return {"systems": {name: aggregate(mine) for name, mine in by_system.items()}, "by_kind": by_kind,
            "models": {name: models.get(name, {"embedder": None, "answers": None}) for name in systems},
            "curve": curve, "config": config}


def curve_rows(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of recall_vs_tokens.csv (see ``CURVE_COLUMNS``)."""
    out = []
    for name, points in report.get("curve", {}).items():
        model = report.get("models", {}).get(name, {})
        for point in points:
            out.append({"system": name, **point, "embedder": model.get("embedder"), "answers": model.get("answers")})
    return out


def write_curve_csv(report: dict[str, Any], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CURVE_COLUMNS)
        writer.writeheader()
        for row in curve_rows(report):
            writer.writerow({k: "" if row.get(k) is None else row[k] for k in CURVE_COLUMNS})


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
    models = report.get("models") or {}
    if models:
        lines += ["", "Models behind each system (vectors: the embedder of its vector search; answers: the model that "
                  "wrote them, `extract` for the model-free quoted answer):", "", "| system | vectors | answers |",
                  "|---|---|---|"]
        lines += [f"| {name} | {m.get('embedder') or 'none (BM25 only)'} | "
                  f"{m.get('answers') or 'none (passages only)'} |" for name, m in models.items()]
    curve = {name: points for name, points in (report.get("curve") or {}).items() if points}
    budgets = sorted({p["budget_tokens"] for points in curve.values() for p in points})
    if len(budgets) > 1:
        lines += ["", "Evidence recall by context budget (recall_vs_tokens.csv, .png):", "",
                  "| system | " + " | ".join(f"{b:,}" for b in budgets) + " |", "|---|" + "---:|" * len(budgets)]
        for name, points in curve.items():
            at = {p["budget_tokens"]: p["evidence_recall"] for p in points}
            lines.append(f"| {name} | " + " | ".join(_cell(at.get(b)) for b in budgets) + " |")
    kinds = sorted({kind for per in report["by_kind"].values() for kind in per})
    if len(kinds) > 1:
        lines += ["", "Evidence recall by kind:", "", "| system | " + " | ".join(kinds) + " |",
                  "|---|" + "---:|" * len(kinds)]
        for name, per in report["by_kind"].items():
            lines.append(
                f"| {name} | " + " | ".join(_cell(per.get(k, {}).get("evidence_recall")) for k in kinds) + " |"
            )
        lines += ["", "Answer retention (the answer's share of the evidence phrases the passages hold) and answer "
                  "containment by kind:", "", "| system | " + " | ".join(kinds) + " |", "|---|" + "---:|" * len(kinds)]
        for name, per in report["by_kind"].items():
            lines.append(f"| {name} | " + " | ".join(
                f"{_cell(per.get(k, {}).get('answer_retention'))} / {_cell(per.get(k, {}).get('answer_containment'))}"
                for k in kinds) + " |")
    reasons = {name: agg["incomplete_reasons"] for name, agg in systems.items() if agg["incomplete_reasons"]}
    if reasons:
        lines += ["", "Incomplete runs by reason:", ""]
        lines += [f"- {name}: " + ", ".join(f"{r} {n}" for r, n in per.items()) for name, per in reasons.items()]
    return "\n".join(lines) + "\n"


def figure_of(report: dict[str, Any]) -> Any:
    """Evidence recall against the context budget, a matplotlib figure: one line per system
    through its budgets, each with its own marker and line style (hollow markers, so that
    systems that overlap stay visible). Close it with ``matplotlib.pyplot.close``."""
    from clew.extras import require

    matplotlib = require("matplotlib", "plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 4.5))
    curve = {name: [p for p in points if p.get("evidence_recall") is not None]
             for name, points in (report.get("curve") or {}).items()}
    budgets = sorted({p["budget_tokens"] for points in curve.values() for p in points})
    for i, (name, points) in enumerate(curve.items()):
        if not points:
            continue
        model = (report.get("models") or {}).get(name, {})
        label = name + (f" (vectors: {model['embedder']})" if model.get("embedder") else "")
        nudge = 2 ** (DODGE * (i - (len(curve) - 1) / 2))  # side by side, so that equal values stay visible
        axes.plot([p["budget_tokens"] * nudge for p in points], [p["evidence_recall"] for p in points], label=label,
                  marker=MARKERS[i % len(MARKERS)], linestyle=LINESTYLES[i % len(LINESTYLES)], markersize=7 + (i % 3),
                  markerfacecolor="none", markeredgewidth=1.5, linewidth=1.5, alpha=0.9)
    if budgets:
        axes.set_xscale("log", base=2)
        axes.set_xticks(budgets, [f"{b:,}" for b in budgets])
        axes.minorticks_off()
        axes.legend(loc="lower right", fontsize="small")
    axes.set_xlabel("context budget (tokens)")
    axes.set_ylabel("evidence recall")
    axes.set_ylim(0, 1.05)
    axes.set_title(f"Evidence recall vs context budget ({report['config'].get('questions')} questions)")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure


def plot(report: dict[str, Any], path: Path) -> None:
    """Write :func:`figure_of` as a PNG."""
    import matplotlib.pyplot as plt

    figure = figure_of(report)
    figure.savefig(path, dpi=100)
    plt.close(figure)


def write_reports(
    rows: Sequence[dict[str, Any]], systems: Sequence[str], out: Path, config: dict[str, Any]
) -> dict[str, Any]:
    report = build_report(rows, systems, config)
    (out / "report.json").write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    (out / "report.md").write_text(markdown(report), encoding="utf-8")
    write_curve_csv(report, out / "recall_vs_tokens.csv")
    plot(report, out / "recall_vs_tokens.png")
    return report
