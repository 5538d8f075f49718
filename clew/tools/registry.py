"""A registry of the agent's tools: name, description, argument model, handler.

A tool is a plain function ``fn(scope, **arguments)`` (plus ``ledger`` when it records
evidence) whose docstring is the description a model reads, paired with the pydantic model
of its arguments. The registry exports OpenAI-style function schemas for model tool calling
and dispatches calls: arguments (a dict, or JSON text as models send it) are validated by
the model, and any error names the field. A tool the principal may not use is reported
exactly like a tool that does not exist.

Register one tool per line (``registry.add(function, ArgumentsModel)``); see
``clew.tools.builtin``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from clew.corpus.reader import Scope
from clew.errors import InputError
from clew.navigation.evidence import EvidenceLedger
from clew.navigation.models import Args, parse_args


@dataclass(frozen=True)
class ToolContext:
    """What a call runs with: the caller's read scope and the run's evidence ledger."""

    scope: Scope
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    arguments: type[Args]
    handler: Callable[[ToolContext, Args], BaseModel]

    @classmethod
    def of(cls, function: Callable[..., BaseModel], arguments: type[Args], name: str | None = None) -> Tool:
        """A tool from a function ``fn(scope, **arguments[, ledger])``; its docstring describes it."""
        takes_ledger = "ledger" in inspect.signature(function).parameters

        def handler(context: ToolContext, args: Args) -> BaseModel:
            values = {k: getattr(args, k) for k in type(args).model_fields}
            if takes_ledger:
                values["ledger"] = context.ledger
            return function(context.scope, **values)

        return cls(name or function.__name__, inspect.getdoc(function) or "", arguments, handler)

    def schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema of this tool (built once: models are asked often)."""
        return _schema(self.name, self.description, self.arguments)


@functools.lru_cache(maxsize=None)
def _schema(name: str, description: str, arguments: type[Args]) -> dict[str, Any]:
    """Shared between callers: treat it as read-only."""
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": _clean(arguments.model_json_schema())},
    }


def _clean(schema: Any) -> Any:
    """Drop pydantic's generated titles: models read descriptions, titles only add tokens."""
    if isinstance(schema, dict):
        return {k: _clean(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_clean(v) for v in schema]
    return schema


class Registry:
    def __init__(self) -> None:
        self._tools: dict[str, Tool] = {}

    def add(self, function: Callable[..., BaseModel], arguments: type[Args], name: str | None = None) -> Tool:
        tool = Tool.of(function, arguments, name)
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool
        return tool

    def names(self) -> list[str]:
        return sorted(self._tools)

    def get(self, name: object, context: ToolContext | None = None) -> Tool:
        """The tool called ``name`` that the context's principal may use."""
        tool = self._tools.get(name) if isinstance(name, str) else None
        if tool is None or (context is not None and not context.scope.principal.may_use(tool.name)):
            raise InputError("name", f"unknown tool {name!r}; tools: {', '.join(self.names_for(context))}")
        return tool

    def names_for(self, context: ToolContext | None) -> list[str]:
        principal = None if context is None else context.scope.principal
        return [n for n in self.names() if principal is None or principal.may_use(n)]

    def schemas(self, context: ToolContext | None = None) -> list[dict[str, Any]]:
        """Function schemas of every tool (or of those the context's principal may use), by name."""
        return [self._tools[name].schema() for name in self.names_for(context)]

    def call(self, name: str, arguments: dict[str, Any] | str, context: ToolContext) -> BaseModel:
        """Validate ``arguments`` for tool ``name`` and run it."""
        tool = self.get(name, context)
        return tool.handler(context, parse_args(tool.arguments, arguments))

    async def acall(self, name: str, arguments: dict[str, Any] | str, context: ToolContext, *,
                    offload: bool = True) -> BaseModel:
        """``call`` off the event loop (DuckDB reads block), or inline with ``offload=False``."""
        if not offload:
            return self.call(name, arguments, context)
        return await asyncio.to_thread(self.call, name, arguments, context)
