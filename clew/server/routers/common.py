"""What every router shares: the served corpus and config, the caller's principal, answers.

Errors are not mapped here: every ``ClewError`` carries its HTTP status and body
(``clew.errors``), and ``create_app`` installs the one handler that sends them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request, Security
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from clew.agent.model import Model
from clew.config.settings import ServerConfig
from clew.corpus.access import Principal
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import Forbidden, Unauthorized
from clew.server.sse import KEEPALIVE_SECONDS
from clew.surface import surface
from clew.tools.registry import Tool, ToolContext

bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer KEY")
api_key = APIKeyHeader(name="X-API-Key", auto_error=False)


@dataclass(frozen=True)
class Served:
    """What one app serves (``app.state.clew``)."""

    corpus: Corpus
    config: ServerConfig
    auth: bool = True
    model: Model | None = None
    keepalive_seconds: float = KEEPALIVE_SECONDS
    """A streamed run sends a keep-alive comment after this long without an event."""


def served(request: Request) -> Served:
    return request.app.state.clew  # type: ignore[no-any-return]


def principal_of(request: Request, credentials: HTTPAuthorizationCredentials | None = Security(bearer),
                 header_key: str | None = Security(api_key)) -> Principal:
    """The principal the request's API key names (401 without a valid key)."""
    app = served(request)
    if not app.auth:
        return app.config.principal()
    key = credentials.credentials if credentials is not None else header_key
    found = app.config.principal_for_key(key)
    if found is None:
        raise Unauthorized("a valid API key is required (Authorization: Bearer KEY or X-API-Key)")
    return found


def permitted(name: str, principal: Principal) -> Tool:
    """The tool ``name``, or 403 when the principal may not use it."""
    tool = surface.get(name)
    if not tool.permitted(principal):
        raise Forbidden(name)
    return tool


def context(app: Served, principal: Principal, **extra: Any) -> ToolContext:
    return ToolContext(Scope(app.corpus, principal), model=app.model, model_options=app.config.model_options,
                       request_defaults=app.config.request_defaults(), **extra)


def answer(result: BaseModel) -> JSONResponse:
    """A tool's result as sent: 404 when its status is ``unavailable`` (missing and denied alike), else 200."""
    status = 404 if getattr(result, "status", None) == "unavailable" else 200
    return JSONResponse(result.model_dump(mode="json"), status_code=status)


def request_schema(name: str) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads its JSON itself (so that its errors are the tool's)."""
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{component(name)}"}}}}}


def component(name: str) -> str:
    """The OpenAPI component name of tool ``name``'s arguments (``navigate_document_tree``:
        NavigateDocumentTreeRequest)."""
    return "RetrievalRequest" if name == "retrieve" else "".join(p.title() for p in name.split("_")) + "Request"
