"""The benchmark scripts run, at a tiny scale, and their baselines still check out.

They are not timed here (timings belong to the scripts' JSON on a quiet machine); this keeps
them from rotting between the sessions that run them at scale: ``benchmarks/search.py``'s
row-filter baseline once stopped with an AttributeError after a refactor moved what it patched.
"""

import json
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any, Protocol

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def run(script: str, *args: str, cwd: Path) -> Any:
    """The script's last JSON document (some print one line per scale first)."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return last_document(done.stdout)


def last_document(stdout: str) -> Any:
    lines = stdout.splitlines()
    start = max(i for i, line in enumerate(lines) if line == "{")
    return json.loads("\n".join(lines[start:]))


def run_here(script: str, *args: str, cwd: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             ) -> Any:
    """``run`` in this process: the script as ``__main__`` (``runpy``), its arguments in ``sys.argv``, ``cwd`` its
    folder. For a script that imports litellm, 3.5 s of CPU in a process of its own, which the suite's collection
    imported already (the real-model tests run ``clew ask`` in this process too); for the others an interpreter
    and clew's imports, 0.6-0.9 s a run. What a script measures in processes of its own (servers, parse workers,
    the timed commands, the serving and ingest children) it still starts as processes. ``run`` is left for Ray's
    ingest (tests/evals/test_ray.py): that script is a Ray driver, and the test's process already drives the
    module's cluster."""
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / script), *args])
    monkeypatch.setattr(sys, "path", list(sys.path))  # the scripts put benchmarks/ on it
    capsys.readouterr()
    try:
        runpy.run_path(str(BENCHMARKS / script), run_name="__main__")
    except SystemExit as exit_:
        assert exit_.code in (None, 0), capsys.readouterr().err[-3000:]
    return last_document(capsys.readouterr().out)


BACKUP = "# Backups\n\nRun the nightly backup with the archive flag before midnight every day.\n"
BACKUP_AND_PAGING = {"backup.md": BACKUP, "paging.md": "# Paging\n\nPager duty rotates weekly between two teams.\n"}
"""A tiny set's pages: the answer on one, a second gold phrase on the other."""


def tiny_set(root: Path, pages: dict[str, str], **question: Any) -> None:
    """The dev set ``evals/tiny`` under ``root``: ``pages`` (their paths under its corpus, their text) and one
    question, ``tiny-001``, of the fields given."""
    folder = root / "evals" / "tiny"
    for path, text in pages.items():
        (folder / "corpus" / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / "corpus" / path).write_text(text)
    (folder / "questions.jsonl").write_text(json.dumps({"id": "tiny-001", **question}) + "\n")


class Runner(Protocol):
    def __call__(self, script: str, *args: str, cwd: Path) -> Any: ...


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Runner:
    """``run_here`` with this test's monkeypatch and capsys."""

    def run_script(script: str, *args: str, cwd: Path) -> Any:
        return run_here(script, *args, cwd=cwd, monkeypatch=monkeypatch, capsys=capsys)

    return run_script


def test_search_answers_the_row_filter_the_same_from_memory_and_in_sql(here: Runner, tmp_path: Path) -> None:
    out = here("search.py", "--scales", "1000", "--rounds", "1", "--peers", "", "--cache", str(tmp_path), cwd=tmp_path)
    assert out["1000"]["chunks"] == 1000
    assert out["1000"]["row_filter_held_equals_sql"] == "70/70"
    assert set(out["1000"]["clew"]) == {"rare", "mid", "mixed", "common", "all"}
    assert 50 < out["1000"]["serve_peak_memory_mb"] < out["targets"]["serve_peak_memory_mb_at_1m"]


def test_embed_stores_the_same_vectors_in_every_setting(here: Runner, tmp_path: Path) -> None:
    out = here("embed.py", "--chunks", "300", "--rounds", "1", cwd=tmp_path)
    assert out["corpus"]["chunks"] == 300
    assert {out[mode]["embedded"] for mode in ("shipped", "commit_per_batch", "before")} == {300}
    assert out["before_over_shipped"]["seconds"] > 0


def test_ingest_reports_throughput_against_the_parser(here: Runner, tmp_path: Path) -> None:
    html = tmp_path / "html"  # two pages, not the shared SQLite documentation (64 pages: 2.9 s of CPU)
    html.mkdir()
    for name, title in (("a.html", "Backups"), ("b.html", "Paging")):
        body = "".join(f"<h2>{title} {i}</h2><p>{title} step {i}: check the <code>row counts</code>.</p>"
                       for i in range(6))
        (html / name).write_text(f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>")
    out = here("ingest.py", "--chunks", "400", "--workers", "1", "--pdf-copies", "0", "--html", str(html), cwd=tmp_path)
    generated = out["generated_markdown"]["workers_1"]
    assert generated["chunks"] == 400
    assert generated["parser_seconds"] > 0 and generated["parser_ratio"] > 0
    pages = out["html"]["workers_1"]
    assert pages["documents"] == 2 and pages["chunks"] >= 2 and pages["parser_seconds"] is not None


def test_startup_times_every_command(here: Runner, tmp_path: Path) -> None:
    # no untimed warm-up round (6 more processes) and the bytecode the suite's imports wrote, not a fresh copy:
    # nothing here is timed against a target
    out = here("startup.py", "--runs", "1", "--warmups", "0", "--no-bytecode", cwd=tmp_path)
    assert out["runs"] == 1 and out["warmups"] == 0
    for command in ("python -c pass", "import clew.cli", "clew --help", "clew search", "clew nav"):
        assert out[command]["median_s"] > 0


def test_navigation_times_a_first_touch_read_only_and_read_write(here: Runner, tmp_path: Path) -> None:
    out = here("navigation.py", "--chunks", "500", "--starts", "10", "--cache", str(tmp_path), cwd=tmp_path)
    assert out["chunks"] == 500
    assert out["read_only"] and out["read_write"]


def test_vectors_numpy_and_duckdb_agree(here: Runner, tmp_path: Path) -> None:
    out = here("vectors.py", "--chunks", "2000", "--queries", "3", "--db", str(tmp_path / "v.duckdb"), cwd=tmp_path)
    assert out["numpy_agrees_with_duckdb"] is True
    assert out["filtered_hits_all_team_t3"] is True


def test_agent_measures_the_controller(here: Runner, tmp_path: Path) -> None:
    out = here("agent.py", "--chunks", "500", "--questions", "3", "--cache", str(tmp_path), cwd=tmp_path)
    assert out["chunks"] == 500
    assert out["controller_ms_per_step_excluding_model_and_store"]["mean"] > 0


def test_caller_counts_how_runs_end_and_what_mcp_returns(here: Runner, tmp_path: Path) -> None:
    evals = tmp_path / "evals" / "mini"
    (evals / "corpus").mkdir(parents=True)
    from clew.demo import DEMO_CORPUS

    for page in DEMO_CORPUS.glob("*.md"):
        (evals / "corpus" / page.name).write_text(page.read_text())
    (evals / "questions.jsonl").write_text(json.dumps({"id": "q1", "question": "Who is paged for a SEV1?"}) + "\n")
    out = here("caller.py", "--sets", "mini", "--budgets", "300,2000", "--evals", str(tmp_path / "evals"), cwd=tmp_path)
    for budget in ("300", "2000"):
        row = out["sets"]["mini"][budget]
        assert row["questions"] == 1 and sum(row["pairs"].values()) == 1
        assert row["text_per_evidence"] > 0 and row["ask_lines_max"] <= 30
    assert out["sets"]["mini"]["300"]["pairs"] == {"incomplete/context_budget": 1}


def test_agentic_compares_the_real_small_model_with_the_ranked_walk(
        here: Runner, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    from llama_server import missing

    if missing() is not None:
        pytest.skip(missing())
    llama = request.getfixturevalue("llama")  # the session's model server (tests/model_server.py)
    evals = tmp_path / "evals" / "mini"
    (evals / "corpus").mkdir(parents=True)
    from clew.demo import DEMO_CORPUS

    # two of the demo's four pages, the one with the evidence and the shortest: the walk still chooses between
    # documents, and its answer prompt reads about 460 tokens, not 1,040 (7 ms of CPU a token)
    for name in ("deploy-rollback.md", "security-contacts.md"):
        (evals / "corpus" / name).write_text((DEMO_CORPUS / name).read_text())
    (evals / "questions.jsonl").write_text(json.dumps({
        "id": "q1", "question": "What error rate means a deploy should be rolled back?",
        "evidence": ["stays above 2 percent for five minutes"]}) + "\n")
    out = here("agentic.py", "--sets", "mini", "--questions", "1", "--budget", "1000", "--answer-tokens", "16",
               "--select-tokens", "32", "--api-base", llama.api_base, "--evals", str(tmp_path / "evals"), cwd=tmp_path)
    row = out["sets"]["mini"]
    assert row["questions"] == 1 and row["evidence_recall"]["ranked"] == 1.0
    assert row["agentic_minus_ranked"] >= 0  # a model can only add


def test_limits_load_answers_every_request_at_a_limit_and_refuses_past_it(here: Runner, tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])
    out = here("limits_load.py", "--chunks", "300", "--clients", "1", "--seconds", "0.1", "--port", port, cwd=tmp_path)
    assert out["idle"]["errors"] == 0 and out["idle"]["p50_ms"] > 0
    for name, row in out["beside"].items():
        assert row["errors"] == 0 and row["ratio"] > 0
        assert set(row["heavy"]["statuses"]) == ({"400"} if name.endswith("_refused") else {"200"}), name


def test_oracle_timing_probes_a_denied_and_a_missing_read_alike(here: Runner, tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])
    # no warm-up: nothing is timed here; 4 rounds a probe (2 denied, 2 missing: quartiles and a held-out half
    # each), each round an upload and a probe (0.3 s of CPU: 12 rounds were 10.7 s, 4 are 5.9 s)
    out = here("oracle_timing.py", "--documents", "20", "--rounds", "4", "--warmup", "0", "--port", port,
              cwd=tmp_path)
    assert set(out["probes"]) == {"fetch", "read"}
    for probe in out["probes"].values():
        assert probe["denied"]["statuses"] == probe["missing"]["statuses"] == [404]
        assert probe["same_body"] is True
        assert probe["denied"]["n"] == probe["missing"]["n"] == 2
        assert 0 <= probe["holdout_accuracy"] <= 1 and 0.5 <= probe["best_accuracy"] <= 1


def test_parse_process_costs_a_file_in_a_worker_and_skips_the_hostile_one(here: Runner, tmp_path: Path) -> None:
    # every fixture but the ReportLab user guide, a PDF as the camlidl manual is: 1.2 s a parse, parsed six
    # times here, it was 7 of the test's 9 s of CPU
    out = here("parse_process.py", "--rounds", "2", "--starts", "1", "--files",
              "camlidl-manual.pdf,par-rendered-page-breaks.docx,sqlite-datatype3.docx", cwd=tmp_path)
    assert len(out["worker_start_s"]) == 1 and out["worker_start_s"][0] > 0
    assert {"one-line.pdf", "camlidl-manual.pdf", "sqlite-datatype3.docx"} <= set(out["per_file"])
    assert all(row["in_process_ms"] > 0 and row["worker_ms"] > 0 for row in out["per_file"].values())
    assert out["hostile"]["bound_s"] == 0.5 and out["hostile"]["warm_s"] < 10  # PDFium alone: ~13 s


def test_dev_recall_takes_a_set_given_as_a_folder_and_ingests_what_it_holds(here: Runner, tmp_path: Path) -> None:
    paging = "# Paging\n\nThe pager rotates weekly between the two teams.\n"
    tiny_set(tmp_path, {"guide/backup.md": BACKUP, "paging.md": paging},
             question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag"], sources=["backup.md"], kind="exact_term")
    out = here("dev_recall.py", "--sets", "evals/tiny", "--systems", "bm25", "--budgets", "1000", cwd=tmp_path)
    tiny = out["sets"]["tiny"]
    assert tiny["questions"] == 1 and tiny["chunks"] >= 2
    assert tiny["runs"]["bm25"]["1000"]["evidence_recall"] == 1.0


def test_dev_recall_dumps_each_questions_found_phrases_per_system_and_budget(here: Runner, tmp_path: Path) -> None:
    # issue 36's per-phrase diff of a walk against flat bm25 reads these lines (task W7)
    tiny_set(tmp_path, BACKUP_AND_PAGING, question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag", "rotates weekly between two teams"],
             sources=["backup.md", "paging.md"], kind="multi_hop")
    dump = tmp_path / "recall.jsonl"
    out = here("dev_recall.py", "--sets", "evals/tiny", "--systems", "bm25", "--budgets", "1000,2000", "--dump",
               str(dump), cwd=tmp_path)
    assert out["sets"]["tiny"]["runs"]["bm25"]["1000"]["evidence_recall"] == 0.5
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert [(r["set"], r["system"], r["budget"], r["id"], r["found"]) for r in rows] == [
        ("tiny", "bm25", 1000, "tiny-001", [True, False]), ("tiny", "bm25", 2000, "tiny-001", [True, False])]
    assert all(len(r["evidence_ids"]) == 1 and r["evidence_ids"][0].startswith("ev") for r in rows)


def test_dev_recall_merge_sections_lets_small_sections_share_a_chunk(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, {"ops.md": (
        "# Operations\n\n## Backups\n\nRun the nightly backup with the archive flag before midnight every day.\n\n"
        "## Paging\n\nThe pager rotates weekly between the two teams.\n\n"
        "## Alerts\n\nAlerts page the engineer on call.\n")},
             question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag"], sources=["ops.md"], kind="exact_term")
    args = ("--sets", "evals/tiny", "--systems", "bm25", "--budgets", "1000")
    apart, merged = (here("dev_recall.py", *args, *extra, cwd=tmp_path)["sets"]["tiny"]
                     for extra in ((), ("--merge-sections",)))
    assert (apart["merge_sections"], apart["chunks"], apart["chunks_under_25_tokens"]) == (False, 3, 3)
    assert (merged["merge_sections"], merged["chunks"], merged["chunks_under_25_tokens"]) == (True, 1, 0)
    assert merged["runs"]["bm25"]["1000"]["evidence_recall"] == 1.0


BURIED_ANSWER = {  # twelve pages rank above the answer; a walk takes its seed search's ten of them
    **{f"p{i:02d}.md": f"# Page {i}\n\nThe nightly backup of shard {i} runs" + " nightly backup" * (12 - i) + ".\n"
       for i in range(12)},
    "restore.md": "# Restore\n\nThe nightly backup is restored with the restore command.\n",
}


def test_walk_misses_says_when_flat_bm25s_own_pack_holds_what_the_walk_missed(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, BURIED_ANSWER, question="nightly backup", answers=["the restore command"],
             evidence=["restored with the restore command"], sources=["restore.md"], kind="exact_term")
    tiny = here("walk_misses.py", "--sets", "evals/tiny", "--budgets", "1000", cwd=tmp_path)["sets"]["tiny"]["1000"]
    assert [(m["at"], m["flat_rank"], m["flat_found"]) for m in tiny["misses"]] == [(["restore.md#0"], 13, True)]
    assert tiny["flat_found"] == 1


def test_walk_misses_places_a_missed_phrase_the_walk_never_saw_on_another_page(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, BACKUP_AND_PAGING, question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag", "rotates weekly between two teams"],
             sources=["backup.md", "paging.md"], kind="multi_hop")
    out = here("walk_misses.py", "--sets", "evals/tiny", "--budgets", "1000", cwd=tmp_path)
    tiny = out["sets"]["tiny"]["1000"]
    assert tiny["missed"] == 1
    assert tiny["misses"] == [{"id": "tiny-001", "kind": "multi_hop", "phrase": "rotates weekly between two teams",
                               "at": ["paging.md#0"], "where": "other_page", "offered": False, "flat_rank": None,
                               "flat_found": False}]
    assert tiny["by_cause"] == {"other_page/not_offered/none": 1}
    assert tiny["flat_found"] == 0
    assert tiny["route_gold"] == {"seed": 1}


def test_walk_takes_lists_each_take_and_the_fate_of_a_missed_phrase(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, BURIED_ANSWER, question="nightly backup", answers=["the restore command"],
             evidence=["restored with the restore command"], sources=["restore.md"], kind="exact_term")
    out = here("walk_takes.py", "--sets", "evals/tiny", "--budgets", "1000", cwd=tmp_path)["sets"]["tiny"]["1000"]
    assert (out["walk"], out["flat"], out["phrases"]) == (0, 1, 1)
    cell = out["questions"]["tiny-001"]
    assert cell["found"] == [0, 1, 1]
    assert cell["takes"][0]["via"] == "seed" and cell["takes"][0]["flat_rank"] == 1
    assert all(t["kept"] and not t["gold"] and t["worth"] <= t["priority"] for t in cell["takes"])
    [miss] = cell["misses"]
    [at] = miss["at"]
    assert (at["flat_rank"], at["in_flat_pack"], at["fate"], at["priority"]) == (13, True, "never_offered", None)


def test_walk_ceiling_finds_the_cheapest_cover_not_the_greedy_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from walk_ceiling import best_within, cover_costs

    # by new phrases per token a greedy cover takes c and d (10 tokens each), then b: 50 tokens; b and c hold all
    # three in 40
    passages = {"a": ("alpha beta", 50), "b": ("beta gamma", 30), "c": ("alpha", 10), "d": ("gamma", 10),
                "e": ("delta", 5)}
    cost = cover_costs(["alpha", "beta", "gamma"], passages)
    assert cost[0b111] == 40
    assert cost[0b101] == 20  # alpha and gamma: c and d
    assert [best_within(cost, budget) for budget in (9, 10, 30, 39, 40)] == [0, 1, 2, 2, 3]


def test_walk_ceiling_reports_the_oracle_and_how_the_walk_fills_its_budget(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, BACKUP_AND_PAGING, question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag", "rotates weekly between two teams",
                       "a phrase no page holds"], sources=["backup.md", "paging.md"], kind="multi_hop")
    tiny = here("walk_ceiling.py", "--sets", "evals/tiny", "--budgets", "3,1000", cwd=tmp_path)["sets"]["tiny"]
    oracle = tiny["oracle"]
    assert (oracle["phrases"], oracle["unheld"], oracle["all_tokens"]["max"]) == (3, 1, None)
    assert oracle["budgets"]["3"] == {"recall": 0.0, "by_kind": {"multi_hop": 0.0}, "all_within": 0.0}
    assert oracle["budgets"]["1000"] == {"recall": 0.667, "by_kind": {"multi_hop": 0.667}, "all_within": 0.0}
    walk = tiny["walk"]["1000"]  # the walk finds the backup page's passage only, and stops with room to spare
    assert (walk["recall"], walk["runs"]) == (0.333, 1)
    assert 0 < walk["used_share"] < 0.1 and walk["mean_left"] > 900
    assert (walk["left_fits"], walk["left_fits_gold"]) == (0, 0)  # flat bm25's top 100 holds nothing else


def test_walk_floor_displaces_the_lowest_worth_takes_only_when_the_flat_hit_is_worth_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from walk_floor import Rule, Take, floored

    # a seed hit, a link target and a section mate: 200 tokens, the budget full
    walk = [Take("a", "a", 100, 10.0, "seed"), Take("b", "b", 60, 3.0, "links"), Take("c", "c", 40, 5.0, "children")]
    flat = [Take("a", "a", 100, 10.0, "flat"), Take("d", "d", 80, 6.0, "flat")]

    def ids(spec: str, budget: int = 200) -> list[str]:
        return [t.id for t in floored(walk, flat, budget, Rule.parse(spec))]

    # d (80 tokens, worth 6) takes the room of the link target (3) and the section mate (5); the seed hit stays
    assert ids("top=all,margin=1,routes=nonseed,drop=99") == ["a", "d"]
    assert ids("top=all,margin=1.5,routes=nonseed,drop=99") == ["a", "b", "c"]  # 5 x 1.5 is not below 6
    assert ids("top=all,margin=1,routes=nonseed,drop=1") == ["a", "b", "c"]  # one take frees 60 of the 80
    assert ids("top=all,margin=1,routes=links,drop=99") == ["a", "b", "c"]
    assert ids("top=100,margin=1,routes=all,drop=99") == ["a", "d"]  # budget / 100: the flat pack's top 2 may come
    assert ids("top=200,margin=1,routes=all,drop=99") == ["a", "b", "c"]  # budget / 200: its top 1, already taken
    assert ids("top=all,margin=1,routes=nonseed,drop=99", budget=280) == ["a", "b", "c", "d"]  # room left: added
    best = Rule.parse("top=all,least=0.5")  # d comes in only when worth half the best seed hit
    assert [t.id for t in floored(walk, flat, 200, best, best=12.0)] == ["a", "d"]
    assert [t.id for t in floored(walk, flat, 200, best, best=12.1)] == ["a", "b", "c"]
    assert [t.id for t in floored(walk, [Take("e", "b", 60, 9.0, "flat")], 200, Rule.parse("top=all"))] == [
        "a", "b", "c"]  # the same text as a take: already held


def test_walk_floor_counts_the_phrases_of_bm25_the_walk_and_each_rule(here: Runner, tmp_path: Path) -> None:
    tiny_set(tmp_path, BACKUP_AND_PAGING, question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup with the archive flag", "rotates weekly between two teams"],
             sources=["backup.md", "paging.md"], kind="multi_hop")
    out = here("walk_floor.py", "--sets", "evals/tiny", "--budgets", "1000", "--rules", "top=200,margin=1.1",
               cwd=tmp_path)
    assert out["rules"] == ["top=200,margin=1.1"]
    assert out["sets"]["tiny"]["1000"] == {"bm25": 1, "walk": 1, "rules": {"top=200,margin=1.1": 1},
                                           "changed": {"top=200,margin=1.1": {}}}


def test_absent_flags_a_question_asked_of_another_sets_corpus_and_not_of_its_own(here: Runner,
                                                                                  tmp_path: Path) -> None:
    tiny_set(tmp_path, {"backup.md": BACKUP}, question="When does the nightly backup run?", answers=["before midnight"],
             evidence=["run the nightly backup"], sources=["backup.md"], kind="exact_term")
    other = tmp_path / "evals" / "other"
    (other / "corpus").mkdir(parents=True)
    (other / "corpus" / "paging.md").write_text("# Paging\n\nPager duty rotates weekly between two teams. The backup "
                                                  "pager is the team lead.\n")
    (other / "questions.jsonl").write_text(json.dumps({"id": "other-001", "question": "Which teams does pager duty "
                                                       "rotate between?", "answers": ["weekly"]}) + "\n")
    out = here("absent.py", "--sets", "evals/tiny,evals/other", cwd=tmp_path)
    assert (out["own"]["tiny"]["share"], out["own"]["other"]["share"]) == (0.0, 0.0)
    # "backup" finds the pager's page, which says nothing of nightly runs; the pager's question finds nothing
    assert out["cross"]["tiny on other"]["questions_flagged"][0]["absent"] == ["nightly", "run"]
    assert out["cross"]["other on tiny"]["questions_flagged"][0]["absent"] is None
    assert (out["cross"]["other on tiny"]["share"], out["cross"]["other on tiny"]["no_answer"]) == (1.0, 1)
