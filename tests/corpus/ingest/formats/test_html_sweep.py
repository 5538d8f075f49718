"""HTML of more documentation generators, as Debian ships them or builds them (task R3, issue 36): man
pages as HTML (mandoc ``-Thtml``), Haddock, gtk-doc, gi-docgen, Hugo. tests/fixtures/html/README.md says
where each fixture comes from; docs/measurements/generators-2026-12-06.md what was checked and what was left."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import HTML_FIXTURES, block_texts, load_html, outline

# --- mandoc -------------------------------------------------------------------------------


def test_a_man_page_by_mandoc_keeps_its_headings_and_option_terms() -> None:
    """mandoc writes every heading's and every option term's text inside ``a.permalink``, which was
    dropped as chrome: the page had no section and no option name. Its running header ("CLEW-INGEST(1)
    General Commands Manual CLEW-INGEST(1)", ``table.head``) and footer (the date, ``table.foot``) are chrome."""
    document = load_html("mandoc/clew-ingest.html")
    assert document.title == "CLEW-INGEST(1)"
    assert outline(document)[1:] == [
        ("NAME", 1, 0), ("SYNOPSIS", 1, 0), ("DESCRIPTION", 1, 0), ("Options", 2, 3), ("EXAMPLES", 1, 0),
        ("SEE ALSO", 1, 0)]
    assert document.text.startswith("# NAME\n\nclew ingest — ingest files into a corpus\n\n# SYNOPSIS")
    assert document.text.endswith("# SEE ALSO\n\nclew-ask(1), clew-outline(1)")
    paragraphs = block_texts(document, "paragraph")
    assert paragraphs[paragraphs.index("--db path") + 1] == "DuckDB corpus file (default: database in clew.toml)."
    assert {"--collection name", "--chunk-tokens n", "--prune"} <= set(paragraphs)
    assert document.text.startswith("--prune", document.anchors["prune"])
    [example] = block_texts(document, "code")
    assert "clew ingest notes/ --db notes.duckdb\nclew ls --db notes.duckdb" in example
    for chrome in ("General Commands Manual", "December 6, 2026", "CLEW-INGEST(1)"):
        assert chrome not in document.text, chrome


MANDOC_BULLETS = """<!DOCTYPE html><html><head><title>EPOLL_WAIT(2)</title></head><body>
<div class="manual-text">
<section class="Sh"><h1 class="Sh" id="DESCRIPTION"><a class="permalink" href="#DESCRIPTION">DESCRIPTION</a></h1>
<p class="Pp">A call to <b>epoll_wait</b>() will block until either:</p>
<dl class="Bl-tag">
  <dt>&#x2022;</dt>
  <dd>a file descriptor delivers an event;</dd>
  <dt>&#x2022;</dt>
  <dd>the call is interrupted by a signal handler; or
    <dl class="Bl-tag">
      <dt>o</dt>
      <dd>by <b>SIGINT</b>;</dd>
    </dl>
  </dd>
  <dt>&#x2022;</dt>
  <dd>the timeout expires.</dd>
</dl>
<dl class="Bl-tag">
  <dt><b>EINTR</b></dt>
  <dd>The call was interrupted.</dd>
</dl>
<p class="Pp">In the child, in this order:</p>
<dl class="Bl-tag">
  <dt>(1)</dt>
  <dd>Process attribute actions.</dd>
  <dt>(2)</dt>
  <dd>File actions.</dd>
</dl>
<dl class="Bl-tag">
  <dt>[0]</dt>
  <dd>Off.</dd>
  <dt>[2]</dt>
  <dd>On.</dd>
</dl>
</section></div></body></html>"""


def test_a_man_page_by_mandoc_reads_its_bulleted_paragraphs_as_a_list() -> None:
    """mandoc writes a man(7) page's bulleted paragraphs (``.IP \\(bu``) as a ``dl`` whose every term is the bullet,
    which read as a paragraph "•" above each item (task U15: 708 items of the Linux man-pages); they are a list, a
    list inside an item too, and a list of real terms stays one. Numbered paragraphs (``.IP (1)``), consecutive,
    are a numbered list."""
    document = parse_html(MANDOC_BULLETS)
    assert "\u2022" not in document.text
    assert ("will block until either:\n\n- a file descriptor delivers an event;\n"
            "- the call is interrupted by a signal handler; or") in document.text
    assert "  - by SIGINT;\n- the timeout expires." in document.text
    assert "EINTR" in block_texts(document, "paragraph")
    assert "In the child, in this order:\n\n1. Process attribute actions.\n2. File actions." in document.text
    assert {"[0]", "[2]"} <= set(block_texts(document, "paragraph"))  # not consecutive: terms as written


def test_a_permalink_class_is_chrome_unless_it_is_a_link_with_text() -> None:
    """Doxygen's ``span.permalink`` around a member's glyph link stays chrome, and a heading's
    ``a.permalink`` holding a glyph is dropped as any heading permalink; one holding words is text."""
    document = parse_html(
        '<h2 id="a">Usage<a class="permalink" href="#a">¶</a></h2><p>Text <span class="permalink">'
        '<a href="#m">&#9670;</a></span> here.</p><p><a class="permalink" href="#b">--flag</a> sets it.</p>')
    assert [s.heading for s in document.sections[1:]] == ["Usage"]
    assert block_texts(document, "paragraph") == ["Text here.", "--flag sets it."]


# --- Haddock ------------------------------------------------------------------------------


def test_a_haddock_module_page_reads_without_its_chrome() -> None:
    """Haddock (GHC 9.0, Debian's libghc-split-doc): the package header (its name and the Source / Contents /
    Index menu), the module's "Contents" (its own headings as ``#g:N`` links), the "Source" and "#" links
    beside every declaration and instance method and the "Instance(s) details" labels shown without scripts
    are chrome; a type's "Instances" (``h4.instances``) is a label, not a section that held every later
    declaration up to the next heading; each declaration is a section of its own."""
    document = load_html("haddock/split-internals.html")
    assert document.title == "Data.List.Split.Internals"
    # each declaration a section (html_haddock): its name one level below the section heading before it
    assert outline(document)[1:] == [
        ("Types and utilities", 1, 0), ("Splitter", 2, 1), ("defaultSplitter", 2, 1), ("DelimPolicy", 2, 1),
        ("Implementation", 1, 0), ("splitInternal", 2, 5)]
    assert document.text.startswith("## DelimPolicy\n\ndata DelimPolicy\n\nWhat to do with delimiters?",
                                    document.sections[4].start)
    for chrome in ("split-0.2.3.5", "Source", "Index", "Contents\n", "details", "Basic strategies", " #"):
        assert chrome not in document.text, chrome
    paragraphs = block_texts(document, "paragraph")
    assert "defaultSplitter :: Splitter a" in paragraphs
    rows = block_texts(document, "table_row")
    assert paragraphs[paragraphs.index("Instances") - 1] == "Constructors"
    assert rows[7:11] == [
        "| Drop | Drop delimiters from the output. |", "| Keep | Keep delimiters as separate chunks of the output. |",
        "| KeepLeft | Keep delimiters in the output, prepending them to the following chunk. |",
        "| KeepRight | Keep delimiters in the output, appending them to the previous chunk. |"]
    assert rows[11] == "| Show DelimPolicy |"  # its empty column left out (task R24)
    assert rows[12].startswith(
        "| Defined in Data.List.Split.Internals. Methods. showsPrec :: Int -> DelimPolicy -> ShowS. show ::")
    assert document.sections[4].start < document.text.index("Instances") < document.sections[5].start



def test_a_haddock_declaration_is_titled_by_its_name_as_the_page_shows_it() -> None:
    """The declaration's heading is its ``a.def``'s text, not its id: Haddock writes a prime or an operator's
    characters in the id as ``-NN-`` (aeson's ``eitherDecode'`` is ``v:eitherDecode-39-``, headed
    "eitherDecode-39-"; ``(.:?)`` is ``v:.:-63-``; task U7)."""
    top = ('<div class="top"><p class="src"><a id="{id}" class="def">{name}</a> :: {sig} '
           '<a href="src/Data.Aeson.html" class="link">Source</a></p><div class="doc"><p>{doc}</p></div></div>')
    document = parse_html(
        '<title>Data.Aeson</title><div id="interface"><h1 id="g:1">Decoding</h1>'
        + top.format(id="v:eitherDecode-39-", name="eitherDecode'", sig="ByteString -&gt; Either String a",
                     doc="Like decode' but returns an error message when decoding fails.")
        + top.format(id="v:.:-63-", name="(.:?)", sig="Object -&gt; Key -&gt; Parser (Maybe a)",
                     doc="Retrieve the value associated with the given key, if any.")
        + top.format(id="v:-62--42--60-", name="(&gt;*&lt;)", sig="Encoding -&gt; Encoding -&gt; Encoding",
                     doc="Add a comma.") + "</div>")
    assert outline(document)[1:] == [("Decoding", 1, 0), ("eitherDecode'", 2, 1), ("(.:?)", 2, 1), ("(>*<)", 2, 1)]
    assert "eitherDecode' :: ByteString -> Either String a" in block_texts(document, "paragraph")


# --- gtk-doc and gi-docgen (GNOME's API references) ------------------------------------------


def test_a_gtk_doc_home_page_is_titled_by_its_name_once() -> None:
    """gtk-doc titles every page "<page>: <book>", so the book's own page read "ATK - Accessibility Toolkit:
    ATK - Accessibility Toolkit" (Debian's libatk1.0-doc); its other pages already lost the suffix."""
    document = load_html("gtk-doc/atk-index.html")
    assert document.title == "ATK - Accessibility Toolkit"
    assert document.text.startswith("for ATK 2.46.0\n\nOverview\nBase accessibility object")
    assert parse_html("<title>AtkAction: ATK - Accessibility Toolkit</title><h1>AtkAction</h1>").title == "AtkAction"
    assert parse_html("<title>A - B: A - C</title><p>x</p>").title == "A - B: A - C"


def test_a_gtk_doc_one_parameter_table_is_a_table_as_a_longer_one_is() -> None:
    """gtk-doc writes each function's parameters as a table of name, description and annotations cells
    (``td.parameter_name``, ...); a function of one parameter has a one-row table, which read as two
    paragraphs where a function of two had rows (task R4). The page's navigation bar and its title box
    (one row, one cell with text) stay layout."""
    document = load_html("gtk-doc/atk-action.html")
    document.check()
    parameters = "| action | a GObject instance that implements AtkActionIface |"  # no annotation column (R24)
    assert block_texts(document, "table_row") == [
        parameters, "| i | the action index corresponding to the action to be performed |", parameters]
    assert len({b.table for b in document.blocks if b.kind == "table_row"}) == 2
    assert document.text.startswith("# AtkAction\n\nAtkAction — The ATK interface provided by UI components")
    assert [s.heading for s in document.sections[2:]] == [
        "Functions", "atk_action_do_action ()", "Parameters", "Returns", "atk_action_get_n_actions ()",
        "Parameters", "Returns"]
    for chrome in ("Top", "Object Hierarchy", "Home", "Generated by"):
        assert chrome not in document.text, chrome


def test_a_gi_docgen_page_has_no_source_marks_in_its_headings() -> None:
    """gi-docgen (Debian's libjson-glib-doc 1.6.6) writes "[src]" (``a.srclink``, a link to the source
    line) after the Declaration and Description headings; the sidebar and search are chrome already. Its
    title heading's parts are apart by empty ``span.sep`` (drawn by the style sheet): a space each, not
    "JsonParserload_from_data"; a ``span.sep`` with text is read as it is."""
    document = load_html("gi-docgen/method.Parser.load_from_data.html")
    assert document.title == "Json.Parser.load_from_data"
    assert [s.heading for s in document.sections][1:] == [  # the kind label "Method" is no section (task F1)
        "Json Parser load_from_data", "Declaration", "Description", "Parameters", "Return value"]
    assert "[src]" not in document.text and "get_current_line" not in document.text
    [declaration] = block_texts(document, "code")
    assert "json_parser_load_from_data (\n  JsonParser* parser," in declaration
    assert block_texts(document, "table_row")[:2] == ["| data | const gchar* |", "|  | The buffer to parse. |"]
    assert parse_html('<p>a<span class="sep"> / </span>b<span class="sep"></span>c</p>').text == "a / b c"


# --- Hugo (Chroma's line numbers) -----------------------------------------------------------


@pytest.mark.parametrize("page", ["hugo/budgets.html", "hugo/budgets-classes.html"])
def test_hugo_code_keeps_its_lines_without_their_numbers(page: str) -> None:
    """Hugo 0.111 (Debian's ``hugo``) with ``lineNos = true``: Chroma numbers each line of an example beside
    it (``linenos=inline``: the example read "1[budgets]") or in a column of its own (``linenos=table``:
    a code block "1 2" before the example). With its default inline styles the numbers are spans that cannot
    be selected (``user-select:none``); with classes (``noClasses = false``), ``span.ln`` and ``span.lnt``."""
    document = load_html(page)
    assert document.title == "Budgets"
    assert block_texts(document, "paragraph")[0].startswith("Every run is bounded by explicit budgets")
    code = block_texts(document, "code")
    assert len(code) == 3
    assert "[budgets]\ncontext_tokens = 4000" in code[0] and "[budgets]\ncontext_tokens = 4000" in code[2]
    assert 'print("no numbers")' in code[1]
    for text in code:
        assert not any(line.strip()[:1].isdigit() for line in text.splitlines()), text
    assert len(block_texts(document, "table_row")) == 5  # the budgets table


def test_unselectable_text_is_not_text() -> None:
    """Text a reader cannot select (``user-select: none``) is chrome: a prompt, a line number."""
    document = parse_html('<pre><span style="-webkit-user-select:none; user-select: none">$ </span>ls</pre>'
                          '<p>One <span style="user-select:text">two</span></p>')
    [code] = block_texts(document, "code")
    assert code.strip("`\n") == "ls" and block_texts(document, "paragraph") == ["One two"]


# --- TypeDoc --------------------------------------------------------------------------------


def test_a_typedoc_page_reads_without_its_chrome() -> None:
    """TypeDoc 0.26 (default theme) on a small TypeScript module: the breadcrumbs, the site menu, Settings
    ("Member Visibility", "Theme"), "On This Page" and "Defined in budgets.ts:55" are chrome, a member's flag
    is not glued to its name ("Readonlyleft"), the index of the members is no second set of headings, and
    the title loses the project's name ("Budget | clew-budgets" over "Class Budget")."""
    document = load_html("typedoc/budget.html")
    assert document.title == "Budget"
    assert outline(document)[1:] == [
        ("Class Budget", 1, 0), ("Constructors", 2, 1), ("constructor", 3, 2), ("Parameters", 4, 3),
        ("Returns Budget", 4, 3), ("Properties", 2, 1), ("left", 3, 6), ("Methods", 2, 1), ("fits", 3, 8),
        ("Parameters", 4, 9), ("Returns boolean", 4, 9)]
    for chrome in ("Settings", "Member Visibility", "Theme", "On This Page", "Defined in", "budgets.ts",
                   "Readonly", "clew-budgets"):
        assert chrome not in document.text, chrome
    assert block_texts(document, "paragraph")[:3] == ["A budget that can be spent.", "Index", "Constructors"]
    assert "Tokens the run may spend." in document.text


# --- HeVeA (LaTeX to HTML) ------------------------------------------------------------------


def test_a_hevea_title_page_author_is_not_a_section() -> None:
    """HeVeA 2.35 (Debian's ``hevea``) writes ``\\maketitle`` as ``h1.titlemain`` and the author under it as
    ``h3.titlerest``, which opened a section "clew" that held the contents list; it is a paragraph."""
    document = load_html("hevea/budgets.html")
    assert document.title == "Budgets"
    assert [(s.heading, s.level) for s in document.sections[1:]] == [
        ("Budgets", 1), ("1 Budgets", 2), ("1.1 In detail", 3), ("1.2 Which budget bound", 3)]
    assert block_texts(document, "paragraph")[0] == "clew"
    assert block_texts(document, "table_row")[1] == "| max_tool_calls | 20 | 1-20 |"
    # its contents (ul.toc of links into the page) only repeat the headings: dropped, its heading with it
    assert not block_texts(document, "list_item")
    assert "clew\n\n## 1 Budgets\n\nEvery run" in document.text


# --- pod2html (Perl) ------------------------------------------------------------------------


def test_a_pod2html_page_has_no_index_above_its_name() -> None:
    """pod2html (Perl 5.36) writes the page's index, its own headings as links into it (``ul#index``),
    above NAME; it only repeats the headings, as a DocBook one-page ``div.toc`` does, and is dropped. A list
    of the same shape whose links lead to other pages is kept."""
    document = load_html("pod2html/clew-ingest.html")
    assert document.title == "clew ingest - ingest files into a corpus"
    assert document.text.startswith("# NAME\n\nclew ingest - ingest files into a corpus\n\n# SYNOPSIS")
    assert [s.heading for s in document.sections[1:]] == ["NAME", "SYNOPSIS", "DESCRIPTION", "Options", "SEE ALSO"]
    assert not block_texts(document, "list_item")
    kept = parse_html('<ul id="index"><li><a href="a.html#x">A</a></li><li><a href="b.html">B</a></li></ul><p>x</p>')
    assert block_texts(kept, "list_item") == ["- A", "- B"]


# --- qdoc (Qt's reference) ------------------------------------------------------------------


def test_a_qdoc_class_page_has_no_breadcrumbs() -> None:
    """qdoc (Qt 5.15, Debian's qtbase5-doc-html) writes the breadcrumbs "Qt 5.15 / Qt Core / C++ Classes /
    QTimer / Qt 5.15.8 Reference Documentation" (``div.navigationbar``) above every page, where they read as
    the page's first list; the sidebar's contents and the footer were already chrome."""
    document = load_html("qdoc/qtimer.html")
    assert document.title == "QTimer Class"
    assert document.text.startswith("# QTimer Class\n\nThe QTimer class provides repetitive and single-shot timers.")
    for chrome in ("Qt 5.15", "C++ Classes", "Reference Documentation", "Contents", "Copyright", "Qt Company"):
        assert chrome not in document.text, chrome
    assert [s.heading for s in document.sections[2:]] == [
        "Properties", "Public Functions", "Public Slots", "Signals", "Static Public Members",
        "Reimplemented Protected Functions", "Detailed Description", "int QTimer::timerId() const"]


def test_a_qdoc_brief_has_no_more_link() -> None:
    """qdoc ends a class page's one-line brief with a link "More..." to its Detailed Description, read as the brief's
    last word on 273 of Qt Core's 684 pages (task U17)."""
    document = load_html("qdoc/qtimer.html")
    assert block_texts(document, "paragraph")[0] == "The QTimer class provides repetitive and single-shot timers."
    assert "More..." not in document.text
    assert "Detailed Description" in [s.heading for s in document.sections]


def test_a_qdoc_class_page_has_no_links_to_its_member_lists() -> None:
    """Under the header table qdoc links the class's companion pages ("List of all members, including inherited
    members", "Obsolete members"), a list read as a passage of its own on 262 of Qt Core's pages (task U17)."""
    document = load_html("qdoc/qtimer.html")
    assert "List of all members" not in document.text
    texts = block_texts(document)
    assert texts[texts.index("| Inherits: | QObject |") + 1] == "## Properties"
    page = (HTML_FIXTURES / "qdoc" / "qtimer.html").read_text(encoding="utf-8")
    obsolete = page.replace("inherited members</a></li>\n", "inherited members</a></li>\n"
                            '<li><a href="qtimer-obsolete.html">Obsolete members</a></li>\n', 1)
    assert obsolete != page
    assert "Obsolete members" not in parse_html(obsolete).text
    assert "- see the list" in parse_html(page.replace("List of all members, including inherited members",
                                                       "see the list", 1)).text


def test_a_qdoc_code_block_has_no_common_indentation() -> None:
    """qdoc indents every code block one space more than its snippet ("     QTimer *timer = new QTimer(this);"):
    the common indentation is taken out, an indented line keeps the rest of its own (task U17)."""
    document = load_html("qdoc/qtimer.html")
    code = block_texts(document, "code")
    assert code[0].startswith("```\nQTimer *timer = new QTimer(this);\nconnect(timer, &QTimer::timeout, this, ")
    assert all(not line.startswith(" ") for block in code for line in block.splitlines())
    page = (HTML_FIXTURES / "qdoc" / "qtimer.html").read_text(encoding="utf-8")
    nested = page.replace("\n     connect(timer", "\n         connect(timer", 1)
    assert nested != page
    assert "\n    connect(timer, &QTimer::timeout" in block_texts(parse_html(nested), "code")[0]


def test_a_qdoc_summary_of_one_member_is_a_table_row() -> None:
    """qdoc's member summaries (``table.alignedsummary``: ``td.memItemLeft`` the type, ``td.memItemRight`` the
    signature) of a class with one signal, or one reimplemented function, are one-row tables, which read as
    the type and the signature apart, two paragraphs (task R4)."""
    document = load_html("qdoc/qtimer.html")
    document.check()
    rows = block_texts(document, "table_row")
    assert "| void | timeout() |" in rows
    assert "| virtual void | timerEvent(QTimerEvent *e) override |" in rows
    assert "void" not in block_texts(document, "paragraph")
