"""A Quarto site's files beside its pages (task U33): GitHub Pages' empty marker ``.nojekyll`` and ``robots.txt``."""

from __future__ import annotations

from pathlib import Path

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
    assert found.excluded == 2


def test_a_hidden_file_with_text_is_still_reported(tmp_path: Path) -> None:
    site = write_files(tmp_path / "docs", {**QUARTO_BOOK, ".nojekyll": "# kept for GitHub Pages\n"})
    assert any(problem.message.startswith("1 hidden file") for problem in find_files([site], "**/*").problems)
