"""The REST front end: a FastAPI app built from small routers over the tool surface.

``create_app(corpus, config)`` builds the app; ``clew serve`` runs it with uvicorn. Routes:

- ``POST /v1/tools/<name>`` for every tool of ``clew.surface`` (``clew.server.routers.tools``);
- ``POST /v1/agents/retrieval`` (also ``/db/v1/agents/retrieval``): the agent, optionally streamed;
- ``GET /v1/evidence/{id}``, ``POST /v1/citations/check``; ``POST /v1/collections/{name}/documents``;
- ``GET /healthz`` and the OpenAPI document at ``/openapi.json``.

How answers map onto HTTP, the same on every route:

- a tool's result, with its status (``ok``, ``no_match``, ``malformed``, ``failed``), is 200;
  one whose status is ``unavailable`` (a row that does not exist *or* may not be read, the
  same answer) is 404 with the same body;
- out-of-range bounds are clamped by the tools and reported in ``applied``, never an error;
- errors carry their own status (``clew.errors``): bad input 400 naming the field (every
  problem in ``errors``), an unknown or unreadable collection 404, no or a wrong API key
  401, a tool (or walk) the key may not use 403, a write to a read-only corpus 409;
- a store that failed (DuckDB invalidated the file: a failed checkpoint on a full disk) is
  reopened by the next request; while it cannot be, 503 ``store_unavailable`` with the reason
  (``clew.server.storage``);
- a browser's request is checked first (``clew.server.guard``): a ``Host`` the server does
  not answer to 421, a cross-origin write (any cross-origin request without API keys) 403, a
  body that is not JSON on a JSON route 415.

The authenticated principal replaces whatever ``principal`` a retrieval request carries: a
caller can never widen its own permissions. The corpus is opened once by the caller; each
tool call takes its own cursor (``Scope.cursor``) on a worker thread.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any

import duckdb

from clew.extras import missing

try:
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
except ModuleNotFoundError as error:  # the error names the extra to install
    raise missing("server", error) from error

from clew.agent.model import Model
from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError, StoreFailure, Unauthorized, input_error_from
from clew.server.documents_api import add_document_routes
from clew.server.guard import Guard, HostPolicy
from clew.server.reading import MarkReaders
from clew.server.routers import ROUTERS
from clew.server.routers.common import Served, component, principal_of
from clew.server.sse import KEEPALIVE_SECONDS
from clew.server.storage import GuardStore, StoreHealth, answer
from clew.surface import surface

API_VERSION = "v1"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_loopback_for_no_auth(host: str) -> None:
    """``--no-auth`` serves every row to anyone who can connect: loopback only."""
    if not is_loopback(host):
        raise InputError("host", f"--no-auth is allowed only on a loopback address (127.0.0.1, ::1), not {host!r}")


def create_app(corpus: Corpus, config: ServerConfig | None = None, *, auth: bool = True,
               model: Model | None = None, keepalive_seconds: float = KEEPALIVE_SECONDS,
               bind: tuple[str, int] | None = None) -> FastAPI:
    """The REST app over ``corpus``. ``auth=False`` serves as an all-reading local principal
    (``clew serve --no-auth``, loopback only); ``model`` overrides the configured one (tests);
    a streamed run sends a keep-alive comment after ``keepalive_seconds`` without an event.
    ``bind`` is the (host, port) it is served on: the ``Host`` names it answers to
    (``clew.server.guard``; None: the loopback names on any port, or with API keys any host)."""
    settings = config or ServerConfig()
    app = FastAPI(title="clew", version=API_VERSION, description=__doc__)
    app.state.clew = Served(corpus, settings, auth, model, keepalive_seconds)
    app.state.store_health = health = StoreHealth(corpus)
    app.add_middleware(GuardStore, health=health)  # innermost: a reopen happens with the request marked a reader
    app.add_middleware(MarkReaders, corpus=corpus)  # inside the guard: a refused request waits for nothing
    app.add_middleware(Guard, hosts=HostPolicy.of(bind, settings.allowed_hosts, auth=auth), auth=auth)
    for router in ROUTERS:
        app.include_router(router)
    add_document_routes(app, corpus, principal_of)
    app.add_exception_handler(ClewError, _error)  # type: ignore[arg-type]
    app.add_exception_handler(duckdb.Error, _store_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


async def _error(request: Request, error: ClewError) -> JSONResponse:
    if isinstance(error, StoreFailure):
        return await _store_error(request, error)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, Unauthorized) else None
    return JSONResponse(error.payload(), status_code=error.http_status, headers=headers)


async def _store_error(request: Request, error: duckdb.Error | StoreFailure) -> JSONResponse:
    """A request that failed in DuckDB, answered as ``StoreHealth.diagnose`` says (the store is
    reopened if it failed; a JSON 503 or 500, never a plain-text one)."""
    health: StoreHealth = request.app.state.store_health
    return answer(*await asyncio.to_thread(health.diagnose, error))


async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """FastAPI's own checks (query parameters, a typed body), as the same 400 naming the field."""
    errors = error.errors()
    if errors and errors[0].get("type") == "json_invalid":
        return await _error(request, InputError("body", f"not valid JSON: {errors[0].get('msg')}"))
    return await _error(request, input_error_from(_WithoutBody(errors)))


class _WithoutBody:
    """Validation errors of a request, located as the fields a caller sent (no body/query prefix)."""

    def __init__(self, errors: Any) -> None:
        self._errors = [{**e, "loc": _located(tuple(e.get("loc", ())))} for e in errors]

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


def _located(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    return loc[1:] if loc[:1] in (("body",), ("query",), ("path",), ("header",)) else loc


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, plus each tool's request schema (their bodies are read as JSON by the
    tools themselves, so that their errors are the tools' own)."""
    if app.openapi_schema is None:
        from fastapi.openapi.utils import get_openapi

        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        for tool in surface.tools():
            request = tool.arguments.model_json_schema(ref_template="#/components/schemas/{model}")
            for name, schema in request.pop("$defs", {}).items():
                schemas.setdefault(name, schema)
            for hidden in tool.hidden:
                request.get("properties", {}).pop(hidden, None)
            schemas[component(tool.name)] = request
        _declare_input_errors(document)
        app.openapi_schema = document
    return app.openapi_schema


INPUT_ERROR: dict[str, Any] = {
    "type": "object", "required": ["error", "field", "message"],
    "description": "Malformed input (400): the field named and what is wrong with it (InputError.payload); "
                   "errors lists every problem when there are several.",
    "properties": {
        "error": {"type": "string", "const": "input"},
        "field": {"type": "string"},
        "message": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"], "properties": {
            "field": {"type": "string"}, "message": {"type": "string"}}}},
    },
}


def _declare_input_errors(document: dict[str, Any]) -> None:
    """Malformed input is answered 400 with ``InputError``'s body (``_validation_error`` turns FastAPI's own
    checks into it too), so an operation that takes input declares that, not FastAPI's 422, which it never sends."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas["InputError"] = INPUT_ERROR
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            if "requestBody" in operation or operation.get("parameters"):
                responses["400"] = {"description": "Malformed input", "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/InputError"}}}}
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
