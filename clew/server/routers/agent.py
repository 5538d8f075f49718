"""The retrieval agent: ``POST /v1/agents/retrieval`` (also ``/db/v1/agents/retrieval`` and
``/v1/tools/retrieve``).

The body is a retrieval request as its writers send it (``clew.agent.request``); the key's
principal replaces any ``principal`` it carries, and the server's defaults fill in budgets,
model and collection. A walk the key may not make is 403, like any tool it may not use.
``"stream": true`` answers with Server-Sent Events: one ``step`` event per step, then one
``result``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Body, Depends, Request
from fastapi.sse import EventSourceResponse, format_sse_event

from clew.agent.request import RetrievalRequest
from clew.agent.result import RetrievalResult
from clew.agent.stream import stream
from clew.corpus.access import Principal
from clew.errors import InputError
from clew.server.routers.common import context, principal_of, request_schema, served
from clew.server.sse import with_keepalive
from clew.surface import authorized, surface
from clew.surface import retrieve as run

router = APIRouter(tags=["agent"])
PATHS = ("/v1/agents/retrieval", "/db/v1/agents/retrieval", "/v1/tools/retrieve")


async def retrieval(request: Request, body: Any = Body(...), principal: Principal = Depends(principal_of)) -> Any:
    """Run the retrieval agent. ``"stream": true`` streams one event per step, then the result."""
    app = served(request)
    tool = surface.get("retrieve")  # the walk it asks for decides what it needs (``authorized``)
    if not isinstance(body, dict):
        raise InputError("request", "expected a JSON object")
    ctx = context(app, principal)
    asked: RetrievalRequest = tool.validate(body, ctx)  # type: ignore[assignment]
    asked = authorized(ctx, asked)
    if not asked.stream:
        return await run(ctx, asked)
    events = stream(asked, corpus=app.corpus, model=app.model, model_options=app.config.model_options)
    first = await anext(events)  # a request the run refuses at once (an unknown collection) is an HTTP error

    async def sse() -> AsyncIterator[bytes]:
        yield format_sse_event(event=first.type, data_str=first.model_dump_json())
        async for event in events:
            yield format_sse_event(event=event.type, data_str=event.model_dump_json())

    return EventSourceResponse(with_keepalive(sse(), app.keepalive_seconds))


for _path in PATHS:
    router.add_api_route(_path, retrieval, methods=["POST"], response_model=RetrievalResult, summary="retrieve",
                         description=retrieval.__doc__, include_in_schema=_path == PATHS[0],
                         openapi_extra=request_schema("retrieve"))
