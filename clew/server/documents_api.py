"""REST routes over a collection's documents (``clew ls``, ``clew outline``, ``clew rm``).

- ``GET /v1/collections/{name}/documents`` (``?removed=true`` adds retired ones): the documents
  the key's principal may read, as ``clew ls --json`` lists them.
- ``GET /v1/collections/{name}/documents/{key}/outline``: a document's section tree; a key not
  found is a 404 whose ``did_you_mean`` lists the keys meant (as ``clew outline`` offers them: a
  title's among them); the title of exactly one readable document is taken for its key.
- ``DELETE /v1/collections/{name}/documents?key=K&key=K2``: retire documents (their evidence ids
  still resolve, superseded); a key with no readable current document is listed in ``missing``.

All need the ``ingest`` permission (403 otherwise); an unknown or unreadable collection and an
unreadable document are the same 404 ``unavailable``. Errors are raised (``clew.errors``) and sent by
the app's one handler, in the body every route's errors have.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import Depends, FastAPI, Query
from pydantic import BaseModel

from clew.corpus.access import INGEST_PERMISSION, Principal
from clew.corpus.documents import (
    DocumentInfo,
    OutlineNode,
    RemoveReport,
    list_documents,
    outline_or_keys_meant,
    remove_documents,
)
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.errors import Forbidden, ReadOnlyCorpus, UnknownDocument
from clew.server.reading import writers_of


class DocumentList(BaseModel):
    collection: str
    documents: list[DocumentInfo]


def add_document_routes(app: FastAPI, corpus: Corpus, principal_of: Callable[..., Principal]) -> None:
    def scope_of(name: str, principal: Principal) -> Scope:
        """The collection's scope for ``principal`` (403 without the permission, 404 an unknown collection)."""
        if not principal.may_use(INGEST_PERMISSION):
            raise Forbidden(INGEST_PERMISSION, "this key may not manage documents (it needs the "
                            f"{INGEST_PERMISSION!r} permission)")
        return Scope(corpus, principal, name)

    @app.get("/v1/collections/{name}/documents", response_model=DocumentList, summary="list_documents")
    async def documents(name: str, removed: bool = False, principal: Principal = Depends(principal_of)) -> Any:
        """The collection's documents: key, version, status, format, chunks, tokens, size, pages."""
        scope = scope_of(name, principal)
        rows = await asyncio.to_thread(list_documents, scope, include_removed=removed)
        return DocumentList(collection=name, documents=rows)

    @app.get("/v1/collections/{name}/documents/{key:path}/outline", response_model=OutlineNode,
             summary="document_outline")
    async def document_outline(name: str, key: str, principal: Principal = Depends(principal_of)) -> Any:
        """A document's section tree (sections and tables) with passage and token counts."""
        scope = scope_of(name, principal)
        tree, near = await asyncio.to_thread(outline_or_keys_meant, scope, key)
        if tree is None:
            hint = f"did you mean {' or '.join(near)}?" if near else f"GET /v1/collections/{name}/documents lists them"
            raise UnknownDocument(key, f"no current document {key!r} in {name!r} ({hint})", near)
        return tree

    @app.delete("/v1/collections/{name}/documents", response_model=RemoveReport, summary="remove_documents")
    async def remove(name: str, key: list[str] = Query(..., description="a document key (repeatable)"),
                     principal: Principal = Depends(principal_of)) -> Any:
        """Retire documents: no longer searched or navigated; their evidence ids still resolve (superseded)."""
        return await writers_of(app).write(partial(removal, name, key, principal))  # in turn, as an upload

    def removal(name: str, keys: list[str], principal: Principal) -> Any:
        """The removal is the writer (``clew.server.reading``); its reads before it writes are a marked reader's,
        which an upload's file rewrite waits for (it closes the cursors of the connection it replaces)."""
        with corpus.readers.reading():
            scope = scope_of(name, principal)
        if corpus.read_only:
            raise ReadOnlyCorpus("the server opened the corpus read-only")
        return remove_documents(corpus, scope, keys)
