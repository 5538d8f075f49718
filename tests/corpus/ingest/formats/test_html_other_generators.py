"""More generators' pages (task R6, issue 36): texi2any's "This document was generated ... using texi2any" footer and
its footnotes, HeVeA's footer and its footnotes, Erlang/OTP (erl_docgen), docutils' own writer, ocamldoc, the Go
project's pages, pydoctor, GitBook, YODL, odoc.
tests/fixtures/html/README.md says where each fixture comes from; docs/measurements/generators-2026-12-06.md what was
checked."""

from __future__ import annotations

import subprocess
import sys

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts, load_html, outline


def test_a_texi2any_page_has_no_colophon_and_its_footnote_reads_as_one_paragraph() -> None:
    """texi2any 6.8 (``-c PROGRAM_NAME_IN_FOOTER=1``) ends every page with "This document was generated on *date*
    using texi2any.", which was the page's last passage; a footnote's number (``h5``, "(1)") was a heading over its
    text, and the mark in the text was glued to its word ("files1")."""
    document = load_html("texi2any/frob.html")
    assert "generated" not in document.text and "December" not in document.text
    assert "which frobs files [1]." in document.text
    paragraphs = block_texts(document, "paragraph")
    assert paragraphs[-1] == "[1] A frobbed file is one that was changed on purpose."
    assert [heading for heading, _, _ in outline(document)][-1] == "Footnotes"
    assert "(1)" not in document.text


def test_the_texinfo_footer_is_kept_on_another_generator_s_page() -> None:
    """The footer is taken out of pages whose ``meta`` names texi2any or makeinfo only: a page that quotes it
    (another generator's, or none) keeps it as text."""
    footer = ('<p><font size="-1">\n  This document was generated on <em>December 6, 2026</em> using '
              '<a href="https://example.invalid/texinfo/"><em>texi2any</em></a>.\n</font></p>')
    page = f"<html><head><title>T</title></head><body><h1>T</h1><p>Text.</p>{footer}</body></html>"
    assert parse_html(page).text.endswith("using texi2any.")
    texinfo = page.replace("<title>", '<meta name="Generator" content="texi2any"><title>')
    assert parse_html(texinfo).text.endswith("Text.")
    seven = texinfo.replace('<font size="-1">', '<span class="program-in-footer">').replace("</font>", "</span>")
    assert parse_html(seven).text.endswith("Text.")
    zsh = texinfo.replace("</body>", '\n<font size="-1">Zsh version 5.9, released on May 14, 2022.</font>\n</body>')
    assert parse_html(zsh).text.endswith("Text.")  # zsh-doc's small print after the footer goes with it
    kept = zsh.replace(footer, "")  # without the colophon, the small print is the page's own
    assert parse_html(kept).text.endswith("Zsh version 5.9, released on May 14, 2022.")


def test_a_hevea_page_has_no_colophon_and_its_footnote_reads_as_one_paragraph() -> None:
    """HeVeA 2.36: its notes (``dl.thefootnotes``, the number the term) read "[1]" and the text as two paragraphs,
    where docutils' read "[1] text"; "This document was translated from LaTeX by HeVeA." was the last passage."""
    document = load_html("hevea/budgets.html")
    assert block_texts(document, "paragraph")[-1] == "[1] See how a run ends."
    assert "translated" not in document.text and "HEVEA" not in document.text
    assert document.text.endswith("A budget stops the walk only when it binds.\n\n[1] See how a run ends.")


def test_an_erlang_reference_page_keeps_its_module_description_and_function_headings() -> None:
    """erl_docgen (Erlang/OTP 25, Debian's erlang-doc): every function is an ``article``, which the reader took for the
    page's main content: the module's title, summary and description were lost and the text began at the first
    function. Each heading held its text in ``div.title-name`` beside icon links (``div.title-anchors``), which left the
    function's heading a paragraph, and each function's "Types" (``h3``) a section above the function's ``h4``."""
    document = load_html("erlang/lists.html")
    assert document.title == "lists"  # the <title> is "Erlang -- lists"
    assert outline(document)[1:] == [
        ("lists", 1, 0), ("Module", 3, 1), ("Module Summary", 3, 1), ("Description", 3, 1), ("Exports", 3, 1),
        ("all(Pred, List) -> boolean()", 4, 5), ("any(Pred, List) -> boolean()", 4, 5)]
    assert "### Module Summary\n\nList processing functions.\n\n### Description\n\nThis module" in document.text
    paragraphs = block_texts(document, "paragraph")
    assert paragraphs[paragraphs.index("Types") + 1] == "Pred = fun((Elem :: T) -> boolean())"
    for chrome in ("Expand All", "STDLIB", "Reference Manual", "Version 4.2", "Copyright", "Erlang --"):
        assert chrome not in document.text, chrome


ERTS_FUNCTIONS = (
    '<html><head><link rel="stylesheet" href="../../doc/otp_doc.css" type="text/css"><title>Erlang -- erlang</title>'
    '</head><body><div id="container"><div id="content"><div class="innertube"><h1>erlang</h1>'
    '<article class="func"><h4 id="adler32-1" class="bold_code title-link func-head">\n<div class="title-anchors">'
    '<span class="ghlink-before"><a href="#adler32-1" title="Link to this place!"><span class="paperclip-before">'
    '</span></a></span></div>\n<div>erlang:<span class="title-name">adler32(Data) -&gt; <span class="bold_code">'
    '<a href="erlang.html#type-non_neg_integer">integer() &gt;= 0</a></span></span>\n</div>\n</h4>'
    '<div class="REFBODY fun-types"><h3 id="types" class="func-types-title">Types</h3><div class="REFTYPES">'
    '<span class="bold_code">Data = iodata()</span></div></div><div class="REFBODY rb-3"><p>Computes and returns the'
    ' adler32 checksum for Data.</p></div></article>'
    '<article class="func"><h4 id="abs-1" class="bold_code title-link func-head">\n<div class="title-anchors"></div>'
    '\n<span class="title-name">abs(Float) -&gt; float()</span></h4><div class="REFBODY rb-1"><p>Returns an integer'
    ' or float.</p></div></article></div></div></div></body></html>')


def test_an_erlang_function_named_with_its_module_is_a_heading() -> None:
    """erts' erlang.html (Debian's erlang-doc 25.2.3) names 124 of its functions with their module, ``erlang:`` in
    a plain ``div`` around ``span.title-name``: a block inside the ``h4`` that made the function a paragraph,
    "erlang:adler32(Data) -> integer() >= 0", under the function before it (task R7, found by benchmarks/chrome.py's
    headings_kept)."""
    document = parse_html(ERTS_FUNCTIONS)
    assert [heading for heading, _, _ in outline(document)][1:] == [
        "erlang", "erlang:adler32(Data) -> integer() >= 0", "abs(Float) -> float()"]
    assert "erlang:adler32(Data) -> integer() >= 0" not in block_texts(document, "paragraph")


def test_a_docutils_page_has_no_running_header_or_contents_and_its_footnotes_read_as_paragraphs() -> None:
    """docutils' own writer (rst2html, html4css1; Debian's docutils-doc 0.19, docs/howto/i18n.html): the ``.. header::``
    text above every page ("Docutils | Overview | About | ..."), the page's own contents (``div.contents.topic``,
    links to its sections) and each footnote as a one-row table ("| [1] | If anything ... |")."""
    document = load_html("docutils/i18n.html")
    assert document.title == "Docutils Internationalization"
    assert document.text.startswith("# Docutils Internationalization\n\nAuthor: David Goodger\n\nContact: ")
    assert "Overview | About" not in document.text and "\nContents\n" not in document.text
    paragraphs = block_texts(document, "paragraph")
    notes = [paragraph for paragraph in paragraphs if paragraph.startswith("[")]
    assert [note[:20] for note in notes] == ["[1] If anything in D", "[2] BCP stands for '", "[3] Subtags are sepa"]
    assert not any(row.startswith("| [") for row in block_texts(document, "table_row"))
    assert "(or should be [1]) fully parameterized" in document.text
    assert document.text.startswith("[1] If anything", document.anchors["footnote-1"])
    assert [heading for heading, _, _ in outline(document)][2:4] == [
        "Language Module Names", "Docutils Language Module"]


def test_an_ocamldoc_module_page_has_no_navigation_bar_and_its_signature_page_is_code() -> None:
    """ocamldoc (Debian's libptmap-ocaml-doc): the bar above every module page (``div.navbar``, "Up") was the page's
    first paragraph; the signature page (``type_Ptmap.html``), one ``code`` whose lines are a ``br`` apart, read as one
    paragraph, its lines and their indentation lost."""
    module = load_html("ocamldoc/Ptmap.html")
    assert module.text.startswith("# Module Ptmap\n\n```\nmodule Ptmap: sig .. end\n```\n\nMaps over integers")
    assert "Up" not in module.text.split()
    signature = load_html("ocamldoc/type_Ptmap.html")
    [code] = block_texts(signature, "code")
    assert code.startswith("```\nsig\n  type key = int\n  type +'a t\n  val empty : 'a Ptmap.t\n")
    assert code.endswith("\nend\n```")
    assert [block.kind for block in signature.blocks] == ["code"]


def test_a_go_project_page_is_titled_by_its_json_header() -> None:
    """The Go project's pages (Debian's golang-1.19-doc: the spec, the memory model) are fragments whose JSON comment
    on top names the title that go.dev's server writes; read alone, they had none."""
    document = load_html("golang/go_mem.html")
    assert document.title == "The Go Memory Model"
    assert outline(document)[1:4] == [("Introduction", 2, 0), ("Advice", 3, 1), ("Informal Overview", 3, 1)]
    assert "Version of June 6, 2022" not in document.text and "/ref/mem" not in document.text
    assert parse_html('<!--{"Subtitle": "x"}-->\n<h2>Intro</h2><p>Text.</p>').title is None
    assert parse_html('<!--{ not json }-->\n<h2>Intro</h2><p>Text.</p>').title is None


def test_a_pydoctor_page_has_a_section_per_member() -> None:
    """pydoctor 25.10 (clew's own clew/corpus/ingest/formats built with ``--docformat=restructuredtext``): each member's
    signature (``div.functionHeader``) was a paragraph, so every member of the module was one section with the
    module's text; each is now a heading, its docstring and value under it."""
    document = load_html("pydoctor/formats.fences.html")
    assert document.title == "formats.fences"
    headings = [heading for heading, level, _ in outline(document)[2:]]
    assert headings[:2] == ["def fenced(code: str, language: str = '') -> tuple[str, int]:",
                            "def html_language(attrs: list[tuple[str, str | None]], *, pre: bool = False) -> str:"]
    assert {level for _, level, _ in outline(document)[2:]} == {3}
    assert "FENCE: str =" in headings and "¶" not in document.text


def test_a_gitbook_page_has_no_search_templates_and_is_titled_without_the_book() -> None:
    """GitBook 3.2.3 (legacy; npm ``gitbook``, its default theme): the search box's result templates sit in every page's
    body, two empty ``h1`` headings ('results matching ""', 'No results matching ""') after the page's text; the
    ``<title>`` is "Introduction · GitBook" (the page's name in the summary, the book's title)."""
    document = load_html("gitbook/index.html")
    assert document.title == "Introduction"
    assert outline(document)[1:] == [("clew concepts", 1, 0)]
    assert document.text == "# clew concepts\n\nThe concepts behind clew."


def test_a_yodl_chapter_has_no_chapter_links_and_is_titled_by_its_heading() -> None:
    """YODL (the Z shell's FAQ in Debian's zsh-doc; the fixture is written in its shape): "Table of Contents",
    "Previous Chapter", "Next Chapter" above and below each chapter read as two lists, and every chapter's
    ``<title>`` is the book's: six pages titled alike."""
    document = load_html("yodl/FAQ04.html")
    assert document.title == "Chapter 4: The mysteries of budgets (Clew Frequently-Asked Questions)"
    assert document.text.startswith("# Chapter 4: The mysteries of budgets\n\n## 4.1: Which budget bound?")
    assert "Chapter\n" not in document.text and "Table of Contents" not in document.text
    assert block_texts(document, "list_item") == []


def test_an_odoc_module_page_keeps_its_title_and_description() -> None:
    """odoc 2.1 (Debian's libjs-of-ocaml-doc): the module's ``h1`` and description are a ``header.odoc-preamble``
    outside any ``main``, dropped with the page's header landmarks: the page began at its first value."""
    document = load_html("odoc/Url.html")
    assert document.title == "Url (js_of_ocaml.Js_of_ocaml.Url)"
    assert document.text.startswith("# Module Js_of_ocaml.Url\n\nThis module provides functions for tampering")
    assert "Up" not in document.text.split()  # the breadcrumbs (nav.odoc-nav) stay out
    assert "val urldecode : string -> string" in block_texts(document, "paragraph")


def test_a_docutils_html5_page_reads_its_bibliographic_fields_as_fields() -> None:
    """docutils 0.19's html5 writer (``rst2html5.py --link-stylesheet`` of docutils-doc's docs/howto/i18n.txt): the
    bibliographic fields (``dl.docinfo``) read as a paragraph per term and per value ("Author:", then "David Goodger"),
    where a field list's read "Author: David Goodger"; its header, contents and footnotes already read right."""
    document = load_html("docutils/i18n-html5.html")
    paragraphs = block_texts(document, "paragraph")
    assert paragraphs[:3] == ["Author: David Goodger", "Contact: docutils-develop@lists.sourceforge.net",
                              "Date: 2022-04-02"]
    assert "Overview | About" not in document.text and "\nContents\n" not in document.text
    assert [p[:20] for p in paragraphs if p.startswith("[")] == [
        "[1] If anything in D", "[2] BCP stands for '", "[3] Subtags are sepa"]


def test_docutils_html4css1_bibliographic_fields_read_as_the_html5_writers() -> None:
    """html4css1 writes the bibliographic fields as a table (``table.docinfo``), read "| Author: | David Goodger |"
    (task R6 left it); they read as the html5 writer's field list, and a field of several lines (``Authors``, a
    ``br`` apart) keeps them."""
    old, new = load_html("docutils/i18n.html"), load_html("docutils/i18n-html5.html")
    assert block_texts(old, "paragraph")[:5] == block_texts(new, "paragraph")[:5] == [
        "Author: David Goodger", "Contact: docutils-develop@lists.sourceforge.net", "Date: 2022-04-02",
        "Revision: 9051", "Copyright: This document has been placed in the public domain."]
    assert not old.tables
    authors = parse_html(
        '<meta name="generator" content="Docutils 0.19: https://docutils.sourceforge.io/" /><h1 class="title">T</h1>'
        '<table class="docinfo" frame="void" rules="none"><col class="docinfo-name" /><tbody valign="top">'
        '<tr><th class="docinfo-name">Authors:</th>\n<td>Me\n<br />Myself</td></tr>'
        '<tr class="web-site field"><th class="docinfo-name">Web site:</th><td class="field-body">'
        '<a href="https://example.org/">https://example.org/</a></td>\n</tr></tbody></table><p>Text.</p>')
    assert authors.text == "# T\n\nAuthors: Me\nMyself\n\nWeb site: https://example.org/\n\nText."


def test_an_asciidoctor_note_reads_with_its_label_in_brackets() -> None:
    """Asciidoctor 2.0.18 (Debian's asciidoctor unpacked; html5 with ``linkcss``, an article written for the tests):
    its note read "1. See how a run ends." under a mark that reads "[1]"; so read on an embedded page (``-s``, no
    generator named) too."""
    document = load_html("asciidoctor/budgets.html")
    assert document.title == "Budgets in clew"
    assert "A run is bounded by budgets. [1]" in document.text
    assert block_texts(document, "paragraph")[-1] == "[1] See how a run ends."
    embedded = parse_html('<div class="paragraph"><p>Budgets.<sup class="footnote">[<a id="_footnoteref_2" '
                          'class="footnote" href="#_footnotedef_2" title="View footnote.">2</a>]</sup></p></div>'
                          '<div id="footnotes"><hr><div class="footnote" id="_footnotedef_2">\n'
                          '<a href="#_footnoteref_2">2</a>. A note.\n</div></div>')
    assert embedded.text == "Budgets. [2]\n\n[2] A note."


def test_an_unclosed_generator_block_is_read_in_linear_time() -> None:
    """A truncated page whose pydoctor member, Erlang heading or ocamldoc bar never closes: the rules' patterns
    give up at once (a pattern whose inner run could be split many ways took 0.7 s for 24 characters, doubling per
    character). A child process, so that a regression fails the test rather than hanging the run."""
    script = (
        "from clew.corpus.ingest.formats.html_more import restructured\n"
        "heads = ['<meta name=\"generator\" content=\"pydoctor 25.10\"><div class=\"functionHeader\">',\n"
        "         '<link rel=\"stylesheet\" href=\"otp_doc.css\"><div id=\"content\"><div class=\"title-anchors\">',\n"
        "         '<link title=\"Index of types\" rel=Appendix href=\"index_types.html\"><div class=\"navbar\">']\n"
        "for head in heads:\n"
        "    page = head + 'def _replay(self, events) ' * 4000\n"
        "    assert restructured(page).endswith('events) '), head\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr


def r_index(h1: str) -> str:
    """A package index page as R writes it (Debian's r-base-html 4.2.2: library/*/html/00Index.html)."""
    return (f'<html><head><title>R: {h1}</title><link rel="stylesheet" type="text/css" href="R.css" /></head><body>'
            f'<div class="container"><h1> {h1}\n<img class="toplogo" src="Rlogo.svg" alt="[R logo]" />\n</h1><hr/>'
            "<h2>Help Pages</h2><table><tr><td><a href=\"children.html\">children</a></td>"
            "<td>Low-level Functions for Management of Forked Processes</td></tr></table></div></body></html>")


def test_an_r_page_is_titled_by_its_h1_without_the_sites_name_before_it() -> None:
    """R's pages title themselves "R: <h1>": the package "parallel", whose h1 ends with "R", was titled "R" (the
    rule for TypeDoc's "clamp | clew-budgets" over "Function clamp": the title's part before the separator, as the
    h1 ends with it); the 13 other packages' pages kept the site's name, "R: The R Stats Package" (task R7)."""
    assert parse_html(r_index("Support for Parallel computation in R")).title == "Support for Parallel computation in R"
    assert parse_html(r_index("The R Stats Package")).title == "The R Stats Package"


def test_a_jsdoc_class_page_keeps_its_title_and_description() -> None:
    """JSDoc 4's default template (fixture built from jsdoc/budget.js): the page's ``h1.page-title`` and the class's
    ``header`` (its signature and description) sit beside an ``article`` of its members, which the reader took for
    the main content; the page began at "Constructor", titled "JSDoc: Class: Budget". "Source: budget.js, line 21"
    under each member is a link into the source page (task R7)."""
    document = load_html("jsdoc/module-budget-Budget.html")
    assert document.title == "Class: Budget"
    assert document.text.startswith("# Class: Budget\n\n## budget~Budget(limits)\n\nA budget a run spends; checked "
                                    "before each step that would spend it. A run that runs out still returns")
    assert [heading for heading, _, _ in outline(document)][3:6] == ["Constructor", "new Budget(limits)", "Parameters:"]
    for chrome in ("Source:", "line 21", "Documentation generated by", "Home"):
        assert chrome not in document.text, chrome
    assert "const budget = new Budget({maxToolCalls: 5, contextTokens: 2000});" in block_texts(document, "code")[0]


def test_a_jsdoc_optional_parameter_is_bracketed_in_its_members_heading() -> None:
    """JSDoc writes an optional parameter in a member's signature as its name and a raised "opt", which read
    "spend(kind, amountopt)" (async 3.2.5's "applyEach(fns, …argsopt, callbackopt)", task U15): ``[amount]``."""
    document = load_html("jsdoc/module-budget-Budget.html")
    headings = [heading for heading, _, _ in outline(document)]
    assert "spend(kind, [amount]) → {boolean}" in headings
    assert not any("opt)" in heading for heading in headings)


def test_a_documentation_js_page_has_no_sidebar_and_its_members_are_headings() -> None:
    """documentation.js 14's default theme (fixture built from jsdoc/budget.js): the sidebar's "Need help reading
    this?" was the page's first paragraph, and a class's member a paragraph "▸ spend(kind, amount)" above its text
    (task R7)."""
    document = load_html("documentationjs/index.html")
    assert document.title == "clew-budgets 1.0.0 | Documentation"
    assert document.text.startswith("### budget\n\nBudgets that bound a run")
    assert [heading for heading, _, _ in outline(document)][1:] == [
        "budget", "Limits", "Budget", "spend(kind, amount)", "clamp"]
    assert "Need help" not in document.text and "\u25b8" not in document.text
    assert "#### spend(kind, amount)\n\nSpend one unit." in document.text


def test_an_esdoc_member_heading_has_no_source_link() -> None:
    """ESDoc 1.1 (fixture built from jsdoc/budget.js as an ES module): every member's heading ended with its link
    "source" into the source page ("public spend(kind: string, amount: number): boolean source"), and the class's
    kind read "public class | source" (task R7)."""
    document = load_html("esdoc/budget-class.html")
    assert document.title == "Budget"
    headings = [heading for heading, _, _ in outline(document)]
    assert "public spend(kind: string, amount: number): boolean" in headings
    assert not any(heading.endswith("source") for heading in headings)
    assert "# Budget\n\n```\nimport {Budget} from 'clew-budgets/src/budget.js'\n```\n\npublic class\n\nA budget" in (
        document.text)
    assert "source" not in document.text.split()


_JAVADOC_11 = ('<!DOCTYPE HTML>\n<!-- NewPage -->\n<html>\n<head>\n<!-- Generated by javadoc -->\n'
               '<title>Node (jsoup Java HTML Parser 1.15.3 API)</title>\n</head>\n<body>\n<main role="main">'
               '<div class="header"><h2 title="Class Node" class="title">Class Node</h2></div>'
               '<h3>Method Summary</h3><table class="memberSummary">'
               '<caption><span id="t0" class="activeTableTab"><span>All Methods</span><span class="tabEnd">&nbsp;'
               '</span></span><span id="t2" class="tableTab"><span><a href="javascript:show(2);">Instance Methods</a>'
               '</span><span class="tabEnd">&nbsp;</span></span><span id="t4" class="tableTab"><span>'
               '<a href="javascript:show(8);">Concrete Methods</a></span><span class="tabEnd">&nbsp;</span></span>'
               '</caption><tr><th class="colFirst" scope="col">Modifier and Type</th><th class="colSecond" scope="col">'
               'Method</th></tr><tr class="altColor" id="i0"><td class="colFirst"><code>java.lang.String</code></td>'
               '<th class="colSecond" scope="row"><code><a href="#absUrl(java.lang.String)">absUrl</a>&#8203;'
               '(java.lang.String&nbsp;attributeKey)</code></th></tr></table></main></body></html>')


def test_a_javadoc_page_is_titled_by_its_name_without_zero_width_spaces_or_filter_tabs() -> None:
    """javadoc 11 (Debian's libjsoup-java-doc 1.15.3): the ``<title>`` ends with the API's window title in brackets,
    each member's name is followed by a zero-width space (the name quoted and copied was ``absUrl\\u200b``), and the
    method summary's filter tabs read "All Methods Instance Methods Concrete Methods" over the table; a member's notes
    ("Parameters:", "Returns:", "Author:") read each term alone over its definition, and its layout lists were read
    as lists, each member's description an item indented under its heading (task U5)."""
    document = parse_html(_JAVADOC_11)
    assert document.title == "Node"
    assert "\u200b" not in document.text
    assert "| java.lang.String | absUrl(java.lang.String attributeKey) |" in document.text
    assert "Instance Methods" not in document.text and "Concrete Methods" not in document.text
    assert "### Method Summary\n\nAll Methods\n| Modifier and Type | Method |" in document.text  # the table's title
    # a member's notes: each term with its definition, as a field list (an extract quoted "Author:" alone)
    notes = parse_html(_JAVADOC_11.replace("</main>", '<div class="block">Parse HTML.</div><dl><dt><span class='
                                           '"paramLabel">Parameters:</span></dt><dd><code>html</code> - HTML to parse'
                                           '</dd><dt><span class="returnLabel">Returns:</span></dt><dd>sane HTML</dd>'
                                           '<dt><span class="simpleTagLabel">Author:</span></dt><dd>Jonathan Hedley'
                                           '</dd></dl></main>'))
    assert block_texts(notes, "paragraph")[-3:] == [
        "Parameters: html - HTML to parse", "Returns: sane HTML", "Author: Jonathan Hedley"]
    # its layout lists (ul.blockList > li.blockList): each description a paragraph, not a list item under its heading
    detail = ('<ul class="blockList"><li class="blockList"><h3>Method Detail</h3><ul class="blockList"><li class='
              '"blockList"><h4>parse</h4><pre>public static Document parse(String html)</pre><div class="block">Parse '
              'HTML into a Document.</div><dl><dt><span class="returnLabel">Returns:</span></dt><dd>sane HTML</dd></dl>'
              '</li></ul><ul class="blockListLast"><li class="blockList"><h4>clean</h4><div class="block">Cleans:<ul>'
              '<li>one<li>two</ul></div></li></ul></li></ul>')
    laid = parse_html(_JAVADOC_11.replace("</main>", detail + "</main>"))
    assert [(b.kind, laid.text[b.start:b.end]) for b in laid.blocks][-8:] == [
        ("heading", "#### parse"), ("code", "```\npublic static Document parse(String html)\n```"),
        ("paragraph", "Parse HTML into a Document."), ("paragraph", "Returns: sane HTML"), ("heading", "#### clean"),
        ("paragraph", "Cleans:"), ("list_item", "- one"), ("list_item", "- two")]  # a comment's own list stays one
    # javadoc 17 (libcommons-lang3-java-doc) names itself in a generator meta; its tabs are buttons, already dropped
    page17 = ('<html><head><meta name="generator" content="javadoc/ClassWriterImpl"><title>Validate (Apache Commons '
              'Lang 3.12.0 API)</title></head><body><main role="main"><h1 title="Class Validate" class="title">Class '
              'Validate</h1><p><code>isTrue&#8203;(boolean&nbsp;expression)</code></p><dl class="notes"><dt>Returns:'
              '</dt><dd>the value</dd></dl></main></body></html>')
    document = parse_html(page17)
    assert (document.title, block_texts(document, "paragraph")) == (
        "Validate", ["isTrue(boolean expression)", "Returns: the value"])
    # another generator's page keeps its bracketed title and its zero-width spaces (PostgreSQL's EXPLAIN output)
    other = parse_html('<html><head><title>Node (an API)</title></head><body><p>a&#8203;b</p></body></html>')
    assert (other.title, other.text) == ("Node (an API)", "a\u200bb")


def test_a_mkdocs_readthedocs_page_without_an_h1_is_titled_by_its_name() -> None:
    """MkDocs 1.4's readthedocs theme titles a page "<name> - <site>" and writes its name in a script of its head; a
    page whose Markdown has no ``h1`` (all 58 of Debian's python-typer-doc's) was titled "Required CLI Options -
    Typer" (task U5). A page with an ``h1`` keeps the ``h1`` rule; a title of another shape stays as it is."""
    def page(title: str, name: str, body: str = "<p>We said before that by default:</p>") -> str:
        return (f'<html><head><title>{title}</title><script>\n  var mkdocs_page_name = "{name}";\n'
                '  var mkdocs_page_input_path = "tutorial/options/required.md";\n</script></head><body>'
                f'<div role="main" class="document"><div class="section" itemprop="articleBody">{body}</div></div>'
                '</body></html>')
    assert parse_html(page("Required CLI Options - Typer", "Required CLI Options")).title == "Required CLI Options"
    assert parse_html(page("Say &#34;hi&#34; &amp; go - Typer", 'Say \\"hi\\" & go')).title == 'Say "hi" & go'
    assert parse_html(page("Typer", "Typer")).title == "Typer"  # the home page: the site's name alone
    assert parse_html(page("Elsewhere - Typer", "Required CLI Options")).title == "Elsewhere - Typer"
    with_h1 = page("Typer CLI - completion for small scripts - Typer", "Typer CLI - completion for small scripts",
                   "<h1>Typer CLI</h1><p>Text.</p>")
    assert parse_html(with_h1).title == "Typer CLI"
