"""Corpora for the agent tests: real Markdown files ingested into real DuckDB files."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.edges import ingest_edges
from clew.corpus.store import Corpus
from clew.demo import DEMO_CORPUS, DEMO_EDGES
from tests.conftest import Prebuilt

PLAYBOOK = """# Warehouse playbook

## Loading dock

The loading dock opens at six. Forklift batteries charge overnight in bay two.

Pallets wait in the staging lane until the dock lead signs the manifest.

Damaged pallets go to the quarantine cage, never back to the racks.

Drivers check in at the dock office and wait in the lounge.

## Cold storage

Cold storage stays between two and four degrees at all times.

Doors close automatically after thirty seconds to keep the cold in.

If the alarm sounds, move perishables to the backup freezer within ten minutes.

The backup freezer key hangs in the dock office.

## Returns

Returns arrive on Tuesdays and are checked against the original order.
"""


def build_runbooks(folder: Path) -> None:
    with Corpus(folder / "runbooks.duckdb") as corpus:
        ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks", chunk_tokens=220)
        ingest_edges(corpus, DEMO_EDGES.read_text(), collection="runbooks")


def build_playbook(folder: Path) -> None:
    (folder / "playbook").mkdir()
    (folder / "playbook" / "playbook.md").write_text(PLAYBOOK)
    with Corpus(folder / "playbook.duckdb") as corpus:
        # one paragraph per chunk: every section has several passages
        ingest_paths(corpus, [folder / "playbook"], collection="ops", chunk_tokens=16)


@pytest.fixture
def runbooks(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """The demo's runbooks and their workflow edges (the test's own copy)."""
    with Corpus(prebuilt(build_runbooks, tmp_path) / "runbooks.duckdb") as corpus:
        yield corpus


@pytest.fixture
def playbook(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    """PLAYBOOK in tmp_path/playbook, in the test's own copy of playbook.duckdb."""
    with Corpus(prebuilt(build_playbook, tmp_path) / "playbook.duckdb") as corpus:
        yield corpus


def tree_request(query: str, collection: str, **navigation: object) -> dict:
    return {"query": query, "queries": [{"collection": collection, "limit": 10}],
            "steps": {"retrieval": {"navigation": {"strategy": "tree", "selection": "ranked", **navigation}}}}
