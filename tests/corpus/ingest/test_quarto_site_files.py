"""A Quarto site's files beside its pages (task U33): GitHub Pages' empty marker ``.nojekyll`` and ``robots.txt``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files

QUARTO_BOOK = {  # the SignalFlow EEG book's docs/ (Quarto 1.4), cut down
    ".nojekyll": "",
    "robots.txt": "Sitemap: https://cincibrainlab.github.io/SignalFlowEEG/sitemap.xml\n",
    "index.html": "<html><head><title>SignalFlow EEG</title></head><body><h1>Welcome</h1><p>SignalFlowEEG (SF) is a "
    "framework.</p></body></html>\n",
    "book/revision/sf_builder_tab.html": "<html><head><title>SignalFlow EEG - 5 SignalFlow: Builder Tab</title></head>"
    "<body><h1>Builder Tab</h1><p>Build your pipeline.</p></body></html>\n",
}


def test_the_empty_marker_is_not_reported_and_robots_txt_is_generated(tmp_path: Path) -> None:
    site = write_files(tmp_path / "docs", QUARTO_BOOK)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["book/revision/sf_builder_tab.html", "index.html"]
    assert [problem.message for problem in found.problems] == [
        "1 generated file (a documentation tool's indexes, search page, sources or assets: robots.txt) not ingested; "
        "take them in with --exclude '!NAME' or a '!NAME' line in .clewignore (e.g. '!robots.txt')"
    ]
    assert found.excluded == 1  # robots.txt, which the line names; the empty marker is no file left out


def test_a_hidden_file_with_text_is_still_reported(tmp_path: Path) -> None:
    site = write_files(tmp_path / "docs", {**QUARTO_BOOK, ".nojekyll": "# kept for GitHub Pages\n"})
    found = find_files([site], "**/*")
    assert any(problem.message.startswith("1 hidden file") for problem in found.problems)
    assert found.excluded == 2


def test_the_ingest_report_counts_no_empty_marker(tmp_path: Path) -> None:
    """Every file that "N excluded" counts is named by a line above it (review V9): the empty .nojekyll counted,
    unnamed, as a second excluded file beside robots.txt."""
    site = write_files(tmp_path / "docs", QUARTO_BOOK)
    ran = CliRunner().invoke(app, ["ingest", str(site), "--db", str(tmp_path / "docs.duckdb")])
    assert ran.exit_code == 0, ran.output
    assert "1 generated file (a documentation tool's" in ran.stderr and "hidden" not in ran.stderr
    assert "2 documents (" in ran.stdout and ", 1 excluded, " in ran.stdout, ran.stdout
