"""HTML tables as generators title them: a table's title travels with its rows."""

from __future__ import annotations

import re

import pytest

from clew.corpus.ingest.chunking import chunk_document
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.tokenize import tokenize
from tests.corpus.ingest.formats.documents import block_texts

DOCBOOK_TABLE = """<div class="sect1" id="FUNCTIONS-STRING"><h2 class="title">9.4. String Functions and Operators</h2>
<p>SQL defines some string functions that use key words. Details are in
<a class="xref" href="functions-string.html#FUNCTIONS-STRING-SQL" title="Table 9.9">Table 9.9</a>.</p>
<div class="table" id="FUNCTIONS-STRING-SQL"><p class="title"><strong>Table 9.9. <acronym class="acronym">SQL
</acronym> String Functions and Operators</strong></p><div class="table-contents"><table class="table"
summary="SQL String Functions and Operators" border="1"><colgroup><col /></colgroup><thead><tr>
<th class="func_table_entry"><p class="func_signature">Function/Operator</p><p>Description</p><p>Example(s)</p>
</th></tr></thead><tbody>
<tr><td class="func_table_entry"><p class="func_signature"><code class="type">text</code>
<code class="literal">||</code> <code class="type">text</code></p><p>Concatenates the two strings.</p></td></tr>
<tr><td class="func_table_entry"><p class="func_signature"><code class="function">bit_length</code> (
<code class="type">text</code> )</p><p>Returns number of bits in the string.</p></td></tr>
<tr><td class="func_table_entry"><p class="func_signature"><code class="function">lower</code> (
<code class="type">text</code> )</p><p>Converts the string to all lower case.</p></td></tr>
</tbody></table></div></div><br class="table-break" /><p>Additional string functions are available.</p></div>"""


def test_a_docbook_table_title_is_the_first_header_row_of_its_table() -> None:
    """DocBook's ``div.table > p.title`` is not a paragraph before the table (which ended the text
    chunk before it) but the table's first header row: every chunk of the table repeats it."""
    document = parse_html(DOCBOOK_TABLE)
    document.check()
    rows = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table == 0]
    assert rows[0] == ("table_header", "Table 9.9. SQL String Functions and Operators")
    assert rows[1] == ("table_header", "| Function/Operator. Description. Example(s) |\n| --- |")
    assert [kind for kind, _ in rows[2:]] == ["table_row"] * 3
    title = next(b for b in document.blocks if b.table == 0)
    assert document.anchors["FUNCTIONS-STRING-SQL"] == title.start
    assert document.text.count("Table 9.9. SQL") == 1
    chunks = [c for c in chunk_document(document, chunk_tokens=30) if c.kind == "table"]
    assert len(chunks) >= 2
    assert all(c.display_text(document.text).startswith("Table 9.9. SQL String Functions and Operators\n| Function")
               for c in chunks)
    after = document.blocks[-1]
    assert after.kind == "paragraph"
    assert document.text[after.start:after.end] == "Additional string functions are available."


def test_a_caption_is_its_tables_first_header_row() -> None:
    """A ``caption`` (Sphinx, with its permalink; AsciiDoc; pandoc) heads its table, whether or not the
    table has header cells."""
    page = ('<div class="body" role="main"><h1>Tables</h1><table class="docutils align-default" id="id1">'
            '<caption><span class="caption-text">Characteristics of all tables</span><a class="headerlink" '
            'href="#id1" title="Permalink to this table">¶</a></caption><tbody><tr><td><p>Hash</p></td>'
            '<td><p>Fast</p></td></tr><tr><td><p>Patricia</p></td><td><p>Prefix search</p></td></tr></tbody></table>'
            '<table class="tableblock"><caption class="title">Table 1. Modes</caption><thead><tr><th>Mode</th>'
            '<th>Meaning</th></tr></thead><tbody><tr><td>r</td><td>read</td></tr><tr><td>w</td><td>write</td>'
            '</tr></tbody></table></div>')
    document = parse_html(page)
    document.check()
    first = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table == 0]
    assert first == [("table_header", "Characteristics of all tables"), ("table_row", "| Hash | Fast |"),
                     ("table_row", "| Patricia | Prefix search |")]
    second = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table == 1]
    assert second[:2] == [("table_header", "Table 1. Modes"), ("table_header", "| Mode | Meaning |\n| --- | --- |")]
    assert "¶" not in document.text


def test_a_title_without_a_data_table_stays_a_paragraph_in_its_place() -> None:
    """A titled box around a one-row table (a layout frame) or around no table at all keeps its title
    as a paragraph, before what follows it."""
    page = ('<h1>T</h1><div class="table"><p class="title"><b>Table 7.7. Remote access</b></p>'
            '<div class="table-contents"><table><tr><td>ssh</td><td>Secure shell</td></tr></table></div></div>'
            '<div class="table"><p class="title">Table 7.8. Nothing</p><p>Only text.</p></div><p>End.</p>')
    document = parse_html(page)
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("heading", "# T"), ("paragraph", "Table 7.7. Remote access"), ("paragraph", "ssh"),
        ("paragraph", "Secure shell"), ("paragraph", "Table 7.8. Nothing"), ("paragraph", "Only text."),
        ("paragraph", "End.")]
    assert document.tables == []


BOOTSTRAP_OPTIONS = """Options can be passed via data attributes or JavaScript.

<table class="table table-bordered table-striped">
  <thead>
    <tr>
      <th style="width: 100px;">Name</th>
      <th style="width: 100px;">Type</th>
      <th style="width: 50px;">Default</th>
      <th>Description</th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <td>container</td>
      <td>string | element | false</td>
      <td>false</td>
      <td>
        <p>Appends the tooltip to a specific element. Example: <code>container: 'body'</code>.</p>
      </td>
    </tr>
    <tr>
      <td>placement</td>
      <td><a id="placement-type" href="#types">string | function</a></td>
      <td>'top'</td>
      <td>
        <p>How to position the tooltip - auto | top | bottom | left | right.</p>
      </td>
    </tr>
  </tbody>
</table>
"""


def test_a_bar_in_a_cell_is_escaped_so_the_row_keeps_its_columns() -> None:
    """A literal ``|`` in an HTML cell (Bootstrap's option types) is written ``\\|`` in the pipe-table
    row, as Markdown writes it: the row has its header's four cells, and the anchors and links in a cell
    after the bar still land on their text."""
    document = parse_markdown(BOOTSTRAP_OPTIONS)
    document.check()
    rows = [document.text[b.start:b.end] for b in document.blocks if b.kind == "table_row"]
    assert rows == [
        r"| container | string \| element \| false | false | Appends the tooltip to a specific element. Example: "
        "container: 'body'. |",
        r"| placement | string \| function | 'top' | How to position the tooltip - auto \| top \| bottom \| left "
        r"\| right. |"]
    assert all(len(re.split(r"(?<!\\)\|", row)) - 2 == 4 for row in rows)
    assert document.text.startswith("string", document.anchors["placement-type"])
    assert [document.text[link.start:link.start + 6] for link in document.links] == ["string"]
    assert {"string", "element", "function", "auto", "right"} <= set(tokenize(rows[0] + rows[1]))


BOOTSTRAP_GRID = """<table class="table table-bordered table-striped">
  <thead>
    <tr>
      <th></th>
      <th class="text-center">
        Extra small<br>
        <small>&lt;576px</small>
      </th>
      <th class="text-center">
        Small<br>
        <small>&ge;576px</small>
      </th>
      <th class="text-center">
        Medium<br>
        <small>&ge;768px</small>
      </th>
    </tr>
  </thead>
  <tbody>
    <tr>
      <th class="text-nowrap" scope="row">Class prefix</th>
      <td><code>.col-</code></td>
      <td><code>.col-sm-</code></td>
      <td><code>.col-md-</code></td>
    </tr>
    <tr>
      <th class="text-nowrap" scope="row">Gutter width</th>
      <td colspan="3"><a id="gutter">30px (15px on each side of a column)</a></td>
    </tr>
    <tr>
      <td colspan="100">Bootstrap's grid options, as of v4.6</td>
    </tr>
  </tbody>
</table>
"""


def test_a_cell_spanning_columns_is_repeated_in_each_column_it_covers() -> None:
    """A ``colspan`` cell stands under each header it spans (the grid's gutter width holds for every
    breakpoint; DocBook's ``Existing Lock Mode`` heads eight columns), so each row has the table's
    columns; its anchor stays where it was written. A row's lone cell spanning the whole table is a
    label: written once, the columns after it empty; ``colspan="100"`` covers what is left of the row."""
    document = parse_markdown(BOOTSTRAP_GRID)
    document.check()
    assert document.text.rstrip("\n") == (
        "|  | Extra small <576px | Small ≥576px | Medium ≥768px |\n| --- | --- | --- | --- |\n"
        "| Class prefix | .col- | .col-sm- | .col-md- |\n"
        "| Gutter width | 30px (15px on each side of a column) | 30px (15px on each side of a column) "
        "| 30px (15px on each side of a column) |\n"
        "| Bootstrap's grid options, as of v4.6 |  |  |  |")
    assert document.anchors["gutter"] == document.text.index("30px")
    docbook = parse_html(
        '<table class="table" border="1"><thead><tr><th rowspan="2">Requested Lock Mode</th>'
        '<th colspan="3" align="center">Existing Lock Mode</th></tr><tr><th>ACCESS SHARE</th>'
        "<th>ROW SHARE</th><th>ROW EXCL.</th></tr></thead><tbody><tr><td>ACCESS SHARE</td><td></td><td></td>"
        "<td></td></tr><tr><td>ROW SHARE</td><td></td><td></td><td>X</td></tr></tbody></table>")
    docbook.check()
    assert block_texts(docbook)[:2] == [
        "| Requested Lock Mode | Existing Lock Mode | Existing Lock Mode | Existing Lock Mode |",
        "| Requested Lock Mode | ACCESS SHARE | ROW SHARE | ROW EXCL. |\n| --- | --- | --- | --- |"]


def test_blocks_in_one_cell_read_as_sentences() -> None:
    """Several ``<p>`` in one cell (Bootstrap's option descriptions, DocBook's function tables) are not
    glued with a space into one run-on sentence: a block's text that ends without punctuation gets a
    ``.`` before the next block's text; one that ends with punctuation, a cell of one block and a block
    holding no text are left as they were."""
    document = parse_markdown("""<table>
  <thead><tr><th>Name</th><th>Description</th></tr></thead>
  <tbody>
    <tr>
      <td>delay</td>
      <td>
        <p>Delay showing and hiding the tooltip (ms) - does not apply to manual trigger type</p>
        <p>If a number is supplied, delay is applied to both hide/show</p>
        <p>Object structure is: <code>delay: { "show": 500, "hide": 100 }</code></p>
      </td>
    </tr>
    <tr>
      <td><p>html</p></td>
      <td>
        <p>Allow HTML in the tooltip.</p>
        <p></p>
        <p>Use text if you're worried about <a id="xss" href="#xss">XSS attacks</a>.</p>
      </td>
    </tr>
  </tbody>
</table>
""")
    document.check()
    assert [document.text[b.start:b.end] for b in document.blocks if b.kind == "table_row"] == [
        '| delay | Delay showing and hiding the tooltip (ms) - does not apply to manual trigger type. If a number is '
        'supplied, delay is applied to both hide/show. Object structure is: delay: { "show": 500, "hide": 100 } |',
        "| html | Allow HTML in the tooltip. Use text if you're worried about XSS attacks. |"]
    assert document.text.startswith("XSS attacks", document.anchors["xss"])


def test_docbook_html5_table_title_heads_its_table() -> None:
    """DocBook XSL's HTML5 output (xhtml5/docbook.xsl) writes a formal table's title as ``div.table-title``."""
    page = ('<section class="sect1" id="install-requirements"><h2 class="title">1.1. Requirements</h2>'
            '<div class="table" id="req-table"><div class="table-title">Table 1.1. Required packages</div>'
            '<div class="table-contents"><table><colgroup><col/><col/></colgroup><thead><tr><th>Package</th>'
            '<th>Version</th></tr></thead><tbody><tr><td>libwidget</td><td>2.1</td></tr><tr><td>libgear</td>'
            '<td>1.4</td></tr></tbody></table></div></div><br class="table-break"/></section>')
    document = parse_html(page)
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table == 0][:2] == [
        ("table_header", "Table 1.1. Required packages"), ("table_header", "| Package | Version |\n| --- | --- |")]


def test_a_waiting_table_title_is_not_lost_to_the_next_one() -> None:
    """A table box inside a table box: the outer title, which no table took, stays a paragraph before
    the inner table, whose own title heads it."""
    page = ('<div class="table"><p class="title">Table 1. Outer</p><div class="table"><p class="title">Table 2. Inner'
            '</p><table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table></div></div>')
    document = parse_html(page)
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("paragraph", "Table 1. Outer"), ("table_header", "Table 2. Inner"),
        ("table_header", "| Key | Value |\n| --- | --- |"), ("table_row", "| a | 1 |")]


ONE_ROW_LAYOUTS = {
    # groff -Thtml: an option indented by empty cells of set widths
    "groff": ('<table width="100%" border="0" rules="none" frame="void"><tr valign="top" align="left">'
              '<td width="11%"></td><td width="9%"><p><b>--help</b></p></td><td width="2%"></td>'
              '<td width="49%"><p>Output a usage message and exit.</p></td><td width="29%"></td></tr></table>'),
    # mandoc: an mdoc synopsis (the command beside its arguments)
    "synopsis": ('<table class="Nm"><tr><td><code class="Nm">ssh</code></td><td>[<code>-46</code>] host</td></tr>'
                 '</table>'),
    # a box around one paragraph, beside an empty cell of a class
    "box": '<table><tr><td class="note">One cell of text.</td><td class="gallery_image"></td></tr></table>',
}


@pytest.mark.parametrize("name", sorted(ONE_ROW_LAYOUTS))
def test_a_one_row_layout_table_is_read_as_its_text(name: str) -> None:
    """A table of one row with text is layout (its cells read as paragraphs) where the row sets only
    widths and alignments, or where one cell holds text: no table."""
    document = parse_html(ONE_ROW_LAYOUTS[name])
    document.check()
    assert document.tables == []
    assert {b.kind for b in document.blocks} == {"paragraph"}


def test_a_one_row_table_of_named_cells_is_data() -> None:
    """A single row of two text cells or more, its cells named by a class, is data as a longer table of the
    same cells is (gtk-doc's parameters, qdoc's summaries); a header row over one data row already was."""
    one = ('<table class="informaltable"><tr><td class="parameter_name"><p>action</p></td>'
           '<td class="parameter_description"><p>the object</p></td><td class="parameter_annotations"> </td></tr>'
           '</table>')
    document = parse_html(one)
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("table_row", "| action | the object |")]  # the empty annotations column left out (task R24)
    headed = parse_html("<table><tr><th>Name</th><th>Type</th></tr><tr><td>interval</td><td>int</td></tr></table>")
    assert [(b.kind, headed.text[b.start:b.end]) for b in headed.blocks] == [
        ("table_header", "| Name | Type |\n| --- | --- |"), ("table_row", "| interval | int |")]


DOCBOOK_FRAMES = """<div class="sect1"><h2 class="title">8.6. Boolean Type</h2>
<p>Valid literal values for the <span class="quote">&#8220;true&#8221;</span> state are:</p>
<table border="0" summary="Simple list" class="simplelist"><tr><td><code class="literal">true</code></td></tr><tr><td>
<code class="literal">yes</code></td></tr><tr><td><code class="literal">on</code></td></tr></table>
<div class="blockquote"><table border="0" class="blockquote" style="width: 100%; cellspacing: 0; cellpadding: 0;"
summary="Block quote"><tr><td width="10%" valign="top"> </td><td width="80%" valign="top"><p>
    The Identification Protocol is not intended as an authorization or access control protocol.
   </p></td><td width="10%" valign="top"> </td></tr><tr><td width="10%" valign="top"> </td><td colspan="2"
align="right" valign="top">--<span class="attribution">RFC 1413</span></td></tr></table></div>
<p>After.</p></div>"""
"""DocBook XSL's frames as PostgreSQL 15's datatype-boolean.html and auth-ident.html have them."""


def test_a_docbook_simple_list_and_block_quote_are_text_not_tables() -> None:
    """A ``simplelist`` is a list of words, one a row: no table of one column without a header (15 pages of
    PostgreSQL 15's manual); a ``blockquote``'s frame puts the quote between two empty cells and its attribution
    in a cell spanning two columns, which read as a table row ``| | --RFC 1413 | --RFC 1413 |``."""
    document = parse_html(DOCBOOK_FRAMES)
    document.check()
    assert document.tables == []
    assert {b.kind for b in document.blocks[1:]} == {"paragraph"}
    assert block_texts(document)[1:] == [
        "Valid literal values for the “true” state are:", "true", "yes", "on",
        "The Identification Protocol is not intended as an authorization or access control protocol.",
        "--RFC 1413", "After.",
    ]
