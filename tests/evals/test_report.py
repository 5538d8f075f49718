"""The eval report's curve: recall_vs_tokens.csv and .png over several budgets, and the models behind each system."""

import asyncio
import csv
import json
from pathlib import Path

import pytest

from clew.corpus.embedders import HashingEmbedder
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.embedding import embed_missing
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.evals import report as reports
from clew.evals.datasets import Question
from clew.evals.runner import parse_budgets, run_eval
from clew.evals.systems import SYSTEMS
from tests.conftest import FIXTURES

BUDGETS = (300, 600, 1200)  # agent runs clamp a budget below 256 up to it
NAMES = ("bm25", "vector", "tree-ranked")


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    from tests.evals.conftest import QUESTIONS

    folder = tmp_path_factory.mktemp("curve")
    questions = [Question(id=q["id"], question=q["question"], kind=q["kind"], answers=tuple(q["answers"]),
                          evidence=tuple(q["evidence"]), sources=tuple(q["sources"])) for q in QUESTIONS]
    with Corpus(folder / "c.duckdb") as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown"], chunk_tokens=40)
        embed_missing(corpus, HashingEmbedder())
        report = asyncio.run(run_eval(questions, [SYSTEMS[n] for n in NAMES], corpus, folder / "out",
                                      budget_tokens=600, curve_budgets=BUDGETS))
    return report, folder / "out"


def test_the_csv_holds_one_row_per_system_and_budget_with_the_plotted_numbers(evaluated: tuple[dict, Path]) -> None:
    report, out = evaluated
    with (out / "recall_vs_tokens.csv").open(newline="") as handle:
        table = list(csv.DictReader(handle))
    assert list(table[0]) == list(reports.CURVE_COLUMNS)
    assert [(r["system"], int(r["budget_tokens"])) for r in table] == [(n, b) for n in NAMES for b in BUDGETS]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == len(NAMES) * len(BUDGETS) * 3
    for line in table:
        mine = [r for r in rows if r["system"] == line["system"] and r["budget_tokens"] == int(line["budget_tokens"])]
        found = [flag for r in mine for flag in r["evidence_found"]]
        assert float(line["evidence_recall"]) == pytest.approx(sum(found) / len(found))
        assert float(line["mean_context_tokens"]) == pytest.approx(sum(r["context_tokens"] for r in mine) / len(mine))
        assert int(line["questions"]) == 3 and int(line["budget_tokens"]) >= float(line["mean_context_tokens"])
    by = {(r["system"], int(r["budget_tokens"])): r for r in table}
    assert by[("vector", 600)]["embedder"] == "hashing" and by[("bm25", 600)]["embedder"] == ""
    assert by[("tree-ranked", 600)]["answers"] == "extract" and by[("bm25", 600)]["answers"] == ""
    # the report's own budget is the curve's middle point
    assert float(by[("bm25", 600)]["evidence_recall"]) == pytest.approx(report["systems"]["bm25"]["evidence_recall"])


def test_the_plot_draws_one_line_per_system_through_every_budget(evaluated: tuple[dict, Path]) -> None:
    import matplotlib.pyplot as plt  # here, not at collection: a worker that runs no test of this file skips it

    report, out = evaluated
    assert (out / "recall_vs_tokens.png").read_bytes()[:4] == b"\x89PNG"
    figure = reports.figure_of(report)
    try:
        lines = figure.axes[0].get_lines()
        assert [line.get_label().split()[0] for line in lines] == list(NAMES)
        assert lines[1].get_label() == "vector (vectors: hashing)"
        for line, name in zip(lines, NAMES, strict=True):
            assert list(line.get_xdata()) == pytest.approx(BUDGETS, rel=0.05)  # nudged apart, never past 5%
            assert list(line.get_ydata()) == [p["evidence_recall"] for p in report["curve"][name]]
        assert len({line.get_marker() for line in lines}) == len(lines)  # told apart where they overlap
        assert len({line.get_xdata()[0] for line in lines}) == len(lines)
        assert len({line.get_linestyle() for line in lines}) == len(lines)
        assert [t.get_text() for t in figure.axes[0].get_xticklabels()] == ["300", "600", "1,200"]
    finally:
        plt.close(figure)


def test_the_markdown_names_the_models_and_the_recall_by_budget(evaluated: tuple[dict, Path]) -> None:
    report, out = evaluated
    table = (out / "report.md").read_text()
    assert "| vector | hashing | none (passages only) |" in table
    assert "| tree-ranked | none (BM25 only) | extract |" in table
    assert "| system | 300 | 600 | 1,200 |" in table
    assert report["models"]["vector"] == {"embedder": "hashing", "answers": None}
    assert "models" not in report["config"]


def test_curve_budgets_must_be_whole_positive_token_counts() -> None:
    assert parse_budgets("1000, 2000") == [1000, 2000] and parse_budgets("") == []
    with pytest.raises(InputError, match="curve_budgets"):
        parse_budgets("1000,lots")
