"""Doxygen 1.9.4 and rustdoc 1.63 pages as Debian bookworm ships them (libglfw3-doc 3.3.8, cargo-doc's
quote and proc_macro2), the faults a new user met (task U4): each a small fixture of the generator's shape."""

from __future__ import annotations

from clew.corpus.ingest.api import prepare_source
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.prepare import ChunkingConfig
from clew.corpus.ingest.sources import Source

DOXYGEN_HEAD = '<head><meta name="generator" content="Doxygen 1.9.4"/><title>GLFW: Getting started</title></head>'
CARD = ('<div class="ttc" id="agroup__input_html_ga1caf18159767e761185e49a3be019f8d"><div class="ttname">'
        '<a href="group__input.html#ga1caf18159767e761185e49a3be019f8d">glfwSetKeyCallback</a></div>'
        '<div class="ttdeci">GLFWkeyfun glfwSetKeyCallback(GLFWwindow *window, GLFWkeyfun callback)</div>'
        '<div class="ttdoc">Sets the key callback.</div><div class="ttdef"><b>Definition:</b> glfw3.h:4781</div></div>')


def blocks(html: str) -> list[str]:
    document = parse_html(html)
    return [document.text[b.start:b.end] for b in document.blocks]


def test_a_doxygen_code_links_hover_card_is_chrome() -> None:
    """Doxygen writes, after a code block, a hover card (``div.ttc``) for each linked name in it: the
    member's name, declaration, brief and definition's file and line. It was read as a paragraph after the
    code (23 cards on GLFW's quick_guide.html, 66 on window_guide.html); the linked page holds that text."""
    body = ('<div class="headertitle"><div class="title">Getting started</div></div><div class="contents">'
            '<div class="fragment"><div class="line"><a class="code hl_function" href="group__input.html#ga1c">'
            'glfwSetKeyCallback</a>(window, key_callback);</div></div><!-- fragment -->'
            f'<p>The callback function receives the keyboard key.</p>{CARD}</div>')
    assert blocks(f"{DOXYGEN_HEAD}<body>{body}</body>") == [
        "# Getting started", "```\nglfwSetKeyCallback(window, key_callback);\n```",
        "The callback function receives the keyboard key."]
    # a page that names no generator keeps the div's text
    assert "Sets the key callback." in parse_html(f"<body>{body}</body>").text


def test_a_doxygen_fragment_is_code_one_line_per_div_line() -> None:
    """Doxygen writes a code block as ``div.fragment`` of ``div.line`` (a blank line ``<div class="line"> </div>``),
    one per source line: each line was a paragraph of its own (GLFW's quick_guide.html: 302 blocks, 229 with the
    hover cards dropped, 93 now). A source listing's line numbers (``span.lineno``) are chrome."""
    fragment = ('<div class="fragment"><div class="line"><span class="keywordtype">int</span> width, height;</div>\n'
                '<div class="line"> </div>\n<div class="line">'
                '<a class="code hl_function" href="group__window.html#ga0e">glfwGetFramebufferSize</a>'
                '(window, &amp;width, &amp;height);</div>\n</div><!-- fragment -->')
    assert blocks(f"{DOXYGEN_HEAD}<body><p>Get the size.</p>{fragment}<p>Then draw.</p></body>") == [
        "Get the size.", "```\nint width, height;\n \nglfwGetFramebufferSize(window, &width, &height);\n```",
        "Then draw."]
    listing = ('<div class="fragment"><div class="line"><a id="l00001" name="l00001"></a>'
               '<span class="lineno">    1</span><span class="comment">/* GLFW 3.3 */</span></div>\n'
               '<div class="line"><a id="l00002" name="l00002"></a><span class="lineno">    2</span>'
               '<span class="preprocessor">#ifndef _glfw3_native_h_</span></div>\n</div>')
    assert blocks(f"{DOXYGEN_HEAD}<body>{listing}</body>") == ["```\n/* GLFW 3.3 */\n#ifndef _glfw3_native_h_\n```"]
    # without the generator tag a div.fragment is no code block
    assert blocks(f"<body>{fragment}</body>")[0] == "int width, height;"


SEARCH_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title></title>
<meta name="generator" content="Doxygen 1.9.4"/><script type="text/javascript" src="groups_8.js"></script></head>
<body class="SRPage"><div id="SRIndex"><div class="SRStatus" id="Loading">Loading...</div><div id="SRResults"></div>
<script type="text/javascript">createResults();</script>
<div class="SRStatus" id="Searching">Searching...</div><div class="SRStatus" id="NoMatches">No Matches</div>
<script type="text/javascript">var searchResults = new SearchResults("searchResults");</script></div></body></html>"""


def test_a_doxygen_search_page_holds_no_text_and_is_skipped() -> None:
    """Doxygen's ``search/*.html`` pages (62 in GLFW's manual) hold only the search box's status words
    (``div.SRStatus``) and scripts; they were ingested as untitled one-passage documents. Now they read
    as no text, which ingest skips as it skips any empty page."""
    assert parse_html(SEARCH_PAGE).text == ""
    documents, problems = prepare_source(Source("search/groups_8.html", "/x/search/groups_8.html", "html",
                                                SEARCH_PAGE), ChunkingConfig(220, False))
    assert documents == []
    assert [p.message for p in problems] == ["no text content after parsing"]
    # search/nomatches.html names no generator: its status line is chrome all the same
    assert parse_html('<head><title></title></head><body class="SRPage"><div id="SRIndex">'
                      '<div class="SRStatus" id="NoMatches">No Matches</div></div></body>').text == ""


RUSTDOC_163 = """<head><meta name="generator" content="rustdoc"><title>quote_spanned in quote - Rust</title></head>
<body class="rustdoc macro"><section id="main-content" class="content"><div class="main-heading">
<h1 class="fqn"><span class="in-band">Macro <a href="index.html">quote</a>::<wbr><a class="macro"
 href="#">quote_spanned</a>
<button id="copy-path" onclick="copy_path(this)" title="Copy item path to clipboard"><img src="../clipboard.svg"
 alt="Copy item path"></button></span></h1><span class="out-of-band"><a class="srclink"
 href="../src/quote/lib.rs.html#612-616">source</a> · <a id="toggle-all-docs" href="javascript:void(0)"
 title="collapse all docs">[<span class="inner">&#x2212;</span>]</a></span></div>
<div class="docblock item-decl"><div class="example-wrap"><pre class="rust macro"><code>macro_rules! quote_spanned {
    ($span:expr=&gt; $($tt:tt)*) =&gt; { ... };
}</code></pre></div></div><details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand
 description</span></summary><div class="docblock"><p>Same as <code>quote!</code>, but applies a given span.</p>
</div></details></section></body>"""


def test_rustdoc_163s_source_and_collapse_links_beside_the_title_are_chrome() -> None:
    """rustdoc 1.63 writes "source · [−]" (the source link and the collapse-all toggle) in
    ``span.out-of-band`` beside the item's title: the first passage of each item page began with it."""
    assert blocks(RUSTDOC_163) == [
        "# Macro quote::quote_spanned",
        "```\nmacro_rules! quote_spanned {\n    ($span:expr=> $($tt:tt)*) => { ... };\n}\n```",
        "Same as quote!, but applies a given span."]


def test_a_doxygen_files_link_to_its_source_is_chrome() -> None:
    """A file's page (libstdc++-12-doc's stdlib.h) opens with "Go to the source code of this file.", a paragraph of one
    link to the source page that ingest leaves out (704 of the package's pages, task S1). A page that names no
    generator keeps it."""
    body = ('<div class="header"><div class="headertitle"><div class="title">stdlib.h File Reference</div></div>'
            '</div><!--header-->\n<div class="contents">\n\n<p><a href="a00002_source.html">Go to the source code of '
            'this file.</a></p>\n<a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2>'
            '<div class="textblock"><p>This is a Standard C++ Library header.</p></div></div>')
    assert blocks(f"{DOXYGEN_HEAD}<body>{body}</body>")[1:] == [
        "## Detailed Description", "This is a Standard C++ Library header."]
    assert "Go to the source code of this file." in parse_html(f"<body>{body}</body>").text


def test_a_doxygen_graphs_caption_is_chrome() -> None:
    """Doxygen writes each graph (a header's include graph and its includers, a directory's dependencies, a class's
    collaboration diagram) as an image under a caption (``div.dynheader``) that the page shows over it. The image is
    left out, and its caption was read as a paragraph alone: "Include dependency graph for xkbcommon.h:" and "This
    graph shows which files directly or indirectly include this file:" in the first passage of libxkbcommon-doc's
    header pages (task E12, evals/doxygen-docs). A page that names no generator keeps it."""
    graph = ('<div class="dynheader">\nInclude dependency graph for xkbcommon.h:</div>\n<div class="dyncontent">\n'
             '<div class="center"><img src="xkbcommon_8h__incl.png" border="0" usemap="#a" alt=""/></div>\n'
             '<map name="a" id="a">\n<area shape="rect" title="Main libxkbcommon API." alt="" coords="181,5,431,32"/>\n'
             '</map>\n</div>')
    body = ('<div class="header"><div class="headertitle"><div class="title">xkbcommon.h File Reference</div></div>'
            '</div><!--header-->\n<div class="contents">\n<div class="textblock"><code>#include &lt;stdint.h&gt;</code>'
            f'<br/>\n</div><div class="textblock">{graph}</div>\n<h2 class="groupheader">Detailed Description</h2>'
            '<div class="textblock"><p>Main libxkbcommon API.</p></div></div>')
    assert blocks(f"{DOXYGEN_HEAD}<body>{body}</body>") == [
        "# xkbcommon.h File Reference", "#include <stdint.h>", "## Detailed Description", "Main libxkbcommon API."]
    assert "Include dependency graph for xkbcommon.h:" in parse_html(f"<body>{body}</body>").text
