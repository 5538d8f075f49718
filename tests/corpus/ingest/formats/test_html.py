from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.parsed import ParsedDocument
from tests.corpus.ingest.formats.documents import block_texts, outline

ROOT = Path(__file__).resolve().parents[4]
FIXTURES = ROOT / "tests" / "fixtures" / "html"


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


def load(name: str) -> ParsedDocument:
    document = parse_html((FIXTURES / name).read_text(encoding="utf-8"))
    document.check()
    return document


# --- handbook.html: a small well-formed page with chrome ---------------------------------

HANDBOOK_TEXT = """\
# Widget Handbook

Widgets are small, fast and reliable.

Second paragraph with a line break & an entity.

## Installing

- Download the archive
- Unpack it:
  - on Linux
  - on macOS
- Run make

$ make install
  done

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
    document = load("handbook.html")
    assert document.text == HANDBOOK_TEXT
    for dropped in ("not page text", "color", "Home", "Small. Fast.", "Copyright", "Go", "1. Installing"):
        assert dropped not in document.text
    assert document.title == "Widget Handbook"
    assert document.fields == {"title": "Widget Handbook"}


def test_handbook_blocks() -> None:
    document = load("handbook.html")
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
    assert block_texts(document, "code") == ["$ make install\n  done"]


def test_handbook_tables_thead_and_th_only_header_rows() -> None:
    document = load("handbook.html")
    assert block_texts(document, "table_header") == [
        "| Option | Default |\n| --- | --- |",
        "| Limit | Value |\n| --- | --- |",
    ]
    assert block_texts(document, "table_row") == ["| --fast | off |", "| --size | 10 pixels |", "| Widgets | 100 |"]
    assert [t.section for t in document.tables] == [3, 4]


def test_handbook_sections_nest_and_carry_anchors() -> None:
    document = load("handbook.html")
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
    document = load("handbook.html")
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
  - one
  - two
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

int x;
int y;"""


def test_malformed_page_is_closed_like_a_browser_would() -> None:
    document = load("malformed.html")
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
        "| Type | Appears in |",
        "| Leaf | Interior |\n| --- | --- | --- |",
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
        "Consider a table:", "CREATE TABLE FruitsForSale(\n  Fruit TEXT,\n  Price REAL\n);", "With some data."]
    assert [(b.kind, b.indivisible) for b in document.blocks] == [
        ("paragraph", False), ("code", True), ("paragraph", False)]
    assert document.tables == []


def test_a_table_whose_cells_hold_code_or_lists_without_a_header_is_a_frame() -> None:
    # a page layout (javadoc, old DocBook, man2html): two rows of boxes, a nested table, an anchor
    document = parse_html(
        '<table width="100%"><tr><td><a name="top"></a><h2>Usage</h2><td><ul><li>one<li>two</ul>'
        "<tr><td><pre>run --fast\nrun --slow</pre><td><table><tr><td>k<td>v<tr><td>k2<td>v2</table></table>")
    document.check()
    assert document.text == "## Usage\n\n- one\n- two\n\nrun --fast\nrun --slow\n\n| k | v |\n| k2 | v2 |"
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
    assert block_texts(document) == ["x", "a", "b", "c", "d\ne"]
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


def test_pre_keeps_whitespace_and_br_and_places_links() -> None:
    document = parse_html('<pre>\n\n  a  <a href="x.html">b</a>\n\tc<br>d   \n\n</pre>')
    assert document.text == "  a  b\n\tc\nd"
    assert document.blocks[0].indivisible
    assert [(link.href, link.start) for link in document.links] == [("x.html", 5)]


def test_a_block_inside_pre_starts_a_line_and_never_joins_words() -> None:
    assert parse_html("<pre>x<dt>y</pre>").text == "x\ny"
    assert parse_html("<pre>a\n<div>b</div>c</pre>").text == "a\nb\nc"  # no blank line before a line's start
    assert parse_html("<pre>a<span>b</span></pre>").text == "ab"  # inline: no break


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


def test_a_long_definition_list_has_a_unit_per_term() -> None:
    """git-config's variables: each term with its definition is a section under the list's section,
    the term's id names it, and the text after the list is the enclosing section's again."""
    variables = "".join(
        f'<dt class="hdlist1" id="core.var{i}"><code>core.var{i}</code></dt><dd><p>{"Tells Git a thing. " * 60}</p>'
        + ('<div class="dlist"><dl><dt>true</dt><dd>on</dd><dt>false</dt><dd>off</dd></dl></div>' if i == 2 else "")
        + "</dd>" for i in range(8))
    page = f"<h1>git-config(1)</h1><h2>Variables</h2><p>Intro.</p><div class=dlist><dl>{variables}</dl></div>" \
           "<p>After the list.</p><h2>Bugs</h2><p>None.</p>"
    document = parse_html(page)
    document.check()
    variables_index = next(i for i, s in enumerate(document.sections) if s.heading == "Variables")
    terms = [(i, s) for i, s in enumerate(document.sections) if s.parent == variables_index]
    assert [s.heading for _, s in terms] == [f"core.var{i}" for i in range(8)]
    assert all(s.level == 3 and s.anchors == [s.heading] for _, s in terms)
    assert document.anchors["core.var3"] == terms[3][1].start
    assert document.text[terms[3][1].start:].startswith("core.var3\n\nTells Git a thing.")
    # the short nested list of values stays the text of its term
    assert [s.heading for s in document.sections if s.parent == terms[2][0]] == []
    after = next(b for b in document.blocks if document.text[b.start:b.end] == "After the list.")
    assert after.section == variables_index


def test_texinfo_navigation_bars_and_node_menus_are_chrome() -> None:
    """A makeinfo page (``<meta name="Generator" content="makeinfo">``) loses its Next/Previous/Up
    bars (``div.header``) and its index entries (``table.index-cp``); its sections, its node menu
    (``ul.section-toc``, whose links lead to the subsections) and its own links stay."""
    document = load("texinfo-node.html")
    for chrome in ("Next:", "Previous:", "Up:", "[Contents]", "Overview", "Index Entry", "quiet frobbing"):
        assert chrome not in document.text
    assert [s.heading for s in document.sections if s.level] == ["3 Invoking frob", "3.1 Options to frob",
                                                                     "Appendix A Index"]
    assert document.text.count("Options to frob") == 2  # the menu's item and the heading
    assert [link.href for link in document.links] == ["frob-Options.html", "Quiet.html"]
    assert document.text.startswith("## 3 Invoking frob\n\nThe frob command")


def test_a_generators_chrome_classes_are_chrome_only_in_its_pages() -> None:
    """``div.header`` is javadoc's page title: without makeinfo's generator tag it is content."""
    page = '<div class="header"><h1 class="title">Class Frob</h1></div><p>A frob.</p>'
    assert "Class Frob" in parse_html(page).text
    makeinfo = '<head><meta name="generator" content="makeinfo 7.1"></head>'
    assert "Class Frob" not in parse_html(makeinfo + page).text


def test_mdbook_hidden_lines_of_an_example_are_not_text() -> None:
    """mdBook wraps the lines a Rust example hides from its reader in ``span.boring``."""
    document = parse_html('<pre><code class="language-rust"><span class="boring">#![allow(unused)]\n'
                          '</span><span class="boring">fn main() {\n</span>let x = 5;\n'
                          '<span class="boring">}</span></code></pre>')
    assert document.text == "let x = 5;"


def test_a_doxygen_member_title_loses_its_permalink_glyph() -> None:
    """Doxygen writes ``<span class="permalink"><a href="#ga...">&#9670;&nbsp;</a></span>`` before a member's name."""
    document = parse_html('<h2 class="memtitle"><span class="permalink"><a href="#ga1206b2af8b95e7f6b0ef6b28708c9127">'
                          '&#9670;&nbsp;</a></span>MDB_val</h2><div class="memitem"><p>Generic structure.</p></div>')
    assert [s.heading for s in document.sections if s.level] == ["MDB_val"]
    assert "\u25c6" not in document.text


def test_a_title_ending_in_the_sites_name_loses_it_where_the_headers_h1_is_that_name() -> None:
    page = ("<title>File system | Node.js v18.20.4 Documentation</title><header><h1><a href='/'>Node.js v18.20.4 "
            "documentation</a></h1></header><main><h2>File system</h2><p>Files.</p></main>")
    document = parse_html(page)
    assert document.fields["title"] == "File system"
    assert "Node.js" not in document.text
    other = "<title>Gears | Widgets</title><header><h1>Sprockets</h1></header><p>Teeth.</p>"
    assert parse_html(other).fields["title"] == "Gears | Widgets"


def test_a_group_of_terms_for_one_definition_is_one_term() -> None:
    """Texinfo writes an option's short and long names (``@item``/``@itemx``) as two ``dt`` before its
    ``dd``: they are one heading, a line each, and one section named by both."""
    filler = " ".join(["Compares the files byte by byte."] * 200)  # a list long enough for a unit per term
    page = ('<meta name="Generator" content="makeinfo"><h3>Options</h3><dl compact="compact">'
            '<dt id="index-a"><span><samp>-a</samp></span></dt>'
            '<dt id="index-text"><samp><a href="t.html">--text</a></samp></dt>'
            '<dd><p>Treat all files as text.</p></dd>'
            f'<dt><span><samp>--binary</samp></span></dt><dd><p>{filler}</p></dd></dl>')
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, s.anchors) for s in document.sections[1:]] == [
        (3, "Options", []), (4, "-a, --text", ["index-a", "index-text"]), (4, "--binary", [])]
    assert document.text.startswith("### Options\n\n-a\n--text\n\nTreat all files as text.\n\n--binary\n\n")
    assert document.anchors["index-a"] == document.sections[2].start
    assert document.text[document.anchors["index-text"]:].startswith("--text\n\nTreat")
    assert [document.text[link.start:][:6] for link in document.links] == ["--text"]
    # a list of terms without definitions (DocBook's index) is not one group: each term stays apart
    entries = "".join(f'<dt>entry {i}, <a href="p{i}.html">{filler[:80]}</a></dt>' for i in range(90))
    index = parse_html(f"<h2>Index</h2><dl>{entries}</dl>")
    index.check()
    assert [s.heading[:7] for s in index.sections[2:5]] == ["entry 0", "entry 1", "entry 2"]
    assert len(index.sections) == 92 and [link.href for link in index.links][:2] == ["p0.html", "p1.html"]
    short = parse_html("<dl><dt>-a</dt><dt>--text</dt><dd>Treat all files as text.</dd></dl>")
    short.check()
    assert [(b.kind, short.text[b.start:b.end]) for b in short.blocks] == [
        ("paragraph", "-a\n--text"), ("paragraph", "Treat all files as text.")]


def test_phrasing_elements_such_as_acronym_do_not_break_a_sentence() -> None:
    """DocBook writes every SQL of PostgreSQL's manual as ``<acronym class="acronym">SQL</acronym>``."""
    document = parse_html('<p><acronym class="acronym">SQL</acronym> only specifies the <dfn>integer</dfn> types, '
                          'as of <time datetime="2023">2023</time>.</p>')
    assert [document.text[b.start:b.end] for b in document.blocks] == [
        "SQL only specifies the integer types, as of 2023."]


def test_gtk_doc_asciidoc_doxygen_and_rdoc_chrome_is_dropped() -> None:
    """gtk-doc's ``table.navigation`` bar, AsciiDoc's ``div#footer``, Doxygen's ``div#titlearea`` and
    RDoc's ``span.method-click-advice``, as Debian's libglib2.0-doc, git-doc, doxygen-doc and
    asciidoctor-doc publish them."""
    page = ('<div id="titlearea"><table><tr><td id="projectalign"><div id="projectname">Doxygen</div></td></tr>'
            '</table></div><table class="navigation" id="top" summary="Navigation header"><tr><td class="shortcuts">'
            '<a href="#" class="shortcut">Top</a> | <a href="#GAction.description">Description</a></td></tr></table>'
            '<h2>GAction</h2><div class="method-heading"><span class="method-name">shift</span>'
            '<span class="method-args">()</span><span class="method-click-advice">click to toggle source</span></div>'
            '<p>Shifts a line.</p><div id="footer"><div id="footer-text">Last updated 2024-05-31</div></div>')
    document = parse_html(page)
    assert [document.text[b.start:b.end] for b in document.blocks] == ["## GAction", "shift()", "Shifts a line."]
    assert document.links == []


RUSTDOC_PAGE = """<head><meta name="generator" content="rustdoc"><title>Vec in std::vec - Rust</title></head>
<body><main><section id="main-content" class="content"><div class="main-heading">
<div class="rustdoc-breadcrumbs"><a href="../index.html">std</a>::<wbr><a href="index.html">vec</a></div>
<h1>Struct <span class="struct">Vec</span><button id="copy-path">Copy item path</button></h1>
<span class="sub-heading"><span class="since">1.0.0</span> · <a class="src" href="../src/vec.rs.html">Source</a>
</span></div>
<pre class="rust item-decl"><code>pub struct Vec&lt;T&gt; { /* private fields */ }</code></pre>
<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary>
<div class="docblock"><p>A contiguous growable array type.</p>
<h2 id="examples"><a class="doc-anchor" href="#examples">§</a>Examples</h2>
<div class="example-wrap should_panic"><a href="#" class="tooltip" title="This example panics">ⓘ</a>
<pre class="rust"><code>let v = vec![0];
v[6];</code></pre></div></div></details>
<h2 id="implementations" class="section-header">Implementations</h2>
<details class="toggle implementors-toggle" open><summary><section id="impl-Vec" class="impl">
<a href="#impl-Vec" class="anchor">§</a><h3 class="code-header">impl&lt;T&gt; Vec&lt;T&gt;</h3></section></summary>
<details class="toggle method-toggle" open><summary><section id="method.new" class="method">
<a class="src rightside" href="../src/vec.rs.html#1">Source</a>
<h4 class="code-header">pub const fn <a href="#method.new" class="fn">new</a>() -&gt; Vec&lt;T&gt;</h4>
</section></summary>
<div class="docblock"><p>Constructs a new, empty <code>Vec&lt;T&gt;</code>.</p></div></details></details>
</section></main></body>"""


def test_rustdoc_details_hold_sections_and_its_chrome_is_dropped() -> None:
    """rustdoc wraps each method (its heading, its text and examples) and the item's description in
    a ``details``: a container, not one block; its version/Source links, "Expand description", "§"
    and "ⓘ" are chrome (``GENERATOR_CLASSES["rustdoc"]``)."""
    document = parse_html(RUSTDOC_PAGE)
    document.check()
    assert [(s.level, s.heading, s.anchors) for s in document.sections[1:]] == [
        (1, "Struct Vec", ["main-content"]), (2, "Examples", ["examples"]), (2, "Implementations", ["implementations"]),
        (3, "impl<T> Vec<T>", ["impl-Vec"]), (4, "pub const fn new() -> Vec<T>", ["method.new"])]
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("heading", "# Struct Vec"), ("code", "pub struct Vec<T> { /* private fields */ }"),
        ("paragraph", "A contiguous growable array type."), ("heading", "## Examples"),
        ("code", "let v = vec![0];\nv[6];"),
        ("heading", "## Implementations"), ("heading", "### impl<T> Vec<T>"),
        ("heading", "#### pub const fn new() -> Vec<T>"),
        ("paragraph", "Constructs a new, empty Vec<T>.")]


def test_a_details_with_an_admonition_class_is_an_admonition() -> None:
    """MkDocs (pymdownx.details) writes a collapsible admonition ``??? note "Title"`` as ``details.note``."""
    document = parse_html('<p>Before.</p><details class="note"><summary>Title</summary><p>Body.</p>'
                          '<ul><li>one</li></ul></details>')
    assert [document.text[b.start:b.end] for b in document.blocks] == ["Before.", "Title: Body.\n\n- one"]


def test_a_first_row_of_bold_cells_is_the_header_of_a_table_without_header_cells() -> None:
    """``<td><b>Name</b></td>``: a header as a README's HTML table or an older page (SQLite's date functions)
    writes it."""
    document = parse_html("<table><tr><td><b>Function</b></td><td></td><td><strong>Equivalent</strong></td></tr>"
                          "<tr><td>date(...)</td><td></td><td>strftime('%F', ...)</td></tr>"
                          "<tr><td><b>time(...)</b></td><td></td><td>strftime('%T', ...)</td></tr></table>")
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("table_header", "| Function |  | Equivalent |\n| --- | --- | --- |"),
        ("table_row", "| date(...) |  | strftime('%F', ...) |"),
        ("table_row", "| time(...) |  | strftime('%T', ...) |")]
    # a bold word beside plain text, a single bold cell, or a table with th: no header from bold
    for page in ("<table><tr><td><b>Note</b> one</td><td><b>two</b></td></tr><tr><td>a</td><td>b</td></tr></table>",
                 "<table><tr><td><b>Only</b></td><td></td></tr><tr><td>a</td><td>b</td></tr></table>",
                 "<table><tr><td><b>x</b></td><td><b>y</b></td></tr><tr><th>a</th><th>b</th></tr></table>"):
        assert "table_header" not in [b.kind for b in parse_html(page).blocks[:1]], page


def test_javadoc_summary_grids_are_tables() -> None:
    """javadoc (JDK 16 and later) writes a summary table as a grid of ``div`` cells, as in Debian's
    libcommons-lang3-java-doc: a table with its header, a row every N cells."""
    page = ('<section class="method-summary" id="method-summary"><h2>Method Summary</h2>'
            '<div class="summary-table three-column-summary">'
            '<div class="table-header col-first">Modifier and Type</div><div class="table-header col-second">Method'
            '</div><div class="table-header col-last">Description</div>'
            '<div class="col-first even-row-color"><code>static void</code></div>'
            '<div class="col-second even-row-color"><code><a href="#isTrue(boolean)" class="member-name-link">isTrue'
            '</a>(boolean&nbsp;expression)</code></div>'
            '<div class="col-last even-row-color"><div class="block">Validate that the argument condition is '
            '<code>true</code>.</div></div>'
            '<div class="col-first odd-row-color"><code>static &lt;T&gt; T</code></div>'
            '<div class="col-second odd-row-color"><code>notNull(T&nbsp;object)</code></div>'
            '<div class="col-last odd-row-color"><div class="block">Validate that the object is not null.</div></div>'
            '</div></section><p>After.</p>')
    document = parse_html(page)
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("heading", "## Method Summary"),
        ("table_header", "| Modifier and Type | Method | Description |\n| --- | --- | --- |"),
        ("table_row", "| static void | isTrue(boolean expression) | Validate that the argument condition is true. |"),
        ("table_row", "| static <T> T | notNull(T object) | Validate that the object is not null. |"),
        ("paragraph", "After.")]
    assert [link.href for link in document.links] == ["#isTrue(boolean)"]


def test_a_doxygen_page_title_is_its_h1_and_its_jump_links_are_chrome() -> None:
    """Doxygen writes no h1: the title is ``div.headertitle > div.title``, after the jump links of
    ``div.summary`` (lmdb-doc, Doxygen 1.8.16); only in pages whose generator is Doxygen."""
    body = ('<div class="header"><div class="summary"><a href="#groups">Modules</a> &#124; '
            '<a href="#typedef-members">Typedefs</a></div><div class="headertitle"><div class="title">LMDB API</div>'
            '</div></div><div class="contents"><p>Lightning database.</p><h2 class="groupheader">Typedefs</h2>'
            '<p>MDB_dbi</p></div>')
    document = parse_html('<head><meta name="generator" content="Doxygen 1.8.16"/><title>LMDB: LMDB API</title>'
                          f'</head><body>{body}</body>')
    assert [(s.level, s.heading, s.parent) for s in document.sections[1:]] == [(1, "LMDB API", 0), (2, "Typedefs", 1)]
    assert [document.text[b.start:b.end] for b in document.blocks] == [
        "# LMDB API", "Lightning database.", "## Typedefs", "MDB_dbi"]
    other = parse_html(body)  # no generator tag: a div.title is a paragraph, div.summary text
    assert [other.text[b.start:b.end] for b in other.blocks][:2] == ["Modules | Typedefs", "LMDB API"]
