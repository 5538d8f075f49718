"""A LlamaIndex query engine over clew's retrieval walk (pip install 'clew[llama-index]').

    python examples/llama_index_query_engine.py           # the bundled runbooks
    python examples/llama_index_query_engine.py ~/notes "how do I renew the certificate?"

The LLM here is llama-index-core's MockLLM, which answers with the prompt it was given, so the
example runs without a key and shows what a model would read: put your own LLM in its place
(``llm=OpenAI(...)``, ``Ollama(...)``). Each source node is a passage whose id is its evidence id.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine

import clew
from clew.demo import DEMO_CORPUS
from clew.integrations.llama_index import ClewRetriever


def main(folder: Path, question: str) -> None:
    with tempfile.TemporaryDirectory() as tmp, clew.Corpus(Path(tmp) / "docs.duckdb") as corpus:
        clew.ingest_paths(corpus, [folder], collection="docs")
        retriever = ClewRetriever(corpus, collection="docs", context_budget_tokens=1500)
        engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
        response = engine.query(question)
        print("the model read (MockLLM echoes its prompt):")
        print("  " + "\n  ".join(str(response).splitlines()[:8]))
        print("sources:")
        for found in response.source_nodes:
            meta = found.node.metadata
            pages = f" p. {','.join(map(str, meta['page_numbers']))}" if meta["page_numbers"] else ""
            score = "     -" if found.score is None else f"{found.score:6.2f}"
            print(f"  {score}  [{found.node.node_id}] {meta['document_key']}{pages}: "
                  f"{' > '.join(meta['heading_path'])}")


if __name__ == "__main__":
    if len(sys.argv) > 2:
        main(Path(sys.argv[1]), sys.argv[2])
    else:
        main(DEMO_CORPUS, "What error rate means a deploy should be rolled back?")
