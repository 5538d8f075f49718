"""Adapters that put clew where agent frameworks expect a retriever (optional extras).

- ``clew.integrations.langchain``: a LangChain ``BaseRetriever`` (``pip install 'clew[langchain]'``)
- ``clew.integrations.llama_index``: a LlamaIndex ``BaseRetriever`` (``pip install 'clew[llama-index]'``)

Both run ``clew.integrations.core``; ``import clew`` imports neither framework.
"""
