"""clew as a LangChain retriever (the ``langchain`` extra: ``pip install 'clew[langchain]'``)::

    from clew.integrations.langchain import ClewRetriever

    retriever = ClewRetriever(corpus=clew.Corpus("docs.duckdb"), collection="docs")
    documents = retriever.invoke("How do I restore the latest backup?")      # or await ainvoke(...)
    documents[0].metadata["evidence_id"], documents[0].metadata["heading_path"]

Each ``Document`` is one passage: its ``id`` and ``metadata["evidence_id"]`` are the evidence id, and
the metadata carries the heading path, pages, offsets, kind, trust and score
(``clew.integrations.core`` lists them). By default the retriever runs clew's retrieval walk (search,
then navigation under the context budget, no model); ``how="search"`` makes it one search. Its
arguments are ``RetrieverSettings``'s, with the corpus.
"""

from __future__ import annotations

from clew.corpus.store import Corpus
from clew.extras import missing
from clew.integrations.core import Retrieved, RetrieverSettings, aretrieved, retrieved

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ModuleNotFoundError as error:
    raise missing("langchain", error) from error

__all__ = ["ClewRetriever"]


class ClewRetriever(BaseRetriever, RetrieverSettings):
    """A LangChain retriever over a clew corpus; sync (``invoke``) and async (``ainvoke``)."""

    corpus: Corpus
    """The corpus to read (one ``clew.Corpus`` may serve several retrievers and threads)."""

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [_document(one) for one in retrieved(self.corpus, query, self)]

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun) -> list[Document]:
        return [_document(one) for one in await aretrieved(self.corpus, query, self)]


def _document(one: Retrieved) -> Document:
    return Document(page_content=one.text, metadata=one.metadata, id=one.metadata["evidence_id"])
