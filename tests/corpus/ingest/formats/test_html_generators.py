"""HTML as other generators publish it: Texinfo, AsciiDoc, gtk-doc, Doxygen, RDoc, mdBook, rustdoc
and javadoc pages, each as a small fixture of the shape the generator writes (test_html.py holds the
reader's general behaviour and the SQLite dev set)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_charset import declared_charset
from tests.corpus.ingest.formats.documents import load_html


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
    document = load_html("texinfo-node.html")
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
    assert document.text == "```rust\nlet x = 5;\n```"


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
    # a list of terms without definitions (DocBook's index) is not one group: each term stays apart,
    # a paragraph of the section around the list (a term with nothing under it is no unit)
    entries = "".join(f'<dt>entry {i}, <a href="p{i}.html">{filler[:80]}</a></dt>' for i in range(90))
    index = parse_html(f"<h2>Index</h2><dl>{entries}</dl>")
    index.check()
    assert [index.text[b.start:b.end][:7] for b in index.blocks[1:4]] == ["entry 0", "entry 1", "entry 2"]
    assert {(b.kind, b.section) for b in index.blocks[1:]} == {("paragraph", 1)}
    assert len(index.sections) == 2 and [link.href for link in index.links][:2] == ["p0.html", "p1.html"]
    short = parse_html("<dl><dt>-a</dt><dt>--text</dt><dd>Treat all files as text.</dd></dl>")
    short.check()
    assert [(b.kind, short.text[b.start:b.end]) for b in short.blocks] == [
        ("paragraph", "-a\n--text"), ("paragraph", "Treat all files as text.")]


def test_a_term_whose_definition_is_empty_is_not_joined_to_the_next() -> None:
    """javadoc's index writes ``<dd>&nbsp;</dd>`` under a member without a description: that term was joined to the
    next one's, "timeout() - Method in class ...HttpConnection.Request, timeout(int) - Method in interface
    ...Connection.Request" one heading over the second's description (task U5); RDoc's constants without a
    description alike ("BASE36\nMESSAGE_ID_MAXRAND" one paragraph)."""
    filler = " ".join(["Set the total request timeout duration."] * 200)  # long enough for a unit per term
    page = ('<h2>T</h2><dl><dt><a href="R.html#timeout()">timeout()</a> - Method in class HttpConnection.Request</dt>'
            '<dd>&nbsp;</dd><dt><a href="C.html#timeout(int)">timeout(int)</a> - Method in interface Connection</dt>'
            f'<dd><div class="block">Update the request timeout.</div></dd><dt>-a</dt><dt>--text</dt><dd>{filler}</dd>'
            '</dl>')
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading) for s in document.sections[1:]] == [  # a term with nothing under it is no unit
        (2, "T"), (3, "timeout(int) - Method in interface Connection"), (3, "-a, --text")]  # a group still joins
    assert document.text[document.blocks[1].start:document.blocks[1].end] == (
        "timeout() - Method in class HttpConnection.Request")
    constants = parse_html("<dl><dt>BASE36</dt><dd> </dd><dt>PARAM_SCAN_RE</dt><dd></dd></dl>")
    assert [(b.kind, constants.text[b.start:b.end]) for b in constants.blocks] == [
        ("paragraph", "BASE36"), ("paragraph", "PARAM_SCAN_RE")]


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
        ("heading", "# Struct Vec"), ("code", "```\npub struct Vec<T> { /* private fields */ }\n```"),
        ("paragraph", "A contiguous growable array type."), ("heading", "## Examples"),
        ("code", "```\nlet v = vec![0];\nv[6];\n```"),
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
        ("table_header", "| Function | Equivalent |\n| --- | --- |"),  # the spacer column, empty, left out
        ("table_row", "| date(...) | strftime('%F', ...) |"),
        ("table_row", "| time(...) | strftime('%T', ...) |")]
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


def test_doxygen_member_summaries_are_tables_under_their_group_headings() -> None:
    """Doxygen 1.8's ``table.memberdecls`` (lmdb-doc, 1.8.16): a ``tr.heading`` row holding the group's
    ``h2``, per member a ``tr.memitem`` row (type | name and arguments), a ``tr.memdesc`` row (its brief)
    and a ``tr.separator``. Each group is a section; its members a table, a row each with the brief beside
    the declaration; a group of one member a paragraph; a struct's untitled heading row too."""
    def row(left: str, right: str, brief: str | None) -> str:
        member = (f'<tr class="memitem:ga{right[:4]}"><td class="memItemLeft" align="right" valign="top">'
                  f'{left}&#160;</td><td class="memItemRight" valign="bottom">'
                  f'<a class="el" href="#ga{right[:4]}">{right}</a></td></tr>')
        if brief is not None:
            member += (f'<tr class="memdesc:ga{right[:4]}"><td class="mdescLeft">&#160;</td>'
                       f'<td class="mdescRight">{brief} <br /></td></tr>')
        return member + f'<tr class="separator:ga{right[:4]}"><td class="memSeparator" colspan="2">&#160;</td></tr>'

    def group(anchor: str, title: str, rows: str) -> str:
        return (f'<table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">'
                f'<a name="{anchor}"></a>\n{title}</h2></td></tr>{rows}</table>')

    page = ('<div class="contents"><p>Lightning database.</p>'
            + group("groups", "Modules", row("&#160;", "Version Macros", None) + row("&#160;", "Write Flags", None))
            + group("nested-classes", "Data Structures", row("struct", "MDB_val", "Generic structure for keys."))
            + group("typedef-members", "Typedefs", row("typedef unsigned int", "MDB_dbi", "A database handle.")
                    + row("typedef int()", "MDB_cmp_func(const MDB_val *a, const MDB_val *b)", "Compares two keys.")
                    + row("#define", "MDB_VERSION_MAJOR", None))
            + '<h2 class="groupheader">Data Structure Documentation</h2><p>Values are valid until the next update.</p>'
            + '<table class="memberdecls"><tr><td colspan="2"><h3>Data Fields</h3></td></tr>'
            + row("size_t", "mv_size", None) + row("void *", "mv_data", None) + "</table></div>")
    document = parse_html(f'<head><meta name="generator" content="Doxygen 1.8.16"/></head><body>{page}</body>')
    document.check()
    assert [(b.kind, document.text[b.start:b.end]) for b in document.blocks] == [
        ("paragraph", "Lightning database."),
        ("heading", "## Modules"),
        ("table_row", "| Version Macros |"),
        ("table_row", "| Write Flags |"),
        ("heading", "## Data Structures"),
        ("paragraph", "struct MDB_val Generic structure for keys."),
        ("heading", "## Typedefs"),
        ("table_row", "| typedef unsigned int | MDB_dbi | A database handle. |"),
        ("table_row", "| typedef int() | MDB_cmp_func(const MDB_val *a, const MDB_val *b) | Compares two keys. |"),
        ("table_row", "| #define | MDB_VERSION_MAJOR |  |"),
        ("heading", "## Data Structure Documentation"),
        ("paragraph", "Values are valid until the next update."),
        ("heading", "### Data Fields"),
        ("table_row", "| size_t | mv_size |"),
        ("table_row", "| void * | mv_data |")]
    assert [(s.level, s.heading, s.anchors) for s in document.sections[1:]] == [
        (2, "Modules", ["groups"]), (2, "Data Structures", ["nested-classes"]), (2, "Typedefs", ["typedef-members"]),
        (2, "Data Structure Documentation", []), (3, "Data Fields", [])]
    assert [document.sections[t.section].heading for t in document.tables] == [
        "Modules", "Typedefs", "Data Fields"]
    dbi = document.text.index("MDB_dbi")
    assert any(link.href == "#gaMDB_" and link.start == dbi for link in document.links)


def test_terms_with_nothing_under_them_are_text_not_sections() -> None:
    """A DocBook book's front page (debian-reference, docbook-xsl): its table of contents is a ``dl.toc``
    of chapters (``dt``) whose ``dd`` lists their sections, and its "List of Tables" a ``dl`` of ``dt``
    only. A term with neither text nor a section under it is a paragraph of the section around it,
    not an empty section a walk would visit; a chapter with its sections under it stays a unit."""
    def entry(number: str, title: str) -> str:
        return f'<dt><span class="section"><a href="ch{number[0]}.html#s{number}">{number}. {title}</a></span></dt>'

    chapters = "".join(
        f'<dt><span class="chapter"><a href="ch{c}.html">{c}. Chapter {c}</a></span></dt><dd><dl>'
        + "".join(entry(f"{c}.{s}", f"Section {s} of chapter {c}, about the package tools") for s in range(1, 13))
        + "</dl></dd>" for c in range(1, 10))
    tables = "".join(f'<dt>{c}.{t}. <a href="ch{c}.html#t{c}{t}">List of commands for the system administration'
                     f' tasks, number {t}</a></dt>' for c in range(1, 10) for t in range(1, 13))
    page = (f'<div class="book"><div class="titlepage"><h1 class="title">Debian Reference</h1></div>'
            f'<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">{chapters}</dl></div>'
            f'<div class="list-of-tables"><p><b>List of Tables</b></p><dl>{tables}</dl></div></div>')
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, s.parent) for s in document.sections[1:4]] == [
        (1, "Debian Reference", 0), (2, "1. Chapter 1", 1), (2, "2. Chapter 2", 1)]
    assert len(document.sections) == 11  # the page, its h1 and the nine chapters: no section is empty
    owned = {b.section for b in document.blocks if b.kind != "heading"}
    assert all(i in owned for i in range(2, 11))
    first = next(b for b in document.blocks if document.text[b.start:b.end].startswith("1.1. List of commands"))
    assert (first.kind, first.section) == ("paragraph", 1)
    assert document.text.count("List of commands for the system administration tasks") == 108
    assert len([link for link in document.links if link.href.startswith("ch2.html#t2")]) == 12


def test_terms_outside_a_definition_list_are_paragraphs() -> None:
    """gtk-doc's API index (libglib2.0-doc's ``api-index-full.html``) writes its entries as ``dt`` and an
    empty ``dd`` with no ``dl`` around them: each entry is a paragraph of its letter's section. Read as
    terms, each entry was an empty section nested under the one before (levels up to 178)."""
    entries = "".join(
        f'<dt>\n<a class="link" href="GAction.html#{name}" title="{name}">{name}</a>, {kind} in '
        f'<a class="link" href="GAction.html" title="GAction">GAction</a>\n</dt>\n<dd></dd>\n'
        for name, kind in [("GAction", "struct"), ("GAction:enabled", "object property"),
                           ("g_action_activate", "function")])
    page = ('<div class="index"><div class="titlepage"><div><div><h1 class="title"><a name="api-index-full"></a>'
            f'Index</h1></div></div></div><a name="idxA"></a><h3 class="title">A</h3>{entries}'
            '<a name="idxB"></a><h3 class="title">B</h3><dt><a href="GBinding.html">GBinding</a>, struct in '
            '<a href="GBinding.html">GBinding</a></dt><dd></dd></div>')
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, s.parent) for s in document.sections[1:]] == [
        (1, "Index", 0), (3, "A", 1), (3, "B", 1)]
    assert [(b.kind, b.section, document.text[b.start:b.end]) for b in document.blocks] == [
        ("heading", 1, "# Index"), ("heading", 2, "### A"),
        ("paragraph", 2, "GAction, struct in GAction"),
        ("paragraph", 2, "GAction:enabled, object property in GAction"),
        ("paragraph", 2, "g_action_activate, function in GAction"),
        ("heading", 3, "### B"), ("paragraph", 3, "GBinding, struct in GBinding")]
    assert document.anchors["idxB"] == document.sections[3].start


def test_publican_navigation_bars_and_banner_are_chrome() -> None:
    """Publican (DocBook; the Debian Administrator's Handbook) writes a ``div#banner`` and a
    ``ul.docnav`` Prev / Up / Home / Next bar above and below every page (its ``strong`` labels ran into
    the titles: "PrevChapter 6. ..."). The page's own text and links stay."""
    nav = ('<ul class="docnav"><li class="previous"><a accesskey="p" href="apt.html"><strong>Prev</strong>Chapter 6. '
           'Maintenance</a></li><li class="up"><a accesskey="u" href="#"><strong>Up</strong></a></li><li class="home">'
           '<a accesskey="h" href="index.html"><strong>Home</strong></a></li><li class="next"><a accesskey="n" '
           'href="sect.apt-cache.html"><strong>Next</strong>6.3. The apt-cache Command</a></li></ul>')
    page = ('<body><div id="banner"><a href="http://debian-handbook.info/get/"><span class="text">Download the ebook'
            '</span></a></div><p id="title"><a class="left" href="http://www.debian.org"><img alt="Product Site" '
            f'src="image_left.png" /></a></p>{nav}<div class="section"><div class="titlepage"><div><div>'
            '<h2 class="title"><a id="sect.apt-get"></a>6.2. <code class="command">apt-get</code> Commands</h2>'
            '</div></div></div><div class="para">APT is a vast project; see <a href="sect.apt-cache.html">apt-cache'
            f'</a>.</div></div>{nav}</body>')
    document = parse_html(page)
    document.check()
    assert document.text == "## 6.2. apt-get Commands\n\nAPT is a vast project; see apt-cache."
    hrefs = [link.href for link in document.links]
    assert "sect.apt-cache.html" in hrefs and not {"apt.html", "index.html", "#"} & set(hrefs)
    assert document.text[document.anchors["sect.apt-get"]:].startswith("6.2. apt-get")


def test_a_reference_entry_title_is_the_page_heading_over_its_sections() -> None:
    """DocBook's reference entries (postgresql-doc-15's SQL commands; gtk-doc's API pages the same) write
    the entry's name as an ``h2`` in ``div.refnamediv``, the tag of the entry's own sections (Synopsis,
    Description): the name is read as the page's h1 and the sections sit under it."""
    page = ('<div class="refentry" id="SQL-CREATECAST"><div class="titlepage"></div>'
            '<a id="id-1.9.3.58.1" class="indexterm"></a><div class="refnamediv"><h2><span class="refentrytitle">'
            'CREATE CAST</span></h2><p>CREATE CAST — define a new cast</p></div><div class="refsynopsisdiv">'
            '<h2>Synopsis</h2><pre class="synopsis">CREATE CAST (source_type AS target_type)</pre></div>'
            '<div class="refsect1" id="id-1.9.3.58.5"><h2>Description</h2><p><code class="command">CREATE CAST'
            '</code> defines a new cast.</p><div class="refsect2"><h3>Binary coercible</h3><p>Free.</p></div></div>'
            '<div class="refsect1"><h2>See Also</h2><p>DROP CAST</p></div></div>')
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, s.parent) for s in document.sections[1:]] == [
        (1, "CREATE CAST", 0), (2, "Synopsis", 1), (2, "Description", 1), (3, "Binary coercible", 3),
        (2, "See Also", 1)]
    assert document.text.startswith("# CREATE CAST\n\nCREATE CAST — define a new cast\n\n## Synopsis")
    assert document.title == "CREATE CAST"


def test_a_table_of_contents_into_its_own_page_is_dropped_and_one_to_other_pages_kept() -> None:
    """DocBook (maint-guide, PostgreSQL) opens a page with a ``div.toc`` of the sections below on that very
    page (``first.en.html#workflow``): it repeats the headings, which the sections carry, and is dropped
    (AsciiDoc's ``div#toc`` too). A chapter's TOC that lists its section pages (the Debian Administrator's
    Handbook) is kept: its links lead to those pages."""
    def toc(*hrefs: str) -> str:
        entries = "".join(f'<dt><span class="section"><a href="{href}">2.{i}. Part {i}</a></span></dt>'
                          for i, href in enumerate(hrefs, 1))
        return f'<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">{entries}</dl></div>'

    own = parse_html('<div class="chapter"><h1 class="title"><a id="first"></a>Chapter 2. First steps</h1>'
                     + toc("first.en.html#workflow", "first.en.html#choose")
                     + '<p>Let us start.</p><div class="section"><h2 class="title"><a id="workflow"></a>2.1. Workflow'
                     '</h2><p>Get the source.</p></div></div>')
    own.check()
    assert own.text == "# Chapter 2. First steps\n\nLet us start.\n\n## 2.1. Workflow\n\nGet the source."
    assert own.links == []
    other = parse_html('<h1>Chapter 6. APT</h1>' + toc("sect.apt-sources.html", "sect.apt-get.html#init")
                       + "<p>APT is a tool.</p>")
    other.check()
    assert other.text == "# Chapter 6. APT\n\nTable of Contents\n\n2.1. Part 1\n\n2.2. Part 2\n\nAPT is a tool."
    assert [link.href for link in other.links] == ["sect.apt-sources.html", "sect.apt-get.html#init"]
    asciidoc = parse_html('<div id="toc"><div id="toctitle">Table of Contents</div><ul class="sectlevel1"><li>'
                          '<a href="#_name">NAME</a></li></ul></div><h2 id="_name">NAME</h2><p>git-log</p>')
    assert asciidoc.text == "## NAME\n\ngit-log"
    # a book on one page: its list of tables leads into the page too
    tables = parse_html('<div class="list-of-tables"><p><b>List of Tables</b></p><dl><dt>1.1. <a href="#t11">'
                        'Packages</a></dt></dl></div><div class="table"><p class="title" id="t11"><b>Table 1.1. '
                        "Packages</b></p><table><tr><th>package</th></tr><tr><td>dpkg</td></tr></table></div>")
    assert tables.text == "Table 1.1. Packages\n| package |\n| --- |\n| dpkg |"  # the title heads its table


def test_doxygen_members_sit_under_their_group_heading() -> None:
    """Doxygen (lmdb-doc, 1.8.16) writes "Data Structure Documentation" as ``h2.groupheader`` and each
    member's title as ``h2.memtitle`` too, then the member's body (``div.memitem``), where a struct has
    its "Data Fields" (``h3``) and an ``h4.groupheader`` "Field Documentation" with an ``h2.memtitle``
    per field. The group was an empty section beside its members; each member is now under its group,
    the headings in a member's body under the member, and a body's groups end with it."""
    def member(name: str, body: str = "") -> str:
        return (f'<a id="{name}"></a><h2 class="memtitle"><span class="permalink"><a href="#{name}">&#9670;&nbsp;'
                f'</a></span>{name}</h2><div class="memitem"><div class="memproto"><table class="memname"><tr>'
                f'<td class="memname">struct {name}</td></tr></table></div><div class="memdoc"><p>About {name}.</p>'
                f"{body}</div></div>")

    fields = ('<h3>Data Fields</h3><p>mv_size, mv_data</p><h4 class="groupheader">Field Documentation</h4>'
              + member("mv_size") + member("mv_data"))
    page = ('<head><meta name="generator" content="Doxygen 1.8.16"/></head><body><div class="contents">'
            '<h2 class="groupheader">Data Structure Documentation</h2>' + member("MDB_val", fields)
            + member("MDB_stat") + '<h2 class="groupheader">Typedef Documentation</h2>' + member("MDB_dbi")
            + "</div></body>")
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, document.sections[s.parent or 0].heading) for s in document.sections[1:]] == [
        (2, "Data Structure Documentation", ""), (3, "MDB_val", "Data Structure Documentation"),
        (4, "Data Fields", "MDB_val"), (4, "Field Documentation", "MDB_val"), (5, "mv_size", "Field Documentation"),
        (5, "mv_data", "Field Documentation"), (3, "MDB_stat", "Data Structure Documentation"),
        (2, "Typedef Documentation", ""), (3, "MDB_dbi", "Typedef Documentation")]
    assert document.text[document.anchors["MDB_stat"]:].startswith("### MDB_stat\n\n```\nstruct MDB_stat\n```")
    plain = parse_html(page.replace("Doxygen 1.8.16", "Other 1.0"))  # another generator: levels as written
    assert [s.level for s in plain.sections[1:]] == [2, 2, 3, 4, 2, 2, 2, 2, 2]


def test_a_docbook_author_is_a_paragraph_not_a_section() -> None:
    """DocBook's title page (maint-guide, debian-reference) writes each author as ``h3.author``: a name,
    not a part of the book. It opened a section that held the copyright, abstract and contents after it."""
    page = ('<div class="book"><div class="titlepage"><div><div><h1 class="title"><a id="index"></a>Debian New '
            "Maintainers' Guide</h1></div><div><div class=\"authorgroup\"><div class=\"author\"><h3 class=\"author\">"
            '<span class="firstname">Josip</span> <span class="surname">Rodin</span></h3><div class="affiliation">'
            '<div class="address"><p>original contents</p></div></div></div></div></div><div><p class="copyright">'
            "Copyright © 1998-2002 Josip Rodin</p></div></div></div><div class=\"chapter\"><h2 class=\"title\">"
            "1. Getting started</h2><p>Start here.</p></div></div>")
    document = parse_html(page)
    document.check()
    assert [(s.level, s.heading, s.parent) for s in document.sections[1:]] == [
        (1, "Debian New Maintainers' Guide", 0), (2, "1. Getting started", 1)]
    assert [document.text[b.start:b.end] for b in document.blocks][:4] == [
        "# Debian New Maintainers' Guide", "Josip Rodin", "original contents", "Copyright © 1998-2002 Josip Rodin"]


def test_docbook_dsssl_pages_with_upper_case_classes() -> None:
    """DocBook's DSSSL stylesheets (PostgreSQL's manual before version 10, the Linux Documentation
    Project) write upper-case classes, which browsers match in any case in such pages: the
    ``NAVHEADER`` and ``NAVFOOTER`` bars are chrome, a ``TABLE`` box's first ``P`` is its table's
    title, and ``REFNAMEDIV``'s "Name" stays an h2 under the entry's own h1."""
    document = load_html("docbook-dsssl.html")
    for chrome in ("Prev", "Next", "Home", "PostgreSQL 9.6.24 Documentation", "DROP SUBSCRIPTION", "SQL Commands"):
        assert chrome not in document.text
    assert [(s.level, s.heading) for s in document.sections[1:]] == [
        (1, "DROP TABLE"), (2, "Name"), (2, "Synopsis"), (2, "Description")]
    rows = [(b.kind, document.text[b.start:b.end]) for b in document.blocks if b.table == 0]
    assert rows[:2] == [("table_header", "Table 1. Options"), ("table_header", "| Option | Effect |\n| --- | --- |")]
    assert len(document.tables) == 1
    note = next(b for b in document.blocks if document.text.startswith("Note:", b.start))
    assert document.text[note.start:note.end] == (
        "Note: Only the table owner, the schema owner, and superuser can drop a table.")
    assert document.sections[1].anchors == ["SQL-DROPTABLE"]


def test_a_page_declares_its_encoding_as_docbook_xsl_writes_it() -> None:
    """DocBook XSL writes ISO-8859-1 pages: the meta tag (or an XML declaration) names the encoding,
    read as browsers read it (ISO-8859-1 as windows-1252); UTF-8 and unknown labels give None."""
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'
            "<title>Chapter\xa01.\xa0Installing</title></head><body><h1>Chapter\xa01.\xa0Installing</h1></body></html>")
    data = page.encode("latin-1")
    assert declared_charset(data) == "cp1252"
    assert declared_charset(b'<?xml version="1.0" encoding="ISO-8859-15"?><html/>') == "iso8859-15"
    assert declared_charset(b'<meta charset="utf-8"><p>x</p>') is None
    assert declared_charset(b'<meta charset="klingon-8"><p>x</p>') is None
    assert declared_charset(b"<p>no declaration</p>") is None
    document = parse_html(data.decode(declared_charset(data) or "utf-8"))
    assert document.sections[1].heading == "Chapter 1. Installing"  # no U+FFFD; whitespace collapsed
