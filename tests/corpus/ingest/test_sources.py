"""Reading a source file: never more than the limit, whatever the file's size says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clew.corpus.ingest import peek
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import FileLimits


@pytest.mark.parametrize(("size", "expected"), [(3, b"abc"), (10, b"abcdefghij"), (11, b"abcdefghij"),
                                                (100, b"abcdefghij")])
def test_a_read_stops_at_the_size_or_the_end(tmp_path: Path, size: int, expected: bytes) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"abcdefghij")
    with path.open("rb") as handle:
        assert peek.read_at_most(handle, size) == expected


@pytest.mark.parametrize(("size", "expected"), [(6, b"abcdef"), (8, b"abcdefgh"), (100, b"abcdefghij")])
def test_a_file_longer_than_its_size_said_is_read_on_up_to_the_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, expected: bytes) -> None:
    path = tmp_path / "f.bin"
    path.write_bytes(b"abcdefghij")
    real = os.fstat
    monkeypatch.setattr(peek.os, "fstat", lambda fd: os.stat_result((*real(fd)[:6], 4, *real(fd)[7:])))
    assert peek.os.fstat(0).st_size == 4  # the file grew after its size was read
    with path.open("rb") as handle:
        assert peek.read_at_most(handle, size) == expected


def test_a_text_file_over_the_limit_is_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_text("# T\n\n" + "word " * 100)
    source, problem = read_source(path, "big.md", FileLimits(text_bytes=64))
    assert source is None and problem is not None
    assert "over the 64 bytes limit for text files (markdown)" in problem.message
    source, problem = read_source(path, "big.md", FileLimits(text_bytes=10_000))
    assert problem is None and source is not None and source.content == path.read_text()
