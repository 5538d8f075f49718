"""Corpora for the navigation tests: real DuckDB files in tmp_path, real fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.testing import recorded_statements
from tests.conftest import FIXTURES, Prebuilt, write_files

# A guide with nested sections, a heading-only section, a multi-passage section and a table
# that spans several passages (chunk_tokens=40).
GUIDE = """# Guide

Intro paragraph of the guide, which says what the guide is for.

## Install

### Linux

Run the installer with apt and answer the prompts about the depot name.

### Mac

Drag the application into the Applications folder and open it once.

## Usage

The planner reads its configuration from the depot file at start-up every morning.

The operators can override any setting by exporting an environment variable first.

| Setting | Default | Meaning |
| --- | --- | --- |
| depot | north | The depot the robots leave from |
| shift | early | Which shift plans the routes today |
| battery | 80 | Lowest battery level allowed at departure |
| retries | 3 | How often a failed route is planned again |
| window | 30 | Minutes between two planning rounds |

After the table, the usage section ends with a note about restarting the planner.

## Support

Ask in the planning channel first; most questions have been answered there.

### Contacts

Write to the platform team for anything that breaks overnight.
"""

PUBLIC = """---
title: Public notes
status: published
---
# Public notes

See the [secret plan](secret.md) and the [guide](guide.md#usage).

## More

Public text that anyone may read.
"""

SECRET = """---
title: Secret plan
status: draft
---
# Secret plan

The launch date is kept here. See the [guide](guide.md).
"""


def build_acme(folder: Path) -> None:
    with Corpus(folder / "acme.duckdb") as corpus:
        ingest_paths(corpus, [FIXTURES / "markdown" / "acme-notes.md"], collection="notes", chunk_tokens=160,
                     merge_sections=True)


def build_guide(folder: Path) -> None:
    docs = write_files(folder / "docs", {"guide.md": GUIDE, "public.md": PUBLIC, "secret.md": SECRET})
    with Corpus(folder / "guide.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=40)


@pytest.fixture
def acme(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The foundation's structure fixture, ingested with merged sections (the test's own copy)."""
    with Corpus(prebuilt(build_acme, tmp_path) / "acme.duckdb") as corpus:
        yield corpus


@pytest.fixture
def guide(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """GUIDE, PUBLIC and SECRET in tmp_path/docs, ingested into the test's own copy of guide.duckdb."""
    with Corpus(prebuilt(build_guide, tmp_path) / "guide.duckdb") as corpus:
        yield corpus


@pytest.fixture
def scope(guide: Corpus) -> Scope:
    return Scope(guide)


def chunk_rows(corpus: Corpus, key: str) -> list[tuple]:
    """(evidence id, kind, node, sections, table_node, body) of a key's current version."""
    return [
        (f"ev1:c:{doc}:{version}:{ordinal}", kind, node, sections, table_node, body)
        for doc, version, ordinal, kind, node, sections, table_node, body in corpus.cursor().execute(
            """SELECT c.document_id, c.version, c.ordinal, c.kind, c.node, c.sections, c.table_node, c.body
               FROM documents d JOIN chunks c ON c.document_id = d.id AND c.version = d.current_version
               WHERE d.key = ? ORDER BY c.ordinal""", [key]).fetchall()
    ]


def node_rows(corpus: Corpus, key: str) -> dict[int, tuple]:
    """ordinal -> (kind, heading, parent, first_chunk) of a key's current version."""
    return {
        ordinal: (kind, heading, parent, first)
        for ordinal, kind, heading, parent, first in corpus.cursor().execute(
            """SELECT n.ordinal, n.kind, n.heading, n.parent, n.first_chunk
               FROM documents d JOIN nodes n ON n.document_id = d.id AND n.version = d.current_version
               WHERE d.key = ? ORDER BY n.ordinal""", [key]).fetchall()
    }


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every statement run through ``Corpus.cursor()`` during the test, in order."""
    with recorded_statements() as log:
        yield log
