"""What ``clew ingest`` says of Jupyter notebooks (``.ipynb``), a type it does not read (task U30)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app

runner = CliRunner()

NOTEBOOK = {  # the opening of the Jupyter Notebook's tutorial "Running Code", nbformat 4, an output stored
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Running Code"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": ["a = 10"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["10\n"]}], "source": ["print(a)"]},
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 4,
}


def test_a_folder_of_notebooks_is_told_the_way_in(tmp_path: Path) -> None:
    """A folder of notebooks was "skipped 2 files of types clew does not read (.ipynb 2)" and "nothing ingested", with
    no way in; the line now says how notebooks are read: as the pages a documentation tool renders them into, or
    as Markdown by nbconvert. Other unread types are said as before."""
    folder = tmp_path / "tutorials"
    folder.mkdir()
    for name in ("Running Code.ipynb", "Notebook Basics.ipynb"):
        (folder / name).write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    (folder / "logo.png").write_bytes(b"\x89PNG")
    ran = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "c.duckdb")], env={"COLUMNS": "80"})
    assert ran.exit_code == 1, ran.output
    said = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert said == ["skipped 3 files of types clew does not read (.ipynb 2, .png 1); Jupyter notebooks are read as the "
                    "pages a documentation tool renders them into (nbsphinx, MyST-NB, mkdocs-jupyter) or as Markdown: "
                    "jupyter nbconvert --to markdown NAME.ipynb"]
    (folder / "Running Code.ipynb").unlink()
    (folder / "Notebook Basics.ipynb").unlink()
    (folder / "README.md").write_text("# Tutorials\n\nHow to run code.\n", encoding="utf-8")
    ran = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "d.duckdb")], env={"COLUMNS": "80"})
    assert ran.exit_code == 0, ran.output
    assert [line for line in ran.stderr.splitlines() if line.startswith("skipped ")] == [
        "skipped 1 file of types clew does not read (.png 1)"]
