"""A hit keeps its document's title for the extract (task X28), and a result does not return it."""

import asyncio
from pathlib import Path

from clew.agent.api import retrieve
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus


def test_each_fetched_hit_knows_its_documents_title_and_the_result_does_not_show_it(tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "ssh.md").write_text("---\ntitle: ssh(1)\n---\n\n# ssh\n\n-L forwards a local port to the remote side.\n")
    (folder / "ssh-keygen.md").write_text("# ssh-keygen\n\n-L prints the contents of certificates.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="dev", glob="*.md")
        result = asyncio.run(retrieve({"query": "what does -L do", "queries": [{"collection": "dev"}]},
                                      corpus=corpus))
    titles = {h.document_key: h.document_title for h in result.hits if h.fetched}
    assert titles == {"ssh.md": "ssh(1)", "ssh-keygen.md": "ssh-keygen"}  # front matter, else the h1
    assert "ssh(1)" not in result.model_dump_json()
    assert all(h.lean().document_title == titles[h.document_key] for h in result.hits)
