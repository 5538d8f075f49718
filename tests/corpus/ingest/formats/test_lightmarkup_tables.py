"""reStructuredText and AsciiDoc tables read as tables: a block a row, header rows first (task U34)."""

from __future__ import annotations

from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc, parse_rst
from clew.corpus.ingest.parsed import ParsedDocument


def _rows(document: ParsedDocument) -> list[tuple[str, str]]:
    document.check()
    return [(block.kind, document.text[block.start:block.end]) for block in document.blocks
            if block.kind in ("table_header", "table_row")]


# Jinja 3.1.4's docs/templates.rst, "For" (cut to three rows); a cell's description goes on over two lines
JINJA_GRID = """\
For
~~~

Inside of a for-loop block, you can access some special variables:

+-----------------------+---------------------------------------------------+
| Variable              | Description                                       |
+=======================+===================================================+
| `loop.index`          | The current iteration of the loop. (1 indexed)    |
+-----------------------+---------------------------------------------------+
| `loop.revindex0`      | The number of iterations from the end of the loop |
|                       | (0 indexed)                                       |
+-----------------------+---------------------------------------------------+

Within a for-loop, it's possible to cycle among a list of strings/variables.
"""


def test_a_grid_table_is_a_row_a_block_with_its_continuation_lines_joined() -> None:
    document = parse_rst(JINJA_GRID)
    assert _rows(document) == [
        ("table_header", "| Variable | Description |\n| --- | --- |"),
        ("table_row", "| `loop.index` | The current iteration of the loop. (1 indexed) |"),
        ("table_row", "| `loop.revindex0` | The number of iterations from the end of the loop (0 indexed) |"),
    ]
    assert len(document.tables) == 1 and document.tables[0].section == 1
    assert document.text.endswith("Within a for-loop, it's possible to cycle among a list of strings/variables.\n")


# Sphinx 8.1.3's doc/extdev/deprecated.rst (its first row) and doc/usage/configuration.rst (epub_writing_mode)
SPHINX_LIST_TABLES = """\
Deprecated APIs
===============

.. list-table:: deprecated APIs
   :header-rows: 1
   :class: deprecated
   :widths: 40, 10, 10, 40

   * - Target
     - Deprecated
     - Removed
     - Alternatives

   * - ``sphinx.util.FilenameUniqDict``
     - 8.1
     - 10.0
     - N/A

.. confval:: epub_writing_mode
   :type: :code-py:`'horizontal' | 'vertical'`

   .. list-table::
      :header-rows: 1
      :stub-columns: 1

      * - ``epub_writing_mode``
        - ``'horizontal'``
        - ``'vertical'``
      * - page progression
        - left to right
        - right to left
"""


def test_list_tables_take_their_header_rows_and_title() -> None:
    document = parse_rst(SPHINX_LIST_TABLES)
    assert [(kind, " ".join(text.split())) for kind, text in _rows(document)] == [
        ("table_header", "| Target | Deprecated | Removed | Alternatives | | --- | --- | --- | --- |"),
        ("table_row", "| ``sphinx.util.FilenameUniqDict`` | 8.1 | 10.0 | N/A |"),
        ("table_header", "| ``epub_writing_mode`` | ``'horizontal'`` | ``'vertical'`` | | --- | --- | --- |"),
        ("table_row", "| page progression | left to right | right to left |"),
    ]
    assert [table.title for table in document.tables] == ["deprecated APIs", None]
    assert ".. list-table::" not in document.text and ":header-rows:" not in document.text


# docutils' simple table and a csv-table, as Sphinx's and docutils' own docs write them; the same
# tables inside a literal block (an example of the markup) stay code
SIMPLE_AND_CSV = """\
Tables
------

=====  =====  =======
A      B      A and B
=====  =====  =======
False  False  False
True   True   True
=====  =====  =======

.. csv-table:: Frozen Delights!
   :header: "Treat", "Quantity", "Description"
   :widths: 15, 10, 30

   "Albatross", 2.99, "On a stick!"
   "Popcorn", 1.99, "Straight from the oven"

They look like this::

   =====  =====
   A      B
   =====  =====
   False  False
   =====  =====
"""


def test_simple_and_csv_tables_are_tables_and_an_example_in_a_literal_block_stays_code() -> None:
    document = parse_rst(SIMPLE_AND_CSV)
    assert _rows(document) == [
        ("table_header", "| A | B | A and B |\n| --- | --- | --- |"),
        ("table_row", "| False | False | False |"),
        ("table_row", "| True | True | True |"),
        ("table_header", "| Treat | Quantity | Description |\n| --- | --- | --- |"),
        ("table_row", "| Albatross | 2.99 | On a stick! |"),
        ("table_row", "| Popcorn | 1.99 | Straight from the oven |"),
    ]
    assert document.tables[1].title == "Frozen Delights!"
    code = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert code == ["   =====  =====\n   A      B\n   =====  =====\n   False  False\n   =====  ====="]


# docutils' own docs (docs/ref/rst/directives.txt, "Table"): the table directive captions the simple table in its
# body; a second table directive whose body is no table (a paragraph) stays text
CAPTIONED = """\
Table
=====

.. table:: Truth table for "not"
   :widths: auto

   =====  =====
     A    not A
   =====  =====
   False  True
   True   False
   =====  =====

.. table:: Not a table
   :align: center

   A paragraph.

=====  =====
B      C
=====  =====
1      2
=====  =====
"""


def test_a_table_directive_is_the_title_of_the_table_in_its_body() -> None:
    document = parse_rst(CAPTIONED)
    assert [" ".join(text.split()) for _kind, text in _rows(document)] == [
        "| A | not A | | --- | --- |", "| False | True |", "| True | False |", "| B | C | | --- | --- |", "| 1 | 2 |"]
    assert [table.title for table in document.tables] == ['Truth table for "not"', None]
    assert ":widths:" not in document.text and "table:: Truth" not in document.text
    assert ".. table:: Not a table\n   :align: center\n\n   A paragraph." in document.text


# Asciidoctor's docs/modules/ROOT/pages/errors-and-warnings.adoc (cut): an implicit header row (a
# first line of cells, a blank line after it), a cell going on over lines; and a table in a listing block
ASCIIDOCTOR_TABLE = """\
= Errors and Warnings

[#info]
== Info messages

[cols=2*]
|===
|Message |Troubleshooting

|possible invalid reference: <x>
|The processor could not validate the internal reference named <x>.
This message doesn't definitively indicate a missing reference.
|===

== Writing a table

[source,asciidoc]
----
|===
|Cell in column 1 |Cell in column 2
|===
----
"""


def test_an_asciidoc_table_is_a_row_a_block_its_implicit_header_first() -> None:
    document = parse_asciidoc(ASCIIDOCTOR_TABLE)
    assert _rows(document) == [
        ("table_header", "| Message | Troubleshooting |\n| --- | --- |"),
        ("table_row", "| possible invalid reference: <x> | The processor could not validate the internal reference"
                      " named <x>. This message doesn't definitively indicate a missing reference. |"),
    ]
    assert document.tables[0].section == 2
    code = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert code == ["----\n|===\n|Cell in column 1 |Cell in column 2\n|===\n----"]


def test_asciidoc_columns_from_cols_a_header_option_and_a_block_title() -> None:
    source = ('.Document attributes\n[cols="1,1,2",options="header"]\n|===\n|Name |Type\n|Description\n'
              '|doctype |String |The document type.\n|===\n')
    document = parse_asciidoc(source)
    assert [table.title for table in document.tables] == ["Document attributes"]
    assert "Document attributes" not in document.text
    assert _rows(document) == [
        ("table_header", "| Name | Type | Description |\n| --- | --- | --- |"),
        ("table_row", "| doctype | String | The document type. |"),
    ]


def test_asciidoc_cells_written_without_spaces_a_column_count_and_a_row_span() -> None:
    """Asciidoctor parts cells at every unescaped ``|``, a specifier only where a space or the line's start is before
    it; ``cols=3`` (a bare number) is three columns; ``.2+|`` (two rows) is a specifier, not text."""
    compact = parse_asciidoc("= T\n\n|===\n|Name|Value\n\n|a\\|b|2 2\n|===\n")
    assert _rows(compact) == [("table_header", "| Name | Value |\n| --- | --- |"), ("table_row", "| a\\|b | 2 2 |")]
    counted = parse_asciidoc("= T\n\n[cols=3]\n|===\n|a |b\n|c\n|d |e |f\n|===\n")
    assert _rows(counted) == [("table_row", "| a | b | c |"), ("table_row", "| d | e | f |")]
    # Asciidoctor's syntax-highlighting/pages/index.adoc (cut): a cell over three rows stands in each, as in HTML
    spanned = parse_asciidoc("= T\n\n|===\n|Type |Highlighter |Gem\n\nh|Client-side\n|Highlight.js\n|_n/a_\n\n"
                             ".3+h|Build-time\n|CodeRay\n|coderay\n\n|Pygments\n|pygments.rb\n\n|Rouge\n|rouge\n"
                             "|x 2.2+|wide |y\n|z\n|===\n")
    assert [text for _, text in _rows(spanned)] == [
        "| Type | Highlighter | Gem |\n| --- | --- | --- |",
        "| Client-side | Highlight.js | _n/a_ |",
        "| Build-time | CodeRay | coderay |",
        "| Build-time | Pygments | pygments.rb |",
        "| Build-time | Rouge | rouge |",
        "| x | wide |",
        "| y | wide |",
        "| z |",
    ]
