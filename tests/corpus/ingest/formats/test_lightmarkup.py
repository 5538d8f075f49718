"""reStructuredText and AsciiDoc keep their section titles."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc, parse_rst
from clew.corpus.store import Corpus
from tests.corpus.ingest.formats.documents import outline

RST = """=========
 Runbook
=========

Intro paragraph
on two lines.

Restarts
========

Drain the node first.

Rolling restarts
----------------

One node at a time::

    systemctl restart app

Backups
=======

----------

Nightly at 02:00.
"""

ADOC = """= Runbook
:toc:

Intro paragraph.

== Restarts

Drain the node first.

=== Rolling restarts

----
systemctl restart app

== still code
----

== Backups

Nightly at 02:00.
"""


def test_rst_titles_and_levels_by_adornment_order() -> None:
    document = parse_rst(RST)
    document.check()
    assert outline(document) == [("Runbook", 0, None), ("Runbook", 1, 0), ("Restarts", 2, 1),
                                 ("Rolling restarts", 3, 2), ("Backups", 2, 1)]
    texts = [(b.kind, document.text[b.start:b.end]) for b in document.blocks]
    assert texts[0] == ("heading", "=========\n Runbook\n=========")
    assert ("paragraph", "Intro paragraph\non two lines.") in texts
    assert ("paragraph", "----------") in texts  # a transition, not a title
    assert document.title == "Runbook"


def test_asciidoc_titles_and_delimited_blocks() -> None:
    document = parse_asciidoc(ADOC)
    document.check()
    assert outline(document) == [("Runbook", 0, None), ("Runbook", 1, 0), ("Restarts", 2, 1),
                                 ("Rolling restarts", 3, 2), ("Backups", 2, 1)]
    code = next(b for b in document.blocks if b.kind == "code")
    assert document.text[code.start:code.end] == "----\nsystemctl restart app\n\n== still code\n----"
    assert code.indivisible


def test_ingested_with_their_headings(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "runbook.rst").write_text(RST, encoding="utf-8")
    # another name: two files of one name and the same text are twins, ingested once (clew.corpus.ingest.sources)
    (tmp_path / "docs" / "runbook-adoc.adoc").write_text(ADOC, encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [tmp_path / "docs"], collection="docs", chunk_tokens=220)
        rows = corpus.cursor().execute(
            "SELECT d.key, v.format, c.heading_path FROM chunks c JOIN documents d ON d.id = c.document_id "
            "JOIN document_versions v ON v.document_id = d.id WHERE c.body LIKE '%Nightly%' ORDER BY d.key").fetchall()
    assert rows == [
        ("runbook-adoc.adoc", "asciidoc", ["Runbook", "Backups"]),
        ("runbook.rst", "rst", ["Runbook", "Backups"]),
    ]


def test_admonitions_are_one_block_of_their_section() -> None:
    rst = parse_rst("Backups\n=======\n\n.. note::\n\n   Restores need the key.\n\n   Keep it offline.\n\n"
                    ".. warning:: Never delete the last copy.\n   It is the only one.\n\nAfter the note.\n")
    rst.check()
    assert [(b.kind, b.section, rst.text[b.start:b.end]) for b in rst.blocks[1:]] == [
        ("paragraph", 1, ".. note::\n\n   Restores need the key.\n\n   Keep it offline."),
        ("paragraph", 1, ".. warning:: Never delete the last copy.\n   It is the only one."),
        ("paragraph", 1, "After the note."),
    ]
    adoc = parse_asciidoc("== Backups\n\nNOTE: One line.\n\n[WARNING]\n====\nRestores need the key.\n\n"
                          "Keep it offline.\n====\n\nAfter.\n")
    adoc.check()
    assert [(b.kind, adoc.text[b.start:b.end]) for b in adoc.blocks[1:]] == [
        ("paragraph", "NOTE: One line."),
        ("paragraph", "[WARNING]\n====\nRestores need the key.\n\nKeep it offline.\n===="),
        ("paragraph", "After."),
    ]


def test_rst_code_directives_and_literal_blocks_are_code_and_targets_are_not_text() -> None:
    rst = parse_rst("Install\n=======\n\n.. _install:\n\nStart here.\n\n.. code-block:: bash\n\n"
                    "   pip install widget\n\n   widget --version\n\nRun it like this::\n\n    widget spin --fast\n\n"
                    "After the example.\n")
    rst.check()
    assert [(b.kind, rst.text[b.start:b.end]) for b in rst.blocks[1:]] == [
        ("paragraph", "Start here."),
        ("code", ".. code-block:: bash\n\n   pip install widget\n\n   widget --version"),
        ("paragraph", "Run it like this::"),
        ("code", "    widget spin --fast"),
        ("paragraph", "After the example."),
    ]
    assert all(block.indivisible for block in rst.blocks if block.kind == "code")
