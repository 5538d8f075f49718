"""Prepared documents travel from parsing workers to the ingesting process by pickle: each part
is rebuilt by its constructor (``pickled_by_fields``) and equal to what the worker made."""

import pickle
from pathlib import Path

import pytest

from clew.corpus.ingest.api import prepare_source
from clew.corpus.ingest.chunking import Chunk
from clew.corpus.ingest.parsed import Block, Link, Section, Table
from clew.corpus.ingest.prepare import ChunkingConfig, NodeRow
from clew.corpus.ingest.source_file import read_source

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("name", ["markdown/acme-notes.md", "html/handbook.html", "runbook/deployment-guide.md"])
def test_a_prepared_document_comes_back_from_a_worker_equal(name: str) -> None:
    path = FIXTURES / name
    source, problem = read_source(path, path.name, None)
    assert source is not None and problem is None
    docs, _ = prepare_source(source, ChunkingConfig(160, False))
    (doc,) = docs
    assert doc.parsed.blocks and doc.parsed.sections and doc.chunks and doc.nodes
    back = pickle.loads(pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == doc
    assert back.parsed.heading_path(len(back.parsed.sections) - 1) == doc.parsed.heading_path(
        len(doc.parsed.sections) - 1)


@pytest.mark.parametrize("value", [
    Block(3, 9, "table_row", 2, table=1, indivisible=True), Block(0, 4, "paragraph", 0),
    Section("Install", 2, 0, 10, anchors=["install", "setup"], end=40), Section("", 0, None, 0),
    Table(4), Link(7, "../guide.md#top"),
    Chunk(0, 12, "table", [1, 2], 0, "| a | b |", 9, oversize=True),
    NodeRow(1, 0, "section", "Install", 2, ["Install"], 10, 40, first_chunk=1, last_chunk=None),
])
def test_each_part_is_rebuilt_by_its_constructor_with_every_field(value: object) -> None:
    rebuilt, arguments = value.__reduce__()  # type: ignore[misc]
    assert rebuilt is type(value) and rebuilt(*arguments) == value
    assert pickle.loads(pickle.dumps(value)) == value
