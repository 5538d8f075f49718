"""``GET /healthz``: liveness, the corpus answers a query (else 503 saying why: ``clew.server.storage``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from clew.server.storage import StoreHealth, unavailable

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="health")
async def healthz(request: Request) -> Any:
    """Liveness: the corpus answers a query (reopened first if it had failed), else 503 with the reason."""
    health: StoreHealth = request.app.state.store_health
    failure = await asyncio.to_thread(health.check)
    return {"status": "ok"} if failure is None else unavailable(failure)
