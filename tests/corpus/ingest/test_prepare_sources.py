"""Sources prepared a group at a time: the same documents as one at a time, a failure kept to its file."""

from __future__ import annotations

import pytest

from clew.corpus.ingest import api, chunking
from clew.corpus.ingest.api import _groups, prepare_source, prepare_sources
from clew.corpus.ingest.parsed import ParsedDocument
from clew.corpus.ingest.prepare import ChunkingConfig
from clew.corpus.ingest.sources import Source

CONFIG = ChunkingConfig(160, False)


def sources() -> list[Source]:
    return [Source("a.md", "/x/a.md", "markdown", "# A\n\nFirst words here.\n\n## B\n\nMore words.\n"),
            Source("b.md", "/x/b.md", "markdown", "   \n"),
            Source("c.html", "/x/c.html", "html", "<h1>C</h1><p>Caf\u00e9 text.</p>"),
            Source("d.jsonl", "/x/d.jsonl", "jsonl", '{"key": "r1", "text": "one record"}\n{bad\n'),
            Source("e.txt", "/x/e.txt", "text", "plain text " * 300)]


def test_a_group_prepares_what_each_source_alone_does() -> None:
    together = prepare_sources(sources(), CONFIG)
    alone = [prepare_source(source, CONFIG) for source in sources()]
    assert [([d.chunks for d in docs], [p.message for p in bad]) for docs, bad in together] == \
        [([d.chunks for d in docs], [p.message for p in bad]) for docs, bad in alone]
    assert [len(docs) for docs, _ in together] == [1, 0, 1, 1, 1]
    assert together[1][1][0].message == "no text content after parsing"


def test_a_document_that_fails_to_chunk_costs_only_its_own_file(monkeypatch: pytest.MonkeyPatch) -> None:
    real = chunking._units

    def failing(doc: ParsedDocument) -> list[chunking._Unit]:
        if "Caf\u00e9" in doc.text:
            raise RuntimeError("no units")
        return real(doc)

    monkeypatch.setattr(chunking, "_units", failing)
    results = prepare_sources(sources(), CONFIG)
    assert [len(docs) for docs, _ in results] == [1, 0, 0, 1, 1]
    assert [p.message for p in results[2][1]] == ["could not be read (RuntimeError: no units)"]
    assert [p.path for p in results[2][1]] == ["/x/c.html"]


def test_groups_keep_order_bound_their_size_and_take_binary_files_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "GROUP_CHARS", 100)
    given = [Source(f"{i}.md", f"{i}.md", "markdown", "x" * size) for i, size in enumerate((10, 10, 10, 95, 200, 5))]
    given.insert(3, Source("p.pdf", "p.pdf", "pdf", b"%PDF"))
    groups = [[source.key for source in group] for group in _groups(given, 2)]
    assert groups == [["0.md", "1.md"], ["2.md"], ["p.pdf"], ["3.md"], ["4.md"], ["5.md"]]
