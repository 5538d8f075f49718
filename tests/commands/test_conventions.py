"""The conventions every ``clew`` command shares: version, ``python -m clew``, completion,
``py.typed``, help, logging, exit statuses, the JSON envelope, configuration discovery and
defaults, and tables that keep evidence ids whole and document text as text."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import clew
from clew.cli import COMMANDS, app
from clew.commands.common import ERROR_STATUS, EXIT_CODES
from clew.commands.show import search_table
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS
from clew.errors import ClewError
from tests.envelope import KEYS, envelope

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Who is paged for a SEV1 incident?"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled runbooks in one collection, ``runbooks`` (ingest's default would be ``default``)."""
    db = tmp_path_factory.mktemp("demo") / "demo.duckdb"
    done = runner.invoke(app, ["ingest", str(DEMO_CORPUS), "--db", str(db), "--collection", "runbooks"])
    assert done.exit_code == 0, done.output
    return db


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A working folder with no clew.toml and no CLEW_* variables."""
    for name in ("CLEW_CONFIG", "CLEW_LOG", "CLEW_DATABASE", "CLEW_DEFAULT_COLLECTION", "CLEW_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    logging.getLogger("clew").setLevel(logging.NOTSET)


# -- version, python -m clew, completion, py.typed ------------------------------------------


def test_version_and_python_m_clew() -> None:
    shown = runner.invoke(app, ["--version"])
    assert shown.exit_code == 0 and shown.stdout.strip() == f"clew {clew.__version__}"
    ran = subprocess.run([sys.executable, "-m", "clew", "--version"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == f"clew {clew.__version__}", ran.stderr


def test_shell_completion_is_offered() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).stdout
    # the shell named, not detected: typer otherwise asks shellingham for the parent shell, and a
    # test run without one (a CI runner, a detached process) would get "Shell  not supported"
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    ran = subprocess.run([sys.executable, "-m", "clew", "--show-completion", "bash"], capture_output=True, text=True,
                         timeout=120, env=env)
    assert ran.returncode == 0 and "complete" in ran.stdout and "_CLEW_COMPLETE" in ran.stdout.upper(), ran.stderr


def test_py_typed_ships_with_the_package() -> None:
    assert (Path(clew.__file__).parent / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["clew"]


# -- --help: choices, one example per command -------------------------------------------------


def test_every_command_shows_an_example() -> None:
    names = list(COMMANDS)
    assert len(names) > 20 and {"ingest", "ask", "search", "nav", "config"} <= set(names)
    top = " ".join(runner.invoke(app, ["--help"]).stdout.split())
    assert "Exit status: 0 ok, 1 nothing found or unavailable, 2 bad input, 3 store or model failure" in top
    assert "Example: clew ingest docs/" in top
    for name in names:
        shown = runner.invoke(app, [name, "--help"])
        assert shown.exit_code == 0, name
        assert f"Example: clew {name} " in shown.stdout, name


def test_the_listing_names_the_short_names_the_docs_use() -> None:
    """The README and getting-started read a passage with `clew fetch ID`, a command `clew --help` did not list
    (hidden beside `fetch_evidence`, as `nav`, `expand` and `slice` are; task U36): its epilog names each."""
    top = " ".join(runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).stdout.split())
    assert ("Short names: nav (navigate_document_tree), expand (expand_neighbors), slice (fetch_slice), "
            "fetch (fetch_evidence).") in top


def test_the_binary_size_limit_names_every_format_it_bounds() -> None:
    """``--max-binary-mib`` bounds PDF, DOCX and EPUB files (``BINARY_FORMATS``); its help named PDF and DOCX
    only, as from before EPUB files were read (task U36)."""
    from clew.corpus.ingest.sources import BINARY_FORMATS

    shown = " ".join(runner.invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"}).stdout.split())
    line = shown[shown.index("--max-binary-mib"):][:120]
    assert all(fmt.upper() in line for fmt in BINARY_FORMATS), line


@pytest.mark.parametrize(("words", "choices"), [
    (["ask"], ["tree|graph|free", "ranked|agentic", "out|in|both"]),
    (["search"], ["bm25|vector|hybrid"]),
    (["navigate_document_tree"], ["<parent|siblings|children|"]),
    (["eval"], ["clew|multihop|beir", "local|ray"]),
])
def test_enumerations_are_shown_as_choices(words: list[str], choices: list[str]) -> None:
    shown = runner.invoke(app, [*words, "--help"]).stdout
    for choice in choices:
        assert choice in shown
    refused = runner.invoke(app, ["ask", "q", "--strategy", "sideways"])
    assert refused.exit_code == 2 and "sideways" in refused.output


# -- logging ----------------------------------------------------------------------------------


def test_verbose_and_clew_log_configure_the_clew_logger(demo_db: Path, elsewhere: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = runner.invoke(app, ["stats", "--db", str(demo_db)])
    assert quiet.exit_code == 0 and "clew: INFO" not in quiet.stderr
    loud = runner.invoke(app, ["-v", "ask", QUESTION, "--db", str(demo_db)])
    assert loud.exit_code == 0, loud.output
    assert "clew: INFO clew.cli: collection: runbooks (the corpus's only collection)" in loud.stderr
    assert "clew: INFO" not in loud.stdout
    assert logging.getLogger("clew").level == logging.INFO
    assert runner.invoke(app, ["-vv", "stats", "--db", str(demo_db)]).exit_code == 0
    assert logging.getLogger("clew").level == logging.DEBUG
    monkeypatch.setenv("CLEW_LOG", "info")
    assert "clew: INFO clew.cli: corpus:" in runner.invoke(app, ["stats", "--db", str(demo_db)]).stderr
    monkeypatch.setenv("CLEW_LOG", "chatty")
    bad = runner.invoke(app, ["stats", "--db", str(demo_db)])
    assert bad.exit_code == 2 and "CLEW_LOG" in bad.stderr and "debug, info, warning" in bad.stderr


# -- exit statuses ------------------------------------------------------------------------------


def test_every_error_class_has_an_exit_status() -> None:
    def classes(base: type) -> list[type]:
        return [base, *(c for sub in base.__subclasses__() for c in classes(sub))]

    for cls in classes(ClewError):
        assert cls.exit_code in (1, 2, 3), cls  # type: ignore[attr-defined]
    assert set(EXIT_CODES.values()) == {0, 1, 2, 3} and set(ERROR_STATUS) == {1, 2, 3}


def test_exit_statuses_are_the_same_across_commands(demo_db: Path, elsewhere: Path) -> None:
    db = ["--db", str(demo_db)]
    not_a_corpus = elsewhere / "not.duckdb"
    not_a_corpus.write_text("plain text, not a DuckDB file\n")
    cases = {
        0: [["search", "SEV1", *db], ["ask", QUESTION, *db], ["ls", *db], ["outline", "incident-response.md", *db]],
        1: [["search", "zzzqqq", *db], ["nav", "ev1:c:99:1:0", "next", *db], ["outline", "nope.md", *db],
            ["search", "SEV1", "--collection", "nope", *db], ["rm", "nope.md", *db]],
        2: [["search", "SEV1", "--db", str(elsewhere / "missing.duckdb")], ["nav", "ev1:c:1:1:0", "cousins", *db],
            ["nav", "not-an-id", "next", *db], ["ask", QUESTION, "--max-depth", "x", *db],
            ["ingest", str(elsewhere / "missing-folder"), *db], ["stats"]],
        3: [["stats", "--db", str(not_a_corpus)], ["search", "SEV1", "--db", str(not_a_corpus)]],
    }
    for code, runs in cases.items():
        for words in runs:
            ran = runner.invoke(app, words)
            assert ran.exit_code == code, (words, ran.output)
            assert "Traceback" not in ran.output and ran.exception is None or isinstance(ran.exception, SystemExit)


# -- the JSON envelope ----------------------------------------------------------------------------


def test_every_json_output_is_one_envelope(demo_db: Path, elsewhere: Path) -> None:
    db = ["--db", str(demo_db)]
    edges = elsewhere / "edges.jsonl"
    edges.write_text('{"graph": "g", "src": "incident-response.md", "dst": "deploy-rollback.md", "type": "next"}\n')
    questions = elsewhere / "q.jsonl"
    questions.write_text('{"id": "a", "question": "Who is paged for a SEV1?", "answer": "incident commander", '
                         '"evidence_ids": []}\n')
    copy = elsewhere / "copy.duckdb"
    runs = {
        "ingest": ["ingest", str(DEMO_CORPUS), "--db", str(copy)],
        "ingest-edges": ["ingest-edges", str(edges), "--db", str(copy)],
        "stats": ["stats", *db], "ls": ["ls", *db], "outline": ["outline", "incident-response.md", *db],
        "rm": ["rm", "incident-response.md", "--db", str(copy)],
        "embed": ["embed", "--db", str(copy), "--model", "hashing"],
        "search": ["search", "SEV1", *db], "nav": ["nav", "ev1:c:1:1:0", "next", *db],
        "fetch_evidence": ["fetch_evidence", "ev1:c:1:1:0", *db], "retrieve": ["retrieve", QUESTION, *db],
        "ask": ["ask", QUESTION, *db],
        "batch": ["batch", str(questions), "--out", str(elsewhere / "a.jsonl"), *db],
    }
    for command, words in runs.items():
        ran = runner.invoke(app, [*words, "--json"])
        assert ran.exit_code == 0, (command, ran.output)
        body = envelope(ran.stdout)
        assert (body["command"], body["exit_code"], body["error"]) == (command, 0, None), body
        assert body["status"] in ("ok", "incomplete") and body["result"] is not None
        assert body["applied"]["database"] in (str(demo_db), str(copy))
    asked = envelope(runner.invoke(app, ["ask", QUESTION, *db, "--max-iterations", "7", "--json"]).stdout)
    assert asked["status"] == asked["result"]["status"] and asked["applied"]["collection"] == "runbooks"
    assert asked["applied"]["max_internal_iterations"] == asked["result"]["applied"]["max_internal_iterations"] == 7


def test_errors_under_json_are_envelopes_too(demo_db: Path, elsewhere: Path) -> None:
    ran = runner.invoke(app, ["search", "SEV1", "--limit", "3", "--filter", "{bad", "--db", str(demo_db), "--json"])
    body = envelope(ran.stdout)
    assert ran.exit_code == body["exit_code"] == 2 and body["status"] == "invalid" and body["result"] is None
    assert body["error"]["field"] == "filter" and body["error"]["kind"] == "input"
    missing = envelope(runner.invoke(app, ["search", "x", "--collection", "nope", "--db", str(demo_db),
                                           "--json"]).stdout)
    assert (missing["status"], missing["exit_code"], missing["error"]["kind"]) == ("unavailable", 1, "unavailable")
    nothing = envelope(runner.invoke(app, ["search", "zzzqqq", "--db", str(demo_db), "--json"]).stdout)
    assert (nothing["status"], nothing["exit_code"], nothing["error"]) == ("no_match", 1, None)
    assert set(nothing) == KEYS


# -- configuration discovery and defaults ------------------------------------------------------------


def test_one_collection_is_used_and_two_need_naming(demo_db: Path, elsewhere: Path) -> None:
    walked = runner.invoke(app, ["ask", QUESTION, "--db", str(demo_db)])
    assert walked.exit_code == 0 and "\nok: " in walked.stdout, walked.output
    two = elsewhere / "two.duckdb"
    for name in ("a", "b"):
        assert runner.invoke(app, ["ingest", str(DEMO_CORPUS), "--db", str(two), "--collection", name]).exit_code == 0
    refused = runner.invoke(app, ["ask", QUESTION, "--db", str(two)])
    assert refused.exit_code == 2 and "has 2 (a, b)" in refused.stderr and "--collection" in refused.stderr
    assert runner.invoke(app, ["ask", QUESTION, "--db", str(two), "--collection", "b"]).exit_code == 0


def test_clew_toml_in_the_working_folder_supplies_the_defaults(demo_db: Path, elsewhere: Path) -> None:
    (elsewhere / "data").mkdir()
    (elsewhere / "data" / "corpus.duckdb").write_bytes(demo_db.read_bytes())
    (elsewhere / "clew.toml").write_text(
        'database = "data/corpus.duckdb"\ndefault_collection = "runbooks"\nmodel = "openai/local"\n'
        '[model_options]\napi_base = "http://127.0.0.1:9/v1"\n[model_options.extra]\nmock_response = "From toml."\n')
    asked = runner.invoke(app, ["ask", QUESTION, "--json"])
    assert asked.exit_code == 0, asked.output
    body = envelope(asked.stdout)
    assert body["applied"]["config"] == "clew.toml" and body["applied"]["collection"] == "runbooks"
    assert body["applied"]["database"] == str(Path("data/corpus.duckdb")) and body["applied"]["model"] == "openai/local"
    generation = body["result"]["generation"]  # the model options reached the model: it answered, citing nothing
    assert generation["kind"] == "extract" and "openai/local" in generation["fallback"]
    for words in (["stats"], ["ls"], ["search", "SEV1"], ["nav", "ev1:c:1:1:0", "next"]):
        assert runner.invoke(app, [*words, "--json"]).exit_code == 0, words


def test_clew_config_names_the_file_and_a_relative_database_is_beside_it(demo_db: Path, elsewhere: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = elsewhere / "conf"
    folder.mkdir()
    (folder / "corpus.duckdb").write_bytes(demo_db.read_bytes())
    (folder / "settings.toml").write_text('database = "corpus.duckdb"\n')
    monkeypatch.setenv("CLEW_CONFIG", str(folder / "settings.toml"))
    ran = runner.invoke(app, ["stats", "--json"])
    assert ran.exit_code == 0, ran.output
    assert envelope(ran.stdout)["applied"]["database"] == str(folder / "corpus.duckdb")
    checked = runner.invoke(app, ["config", "check"])
    assert checked.exit_code == 0 and "settings.toml: ok" in checked.stdout
    monkeypatch.setenv("CLEW_CONFIG", str(folder / "nope.toml"))
    missing = runner.invoke(app, ["stats"])
    assert missing.exit_code == 2 and "CLEW_CONFIG" in missing.stderr and "nope.toml: no such file" in missing.stderr
    monkeypatch.delenv("CLEW_CONFIG")
    monkeypatch.setenv("CLEW_DATABASE", str(demo_db))  # a variable alone, no file
    assert runner.invoke(app, ["stats"]).exit_code == 0
    monkeypatch.delenv("CLEW_DATABASE")
    none = runner.invoke(app, ["stats"])
    assert none.exit_code == 2 and "pass --db FILE, or set database in clew.toml" in none.stderr


def test_budgets_of_the_config_and_max_iterations_reach_ask(demo_db: Path, elsewhere: Path) -> None:
    (elsewhere / "clew.toml").write_text(f'database = "{demo_db}"\n[budgets]\ncontext_budget_tokens = 1500\n')
    body = envelope(runner.invoke(app, ["ask", QUESTION, "--max-iterations", "5", "--json"]).stdout)
    applied = body["result"]["applied"]
    assert (applied["context_budget_tokens"], applied["max_internal_iterations"]) == (1500, 5)
    body = envelope(runner.invoke(app, ["ask", QUESTION, "--context-tokens", "3000", "--json"]).stdout)
    assert body["result"]["applied"]["context_budget_tokens"] == 3000  # the command line goes over the config


# -- tables: whole evidence ids, text as text -----------------------------------------------------------


def test_the_search_table_keeps_evidence_ids_whole_at_80_columns(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "a-rather-long-folder-name" / "and-a-subfolder").mkdir(parents=True)
    long = folder / "a-rather-long-folder-name" / "and-a-subfolder" / "with-a-long-document-name.md"
    long.write_text("# A heading that goes on for quite a while\n\n"
                    + "Checkpoint starvation [see the WAL notes]. " * 30)
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        clew.ingest_paths(corpus, [folder], collection="docs", chunk_tokens=64)
        hits = search(corpus, {"query": "checkpoint starvation", "limit": 5})
    assert hits.hits
    for width in (60, 80, 120):
        buffer = io.StringIO()
        Console(file=buffer, width=width).print(search_table(hits, width))
        text = buffer.getvalue()
        assert max(len(line) for line in text.splitlines()) <= width
        for hit in hits.hits:
            assert hit.evidence_id in text, (width, hit.evidence_id)
        assert "[see the WAL notes]" in text or "[see the" in text  # markup-like text is printed, not eaten


def test_an_outline_row_too_long_wraps_under_its_branch_without_a_trailing_blank() -> None:
    from rich.tree import Tree

    from clew.commands.common import print_wrapped

    root = Tree("Building applications  document, 16 passages, 2,493 tokens, ev1:d:2:1")
    branch = root.add("Link with the right libraries  section, 10 passages, 1,437 tokens, ev1:s:2:1:4")
    branch.add("With MinGW or Visual C++ on Windows  section, 1 passage, 152 tokens, ev1:s:2:1:5")
    for terminal in (False, True):  # piped, and a terminal's colours (style codes after the blank)
        buffer = io.StringIO()
        print_wrapped(Console(file=buffer, width=60, force_terminal=terminal), root)
        text = buffer.getvalue()
        plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
        lines = plain.splitlines()
        assert len(lines) > 3 and max(len(line) for line in lines) <= 60, plain  # rows wrapped
        assert [line for line in lines if line != line.rstrip()] == [], plain
        assert all(f"ev1:s:2:1:{n}" in plain for n in (4, 5)), plain  # the ids whole
        words = " ".join(line.strip(" │├└─") for line in lines).split()
        assert words[:9] == "Building applications document, 16 passages, 2,493 tokens, ev1:d:2:1 Link".split()


def _last_cells(table: str) -> list[str]:
    """The last column of a rendered table, one string per row (its wrapped lines joined)."""
    cells: list[str] = []
    for line in table.splitlines():
        parts = line.split("│")
        if len(parts) < 3:  # a rule or the header box
            continue
        if parts[1].strip():  # a rank: a new row
            cells.append("")
        cells[-1] += " " + parts[-2].strip()
    return [" ".join(cell.split()) for cell in cells]


def test_clew_search_at_80_columns_keeps_the_document_and_its_last_heading_readable(tmp_path: Path) -> None:
    folder = tmp_path / "docs" / "operations-handbook"
    folder.mkdir(parents=True)
    (folder / "storage-engine-maintenance.md").write_text(
        "# Storage engine maintenance for the primary cluster\n\n## Write-ahead log\n\n"
        "### Checkpoint starvation when readers never finish\n\n"
        + "Checkpoint starvation happens when a reader holds the log. " * 8 + "\n")
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(tmp_path / "docs"), "--db", str(db)]).exit_code == 0
    key = "operations-handbook/storage-engine-maintenance.md"
    for width, shown in ((80, f"{key} › … › Checkpoint starvation when readers never finish"),
                         (200, f"{key} › Storage engine maintenance for the primary cluster › Write-ahead log › "
                               "Checkpoint starvation when readers never finish")):
        ran = runner.invoke(app, ["search", "checkpoint starvation", "--db", str(db), "--limit", "2"],
                            env={"COLUMNS": str(width)})
        assert ran.exit_code == 0, ran.output
        assert max(len(line) for line in ran.stdout.splitlines()) <= width
        cells = _last_cells(ran.stdout)
        assert cells and all(cell.startswith(shown + " ") for cell in cells), (width, cells)
        assert all("Checkpoint starvation happens" in cell for cell in cells)  # the text follows the place


def test_document_text_is_never_read_as_markup(tmp_path: Path) -> None:
    page = tmp_path / "links.md"
    page.write_text("# Links [draft]\n\nSee [link text] and [bold]not bold[/bold] for [red]details[/red].\n")
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(page), "--db", str(db)]).exit_code == 0
    shown = runner.invoke(app, ["get_chunk", "ev1:c:1:1:0", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert "[link text]" in shown.stdout and "[bold]not bold[/bold]" in shown.stdout
    assert "[red]details[/red]" in shown.stdout and "Links [draft]" in shown.stdout
    found = runner.invoke(app, ["search", "link text", "--db", str(db)])
    (cell,) = _last_cells(found.stdout)  # its wrapped lines joined
    assert cell == "links.md › Links [draft] See [link text] and [bold]not bold[/bold] for [red]details[/red]."
    listed = runner.invoke(app, ["outline", "links.md", "--db", str(db)])
    assert "Links [draft]" in listed.stdout


def test_a_query_alone_walks_the_only_collection_in_python_and_the_cli(demo_db: Path, elsewhere: Path) -> None:
    with Corpus(demo_db, read_only=True) as corpus:
        assert clew.retrieve_sync({"query": QUESTION}, corpus=corpus).applied["collection"] == "runbooks"
    ran = runner.invoke(app, ["retrieve", QUESTION, "--db", str(demo_db), "--json"])  # the only collection
    assert ran.exit_code == 0 and envelope(ran.stdout)["applied"]["collection"] == "runbooks", ran.output


def test_an_unexpected_error_exits_3_and_logs_its_traceback_at_debug(demo_db: Path, elsewhere: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr("clew.corpus.store.Corpus.stats", broken)
    ran = runner.invoke(app, ["stats", "--db", str(demo_db), "--json"])
    assert ran.exit_code == 3 and "unexpected KeyError: 'a bug'" in ran.stderr and "Traceback" not in ran.stderr
    assert envelope(ran.stdout)["status"] == "failed"
    traced = runner.invoke(app, ["-vv", "stats", "--db", str(demo_db)])
    assert traced.exit_code == 3 and "Traceback" in traced.stderr and "KeyError: 'a bug'" in traced.stderr


def test_search_without_a_configuration_loads_no_configuration_code(demo_db: Path, elsewhere: Path) -> None:
    script = ("import json, sys\nfrom clew.cli import app\ntry:\n"
              f"    app(['search', 'SEV1', '--db', {str(demo_db)!r}, '--json'])\nexcept SystemExit as done:\n"
              "    code = done.code\nprint(json.dumps([code, sorted(sys.modules)]))")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=elsewhere)
    code, loaded = json.loads(ran.stdout.splitlines()[-1])
    assert code == 0, ran.stderr
    assert [m for m in loaded if m.startswith(("clew.server", "clew.agent", "pydantic_settings"))] == []


def test_the_setting_variables_cover_every_configuration_field() -> None:
    from clew.commands.common import SETTING_VARIABLES
    from clew.config.settings import ServerConfig

    for name in ServerConfig.model_fields:
        assert f"CLEW_{name.upper()}".startswith(SETTING_VARIABLES), name
