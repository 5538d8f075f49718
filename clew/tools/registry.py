"""A registry of tools, each declared once: name, description, argument and result models,
permission, handler.

A tool is a plain function ``fn(scope, args) -> Result`` (plus ``ledger`` when it records
evidence) whose docstring is the description a model reads and whose ``args`` is the pydantic
model of its arguments, validated once by the registry; the result model is the function's
return annotation.
Bounds are ``Clamp`` metadata on the argument model (``clew.budgets.bounds``), so that what
a tool applies and what its schema states are read from one place. A tool whose arguments
take ``collection`` (``InCollection``) reads inside the caller's scope narrowed to it, and
never outside it.

The registry exports OpenAI-style function schemas for model tool calling and dispatches
calls: arguments (a dict, or JSON text as models send it) are validated by the model, and
any error names the field. A tool the principal may not use is reported exactly like a
tool that does not exist (``UnknownTool``); front ends that must say 403 ask ``permitted``
first. Every front end (Python, CLI, REST, MCP, the agent's free run) is generated from a
registry: register one tool per line, ``registry.add(function, ArgumentsModel)``, or by
where it lives, ``registry.declare(module, function, arguments)``, which imports the module
only when the tool is first used (``clew.tools.builtin`` does, so that ``clew search`` loads
neither the navigation tools nor their models); listing the names imports nothing.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_type_hints

from pydantic import BaseModel

from clew.errors import UnknownTool
from clew.navigation.ledger import EvidenceLedger
from clew.navigation.models import parse_args
from clew.tools.schema import compact, unwrap

if TYPE_CHECKING:
    from clew.corpus.access import Principal
    from clew.corpus.reader import Scope


@dataclass(frozen=True)
class ToolContext:
    """What a call runs with: the caller's read scope and the run's (or session's) evidence ledger.

    ``model``, ``model_options`` and ``request_defaults`` matter to ``retrieve`` only: a model to
    run with (tests pass fakes), how to reach a named one (``clew.config.model_options``), and
    request fields a server fills in when a request leaves them out.
    """

    scope: Scope
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)
    model: Any = None
    model_options: Any = None
    request_defaults: Mapping[str, Any] = field(default_factory=dict)


Handler = Callable[[ToolContext, Any], BaseModel | Awaitable[BaseModel]]
"""Called with the tool's own argument model (validated by ``validate``)."""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    arguments: type[BaseModel]
    result: type[BaseModel]
    handler: Handler
    permission: Callable[[Principal], bool] | None = None
    """Who may use it (None: a principal whose tool permissions name it)."""
    prepare: Callable[[dict[str, Any], ToolContext], dict[str, Any]] | None = None
    """Rewrites the arguments as sent before validation (``retrieve``: the server's defaults)."""
    hidden: frozenset[str] = frozenset()
    """Argument fields left out of the schema (``retrieve``: ``principal``, always the caller's)."""
    text: Callable[[Any], str] | None = None
    """How a model reads a result, where JSON would cost it more than it needs (MCP's text block;
    None: the result's JSON)."""

    def as_text(self, result: BaseModel) -> str:
        return self.text(result) if self.text is not None else result.model_dump_json()

    @classmethod
    def of(cls, function: Callable[..., BaseModel], arguments: type[BaseModel], name: str | None = None) -> Tool:
        """A tool from a function ``fn(scope, args[, ledger])`` whose ``args`` is its argument model,
        validated once, here, and passed in whole; its docstring describes it."""
        parameters = inspect.signature(function).parameters
        if list(parameters)[1:2] != ["args"]:
            raise TypeError(f"a tool is fn(scope, args: {arguments.__name__}[, ledger]); "
                            f"{function.__name__} takes ({', '.join(parameters)})")
        takes_ledger = "ledger" in parameters
        narrows = "collection" in arguments.model_fields

        def handler(context: ToolContext, args: BaseModel) -> BaseModel:
            scope = context.scope.within(getattr(args, "collection")) if narrows else context.scope
            return function(scope, args, ledger=context.ledger) if takes_ledger else function(scope, args)

        result = get_type_hints(function)["return"]
        return cls(name or function.__name__, unwrap(inspect.getdoc(function) or ""), arguments, result, handler)

    def permitted(self, principal: Principal) -> bool:
        return self.permission(principal) if self.permission is not None else principal.may_use(self.name)

    def parameters(self) -> dict[str, Any]:
        """The JSON schema of its arguments (built once: models are asked often; treat it as read-only)."""
        return _parameters(self.arguments, self.hidden)

    def schema(self) -> dict[str, Any]:
        """The OpenAI-style function schema of this tool."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters()}}

    def validate(self, arguments: dict[str, Any] | str, context: ToolContext) -> BaseModel:
        if self.prepare is not None:
            arguments = self.prepare(_as_dict(arguments, self.arguments), context)
        return parse_args(self.arguments, arguments)  # type: ignore[type-var]

    async def run(self, args: BaseModel, context: ToolContext, *, offload: bool = True) -> BaseModel:
        import asyncio  # on first use: a command line that calls one tool inline never loads it

        if offload and not inspect.iscoroutinefunction(self.handler):
            outcome = await asyncio.to_thread(self.handler, context, args)
        else:
            outcome = self.handler(context, args)
        return outcome if isinstance(outcome, BaseModel) else await outcome


def _as_dict(arguments: dict[str, Any] | str, model: type[BaseModel]) -> dict[str, Any]:
    """Arguments as a dict, for ``prepare``; anything that is not an object raises the arguments' error."""
    if isinstance(arguments, str):
        try:
            loaded = json.loads(arguments)
        except json.JSONDecodeError:
            loaded = None
        if isinstance(loaded, dict):
            return loaded
    if not isinstance(arguments, dict):
        parse_args(model, arguments)  # type: ignore[type-var]  # raises: not an object
    return arguments  # type: ignore[return-value]


@functools.lru_cache(maxsize=None)
def _parameters(arguments: type[BaseModel], hidden: frozenset[str]) -> dict[str, Any]:
    schema: dict[str, Any] = arguments.model_json_schema()
    for name in hidden:
        schema.get("properties", {}).pop(name, None)
    if "required" in schema:
        schema["required"] = [n for n in schema["required"] if n not in hidden]
    return compact(schema)  # a hidden field's models leave with it (retrieve's Principal: 246 tokens)


@dataclass(frozen=True)
class Declared:
    """A tool declared by where it lives: its module is imported when the tool is first used,
    so that a front end serving one tool (``clew search``) loads only that tool's code and models."""

    module: str
    function: str
    arguments: str
    """The argument model's name, in the same module."""
    name: str

    def load(self) -> Tool:
        return _load(self)


@functools.lru_cache(maxsize=None)
def _load(declared: Declared) -> Tool:  # one Tool per declaration, in every registry that holds it
    home = importlib.import_module(declared.module)
    return Tool.of(getattr(home, declared.function), getattr(home, declared.arguments), declared.name)


class Registry:
    def __init__(self, tools: list[Tool | Declared] | None = None) -> None:
        self._tools: dict[str, Tool | Declared] = {}
        for tool in tools or ():
            self.add_tool(tool)

    def add(self, function: Callable[..., BaseModel], arguments: type[BaseModel], name: str | None = None) -> Tool:
        tool = Tool.of(function, arguments, name)
        self.add_tool(tool)
        return tool

    def declare(self, module: str, function: str, arguments: str, name: str | None = None) -> None:
        """Add the tool ``module.function`` with the argument model ``module.arguments``, imported on first use."""
        self.add_tool(Declared(module, function, arguments, name or function))

    def add_tool(self, tool: Tool | Declared) -> None:
        if tool.name in self._tools:
            raise ValueError(f"a tool named {tool.name!r} is already registered")
        self._tools[tool.name] = tool

    def extended(self, *tools: Tool) -> Registry:
        """A new registry: these tools and ``tools``."""
        return Registry([*self._tools.values(), *tools])

    def names(self) -> list[str]:
        """Every tool's name (importing none of them)."""
        return sorted(self._tools)

    def tools(self) -> list[Tool]:
        """Every tool, in the order registered."""
        return [self._tool(name) for name in self._tools]

    def _tool(self, name: str) -> Tool:
        entry = self._tools[name]
        return entry.load() if isinstance(entry, Declared) else entry

    def get(self, name: object, context: ToolContext | None = None) -> Tool:
        """The tool called ``name`` that the context's principal may use (else ``UnknownTool``)."""
        tool = self._tool(name) if isinstance(name, str) and name in self._tools else None
        if tool is None or (context is not None and not tool.permitted(context.scope.principal)):
            raise UnknownTool(name, self.names_for(context))
        return tool

    def names_for(self, context: ToolContext | None) -> list[str]:
        principal = None if context is None else context.scope.principal
        return [n for n in self.names() if principal is None or self._tool(n).permitted(principal)]

    def schemas(self, context: ToolContext | None = None) -> list[dict[str, Any]]:
        """Function schemas of every tool (or of those the context's principal may use), by name."""
        return [self._tool(name).schema() for name in self.names_for(context)]

    def call(self, name: str, arguments: dict[str, Any] | str, context: ToolContext) -> BaseModel:
        """Validate ``arguments`` for tool ``name`` and run it (a synchronous tool)."""
        tool = self.get(name, context)
        args = tool.validate(arguments, context)
        if inspect.iscoroutinefunction(tool.handler):
            import asyncio

            return asyncio.run(tool.run(args, context))
        return tool.handler(context, args)  # type: ignore[return-value]

    async def acall(self, name: str, arguments: dict[str, Any] | str, context: ToolContext, *,
                    offload: bool = True) -> BaseModel:
        """``call`` off the event loop (DuckDB reads block), or inline with ``offload=False``."""
        tool = self.get(name, context)
        return await tool.run(tool.validate(arguments, context), context, offload=offload)
