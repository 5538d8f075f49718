"""Every way a run can end is in one table; the docs show it (docs/concepts/stop-reasons.md); dev questions
end as it says."""

import json
import re
from pathlib import Path

import pytest

from clew.agent.api import retrieve_sync
from clew.agent.result import STOPS, RetrievalResult, StepSummary, StopReason, UsageReport, stops_table
from clew.corpus.store import Corpus

from ..conftest import SQLITE_DOCS, Prebuilt, build_sqlite_docs, needs_sqlite_docs

PAGE = Path(__file__).parents[2] / "docs" / "concepts" / "stop-reasons.md"


def test_the_docs_table_is_the_table() -> None:
    shown = re.search(r"<!-- stops:begin -->\n(.*?)\n<!-- stops:end -->", PAGE.read_text(), re.S)
    assert shown is not None and shown.group(1) == stops_table()


def test_every_stop_reason_has_a_row_and_the_schema_describes_them() -> None:
    reasons = set(StopReason.__args__)  # type: ignore[attr-defined]
    assert {r for _, r in STOPS} == reasons
    described = RetrievalResult.model_json_schema()["properties"]["stop_reason"]["description"]
    assert all(f"{s} / {r}:" in described for s, r in STOPS)


def test_the_context_budget_row_says_what_counts_the_candidates_left(runbooks: Corpus) -> None:
    """The row said "the detail counts them": a detail that names the next passage's tokens counts nothing,
    and one that counts passages leaves out the nodes set aside; summary.candidates_left counts them all
    (task U40: "the next best passage needs 60 tokens, 59 were left" beside 33 candidates left)."""
    result = retrieve_sync({"query": "What error rate means a deploy should be rolled back?",
                            "queries": [{"table": "runbooks"}], "context_budget_tokens": 256}, corpus=runbooks)
    assert (result.status, result.stop_reason) == ("incomplete", "context_budget")
    left = result.summary.candidates_left
    assert left > 0 and f"{left} candidates left" in result.stop_line()
    assert re.search(r"the next best passage needs [\d,]+ tokens|passage\(s\) found did not fit", result.detail or "")
    said = STOPS["incomplete", "context_budget"][0]
    assert "summary.candidates_left counts them" in said and "the detail counts them" not in said


def test_the_iterations_stop_line_offers_a_raise_only_below_the_cap() -> None:
    """A ranked walk over many small passages (GLFW's Doxygen pages, task U4) took 93 of them in
    100 iterations and said "--max-iterations raises it", whose range ends at 100."""
    def ended(applied: int) -> str:
        return RetrievalResult(
            status="incomplete", stop_reason="max_internal_iterations", hits=[], generation=None, instructions=[],
            summary=StepSummary(steps=304, candidates_left=82),
            usage=UsageReport(iterations=applied, tool_calls=20, context_tokens=7392),
            applied={"max_internal_iterations": applied, "context_budget_tokens": 8192},
        ).stop_line({"max_internal_iterations": "--max-iterations"})

    assert ended(100) == ("incomplete: iterations ran out (100 of 100) with 7,392 of 8,192 context tokens used; "
                          "100 is the cap")
    assert ended(40) == ("incomplete: iterations ran out (40 of 40) with 7,392 of 8,192 context tokens used; "
                         "--max-iterations raises it")
    # a ranked walk's default bound above the cap (one per 20 tokens of a large budget) is raised by the budget
    assert ended(409).endswith("; a ranked walk's bound follows context_budget_tokens")


@needs_sqlite_docs
@pytest.mark.parametrize("budget", [2000, 8192])
def test_the_default_run_on_dev_questions_ends_as_the_docs_say(tmp_path: Path, prebuilt: Prebuilt,
                                                                  budget: int) -> None:
    questions = [json.loads(line) for line in (SQLITE_DOCS / "questions.jsonl").read_text().splitlines()][:10]
    with Corpus(prebuilt(build_sqlite_docs, tmp_path) / "sqlite-docs.duckdb") as corpus:
        results = [retrieve_sync({"query": q["question"], "context_budget_tokens": budget}, corpus=corpus)
                   for q in questions]
    for result in results:
        assert (result.status, result.stop_reason) in STOPS
        assert result.stop_line().startswith(f"{result.status}: ")
    ends = [(r.status, r.stop_reason) for r in results]
    # docs/concepts/stop-reasons.md: the default ranked walk fills its budget and says so
    assert ends.count(("incomplete", "context_budget")) >= 9, ends
    for result in results:
        if result.stop_reason == "context_budget":
            assert result.usage.context_tokens >= 0.95 * budget and result.summary.candidates_left > 0
            assert result.usage.tool_calls <= 20
