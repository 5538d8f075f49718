"""A real corpus for the adapters: the demo's runbooks and a PDF manual (pages), ingested once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import clew
from clew.demo import DEMO_CORPUS
from tests.conftest import FIXTURES, Prebuilt

MANUAL = FIXTURES / "pdf" / "camlidl-manual.pdf"


def runbooks_and_manual(folder: Path) -> None:
    with clew.Corpus(folder / "c.duckdb") as corpus:
        clew.ingest_paths(corpus, [DEMO_CORPUS], collection="runbooks")
        clew.ingest_paths(corpus, [MANUAL], collection="manuals")


@pytest.fixture
def corpus(prebuilt: Prebuilt, tmp_path: Path) -> Iterator[clew.Corpus]:
    with clew.Corpus(prebuilt(runbooks_and_manual, tmp_path) / "c.duckdb") as opened:
        yield opened
