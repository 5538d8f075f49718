"""Scaladoc 2.11's and pdoc3's pages (task U13, issue 36): what Debian's scala-doc 2.11.12 and pdoc3 0.11's pages of
boltons read as text that the pages do not say, or lost. docs/measurements/generators-2026-12-06.md says what was
checked."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

_MEMBER = (
    '<li name="scala.concurrent.Future#successful" visbl="pub" data-isabs="false" fullComment="yes" group="Ungrouped">'
    '<a id="successful[T](result:T):scala.concurrent.Future[T]"></a>\n<h4 class="signature">'
    '<span class="modifier_kind"><span class="modifier"></span> <span class="kind">def</span></span>'
    ' <span class="symbol"><span class="name">successful</span><span class="params">(result: T)</span>'
    '<span class="result">: Future[T]</span></span></h4><span class="permalink">\n'
    '<a href="../../index.html#scala.concurrent.Future$@successful" title="Permalink" target="_top">'
    '<img src="../../lib/permalink.png" alt="Permalink" /></a>\n</span>\n'
    '<p class="shortcomment cmt">Creates an already completed Future with the specified result.</p>'
    '<div class="fullcomment"><div class="comment cmt"><p>Creates an already completed Future with the specified'
    ' result.\n</p></div><dl class="paramcmts block"><dt>returns</dt><dd class="cmt"><p>the newly created'
    " <code>Future</code> object</p></dd></dl></div>\n</li>"
)
_SCALADOC = (
    "<!DOCTYPE html >\n<html><head><title>Future - Scala Standard Library 2.11.12 - scala.concurrent.Future</title>"
    '<link href="../../lib/template.css" media="screen" type="text/css" rel="stylesheet" /></head>'
    '<body class="value"><div id="definition"><p id="owner"><a href="../package.html" class="extype" name="scala">'
    'scala</a>.<a href="package.html" class="extype" name="scala.concurrent">concurrent</a></p>\n<h1>Future</h1>'
    '</div>\n'
    '<div id="template"><div id="allMembers"><div id="values" class="values members"><h3>Value Members</h3><ol>'
    + _MEMBER + "</ol></div></div></div></body></html>"
)


def test_an_image_in_a_dropped_link_does_not_drop_the_text_after_it() -> None:
    """Scaladoc's permalink after each member's signature (``span.permalink > a > img``, dropped as Doxygen's is):
    the ``img``, which has no end tag, stayed open inside the dropped span, so neither ``</a>`` nor ``</span>``
    closed it, and every member's description up to the end of its ``li`` was dropped with it (118 of 118 pages of
    scala-doc's concurrent, util and io: ``Future.successful`` a heading over nothing)."""
    text = parse_html(_SCALADOC).text
    assert "Creates an already completed Future with the specified result." in text
    assert "the newly created Future object" in text
    assert "Permalink" not in text
    for markup in ('<span class="headerlink"><img src="link.png"></span>',
                   '<a class="headerlink"><img src="x.png"/></a>'):
        page = f"<html><body><h2>Usage{markup}</h2><p>The text after the heading.</p></body></html>"
        assert parse_html(page).text == "## Usage\n\nThe text after the heading."


def test_a_scaladoc_page_reads_its_members_once_as_sections_without_the_member_filter() -> None:
    """Scaladoc 2's member list (``ol > li[name][visbl]``) read as a numbered list ("1. Creates an already completed
    Future ..."), each member's first sentence twice (``p.shortcomment`` before ``div.fullcomment``), the member
    filter (``div#mbrsel``: "Ordering Alphabetic By Inheritance ... Visibility Public All") in the first passage, and
    the package line (``p#owner``) a passage of its own above the title."""
    member_filter = (
        '<div id="mbrsel"><div id="order"><span class="filtertype">Ordering</span><ol><li class="alpha in">'
        "<span>Alphabetic</span></li><li class=\"inherit out\"><span>By Inheritance</span></li></ol></div>"
        '<div id="visbl"><span class="filtertype">Visibility</span><ol><li class="public in"><span>Public</span></li>'
        "</ol></div></div>\n"
    )
    comment_list = "<ul><li>first</li><li>second</li></ul>"
    views = (
        '<div id="inheritedMembers"><div class="parent" name="scala.AnyRef">\n<h3>Inherited from '
        '<a href="../AnyRef.html" class="extype" name="scala.AnyRef">AnyRef</a></h3>\n</div></div>\n'
        '<div class="conversion" name="scala.Predef.Ensuring">\n<h3>Inherited by implicit conversion Ensuring from '
        'Future[T] to Ensuring[Future[T]]</h3>\n</div>\n<div id="groupedMembers">'
        '<div class="group" name="Ungrouped">\n<h3>Ungrouped</h3>\n\n</div><div class="group" name="Helpers">\n'
        '<h3>Iteration Helpers</h3>\n<div class="comment cmt"><p>These enable collections-like operations.</p></div>\n'
        "</div></div>\n"
    )
    page = _SCALADOC.replace('<div id="template">', member_filter + '<div id="template">').replace(
        "Future with the specified result.\n", "Future with the specified result.\n" + comment_list).replace(
        "</div></div></body>", "</div>" + views + "</div></body>")
    text = parse_html(page).text
    assert text.startswith("# Future\n\nscala.concurrent\n\n")  # the package line was a passage above the title
    assert "Ordering" not in text and "Alphabetic" not in text and "Visibility" not in text
    assert text.count("Creates an already completed Future with the specified result.") == 1
    assert "#### def successful(result: T): Future[T]\n\nCreates an already completed Future" in text
    assert "1. Creates" not in text
    assert "- first\n- second" in text  # a comment's own list stays a list
    assert "returns: the newly created Future object" in text  # dl.paramcmts: a field list
    assert "Inherited from" not in text and "Ungrouped" not in text  # the views a script fills: headings over nothing
    assert text.endswith("### Iteration Helpers\n\nThese enable collections-like operations.")


_PDOC3 = (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    '<meta name="generator" content="pdoc3 0.11.6">\n'
    "<title>boltons.iterutils API documentation</title>\n</head>\n<body>\n<main>\n<article id=\"content\">\n"
    '<header>\n<h1 class="title">Module <code>boltons.iterutils</code></h1>\n</header>\n<section id="section-intro">\n'
    "<p>iterutils fills many of those gaps.</p>\n</section>\n<section>\n"
    '<h2 class="section-title" id="header-functions">Functions</h2>\n<dl>\n'
    '<dt id="boltons.iterutils.chunked"><code class="name flex">\n<span>def <span class="ident">chunked</span></span>'
    "(<span>src, size, count=None, **kw)</span>\n</code></dt>\n<dd>\n<details class=\"source\">\n<summary>\n"
    "<span>Expand source code</span>\n</summary>\n"
    "<pre><code class=\"python\">def chunked(src, size, count=None, **kw):\n"
    "    &#34;&#34;&#34;Returns a list of *count* chunks.&#34;&#34;&#34;\n    return list(chunk_iter)</code></pre>\n"
    '</details>\n<div class="desc"><p>Returns a list of <em>count</em> chunks.</p></div>\n</dd>\n</dl>\n</section>\n'
    "</article>\n</main>\n</body>\n</html>\n"
)


def test_a_pdoc3_page_does_not_read_its_members_source() -> None:
    """pdoc3 writes each member's source before its docstring, hidden until "Expand source code"
    (``details.source``): every function's first passage was its code, its docstring a second time in it."""
    text = parse_html(_PDOC3).text
    assert "Expand source code" not in text and "return list(chunk_iter)" not in text
    assert "def chunked(src, size, count=None, **kw)\n\nReturns a list of count chunks." in text
    assert text.count("Returns a list of") == 1


_TYPEDOC = (
    '<!doctype html>\n<html class="minimal no-js">\n<head>\n\t<meta charset="utf-8">\n'
    "\t<title>DAPLink | DAPjs API Documentation</title>\n</head>\n<body>\n<header>\n"
    '\t<div class="tsd-page-toolbar"><div class="container"><div class="table-wrap">'
    '<div class="table-cell" id="tsd-search"><a href="../index.html" class="title">DAPjs API Documentation</a>'
    "</div></div></div></div>\n</header>\n"
    '<div class="container container-main">\n<div class="content-wrap">\n'
    '<section class="tsd-panel tsd-comment"><div class="tsd-comment tsd-typography"><div class="lead">'
    "<p>DAPLink Class</p></div></div></section>\n"
    '<section class="tsd-panel-group tsd-index-group">\n<h2>Index</h2>\n<section class="tsd-panel tsd-index-panel">'
    '<div class="tsd-index-content">\n<section class="tsd-index-section tsd-is-inherited">\n<h3>Methods</h3>\n'
    '<ul class="tsd-index-list"><li class="tsd-kind-method"><a href="daplink.html#flash" class="tsd-kind-icon">flash'
    "</a></li></ul>\n</section>\n</div></section>\n</section>\n"
    '<section class="tsd-panel-group tsd-member-group ">\n<h2>Methods</h2>\n'
    '<section class="tsd-panel tsd-member tsd-kind-method tsd-parent-kind-class">\n'
    '<a name="flash" class="tsd-anchor"></a>'
    "\n<h3>flash</h3>\n"
    '<ul class="tsd-signatures tsd-kind-method"><li class="tsd-signature tsd-kind-icon">flash(buffer: BufferSource,'
    " pageSize?: number): Promise&lt;void&gt;</li></ul>\n"
    '<ul class="tsd-descriptions"><li class="tsd-description">'
    '<div class="tsd-comment tsd-typography"><div class="lead">'
    '<p>Flash the target</p></div></div>\n<h4 class="tsd-parameters-title">Parameters</h4>\n'
    '<ul class="tsd-parameters">\n<li>\n<h5>buffer: <span class="tsd-signature-type">BufferSource</span></h5>\n'
    '<div class="tsd-comment tsd-typography"><div class="lead"><p>The image to flash</p></div></div>\n</li>\n<li>\n'
    '<h5><span class="tsd-flag ts-flagDefault value">Default value</span> pageSize: number</h5>\n'
    '<div class="tsd-comment tsd-typography"><div class="lead"><p>The page size to use</p></div></div>\n</li>\n</ul>\n'
    '<h4 class="tsd-returns-title">Returns Promise&lt;void&gt;</h4>\n</li></ul>\n</section>\n</section>\n'
    "</div></div>\n</body>\n</html>\n"
)


def test_an_old_typedoc_page_is_titled_without_the_site_and_reads_parameters_as_items() -> None:
    """TypeDoc before 0.20: no ``h1``, the ``<title>`` "DAPLink | DAPjs API Documentation" titled the page; each
    parameter an ``h5``, a section of its own ("flash > Parameters > buffer: BufferSource"); the index's groups
    ("Index > Methods") sections beside the members' ("Methods"): "Index" holds them as text."""
    document = parse_html(_TYPEDOC)
    assert document.title == "DAPLink"
    headings = [line for line in document.text.splitlines() if line.startswith("#")]
    assert headings == ["## Index", "## Methods", "### flash", "#### Parameters", "#### Returns Promise<void>"]
    assert "- buffer: BufferSource\n    The image to flash\n  - Default value pageSize: number" in document.text
    assert "## Index\n\nMethods\n\n- flash" in document.text


def test_a_pdoc3_class_holds_its_methods() -> None:
    """pdoc3 heads a class's groups (``h3`` "Ancestors", "Methods") at the level of the class's own term section (an
    ``h3``'s, one below "Classes"): "Methods" stood beside its class, boltons' ``LRI.clear`` under "Classes >
    Methods"."""
    klass = (
        '<dt id="boltons.cacheutils.LRI"><code class="flex name class">\n<span>class <span class="ident">LRI</span>'
        "</span>\n<span>(</span><span>max_size=128, values=None, on_miss=None)</span>\n</code></dt>\n<dd>\n"
        '<div class="desc"><p>The LRI implements the basic Least Recently Inserted strategy.</p></div>\n'
        '<h3>Ancestors</h3>\n<ul class="hlist"><li>builtins.dict</li></ul>\n<h3>Methods</h3>\n<dl>\n'
        '<dt id="boltons.cacheutils.LRI.clear"><code class="name flex">\n<span>def <span class="ident">clear</span>'
        "</span>(<span>self)</span>\n</code></dt>\n<dd>\n<div class=\"desc\"><p>" + "Clear the cache. " * 400
        + "</p></div>\n</dd>\n</dl>\n</dd>\n"
    )
    page = _PDOC3.replace('id="header-functions">Functions</h2>', 'id="header-classes">Classes</h2>').replace(
        '<dl>\n<dt id="boltons.iterutils.chunked">', "<dl>\n" + klass + '<dt id="boltons.iterutils.chunked">')
    sections = {section.heading: section for section in parse_html(page).sections}
    lri = "class LRI (max_size=128, values=None, on_miss=None)"
    assert sections[lri].level == 3
    assert sections["Methods"].level == 4 and sections["Methods"].parent == list(sections).index(lri)
    assert sections["Ancestors"].level == 4
