"""reStructuredText's ``.. include::`` as a file is read (task F1): the included file's text where the
directive stands, within the guards AsciiDoc's include:: has (clew.corpus.ingest.includes). The pages keep the
shape of CPython's Doc/ (``library/*.rst`` include ``../includes/wasm-notavail.rst``) and of a Sphinx project's
``index.rst`` that includes the changelog from the top (``/../CHANGES.rst`` there; ``/changes.rst`` here)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.lightmarkup import parse_rst
from clew.corpus.ingest.sources import FileLimits, find_files, read_source

SELECT = """:mod:`select` --- Waiting for I/O completion
============================================

.. module:: select
   :synopsis: Wait for I/O completion on multiple streams.

This module provides access to the :c:func:`!select` and :c:func:`!poll` functions.

.. include:: ../includes/wasm-notavail.rst

The module defines the following:

.. note::

   .. include:: ../includes/epoll-note.rst
      :start-after: .. epoll-start
      :end-before: .. epoll-end

Example::

   .. include:: not-read.rst

.. include:: ../includes/poll-example.py
   :code: python

.. include:: <isonum.txt>
.. include:: ../includes/missing.rst
.. include:: select.rst
.. include:: ../../outside.rst
"""
WASM = """.. availability:: not Emscripten, not WASI.

   This module does not work or is not available on WebAssembly platforms
   ``wasm32-emscripten`` and ``wasm32-wasi``.
"""
EPOLL = """A note not included.

.. epoll-start

Edge and level trigger polling (epoll) objects are on Linux 2.5.44 and newer.

.. epoll-end

Not included either.
"""
POLL = "import select\npoller = select.poll()\n"


def doc(root: Path) -> Path:
    folder = root / "Doc"
    (folder / "library").mkdir(parents=True)
    (folder / "includes").mkdir()
    (folder / "library" / "select.rst").write_text(SELECT, encoding="utf-8")
    (folder / "includes" / "wasm-notavail.rst").write_text(WASM, encoding="utf-8")
    (folder / "includes" / "epoll-note.rst").write_text(EPOLL, encoding="utf-8")
    (folder / "includes" / "poll-example.py").write_text(POLL, encoding="utf-8")
    (root / "outside.rst").write_text("Outside the ingested folder.\n", encoding="utf-8")
    return folder


def test_an_rst_include_is_read_where_it_stands_within_the_guards(tmp_path: Path) -> None:
    folder = doc(tmp_path)
    source, problem = read_source(folder / "library" / "select.rst", "library/select.rst")
    assert source is not None and isinstance(source.content, str)
    text = source.content
    assert ("poll` functions.\n\n.. availability:: not Emscripten, not WASI.\n\n   This module does not work or is not "
            "available on WebAssembly platforms\n") in text
    # inside the note, at the directive's indentation, only the lines between the markers
    assert ".. note::\n\n\n\n   Edge and level trigger polling (epoll) objects are on Linux 2.5.44 and newer.\n" in text
    assert "A note not included" not in text and "Not included either" not in text
    assert "Example::\n\n   .. include:: not-read.rst\n" in text  # in a literal block: text, as docutils shows it
    assert ".. code:: python\n\n   import select\n   poller = select.poll()\n" in text
    assert "Outside the ingested folder" not in text and ".. include:: ../includes" not in text
    assert problem is not None and problem.warning and not problem.skipped
    assert problem.message == ("4 include:: lines not read, left out: <isonum.txt> (a docutils set, not a file), "
                               "../includes/missing.rst (not found), select.rst (includes itself) and 1 more")
    parsed = parse_rst(text)
    note = next(b for b in parsed.blocks if parsed.text[b.start:b.end].startswith(".. note::"))
    assert "Edge and level trigger polling" in parsed.text[note.start:note.end]  # the note holds the included text
    code = [parsed.text[b.start:b.end] for b in parsed.blocks if b.kind == "code"]
    assert any("poller = select.poll()" in block for block in code)


def test_an_include_from_the_top_folder_and_an_include_of_an_include(tmp_path: Path) -> None:
    (tmp_path / "docs" / "api").mkdir(parents=True)
    (tmp_path / "docs" / "index.rst").write_text("Widgets\n=======\n\n.. include:: /changes.rst\n", encoding="utf-8")
    (tmp_path / "docs" / "changes.rst").write_text("Changes\n-------\n\n.. include:: api/latest.rst\n",
                                                   encoding="utf-8")
    (tmp_path / "docs" / "api" / "latest.rst").write_text("Version 2.0 drops the gear API.\n", encoding="utf-8")
    source, problem = read_source(tmp_path / "docs" / "index.rst", "index.rst")
    assert problem is None and source is not None
    parsed = parse_rst(str(source.content))
    assert [s.heading for s in parsed.sections] == ["Widgets", "Widgets", "Changes"]
    assert "Widgets\n=======\n\nChanges\n-------\n\nVersion 2.0 drops the gear API.\n" in parsed.text


def test_rst_includes_end_at_the_size_limit(tmp_path: Path) -> None:
    (tmp_path / "page.rst").write_text("Page\n====\n\n" + ".. include:: part.rst\n" * 3, encoding="utf-8")
    (tmp_path / "part.rst").write_text("A part of forty characters, give or take.\n", encoding="utf-8")
    source, problem = read_source(tmp_path / "page.rst", "page.rst", FileLimits(text_bytes=100))
    assert source is not None and str(source.content).count("A part of forty") == 2
    assert problem is not None and problem.message.endswith("part.rst (over the size limit)")


def test_the_rst_partials_pages_include_whole_are_left_out_and_can_be_taken_back(tmp_path: Path) -> None:
    """CPython's includes/*.rst (no title of their own; its Sphinx configuration leaves them out as pages) are
    read in the pages that include them, not as documents of their own; a titled page another includes (a
    changelog), a file included in part (``:start-after:``) and a file no page includes stay documents."""
    folder = doc(tmp_path)
    (folder / "changes.rst").write_text(".. _changes:\n\nChanges\n=======\n\nVersion 2.0.\n", encoding="utf-8")
    (folder / "whatsnew.rst").write_text("What's new\n==========\n\n.. include:: /changes.rst\n", encoding="utf-8")
    (folder / "includes" / "unused.rst").write_text("Included by no page.\n", encoding="utf-8")
    found = find_files([folder], "**/*")
    assert sorted(key for _, key in found.files) == [
        "changes.rst", "includes/epoll-note.rst", "includes/poll-example.py", "includes/unused.rst",
        "library/select.rst", "whatsnew.rst"]
    (line,) = [p for p in found.problems if "partial" in p.message]
    assert line.message.startswith("1 reStructuredText partial (files pages include whole, their text read where the "
                                   "page includes it: includes/wasm-notavail.rst in library/select.rst) not ingested")
    back = find_files([folder], "**/*", ["!wasm-notavail.rst"])
    assert "includes/wasm-notavail.rst" in [key for _, key in back.files]
