"""``POST /v1/tools/<name>``: one route per tool of the surface, generated from its declaration.

The body is the tool's arguments, validated by the tool's own model (so that an unknown
argument, a wrong type or a blank id is the same error here as in Python, the CLI and MCP:
400 naming the field). The answer is the tool's result model with its status; a result
whose status is ``unavailable`` (a missing and a denied row alike) is sent with 404. A tool
the key may not use is 403. A name no tool has is 404 naming it and every tool served here
(it was FastAPI's bare ``{"detail": "Not Found"}``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from fastapi.responses import JSONResponse

from clew.corpus.access import Principal
from clew.errors import UnknownTool
from clew.server.routers.common import answer, context, permitted, principal_of, request_schema, served
from clew.surface import surface
from clew.tools.registry import Tool

router = APIRouter(prefix="/v1/tools", tags=["tools"])


def _endpoint(tool: Tool) -> Any:
    async def endpoint(
        request: Request, body: Any = Body(...), principal: Principal = Depends(principal_of)
    ) -> JSONResponse:
        app = served(request)
        permitted(tool.name, principal)
        if isinstance(body, dict):
            body = {**app.config.tool_defaults(tool.name), **body}
        return answer(await surface.acall(tool.name, body, context(app, principal)))

    endpoint.__name__ = tool.name
    endpoint.__doc__ = tool.description
    return endpoint


for _tool in surface.tools():
    if _tool.name != "retrieve":  # the agent has its own router (streaming, /v1/agents/retrieval)
        router.add_api_route(f"/{_tool.name}", _endpoint(_tool), methods=["POST"], response_model=_tool.result,
                             summary=_tool.name, description=_tool.description,
                             openapi_extra=request_schema(_tool.name))

unknown = APIRouter(prefix="/v1/tools", tags=["tools"])
"""Included after every other router (``/v1/tools/retrieve`` is the agent router's)."""


@unknown.post("/{name}", include_in_schema=False)
async def unknown_tool(name: str, principal: Principal = Depends(principal_of)) -> JSONResponse:
    """Any other name (after the key is checked): 404 naming it and every tool."""
    raise UnknownTool(name, sorted(surface.names()))
