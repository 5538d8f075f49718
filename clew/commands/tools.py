"""``clew <tool>``: one command per tool of the surface, generated from its declaration.

A tool's required arguments are positional (in the order the argument model declares
them), every other argument is an option named after it (``top_k``: ``--top-k``; a list is
repeated, a boolean is ``--x/--no-x``, an object is JSON text; a ``filter`` also takes
``FIELD=VALUE``), plus ``--db``, ``--json`` and ``--config``. Values go through the tool's own
argument model, so that an unknown option, a wrong value or a blank id is the same error as
through Python, REST and MCP (exit status 2, the field named); out-of-range bounds are
clamped and reported in ``applied``. An argument with a fixed set of values (``--mode``)
shows them as choices. The result prints as the JSON envelope (``--json``) or as a short
listing. Exit status (``clew.commands.common``): 0 for ``ok`` (and a run that ended
``incomplete``), 1 for ``no_match`` and ``unavailable``, 2 for bad input and ``malformed``
ids, 3 for ``failed``. ``--db``, the model, the search collection and ``retrieve``'s defaults
come from clew.toml as they do for ``clew serve``.

Short names kept from earlier releases: ``nav`` (navigate_document_tree), ``expand``
(expand_neighbors), ``slice`` (fetch_slice), ``fetch`` (fetch_evidence).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from clew.commands.common import (
    DbOption,
    JsonOption,
    collection,
    command,
    configured,
    database,
    filter_argument,
    respond,
    settings,
)
from clew.errors import InputError
from clew.tools.registry import Registry, Tool

ALIASES = {"navigate_document_tree": "nav", "expand_neighbors": "expand", "fetch_slice": "slice",
           "fetch_evidence": "fetch"}
EXAMPLES = {
    "search": 'clew search "busy timeout" --db docs.duckdb --mode bm25 --limit 5',
    "navigate_document_tree": "clew navigate_document_tree ev1:c:1:1:0 parent --db docs.duckdb",
    "get_chunk": "clew get_chunk ev1:c:1:1:0 --db docs.duckdb",
    "navigate": "clew navigate guide.md 0 2000 --db docs.duckdb",
    "read": "clew read guide.md --db docs.duckdb --top-k 5",
    "grep": 'clew grep guide.md "busy timeout" --db docs.duckdb',
    "expand_neighbors": "clew expand_neighbors ev1:c:1:1:0 --db docs.duckdb --relationship-types next",
    "fetch_slice": "clew fetch_slice ev1:c:1:1:3 --db docs.duckdb --window 2",
    "fetch_evidence": "clew fetch_evidence ev1:c:1:1:0 ev1:c:1:1:1 --db docs.duckdb",
    "check_citations": "clew check_citations ev1:c:1:1:0 --db docs.duckdb",
    "retrieve": 'clew retrieve "Who is paged for a SEV1 incident?" --db docs.duckdb',
}
"""One example per tool command (``--help`` prints it)."""


def _kind(schema: dict[str, Any]) -> str:
    """integer, boolean, string, strings (a list of strings) or json, from a property's schema."""
    types = [schema] + list(schema.get("anyOf", []))
    named = [t.get("type") for t in types if t.get("type") not in (None, "null")]
    if isinstance(schema.get("type"), list):
        named = [t for t in schema["type"] if t != "null"]
    array: dict[str, Any] = next((t for t in types if t.get("type") == "array" or (
        isinstance(t.get("type"), list) and "array" in t["type"])), {})
    if named == ["array"] and array.get("items", {}).get("type") == "string":
        return "strings"
    return named[0] if len(named) == 1 and named[0] in ("integer", "boolean", "string") else "json"


PYTHON = {"integer": int, "boolean": bool, "string": str, "strings": list[str], "json": str}


def _annotation(schema: dict[str, Any]) -> Any:
    """The Python type of a property: a ``Literal`` of its values when it has a fixed set (choices in --help)."""
    kind = _kind(schema)
    values = schema.get("enum") or next((t["enum"] for t in schema.get("anyOf", ()) if t.get("enum")), None)
    if kind == "string" and values and all(isinstance(v, str) for v in values):
        return Literal[tuple(values)]
    return PYTHON[kind]


def _parameters(tool: Tool) -> list[inspect.Parameter]:
    schema = tool.parameters()
    required = set(schema.get("required", ()))
    parameters = []
    for name, prop in schema["properties"].items():
        kind, help_text = _kind(prop), prop.get("description", "")
        if kind == "json":
            help_text += " (JSON)"
        if name in required:
            marker: Any = typer.Argument(help=help_text)
            annotation: Any = _annotation(prop)
            default: Any = inspect.Parameter.empty
        else:
            flag = name.replace("_", "-")
            marker = typer.Option(f"--{flag}/--no-{flag}" if kind == "boolean" else f"--{flag}", help=help_text)
            annotation, default = _annotation(prop) | None, None
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                            annotation=Annotated[annotation, marker]))
    parameters.append(inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=DbOption))
    parameters.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False,
                                        annotation=JsonOption))
    return parameters


def _value(tool: Tool, name: str, value: Any) -> Any:
    """A value as typed on the command line, as the argument model reads it."""
    prop = tool.parameters()["properties"].get(name, {})
    if not isinstance(value, str) or _kind(prop) != "json":
        return value
    if name == "filter":
        return filter_argument(value)
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        kinds = [prop.get("type"), *(t.get("type") for t in prop.get("anyOf", ()))]
        if any(k == "string" or (isinstance(k, list) and "string" in k) for k in kinds):  # generator: a model name
            return value
        raise InputError(name, f"not valid JSON: {error.msg}") from error


def _extra(arguments: list[str]) -> dict[str, Any]:
    """Options the command does not know, kept so that the tool's model names them."""
    values: dict[str, Any] = {}
    words = list(arguments)
    while words:
        word = words.pop(0)
        name = word.lstrip("-").replace("-", "_") or word
        values[name] = words.pop(0) if words and not words[0].startswith("--") else True
    return values


def run_tool(tool: Tool, values: dict[str, Any], db: Path | None) -> None:
    """Call ``tool`` with the command line's values, the configuration's defaults under them."""
    from clew.corpus.reader import Scope
    from clew.corpus.store import Corpus
    from clew.tools.registry import ToolContext

    path = database(db)
    config = settings() if tool.name == "retrieve" else configured()  # the agent loads the configuration anyway
    arguments = {**(config.tool_defaults(tool.name) if config is not None else {}),
                 **{k: _value(tool, k, v) for k, v in values.items()}}
    model, options = None, None
    if tool.name == "retrieve":
        from clew.commands.models import configured_model

        model, options = configured_model(None, None)
    with Corpus(path, read_only=True) as corpus:
        defaults = config.request_defaults() if config is not None else {}
        if tool.name == "retrieve" and "queries" not in defaults:  # the corpus's only collection
            only = collection(corpus, None)
            defaults = {**defaults, **({"queries": [{"collection": only}]} if only is not None else {})}
        context = ToolContext(Scope(corpus), model=model, model_options=options, request_defaults=defaults)
        # inline: a thread and an event loop would only add to a one-off call (``retrieve`` runs its own loop)
        result = registry_of(tool.name).call(tool.name, arguments, context)
    respond(result, lambda: _show(tool, result, arguments.get("query")))


def _show(tool: Tool, result: Any, query: Any) -> None:
    if tool.name == "retrieve":
        from clew.commands.common import out
        from clew.commands.render import print_result

        print_result(out, result, steps=result.steps is not None)
    else:
        from clew.commands.show import show

        show(result, query if isinstance(query, str) else None)


def _command(tool: Tool) -> Any:
    def call(ctx: typer.Context, **given: Any) -> None:
        db = given.pop("db")
        given.pop("as_json")  # read by the envelope (clew.commands.common.command)
        values = {k: v for k, v in given.items() if v is not None}
        extra = list(ctx.args)
        for name, value in values.items():  # a trailing list argument swallows unknown options after it
            if isinstance(value, list) and any(v.startswith("--") for v in value):
                cut = next(i for i, v in enumerate(value) if v.startswith("--"))
                values[name], extra = value[:cut], [*value[cut:], *extra]
        values.update(_extra(extra))
        run_tool(tool, values, db)

    call.__name__ = tool.name
    call.__doc__ = tool.description
    context = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    call.__signature__ = inspect.Signature([context, *_parameters(tool)])  # type: ignore[attr-defined]
    return call


_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True}


def registry_of(name: str) -> Registry:
    """The registry that serves tool ``name``: the built-in tools' (navigation and search load,
    the agent does not), or the whole surface for ``retrieve``, which runs the agent."""
    from clew.tools.builtin import registry

    if name in registry.names():
        return registry
    from clew.surface import surface

    return surface


def app_for(name: str) -> typer.Typer:
    """The commands of one tool, by its name or short name (``nav``), built from its declaration."""
    tool_name = next((tool for tool, alias in ALIASES.items() if alias == name), name)
    tool = registry_of(tool_name).get(tool_name)
    app = typer.Typer(rich_markup_mode=None)  # plain help: see clew.cli
    example = EXAMPLES[tool.name]
    command(app, tool.name, example=example, context_settings=_SETTINGS, help=tool.description)(_command(tool))
    if tool.name in ALIASES:
        command(app, ALIASES[tool.name], example=example.replace(tool.name, ALIASES[tool.name], 1),
                context_settings=_SETTINGS, hidden=True, help=tool.description)(_command(tool))
    return app


def tool_commands() -> list[str]:
    """Every command this module makes: one per tool of the surface, and the short names."""
    from clew.surface import surface

    return [name for tool in surface.tools() for name in (tool.name, ALIASES.get(tool.name)) if name is not None]
