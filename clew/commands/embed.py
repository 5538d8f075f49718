"""``clew embed``: fill in the chunk vectors that vector and hybrid search need."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from clew.commands.common import DbOption, JsonOption, err, fail, out, require_db
from clew.corpus.embedders import MINILM, embedder_from_name
from clew.corpus.search.vectors import DEFAULT_BATCH_SIZE, embed_missing
from clew.corpus.store import Corpus
from clew.errors import ClewError

app = typer.Typer()


@app.command()
def embed(
    db: DbOption,
    model: Annotated[
        str,
        typer.Option(
            help="minilm (all-MiniLM-L6-v2, needs clew[dense]), hashing[:DIMS] (lexical, for tests), "
            "or a litellm embedding model."
        ),
    ] = MINILM,
    collection: Annotated[str | None, typer.Option(help="Only this collection (default: all).")] = None,
    batch_size: Annotated[
        int, typer.Option(min=1, max=4096, help="Chunks per model call and per transaction.")
    ] = DEFAULT_BATCH_SIZE,
    as_json: JsonOption = False,
) -> None:
    """Embed every current chunk that has no vector for MODEL yet (a second run embeds nothing)."""
    require_db(db)
    show_progress = err.is_terminal and not as_json
    try:
        embedder = embedder_from_name(model)
        with Corpus(db) as corpus, Progress(
            SpinnerColumn(), TextColumn(f"embedding with {embedder.name}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), console=err, disable=not show_progress,
        ) as progress:
            task = progress.add_task("", total=None)
            report = embed_missing(
                corpus, embedder, collection=collection, batch_size=batch_size,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(report.model_dump_json())
        return
    out.print(
        f"{report.embedded} chunks embedded with {report.model} ({report.dimensions} dimensions), "
        f"{report.already_embedded} already had vectors, {report.chunks} chunks in all, {report.seconds:.2f} s"
    )
