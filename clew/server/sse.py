"""Server-Sent Events that stay open: a keep-alive comment whenever nothing was sent for a while.

A retrieval run can wait tens of seconds on one model call (a small local model reading a
long prompt); proxies and clients close a stream that stays silent that long. While no event
is ready, :func:`with_keepalive` sends the comment line ``: ping`` every ``interval`` seconds
(clients ignore comments).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

KEEPALIVE = b": ping\n\n"
KEEPALIVE_SECONDS = 15.0


async def with_keepalive(events: AsyncIterator[bytes], interval: float = KEEPALIVE_SECONDS) -> AsyncIterator[bytes]:
    """``events`` as they come, with ``KEEPALIVE`` after every ``interval`` seconds of silence."""
    pending: asyncio.Future[bytes] = asyncio.ensure_future(anext(events))
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=interval)
            if not done:
                yield KEEPALIVE
                continue
            try:
                item = pending.result()
            except StopAsyncIteration:
                return
            yield item
            pending = asyncio.ensure_future(anext(events))
    finally:
        if not pending.done():
            pending.cancel()
