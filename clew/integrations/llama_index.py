"""clew as a LlamaIndex retriever (the ``llama-index`` extra: ``pip install 'clew[llama-index]'``)::

    from clew.integrations.llama_index import ClewRetriever

    retriever = ClewRetriever(clew.Corpus("docs.duckdb"), collection="docs")
    nodes = retriever.retrieve("How do I restore the latest backup?")        # or await aretrieve(...)
    nodes[0].node.node_id, nodes[0].node.metadata["heading_path"], nodes[0].score

Each ``NodeWithScore`` holds one passage as a ``TextNode`` whose id is the evidence id, with the
metadata of ``clew.integrations.core`` (evidence id, heading path, pages, offsets, kind, trust,
score); a model shown the node (``MetadataMode.LLM``) sees the evidence id, the document, the
heading path and the pages (where there are any), not the offsets. By default the retriever runs clew's retrieval walk;
``how="search"`` makes it one search. Its keyword arguments are ``RetrieverSettings``'s; bad ones
raise ``clew.InputError`` naming the field.
"""

from __future__ import annotations

from typing import Any

from clew.corpus.store import Corpus
from clew.extras import missing
from clew.integrations.core import Retrieved, aretrieved, retrieved, settings_from

try:
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ModuleNotFoundError as error:
    raise missing("llama-index", error) from error

__all__ = ["ClewRetriever"]

HIDDEN = ["char_start", "char_end", "kind", "trust", "score", "collection"]
"""Metadata that stays out of the text a model or an embedder is shown (LlamaIndex's metadata modes)."""


class ClewRetriever(BaseRetriever):
    """A LlamaIndex retriever over a clew corpus; sync (``retrieve``) and async (``aretrieve``)."""

    def __init__(self, corpus: Corpus, *, callback_manager: CallbackManager | None = None,
                 **settings: Any) -> None:
        self.corpus = corpus
        self.settings = settings_from(settings)
        super().__init__(callback_manager=callback_manager)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [_node(one) for one in retrieved(self.corpus, query_bundle.query_str, self.settings)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [_node(one) for one in await aretrieved(self.corpus, query_bundle.query_str, self.settings)]


def _node(one: Retrieved) -> NodeWithScore:
    hidden = HIDDEN if one.metadata["page_numbers"] else [*HIDDEN, "page_numbers"]  # [] tells a model nothing
    node = TextNode(id_=one.metadata["evidence_id"], text=one.text, metadata=one.metadata,
                    excluded_llm_metadata_keys=hidden, excluded_embed_metadata_keys=hidden)
    return NodeWithScore(node=node, score=one.score)
