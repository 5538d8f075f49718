"""Bad input to ingestion: one clear error (exit status 2) or a reported problem, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import find_files
from clew.corpus.store import Corpus
from clew.errors import InputError
from tests.conftest import write_files

runner = CliRunner()


@pytest.mark.parametrize(("glob", "says"), [
    ("/etc/*", "'/etc/*' is absolute"),
    ("", "the glob is empty"),
    ("   ", "the glob is empty"),
    ("**/***", "'**' must be a whole path component (found '***'"),
    ("docs/**.md", "'**' must be a whole path component (found '**.md'"),
    ("../*", "leaves the folder"),
    (".", "names the folder itself"),
])
def test_unusable_globs_are_refused_before_anything_is_read(tmp_path: Path, glob: str, says: str) -> None:
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n\nText.\n"})
    with pytest.raises(InputError) as raised:
        find_files([folder], glob)
    assert raised.value.field == "glob" and says in raised.value.message
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--glob", glob])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: glob: ") and says in lines[0]
    assert not isinstance(result.exception, (ValueError, NotImplementedError, IndexError))


def test_usable_globs_still_work(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n", "b.txt": "b\n"})
    (folder / "sub").mkdir()
    (folder / "sub" / "c.md").write_text("# C\n")
    assert [key for _, key in find_files([folder], "**/*.md").files] == ["a.md", "sub/c.md"]
    assert [key for _, key in find_files([folder], "*").files] == ["a.md", "b.txt"]


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="symbolic links as POSIX has them")
def test_a_dangling_symlink_is_reported_naming_its_path(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "docs", {"a.md": "# A\n\nKept.\n"})
    (folder / "gone.md").symlink_to(tmp_path / "missing.md")
    (folder / "loop.md").symlink_to(folder / "loop.md")
    (folder / "ok.md").symlink_to(folder / "a.md")  # a live link to a file found with it stands for that file
    (folder / "skip.md").symlink_to(tmp_path / "also-missing.md")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=220, exclude=["skip.md"])
    assert (report.documents, report.skipped, report.excluded) == (1, 2, 2)
    problems = {Path(p.path).name: p.message for p in report.problems if p.skipped}
    assert problems == {
        "gone.md": f"symbolic link to {str(tmp_path / 'missing.md')!r}, which does not exist (or loops): not ingested",
        "loop.md": f"symbolic link to {str(folder / 'loop.md')!r}, which does not exist (or loops): not ingested",
    }
    assert [Path(p.path).name for p in report.problems if not p.skipped] == ["docs"]  # ok.md is a.md
