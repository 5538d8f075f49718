"""``clew <tool>``: one command per tool of the surface, generated from its declaration.

A tool's required arguments are positional (in the order the argument model declares
them), every other argument is an option named after it (``top_k``: ``--top-k``; a list is
repeated, a boolean is ``--x/--no-x``, an object is JSON text; a ``filter`` also takes
``FIELD=VALUE``), plus ``--db`` and ``--json``. Values go through the tool's own argument
model, so that an unknown option, a wrong value or a blank id is the same error as through
Python, REST and MCP (exit status 2, the field named); out-of-range bounds are clamped and
reported in ``applied``. The result prints as JSON (``--json``) or as a short listing.
Exit status: 0 for ``ok`` and ``no_match`` (and a run that finished), 1 when the result is
``unavailable``, ``malformed`` or ``failed``, 2 for bad input.

Short names kept from earlier releases: ``nav`` (navigate_document_tree), ``expand``
(expand_neighbors), ``slice`` (fetch_slice), ``fetch`` (fetch_evidence).
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from clew.commands.common import fail, require_db
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError
from clew.tools.registry import Registry, Tool, ToolContext

ALIASES = {"navigate_document_tree": "nav", "expand_neighbors": "expand", "fetch_slice": "slice",
           "fetch_evidence": "fetch"}
FINE = ("ok", "no_match", "incomplete")


def _kind(schema: dict[str, Any]) -> str:
    """integer, boolean, string, strings (a list of strings) or json, from a property's schema."""
    types = [schema] + list(schema.get("anyOf", []))
    named = [t.get("type") for t in types if t.get("type") not in (None, "null")]
    if isinstance(schema.get("type"), list):
        named = [t for t in schema["type"] if t != "null"]
    array: dict[str, Any] = next((t for t in types if t.get("type") == "array"), {})
    if named == ["array"] and array.get("items", {}).get(
            "type") == "string":
        return "strings"
    return named[0] if len(named) == 1 and named[0] in ("integer", "boolean", "string") else "json"


PYTHON = {"integer": int, "boolean": bool, "string": str, "strings": list[str], "json": str}


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
            annotation: Any = PYTHON[kind]
            default: Any = inspect.Parameter.empty
        else:
            flag = name.replace("_", "-")
            marker = typer.Option(f"--{flag}/--no-{flag}" if kind == "boolean" else f"--{flag}", help=help_text)
            annotation, default = PYTHON[kind] | None, None
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                            annotation=Annotated[annotation, marker]))
    parameters.append(inspect.Parameter("db", inspect.Parameter.KEYWORD_ONLY,
                                        annotation=Annotated[Path, typer.Option("--db", help="DuckDB corpus file.")]))
    parameters.append(inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a summary.")]))
    return parameters


def _value(tool: Tool, name: str, value: Any) -> Any:
    """A value as typed on the command line, as the argument model reads it."""
    prop = tool.parameters()["properties"].get(name, {})
    if not isinstance(value, str) or _kind(prop) != "json":
        return value
    if name == "filter" and not value.lstrip().startswith("{"):
        from clew.corpus.access import parse_field_expression

        return parse_field_expression(value).model_dump(exclude_none=True)
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        if any(t.get("type") == "string" for t in prop.get("anyOf", ())):  # e.g. generator: a model name
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


def run_tool(tool: Tool, values: dict[str, Any], db: Path, as_json: bool) -> None:
    require_db(db)
    try:
        arguments = {k: _value(tool, k, v) for k, v in values.items()}
        with Corpus(db, read_only=True) as corpus:
            # inline: a thread and an event loop would only add to a one-off call (``retrieve`` runs its own loop)
            result = registry_of(tool.name).call(tool.name, arguments, ToolContext(Scope(corpus)))
    except ClewError as error:
        raise fail(error) from error
    if as_json:
        print(result.model_dump_json())
    elif tool.name == "retrieve":
        print(result.model_dump_json(indent=2))
    else:
        from clew.commands.show import show

        show(result)
    if getattr(result, "status", "ok") not in FINE:
        raise typer.Exit(code=1)


def _command(tool: Tool) -> Any:
    def command(ctx: typer.Context, **given: Any) -> None:
        db, as_json = given.pop("db"), given.pop("as_json")
        values = {k: v for k, v in given.items() if v is not None}
        extra = list(ctx.args)
        for name, value in values.items():  # a trailing list argument swallows unknown options after it
            if isinstance(value, list) and any(v.startswith("--") for v in value):
                cut = next(i for i, v in enumerate(value) if v.startswith("--"))
                values[name], extra = value[:cut], [*value[cut:], *extra]
        values.update(_extra(extra))
        run_tool(tool, values, db, as_json)

    command.__name__ = tool.name
    command.__doc__ = tool.description
    context = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    command.__signature__ = inspect.Signature([context, *_parameters(tool)])  # type: ignore[attr-defined]
    return command


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
    app = typer.Typer()
    app.command(tool.name, context_settings=_SETTINGS, help=tool.description)(_command(tool))
    if tool.name in ALIASES:
        app.command(ALIASES[tool.name], context_settings=_SETTINGS, hidden=True, help=tool.description)(_command(tool))
    return app


def tool_commands() -> list[str]:
    """Every command this module makes: one per tool of the surface, and the short names."""
    from clew.surface import surface

    return [name for tool in surface.tools() for name in (tool.name, ALIASES.get(tool.name)) if name is not None]
