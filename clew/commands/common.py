"""What every command module shares: consoles, common options, error exit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from clew.errors import ClewError, StoreFailure

err = Console(stderr=True, soft_wrap=True)
out = Console(soft_wrap=True)

DbOption = Annotated[Path, typer.Option("--db", help="DuckDB corpus file.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a summary.")]


STORE_FAILURE_EXIT = 3
"""The exit status of a command whose write failed in the store (``StoreFailure``); bad input exits 2."""


def fail(error: ClewError | str) -> typer.Exit:
    """Print ``error`` to stderr and return the exit for the caller to raise: status 3 for a
    ``StoreFailure`` (a full disk, an I/O error), else 2."""
    err.print(f"[red]error:[/red] {escape(str(error))}", markup=True, highlight=False)
    return typer.Exit(code=STORE_FAILURE_EXIT if isinstance(error, StoreFailure) else 2)


def require_db(db: Path) -> None:
    if not db.exists():
        raise fail(f"{db}: no such corpus file")
