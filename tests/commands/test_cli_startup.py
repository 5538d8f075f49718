"""The command line loads lazily: ``COMMANDS`` lists every command, and a command imports only
what it runs."""

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from clew.cli import COMMANDS, load_command
from clew.commands.tools import tool_commands
from tests.conftest import python_output, write_files

HEAVY = ("pyarrow", "numpy", "markdown_it", "litellm", "fastapi", "mcp", "yaml")
MODULES = ("corpus", "documents", "embed", "ask", "evals", "serve")


def _loaded_after(code: str) -> set[str]:
    """Top-level packages among ``HEAVY`` (and clew's own modules) loaded by ``code`` in a fresh interpreter."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    return set(json.loads(python_output(script).splitlines()[-1]))


def _summary(command: object) -> str:
    text = command.short_help or command.help or ""  # type: ignore[attr-defined]
    return inspect.cleandoc(text).split("\n\n")[0].replace("\n", " ").strip()


def test_import_cli_loads_no_heavy_library() -> None:
    loaded = _loaded_after("import clew.cli")
    assert sorted(m for m in loaded if m.split(".")[0] in (*HEAVY, "rich", "duckdb", "pydantic")) == []
    assert sorted(m for m in loaded if m.startswith("clew.")) == ["clew._offline", "clew.cli"]


def test_help_imports_no_command_module_and_no_rich() -> None:
    loaded = _loaded_after("from clew.cli import app\ntry:\n    app(['--help'])\nexcept SystemExit:\n    pass")
    assert [m for m in loaded if m.startswith("clew.commands")] == []
    # help is plain text: typer's rich help would load rich, markdown_it, pygments and attrs
    assert [m for m in loaded if m.split(".")[0] in (*HEAVY, "rich", "pygments", "attr", "pydantic")] == []


def test_every_command_prints_plain_help() -> None:
    for name in COMMANDS:
        assert load_command(name).rich_markup_mode is None, name  # type: ignore[attr-defined]


def test_an_ingest_of_markdown_loads_no_pdf_or_docx_reader(tmp_path: Path) -> None:
    """The PDF and DOCX readers (pypdfium2, pdfplumber, python-docx and their layout rules) are imported by the
    first file of theirs, not by every ``clew ingest`` and ``clew serve``."""
    folder = write_files(tmp_path / "notes", {"backups.md": "# Backups\n\nRestore the latest backup.\n"})
    argv = ["clew", "ingest", "--db", str(tmp_path / "notes.duckdb"), str(folder)]
    loaded = _loaded_after(f"import sys\nfrom clew.cli import main\nsys.argv = {argv!r}\ntry:\n    main()\n"
                           "except SystemExit as done:\n    assert not done.code, done.code")
    assert "clew.corpus.ingest.formats.markdown" in loaded
    assert sorted(m for m in loaded if m.split(".")[0] in ("pypdfium2", "pdfplumber", "docx")
                  or m.startswith(("clew.corpus.ingest.formats.pdf", "clew.corpus.ingest.formats.docx",
                                    "clew.corpus.ingest.formats.epub"))) == []


def test_search_and_nav_load_neither_the_agent_nor_the_parsers(tmp_path: Path) -> None:
    code = ("from clew.cli import load_command\nload_command('search'); load_command('nav')\n"
            "import clew.commands.show")
    loaded = _loaded_after(code)
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []
    assert [m for m in loaded if m.startswith(("clew.agent", "clew.corpus.ingest",
                                               "clew.server", "clew.evals"))] == []


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.store import Corpus

    folder = tmp_path_factory.mktemp("startup")
    (folder / "guide.md").write_text("# Guide\n\n## Timeouts\n\nThe busy timeout waits.\n\n## Locks\n\nLocks wait.\n")
    db = folder / "small.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [folder], glob="*.md", chunk_tokens=DEFAULT_CHUNK_TOKENS)
    return db


OTHER_TOOLS = ("clew.navigation.reading", "clew.navigation.slices", "clew.navigation.evidence")
UNNEEDED = ("clew.agent", "clew.surface", "clew.server", "clew.evals", "clew.corpus.ingest",
            "clew.commands.render", "clew.commands.models",
            "concurrent", *OTHER_TOOLS)


@pytest.mark.parametrize(("argv", "needs", "never"), [
    (["search", "busy timeout"], ["clew.tools.search"], ["clew.navigation.tree", "clew.navigation.graph"]),
    (["nav", "ev1:c:1:1:0", "parent"], ["clew.navigation.tree"], ["clew.tools.search", "clew.corpus.search.api"]),
])
def test_a_tool_command_loads_its_own_tool_only(small_db: Path, argv: list[str], needs: list[str],
                                                never: list[str]) -> None:
    code = (f"import sys\nsys.argv = {['clew', *argv, '--db', str(small_db)]!r}\nfrom clew.cli import main\n"
            "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code")
    loaded = _loaded_after(code)
    assert set(needs) <= loaded
    assert [m for m in loaded if m.startswith((*UNNEEDED, *never))] == []
    assert [m for m in loaded if m.split(".")[0] in (*HEAVY, "asyncio")] == []


def test_serve_loads_no_mcp_module(small_db: Path) -> None:
    """``clew serve`` (REST) runs nothing of the MCP SDK: up to the server's start (``uvicorn.run``, here a stand-in
    that returns) it imports FastAPI and no ``mcp`` module (0.3 s of CPU a start), nor the write path (the readers,
    the chunker: about 0.14 s), which the first upload loads."""
    argv = ["clew", "serve", "--db", str(small_db), "--no-auth", "--port", "0"]
    loaded = _loaded_after(f"import sys, uvicorn\nuvicorn.run = lambda app, **options: print(type(app).__name__)\n"
                           f"from clew.cli import main\nsys.argv = {argv!r}\ntry:\n    main()\n"
                           "except SystemExit as done:\n    assert not done.code, done.code")
    assert {"fastapi", "clew.server.rest"} <= loaded
    assert sorted(m for m in loaded if m.split(".")[0] in ("mcp", "mcp_types")) == []
    assert sorted(m for m in loaded if m in ("clew.corpus.ingest.api", "clew.corpus.ingest.prepare")) == []


def test_mcp_over_stdio_loads_no_fastapi(small_db: Path) -> None:
    """``clew mcp`` over stdio runs no REST code: up to serving (``MCPServer.run``, here a stand-in that returns)
    it imports the MCP SDK and neither FastAPI nor clew's REST module (0.2 s of CPU a start)."""
    argv = ["clew", "mcp", "--db", str(small_db)]
    loaded = _loaded_after("import sys\nfrom mcp.server.mcpserver import MCPServer\n"
                           "MCPServer.run = lambda self, *args, **options: print(type(self).__name__)\n"
                           f"from clew.cli import main\nsys.argv = {argv!r}\ntry:\n    main()\n"
                           "except SystemExit as done:\n    assert not done.code, done.code")
    assert {"mcp", "clew.server.mcp"} <= loaded
    assert sorted(m for m in loaded if m.split(".")[0] == "fastapi" or m.startswith("clew.server.r")) == []


def test_search_with_a_configuration_loads_no_agent_server_or_model_module(small_db: Path, tmp_path: Path) -> None:
    # a clew.toml naming a model, its options, budgets and principals: read, validated, and nothing more
    (tmp_path / "clew.toml").write_text(
        f"database = {str(small_db)!r}\nmodel = \"openai/gpt-4o-mini\"\nallowed_hosts = [\"clew.internal\"]\n"
        "[model_options]\napi_base = \"http://127.0.0.1:8080/v1\"\n[budgets]\nmax_tool_calls = 10\n"
        "[principals.support]\ntools = [\"search\", \"tree_search\"]\nrow_filter = { term = { status = \"x\" } }\n"
        "[[api_keys]]\nkey = \"change-me-please\"\nprincipal = \"support\"\n", encoding="utf-8")
    script = ("import json, sys\nfrom clew.cli import main\nsys.argv = ['clew', 'search', 'busy timeout', '--json']\n"
              "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
              "print(json.dumps([code, sorted(sys.modules)]))")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    envelope, last = ran.stdout.splitlines()[-2:]
    code, loaded = json.loads(last)
    assert code == 0, ran.stderr
    assert json.loads(envelope)["applied"]["config"] == "clew.toml"  # the file was read
    assert "clew.config.settings" in loaded
    assert [m for m in loaded if m.startswith(("clew.agent", "clew.surface", "clew.server", "clew.evals", "clew.llm",
                                               "litellm"))] == []


def test_the_table_lists_every_command_as_its_module_defines_it() -> None:
    defined: dict[str, object] = {}
    for name in MODULES:
        group = typer.main.get_group(importlib.import_module(f"clew.commands.{name}").app)
        defined |= group.commands
    for name in tool_commands():
        defined[name] = load_command(name)
    expected = {name: (_summary(c), c.hidden) for name, c in defined.items()}  # type: ignore[attr-defined]
    listed = {name: (entry.summary, entry.hidden) for name, entry in COMMANDS.items()}
    assert listed == expected, "update clew.cli.COMMANDS to: " + json.dumps(expected, indent=1)
    for name, entry in COMMANDS.items():
        assert load_command(name).name == name
        assert entry.module == "tools" or name in typer.main.get_group(
            importlib.import_module(f"clew.commands.{entry.module}").app).commands


def test_search_json_loads_no_rich_and_builds_no_adapter_for_an_option_not_given(small_db: Path) -> None:
    code = (f"import sys\nsys.argv = {['clew', 'search', 'busy timeout', '--db', str(small_db), '--json']!r}\n"
            "import typer._coercion as coercion\nbuilt = []\nbuild = coercion.build_runtime_param\n"
            "def spy(descriptor):\n    built.append(descriptor.annotation.__name__)\n    return build(descriptor)\n"
            "import typer.core, clew.cli\ntyper.core.build_runtime_param = clew.cli.build_runtime_param = spy\n"
            "try:\n    clew.cli.main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
            "print('built', sorted(built))")
    out = python_output(code + "\nimport json\nprint(json.dumps(sorted(sys.modules)))")
    *_, envelope, built, modules = out.splitlines()
    assert json.loads(envelope)["status"] == "ok"
    assert [m for m in json.loads(modules) if m.split(".")[0] == "rich"] == []  # the envelope is printed by json
    # the query and --db are given, and the root's -v (0, not None); the other 15 options and flags build nothing
    assert built == "built ['Path', 'int', 'str']"


def test_an_option_not_given_parses_as_before(small_db: Path) -> None:
    from typer.testing import CliRunner

    from clew.cli import app

    runner = CliRunner()
    shown = runner.invoke(app, ["search", "busy timeout", "--db", str(small_db), "--json", "--limit", "1",
                                "--exclude-ids", "ev1:c:1:1:9"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["applied"]["limit"] == 1
    bad = runner.invoke(app, ["search", "busy timeout", "--db", str(small_db), "--limit", "x"])
    assert bad.exit_code == 2 and "--limit" in bad.output  # typer's own coercion, built once given


def test_a_search_builds_the_validators_of_its_arguments_only(small_db: Path) -> None:
    code = (f"import sys\nsys.argv = {['clew', 'search', 'busy timeout', '--db', str(small_db)]!r}\n"
            "from clew.cli import main\ntry:\n    main()\nexcept SystemExit as done:\n"
            "    assert not done.code, done.code\nfrom clew.corpus.search import api\n"
            "from clew.tools.search import SearchArgs\n"
            "print([m.__name__ for m in (SearchArgs, api.SearchRequest, api.SearchResult, api.SearchHit, "
            "api.RetrieverContribution) if m.__pydantic_complete__])")
    out = python_output(code)
    # the request and the results are built from validated arguments and the corpus's rows as they are
    assert out.splitlines()[-1] == "['SearchArgs']"


def test_only_a_one_shot_tool_command_skips_the_teardown() -> None:
    from clew.cli import _one_shot

    assert _one_shot(["search", "q"]) and _one_shot(["-vv", "nav", "ev1:c:1:1:0", "parent"]) and _one_shot(["grep"])
    assert not any(map(_one_shot, (["retrieve", "q"], ["ingest", "docs"], ["serve"], ["--version"], [], ["nope"])))


@pytest.mark.parametrize(("query", "status", "code"), [("busy timeout", "ok", 0), ("zebra", "no_match", 1),
                                                       ("  ", "invalid", 2)])
def test_the_executable_exits_with_the_commands_status_and_its_whole_output(small_db: Path, query: str, status: str,
                                                                            code: int) -> None:
    done = subprocess.run([sys.executable, "-m", "clew", "search", query, "--db", str(small_db), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == code, done.stderr
    assert json.loads(done.stdout)["status"] == status  # flushed before the process ends


def test_the_executable_prints_its_whole_table(small_db: Path) -> None:
    table = subprocess.run([sys.executable, "-m", "clew", "search", "busy timeout", "--db", str(small_db)],
                           capture_output=True, text=True, timeout=120)
    assert table.returncode == 0 and table.stdout.startswith("┏")
    assert table.stdout.endswith("1 hit (limit 10, mode bm25)\n")


def _ask(small_db: Path, cwd: Path) -> tuple[dict, list[str]]:
    """``clew ask --json`` in a fresh interpreter run in ``cwd``: its result and the modules it loaded."""
    script = (f"import json, sys\nfrom clew.cli import main\nsys.argv = ['clew', 'ask', 'busy timeout', '--db', "
              f"{str(small_db)!r}, '--json']\ntry:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
              "print(json.dumps([code, sorted(sys.modules)]))")
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("CLEW_")}
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)
    envelope, last = ran.stdout.splitlines()[-2:]
    code, loaded = json.loads(last)
    assert code in (0, None), ran.stderr
    return json.loads(envelope), loaded


def test_ask_without_a_configuration_loads_no_settings_code(small_db: Path, tmp_path: Path) -> None:
    result, loaded = _ask(small_db, tmp_path)
    assert result["result"]["hits"]  # the walk ran and found the passage
    assert [m for m in loaded if m.startswith(("clew.config.settings", "pydantic_settings"))] == []
    # a ranked walk without a model awaits nothing: it runs without an event loop, and asyncio
    # (with ssl, which it imports) is never loaded
    assert [m for m in loaded if m.split(".")[0] in ("asyncio", "ssl")] == []


def test_ask_with_a_configuration_still_takes_its_budgets(small_db: Path, tmp_path: Path) -> None:
    (tmp_path / "clew.toml").write_text("[budgets]\ncontext_budget_tokens = 300\n", encoding="utf-8")
    result, loaded = _ask(small_db, tmp_path)
    assert "clew.config.settings" in loaded
    assert result["result"]["applied"]["context_budget_tokens"] == 300


@pytest.mark.parametrize("argv", [["search", "busy timeout", "--json"], ["ask", "busy timeout", "--json"], ["ls"],
                                  ["outline", "guide.md"]])
def test_a_reader_that_left_ends_the_command_quietly_with_the_closed_pipes_status(small_db: Path,
                                                                                 argv: list[str]) -> None:
    from clew.commands.common import PIPE_CLOSED

    read, write = os.pipe()
    os.close(read)  # the reader left before a byte came (clew ... | head -c 0): every write fails
    try:
        done = subprocess.run([sys.executable, "-m", "clew", *argv, "--db", str(small_db)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (PIPE_CLOSED, "")  # was 1 or 120, and "error: unexpected BrokenPipeError"


def test_a_closed_pipe_inside_a_command_is_the_same_quiet_exit() -> None:
    from typer.testing import CliRunner

    from clew.commands.common import PIPE_CLOSED, command

    app = typer.Typer()

    @command(app, "dump", example="clew dump | head", config=False)
    def dump() -> None:
        raise BrokenPipeError(32, "Broken pipe")  # a print past the pipe's buffer, once the reader left

    @command(app, "other", example="clew other", config=False)
    def other() -> None:
        raise OSError(28, "No space left on device")

    done = CliRunner().invoke(app, ["dump"])
    assert (done.exit_code, done.output) == (PIPE_CLOSED, "")
    failed = CliRunner().invoke(app, ["other"])  # any other error is still a failure, named
    assert failed.exit_code == 3 and "unexpected OSError" in failed.output
