"""``asearch`` and ``aingest_paths``: ``search`` and ``ingest_paths`` as coroutines, for callers
that run an event loop (an agent framework, a web server).

DuckDB blocks the thread that reads or writes, so each coroutine runs its call in a worker
thread (``asyncio.to_thread``) and the loop goes on serving other tasks. The connection is
shared and each thread takes its own cursor (``Corpus.cursor``), so such calls may overlap; ingests
of one corpus take turns (``Corpus.turn``): ``aingest_paths`` twice in ``asyncio.gather`` writes one
after the other.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search

P = ParamSpec("P")
R = TypeVar("R")


def in_thread(fn: Callable[P, R], name: str, doc: str) -> Callable[P, Coroutine[Any, Any, R]]:
    """``fn`` as a coroutine function named ``name`` (documented by ``doc``) that runs it in a
    worker thread; the signature stays ``fn``'s for type checkers."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(fn, *args, **kwargs)

    run.__name__ = run.__qualname__ = name
    run.__module__ = __name__
    run.__doc__ = doc
    return run


asearch = in_thread(search, "asearch", """``search`` as a coroutine (``await clew.asearch(corpus, {...})``):
the same arguments, result and errors.""")

aingest_paths = in_thread(ingest_paths, "aingest_paths", """``ingest_paths`` as a coroutine (``await
clew.aingest_paths(corpus, ["docs/"])``): the same arguments, report and errors. ``on_document``,
``on_total`` and ``on_file`` are called in the worker thread.""")
