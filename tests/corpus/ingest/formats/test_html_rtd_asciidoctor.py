"""Task U18's trial pages: Sphinx's Read the Docs theme (Scrapy 2.8's manual, Debian's python-scrapy-doc), Sphinx's
alabaster theme (Requests 2.28's, python-requests-doc) and Asciidoctor 2.0.18's html5 backend (kakoune's AsciiDoc
manual). The fixtures are cut from those pages, their markup as the generators wrote it."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.parsed import ParsedDocument


def read(html: str) -> ParsedDocument:
    document = parse_html(html)
    document.check()
    return document


SCRAPY_REQUEST = """\
<html><head><title>Requests and Responses &mdash; Scrapy 2.8.0 documentation</title></head>
<body class="wy-body-for-nav"><div class="wy-nav-content"><div class="rst-content">
<div role="main" class="document"><div itemprop="articleBody">
<section id="requests-and-responses"><h1>Requests and Responses</h1>
<dl class="py class"><dt class="sig sig-object py" id="scrapy.http.Request">
<em class="property"><span class="pre">class</span> </em><span class="sig-prename descclassname"><span
class="pre">scrapy.http.</span></span><span class="sig-name descname"><span class="pre">Request</span></span><span
class="sig-paren">(</span><em class="sig-param"><span class="o"><span class="pre">*</span></span><span class="n"><span
class="pre">args</span></span></em><span class="sig-paren">)</span></dt>
<dd><p>Represents an HTTP request.</p>
<dl class="field-list simple">
<dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><ul class="simple">
<li><p><strong>callback</strong> (<em>Callable</em>) – <p>the function that will be called with the response.</p>
<p>For more information, see the callbacks.</p>
<div class="admonition note">
<p class="admonition-title">Note</p>
<p>If exceptions are raised during processing, <code class="docutils literal notranslate"><span
class="pre">errback</span></code> is
called instead.</p>
</div>
</p></li>
<li><p><strong>method</strong> (<em>str</em>) – the HTTP method of this request.</p></li>
<li><p><strong>headers</strong> (<em>dict</em>) – <p>the headers of this request.</p>
<blockquote>
<div><div class="admonition caution">
<p class="admonition-title">Caution</p>
<p>Cookies set via the <code class="docutils literal notranslate"><span class="pre">Cookie</span></code> header
are not considered.</p>
</div>
</div></blockquote>
</p></li>
<li><p><strong>flags</strong> (<em>list</em>) – <p>Flags sent to the request.</p>
<div class="admonition note">
<p class="admonition-title">Note</p>
<ul><li><p>one</p></li><li><p>two</p></li></ul>
</div>
</p></li>
</ul>
</dd>
</dl>
</dd></dl>
</section></div></div></div></div></body></html>"""


def test_an_admonition_inside_a_list_item_is_the_item_s_line_with_its_label_first() -> None:
    document = read(SCRAPY_REQUEST)
    assert ("- callback (Callable) –\n  the function that will be called with the response.\n"
            "  For more information, see the callbacks.\n"
            "  Note: If exceptions are raised during processing, errback is called instead.\n"
            "- method (str) – the HTTP method of this request.\n"
            "- headers (dict) –\n  the headers of this request.\n"
            "  Caution: Cookies set via the Cookie header are not considered.\n"
            "- flags (list) –\n  Flags sent to the request.\n") in document.text
    assert document.text.count("\nNote\n") == 1 and "\nCaution\n" not in document.text  # the last one's
    lines = [document.text[b.start:b.end] for b in document.blocks if b.kind == "list_item"]
    assert "  Note: If exceptions are raised during processing, errback is called instead." in lines
    # an admonition whose first block is a nested list keeps its label a line of its own above the list
    assert document.text.endswith("  Flags sent to the request.\n\nNote\n\n  - one\n  - two")


KAKOUNE_COMMANDS = """\
<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="generator" content="Asciidoctor 2.0.18">
<title>Commands</title></head>
<body class="article"><div id="header"><h1>Commands</h1></div>
<div id="content"><div class="sect1"><h2 id="_files_and_buffers">Files and Buffers</h2>
<div class="sectionbody"><div class="hdlist"><div class="dlist"><dl>
<dt class="hdlist1"><strong>arrange-buffers</strong> &lt;buffer&gt;&#8230;&#8203;</dt>
<dd><p>Reorder the buffers in the buffers list.</p></dd>
<dt class="hdlist1"><strong>echo</strong> [&lt;switches&gt;] &lt;text&gt;&#8230;&#8203;</dt>
<dd><p>show text in status line, as in <code>%sh{&#8230;&#8203;}</code>; an em dash&#8212;&#8203;a break</p></dd>
</dl></div></div></div></div></div></body></html>"""


def test_asciidoctor_s_zero_width_space_after_an_ellipsis_or_an_em_dash_is_taken_out() -> None:
    document = read(KAKOUNE_COMMANDS)
    assert "\u200b" not in document.text
    assert "arrange-buffers <buffer>…\n\nReorder the buffers in the buffers list." in document.text
    assert "show text in status line, as in %sh{…}; an em dash—a break" in document.text


REQUESTS_API = """\
<html><head><meta name="generator" content="Docutils 0.17.1: http://docutils.sourceforge.net/" />
<title>Developer Interface &#8212; Requests 2.28.1 documentation</title>
<link rel="stylesheet" href="_static/alabaster.css" type="text/css" /></head>
<body><div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="developer-interface"><h1>Developer Interface</h1>
<dl class="py function"><dt class="sig sig-object py" id="requests.head"><span class="sig-prename descclassname"><span
class="pre">requests.</span></span><span class="sig-name descname"><span class="pre">head</span></span><span
class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">url</span></span></em><span
class="sig-paren">)</span></dt>
<dd><p>Sends a HEAD request.</p>
<dl class="field-list simple">
<dt class="field-odd">Parameters</dt>
<dd class="field-odd"><ul class="simple">
<li><p><strong>url</strong> – URL for the new <code class="xref py py-class docutils literal notranslate"><span
class="pre">Request</span></code> object.</p></li>
<li><p><strong>**kwargs</strong> – Optional arguments that <code class="docutils literal notranslate"><span
class="pre">request</span></code> takes.</p></li>
</ul>
</dd>
<dt class="field-even">Returns</dt>
<dd class="field-even"><p><code class="xref py py-class docutils literal notranslate"><span
class="pre">Response</span></code> object</p>
</dd>
</dl>
</dd></dl>
</section></div></div></div></div></body></html>"""


def test_a_field_s_name_over_its_list_ends_with_a_colon_as_over_its_line() -> None:
    document = read(REQUESTS_API)
    assert document.title == "Developer Interface"
    assert ("Sends a HEAD request.\n\nParameters:\n\n- url – URL for the new Request object.\n"
            "- **kwargs – Optional arguments that request takes.\n\nReturns: Response object") in document.text
