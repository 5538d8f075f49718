"""API references a new user's trial read (task U8, issues 35/36): Node.js's API pages (its own generator,
``tools/doc/html.mjs``, as Debian's nodejs-doc 18.20 ships them) and gtk-doc's highlighted examples (GLib 2.74's
reference, libglib2.0-doc). The pages below keep each generator's markup around a few lines of the real text.
docs/measurements/callers-2026-12-05.md has the trial."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import HTML_FIXTURES, block_texts, load_html, outline

_NODE_HEAD = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n'
              '  <meta name="nodejs.org:node-version" content="v18.20.4">\n'
              '  <title>Modules: `node:module` API | Node.js v18.20.4 Documentation</title>\n'
              '  <link rel="stylesheet" href="assets/style.css">\n</head>\n')
_NODE_BODY = (
    '<body class="alt apidoc" id="api-section-module">\n  <div id="content" class="clearfix">\n'
    '    <div id="column2" class="interior">\n      <div id="intro" class="interior">\n'
    '        <a href="index.html" title="Go back to the home page">Node.js</a>\n      </div>\n'
    '      <ul>\n<li><a href="documentation.html" class="nav-documentation">About this documentation</a></li>\n</ul>\n'
    '<hr class="line"/>\n<ul>\n<li><a href="assert.html" class="nav-assert">Assertion testing</a></li>\n'
    '<li><a href="module.html" class="nav-module active">Modules: <code>node:module</code> API</a></li>\n</ul>\n'
    '    </div>\n    <div id="column1" data-id="module" class="interior">\n      <header class="header">\n'
    '        <div class="header-container"><h1>Node.js v18.20.4 documentation</h1></div>\n      </header>\n'
    '      <details id="toc" open><summary>Table of contents</summary><ul>\n'
    '<li><a href="#modules-nodemodule-api">Modules: <code>node:module</code> API</a><ul>\n'
    '<li><a href="#the-module-object">The <code>Module</code> object</a></li>\n</ul></li>\n</ul>\n</details>\n'
    '      <div id="apicontent">\n'
    '        <h2>Modules: <code>node:module</code> API<span><a class="mark" href="#modules-nodemodule-api" '
    'id="modules-nodemodule-api">#</a></span></h2>\n'
    '<section><h3>The <code>Module</code> object<span><a class="mark" href="#the-module-object" '
    'id="the-module-object">#</a></span></h3>\n'
    '<p>Provides general utility methods when interacting with instances of <code>Module</code>.</p>\n'
    '</section>\n      </div>\n    </div>\n  </div>\n</body>\n</html>\n')


def test_a_node_api_page_has_no_sidebar_nor_table_of_contents_and_its_title_no_backticks() -> None:
    """Every Node.js API page opened with the sidebar (the site's name, a link to each of the 60 modules) and its
    table of contents ("Table of contents", a link to each section), its first two or three passages; the title
    kept the Markdown's backticks of the heading's source ("Modules: `node:module` API")."""
    document = parse_html(_NODE_HEAD + _NODE_BODY)
    document.check()
    assert document.title == "Modules: node:module API"
    assert document.text.startswith("## Modules: node:module API\n\n### The Module object\n\nProvides general")
    assert [heading for heading, _, _ in outline(document)][1:] == ["Modules: node:module API", "The Module object"]
    for chrome in ("Node.js", "Assertion testing", "About this documentation", "Table of contents"):
        assert chrome not in document.text


def test_a_sidebar_of_the_same_ids_stays_on_another_generator_s_page() -> None:
    """The sidebar and table of contents are Node.js's only on its pages (its version ``meta`` or its body's
    classes): another page's ``div#column2`` is read, and its title keeps what it has."""
    body = _NODE_BODY.replace('<body class="alt apidoc" id="api-section-module">', "<body>")
    document = parse_html("<html><head><title>Modules: `node:module` API</title></head>\n" + body)
    assert "Assertion testing" in document.text
    assert document.title == "Modules: `node:module` API"


_GTK_DOC_EXAMPLE = (
    '<html><head><title>Doubly-Linked Lists: GLib Reference Manual</title>\n'
    '<meta name="generator" content="GTK-Doc V1.33.1 (XML mode)"></head><body>\n'
    '<div class="refsect2">\n<a name="g-list-free-full"></a><h3>g_list_free_full ()</h3>\n'
    '<pre class="programlisting"><span class="returnvalue">void</span>\ng_list_free_full (GList *list,\n'
    '                  GDestroyNotify free_func);</pre>\n'
    '<p>It can be combined with <code class="function">g_steal_pointer()</code>:</p>\n'
    '<div class="informalexample">\n  <table class="listing_frame" border="0" cellpadding="0" cellspacing="0">\n'
    '    <tbody>\n      <tr>\n        <td class="listing_lines" align="right"><pre>1\n2</pre></td>\n'
    '        <td class="listing_code"><pre class="programlisting"><span class="n">GList</span><span class="w"> '
    '</span><span class="o">*</span><span class="n">list_of_owned_things</span> = …;\n'
    '<span class="n">g_list_free_full</span> (g_steal_pointer (&amp;list_of_owned_things), g_object_unref);'
    '</pre></td>\n      </tr>\n    </tbody>\n  </table>\n</div>\n</div>\n</body></html>\n')


def test_a_gtk_doc_example_has_no_column_of_line_numbers() -> None:
    """gtk-doc writes a highlighted example as a table of two cells, the line numbers' and the code's: the numbers
    were a code block of their own ("1\\n2") between the sentence and the example (40 of GLib's 100 pages)."""
    document = parse_html(_GTK_DOC_EXAMPLE)
    document.check()
    code = block_texts(document, "code")
    assert code[-1] == ("```\nGList *list_of_owned_things = …;\n"
                        "g_list_free_full (g_steal_pointer (&list_of_owned_things), g_object_unref);\n```")
    assert len(code) == 2
    assert "1\n2" not in document.text


def test_an_rdoc_page_two_folders_down_is_read_as_darkfish_s() -> None:
    """RDoc's pages were known as Darkfish's by their script's path, ``./js/`` or ``../js/`` only: a class two
    folders down (benchmark-ips' ``Benchmark/IPS/Job.html``, ``../../js/darkfish.js``) kept its methods one section,
    each with its source listing and "click to toggle source". It reads as the same page one folder down does."""
    page = (HTML_FIXTURES / "rdoc" / "rmail-header.html").read_text(encoding="utf-8")
    assert '<script src="../js/darkfish.js"' in page
    deeper = parse_html(page.replace('<script src="../js/darkfish.js"', '<script src="../../js/darkfish.js"'))
    deeper.check()
    assert [(s.heading, s.level) for s in deeper.sections] == [(s.heading, s.level) for s in load_html(
        "rdoc/rmail-header.html").sections]
    assert ("new()", 3) in [(s.heading, s.level) for s in deeper.sections]
    assert "click to toggle source" not in deeper.text


_GI_DOCGEN_CLASS = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n  <title>Gtk.Button</title>\n</head>\n<body>\n<div id="body-wrapper">\n'
    '  <header>\n    <h3>Class</h3>\n    <h1 aria-label="Name"><a href="index.html">Gtk</a><span class="sep" '
    'role="presentation"></span>Button</h1>\n  </header>\n  <section>\n      <div class="toggle-wrapper">\n'
    '        <h4 id="description" style="display:flex;">\n          Description\n'
    '          <a href="#description" class="anchor"></a>\n        </h4>\n'
    '        <div class="docblock">\n          <p>The <code>GtkButton</code> widget is generally used to trigger a '
    'callback function.</p>\n<h1 id="css-nodes">CSS nodes<a class="md-anchor" href="#css-nodes" '
    'title="Permanent link"></a></h1>\n<p><code>GtkButton</code> has a single CSS node with name button.</p>\n'
    '<h2 id="states">States<a class="md-anchor" href="#states" title="Permanent link"></a></h2>\n'
    '<p>It may also receive the .flat style class.</p>\n        </div>\n      </div>\n'
    '      <div class="toggle-wrapper">\n        <h4 id="ancestors">\n          Ancestors\n'
    '          <a href="#ancestors" class="anchor"></a>\n        </h4>\n'
    '        <ul class="type"><li class="type"><a href="class.Widget.html">GtkWidget</a></li></ul>\n      </div>\n'
    '      <div class="toggle-wrapper methods">\n        <h4 id="constructors">\n          Constructors\n'
    '          <a href="#constructors" class="anchor"></a>\n        </h4>\n        <div class="docblock">\n'
    '          <h6><a href="ctor.Button.new.html">gtk_button_new</a></h6>\n'
    '          <div class="docblock"><p>Creates a new <code>GtkButton</code> widget.</p></div>\n'
    '        </div>\n      </div>\n  </section>\n</div>\n</body>\n</html>\n')


def test_a_gi_docgen_description_s_headings_sit_under_description() -> None:
    """gi-docgen writes a class's description from Markdown, its headings ``h1`` to ``h3`` level with the page's
    ``h1``: "CSS nodes" stood beside the class's title, and the description's last heading held the page's
    "Ancestors", "Constructors" and every method (GTK 4.8's ``GtkButton``)."""
    document = parse_html(_GI_DOCGEN_CLASS)
    document.check()
    sections = {s.heading: s for s in document.sections}
    described = [s.heading for s in document.sections if s.parent is not None
                 and document.sections[s.parent].heading == "Description"]
    assert described == ["CSS nodes"]
    assert document.sections[sections["States"].parent or 0].heading == "CSS nodes"
    for heading in ("Ancestors", "Constructors"):
        assert sections[heading].parent == sections["Description"].parent
    assert document.sections[sections["gtk_button_new"].parent or 0].heading == "Constructors"


def test_a_gi_docgen_kind_label_is_the_title_s_first_line_not_a_section() -> None:
    """gi-docgen writes the symbol's kind ("Method", "Class", "Function") as an ``h3`` over the page's ``h1``: it was
    an empty level-3 section of its own before the title. It is the title's first paragraph now; the page's title
    stays the symbol's name (libjson-glib-doc's ``Json.Parser.load_from_data``; task F1)."""
    document = load_html("gi-docgen/method.Parser.load_from_data.html")
    assert document.title == "Json.Parser.load_from_data"
    assert outline(document)[:3] == [("Json.Parser.load_from_data", 0, None), ("Json Parser load_from_data", 1, 0),
                                     ("Declaration", 4, 1)]
    assert document.text.startswith("# Json Parser load_from_data\n\nMethod\n\n#### Declaration\n")
    button = _GI_DOCGEN_CLASS.replace("<section>", "").replace(
        "<header>", '<section id="main" class="content">\n  <header>')
    assert [heading for heading, _, _ in outline(parse_html(button))][:3] == ["Gtk.Button", "Gtk Button",
                                                                                "Description"]


def test_a_kind_like_h3_over_another_site_s_title_stays_a_heading() -> None:
    """Only gi-docgen's header (its sidebar's "Generated by gi-docgen", or an ``h1`` of parts apart by ``span.sep``)
    has its ``h3`` read as the kind: GTK 4.8's namespace page ("Namespace" over "Gtk - 4.0") is one."""
    page = ('<html><head><title>Gtk</title></head><body>{}<section id="main" class="content"><header>'
            '<h3>Namespace</h3><h1>Gtk &ndash; 4.0</h1></header><p>The GTK toolkit</p></section></body></html>')
    other = parse_html(page.format(""))
    other.check()
    assert [heading for heading, _, _ in outline(other)] == ["Gtk", "Namespace", "Gtk \u2013 4.0"]
    gtk = parse_html(page.format('<div class="section generator"><p>Generated by <a href="https://gitlab.gnome.org/'
                                 'GNOME/gi-docgen">gi-docgen</a> 2023.1</p></div>'))
    assert [heading for heading, _, _ in outline(gtk)] == ["Gtk", "Gtk \u2013 4.0"]
    assert "# Gtk \u2013 4.0\n\nNamespace\n\nThe GTK toolkit" in gtk.text
