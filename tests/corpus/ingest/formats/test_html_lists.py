"""Lists in HTML: an ``ol``'s items keep the numbers a browser shows ("1. ", from its ``start``, an
``li``'s ``value``, counting down when ``reversed``), as the same list written in Markdown keeps
them; a ``ul``'s items read "- ". The fixtures have the shapes docbook-xsl and Sphinx write."""

from __future__ import annotations

from clew.corpus.ingest.chunking import chunk_document
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.parsed import ParsedDocument


def read(html: str) -> ParsedDocument:
    document = parse_html(html)
    document.check()
    return document


def items(document: ParsedDocument) -> list[str]:
    return [document.text[b.start:b.end] for b in document.blocks if b.kind == "list_item"]


DOCBOOK_PROCEDURE = """\
<html><head><title>19.2. Creating a Database Cluster</title></head><body>
<div class="sect1"><div class="titlepage"><h2 class="title">19.2. Creating a Database Cluster</h2></div>
<div class="procedure"><a id="PROCEDURE-INITDB"></a><p class="title"><b>Procedure 19.1. Setting up</b></p>
<ol class="procedure" type="1"><li class="step"><p>Create the data directory.</p></li>
<li class="step"><p>Run <code class="command">initdb</code>:</p>
<ol type="a" class="substeps"><li class="step"><p>Choose the locale.</p></li>
<li class="step"><p>Choose the encoding.</p></li></ol></li>
<li class="step"><p>Start the server.</p></li></ol></div>
<ul class="itemizedlist"><li class="listitem"><p>A bullet.</p></li></ul></div></body></html>"""


def test_a_docbook_procedure_keeps_its_step_numbers_and_its_substeps_number_within_their_own_list() -> None:
    document = read(DOCBOOK_PROCEDURE)
    assert items(document) == [
        "1. Create the data directory.",
        "2. Run initdb:",
        "  1. Choose the locale.",
        "  2. Choose the encoding.",
        "3. Start the server.",
        "- A bullet.",
    ]
    assert {b.kind for b in document.blocks} == {"heading", "paragraph", "list_item"}


def test_a_sphinx_enumerated_list_is_numbered_from_its_start() -> None:
    document = read('<div class="body" role="main"><section><h1>Steps</h1>\n'
                    '<ol class="arabic simple">\n<li><p>First step.</p></li>\n<li><p>Second step.</p></li>\n</ol>\n'
                    '<p>Later:</p>\n<ol class="arabic simple" start="3">\n<li><p>Third step.</p></li>\n'
                    '<li><p>Fourth step.</p></li>\n</ol>\n'
                    '<ol class="loweralpha simple">\n<li><p>An option.</p></li>\n</ol></section></div>')
    assert items(document) == ["1. First step.", "2. Second step.", "3. Third step.", "4. Fourth step.",
                               "1. An option."]  # type a / loweralpha stays numeric


def test_an_item_value_resets_the_count_and_reversed_counts_down() -> None:
    document = read('<ol start=" 5 "><li>five<li value="9">nine<li>ten<li value="x">eleven</ol>'
                    '<p>then</p><ol reversed><li>three<li>two<ol reversed start="2"><li>b<li>a</ol><li>one</ol>'
                    '<p>and</p><ol start="-1"><li>minus one<li>zero</ol>')
    assert items(document) == ["5. five", "9. nine", "10. ten", "11. eleven",
                               "3. three", "2. two", "  2. b", "  1. a", "1. one",
                               "-1. minus one", "0. zero"]


def test_a_reversed_list_counts_its_items_also_inside_a_table_and_when_left_open() -> None:
    document = read('<table><tr><td><ol reversed><li>b<li>a</ol></td><td><p>text</p></td></tr></table>'
                    '<ol reversed><li>y<li>x')
    assert items(document) == ["2. b", "1. a", "2. y", "1. x"]


def test_an_ordered_items_later_lines_stand_under_its_text() -> None:
    document = read("<ol><li>Open the file.<br>Then save it.<p>A second paragraph.</p></li>"
                    "<li>Close it.</li></ol>")
    assert items(document) == ["1. Open the file.\n   Then save it.", "   A second paragraph.", "2. Close it."]


def test_markdown_ordered_lists_inside_raw_html_keep_their_numbers() -> None:
    document = parse_markdown("# Install\n\n<div>\n\n3. Download it.\n4. Run it.\n\n</div>\n\n"
                              "<details>\n<summary>Steps</summary>\n\n1. Open it.\n2. Close it.\n\n</details>\n")
    assert items(document) == ["3. Download it.", "4. Run it."]
    assert document.text.endswith("Steps\n\n1. Open it.\n2. Close it.\n")  # a collapsible: one block


def test_numbered_items_are_still_list_item_blocks_chunked_with_their_list() -> None:
    document = read(DOCBOOK_PROCEDURE)
    chunks = chunk_document(document)
    text = "\n\n".join(document.text[c.start:c.end] for c in chunks)
    assert "1. Create the data directory.\n2. Run initdb:\n  1. Choose the locale." in text
