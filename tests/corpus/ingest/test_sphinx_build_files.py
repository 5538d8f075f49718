"""What ``sphinx-build -b html docs out`` leaves in its output folder beside the pages (task U27): Werkzeug 3.1.9's
docs built with pydata-sphinx-theme 0.24."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.sources import find_files
from tests.conftest import write_files

SPHINX_OUTPUT = {
    "index.html": "<!DOCTYPE html><html><head><title>Werkzeug</title></head><body><main><h1>Werkzeug</h1>"
                  "<p>Werkzeug is a comprehensive WSGI web application library.</p></main></body></html>\n",
    "quickstart.html": "<!DOCTYPE html><html><head><title>Quickstart</title></head><body><main><h1>Quickstart</h1>"
                       "<p>This part of the documentation shows how to use Werkzeug.</p></main></body></html>\n",
    ".buildinfo": "# Sphinx build info version 1\nconfig: 5b5bd6c1\ntags: 645f666f\n",
    ".doctrees/environment.pickle": "\x80\x04\x95 pickled build environment",
    ".doctrees/index.doctree": "\x80\x04\x95 pickled doctree of index",
    ".doctrees/quickstart.doctree": "\x80\x04\x95 pickled doctree of quickstart",
}


def test_sphinx_pickled_doctrees_are_generated_files_not_hidden_ones(tmp_path: Path) -> None:
    """``sphinx-build`` writes its pickled doctrees into the output folder (``.doctrees``, 39 files for Werkzeug's 38
    pages): they were reported as hidden files, "take them in with --exclude '!.doctrees'", pickles clew cannot read.
    They are left out with the other files the documentation tool generates, in that line."""
    site = write_files(tmp_path / "html", SPHINX_OUTPUT)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == ["index.html", "quickstart.html"]
    assert not any("hidden" in problem.message for problem in found.problems)
    generated = next(problem for problem in found.problems if "generated" in problem.message)
    assert (generated.warning, generated.skipped) == (True, False)
    assert generated.message.startswith(
        "4 generated files (a documentation tool's indexes, search page, sources or assets: .buildinfo, 3 .doctrees)")
