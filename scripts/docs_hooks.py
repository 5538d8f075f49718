"""MkDocs hook (``hooks:`` in mkdocs.yml): the reference pages' generated parts.

A page asks for a part with a marker line; the build replaces it with text made from the code
as it stands, so the reference cannot drift from it:

- ``<!-- generated:cli -->``: every command's ``--help``, from the typer app (``clew.cli``);
- ``<!-- generated:tool-schemas -->``: each tool's description and JSON argument schema, from
  its declaration (``clew.surface``), the schema a model's tool call is checked against;
- ``<!-- generated:rest -->``: the REST routes, from the OpenAPI document of ``clew serve``;
- ``<!-- generated:python-api -->``: one mkdocstrings block per name of ``clew.__all__``.

Nothing here reaches the network: the OpenAPI document comes from an app over an in-memory
corpus that is never served.
"""

from __future__ import annotations

import inspect
import json
import re
from functools import cache
from typing import Any

MARKER = "<!-- generated:{} -->"
_MADE_AT_IMPORT = {"asearch", "aingest_paths"}
"""Names that are made by a call when their module loads: their docstring exists only at run time."""


def _cli() -> str:
    from typer import _click as click
    from typer.main import get_group

    from clew.cli import COMMANDS, app, load_command

    root = get_group(app)
    root_ctx = click.Context(root, info_name="clew")
    parts = ["## clew", "", "```text", root.get_help(root_ctx).rstrip(), "```", ""]
    aliases: dict[str, list[str]] = {}
    for name, entry in COMMANDS.items():
        if entry.hidden:
            target = next(n for n, e in COMMANDS.items() if not e.hidden and e.summary == entry.summary)
            aliases.setdefault(target, []).append(name)
    for name, entry in COMMANDS.items():
        if entry.hidden:
            continue
        command = load_command(name)
        ctx = click.Context(command, info_name=name, parent=root_ctx)
        also = f" (also `clew {'`, `clew '.join(aliases[name])}`)" if name in aliases else ""
        parts += [f"## clew {name}", "", f"{entry.summary}{also}", "", "```text",
                  command.get_help(ctx).rstrip(), "```", ""]
    return "\n".join(parts)


def _tool_schemas() -> str:
    from clew.surface import surface

    parts: list[str] = []
    for tool in surface.tools():
        schema = json.dumps(tool.parameters(), indent=2, ensure_ascii=False)
        parts += [f"### `{tool.name}`", "", tool.description.strip(), "",
                  f"Result: `{tool.result.__name__}` (fields {', '.join(f'`{n}`' for n in tool.result.model_fields)}).",
                  "", '??? note "Argument schema (JSON)"', "", "    ```json",
                  *("    " + line for line in schema.splitlines()), "    ```", ""]
    return "\n".join(parts)


def _rest() -> str:
    from clew.corpus.store import Corpus
    from clew.server.rest import create_app

    with Corpus(":memory:") as corpus:
        document: dict[str, Any] = create_app(corpus, auth=False).openapi()
    rows = ["| method | path | what it does | error statuses |", "| --- | --- | --- | --- |"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            about = (operation.get("description") or operation.get("summary") or "").strip()
            about = " ".join(about.split("\n\n")[0].split()).replace("|", "\\|")
            errors = ", ".join(sorted(status for status in operation.get("responses", {}) if status >= "400"))
            rows.append(f"| {method.upper()} | `{path}` | {about} | {errors} |")
    return "\n".join(rows)


class _Written(str):
    """An annotation written as a string, shown as written (``inspect`` would quote it)."""

    def __repr__(self) -> str:
        return str(self)


def _signature(function: Any) -> inspect.Signature:
    signature = inspect.signature(function)
    unquote = lambda a: _Written(a) if isinstance(a, str) else a  # noqa: E731
    return signature.replace(parameters=[p.replace(annotation=unquote(p.annotation))
                                         for p in signature.parameters.values()],
                             return_annotation=unquote(signature.return_annotation))


def _python_api() -> str:
    import clew

    homes: dict[str, str] = clew._HOMES
    parts: list[str] = []
    for name in sorted(clew.__all__, key=str.lower):
        if name in _MADE_AT_IMPORT:  # a static reading finds an assignment: its doc is the object's own
            made = getattr(clew, name)
            parts += [f"## `clew.{name}`", "", "```python", f"async def {name}{_signature(made)}", "```", "",
                      inspect.getdoc(made) or "", ""]
        elif name in homes:
            parts += [f"## `clew.{name}`", "", f"::: {homes[name]}.{name}", "    options:",
                      "      show_root_heading: false", ""]
    return "\n".join(parts)


GENERATORS = {"cli": _cli, "tool-schemas": _tool_schemas, "rest": _rest, "python-api": _python_api}


@cache
def _generated(kind: str) -> str:
    return GENERATORS[kind]()


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The page with each marker replaced; a marker of no known part stops the build, naming it."""
    for kind in re.findall(r"<!-- generated:(\S+) -->", markdown):
        if kind not in GENERATORS:
            raise ValueError(f"unknown marker <!-- generated:{kind} -->; known: {', '.join(GENERATORS)}")
        markdown = markdown.replace(MARKER.format(kind), _generated(kind))
    return markdown
