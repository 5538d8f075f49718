"""Streaming: the same step records as an async iterator of events, then the result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, Literal

from pydantic import BaseModel

from clew.agent.api import retrieve
from clew.agent.model import Model
from clew.agent.request import RetrievalRequest
from clew.agent.result import RetrievalResult, Step
from clew.config.model_options import ModelOptions
from clew.corpus.store import Corpus


class StepEvent(BaseModel):
    type: Literal["step"] = "step"
    step: Step


class ResultEvent(BaseModel):
    type: Literal["result"] = "result"
    result: RetrievalResult


Event = StepEvent | ResultEvent


async def stream(
    request: RetrievalRequest | dict[str, Any] | str, *, corpus: Corpus, model: Model | None = None,
    model_options: ModelOptions | dict[str, Any] | None = None,
) -> AsyncIterator[Event]:
    """Yield a ``StepEvent`` as each state transition happens, then one ``ResultEvent``.

    Errors in the request (``InputError``) are raised from the first ``__anext__``.
    """
    queue: asyncio.Queue[Step | None] = asyncio.Queue()
    task = asyncio.create_task(retrieve(request, corpus=corpus, model=model, model_options=model_options,
                                         on_step=queue.put_nowait))
    task.add_done_callback(lambda _: queue.put_nowait(None))
    try:
        while (step := await queue.get()) is not None:
            yield StepEvent(step=step)
        yield ResultEvent(result=await task)
    finally:
        if not task.done():
            task.cancel()
