"""reStructuredText and AsciiDoc keep their section titles."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc, parse_plain, parse_rst
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


def test_rst_parsed_literal_is_one_block_of_code_as_the_table_rewrite_reads_it() -> None:
    """One definition of a code directive serves the reader and its table rewrite (review V9): the reader's own
    left out ``parsed-literal``, which Sphinx shows as a literal block, and read its line as a paragraph."""
    rst = parse_rst("Dummy text\n\n.. parsed-literal::\n\n   |picture|\\ AFTER\n\n   +---+\n   | a |\n   +---+\n")
    rst.check()
    assert [(b.kind, rst.text[b.start:b.end]) for b in rst.blocks] == [
        ("paragraph", "Dummy text"),
        ("code", ".. parsed-literal::\n\n   |picture|\\ AFTER\n\n   +---+\n   | a |\n   +---+"),
    ]


GIT_PAGE = """git-stash(1)
============

NAME
----
git-stash - Stash the changes in a dirty working directory away

SYNOPSIS
--------
[verse]
'git stash' list [<log-options>]

OPTIONS
-------
-u::
--include-untracked::
\tAll untracked files are also stashed.

[[examples]]
Examples
~~~~~~~~
------------
$ git stash -u
------------
"""


def test_asciidoc_two_line_titles_attribute_lines_and_a_txt_file_read_as_asciidoc() -> None:
    # git's Documentation/*.txt (Debian's git-doc): two-line titles; read as plain text, the page had no
    # section and "git-stash(1) ============ NAME ---- git-stash - ..." was one paragraph
    for document in (parse_asciidoc(GIT_PAGE), parse_plain(GIT_PAGE)):
        document.check()
        assert outline(document) == [("git-stash(1)", 0, None), ("git-stash(1)", 1, 0), ("NAME", 2, 1),
                                     ("SYNOPSIS", 2, 1), ("OPTIONS", 2, 1), ("Examples", 3, 4)]
        texts = [(b.kind, document.text[b.start:b.end]) for b in document.blocks]
        assert ("paragraph", "'git stash' list [<log-options>]") in texts  # "[verse]" is no text
        assert not any("[[examples]]" in text for _, text in texts)
        assert texts[-1] == ("code", "------------\n$ git stash -u\n------------")  # a fence, not an underline
        assert document.title == "git-stash(1)"


def test_a_txt_file_is_asciidoc_rst_or_text_by_its_opening() -> None:
    mixed = "My First Contribution\n=====================\n:sectanchors:\n\n[[summary]]\n== Summary\n\nA tutorial.\n"
    assert outline(parse_plain(mixed)) == [("My First Contribution", 0, None), ("My First Contribution", 1, 0),
                                           ("Summary", 2, 1)]
    rst = "Notes\n=====\n\n.. note:: Read me.\n\nUsage\n-----\n\nText::\n\n    code\n"
    document = parse_plain(rst)
    assert outline(document) == [("Notes", 0, None), ("Notes", 1, 0), ("Usage", 2, 1)]
    assert [b.kind for b in document.blocks][-1] == "code"
    for plain in ("Title-looking line\n\n# not markdown here\n", "Just a title\n============\n\nNo sections.\n",
                  "= Title\n\nno second level\n"):
        document = parse_plain(plain)
        assert outline(document) == [("", 0, None)], plain
        assert {b.kind for b in document.blocks} == {"paragraph"}


def test_asciidoc_and_rst_links_and_anchors() -> None:
    # read without them, git's 1,614 linkgit: references were text only (task U6)
    adoc = ("= Stash\n\n[[push]]\n== Push\n\nSee linkgit:git-add[1] and <<push,pushing>>, not <<nowhere>>.\n\n"
            "----\nlinkgit:git-log[1] in code\n----\n")
    as_txt = adoc.replace("= Stash", "Stash\n=====").replace("== Push", "Push\n----")
    for document, suffix in ((parse_asciidoc(adoc), ".adoc"), (parse_plain(as_txt), ".txt")):
        document.check()
        assert [link.href for link in document.links] == [f"git-add{suffix}", "#push"]
        text = document.text
        assert text[document.anchors["push"]:].lstrip("= ").startswith("Push")
        assert text[document.links[0].start:].startswith("linkgit:git-add[1]")
    rst = (".. _Whitespace Control:\n\nWhitespace\n==========\n\nSee :ref:`whitespace control`, "
           ":ref:`the filters <filters>`, :doc:`intro`, :doc:`Templates </templates>`.\n\n"
           ".. code-block:: rst\n\n    :doc:`in-code`\n")
    document = parse_rst(rst)
    document.check()
    assert [link.href for link in document.links] == ["#whitespace control", "intro.rst"]
    assert document.text[document.anchors["whitespace control"]:].startswith("Whitespace\n")


def test_rst_roles_link_to_the_labels_and_pages_of_other_pages(tmp_path: Path) -> None:
    # Jinja's docs (task U6): ":ref:`writing-filters`" in templates.rst names a label of api.rst; Sphinx's labels
    # are global. Read a page at a time, such a role was no link.
    docs = tmp_path / "corpus" / "jinja"
    (docs / "guide").mkdir(parents=True)
    (docs / "index.rst").write_text("Jinja\n=====\n\nStart with :doc:`guide/templates`.\n", encoding="utf-8")
    (docs / "api.rst").write_text("API\n===\n\nIntro.\n\n.. _writing-filters:\n\nCustom Filters\n--------------\n\n"
                                  "Register a filter in ``environment.filters``.\n", encoding="utf-8")
    (docs / "guide" / "templates.rst").write_text(
        "Templates\n=========\n\nSee :ref:`custom filters <writing-filters>`, :doc:`the API </api>`, "
        ":ref:`Writing Filters` and :ref:`nowhere`.\n\n.. code-block:: rst\n\n    :ref:`writing-filters`\n",
        encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path / "corpus"], collection="docs")
        rows = corpus.cursor().execute(
            """SELECT e.dst_ref, d.key, c.body FROM edges e
               LEFT JOIN chunks c ON e.dst = 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal
               LEFT JOIN documents d ON d.id = c.document_id WHERE e.graph = 'links'""").fetchall()
    # the label's section (both spellings: one link), the page from the root (the folder of index.rst); nowhere: none
    assert sorted((ref, key, body.split("\n")[0]) for ref, key, body in rows) == [
        ("jinja/api.rst", "jinja/api.rst", "API"), ("jinja/api.rst#writing-filters", "jinja/api.rst", "Custom Filters"),
        ("jinja/guide/templates.rst", "jinja/guide/templates.rst", "Templates")]
    assert report.links_resolved == 3 and report.links_dangling == 0


# Jinja 3.1.4's docs/index.rst (cut), and an entry with a title and a URL as Sphinx's own docs write them
TOCTREE = """\
Jinja
=====

Jinja is a fast, expressive, extensible templating engine.

.. toctree::
    :maxdepth: 2
    :caption: Contents:

    intro
    Template Designer Documentation <templates>
    self
    Changes <https://jinja.palletsprojects.com/changes/>
"""


def test_a_toctree_is_its_entries_each_a_link_its_options_not_text() -> None:
    document = parse_rst(TOCTREE)
    items = [document.text[b.start:b.end] for b in document.blocks if b.kind == "list_item"]
    assert items == ["intro", "Template Designer Documentation <templates>", "self",
                     "Changes <https://jinja.palletsprojects.com/changes/>"]
    texts = [document.text[b.start:b.end] for b in document.blocks]
    assert not any("toctree" in text or ":maxdepth:" in text for text in texts)
    assert [(document.text[link.start:link.start + 5], link.href) for link in document.links] == [
        ("intro", "intro.rst"), ("Templ", "templates.rst"), ("Chang", "https://jinja.palletsprojects.com/changes/")]


# Sphinx 8.1.3's doc/usage/extensions/coverage.rst and Jinja 3.1.4's docs/api.rst (cut)
DESCRIPTIONS = """\
Configuration
-------------

.. confval:: coverage_c_regexes

.. confval:: coverage_statistics_to_report

   Print a tabular report of the coverage statistics to the coverage report.
   ``True`` by default.

   .. versionadded:: 7.2

High Level API
--------------

.. autoclass:: Environment([options])
    :members: from_string, get_template

    .. attribute:: shared

        If a template was created by using the ``Template`` constructor
        an environment is created automatically.

The high-level API is the API you will use in the application.
"""


def test_an_object_description_is_a_section_holding_its_body() -> None:
    document = parse_rst(DESCRIPTIONS)
    document.check()
    sections = [(s.heading, s.level, document.sections[s.parent].heading if s.parent else None)
                for s in document.sections[1:]]
    assert sections == [("Configuration", 1, None), ("coverage_statistics_to_report", 2, "Configuration"),
                        ("High Level API", 1, None), ("Environment([options])", 2, "High Level API"),
                        ("shared", 3, "Environment([options])")]
    by_text = {document.text[b.start:b.end].split("\n")[0]: document.sections[b.section].heading
               for b in document.blocks}
    assert by_text[".. confval:: coverage_c_regexes"] == "Configuration"  # no body: a line, as written
    assert by_text["Added in version 7.2."] == "coverage_statistics_to_report"
    assert by_text["If a template was created by using the ``Template`` constructor"] == "shared"
    assert by_text["The high-level API is the API you will use in the application."] == "High Level API"
    ends = {s.heading: s.end for s in document.sections}
    assert document.text[:ends["coverage_statistics_to_report"]].endswith("Added in version 7.2.")
