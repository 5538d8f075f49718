"""A folder ingest stays inside its folder: a symbolic link to a file (or a folder) elsewhere is
skipped and reported, unless asked (``follow_symlinks``, ``clew ingest --follow-symlinks``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import write_files

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt",
                                reason="symbolic links as POSIX has them")


def layout(tmp_path: Path) -> Path:
    """docs/ with a page of its own, a link to a credentials file elsewhere, a link to a folder elsewhere,
    and a link to a page inside docs/ (which stands for that page: ``same_files``)."""
    write_files(tmp_path / "secrets", {"credentials.md": "# Keys\n\nThe quokkapassword is hunter2.\n"})
    write_files(tmp_path / "secrets" / "more", {"notes.md": "# Notes\n\nThe wombatpassword is swordfish.\n"})
    folder = write_files(tmp_path / "docs", {"guide.md": "# Guide\n\nDeploys happen on Tuesdays.\n"})
    (folder / "creds.md").symlink_to(tmp_path / "secrets" / "credentials.md")
    (folder / "elsewhere").symlink_to(tmp_path / "secrets" / "more", target_is_directory=True)
    (folder / "again.md").symlink_to(folder / "guide.md")
    return folder


def finds(corpus: Corpus, word: str) -> list[str]:
    return [hit.document_key for hit in search(corpus, {"query": word}).hits]


def test_links_out_of_the_folder_are_skipped_and_reported(tmp_path: Path) -> None:
    folder = layout(tmp_path)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=160, glob="*/*.md")  # reaches into the linked folder
        inside = ingest_paths(corpus, [folder], chunk_tokens=160)
        assert finds(corpus, "quokkapassword") == [] and finds(corpus, "wombatpassword") == []
    assert [(Path(p.path).name, p.skipped) for p in report.problems] == [("notes.md", True)]
    assert report.problems[0].message.startswith("a symbolic link to a file outside the folder")
    assert "--follow-symlinks" in report.problems[0].message
    assert (inside.versions_created, inside.skipped) == (1, 1)  # guide.md (again.md is it); creds.md skipped
    assert [Path(p.path).name for p in inside.problems] == ["creds.md", "docs"]
    assert inside.problems[1].message.startswith("1 identical copy (a symbolic link to a file found with it, or its "
                                                 "bytes under another name: again.md -> guide.md) left out")


def test_follow_symlinks_takes_linked_files_and_folders(tmp_path: Path) -> None:
    folder = layout(tmp_path)
    (tmp_path / "secrets" / "more" / "loop").symlink_to(folder, target_is_directory=True)  # a loop ends
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=160, follow_symlinks=True)
        assert finds(corpus, "quokkapassword") == ["creds.md"]
        assert finds(corpus, "wombatpassword") == ["elsewhere/notes.md"]
    assert report.skipped == 0


def test_the_command_line_reports_the_skipped_link_and_follows_when_asked(tmp_path: Path) -> None:
    folder = layout(tmp_path)
    runner = CliRunner()
    skipped = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "a.duckdb"), "--json"])
    assert skipped.exit_code == 0, skipped.output
    problems = json.loads(skipped.stdout)["result"]["problems"]
    assert [Path(p["path"]).name for p in problems] == ["creds.md", "docs"]  # docs: again.md is guide.md
    followed = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "b.duckdb"), "--json",
                                   "--follow-symlinks"])
    assert followed.exit_code == 0, followed.output
    assert json.loads(followed.stdout)["result"]["versions_created"] == 3  # again.md is guide.md
