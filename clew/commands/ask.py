"""``clew ask``: run the retrieval agent from the command line."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from clew.agent.api import retrieve_sync
from clew.commands.common import DbOption, JsonOption, fail, out, require_db
from clew.commands.models import ConfigOption, ModelOption, ModelOptionsOption, configured_model
from clew.commands.render import print_result
from clew.corpus.store import Corpus
from clew.errors import ClewError

app = typer.Typer()


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    db: DbOption,
    collection: Annotated[str | None, typer.Option(help="Collection to search and walk.")] = None,
    strategy: Annotated[str, typer.Option(help="tree, graph, or free (the model picks tools).")] = "tree",
    selection: Annotated[str, typer.Option(help="ranked (no model for navigation) or agentic.")] = "ranked",
    model: ModelOption = None,
    model_option: ModelOptionsOption = None,
    config: ConfigOption = None,
    index: Annotated[
        str | None, typer.Option(help="Graph to walk (graph), or a user graph whose child edges join documents (tree).")
    ] = None,
    edge_type: Annotated[
        list[str] | None, typer.Option("--edge-type", help="Edge types to follow (graph; tree over a user graph).")
    ] = None,
    direction: Annotated[str | None, typer.Option(help="out, in or both (graph).")] = None,
    start_key: Annotated[str | None, typer.Option(help="Document key to start from.")] = None,
    max_depth: Annotated[int | None, typer.Option(help="Tree depth (1-20).")] = None,
    beam_width: Annotated[int | None, typer.Option(help="Children offered per expansion (1-20).")] = None,
    follow_links: Annotated[
        bool | None,
        typer.Option("--follow-links/--no-follow-links", help="Tree: also offer the passages a visited one links to."),
    ] = None,
    max_steps: Annotated[int | None, typer.Option(help="Graph moves (1-20).")] = None,
    max_tool_calls: Annotated[int, typer.Option(help="Tool calls (never above 20).")] = 20,
    max_iterations: Annotated[
        int | None, typer.Option(help="Iterations (1-100; each is a model turn in an agentic walk or a free run).")
    ] = None,
    context_tokens: Annotated[int, typer.Option(help="Context token budget.")] = 8192,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout", help="Seconds the whole run may take (1-3600); then it ends incomplete with what it found."
        ),
    ] = 600.0,
    instruction_field: Annotated[str | None, typer.Option(help="Document field holding instructions.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Ask a question: search, walk the structure, answer with citations."""
    require_db(db)
    try:
        chosen, _ = configured_model(model, model_option, config)
    except ClewError as error:
        raise fail(error) from error
    request: dict[str, Any] = {"query": question, "max_tool_calls": max_tool_calls,
                               "context_budget_tokens": context_tokens, "timeout_seconds": timeout}
    if max_iterations is not None:
        request["max_internal_iterations"] = max_iterations
    if collection is not None:
        request["queries"] = [{"collection": collection}]
    if strategy != "free":
        if collection is None:
            raise fail("--collection is needed to walk (a walk never leaves its collection)")
        navigation: dict[str, Any] = {"strategy": strategy, "selection": selection}
        for name, value in (("index", index), ("edge_types", edge_type), ("direction", direction),
                            ("start_key", start_key), ("max_depth", max_depth), ("beam_width", beam_width),
                            ("follow_links", follow_links), ("max_steps", max_steps),
                            ("instruction_field", instruction_field)):
            if value is not None:
                navigation[name] = value
        request["steps"] = {"retrieval": {"navigation": navigation}}
    try:
        with Corpus(db, read_only=True) as corpus:
            result = retrieve_sync(request, corpus=corpus, model=chosen)
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(result.model_dump_json())
    else:
        print_result(out, result)
    if result.status == "failed":
        raise typer.Exit(code=1)
