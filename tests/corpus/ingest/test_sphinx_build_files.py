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


HIDING_MD = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
---

# Hide or remove content

It's possible to control which content shows up in your book. For example,
you may want to display a complex visualization to illustrate an idea.
"""
JUPYTER_BOOK = {  # Jupyter Book 1.0.4's own docs (task U35): myst-notebooks.html offers two pages' sources
    "interactive/hiding.html": "<!DOCTYPE html><html><head><title>Hide or remove content</title></head><body><main>"
                               "<h1>Hide or remove content</h1><p>It's possible to control which content shows up "
                               "in your book.</p></main></body></html>\n",
    "file-types/myst-notebooks.html": "<!DOCTYPE html><html><head><title>Notebooks written entirely in Markdown</title>"
                                      '</head><body><main><h1>Notebooks in Markdown</h1><p>See <a class="reference '
                                      'download internal" download="" href="../_downloads/b42d2b4229de564661ffb7a06130'
                                      '5749/hiding.md">hiding.md</a>.</p></main></body></html>\n',
    "_downloads/b42d2b4229de564661ffb7a061305749/hiding.md": HIDING_MD,
    "_downloads/12e9fb0f1c062494259ce630607cfc87/myst-notebooks.ipynb": '{"cells": [], "nbformat": 4}\n',
    "_downloads/33e59b5ca9ec342068223d604c3f8d55/references.bib": "@book{knuth1984, title={Literate programming}}\n",
    "_downloads/0f3a25b842d7256a8ce8f8cb6cc6160a/checklist.md": "# Checklist\n\nA file of its own to download.\n",
    "_sources/interactive/hiding.md": HIDING_MD,
}


def test_a_page_s_source_offered_for_download_is_left_out_and_other_downloads_stay(tmp_path: Path) -> None:
    """Sphinx's ``:download:`` copies a file into ``_downloads/<hash>/``: Jupyter Book's own docs offer two pages'
    MyST sources so, which were ingested beside their pages (task U35). A file named as a page of the site (of a
    source's suffix: Markdown, a notebook, Sphinx's ``example_numpy.py``) is left out, in a line of its own; one no
    page is named as (``checklist.md``), or not a source (``references.bib``), stays."""
    site = write_files(tmp_path / "html", JUPYTER_BOOK)
    found = find_files([site], "**/*")
    assert [key for _, key in found.files] == [
        "_downloads/0f3a25b842d7256a8ce8f8cb6cc6160a/checklist.md",
        "_downloads/33e59b5ca9ec342068223d604c3f8d55/references.bib",
        "file-types/myst-notebooks.html",
        "interactive/hiding.html",
    ]
    line = next(problem for problem in found.problems if "download" in problem.message)
    assert (line.path, line.warning, line.skipped) == (str(site), True, False)
    assert line.message == (
        "2 page sources a site offers for download (_downloads/: a file named as a page of the site, whose text is "
        "that page's: _downloads/12e9fb0f1c062494259ce630607cfc87/myst-notebooks.ipynb, "
        "_downloads/b42d2b4229de564661ffb7a061305749/hiding.md) not ingested: the page is; take one in with "
        "--exclude '!myst-notebooks.ipynb' or a '!myst-notebooks.ipynb' line in .clewignore")
    assert found.excluded == 3  # and _sources/interactive/hiding.md
    again = find_files([site], "**/*", ["!hiding.md"])
    assert "_downloads/b42d2b4229de564661ffb7a061305749/hiding.md" in [key for _, key in again.files]
