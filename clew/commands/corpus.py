"""Corpus commands: ``clew ingest``, ``clew ingest-edges``, ``clew stats``, ``clew compact``."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
)
from rich.markup import escape
from rich.table import Table

from clew.commands.common import DbOption, JsonOption, err, fail, out, require_db
from clew.corpus.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.edges import ingest_edges
from clew.corpus.ingest import DEFAULT_BATCH_SIZE, ingest_paths
from clew.corpus.rewrite import REWRITE_FREE_SHARE, RewriteReport, compact_corpus, rewrite, space
from clew.corpus.sources import MAX_BINARY_BYTES, MAX_MARKDOWN_LINES, MAX_TEXT_BYTES, MIB, FileLimits
from clew.corpus.store import Corpus
from clew.errors import ClewError

app = typer.Typer()


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to ingest (folders recursively).")],
    db: DbOption,
    collection: Annotated[str, typer.Option(help="Collection to ingest into.")] = "default",
    glob: Annotated[str, typer.Option(help="Glob for files inside folders.")] = "**/*",
    chunk_tokens: Annotated[
        int, typer.Option(min=16, max=8192, help="Target tokens per chunk.")
    ] = DEFAULT_CHUNK_TOKENS,
    merge_sections: Annotated[bool, typer.Option(help="Let small consecutive sections share a chunk.")] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="Documents per atomic batch.")] = DEFAULT_BATCH_SIZE,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Parsing processes (default: one per CPU, up to 4, for 64 files or more).")
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option(
            help="Leave out files matching this glob (repeatable; also read from .clewignore in each folder)."
        ),
    ] = None,
    prune: Annotated[
        bool,
        typer.Option(
            help="Retire the collection's documents whose files this ingest did not "
            "find (their evidence ids still resolve, superseded)."
        ),
    ] = False,
    max_text_mib: Annotated[int, typer.Option(min=1, help="Skip (and report) text files larger than this "
                                              "(Markdown, HTML, text, JSONL ...).")] = MAX_TEXT_BYTES // MIB,
    max_binary_mib: Annotated[int, typer.Option(min=1, help="Skip (and report) PDF and DOCX files larger "
                                                "than this.")] = MAX_BINARY_BYTES // MIB,
    max_markdown_lines: Annotated[int, typer.Option(min=1, help="Skip (and report) Markdown files of more "
                                                    "lines than this.")] = MAX_MARKDOWN_LINES,
    as_json: JsonOption = False,
) -> None:
    """Ingest Markdown, HTML, text, JSONL, PDF and DOCX files into a corpus."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        err.print(f"[red]error:[/red] path not found: {', '.join(missing)}")
        raise typer.Exit(code=2)
    show_progress = err.is_terminal and not as_json
    try:
        with Corpus(db) as corpus, Progress(
            SpinnerColumn(), TextColumn("ingesting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.description}"), console=err,
            disable=not show_progress,
        ) as progress:
            task = progress.add_task("", total=None)
            report = ingest_paths(
                corpus, paths, collection=collection, glob=glob, chunk_tokens=chunk_tokens,
                merge_sections=merge_sections, batch_size=batch_size, workers=workers or "auto",
                exclude=exclude or [],
                prune=prune, limits=FileLimits(max_text_mib * MIB, max_binary_mib * MIB, max_markdown_lines),
                on_total=lambda total: progress.update(task, total=total),
                on_file=lambda key: progress.update(task, advance=1, description=key[-40:]),
            )
            # a process that holds the corpus alone gives back what the index compaction freed
            compacted = rewrite(corpus) if space(corpus).free_share > REWRITE_FREE_SHARE else None
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(report.model_dump_json())
        return
    if compacted is not None:
        err.print(f"file compacted: {_space_change(compacted)}", highlight=False)
    for problem in report.problems:
        label = "skipped" if problem.skipped else "warning" if problem.warning else "repaired"
        err.print(f"[yellow]{label}[/yellow] {escape(problem.path)}: {escape(problem.message)}", highlight=False)
    for key in report.retired:
        err.print(
            f"[yellow]retired[/yellow] {escape(key)}: not found by this ingest, or excluded (--prune)", highlight=False
        )
    reasons = ", ".join(f"{reason} {count}" for reason, count in report.links_dangling_by_reason.items())
    out.print(
        f"{report.documents} documents ({report.versions_created} new versions, {report.unchanged} unchanged), "
        f"{report.chunks} chunks, {report.skipped} skipped, {report.repaired} repaired, {report.warnings} warnings, "
        f"{report.excluded} excluded, {len(report.retired)} retired, "
        f"links: {report.links_resolved} resolved, {report.links_dangling} dangling"
        f"{f' ({reasons})' if reasons else ''}, {report.seconds:.2f} s", highlight=False,
    )


@app.command("ingest-edges")
def ingest_edges_command(
    file: Annotated[Path, typer.Argument(help="JSONL: one {graph, src, dst, type, weight?} per line (document keys).")],
    db: DbOption,
    collection: Annotated[str, typer.Option(help="Collection whose documents the keys name.")] = "default",
    as_json: JsonOption = False,
) -> None:
    """Add user graph edges between documents."""
    try:
        content = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        err.print(f"[red]error:[/red] {file}: cannot read: {error}")
        raise typer.Exit(code=2) from error
    try:
        with Corpus(db) as corpus:
            report = ingest_edges(corpus, content, collection=collection)
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(report.model_dump_json())
    else:
        for problem in report.problems:
            err.print(f"[yellow]line {problem.line}[/yellow]: {problem.message}")
        out.print(f"{report.edges} edges written, {len(report.problems)} lines rejected")
    if report.problems:
        raise typer.Exit(code=1)


@app.command()
def stats(db: DbOption, as_json: JsonOption = False) -> None:
    """Counts per collection."""
    require_db(db)
    try:
        with Corpus(db, read_only=True) as corpus:
            rows = corpus.stats()
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(json.dumps({"collections": [asdict(row) for row in rows]}))
        return
    table = Table(
        "collection", "documents", "versions", "superseded", "chunks", "table chunks", "sections", "tables", "edges"
    )
    for row in rows:
        edges = ", ".join(f"{graph}={count}" for graph, count in row.edges.items())
        table.add_row(row.name, *(str(v) for v in (row.documents, row.versions, row.superseded_versions,
                                                    row.chunks, row.table_chunks, row.sections, row.tables)), edges)
    out.print(table)




def _space_change(report: RewriteReport) -> str:
    before, after = report.before, report.after
    return (f"{before.total_blocks} -> {after.total_blocks} blocks ({before.free_share:.0%} -> "
            f"{after.free_share:.0%} free), {before.bytes / 2**20:.1f} -> {after.bytes / 2**20:.1f} MB, "
            f"{report.seconds:.2f} s")


@app.command()
def compact(db: DbOption, as_json: JsonOption = False) -> None:
    """Compact a corpus: drop retired rows from the search index, then rewrite the file without its free blocks."""
    require_db(db)
    try:
        with Corpus(db) as corpus:
            report = compact_corpus(corpus)
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(json.dumps({"before": {**asdict(report.before), "free_share": round(report.before.free_share, 4)},
                          "after": {**asdict(report.after), "free_share": round(report.after.free_share, 4)},
                          "seconds": report.seconds}))
        return
    out.print(f"{db}: {_space_change(report)}", highlight=False)
