from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline

ROOT = Path(__file__).resolve().parents[4]


def _sqlite_docs() -> Path | None:
    """The shared SQLite dev set: ``../shared`` beside the checkout, else ``/work/shared``."""
    for shared in (ROOT.parent / "shared", Path("/work/shared")):
        if (shared / "evals" / "sqlite-docs" / "corpus").is_dir():
            return shared / "evals" / "sqlite-docs"
    return None


SQLITE_DOCS = _sqlite_docs()
needs_sqlite_docs = pytest.mark.skipif(
    SQLITE_DOCS is None, reason="the shared SQLite dev set (../shared/evals/sqlite-docs) is not beside this checkout"
)




# --- handbook.html: a small well-formed page with chrome ---------------------------------

HANDBOOK_TEXT = """\
# Widget Handbook

Widgets are small, fast and reliable.

Second paragraph with a
line break & an entity.

## Installing

- Download the archive
- Unpack it:
  - on Linux
  - on macOS
- Run make

```
$ make install
  done
```

### Options

| Option | Default |
| --- | --- |
| --fast | off |
| --size | 10 pixels |

## Limits

| Limit | Value |
| --- | --- |
| Widgets | 100 |

See installing, mail us or this."""


def test_handbook_text_drops_head_chrome_and_scripts() -> None:
    document = load_html("handbook.html")
    assert document.text == HANDBOOK_TEXT
    for dropped in ("not page text", "color", "Home", "Small. Fast.", "Copyright", "Go", "1. Installing"):
        assert dropped not in document.text
    assert document.title == "Widget Handbook"
    assert document.fields == {"title": "Widget Handbook"}


def test_handbook_blocks() -> None:
    document = load_html("handbook.html")
    assert [(b.kind, b.section, b.table, b.indivisible) for b in document.blocks] == [
        ("heading", 1, None, False),
        ("paragraph", 1, None, False),
        ("paragraph", 1, None, False),
        ("heading", 2, None, False),
        ("list_item", 2, None, False),
        ("list_item", 2, None, False),
        ("list_item", 2, None, False),
        ("list_item", 2, None, False),
        ("list_item", 2, None, False),
        ("code", 2, None, True),
        ("heading", 3, None, False),
        ("table_header", 3, 0, False),
        ("table_row", 3, 0, False),
        ("table_row", 3, 0, False),
        ("heading", 4, None, False),
        ("table_header", 4, 1, False),
        ("table_row", 4, 1, False),
        ("paragraph", 4, None, False),
    ]
    assert block_texts(document, "list_item") == [
        "- Download the archive",
        "- Unpack it:",
        "  - on Linux",
        "  - on macOS",
        "- Run make",
    ]
    assert block_texts(document, "code") == ["```\n$ make install\n  done\n```"]


def test_handbook_tables_thead_and_th_only_header_rows() -> None:
    document = load_html("handbook.html")
    assert block_texts(document, "table_header") == [
        "| Option | Default |\n| --- | --- |",
        "| Limit | Value |\n| --- | --- |",
    ]
    assert block_texts(document, "table_row") == ["| --fast | off |", "| --size | 10 pixels |", "| Widgets | 100 |"]
    assert [t.section for t in document.tables] == [3, 4]


def test_handbook_sections_nest_and_carry_anchors() -> None:
    document = load_html("handbook.html")
    assert outline(document) == [
        ("Widget Handbook", 0, None),
        ("Widget Handbook", 1, 0),
        ("Installing", 2, 1),
        ("Options", 3, 2),
        ("Limits", 2, 1),
    ]
    assert [s.anchors for s in document.sections] == [[], ["intro"], ["installing", "setup"], [], []]
    for section in document.sections[1:]:
        assert document.text[section.start :].startswith("#" * section.level + " " + section.heading)
    assert document.heading_path(3) == ["Widget Handbook", "Installing", "Options"]


def test_handbook_links_and_anchors_point_at_their_text() -> None:
    document = load_html("handbook.html")
    assert [(link.href, document.text[link.start : link.start + 10]) for link in document.links] == [
        ("reliable.html", "reliable.\n"),
        ("https://example.com/widget.tar.gz", "archive\n- "),
        ("#installing", "installing"),
    ]
    assert document.anchors == {
        "intro": 0,
        "setup": document.sections[2].start,
        "installing": document.sections[2].start,
        "opt-size": document.text.index("--size"),
    }


# --- malformed.html: unclosed and stray tags ---------------------------------------------

MALFORMED_TEXT = """\
# Broken page

First unclosed paragraph

Second one

- Item with a paragraph.
  And a second paragraph.
- Item with nested
  1. one
  2. two
  and a tail

TRUNCATE

Truncates the log.

Quoted text

## PRAGMA x

Pragma body.

outer

inner a

inner b

after

second cell

Hidden: visible.

## Unclosed heading

Body after the heading.

```
int x;
int y;
```"""


def test_malformed_page_is_closed_like_a_browser_would() -> None:
    document = load_html("malformed.html")
    assert document.text == MALFORMED_TEXT
    assert [b.kind for b in document.blocks] == [
        "heading",
        *["paragraph"] * 2,
        *["list_item"] * 6,
        *["paragraph"] * 3,  # a short dl stays text
        "heading",
        "paragraph",
        *["paragraph"] * 5,  # a one-row table is a frame: its cells are text, and so are the inner one's
        "paragraph",
        "heading",
        "paragraph",
        "code",
    ]
    assert outline(document) == [
        ("Broken page", 0, None),
        ("Broken page", 1, 0),
        ("PRAGMA x", 2, 1),
        ("Unclosed heading", 2, 1),
    ]
    assert document.sections[2].anchors == ["pragma_x"]
    assert document.links == []  # the only link sits in the dropped menu


def test_table_without_header_rows_has_only_table_rows() -> None:
    document = parse_html("<table><tr><td>a<td>b<tr><th>c<td>d</table><p>after</p>")
    document.check()
    assert block_texts(document) == ["| a | b |", "| c | d |", "after"]
    assert [b.kind for b in document.blocks] == ["table_row", "table_row", "paragraph"]
    assert document.text == "| a | b |\n| c | d |\n\nafter"


def test_header_rows_count_columns_with_colspan() -> None:
    document = parse_html(
        "<table><tr><th rowspan=2>Type<th colspan=2>Appears in<tr><th>Leaf<th>Interior<tr><td>x<td>y<td>z</table>"
    )
    assert block_texts(document) == [
        "| Type | Appears in | Appears in |",  # the colspan cell stands in each column it covers
        "| Type | Leaf | Interior |\n| --- | --- | --- |",  # the rowspan cell stands in its second row too
        "| x | y | z |",
    ]
    assert [b.kind for b in document.blocks] == ["table_header", "table_header", "table_row"]


def test_th_rows_after_a_data_row_are_table_rows() -> None:
    document = parse_html("<table><tr><th>k<th>v<tr><td>1<td>2<tr><th>k2<th>v2</table>")
    assert [b.kind for b in document.blocks] == ["table_header", "table_row", "table_row"]


# --- layout tables: a frame around blocks is not a data table ------------------------------

def test_a_one_cell_box_around_a_pre_is_a_code_block() -> None:
    # the SQLite pages frame their examples this way (queryplanner.html: 22 of them)
    document = parse_html(
        "<p>Consider a table:</p>\n<center><table><tr><td><pre>\nCREATE TABLE FruitsForSale(\n  Fruit TEXT,\n"
        "  Price REAL\n);\n</pre></table></center>\n<p>With some data.</p>")
    document.check()
    assert block_texts(document) == [
        "Consider a table:", "```\nCREATE TABLE FruitsForSale(\n  Fruit TEXT,\n  Price REAL\n);\n```",
        "With some data."]
    assert [(b.kind, b.indivisible) for b in document.blocks] == [
        ("paragraph", False), ("code", True), ("paragraph", False)]
    assert document.tables == []


def test_a_table_whose_cells_hold_code_or_lists_without_a_header_is_a_frame() -> None:
    # a page layout (javadoc, old DocBook, man2html): two rows of boxes, a nested table, an anchor
    document = parse_html(
        '<table width="100%"><tr><td><a name="top"></a><h2>Usage</h2><td><ul><li>one<li>two</ul>'
        "<tr><td><pre>run --fast\nrun --slow</pre><td><table><tr><td>k<td>v<tr><td>k2<td>v2</table></table>")
    document.check()
    assert document.text == "## Usage\n\n- one\n- two\n\n```\nrun --fast\nrun --slow\n```\n\n| k | v |\n| k2 | v2 |"
    assert [b.kind for b in document.blocks] == ["heading", "list_item", "list_item", "code", "table_row", "table_row"]
    assert [s.heading for s in document.sections[1:]] == ["Usage"] and document.sections[1].anchors == ["top"]
    assert len(document.tables) == 1  # the nested data table
    presentation = parse_html('<table role="presentation"><tr><td>a<td>b<tr><td>c<td>d</table>')
    assert block_texts(presentation) == ["a", "b", "c", "d"]


def test_a_data_table_keeps_its_rows_whatever_its_cells_hold() -> None:
    # a header row makes it data: SQLite's stricttables.html compares code side by side under one
    document = parse_html(
        "<table border=1><tr><th>STRICT<th>ordinary<tr><td><pre>CREATE TABLE t1(a ANY) STRICT;\nSELECT 1;</pre>"
        "<td><pre>CREATE TABLE t1(a ANY);</pre></table>"
        "<table><tr><td><p>a</p><td><p>b</p><tr><td><p>c</p><td><div>d</div></table>")
    document.check()
    assert block_texts(document) == [
        "| STRICT | ordinary |\n| --- | --- |",
        "| CREATE TABLE t1(a ANY) STRICT; SELECT 1; | CREATE TABLE t1(a ANY); |",
        "| a | b |", "| c | d |"]  # a paragraph in a cell (every Sphinx cell has one) is no frame
    assert len(document.tables) == 2


def test_a_table_left_open_at_the_end_of_the_page_is_read() -> None:
    document = parse_html("<p>x</p><table><tr><td>a<td>b<tr><td>c<td><pre>d\ne")
    document.check()
    assert block_texts(document) == ["x", "a", "b", "c", "```\nd\ne\n```"]
    assert parse_html("<table/><p>after</p>").text == "after"


def test_hidden_h_headings_nest_one_level_below_the_enclosing_heading() -> None:
    document = parse_html(
        "<h2>List</h2><a name=p_a></a><h _id=p_a style='display:none'> PRAGMA a</h><p>A."
        "<a name=p_b></a><h _id=p_b style='display:none'> PRAGMA b</h><p>B.<h2>Next</h2>"
    )
    document.check()
    assert outline(document) == [("", 0, None), ("List", 2, 0), ("PRAGMA a", 3, 1), ("PRAGMA b", 3, 1), ("Next", 2, 0)]
    assert [s.anchors for s in document.sections[2:4]] == [["p_a"], ["p_b"]]
    assert "### PRAGMA a\n\nA." in document.text


def test_title_falls_back_to_the_first_h1() -> None:
    document = parse_html("<body><h2>Sub</h2><h1>Main  <i>title</i></h1><h1>Other</h1>")
    assert document.title == "Main title"
    assert document.fields == {"title": "Main title"}
    assert document.sections[0].heading == "Main title"
    assert parse_html("<p>no headings</p>").fields == {}


def test_sphinxs_no_title_placeholder_is_no_title() -> None:
    """Sphinx titles a page without a heading "<no title> — <site>" (the Cython docs' examples/README, task U15):
    that is no title, and a real one of that shape is kept."""
    untitled = "<title>&lt;no title&gt; &#8212; Cython 0.29.32 documentation</title><p>This example directory ..."
    assert parse_html(untitled).title is None
    assert parse_html("<title>&lt;no title&gt;</title><h1>Examples</h1>").title == "Examples"
    assert parse_html("<title>No title &#8212; Site</title>").title == "No title — Site"


def test_pre_keeps_whitespace_and_br_and_places_links() -> None:
    document = parse_html('<pre>\n\n  a  <a href="x.html">b</a>\n\tc<br>d   \n\n</pre>')
    assert document.text == "```\n  a  b\n\tc\nd\n```"  # fenced as Markdown writes code (``fences``)
    assert document.blocks[0].indivisible
    assert [(link.href, link.start) for link in document.links] == [("x.html", 9)]


def test_a_line_break_ends_a_line_of_text_and_is_a_space_in_headings_and_cells() -> None:
    """``<br>`` (and ``</br>``, which browsers read as ``<br>``) never glues the words around it: a
    newline in a paragraph (SQLite's operator precedence list) or a list item (its next line under
    the marker), a space in a heading or a table cell, where a row must stay one line."""
    document = parse_html(
        "<h2>Operators<br>by precedence</h2>"
        "<p>~ [expr]&nbsp;&nbsp;+ [expr]<br>COLLATE<br/>||&nbsp;&nbsp;-&gt;</br>*&nbsp;&nbsp;/</p>"
        '<ul><li>Write to:<br><a href="team.html">the team</a>, 10 Main St<br><br>Springfield</li><li>Or call</li></ul>'
        "<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>-a<br>--text</td><td>Treat all files as text.</td></tr>"
        "<tr><td>-b</td><td>Ignore changes in<br>white space.</td></tr></table>")
    document.check()
    assert document.text == (
        "## Operators by precedence\n\n"
        "~ [expr] + [expr]\nCOLLATE\n|| ->\n* /\n\n"
        "- Write to:\n  the team, 10 Main St\n  Springfield\n- Or call\n\n"
        "| Option | Meaning |\n| --- | --- |\n| -a --text | Treat all files as text. |\n"
        "| -b | Ignore changes in white space. |")
    assert document.sections[1].heading == "Operators by precedence"
    link = document.links[0]
    assert (link.href, document.text[link.start:link.start + 8]) == ("team.html", "the team")


def test_a_block_inside_pre_starts_a_line_and_never_joins_words() -> None:
    assert parse_html("<pre>x<dt>y</pre>").text == "```\nx\ny\n```"
    assert parse_html("<pre>a\n<div>b</div>c</pre>").text == "```\na\nb\nc\n```"  # no blank line before a line's start
    assert parse_html("<pre>a<span>b</span></pre>").text == "```\nab\n```"  # inline: no break


def test_skipped_links_and_dropped_classes_and_buttons() -> None:
    document = parse_html(
        '<p><a href="javascript:go()">js</a> <a href="MAILTO:x@y">mail</a> <a href="">empty</a>'
        ' <a href="#top" id="here">top</a><button id=b1>hide</button>'
        '<span class="x menu">menu text</span><ul class="nosearch"><li>toc</ul>'
    )
    assert document.text == "js mail empty top"
    assert [(link.href, link.start) for link in document.links] == [("#top", 14)]
    assert document.anchors == {"here": 14}


def test_markers_without_text_point_at_the_next_block() -> None:
    document = parse_html("<p>one <a name=end></a></p><div id=d><table id=t><tr><td><a href=z></a><td>cell</table>")
    assert document.text == "one\n\ncell"  # a one-row table is text
    cell = document.blocks[1].start
    assert document.anchors == {"end": cell, "d": cell, "t": cell}
    assert [(link.href, link.start) for link in document.links] == [("z", cell)]


def test_unclosed_svg_ends_at_an_html_block() -> None:
    document = parse_html("<p>before<svg><text>label</text><g><p>after")
    assert document.text == "before\n\nafter"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *(f"<{tag}>" for tag in "p li ul ol td th tr table thead h1 h2 h pre div a b br svg nav dl dd".split()),
                *(f"</{tag}>" for tag in "p li ul ol td th tr table thead h1 h2 h pre div a b svg nav dl".split()),
                '<a href="x" id="i">',
                '<div class="nosearch">',
                *('<main>', '</main>', '<div class="body">', '<article>', '</article>', '<header>', '</header>'),
                *('<dl class="py class">', '<dl class="py method">', '<dt id="m">', '</dt>', '<span class="sig-name">',
                  '<span class="sig-prename">', '</span>', '<a class="headerlink" href="#m">', "¶", '<a href="#m">'),
                *('<div class="admonition note">', '<p class="admonition-title">', '<aside>', '</aside>', "<h3>"),
                *('<table/>', '<table role="presentation">', '<img src="i.png">', '<caption>', "<blockquote>"),
                "<![x>",
                "<!--",
                "<",
                "&amp;",
                "<td colspan=3>",
                "text",
                " ",
                "\n",
            ]
        ),
        max_size=40,
    )
)
def test_any_tag_soup_parses_and_keeps_the_invariants(parts: list[str]) -> None:
    document = parse_html("".join(parts))
    document.check()
    assert all(document.text[b.start : b.end].strip() for b in document.blocks)
    assert all(0 <= link.start <= len(document.text) for link in document.links)
    assert all(0 <= offset <= len(document.text) for offset in document.anchors.values())
    seen: list[int] = []
    for block in document.blocks:
        if block.table is not None and (not seen or seen[-1] != block.table):
            assert block.table not in seen, "rows of one table must be consecutive"
            seen.append(block.table)


# --- the SQLite documentation dev set ----------------------------------------------------

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'})


def normalize(text: str) -> str:
    """The dev set's matching rule (README, ``verify.normalize``): casefold, straight quotes, one space."""
    return re.sub(r"\s+", " ", text.casefold().translate(_QUOTES)).strip()


@pytest.fixture(scope="module")
def sqlite_pages() -> dict[str, ParsedDocument]:
    assert SQLITE_DOCS is not None
    return {
        path.name: parse_html(path.read_text(encoding="utf-8"))
        for path in sorted((SQLITE_DOCS / "corpus").glob("*.html"))
    }


@needs_sqlite_docs
def test_every_corpus_page_keeps_the_invariants(sqlite_pages: dict[str, ParsedDocument]) -> None:
    assert len(sqlite_pages) == 64
    for name, document in sqlite_pages.items():
        document.check()
        assert document.title, name
        assert document.sections[0].heading == document.title
    # the short lang_*.html pages have no heading but their (dropped) banner title
    headingless = sorted(name for name, document in sqlite_pages.items() if len(document.sections) == 1)
    assert headingless == [
        "lang_conflict.html",
        "lang_createvtab.html",
        "lang_droptable.html",
        "lang_keywords.html",
        "lang_naming.html",
        "lang_reindex.html",
    ]


@needs_sqlite_docs
def test_every_evidence_phrase_is_in_the_text_of_a_source(sqlite_pages: dict[str, ParsedDocument]) -> None:
    assert SQLITE_DOCS is not None
    texts = {name: normalize(document.text) for name, document in sqlite_pages.items()}
    missing: list[str] = []
    phrases = 0
    for line in (SQLITE_DOCS / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        question = json.loads(line)
        for phrase in question["evidence"]:
            phrases += 1
            if not any(normalize(phrase) in texts[source] for source in question["sources"]):
                missing.append(f"{question['id']}: {phrase!r}")
    assert phrases == 98
    assert missing == []


@needs_sqlite_docs
def test_sqlite_chrome_toc_and_diagrams_are_dropped(sqlite_pages: dict[str, ParsedDocument]) -> None:
    datatypes = sqlite_pages["datatype3.html"]
    assert "Table Of Contents" not in datatypes.text
    assert "Choose any three" not in datatypes.text
    assert datatypes.text.startswith("# 1. Datatypes In SQLite\n\n")
    assert datatypes.sections[2].anchors == ["storage_classes_and_datatypes", "storageclasses"]
    select = sqlite_pages["lang_select.html"]
    assert "\nhide\n" not in select.text and "\nshow\n" not in select.text
    assert len(select.text) < 200_000  # the 1.5 MB page is mostly inline SVG


@needs_sqlite_docs
def test_sqlite_table_rows_keep_their_header_and_section(sqlite_pages: dict[str, ParsedDocument]) -> None:
    document = sqlite_pages["fileformat2.html"]
    header = next(b for b in document.blocks if b.kind == "table_header")
    assert document.text[header.start : header.end] == "| Offset | Size | Description |\n| --- | --- | --- |"
    row = next(b for b in document.blocks if document.text[b.start : b.end].startswith("| 44 | 4 |"))
    assert row.kind == "table_row" and row.table == header.table
    assert document.text[row.start : row.end] == (
        "| 44 | 4 | The schema format number. Supported schema formats are 1, 2, 3, and 4. |"
    )
    assert document.heading_path(row.section) == ["1. The Database File", "1.3. The Database Header"]


@needs_sqlite_docs
def test_sqlite_pragmas_are_sections(sqlite_pages: dict[str, ParsedDocument]) -> None:
    document = sqlite_pages["pragma.html"]
    index = next(i for i, s in enumerate(document.sections) if s.heading == "PRAGMA wal_checkpoint")
    section = document.sections[index]
    assert section.level == 3 and section.anchors == ["pragma_wal_checkpoint"]
    assert document.heading_path(index) == ["PRAGMA Statements", "List Of PRAGMAs", "PRAGMA wal_checkpoint"]
    assert document.anchors["pragma_wal_checkpoint"] == section.start
    truncate = document.text.index("TRUNCATE\n\nThis mode works the same way as RESTART")
    block = next(b for b in document.blocks if b.start == truncate)
    assert block.section == index  # a short dl (the four modes) is text of its pragma's section



def test_a_cell_spanning_rows_is_repeated_in_each_row_it_covers() -> None:
    """A ``rowspan`` cell (SQLite's two-row headers, DocBook's ``morerows``) stands in every row it
    covers, at its column: each row is whole when read alone, its cells under their headers. Its
    anchors and links stay where it was written."""
    document = parse_html(
        '<table border="1"><tr><th rowspan="2">Name</th><th colspan="2">Offset</th></tr>'
        "<tr><th>xShmLock</th><th>File</th></tr>"
        '<tr><td rowspan="2"><a id="lock" href="locks.html">WAL_WRITE_LOCK</a></td><td>0</td><td>120</td></tr>'
        '<tr><td>1</td><td>121</td></tr><tr><td>WAL_READ_LOCK(N)</td><td>3</td><td rowspan="9">123</td></tr>'
        "<tr><td>WAL_READ_LOCK(1)</td><td>4</td></tr></table>")
    document.check()
    assert document.text == (
        "| Name | Offset | Offset |\n| Name | xShmLock | File |\n| --- | --- | --- |\n| WAL_WRITE_LOCK | 0 | 120 |\n"
        "| WAL_WRITE_LOCK | 1 | 121 |\n| WAL_READ_LOCK(N) | 3 | 123 |\n| WAL_READ_LOCK(1) | 4 | 123 |")
    assert [(link.href, link.start) for link in document.links] == [("locks.html", document.anchors["lock"])]
    assert document.text.index("WAL_WRITE_LOCK") == document.anchors["lock"]


def test_the_reader_skips_html_parsers_line_count_and_parses_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_Builder.updatepos`` does not count lines for ``getpos``: every fixture page, and markup whose tags,
    comments, declarations and character references span lines, parse as with ``html.parser``'s count."""
    import _markupbase

    from clew.corpus.ingest.formats import html as module

    fixtures = Path(__file__).resolve().parents[3] / "fixtures" / "html"
    pages = [p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.html"))]
    pages.append('<!DOCTYPE html\n>\n<title>T</title><h1\nid="a">One</h1><!-- a\ncomment --><p class=\n"x">'
                 'text &amp;\nmore<![CDATA[x\ny]]></p><?pi\n?><pre>a\n\nb</pre><table><tr><td>1\n</td></tr></table>')
    skipped = [parse_html(page) for page in pages]
    monkeypatch.setattr(module._Builder, "updatepos", _markupbase.ParserBase.updatepos)
    assert [parse_html(page) for page in pages] == skipped
    assert len(pages) > 10 and all(document.text for document in skipped)
