"""Every way a run can end is in one table; the docs show it (docs/concepts/stop-reasons.md); dev questions
end as it says."""

import json
import re
from pathlib import Path

import pytest

from clew.agent.api import retrieve_sync
from clew.agent.result import STOPS, RetrievalResult, StopReason, stops_table
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus

from ..conftest import SQLITE_DOCS, Prebuilt, needs_sqlite_docs

PAGE = Path(__file__).parents[2] / "docs" / "concepts" / "stop-reasons.md"


def test_the_docs_table_is_the_table() -> None:
    shown = re.search(r"<!-- stops:begin -->\n(.*?)\n<!-- stops:end -->", PAGE.read_text(), re.S)
    assert shown is not None and shown.group(1) == stops_table()


def test_every_stop_reason_has_a_row_and_the_schema_describes_them() -> None:
    reasons = set(StopReason.__args__)  # type: ignore[attr-defined]
    assert {r for _, r in STOPS} == reasons
    described = RetrievalResult.model_json_schema()["properties"]["stop_reason"]["description"]
    assert all(f"{s} / {r}:" in described for s, r in STOPS)


def build_dev(folder: Path) -> None:
    with Corpus(folder / "dev.duckdb") as corpus:
        ingest_paths(corpus, [SQLITE_DOCS / "corpus"], glob="*.html")


@needs_sqlite_docs
@pytest.mark.parametrize("budget", [2000, 8192])
def test_the_default_run_on_dev_questions_ends_as_the_docs_say(tmp_path: Path, prebuilt: Prebuilt,
                                                                  budget: int) -> None:
    questions = [json.loads(line) for line in (SQLITE_DOCS / "questions.jsonl").read_text().splitlines()][:10]
    with Corpus(prebuilt(build_dev, tmp_path) / "dev.duckdb") as corpus:
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
