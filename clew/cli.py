"""The ``clew`` command line. Each family of commands lives in ``clew/commands/``.

Commands load on demand. ``COMMANDS`` names each command's module and the line ``clew
--help`` shows for it, so that a command imports only the code it runs (``clew search``
loads neither the agent nor the ingestion parsers) and ``clew --help`` imports no command
module at all. ``tests/commands/test_cli_startup.py`` checks the table against the commands
themselves: a command added to a module without a line here fails that test.

Options before the command apply to every command: ``--version``, ``-v`` / ``--verbose``
(``-v`` logs info, ``-vv`` debug, to stderr; else ``$CLEW_LOG``: debug, info or warning),
and typer's ``--install-completion`` / ``--show-completion``.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer import _click as click  # typer vendors click: its groups take and return these classes
from typer._coercion import RuntimeParam, build_runtime_param
from typer.core import TyperCommand, TyperGroup, _TyperParameter


@dataclass(frozen=True, slots=True)
class Entry:
    module: str
    """The module under ``clew.commands`` that defines the command."""
    summary: str
    """The first paragraph of its help, as ``clew --help`` lists it."""
    hidden: bool = False


_TOOL = "tools"  # the commands generated from the tool surface (``clew.commands.tools``)
COMMANDS: dict[str, Entry] = {
    "ingest": Entry("corpus", "Ingest Markdown, MDX, HTML, PDF, DOCX, EPUB, GNU Info, man pages, reStructuredText, "
                              "AsciiDoc, OpenAPI, text and JSONL files into a corpus."),
    "ingest-edges": Entry("corpus", "Add user graph edges between documents (rejected lines: exit status 2, the good "
                                    "ones are kept)."),
    "stats": Entry("corpus", "Counts per collection."),
    "compact": Entry("corpus", "Compact a corpus: drop retired rows from the search index, then rewrite the file "
                               "without its free blocks."),
    "ls": Entry("documents", "List documents: key, chunks, pages and title (--json: version, status, format, "
                             "tokens, size)."),
    "outline": Entry("documents", "Show a document's section tree with passage counts (no such document: exit "
                                  "status 1)."),
    "rm": Entry("documents", "Retire documents: no longer searched or navigated; their evidence ids still resolve "
                             "(superseded). A key not found: exit status 1 (the others are retired)."),
    "embed": Entry("embed", "Embed every current chunk that has no vector for MODEL yet (a second run embeds "
                            "nothing)."),
    "search": Entry(_TOOL, "Search the collection for passages."),
    "navigate_document_tree": Entry(_TOOL, "Move from a passage to related passages (relation) of the same document "
                                           "version."),
    "nav": Entry(_TOOL, "Move from a passage to related passages (relation) of the same document version.",
                 hidden=True),
    "get_chunk": Entry(_TOOL, "Read one passage by its evidence id."),
    "navigate": Entry(_TOOL, "Step through a document in reading order from a span (direction)."),
    "read": Entry(_TOOL, "Read the passages of a document that lie inside a character range, in reading order."),
    "grep": Entry(_TOOL, "Find the passages of one document that contain a phrase, or every term of a pattern."),
    "expand_neighbors": Entry(_TOOL, "Walk graph edges (reading order, section hierarchy, links, user graphs) from "
                                     "seed ids."),
    "expand": Entry(_TOOL, "Walk graph edges (reading order, section hierarchy, links, user graphs) from seed ids.",
                    hidden=True),
    "fetch_slice": Entry(_TOOL, "Fetch a window of consecutive passages centred on a passage, or a document's (or "
                                "section's) first passages."),
    "slice": Entry(_TOOL, "Fetch a window of consecutive passages centred on a passage, or a document's (or "
                          "section's) first passages.", hidden=True),
    "fetch_evidence": Entry(_TOOL, "Read passages in full and record them as fetched, so that they may be cited."),
    "fetch": Entry(_TOOL, "Read passages in full and record them as fetched, so that they may be cited.",
                   hidden=True),
    "check_citations": Entry(_TOOL, "Say which ids may be cited: fetched in full in this run, existing and readable."),
    "retrieve": Entry(_TOOL, "Run the retrieval agent: a seed search (queries[]), a bounded walk "
                             "(steps.retrieval.navigation: tree or graph), then an answer with the evidence it read."),
    "ask": Entry("ask", "Ask a question: search, walk the structure, answer with citations."),
    "eval": Entry("evals", "Evaluate retrieval systems on a QA set under one context token budget."),
    "batch": Entry("evals", "Answer a file of questions; one JSON line per question in --out."),
    "serve": Entry("serve", "Serve the REST API (FastAPI + uvicorn) over one corpus."),
    "mcp": Entry("serve", "Serve the tools over MCP. Over stdio nothing but the protocol is written to stdout."),
    "config": Entry("serve", "Validate a clew.toml; a bad one names the field (exit status 2)."),
}


def load_command(name: str) -> click.Command:
    """The click command ``name``, built from its module (imported now)."""
    module = importlib.import_module(f"clew.commands.{COMMANDS[name].module}")
    source: typer.Typer = module.app_for(name) if hasattr(module, "app_for") else module.app
    return typer.main.get_group(source).commands[name]


@dataclass(frozen=True)
class _WhenGiven(RuntimeParam):
    """A parameter's coercion, built when the parameter first gets a value.

    typer builds each parameter's coercion (a pydantic ``TypeAdapter``) as it parses, also for an
    option that was not given, whose value (None) it then returns as None, or ``()`` for a list,
    without using it (``RuntimeParam.coerce``): ``clew search --json`` built 21 to use three.
    """

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: click.Context) -> Any:
        built = param._runtime_param = build_runtime_param(param.type_descriptor)
        return built._coerce_value(value, param=param, ctx=ctx)


def defer_coercion(command: click.Command, ctx: click.Context) -> None:
    """Build the coercion of each of ``command``'s parameters (``--help`` too) only once it has a
    value (``_WhenGiven``); the values are typer's own."""
    for param in command.get_params(ctx):
        if isinstance(param, _TyperParameter) and param._runtime_param is None:
            descriptor = param.type_descriptor
            param._runtime_param = _WhenGiven(parameter_info=descriptor.parameter_info,
                                              annotation=descriptor.annotation)


class LazyGroup(TyperGroup):
    """Lists the commands from ``COMMANDS``; imports one only to run it (or show its own help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        defer_coercion(self, ctx)  # --version, --install-completion, ...: nothing built unless given
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)  # a listing's stand-in: its name, summary and visibility
        if entry is None:
            return None
        return TyperCommand(cmd_name, help=entry.summary, short_help=entry.summary, hidden=entry.hidden,
                            rich_markup_mode=None)  # short_help: listed whole, not cut at 45 characters

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None and command is not None:
            command = load_command(name)
            defer_coercion(command, ctx)  # its help option as its own context will make it (the same names)
        return name, command, rest


SHORT_NAMES = {name: next(full for full, listed in COMMANDS.items()
                          if not listed.hidden and listed.summary == entry.summary)
               for name, entry in COMMANDS.items() if entry.hidden}
"""The hidden commands, each a short name of a listed tool (``fetch``: ``fetch_evidence``), as the epilog names them."""
EPILOG = ("Exit status: 0 ok, 1 nothing found or unavailable, 2 bad input, 3 store or model failure. "
          "Short names: " + ", ".join(f"{short} ({full})" for short, full in SHORT_NAMES.items()) + ". "
          "Configuration: --config FILE, else $CLEW_CONFIG, else ./clew.toml. "
          "Example: clew ingest docs/ --db docs.duckdb && clew ask \"How do I roll back?\" --db docs.duckdb")
# Help is plain text (``rich_markup_mode=None``, here and on every command's app): typer's rich help
# imports rich, rich.markdown (markdown_it), pygments and attrs, about 0.2 s, as long as the rest of
# ``clew --help``. Errors print plain as well.
app = typer.Typer(cls=LazyGroup, no_args_is_help=True, help="clew: retrieval that searches, then navigates.",
                  epilog=EPILOG, rich_markup_mode=None)


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import version

        print(f"clew {version('clew')}")
        raise typer.Exit()


@app.callback()
def _root(
    verbose: Annotated[int, typer.Option(
        "--verbose", "-v", count=True, help="Log to stderr: -v info, -vv debug (default: $CLEW_LOG, else warning).",
    )] = 0,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print clew's version and exit.")] = False,
) -> None:
    """clew: retrieval that searches, then navigates."""
    from clew.commands.common import configure_logging

    configure_logging(verbose)


def main() -> None:  # pragma: no cover - console entry point
    app(prog_name="clew")


def _one_shot(argv: list[str]) -> bool:
    """Whether ``argv`` runs a tool command other than ``retrieve`` (the agent): one call on a corpus
    opened read-only, closed before the command returns, and no thread left running."""
    name = next((word for word in argv if not word.startswith("-")), "")  # the root's options take no value
    entry = COMMANDS.get(name)
    return entry is not None and entry.module == _TOOL and name != "retrieve"


def _asks(argv: list[str]) -> bool:
    """Whether ``argv`` runs ``clew ask``."""
    return next((word for word in argv if not word.startswith("-")), "") == "ask"


def run() -> None:  # pragma: no cover - tested in a subprocess
    """The ``clew`` executable (and ``python -m clew``): ``main`` in a process of its own.

    A one-shot tool command (``clew search``, ``clew nav``, ...) and ``clew ask`` skip pydantic's
    plugin scan (every installed package's entry points: ``PYDANTIC_DISABLE_PLUGINS``, unless
    set). A one-shot tool command, and an ask that ran without a model (``clew._process``), skip
    the interpreter's teardown (its modules and objects freed one by one, 5% of ``clew search``,
    10% of a cold ``clew ask``): the output is flushed and the process exits with the command's
    status. A command may also freeze what its imports made (``clew._process.settled``).
    """
    from clew import _process

    _process.own_process()
    one_shot = _one_shot(sys.argv[1:])
    if one_shot or _asks(sys.argv[1:]):
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        main()
    except SystemExit as done:
        if not (one_shot or _process.PROCESS.ends_at_once):
            raise
        status = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
        if not isinstance(done.code, int | None):
            print(done.code, file=sys.stderr)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a closed pipe (clew search ... | head): the status of every closed pipe
            from clew.commands.common import PIPE_CLOSED

            status = status or PIPE_CLOSED
        os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
