"""Corpus commands: ``clew ingest``, ``clew ingest-edges``, ``clew stats``, ``clew compact``."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from clew.commands.common import (
    CollectionOption,
    DbOption,
    JsonOption,
    command,
    database,
    err,
    fail,
    out,
    plural,
    respond,
    say_compacted,
)
from clew.commands.common import (
    collection as resolve_collection,
)
from clew.corpus.ingest.api import DEFAULT_BATCH_SIZE, ingest_paths
from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.ingest.parsed import MAX_EXPANDED_MIB, MAX_PAGE_OBJECTS, MAX_PARSE_SECONDS, ParseBounds
from clew.corpus.ingest.report import IngestReport
from clew.corpus.ingest.sources import (
    KEY_CLASH_WAY_OUT,
    MAX_BINARY_BYTES,
    MAX_MARKDOWN_LINES,
    MAX_TEXT_BYTES,
    MIB,
    FileLimits,
)
from clew.corpus.rewrite import RewriteReport, compact_corpus
from clew.corpus.store import Corpus

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli

NOTEBOOK_WAY_IN = ("Jupyter notebooks are read as the pages a documentation tool renders them into (nbsphinx, MyST-NB, "
                   "mkdocs-jupyter) or as Markdown: jupyter nbconvert --to markdown NAME.ipynb")
"""Said after the count of files of types clew does not read where notebooks are among them (task U30): a folder of
``.ipynb`` files was "skipped 10 files of types clew does not read (.ipynb 10)", then "nothing ingested", no way in."""


@command(app, example="clew ingest docs/ --db docs.duckdb --collection docs")
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or folders to ingest (folders recursively).")],
    db: DbOption = None,
    collection: Annotated[str | None, typer.Option(
        help="Collection to ingest into (default: default_collection in clew.toml, else the corpus's only "
             "collection, else default).")] = None,
    glob: Annotated[str, typer.Option(help="Glob for files inside folders.")] = "**/*",
    chunk_tokens: Annotated[
        int, typer.Option(min=16, max=8192, help="Target tokens per chunk.")
    ] = DEFAULT_CHUNK_TOKENS,
    merge_sections: Annotated[bool, typer.Option(help="Let small consecutive sections share a chunk.")] = False,
    batch_size: Annotated[int, typer.Option(min=1, help="Documents per atomic batch.")] = DEFAULT_BATCH_SIZE,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Parsing processes (default: one per CPU, up to 4, for 64 files or "
                                         "more; on 2 CPUs, two once the files hold 16 MiB).")
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
    max_binary_mib: Annotated[int, typer.Option(min=1, help="Skip (and report) PDF, DOCX and EPUB files "
                                                "larger than this.")] = MAX_BINARY_BYTES // MIB,
    max_markdown_lines: Annotated[int, typer.Option(min=1, help="Skip (and report) Markdown files of more "
                                                    "lines than this.")] = MAX_MARKDOWN_LINES,
    max_parse_seconds: Annotated[float, typer.Option(min=0.001, help="Skip (and report) a PDF or DOCX file whose "
                                                     "parsing takes longer than this.")] = MAX_PARSE_SECONDS,
    max_page_objects: Annotated[int, typer.Option(min=1, help="Skip (and report) a PDF with a page of more "
                                                  "objects (text runs, paths, images) than this.")] = MAX_PAGE_OBJECTS,
    max_zip_expanded_mib: Annotated[int, typer.Option(
        min=1, help="Skip (and report) a DOCX or EPUB file (a zip) whose files unzip to more than this.")
    ] = MAX_EXPANDED_MIB,
    max_docx_expanded_mib: Annotated[int | None, typer.Option(
        min=1, hidden=True, help="Deprecated: the old name of --max-zip-expanded-mib.")] = None,
    follow_symlinks: Annotated[bool, typer.Option(help="Ingest files that symbolic links inside a folder point to "
                                                  "outside it (default: skipped and reported).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Ingest Markdown, MDX, HTML, PDF, DOCX, EPUB, GNU Info, man pages, reStructuredText, AsciiDoc, OpenAPI, text
    and JSONL files into a corpus."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise fail(f"path not found: {', '.join(missing)}")
    expanded_mib = _zip_expanded_mib(max_zip_expanded_mib, max_docx_expanded_mib)
    show_progress = err.is_terminal and not as_json
    path = database(db, exists=False)
    new_file = not path.exists()
    with Corpus(path) as corpus:
        name = resolve_collection(corpus, collection, otherwise="default")
        with Progress(
            SpinnerColumn(), TextColumn("ingesting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.description}"), console=err,
            disable=not show_progress,
        ) as progress:
            task = progress.add_task("", total=None)
            report = ingest_paths(
                corpus, paths, collection=name or "default", glob=glob, chunk_tokens=chunk_tokens,
                merge_sections=merge_sections, batch_size=batch_size, workers=workers or "auto",
                exclude=exclude or [], follow_symlinks=follow_symlinks,
                prune=prune, limits=FileLimits(
                    max_text_mib * MIB, max_binary_mib * MIB, max_markdown_lines,
                    ParseBounds(max_parse_seconds, max_page_objects, expanded_mib * MIB)),
                on_total=lambda total: progress.update(task, total=total),
                on_file=lambda key: progress.update(task, advance=1, description=key[-40:]),
            )
    status = _status(report)
    if new_file and status != "ok":  # a mistyped path or glob, or files none of which read, leave no corpus file
        for made in (path, path.with_name(f"{path.name}.wal")):
            made.unlink(missing_ok=True)
    respond(report, lambda: _summary(report, paths), status=status)


def _zip_expanded_mib(new: int, old: int | None) -> int:
    """The zip bound an ingest was given (``ParseBounds.expanded_bytes``): ``--max-zip-expanded-mib``, or its old
    name ``--max-docx-expanded-mib`` (from before EPUB files were read, 433451e), deprecated: it still works and warns
    once; both, at two values, is refused."""
    if old is None:
        return new
    if new not in (old, MAX_EXPANDED_MIB):
        raise fail(f"--max-docx-expanded-mib {old} and --max-zip-expanded-mib {new}: the first is the old name of "
                   "the second; give one")
    err.print("[yellow]warning[/yellow] --max-docx-expanded-mib is deprecated: it is --max-zip-expanded-mib, which "
              "bounds DOCX and EPUB files alike", highlight=False)
    return old


def _status(report: IngestReport) -> str:
    """``ok`` when a document was read (new, changed or unchanged) or retired; else ``invalid`` when a file
    clew reads failed to (an unreadable PDF: bad input, exit status 2), ``no_match`` when no file clew reads
    was found (an empty folder, a mistyped glob, a folder of images: exit status 1)."""
    if report.documents or report.retired:
        return "ok"
    failed = any(p.skipped and p.unread_type is None for p in report.problems)
    return "invalid" if failed else "no_match"


MAX_PROBLEM_LINES = 10
"""Skipped, repaired, warned and retired files ``clew ingest`` names one line each; the rest are counted."""


def _summary(report: IngestReport, paths: list[Path]) -> None:
    say_compacted(report.file_compacted)
    named = ", ".join(str(path) for path in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
    if not (report.documents or report.skipped or report.problems or report.retired):
        err.print(f"no file to ingest in {escape(named)} (check the paths, --glob and --exclude)", highlight=False)
    elif _status(report) != "ok":
        err.print(f"nothing ingested from {escape(named)}: no file there read (below)", highlight=False)
    # files of a type clew does not read are counted by type in one line, after the files that failed to read: an
    # HTML folder holds its site's images, styles and scripts (GLFW's Doxygen pages named 9 '.png'/'.css'/'.js'
    # files, then 'and 89 more', where a PDF that did not read hid)
    # (a file named as a kind clew reads that is not one, ``notes.1`` not roff or a binary ``README``, is named: why)
    counted = [p.unread_type is not None and not p.named_as for p in report.problems]
    kinds = Counter(p.unread_type for p, count in zip(report.problems, counted, strict=True) if count)
    shown = [p for p, count in zip(report.problems, counted, strict=True) if not count and p.taken_by is None]
    lines = [("skipped" if p.skipped else "warning" if p.warning else "repaired", f"{p.path}: {p.message}")
             for p in shown]
    if taken := [p for p in report.problems if p.taken_by is not None]:  # one hint, not one a file (task R18)
        lines.append(("skipped", f"{plural(len(taken), 'file')} whose keys an earlier folder given holds ("
                      + ", ".join(f"{p.path} as {p.taken_by}" for p in taken[:2])
                      + (f" and {len(taken) - 2:,} more" if len(taken) > 2 else "") + f"); {KEY_CLASH_WAY_OUT}"))
    lines += [("retired", f"{key}: not found by this ingest, or excluded (--prune)") for key in report.retired]
    if kinds:  # after the files that failed to read: a site's images and scripts are no news
        lines.append(("skipped", f"{plural(kinds.total(), 'file')} of types clew does not read ("
                      + ", ".join(f"{kind} {count:,}" for kind, count in kinds.most_common()) + ")"
                      + (f"; {NOTEBOOK_WAY_IN}" if ".ipynb" in kinds else "")))
    for label, text in lines[:MAX_PROBLEM_LINES]:
        err.print(f"[yellow]{label}[/yellow] {escape(text)}", highlight=False)
    if len(lines) > MAX_PROBLEM_LINES:
        left = Counter(label for label, _ in lines[MAX_PROBLEM_LINES:])
        err.print(f"[yellow]and {len(lines) - MAX_PROBLEM_LINES} more[/yellow] ("
                  + ", ".join(f"{n} {label}" for label, n in left.items()) + "): --json lists them all",
                  highlight=False)
    if report.side_by_side is not None:
        err.print(f"[yellow]note[/yellow] {escape(report.side_by_side)}", highlight=False)
    if gone := report.files_gone:
        where = escape(named) if len(paths) == 1 else "the folders given"
        err.print(f"[yellow]note[/yellow] {plural(len(gone), 'stored document')} of {where} "
                  f"{'has' if len(gone) == 1 else 'have'} no file now (" + escape(", ".join(gone[:2]))
                  + (f" and {len(gone) - 2:,} more" if len(gone) > 2 else "")
                  + f"), still current and searchable: --prune retires {'it' if len(gone) == 1 else 'them'}",
                  highlight=False)
    reasons = ", ".join(f"{reason} {count:,}" for reason, count in report.links_dangling_by_reason.items())
    out.print(
        f"{plural(report.documents, 'document')} ({plural(report.versions_created, 'new version')}, "
        f"{report.unchanged:,} unchanged), {plural(report.chunks, 'chunk')}, {report.skipped:,} skipped, "
        f"{report.repaired:,} repaired, {plural(report.warnings, 'warning')}, "
        f"{report.excluded:,} excluded, {len(report.retired):,} retired, "
        f"links: {report.links_resolved:,} resolved, {report.links_dangling:,} dangling"
        f"{f' ({reasons})' if reasons else ''}, {report.seconds:.2f} s", highlight=False,
    )


@command(app, "ingest-edges", example="clew ingest-edges workflow.jsonl --db docs.duckdb")
def ingest_edges_command(
    file: Annotated[Path, typer.Argument(help="JSONL: one {graph, src, dst, type, weight?} per line (document keys).")],
    db: DbOption = None,
    collection: CollectionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add user graph edges between documents (rejected lines: exit status 2, the good ones are kept)."""
    try:
        content = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise fail(f"{file}: cannot read: {error}") from error
    with Corpus(database(db)) as corpus:
        name = resolve_collection(corpus, collection, otherwise="default")
        report = ingest_edges(corpus, content, collection=name or "default")

    def show() -> None:
        for problem in report.problems:
            err.print(Text(f"line {problem.line}", style="yellow") + Text(f": {problem.message}"))
        out.print(f"{plural(report.edges, 'edge')} written, {plural(len(report.problems), 'line')} rejected",
                  highlight=False)

    respond(report, show, status="invalid" if report.problems else "ok")


@command(app, example="clew stats --db docs.duckdb")
def stats(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Counts per collection."""
    with Corpus(database(db), read_only=True) as corpus:
        rows = corpus.stats()

    def show() -> None:
        """A block per collection, a line per kind of row, each well inside 80 columns (a table of
        nine columns cut every header and the edges there: ``colle…``, ``link… read… sect…``)."""
        for row in rows:
            out.print(Text(row.name, style="bold"))
            lines = (("documents", f"{row.documents:,} ({plural(row.versions, 'version')}, "
                                   f"{row.superseded_versions:,} superseded)"),
                     ("chunks", f"{row.chunks:,} ({plural(row.table_chunks, 'table chunk')})"),
                     ("structure", f"{plural(row.sections, 'section')}, {plural(row.tables, 'table')}"),
                     ("edges", ", ".join(f"{graph} {count:,}" for graph, count in row.edges.items()) or "none"))
            for label, value in lines:
                out.print(Text(f"  {label:<10} {value}"))

    respond({"collections": [asdict(row) for row in rows]}, show)


def _space_change(report: RewriteReport) -> str:
    before, after = report.before, report.after
    return (f"{before.total_blocks} -> {after.total_blocks} blocks ({before.free_share:.0%} -> "
            f"{after.free_share:.0%} free), {before.bytes / 2**20:.1f} -> {after.bytes / 2**20:.1f} MB, "
            f"{report.seconds:.2f} s")


@command(app, example="clew compact --db docs.duckdb")
def compact(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Compact a corpus: drop retired rows from the search index, then rewrite the file without its free blocks."""
    path = database(db)
    with Corpus(path) as corpus:
        report = compact_corpus(corpus)
    result = {"before": {**asdict(report.before), "free_share": round(report.before.free_share, 4)},
              "after": {**asdict(report.after), "free_share": round(report.after.free_share, 4)},
              "seconds": report.seconds}
    respond(result, lambda: out.print(f"{path}: {_space_change(report)}", highlight=False))
