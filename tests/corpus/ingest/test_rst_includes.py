"""reStructuredText's ``.. include::`` as a file is read (task F1): the included file's text where the
directive stands, within the guards AsciiDoc's include:: has (clew.corpus.ingest.includes). The pages keep the
shape of CPython's Doc/ (``library/*.rst`` include ``../includes/wasm-notavail.rst``) and of a Sphinx project's
``index.rst`` that includes the changelog from the top (``/../CHANGES.rst`` there; ``/changes.rst`` here)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.lightmarkup import parse_rst
from clew.corpus.ingest.prepare import parse
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import FileLimits, find_files

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


DOCUTILS_DOCS = {  # docutils' own docs/ (its sdist; F1's leftover): .txt pages that open with the header include
    "header.txt": ".. header:: Docutils__ | Overview__\n\n   __ https://docutils.sourceforge.io\n"
                  "   __ ../index.html\n",
    "user/config.txt": ".. include:: ../header.txt\n\n========================\n Docutils Configuration\n"
                       "========================\n\n:Author: David Goodger\n\nConfiguration files are used for "
                       "persistent customization.\n\nCommand-Line Options\n====================\n\nThe options "
                       "are listed by ``--help``.\n",
    "user/notes.txt": "Just notes: not a manual page.\n\n.. include:: ../header.txt\n",
}


def test_a_txt_page_that_opens_with_an_include_over_its_title_reads_as_restructuredtext(tmp_path: Path) -> None:
    """docutils' ``docs/user/*.txt`` open with ``.. include:: ../header.txt``: they were plain text, the directive a
    line of text and their titles two lines of ``=``."""
    root = tmp_path / "docs"
    for name, text in DOCUTILS_DOCS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    page, problem = read_source(root / "user" / "config.txt", "user/config.txt")
    assert page is not None and problem is None
    assert page.content.startswith(".. header:: Docutils__ | Overview__\n\n   __ https://docutils.sourceforge.io\n")
    doc = parse(page.format, page.content, page.bounds)
    assert doc.title == "Docutils Configuration"
    assert [(section.heading, section.level) for section in doc.sections] == [
        ("Docutils Configuration", 0), ("Docutils Configuration", 1), ("Command-Line Options", 2)]
    assert ".. include::" not in doc.text and "persistent customization" in doc.text
    notes, _ = read_source(root / "user" / "notes.txt", "user/notes.txt")
    assert notes is not None and ".. include:: ../header.txt" in notes.content  # no title: plain text, as before


SPHINX_PAGE = """Tutorial
========

The function below mends a gear.

.. literalinclude:: ../src/gears.py
   :pyobject: Gear.mend

Its first lines:

.. literalinclude:: ../src/gears.py
   :language: python
   :lines: 1,5-6

.. literalinclude:: ../src/missing.py
"""
GEARS_PY = '''import os
import sys


class Gear:
    def turn(self):
        return 1

    def mend(self):
        """Mend the gear."""
        return os.sep


def spin():
    pass
'''


def test_a_literalinclude_is_a_code_block_of_the_file(tmp_path: Path) -> None:
    """Sphinx's ``.. literalinclude::`` was not read: the page showed neither the directive nor the code."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "docs" / "tutorial.rst").write_text(SPHINX_PAGE, encoding="utf-8")
    (tmp_path / "src" / "gears.py").write_text(GEARS_PY, encoding="utf-8")
    page, problem = read_source(tmp_path / "docs" / "tutorial.rst", "docs/tutorial.rst")
    assert page is not None and problem is not None
    assert problem.message == "1 include:: line not read, left out: ../src/missing.py (not found)"
    assert page.content == ("Tutorial\n========\n\nThe function below mends a gear.\n\n.. code::\n\n"
                            '       def mend(self):\n           """Mend the gear."""\n           return os.sep\n\n\n'
                            "Its first lines:\n\n.. code:: python\n\n"
                            "   import os\n   class Gear:\n       def turn(self):\n\n\n")
    doc = parse_rst(page.content)
    assert "return os.sep" in doc.text and "class Gear:" in doc.text and "literalinclude" not in doc.text
    assert "def turn" not in doc.text.split("Its first lines")[0]


# docutils' csv-table with its rows in a file beside the page (Sphinx reads "/name" from its source folder); a file
# that is not there, or outside the ingested folder, is named in the report and the rest of the page read
CSV_PAGE = """Frozen delights
===============

.. csv-table:: Frozen Delights!
   :file: ../data/delights.csv
   :header-rows: 1
   :widths: 15, 10, 30
   :encoding: utf-8

.. csv-table:: Prices
   :file: /data/delights.csv

.. csv-table:: Gone
   :file: gone.csv

.. csv-table:: Outside
   :file: ../../prices.csv

Served cold.
"""
DELIGHTS = 'Treat,Quantity,Description\n"Albatross",2.99,"On a stick!"\n"Popcorn",1.99,"Straight from the oven"\n'


def test_a_csv_table_reads_the_rows_of_its_file(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    (folder / "menu").mkdir(parents=True)
    (folder / "data").mkdir()
    (folder / "menu" / "frozen.rst").write_text(CSV_PAGE, encoding="utf-8")
    (folder / "data" / "delights.csv").write_text(DELIGHTS, encoding="utf-8")
    (tmp_path / "prices.csv").write_text("Treat,Price\nPopcorn,2\n", encoding="utf-8")
    source, problem = read_source(folder / "menu" / "frozen.rst", "menu/frozen.rst")
    assert source is not None and isinstance(source.content, str)
    document = parse_rst(source.content)
    rows = [document.text[b.start:b.end] for b in document.blocks if b.kind in ("table_header", "table_row")]
    assert [" ".join(row.split()) for row in rows] == [
        "| Treat | Quantity | Description | | --- | --- | --- |", "| Albatross | 2.99 | On a stick! |",
        "| Popcorn | 1.99 | Straight from the oven |", "| Treat | Quantity | Description |",
        "| Albatross | 2.99 | On a stick! |", "| Popcorn | 1.99 | Straight from the oven |"]
    assert [table.title for table in document.tables] == ["Frozen Delights!", "Prices"]
    assert ":file:" not in document.text and "Gone" not in document.text and "Outside" not in document.text
    assert document.text.rstrip().endswith("Served cold.")
    assert problem is not None and problem.warning
    assert "csv-table :file: gone.csv (not found)" in problem.message
    assert "csv-table :file: ../../prices.csv (outside the ingested folder)" in problem.message
