"""What every command module shares: consoles, common options, error exit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from clew.errors import ClewError

err = Console(stderr=True, soft_wrap=True)
out = Console(soft_wrap=True)

DbOption = Annotated[Path, typer.Option("--db", help="DuckDB corpus file.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a summary.")]


def fail(error: ClewError | str) -> typer.Exit:
    """Print ``error`` to stderr and return the exit (status 2) for the caller to raise."""
    err.print(f"[red]error:[/red] {escape(str(error))}", markup=True, highlight=False)
    return typer.Exit(code=2)


def require_db(db: Path) -> None:
    if not db.exists():
        raise fail(f"{db}: no such corpus file")
