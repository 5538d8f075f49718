"""``clew eval`` and ``clew batch``: evaluate systems on a QA set; answer a file of questions."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from clew.commands.common import (
    FILTER_HELP,
    DbOption,
    JsonOption,
    checked_filter,
    command,
    database,
    err,
    fail,
    out,
    plural,
    respond,
)
from clew.commands.models import ModelOption, ModelOptionsOption, configured_model
from clew.llm import run_loop

if TYPE_CHECKING:
    from collections.abc import Sequence

    from clew.evals.datasets import Dataset, Question

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli

BudgetOption = Annotated[int, typer.Option("--budget-tokens", help="Context token budget of every system.")]
ConcurrencyOption = Annotated[int, typer.Option(help="Questions in flight at once.")]
TimeoutOption = Annotated[
    float, typer.Option("--timeout", help="Seconds per question before it is recorded as failed.")
]
LimitOption = Annotated[int | None, typer.Option(help="Only the first N questions.")]
WorkersOption = Annotated[int, typer.Option(min=1, help="Worker processes on this machine (each opens --db read-only; "
                                                        "helps when the agent's own CPU work is the bottleneck).")]
CollectionOption = Annotated[str | None, typer.Option(
    help="Collection to search and walk (default: default_collection in clew.toml, else the corpus's only "
         "collection, else default).")]


def _processes(db: Path, workers: int, budget_tokens: int, model: Any, timeout: float, concurrency: int) -> Any:
    """Worker processes for ``--workers`` above 1; None runs the questions here."""
    if workers <= 1:
        return None
    from clew.evals.processes import ProcessExecutor

    return ProcessExecutor(str(db.resolve()), workers=workers, budget_tokens=budget_tokens, model=model,
                           timeout_s=timeout, concurrency=concurrency)


def _ingest(db: Path, corpus_dir: Path, dataset: Any, collection: str, glob: str) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.ingest.chunking import DEFAULT_CHUNK_TOKENS
    from clew.corpus.store import Corpus

    with Corpus(db) as corpus, tempfile.TemporaryDirectory() as tmp:
        if dataset.documents:  # multihop / BEIR: the loader built the corpus
            paths, glob = [dataset.write_corpus(Path(tmp))], "*.jsonl"
        else:
            paths = [corpus_dir]
        report = ingest_paths(corpus, paths, collection=collection, glob=glob, chunk_tokens=DEFAULT_CHUNK_TOKENS)
    if not report.documents:
        raise fail(f"--corpus {corpus_dir}: no document matches --glob {glob!r}")
    err.print(f"ingested {plural(report.documents, 'document')}, {plural(report.chunks, 'chunk')} into {db}",
              highlight=False)


def _dataset(path: Path, fmt: str) -> Dataset:
    """The questions file loaded; one that is missing or cannot be read is bad input naming it
    (exit status 2; was "unexpected FileNotFoundError ..." and exit status 3, a bug's)."""
    from clew.evals.datasets import load

    if not path.exists():
        raise fail(f"{path}: no such file of questions")
    if path.is_dir() and fmt != "beir":
        raise fail(f"{path}: a folder, not a JSONL file of questions (--format beir reads a folder)")
    try:
        return load(path, fmt)
    except (OSError, UnicodeDecodeError) as error:
        raise fail(f"{path}: cannot read: {error}") from error


@command(app, "eval", example="clew eval questions.jsonl --db docs.duckdb --out report/ --systems bm25,tree-ranked")
def eval_command(
    questions: Annotated[Path, typer.Argument(help="Questions: a JSONL file (clew, multihop) or a BEIR folder.")],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for results.jsonl, report.json, report.md, the plot.")],
    db: DbOption = None,
    systems: Annotated[
        str,
        typer.Option(
            help="Comma-separated: bm25, vector, hybrid, tree-ranked, tree-hybrid, graph-ranked (one path of links: "
                 "a link-following tool, not a retrieval system), tree-agentic, free."
        ),
    ] = "bm25,tree-ranked",
    corpus_dir: Annotated[
        Path | None, typer.Option("--corpus", help="Ingest this folder into --db first (clew format).")
    ] = None,
    fmt: Annotated[Literal["clew", "multihop", "beir"], typer.Option("--format", help="Dataset format.")] = "clew",
    glob: Annotated[str, typer.Option(help="Files of --corpus to ingest.")] = "**/*",
    budget_tokens: BudgetOption = 2000,
    curve_budgets: Annotated[str, typer.Option(help="Comma-separated budgets of the recall-vs-tokens curve "
                                                    "(each system runs under each; '' for --budget-tokens only).")]
    = "1000,2000,4000,8000",
    model: ModelOption = None,
    model_option: ModelOptionsOption = None,
    concurrency: ConcurrencyOption = 8,
    timeout: TimeoutOption = 120.0,
    limit: LimitOption = None,
    collection: CollectionOption = None,
    executor: Annotated[Literal["local", "ray"], typer.Option(
        help="local (asyncio here) or ray (Ray Data; install clew[ray]; RAY_ADDRESS names an existing "
             "cluster).")] = "local",
    workers: WorkersOption = 1,
    as_json: JsonOption = False,
) -> None:
    """Evaluate retrieval systems on a QA set under one context token budget."""
    from clew.corpus.store import Corpus
    from clew.evals.report import markdown
    from clew.evals.runner import parse_budgets, run_eval
    from clew.evals.systems import parse_systems
    from clew.extras import require

    require("matplotlib", "plot")  # before any work: the report ends with the plot
    curve = parse_budgets(curve_budgets)
    dataset = _dataset(questions, fmt)
    built, options = configured_model(model, model_option)
    chosen = parse_systems(systems, have_model=built is not None)
    db = database(db, exists=False)
    if corpus_dir is not None and not corpus_dir.is_dir():
        raise fail(f"--corpus {corpus_dir}: no such folder")
    if corpus_dir is not None or dataset.documents:
        if corpus_dir is None and db.exists():
            err.print(f"{db} exists; using it as it is (delete it to rebuild the corpus)", highlight=False)
        else:
            _ingest(db, corpus_dir or questions, dataset, collection or "default", glob)
    db = database(db)
    collection = _collection(db, collection, "clew eval")
    runner_elsewhere = None
    if executor == "local":
        runner_elsewhere = _processes(db, workers, budget_tokens, built, timeout, concurrency)
    if executor == "ray":
        from clew.evals.ray_executor import RayExecutor

        runner_elsewhere = RayExecutor(str(db.resolve()), budget_tokens=budget_tokens, model=built, timeout_s=timeout,
                                       concurrency=concurrency)
    picked = dataset.questions[:limit] if limit is not None else dataset.questions
    for line in _unknown_sources(db, collection, picked):
        err.print(line, highlight=False, markup=False)
    config = {"dataset": str(questions), "format": fmt, "db": str(db),
              "model": None if built is None else built.name,
              "model_options": options.model_dump(exclude_defaults=True, exclude={"api_key_env"}), "limit": limit,
              "concurrency": concurrency, "timeout_s": timeout, "executor": executor, "workers": workers}
    with Corpus(db, read_only=True) as corpus:
        report = run_loop(run_eval(picked, chosen, corpus, out_dir, budget_tokens=budget_tokens,
                                      curve_budgets=curve, collection=collection, model=built, concurrency=concurrency,
                                      timeout_s=timeout, config=config, executor=runner_elsewhere))
    respond(report, lambda: out.print(markdown(report), highlight=False, markup=False))


SOURCES_NAMED = 5
"""The most ``sources`` naming no document that ``clew eval`` names one by one; the rest are counted."""


def _unknown_sources(db: Path, collection: str, questions: Sequence[Question]) -> list[str]:
    """A warning for each question's ``sources`` key that no current document of ``collection`` has, with the keys
    meant (``keys_meant``): recall@10 and MRR count such a source as never found, and read 0.000 without a word
    when the keys were written relative to another folder ("Reference/Errors.html" for
    "fastify/Reference/Errors.html", a folder of sites ingested; task U24). The first ``SOURCES_NAMED`` by name,
    then a count."""
    from clew.corpus.documents import keys_meant, readable_titles
    from clew.corpus.reader import Scope
    from clew.corpus.store import Corpus

    named = list(dict.fromkeys((question.id, source) for question in questions for source in question.sources))
    if not named:
        return []
    with Corpus(db, read_only=True) as corpus:
        scope = Scope(corpus, collection=collection)
        rows = readable_titles(scope)
        keys = {key for _, key, _ in rows}
        missing = [(qid, source) for qid, source in named if source not in keys]
        lines = []
        for qid, source in missing[:SOURCES_NAMED]:
            meant = keys_meant(scope, source, rows)
            hint = f" (did you mean {', '.join(repr(key) for key in meant)}?)" if meant else ""
            lines.append(f"warning {qid}: source {source!r} is no document of collection {collection!r}{hint}; "
                         "recall@10 and MRR count it as never found")
    if len(missing) > SOURCES_NAMED:
        more = len(missing) - SOURCES_NAMED
        lines.append(f"warning {more} more source{'s are' if more > 1 else ' is'} no document of collection "
                     f"{collection!r}")
    return lines


def _collection(db: Path, given: str | None, needed: str) -> str:
    """The one collection every question's walk reads (``--collection``, ``default_collection``, the only
    one, else ``default``). A corpus of several, none of them ``default``, is refused before any work,
    naming them, as ``clew ask`` refuses it: each question failed on its own before, "unknown collection
    'default'" (task U20)."""
    from clew.commands.common import collection
    from clew.corpus.store import Corpus

    with Corpus(db, read_only=True) as corpus:
        names = corpus.collections(with_documents=True)
        fallback = "default" if len(names) < 2 or "default" in names else None
        return collection(corpus, given, needed=needed, otherwise=fallback) or "default"


@command(app, "batch", example="clew batch questions.jsonl --db docs.duckdb --out answers.jsonl")
def batch_command(
    questions: Annotated[Path, typer.Argument(help="JSONL of {id, question}.")],
    out_file: Annotated[Path, typer.Option("--out", help=(
        "answers.jsonl. An existing file is resumed: its answers are kept and its errored questions answered "
        "again; a file this batch did not write (other questions or settings) is refused."))],
    db: DbOption = None,
    system: Annotated[str, typer.Option(help="One system (see clew eval).")] = "tree-ranked",
    budget_tokens: BudgetOption = 2000,
    model: ModelOption = None,
    model_option: ModelOptionsOption = None,
    concurrency: ConcurrencyOption = 8,
    timeout: TimeoutOption = 120.0,
    limit: LimitOption = None,
    collection: CollectionOption = None,
    filter_: Annotated[str | None, typer.Option("--filter", help=f"{FILTER_HELP} Every question's.")] = None,
    workers: WorkersOption = 1,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Empty --out first instead of resuming it.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Answer a file of questions; one JSON line per question in --out.

    Exit status 3 when every question failed (status error or failed); some failed: 0, and the
    summary counts them (their lines say why; a rerun answers them again).
    """
    from clew.corpus.store import Corpus
    from clew.evals.runner import FAILED_ANSWERS, batch_settings, prepare_answers_file, run_batch
    from clew.evals.systems import parse_systems

    db = database(db)
    collection = _collection(db, collection, "clew batch")
    dataset = _dataset(questions, "questions")
    if "," in system:
        raise fail("--system takes one system")
    if out_file.resolve() == questions.resolve():
        raise fail(f"--out {out_file} is the file of questions; name another file for the answers")
    built, _ = configured_model(model, model_option)
    (chosen,) = parse_systems(system, have_model=built is not None)
    chosen_filter = checked_filter(filter_)
    resume = prepare_answers_file(out_file, dataset.questions, batch_settings(chosen, built, budget_tokens,
                                                                              chosen_filter), overwrite=overwrite)
    if resume.kept or resume.retried:
        err.print(f"resuming {out_file}: {plural(resume.kept, 'answer')} kept, {resume.retried} errored answered again "
                  f"(--overwrite starts afresh)", highlight=False)
    picked = dataset.questions[:limit] if limit is not None else dataset.questions
    elsewhere = _processes(db, workers, budget_tokens, built, timeout, concurrency)
    with Corpus(db, read_only=True) as corpus:
        rows = run_loop(run_batch(picked, chosen, corpus, out_file, budget_tokens=budget_tokens,
                                     collection=collection, model=built, concurrency=concurrency,
                                     timeout_s=timeout, executor=elsewhere, whole=dataset.questions,
                                     doc_filter=chosen_filter))
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    failed = sum(counts.get(status, 0) for status in FAILED_ANSWERS)
    summary = {"questions": len(rows), "status": counts, "failed": failed, "out": str(out_file)}
    every = bool(rows) and failed == len(rows)

    def show() -> None:
        tally = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        out.print(f"{plural(len(rows), 'question')} answered ({tally}); answers in {out_file}",
                  highlight=False, markup=False)
        if failed:
            err.print(f"{'every question' if every else plural(failed, 'question')} failed; the reason is on "
                      f"{'its' if failed == 1 else 'their'} line in {out_file} (a rerun answers "
                      f"{'it' if failed == 1 else 'them'} again)", highlight=False, markup=False)

    respond(summary, show, status="failed" if every else "ok")
