from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from tests.conftest import FIXTURES, Prebuilt
from tests.envelope import envelope

runner = CliRunner()


def build_acme_notes(folder: Path) -> None:
    """acme-notes.md in ``notes`` (merged sections), as ``clew ingest`` writes it; once a session (``prebuilt``)."""
    result = runner.invoke(app, ["ingest", str(FIXTURES / "markdown" / "acme-notes.md"), "--db",
                                 str(folder / "c.duckdb"), "--merge-sections", "--collection", "notes"])
    assert result.exit_code == 0, result.output


@pytest.fixture
def db(tmp_path: Path, prebuilt: Prebuilt) -> str:
    """The test's own copy of the corpus."""
    return str(prebuilt(build_acme_notes, tmp_path) / "c.duckdb")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_nav_json_matches_the_acceptance(db: str) -> None:
    code, out, _ = run("nav", "ev1:c:1:1:0", "parent", "--db", db, "--json")
    result = envelope(out)["result"]
    assert code == 0 and result["multi_section"] is True
    assert [i["heading_path"][-1] for i in result["items"]] == ["Route planning", "Dependencies"]
    code, out, _ = run("nav", "ev1:c:1:1:0", "next", "--db", db, "--json", "--max-chars", "80")
    result = envelope(out)["result"]
    assert (result["truncated"], result["truncation_reason"], len(result["items"][0]["text"])) == (True, "chars", 80)


def test_nav_human_output_and_statuses(db: str) -> None:
    code, out, _ = run("nav", "ev1:c:1:1:0", "next", "--db", db)
    assert code == 0 and "ev1:c:1:1:1" in out and "[table]" in out and "| Component | Owner | Purpose |" in out
    code, _, err = run("nav", "ev1:c:1:1:0", "children", "--db", db)
    assert code == 1 and "no_match" in err  # nothing found
    code, _, err = run("nav", "ev1:c:9:1:0", "next", "--db", db)
    assert code == 1 and "unavailable" in err
    code, _, err = run("nav", "ev1:c:1:1:0", "cousins", "--db", db)
    assert code == 2 and "relation" in err
    code, _, err = run("nav", "ev1:c:1:1:0", "next", "--db", db + ".missing")
    assert code == 2 and "no such corpus file" in err


def test_read_grep_slice_fetch_expand(db: str) -> None:
    code, out, _ = run("read", "acme-notes.md", "--db", db, "--json", "--top-k", "2")
    result = envelope(out)["result"]
    assert code == 0 and [i["evidence_id"] for i in result["items"]] == ["ev1:c:1:1:0", "ev1:c:1:1:1"]
    code, out, _ = run("grep", "acme-notes.md", "daniel okafor", "--db", db, "--json")
    assert [i["evidence_id"] for i in envelope(out)["result"]["items"]] == ["ev1:c:1:1:1"]
    code, out, _ = run("grep", "ev1:d:1:1", "robot logs days", "--mode", "term", "--db", db, "--collection", "notes")
    assert code == 0 and "ev1:c:1:1:2" in out
    code, out, _ = run("slice", "ev1:c:1:1:1", "--db", db, "--json", "--window", "3")
    result = envelope(out)["result"]
    assert result["parent_id"] == "ev1:d:1:1" and result["covers_parent"] is True
    code, out, _ = run("fetch", "ev1:c:1:1:2", "nope", "--db", db, "--json")
    assert [e["status"] for e in envelope(out)["result"]["evidence"]] == ["ok", "malformed"]
    code, out, _ = run(
        "expand", "ev1:c:1:1:0", "--db", db, "--json", "--relationship-types", "next", "--types", "chunk"
    )
    assert [n["id"] for n in envelope(out)["result"]["neighbors"]] == ["ev1:c:1:1:1"]
    code, _, err = run("read", "acme-notes.md", "--db", db, "--collection", "nope")
    assert code == 1 and "unknown collection" in err  # unavailable, as a missing document is


def test_generated_tool_commands(db: str) -> None:
    code, out, _ = run("get_chunk", "ev1:c:1:1:1", "--db", db, "--json")
    assert code == 0 and envelope(out)["result"]["items"][0]["kind"] == "table"
    code, out, _ = run("navigate", "acme-notes.md", "0", "10", "--top-k", "999", "--db", db, "--json")
    result = envelope(out)["result"]
    assert code == 0 and result["applied"]["top_k"] == 50 and result["items"][0]["evidence_id"] == "ev1:c:1:1:1"
    code, out, _ = run("search", "okafor", "--db", db, "--filter", "title=nope", "--json")
    assert code == 1 and envelope(out)["status"] == envelope(out)["result"]["status"] == "no_match"
    code, out, err = run("search", "okafor", "--db", db, "--filter", "{bad", "--json")
    assert code == 2 and "filter" in err
    assert envelope(out)["status"] == "invalid" and envelope(out)["error"]["field"] == "filter"
    code, out, _ = run("retrieve", "who owns Orion Maps", "--queries", '[{"table": "notes"}]', "--generator", "none",
                       "--db", db, "--json")
    assert code == 0 and "ev1:c:1:1:1" in [h["evidence_id"] for h in envelope(out)["result"]["hits"]]
    code, _, err = run("read", "acme-notes.md", "--db", db, "--bogus", "1")
    assert code == 2 and "bogus: Extra inputs are not permitted" in err
