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
  body that is not JSON on a JSON route 415;
- every error, on every status, has one body (``clew.errors.error_body``): ``error`` (the kind:
  ``input``, ``unauthorized``, ``forbidden``, ``unavailable``, ``store_unavailable``, ...),
  ``message`` (the text) and ``detail`` (the same text, kept for the clients that read it), sent by
  the app's handlers (``_error``, and Starlette's own 404 and 405 by ``_http_error``), never by a
  route; the OpenAPI document declares each route's (``clew.server.openapi``).

The authenticated principal replaces whatever ``principal`` a retrieval request carries: a
caller can never widen its own permissions. The corpus is opened once by the caller; each
tool call takes its own cursor (``Scope.cursor``) on a worker thread.
"""

from __future__ import annotations

import asyncio
import ipaddress
from http import HTTPStatus
from typing import Any

import duckdb

from clew.extras import missing

try:
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from starlette.exceptions import HTTPException
except ModuleNotFoundError as error:  # the error names the extra to install
    raise missing("server", error) from error

from clew.agent.model import Model
from clew.config.settings import ServerConfig
from clew.corpus.store import Corpus
from clew.errors import ClewError, InputError, StoreFailure, Unauthorized, error_body, input_error_from
from clew.server.documents_api import add_document_routes
from clew.server.guard import Guard, HostPolicy
from clew.server.openapi import openapi
from clew.server.reading import MarkReaders
from clew.server.routers import ROUTERS
from clew.server.routers.common import Served, principal_of
from clew.server.sse import KEEPALIVE_SECONDS
from clew.server.storage import GuardStore, StoreHealth, answer

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
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.openapi = lambda: openapi(app)  # type: ignore[method-assign]
    return app


async def _error(request: Request, error: ClewError) -> JSONResponse:
    if isinstance(error, StoreFailure):
        return await _store_error(request, error)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, Unauthorized) else None
    return JSONResponse(error.payload(), status_code=error.http_status, headers=headers)


async def _http_error(request: Request, error: HTTPException) -> JSONResponse:
    """Starlette's own answers (a path no route has: 404, a method a route does not take: 405) in the body
    every error has, not FastAPI's ``{"detail": "Not Found"}``."""
    kind = "_".join(HTTPStatus(error.status_code).phrase.lower().split())
    body = error_body(kind, f"{error.detail}: {request.method} {request.url.path} (GET /openapi.json lists the routes)")
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


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
