"""HTML documentation as it is published: page chrome left out, the main content kept with its
structure, heading permalinks dropped, Sphinx API entries as sections, admonitions as one block.

The Sphinx fixtures are excerpts of the Python 3.11 documentation (Debian's python3.11-doc; see
tests/fixtures/html/README.md); the DocBook page has docbook-xsl's shape.
"""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.parsed import ParsedDocument

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "html"


def load(name: str) -> ParsedDocument:
    document = parse_html((FIXTURES / name).read_text(encoding="utf-8"))
    document.check()
    return document


def outline(document: ParsedDocument) -> list[tuple[int, str]]:
    return [(s.level, s.heading) for s in document.sections[1:]]


def block_at(document: ParsedDocument, text: str) -> tuple[str, str, int]:
    """(kind, whole text, section) of the block that starts with ``text``."""
    block = next(b for b in document.blocks if document.text.startswith(text, b.start))
    return block.kind, document.text[block.start:block.end], block.section


# --- a Sphinx page: sidebar, related bars, footer, headerlinks, dl.py entries ------------------

def test_sphinx_page_is_its_main_content_titled_by_its_h1() -> None:
    document = load("sphinx-functools.html")
    assert document.title == "functools — Higher-order functions and operations on callable objects"
    assert document.text.startswith("# functools — Higher-order functions and operations on callable objects\n\n"
                                    "Source code: Lib/functools.py")
    assert document.text.endswith("do not transform into bound methods during instance attribute look-up.")
    for chrome in ("Navigation", "Table of Contents", "Previous topic", "Next topic", "This Page", "Report a Bug",
                   "Show Source", "Quick search", "Copyright", "Python »", "¶"):
        assert chrome not in document.text
    assert not {"../genindex.html", "../py-modindex.html", "itertools.html", "../bugs.html"} & {
        link.href for link in document.links}


def test_sphinx_api_entries_are_sections_named_by_their_signature() -> None:
    document = load("sphinx-functools.html")
    assert outline(document) == [
        (1, "functools — Higher-order functions and operations on callable objects"),
        (2, "functools.lru_cache"),
        (2, "functools.total_ordering"),
        (2, "partial Objects"),
        (3, "partial.func"),
        (3, "partial.args"),
        (3, "partial.keywords"),
    ]
    lru = document.sections[2]
    assert lru.anchors == ["functools.lru_cache"]
    assert document.anchors["functools.lru_cache"] == lru.start
    # the heading block is the whole signature; the overload is text of the same section
    assert block_at(document, "@functools.lru_cache(user_function)") == (
        "heading", "@functools.lru_cache(user_function)", 2)
    assert block_at(document, "@functools.lru_cache(maxsize=128")[::2] == ("paragraph", 2)
    assert block_at(document, "Decorator to wrap a function")[::2] == ("paragraph", 2)
    assert lru.end is not None and document.text[lru.start:lru.end].rstrip().endswith(
        "used in multiple threads.")
    # the text after an entry is its enclosing section's again
    assert document.heading_path(block_at(document, "partial objects are callable")[2]) == [
        "functools — Higher-order functions and operations on callable objects", "partial Objects"]
    assert document.sections[4].anchors == ["partial-objects", "id1"]


def test_sphinx_methods_nest_under_their_class() -> None:
    document = load("sphinx-graphlib.html")
    assert outline(document) == [
        (1, "graphlib — Functionality to operate with graph-like structures"),
        (2, "graphlib.TopologicalSorter"),
        (3, "add"),
        (3, "prepare"),
    ]
    assert document.heading_path(4) == ["graphlib — Functionality to operate with graph-like structures",
                                        "graphlib.TopologicalSorter", "prepare"]
    assert [s.anchors for s in document.sections[2:]] == [
        ["graphlib.TopologicalSorter"], ["graphlib.TopologicalSorter.add"], ["graphlib.TopologicalSorter.prepare"]]
    assert block_at(document, "add(node, *predecessors)")[::2] == ("heading", 3)


def test_sphinx_admonitions_are_one_block_with_their_label() -> None:
    document = load("sphinx-functools.html")
    notes = [b for b in document.blocks if document.text.startswith("Note", b.start)]
    assert [(b.kind, b.section) for b in notes] == [("paragraph", 3), ("paragraph", 3)]
    assert document.text[notes[0].start:notes[0].end].startswith("Note: While this decorator makes it easy")
    assert "Note" not in [s.heading for s in document.sections]


def test_sphinx_field_names_open_their_values() -> None:
    """A docutils field list (``dl.field-list``: a page's Author, an entry's Parameters or Returns) is
    "Name: value", not a paragraph per name; inside a list item the fields stay lines of the item."""
    howto = load("sphinx-sorting.html")
    assert howto.text.startswith("# Sorting HOW TO\n\nAuthor: Andrew Dalke and Raymond Hettinger\n\nRelease: 0.1\n\n"
                                 "Python lists have a built-in list.sort() method")
    assert block_at(howto, "Author") == ("paragraph", "Author: Andrew Dalke and Raymond Hettinger", 1)
    entry = load("sphinx-enum.html")
    assert "This method is called in two different ways:\n\n- to look up an existing member:\n" \
           "  cls: The enum class being called.\n  value: The value to lookup.\n" \
           "- to use the cls enum to create a new enum:\n  cls: The enum class being called.\n" in entry.text
    assert block_at(entry, "  boundary:") == (
        "list_item", "  boundary: How to handle out-of-range values from bit operations (Flag only).", 1)
    assert [b.kind for b in entry.blocks[2:]] == ["list_item"] * 12  # the list is not cut by its field names
    assert outline(entry) == [(1, "__call__")]


def test_sphinx_field_list_of_an_api_entry() -> None:
    """autodoc's shape: a value that is a list keeps its name as its lead-in; a name with no value is a line."""
    document = parse_html(
        '<div class="body" role="main"><section id="m"><h1>m</h1><dl class="py function">'
        '<dt class="sig sig-object py" id="m.add"><span class="sig-prename descclassname"><span class="pre">m.</span>'
        '</span><span class="sig-name descname"><span class="pre">add</span></span><span class="sig-paren">(</span>'
        '<em class="sig-param"><span class="n"><span class="pre">x</span></span></em><span class="sig-paren">)</span>'
        '<a class="headerlink" href="#m.add" title="Permalink to this definition">¶</a></dt>\n'
        '<dd><p>Add things.</p>\n<dl class="field-list simple">\n'
        '<dt class="field-odd">Parameters<span class="colon">:</span></dt>\n<dd class="field-odd"><ul class="simple">\n'
        '<li><p><strong>x</strong> (<em>int</em>) – the value</p></li>\n'
        '<li><p><strong>y</strong> (<em>str</em>) – the name</p></li>\n</ul>\n</dd>\n'
        '<dt class="field-even">Returns<span class="colon">:</span></dt>\n'
        '<dd class="field-even"><p>the sum</p>\n</dd>\n'
        '<dt class="field-odd">Deprecated<span class="colon">:</span></dt>\n<dd class="field-odd"></dd>\n</dl>\n'
        '<p>After.</p>\n</dd></dl></section></div>')
    document.check()
    assert document.text == ("# m\n\nm.add(x)\n\nAdd things.\n\nParameters:\n\n- x (int) – the value\n"
                             "- y (str) – the name\n\nReturns: the sum\n\nDeprecated:\n\nAfter.")
    assert {b.section for b in document.blocks[1:]} == {2}
    assert outline(document) == [(1, "m"), (2, "m.add")]


def test_docutils_footnotes_are_a_paragraph_each_opened_by_their_label() -> None:
    """docutils 0.18's ``aside.footnote-list`` is no admonition holding every footnote in one block: each
    ``aside.footnote`` is a paragraph, its label first ("[2] This is why ..."), where its id lands."""
    document = load("sphinx-pickle.html")
    assert document.text.endswith(
        "otherwise an exception will be raised. [3]\n\nFootnotes\n\n[1] Don’t confuse this with the marshal module"
        "\n\n[2] This is why lambda functions cannot be pickled: all lambda functions share the same name: <lambda>.")
    assert [b.kind for b in document.blocks] == ["paragraph"] * 4
    assert document.text.startswith("[2] This is why", document.anchors["id8"])
    assert document.text.startswith("[1] Don’t", document.anchors["id7"])


def test_older_docutils_footnotes_and_citations_read_as_the_new_ones() -> None:
    """docutils 0.17 writes footnotes and citations as ``dl.footnote`` / ``dl.citation`` (the brackets come
    from the style sheet), 0.18 citations as ``div.citation``: each is "[label] text", its id on it; the
    mark citing one reads as its label does ("See [1].", ``html_marks``)."""
    document = parse_html(
        '<div class="body" role="main"><section id="x"><h1>X</h1>\n'
        '<p>See <a class="footnote-reference brackets" href="#f1" id="r1">1</a>.</p>\n'
        '<dl class="footnote brackets">\n<dt class="label" id="f1"><span class="brackets">'
        '<a class="fn-backref" href="#r1">1</a></span></dt>\n<dd><p>An old-style footnote.</p>\n</dd>\n'
        '<dt class="label" id="f2"><span class="brackets">2</span></dt>\n'
        '<dd><p>Another.</p>\n<p>Its second paragraph.</p>\n</dd>\n</dl>\n'
        '<div role="list" class="citation-list">\n<div class="citation" id="knuth" role="doc-biblioentry">\n'
        '<span class="label"><span class="fn-bracket">[</span><a role="doc-backlink" href="#id2">Knuth</a>'
        '<span class="fn-bracket">]</span></span>\n<p>The Art of Computer Programming.</p>\n</div>\n</div>\n'
        '</section></div>')
    document.check()
    assert document.text == ("# X\n\nSee [1].\n\n[1] An old-style footnote.\n\n[2] Another.\n\nIts second paragraph."
                             "\n\n[Knuth] The Art of Computer Programming.")
    labels = [document.text[document.anchors[a]:].split(" ")[0] for a in ("f1", "f2", "knuth")]
    assert labels == ["[1]", "[2]", "[Knuth]"]
    assert outline(document) == [(1, "X")]


def test_pygments_line_numbers_are_not_code() -> None:
    """Sphinx's ``:linenos:`` (and MkDocs'): a ``td.linenos`` column beside the code, or a ``span.linenos``
    opening each line; neither is text, so the code reads as written ("import os", not "1import os")."""
    document = parse_html(
        '<div class="body" role="main"><section id="x"><h1>X</h1>\n'
        '<div class="highlight-python notranslate"><table class="highlighttable"><tr><td class="linenos">'
        '<div class="linenodiv"><pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td>'
        '<td class="code"><div class="highlight"><pre><span></span><span class="kn">import</span> '
        '<span class="nn">os</span>\n<span class="nb">print</span><span class="p">(</span><span class="n">os</span>'
        '<span class="p">)</span>\n</pre></div></td></tr></table></div>\n'
        '<div class="highlight-python notranslate"><div class="highlight"><pre><span></span>'
        '<span class="linenos">1</span><span class="kn">import</span> <span class="nn">sys</span>\n'
        '<span class="linenos">2</span><span class="nb">print</span><span class="p">(</span>'
        '<span class="n">sys</span><span class="p">)</span>\n</pre></div></div>\n</section></div>')
    document.check()
    assert document.text == "# X\n\n```python\nimport os\nprint(os)\n```\n\n```python\nimport sys\nprint(sys)\n```"
    assert [b.kind for b in document.blocks] == ["heading", "code", "code"]


# --- DocBook: navigation header and footer, admonitions with an h3 title ---------------------

def test_docbook_note_stays_in_its_section_and_navigation_is_dropped() -> None:
    document = load("docbook-note.html")
    assert outline(document) == [(2, "2.3. Configuring the server"), (3, "2.3.1. Ports")]
    for chrome in ("Prev", "Next", "Home", "Chapter 2. Installation", "2.2. Unpacking"):
        assert chrome not in document.text
    kind, text, section = block_at(document, "Note")
    assert (kind, section) == ("paragraph", 1)
    assert text == ("Note: Changes take effect only after a restart; widgetd reload rereads the access list alone."
                    "\n\nKeep a copy of the file before you edit it.")
    # what follows the note is still its section's (the note's h3 opened none)
    assert block_at(document, "Each line holds")[2] == 1
    assert block_at(document, "Warning: Ports below 1024 need root.") == (
        "paragraph", "Warning: Ports below 1024 need root.", 2)


def test_docbook_graphical_admonitions_are_one_block_with_their_label_lists_and_code() -> None:
    # admon.graphics: a table lays out the icon cell beside the label (th) and the text
    document = load("docbook-admon-graphics.html")
    assert outline(document) == [(2, "3.2. Logging"), (3, "3.2.1. Rotation")]
    kind, text, section = block_at(document, "Tip")
    assert (kind, section) == ("paragraph", 1)
    assert text == ("Tip: To follow the log as it grows:\n\n- open a second terminal,\n- run tail(1) on the file:"
                    "\n\n```\n$ tail -f /var/log/widget.log\nwidgetd: listening on 8080\n```")
    assert block_at(document, "Warning") == ("paragraph", "Warning: The debug level logs passwords.", 1)
    assert "[Tip]" not in document.text and "| Tip |" not in document.text
    # the data table beside them stays a table, with its header row
    assert len(document.tables) == 1
    assert block_at(document, "| level") == ("table_header", "| level | what it logs |\n| --- | --- |", 1)


def test_admonitions_of_other_generators_hold_lists_and_code_in_one_block() -> None:
    document = parse_html(
        "<h1>Guide</h1><aside><p>Plain aside.</p></aside>"
        '<div role="note"><ul><li>one<li>two</ul></div>'
        '<div class="theme-admonition admonition_xJq3"><div class="admonitionHeading_Gvgb">'
        '<span class="admonitionIcon_Rf37"><svg><path d="M0"/></svg></span>tip</div>'
        '<div class="admonitionContent_BuS1"><p>Use <code>--fast</code>:</p><pre>widget --fast\n</pre>'
        "<table><tr><th>a<th>b<tr><td>1<td>2</table></div></div>"
        '<div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p>'
        "<p>Hot.</p></div><p>After.</p>")
    document.check()
    assert [document.text[b.start:b.end] for b in document.blocks] == [
        "# Guide", "Plain aside.", "- one\n- two",
        "tip: Use --fast:\n\n```\nwidget --fast\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |",
        "Warning: Hot.", "After."]
    assert {b.kind for b in document.blocks[1:]} == {"paragraph"} and document.tables == []
    assert len(document.sections) == 2
    # a data table that opens an admonition keeps its header cell: it is no label
    untitled = parse_html('<div class="note"><table><tr><th>a<th>b<tr><td>1<td>2</table></div>')
    assert untitled.text == "| a | b |\n| --- | --- |\n| 1 | 2 |"


# --- heading permalinks --------------------------------------------------------------------

def test_heading_permalinks_are_not_text() -> None:
    document = parse_html(
        '<h2 id="objects">Objects<a class="headerlink" href="#objects">¶</a></h2>'
        '<h2 id="b">Bare<a href="#b">¶</a></h2><h2 id="c">Hashed <a href="#c">#</a></h2>'
        '<h2 id="d">Docusaurus<a href="#d" class="hash-link" aria-label="Direct link">\u200b</a></h2>'
        '<h2>C#</h2><h2><a href="#e" id="e">Linked title</a></h2><h2>Ends <a href="#x">elsewhere</a></h2>')
    assert [s.heading for s in document.sections[1:]] == [
        "Objects", "Bare", "Hashed", "Docusaurus", "C#", "Linked title", "Ends elsewhere"]
    assert "¶" not in document.text and document.anchors["b"] == document.sections[2].start
    assert [link.href for link in document.links] == ["#e", "#x"]


# --- the main content element, and chrome of other generators --------------------------------

def test_only_the_main_content_is_read_where_a_page_has_one() -> None:
    page = ("<header class='site'><h1>Site</h1></header><div id=side><h2>Menu</h2><p>Links</p></div>"
            "<main><h1 id=t>Title</h1><p>Body.</p></main><div class=ad><p>Buy</p></div>")
    document = parse_html(page)
    assert document.text == "# Title\n\nBody." and document.anchors == {"t": 0}
    # a page that only seems to have one (a script mentions <main>) is read whole
    assert parse_html("<script>var s = '<main>';</script><p>All of it.</p>").text == "All of it."
    # a main element without text: the page is read whole
    assert parse_html("<main></main><p>Outside.</p>").text == "Outside."


def test_docusaurus_and_mkdocs_pages_keep_their_article() -> None:
    docusaurus = (
        '<nav class="navbar"><a href="/">Home</a></nav><div class="main-wrapper">'
        '<aside class="theme-doc-sidebar-container"><ul><li>Intro</li></ul></aside><main class="docMainContainer">'
        '<article><nav class="theme-doc-breadcrumbs"><a href="/">Docs</a></nav><div class="markdown">'
        '<header><h1>Install</h1></header><p>Run it.</p></div>'
        '<footer class="theme-doc-footer"><a href="edit">Edit this page</a></footer></article>'
        '<nav class="pagination-nav"><a href="next">Next</a></nav>'
        '<div class="theme-doc-toc-desktop"><ul><li><a href="#x">x</a></li></ul></div></main></div>'
        "<footer><p>Copyright</p></footer>")
    assert parse_html(docusaurus).text == "# Install\n\nRun it."
    mkdocs = (
        '<header class="md-header"><p>Site</p></header><main class="md-main"><div class="md-sidebar">'
        '<nav class="md-nav"><a href="a">A</a></nav></div><div class="md-content"><article class="md-typeset">'
        '<h1 id="use">Use<a class="headerlink" href="#use" title="Permanent link">¶</a></h1><p>Text.</p>'
        '<div class="admonition note"><p class="admonition-title">Note</p><p>Careful.</p></div>'
        '</article></div></main><footer class="md-footer"><p>Made with MkDocs</p></footer>')
    assert parse_html(mkdocs).text == "# Use\n\nText.\n\nNote: Careful."


def test_javadoc_bars_and_read_the_docs_chrome_are_dropped() -> None:
    javadoc = ('<div class="topNav"><ul class="navList"><li><a href="o.html">Overview</a></li></ul></div>'
               '<div class="subNav"><a href="p.html">Prev Class</a></div><div class="header"><h2 class="title">'
               'Class Widget</h2></div><div class="contentContainer"><p>A widget.</p></div>'
               '<div class="bottomNav"><a href="o.html">Overview</a></div>')
    assert parse_html(javadoc).text == "## Class Widget\n\nA widget."
    rtd = ('<nav class="wy-nav-side"><p>Contents</p></nav><div class="wy-nav-content"><div role="navigation">'
           '<ul class="wy-breadcrumbs"><li>Docs</li></ul></div><div role="main"><div itemprop="articleBody">'
           '<h1>Page</h1><p>Text.</p></div></div><footer><div class="rst-footer-buttons">Next</div></footer></div>')
    assert parse_html(rtd).text == "# Page\n\nText."


def test_the_title_is_the_h1_only_where_the_title_tag_adds_the_site() -> None:
    assert parse_html("<title>Use — My Docs</title><h1>Use</h1>").title == "Use"
    assert parse_html("<title>Use | My Docs</title><h1>Use</h1>").title == "Use"
    assert parse_html("<title>Pragma statements supported by SQLite</title><h1>PRAGMA Statements</h1>"
                      ).title == "Pragma statements supported by SQLite"
    assert parse_html("<title>Atomic Commit</title><h1>1. Introduction</h1>").title == "Atomic Commit"


def _method(name: str, params: str, doc: str) -> str:
    """A method entry as Sphinx's autodoc writes it (Celery's reference pages)."""
    return (f'<dl class="py method">\n<dt class="sig sig-object py" id="celery.bootsteps.Blueprint.{name}">\n'
            f'<span class="sig-name descname"><span class="pre">{name}</span></span><span class="sig-paren">(</span>'
            f'{params}<span class="sig-paren">)</span><a class="headerlink" '
            f'href="#celery.bootsteps.Blueprint.{name}" title="Permalink to this definition">¶</a></dt>\n'
            f'<dd>{doc}</dd></dl>\n')


def test_an_api_entry_without_text_is_a_line_of_the_section_around_it() -> None:
    """autodoc's undocumented members (an empty ``dd``) are not sections with nothing but their
    signature: they are lines of their class's section, their ids kept; a documented one is a section."""
    page = ('<div class="body" role="main"><section id="celery-bootsteps"><h1>celery.bootsteps</h1>'
            '<dl class="py class">\n<dt class="sig sig-object py" id="celery.bootsteps.Blueprint">\n'
            '<em class="property"><span class="pre">class</span> </em><span class="sig-prename descclassname">'
            '<span class="pre">celery.bootsteps.</span></span><span class="sig-name descname"><span class="pre">'
            'Blueprint</span></span><span class="sig-paren">(</span><span class="sig-paren">)</span></dt>\n<dd>'
            '<p>Blueprint containing bootsteps that can be applied to objects.</p>\n'
            + _method("apply", '<em class="sig-param">parent</em>', "<p>Apply the steps in this blueprint.</p>")
            + _method("claim_steps", "", "")
            + _method("close", '<em class="sig-param">parent</em>', "")
            + "</dd></dl></section></div>")
    document = parse_html(page)
    document.check()
    assert outline(document) == [(1, "celery.bootsteps"), (2, "celery.bootsteps.Blueprint"), (3, "apply")]
    assert block_at(document, "claim_steps()") == ("paragraph", "claim_steps()", 2)
    assert block_at(document, "close(parent)") == ("paragraph", "close(parent)", 2)
    assert document.text[document.anchors["celery.bootsteps.Blueprint.close"]:] == "close(parent)"
    assert document.sections[3].end is not None and document.sections[3].end < document.anchors[
        "celery.bootsteps.Blueprint.claim_steps"]


# --- Publican (the Debian Administrator's Handbook): the title page, its legal notice, the book's TOC --------

def test_publican_legal_notice_ends_with_its_part_and_the_toc_is_under_the_book_title() -> None:
    document = load("publican-book.html")
    assert outline(document) == [(1, "The Debian Administrator's Handbook"), (1, "Legal Notice")]
    notice = document.sections[2]
    assert block_at(document, "This book is available under")[2] == 2
    assert notice.end == document.text.index("This book is available under") + len(
        "This book is available under the terms of two licenses compatible with the Debian Free Software Guidelines.")
    # the abstract and the table of contents follow the notice's div: they are the book title's again
    assert block_at(document, "Abstract")[2] == 1
    assert block_at(document, "A reference book presenting")[2] == 1
    assert block_at(document, "1.1. What Is Debian?")[2] == 1
    # the subtitle is a line of the title page, not a section; the Prev / Next bars and the banner are dropped
    assert block_at(document, "Debian Bullseye from Discovery to Mastery") == (
        "paragraph", "Debian Bullseye from Discovery to Mastery", 1)
    for chrome in ("Download the ebook", "Next", "Prev", "Product Site"):
        assert chrome not in document.text
    assert any(link.href == "the-debian-project.html" for link in document.links)


def test_a_signature_name_keeps_its_spaces() -> None:
    """Sphinx's own docs (sphinx-doc 5.3) write an rst directive's name as two words in one ``sig-name``
    (``.. automodule::``), a C++ conversion operator so too (``operator bool``): its section is titled as the
    signature reads, not "..automodule::" (task D1); the spaces the page's source puts around a part are not
    the name's (numpydoc's ``sig-prename`` opens on a new line)."""
    page = ('<div class="body" role="main"><section id="autodoc"><h1>sphinx.ext.autodoc</h1>'
            '<dl class="rst directive">\n<dt class="sig sig-object rst" id="directive-automodule">\n'
            '<span class="sig-name descname"><span class="pre">..</span> <span class="pre">automodule::</span></span>'
            '<a class="headerlink" href="#directive-automodule">¶</a></dt>\n'
            '<dd><p>Document a module.</p></dd></dl>\n'
            '<dl class="cpp function">\n<dt class="sig sig-object cpp" id="_CPPv4NK1AcvbEv">\n'
            '<span class="sig-prename descclassname">\n<span class="n"><span class="pre">A</span></span>'
            '<span class="p"><span class="pre">::</span></span></span><span class="sig-name descname">'
            '<span class="k"><span class="pre">operator</span></span><span class="w"> </span><span class="kt">'
            '<span class="pre">bool</span></span></span><span class="sig-paren">(</span>'
            '<span class="sig-paren">)</span></dt>\n<dd><p>Whether it holds a value.</p></dd></dl></section></div>')
    document = parse_html(page)
    document.check()
    assert outline(document) == [(1, "sphinx.ext.autodoc"), (2, ".. automodule::"), (2, "A::operator bool")]
    assert block_at(document, ".. automodule::") == ("heading", ".. automodule::", 2)
