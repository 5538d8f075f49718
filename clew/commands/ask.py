"""``clew ask``: run the retrieval agent from the command line."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import typer

from clew.agent.request import Navigation
from clew.budgets.bounds import bounds
from clew.budgets.limits import (
    DEFAULT_CONTEXT_TOKENS,
    DEFAULT_EXTRACT_TOKENS,
    DEFAULT_TIMEOUT_SECONDS,
    HARD_MAX_TOOL_CALLS,
    Limits,
)
from clew.commands.common import (
    FILTER_HELP,
    CollectionOption,
    DbOption,
    JsonOption,
    command,
    configured,
    database,
    err,
    filter_argument,
    out,
    respond,
)
from clew.commands.common import (
    collection as resolve_collection,
)
from clew.commands.models import ModelOption, ModelOptionsOption, configured_model

app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli

EXAMPLE = 'clew ask "Who is paged for a SEV1 incident?" --db docs.duckdb'
RANGES = {name: f"{bound.low}-{bound.high}" for name, bound in {**bounds(Limits), **bounds(Navigation)}.items()}
"""Each bounded option's range, as the request declares it (its fields' ``Clamp``)."""


@command(app, example=EXAMPLE)
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    db: DbOption = None,
    collection: CollectionOption = None,
    strategy: Annotated[Literal["tree", "graph", "free"], typer.Option(
        help="tree (sections and passages), graph (edges of --index), or free (the model picks tools).")] = "tree",
    selection: Annotated[Literal["ranked", "agentic"], typer.Option(
        help="ranked (no model for navigation) or agentic (the model chooses each step).")] = "ranked",
    model: ModelOption = None,
    model_option: ModelOptionsOption = None,
    index: Annotated[str | None, typer.Option(
        help="Graph to walk (graph), or a user graph whose child edges join documents (tree).")] = None,
    edge_type: Annotated[list[str] | None, typer.Option(
        "--edge-type", help="Edge types to follow (graph; tree over a user graph).")] = None,
    direction: Annotated[Literal["out", "in", "both"] | None, typer.Option(help="Edge direction (graph).")] = None,
    filter_: Annotated[str | None, typer.Option("--filter", help=FILTER_HELP)] = None,
    start_key: Annotated[str | None, typer.Option(help="Document key to start from.")] = None,
    max_depth: Annotated[int | None, typer.Option(help=f"Tree depth ({RANGES['max_depth']}).")] = None,
    beam_width: Annotated[int | None, typer.Option(
        help=f"Children offered per expansion ({RANGES['beam_width']}).")] = None,
    follow_links: Annotated[bool | None, typer.Option(
        "--follow-links/--no-follow-links", help="Tree: also offer the passages a visited one links to.")] = None,
    max_steps: Annotated[int | None, typer.Option(help=f"Graph moves ({RANGES['max_steps']}).")] = None,
    max_tool_calls: Annotated[int | None, typer.Option(
        help=f"Tool calls (never above {HARD_MAX_TOOL_CALLS}; default {HARD_MAX_TOOL_CALLS}).")] = None,
    max_iterations: Annotated[int | None, typer.Option(
        help=f"Iterations ({RANGES['max_internal_iterations']}; each is a model turn in an agentic walk or a free "
             "run).")] = None,
    context_tokens: Annotated[int | None, typer.Option(
        help=f"Context token budget (default {DEFAULT_CONTEXT_TOKENS}).")] = None,
    timeout: Annotated[float | None, typer.Option(
        "--timeout", help=f"Seconds the whole run may take ({RANGES['timeout_seconds']}, default "
                          f"{DEFAULT_TIMEOUT_SECONDS:g}); then it ends incomplete with what it found.")] = None,
    instruction_field: Annotated[str | None, typer.Option(help="Document field holding instructions.")] = None,
    extract_tokens: Annotated[int | None, typer.Option(
        help="Size of the extract (the answer quoted from the evidence without a model), in tokens, citations "
             f"included (default {DEFAULT_EXTRACT_TOKENS}).")
    ] = None,
    steps: Annotated[bool, typer.Option("--steps", help="Also show every step: the walk as a tree (with --json, "
                                                        "the steps in the result: include_steps).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Ask a question: search, walk the structure, answer with citations.

    Budgets left out come from [budgets] in clew.toml, else the defaults. A run that fails
    (store or model) exits with status 3; one that ends incomplete still exits 0."""
    from clew import _process
    from clew.agent.api import retrieve_sync
    from clew.commands.render import print_result
    from clew.corpus.store import Corpus

    path = database(db)
    chosen, _ = configured_model(model, model_option)
    budgets: dict[str, Any] = {"max_tool_calls": max_tool_calls, "context_budget_tokens": context_tokens,
                               "timeout_seconds": timeout, "max_internal_iterations": max_iterations,
                               "extract_tokens": extract_tokens}
    config = configured()  # None: nothing to read, and the settings code stays unloaded
    from_config = config.budgets.model_dump(exclude_unset=True) if config is not None else {}
    request: dict[str, Any] = {"query": question, **from_config,
                               **{k: v for k, v in budgets.items() if v is not None}, "include_steps": steps}
    if strategy != "free":
        walk: dict[str, Any] = {"index": index, "edge_types": edge_type, "direction": direction,
                                "start_key": start_key, "max_depth": max_depth, "beam_width": beam_width,
                                "follow_links": follow_links, "max_steps": max_steps,
                                "instruction_field": instruction_field}
        navigation = {"strategy": strategy, "selection": selection, **{k: v for k, v in walk.items() if v is not None}}
        request["steps"] = {"retrieval": {"navigation": navigation}}
    chosen_filter = filter_argument(filter_) if filter_ is not None else None
    _process.settled()  # the code is loaded: the walk and its output come next
    with Corpus(path, read_only=True) as corpus:
        chosen_collection = resolve_collection(corpus, collection, needed=None if strategy == "free" else "a walk")
        query: dict[str, Any] = {"collection": chosen_collection} if chosen_collection is not None else {}
        if chosen_filter is not None:
            query["filter"] = chosen_filter
        if query:
            request["queries"] = [query]
        result = retrieve_sync(request, corpus=corpus, model=chosen)
    if chosen is None:  # no model: no thread was started, and the corpus is closed
        _process.ends_at_once()
    given = {**budgets, "max_depth": max_depth, "beam_width": beam_width, "max_steps": max_steps}

    def show() -> None:
        for note in clamp_notes(given, result.applied):
            err.print(note, markup=False, highlight=False)
        print_result(out, result, steps=steps)

    respond(result, show)


def clamp_notes(given: dict[str, Any], applied: dict[str, Any]) -> list[str]:
    """One line for each option given out of its range, with the value the run applied instead:
    ``--context-tokens 100 is out of range (256-200000): 256 applied``."""
    from clew.commands.render import FLAGS

    return [f"{FLAGS.get(name, '--' + name.replace('_', '-'))} {value} is out of range ({RANGES.get(name, '?')}): "
            f"{applied[name]} applied" for name, value in given.items()
            if value is not None and name in applied and applied[name] != value]
