"""The optional parts of clew and the extra that installs each (``pip install -e '.[server]'``).

The core (corpus, search, navigation, agent, the CLI's ingest / search / ask) needs none of
them; code that does imports its extra through :func:`require`, which names the extra to
install when it is missing instead of failing with a bare ``ModuleNotFoundError``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from clew.errors import MissingExtra

EXTRAS: dict[str, str] = {
    "server": "serving REST or MCP (clew serve, clew mcp)",
    "plot": "the recall_vs_tokens.png plot of clew eval",
    "ray": "clew eval --executor ray",
    "dense": "local dense embeddings (clew embed --model minilm)",
    "langchain": "the LangChain retriever (clew.integrations.langchain)",
    "llama-index": "the LlamaIndex retriever (clew.integrations.llama_index)",
}
"""Each extra and what needs it (the subject of the error's sentence)."""


def missing(extra: str, error: ModuleNotFoundError) -> MissingExtra:
    """The error for an import of ``extra`` (one of :data:`EXTRAS`) that failed with ``error``::

        try:
            from fastapi import FastAPI
        except ModuleNotFoundError as error:
            raise missing("server", error) from error
    """
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}")
    return MissingExtra(extra, EXTRAS[extra], error.name or "a module")


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise ``MissingExtra`` naming ``extra`` (one of :data:`EXTRAS`)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise missing(extra, error) from error
