"""The ``clew`` command line. Each family of commands lives in ``clew/commands/``."""

from __future__ import annotations

import sys

import typer

from clew.commands import ask, corpus, documents, embed, evals, serve, tools

app = typer.Typer(no_args_is_help=True, add_completion=False, help="clew: retrieval that searches, then navigates.")
for module in (corpus, documents, embed, tools, ask, evals, serve):
    app.registered_commands.extend(module.app.registered_commands)


def main() -> None:  # pragma: no cover - console entry point
    app(prog_name="clew")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
