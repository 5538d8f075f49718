"""``GET /healthz``: liveness, the corpus answers a query."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from clew.server.routers.common import served

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="health")
async def healthz(request: Request) -> dict[str, str]:
    """Liveness: the corpus answers a query."""
    corpus = served(request).corpus
    await asyncio.to_thread(lambda: corpus.cursor().execute("SELECT 1").fetchone())
    return {"status": "ok"}
