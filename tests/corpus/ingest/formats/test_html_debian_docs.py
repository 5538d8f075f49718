"""Pages of Debian bookworm's documentation packages that tasks S2's and S3's sweeps found read wrong: BoostBook's
(libboost1.81-doc 1.81.0), numpydoc's under Sphinx (python-scipy-doc 1.10.1), texi2html's, DocBook's callouts;
Django's Sphinx theme, haproxy-dconv, Exim's, Apache's and FFmpeg's manuals (S3), each a small fixture of the
generator's shape."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

HEADER = """<table cellpadding="2" width="100%"><tr>
<td valign="top"><img alt="Boost C++ Libraries" width="277" height="86" src="../../boost.png"></td>
<td align="center"><a href="../../index.html">Home</a></td>
<td align="center"><a href="../../libs/libraries.htm">Libraries</a></td>
<td align="center"><a href="http://www.boost.org/users/people.html">People</a></td>
<td align="center"><a href="http://www.boost.org/users/faq.html">FAQ</a></td>
<td align="center"><a href="../../more/index.htm">More</a></td>
</tr></table>
<hr>
"""
ENTRY = """<div class="refentry">
<a name="Assignable"></a><div class="titlepage"></div>
<div class="refnamediv">
<h2><span class="refentrytitle">Concept Assignable</span></h2>
<p>Assignable</p>
</div>
<div class="refsect1">
<a name="id-1.3.47.3.4.3"></a><h2>Description</h2>
<p>Assignable types must have copy constructors,
    <code class="computeroutput">operator=</code> for assignment.</p>
</div>
</div>
"""
FOOTER = """<table xmlns:rev="http://www.cs.rpi.edu/~gregod/boost/tools/doc/revision" width="100%"><tr>
<td align="left"></td>
<td align="right"><div class="copyright-footer">Copyright &#169; 2001, 2002 Indiana University<br>Copyright &#169; 2000
 Jeremy Siek, Lie-Quan Lee, Andrew Lumsdaine<p>
      Distributed under the Boost Software License, Version 1.0. (See accompanying file <code class="filename">
      LICENSE_1_0.txt</code> or copy at
      <a href="http://www.boost.org/LICENSE_1_0.txt" target="_top">http://www.boost.org/LICENSE_1_0.txt</a>)
      </p>
</div></td>
</tr></table>
"""
HEAD = """<head><title>Concept Assignable</title>
<link rel="stylesheet" href="../../doc/src/boostbook.css" type="text/css">
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"></head>"""


def blocks(html: str) -> list[str]:
    document = parse_html(html)
    return [document.text[b.start : b.end] for b in document.blocks]


def test_boosts_link_bar_and_copyright_footer_are_chrome() -> None:
    """Every BoostBook page opens with Boost's logo and the links Home, Libraries, People, FAQ, More in a table
    without a class (3,904 of 3,904 pages), and ends with its copyright and license in ``div.copyright-footer`` (a
    paragraph on 559 of the 659 pages swept). The link bar was the first passage's first lines, the license a
    paragraph of each page's last passage."""
    assert blocks(f"{HEAD}<body>{HEADER}{ENTRY}{FOOTER}</body>") == [
        "# Concept Assignable",
        "Assignable",
        "## Description",
        "Assignable types must have copy constructors, operator= for assignment.",
    ]


def test_a_link_table_without_boosts_logo_is_read() -> None:
    """A table of the same links under another logo is the page's own and stays."""
    other = HEADER.replace("Boost C++ Libraries", "Our project")
    assert "Libraries" in parse_html(f"{HEAD}<body>{other}{ENTRY}</body>").text


NUMPYDOC = """<head><title>scipy.linalg.solve &#8212; SciPy v1.10.1 Manual</title></head><body><main><article>
<section id="scipy-linalg-solve"><h1>scipy.linalg.solve</h1>
<dl class="py function"><dt class="sig sig-object py" id="scipy.linalg.solve"><span class="sig-prename descclassname">
<span class="pre">scipy.linalg.</span></span><span class="sig-name descname"><span class="pre">solve</span></span></dt>
<dd><p>Solves the linear equation set a @ x == b.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt><dd class="field-odd">
<dl><dt><strong>a</strong><span class="classifier">(N, N) array_like</span></dt><dd><p>Square input data</p></dd>
<dt><strong>lower</strong><span class="classifier">bool, default: False</span></dt><dd><p>Ignored if assume_a is 'gen'.
</p></dd></dl></dd></dl></dd></dl></section></article></main></body>"""


def test_a_numpydoc_parameters_type_is_apart_from_its_name() -> None:
    """numpydoc writes a parameter's name and its type side by side, ``<strong>a</strong><span
    class="classifier">(N, N) array_like</span>``, the style sheet drawing " : " between them (docutils' HTML5
    writer, Sphinx's basic.css ``.classifier:before``). Each read as one word, "a(N, N) array_like", "lowerbool,
    default: False": on every one of the 841 scipy.linalg pages swept with parameters."""
    text = parse_html(NUMPYDOC).text
    assert "a : (N, N) array_like\n\nSquare input data" in text
    assert "lower : bool, default: False" in text


def callouts(mark_one: str, mark_two: str) -> str:
    return (
        '<body><h1>Virtualization</h1><pre class="screen">virt-install --connect qemu:///system'
        '<a id="virtinst.connect"></a>\n  --name testkvm</pre>'
        '<div class="calloutlist"><table border="0" summary="Callout list"><tr><td width="5%" valign="top"'
        f' align="left"><p>{mark_one} </p></td><td valign="top" align="left"><div class="para">The --connect option'
        ' specifies the hypervisor to use.</div></td></tr><tr><td width="5%" valign="top" align="left">'
        f'<p>{mark_two} </p></td><td valign="top" align="left"><p>The --name option names the machine.</p>'
        "</td></tr></table></div></body>"
    )


def test_a_docbook_callout_list_is_a_numbered_list() -> None:
    """DocBook XSL writes a callout list (the notes keyed to marks in the example above it) as a table whose summary
    is "Callout list", each row the mark, "(1)" or an image of it, beside its note: Publican's Debian Administrator's
    Handbook (4 of 127 pages), BoostBook, PostgreSQL. Each read as a table without a header, "|  | The --connect
    option ...", the image's mark lost; now it is the numbered list Asciidoctor's callouts are read as."""
    images = callouts(
        '<a href="#virtinst.connect"><img class="callout" src="Common_Content/images/1.png" alt="1" /></a>',
        '<a href="#virtinst.name"><img class="callout" src="Common_Content/images/2.png" alt="2" /></a>',
    )
    expected = [
        "# Virtualization",
        "```\nvirt-install --connect qemu:///system\n  --name testkvm\n```",
        "1. The --connect option specifies the hypervisor to use.",
        "2. The --name option names the machine.",
    ]
    assert blocks(images) == expected
    assert blocks(callouts('<a href="#co.one">(1)</a>', '<a href="#co.two">(2)</a>')) == expected
    assert parse_html(images).tables == []
    one = (  # a list of one callout, once a one-row layout table (test_html_tables), is a list too
        '<div class="calloutlist"><table border="0" summary="Callout list"><tr><td width="5%" valign="top">'
        '<p><a href="#co.1">(1)</a> </p></td><td valign="top"><p>The function is discussed later.</p></td>'
        "</tr></table></div>"
    )
    assert blocks(one) == ["1. The function is discussed later."]


TEXI2HTML_NAV = """<table cellpadding="1" cellspacing="1" border="0">
<tr><td valign="middle" align="left">[<a href="gettext_2.html#SEC7" title="Beginning of this chapter or previous
 chapter"> &lt;&lt; </a>]</td>
<td valign="middle" align="left">[<a href="gettext_4.html#SEC17" title="Next chapter"> &gt;&gt; </a>]</td>
<td valign="middle" align="left"> &nbsp; </td>
<td valign="middle" align="left">[<a href="gettext_toc.html#SEC_Top" title="Cover (top) of document">Top</a>]</td>
<td valign="middle" align="left">[<a href="gettext_toc.html#SEC_Contents" title="Table of contents">Contents</a>]</td>
<td valign="middle" align="left">[<a href="gettext_21.html#SEC387" title="Index">Index</a>]</td>
<td valign="middle" align="left">[<a href="gettext_abt.html#SEC_About" title="About (help)"> ? </a>]</td>
</tr></table>
"""
TEXI2HTML_PAGE = f"""<html>
<!-- Created on July, 26 2020 by texi2html 1.78a -->
<head><title>GNU gettext utilities: 3. The Format of PO Files</title>
<meta name="Generator" content="texi2html 1.78a"></head>
<body lang="en">
{TEXI2HTML_NAV}<hr size="2">
<a name="PO-Files"></a><h1 class="chapter"> 3. The Format of PO Files </h1>
<p>The GNU gettext toolset helps programmers and translators at producing PO files.</p>
<hr size="6">
{TEXI2HTML_NAV}<p>
 <font size="-1">
  This document was generated by <em>Bruno Haible</em> on <em>July, 26 2020</em> using
 <a href="https://www.nongnu.org/texi2html/"><em>texi2html 1.78a</em></a>.
 </font>
 <br>

</p>
</body>
</html>"""


def test_texi2htmls_navigation_bars_and_colophon_are_chrome() -> None:
    """texi2html 1.78 (gettext-doc 0.21's manual, 36 pages) writes a bar of bracketed links, "[ << ] [ >> ] [Top]
    [Contents] [Index] [ ? ]", above and below every page in a classless table, and its colophon "This document was
    generated by ... using texi2html 1.78a." at the end, as texi2any's (already left out) is. Each page's first and
    last passages began with the bar's six lines."""
    assert blocks(TEXI2HTML_PAGE) == [
        "# 3. The Format of PO Files",
        "The GNU gettext toolset helps programmers and translators at producing PO files.",
    ]
    # the contents page's bar has no spacer between its links
    spacer = '<td valign="middle" align="left"> &nbsp; </td>\n'
    assert blocks(TEXI2HTML_PAGE.replace(spacer, ""))[0] == "# 3. The Format of PO Files"
    # the same bar on a page that names no texi2html is read
    assert "[Contents]" in parse_html(TEXI2HTML_PAGE.replace("texi2html 1.78a", "mytool")).text


DJANGO = """<html lang="en"><head><title>FAQ: The admin &#8212; Django 3.2.25 documentation</title>
<link rel="stylesheet" type="text/css" href="../_static/default.css" /></head><body>
<div class="document"><div id="custom-doc" class="yui-t6">
<div id="hd"><h1><a href="../index.html">Django 3.2.25 documentation</a></h1>
<div id="global-nav"><a title="Home page" href="../index.html">Home</a>  |
<a title="Table of contents" href="../contents.html">Table of contents</a>  |
<a title="Global index" href="../genindex.html">Index</a>  |
<a title="Module index" href="../py-modindex.html">Modules</a></div>
<div class="nav">&laquo; <a href="models.html" title="FAQ: Databases and models">previous</a> |
<a href="index.html" title="Django FAQ" accesskey="U">up</a> |
<a href="contributing.html" title="FAQ: Contributing code">next</a> &raquo;</div></div>
<div id="bd"><div id="yui-main"><div class="yui-b"><div class="yui-g" id="faq-admin">
<div class="section" id="s-faq-the-admin"><span id="faq-the-admin"></span><h1>FAQ: The admin<a class="headerlink"
 href="#faq-the-admin" title="Permalink to this heading">¶</a></h1>
<div class="section" id="s-some-objects-aren-t-appearing-in-the-admin"><h2>Some objects aren’t appearing in the
 admin.</h2>
<p>Inconsistent row counts may be caused by missing foreign key values.</p>
</div></div></div></div></div>
<div class="yui-b" id="sidebar"><div class="sphinxsidebar" role="navigation" aria-label="main navigation">
<div class="sphinxsidebarwrapper"><div><h4>Previous topic</h4><p class="topless"><a href="models.html"
 title="previous chapter">FAQ: Databases and models</a></p></div></div></div>
<h3>Last update:</h3><p class="topless">Nov 11, 2026</p></div></div>
<div id="ft"><div class="nav">&laquo; <a href="models.html" title="FAQ: Databases and models">previous</a> |
<a href="contributing.html" title="FAQ: Contributing code">next</a> &raquo;</div></div>
</div><div class="clearer"></div></div></body></html>"""


def test_djangos_yui_main_is_the_pages_content() -> None:
    """Django's own Sphinx theme (python-django-doc 3.2.25) lays its pages out on YUI's grid: the banner "Django
    3.2.25 documentation" as an ``h1`` and the links Home | Table of contents | Index | Modules and « previous | up
    | next » in ``div#hd``, the page in ``div#yui-main``, the sidebar's "Last update:" beside it, the links again in
    ``div#ft``. With no ``div.body`` or ``main``, the page was read whole: every one of the 534 pages swept was
    titled with the banner, began with the two link lines and ended with "### Last update:" and the date."""
    document = parse_html(DJANGO)
    assert document.title == "FAQ: The admin"
    assert blocks(DJANGO) == [
        "# FAQ: The admin",
        "## Some objects aren’t appearing in the admin.",
        "Inconsistent row counts may be caused by missing foreign key values.",
    ]
    assert document.links == []


def dconv_keyword(name: str, sections: list[str]) -> str:
    items = "".join(f'<li><a href="#{name}%20%28{s.replace(" ", "%20")}%29">{s}</a></li>' for s in sections)
    return (
        f'<span class="dropdown"><a class="dropdown-toggle" data-toggle="dropdown" href="#">{name}<span class="caret">'
        '</span></a><ul class="dropdown-menu"><li class="dropdown-header">This keyword is available in sections :</li>'
        f"{items}</ul></span>"
    )


def test_haproxys_keyword_menus_are_chrome() -> None:
    """haproxy-dconv (haproxy-doc 2.6's configuration manual) writes a keyword documented in several sections as a
    Bootstrap dropdown: the keyword, then a menu shown on a click, "This keyword is available in sections :" and a
    link to each. Read inline, 473 of them broke the configuration manual's sentences ('The "bind\\nThis keyword is
    available in sections :\\nLog forwarding\\nPeers\\n..." keyword supports'), in its text and its "See also:"
    lines; the menu is left out, the keyword stays."""
    page = (
        '<html><head><title>HAProxy - Configuration Manual</title></head><body><div class="container-fluid">'
        '<div class="page-header"><h2>5.1. Bind options</h2></div><div><pre class="text">The &quot;'
        f"{dconv_keyword('bind', ['Log forwarding', 'Peers'])}&quot; keyword supports a certain number of settings.\n"
        '</pre></div><div class="page-header"><b>See also:</b> &quot;'
        f"{dconv_keyword('crt', ['Bind options', 'Server and default-server options'])}&quot;, "
        '<a href="#5.2">section 5.2</a> about server options.</div></div></body></html>'
    )
    document = parse_html(page)
    assert document.text == (
        '## 5.1. Bind options\n\n```\nThe "bind" keyword supports a certain number of settings.\n```\n\n'
        'See also: "crt", section 5.2 about server options.'
    )
    assert [link.href for link in document.links] == ["#", "#", "#5.2"]  # the keywords link to "#", as written
    # a dropdown menu of other words is read
    assert "Other menu" in parse_html(page.replace("This keyword is available in sections :", "Other menu")).text


EXIM = """<!DOCTYPE html PUBLIC "XSLT-compat">
<html lang="en-GB"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
<meta name="author" content="The Exim Project. &lt;https://www.exim.org/&gt;">
<title>44. Access control lists</title></head>
<body class="no-js"><h1 id="header"><a href="http://www.exim.org">Exim Internet Mailer</a></h1>
<div id="outer"><ul id="nav_flow" class="nav">
<li><a href="https://www.exim.org/index.html">Home</a></li>
<li><a href="https://www.exim.org/mirrors.html">Download</a></li>
<li class="search"><form action="https://encrypted.google.com/search" method="get">
<input type="search" name="q" placeholder="Search Docs Online" class="search_field"></form></li>
</ul>
<div id="inner"><div id="content">
<a class="previous_page" href="ch-encrypted_smtp_connections_using_tlsssl.html">&lt;-previous</a><a class="next_page"
 href="ch-content_scanning_at_acl_time.html">next-&gt;</a><div id="chapter" class="chapter">
<h2 id="CHAPACL" class=""><a href="ch-access_control_lists.html">Chapter 44 - Access control lists</a></h2>
<p>Access Control Lists (ACLs) are defined in a separate section of the runtime configuration file.</p>
</div>
<a class="previous_page" href="ch-encrypted_smtp_connections_using_tlsssl.html">&lt;-previous</a><a class="toc_page"
 href="index.html">Table of Contents</a><a class="next_page" href="ch-content_scanning_at_acl_time.html">next-&gt;</a>
</div></div>
<div id="footer">Website design by <a href="https://www.grepular.com/">Mike Cardwell</a>.</div></div></body></html>"""


def test_exims_site_banner_menu_and_chapter_links_are_chrome() -> None:
    """Exim's specification as HTML (exim4-doc-html 4.96, the exim.org site's layout) opens every page with the
    site's banner, ``<h1 id="header">`` "Exim Internet Mailer", and its menu Home, Download, Documentation, ...
    (``ul#nav_flow``), and puts "<-previous" "next->" links above the chapter and "<-previous" "Table of Contents"
    "next->" below it: on all 136 pages swept, the banner the first heading of each page, over the chapter."""
    document = parse_html(EXIM)
    assert document.title == "44. Access control lists"
    assert blocks(EXIM) == [
        "## Chapter 44 - Access control lists",
        "Access Control Lists (ACLs) are defined in a separate section of the runtime configuration file.",
    ]
    assert [link.href for link in document.links] == ["ch-access_control_lists.html"]
    # the same markup on a page that is not Exim's is read
    assert "Exim Internet Mailer" in parse_html(EXIM.replace("The Exim Project", "Someone")).text


APACHE = """<!DOCTYPE html SYSTEM "about:legacy-compat">
<html lang="en"><head><META http-equiv="Content-Type" content="text/html; charset=UTF-8">
<title>mod_cache - Apache HTTP Server Version 2.4</title></head>
<body><div id="page-header">
<p class="menu"><a href="../mod/index.html">Modules</a> | <a href="../mod/quickreference.html">Directives</a></p>
<p class="apache">Apache HTTP Server Version 2.4</p>
<img alt="" src="../../images/feather.png"></div>
<div class="up"><a href="./index.html"><img title="&lt;-" alt="&lt;-" src="../../images/left.gif"></a></div>
<div id="path">
<a href="https://www.apache.org/">Apache</a> &gt; <a href="https://httpd.apache.org/">HTTP Server</a> &gt; <a
 href="../index.html">Version 2.4</a> &gt; <a href="./index.html">Modules</a></div>
<div id="page-content">
<div id="preamble"><h1>Apache Module mod_cache</h1>
<div class="toplang">
<p><span>Available Languages: </span><a href="../../en/mod/mod_cache.html" title="English">&nbsp;en&nbsp;</a> |
<a href="../../fr/mod/mod_cache.html" hreflang="fr" rel="alternate" title="Fran&ccedil;ais">&nbsp;fr&nbsp;</a></p>
</div>
<h3>Summary</h3>
<p>mod_cache implements an RFC 2616 compliant HTTP content caching filter.</p>
</div>
<div id="quickview"><h3 class="directives">Directives</h3>
<ul id="toc">
<li><img alt="" src="../../images/down.gif"> <a href="#cachelock">CacheLock</a></li>
</ul>
<h3>Bugfix checklist</h3><ul class="seealso"><li><a href="https://www.apache.org/dist/httpd/CHANGES_2.4">httpd
 changelog</a></li></ul><h3>See also</h3>
<ul class="seealso">
<li><a href="../caching.html">Caching Guide</a></li>
</ul></div>
<div class="directive-section"><h2><a name="CacheLock" id="CacheLock">CacheLock</a> <a name="cachelock"
 id="cachelock">Directive</a></h2>
<p>The CacheLock directive enables the thundering herd lock for the given URL space.</p>
</div>
</div>
<div class="bottomlang">
<p><span>Available Languages: </span><a href="../../en/mod/mod_cache.html" title="English">&nbsp;en&nbsp;</a> |
<a href="../../fr/mod/mod_cache.html" hreflang="fr" rel="alternate" title="Fran&ccedil;ais">&nbsp;fr&nbsp;</a></p>
</div><div id="footer">
<p class="apache">Copyright 2025 The Apache Software Foundation.<br>Licensed under the <a
 href="http://www.apache.org/licenses/LICENSE-2.0">Apache License, Version 2.0</a>.</p>
</div></body></html>"""


def test_apaches_header_breadcrumb_languages_and_quickview_are_chrome() -> None:
    """Apache HTTP Server's manual (apache2-doc 2.4) opens every page with "Apache HTTP Server Version 2.4" and its
    menu (``div#page-header``), the breadcrumb "Apache > HTTP Server > ..." (``div#path``) and "Available Languages:
    en | fr" (``div.toplang``, again in ``div.bottomlang`` at the end), and floats a box of the page's directives,
    "Bugfix checklist" and "See also" beside it (``div#quickview``): on all 244 pages swept, the header and the
    breadcrumb were each page's first lines, the languages its last."""
    assert blocks(APACHE) == [
        "# Apache Module mod_cache",
        "### Summary",
        "mod_cache implements an RFC 2616 compliant HTTP content caching filter.",
        "## CacheLock Directive",
        "The CacheLock directive enables the thundering herd lock for the given URL space.",
    ]
    # in another language (six of en/'s pages are Portuguese) too; the same elements on a page not Apache's are read
    assert blocks(APACHE.replace("Apache HTTP Server Version 2.4", "Servidor HTTP Apache Vers&atilde;o 2.4"))[0] == (
        "# Apache Module mod_cache"
    )
    other = APACHE.replace('class="apache"', 'class="name"')
    assert "Available Languages" in parse_html(other).text


FFMPEG = """<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">
<html>
<!-- Created by GNU Texinfo 6.8, https://www.gnu.org/software/texinfo/ -->
  <head><meta charset="utf-8"><title>FFmpeg Filters Documentation</title>
    <link rel="stylesheet" type="text/css" href="bootstrap.min.css"></head>
  <body><div class="container">
<a name="afftfilt"></a>
<h3 class="section">8.22 afftfilt<span class="pull-right"><a class="anchor hidden-xs" href="#afftfilt"
 aria-hidden="true">#</a> <a class="anchor hidden-xs"href="#toc-afftfilt" aria-hidden="true">TOC</a></span></h3>
<p>Apply arbitrary expressions to samples in frequency domain.
</p>
      <p style="font-size: small;">
        This document was generated using <a href="https://www.gnu.org/software/texinfo/"><em>makeinfo</em></a>.
      </p>
    </div>
  </body>
</html>"""


def test_ffmpegs_heading_links_and_colophon_are_chrome() -> None:
    """FFmpeg's manuals (ffmpeg-doc 5.1: Texinfo 6.8 with FFmpeg's page template) end every heading with two links,
    "#" to itself and "TOC" to its contents entry, and every page with "This document was generated using makeinfo."
    in a small font: 5,341 of the 7,162 headings swept read "8.22 afftfilt# TOC"."""
    assert blocks(FFMPEG) == ["### 8.22 afftfilt", "Apply arbitrary expressions to samples in frequency domain."]
    # the same links on a page Texinfo did not write are read
    assert "TOC" in parse_html(FFMPEG.replace("Created by GNU Texinfo", "Created by hand")).text


POSTFIX = """<!doctype html public "-//W3C//DTD HTML 4.01 Transitional//EN"
        "http://www.w3.org/TR/html4/loose.dtd">
<html> <head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title> Postfix manual - access(5) </title>
</head> <body> <pre>
ACCESS(5)                                                            ACCESS(5)

<b>NAME</b>
       access - Postfix SMTP server access table

<b>SYNOPSIS</b>
       <b>postmap /etc/postfix/access</b>

<b>DESCRIPTION</b>
       This  document  describes access control on remote SMTP client informa-
       tion. See <a href="header_checks.5.html"><b>header_checks</b>(5)</a>.

          <b>Postfix 2.0 and later:</b>
              The table is searched for the address.

                                                                     ACCESS(5)
</pre> </body> </html>
"""


def test_a_man_page_as_nroffs_output_in_one_pre_has_its_sections() -> None:
    """Postfix's man pages as HTML (postfix-doc 3.7, 76 pages) are nroff's output in one ``pre``: the header line
    "ACCESS(5) ... ACCESS(5)", each section's name in bold at the left margin, its text indented under it, and the
    footer line. Read as one code block, no page had a section, and 6 were one passage over 5,000 tokens. Each name
    is now a heading over its text, a code block as nroff laid it out, without the page's header and footer lines."""
    document = parse_html(POSTFIX)
    assert document.title == "Postfix manual - access(5)"
    assert [section.heading for section in document.sections[1:]] == ["NAME", "SYNOPSIS", "DESCRIPTION"]
    assert blocks(POSTFIX) == [
        "## NAME",
        "```\naccess - Postfix SMTP server access table\n```",
        "## SYNOPSIS",
        "```\npostmap /etc/postfix/access\n```",
        "## DESCRIPTION",
        "```\nThis  document  describes access control on remote SMTP client informa-\ntion. See header_checks(5).\n\n"
        "   Postfix 2.0 and later:\n       The table is searched for the address.\n```",
    ]
    assert [link.href for link in document.links] == ["header_checks.5.html"]
    # a pre that does not open with a man page's header line is one code block
    assert len(blocks(POSTFIX.replace("ACCESS(5)      ", "Access table   "))) == 1


VIM = """<HTML>
<HEAD>
<META HTTP-EQUIV="Content-type" content="text/html; charset=ISO-8859-1">
<TITLE>Vim documentation: change</TITLE>
</HEAD>
<BODY BGCOLOR="#ffffff">
<H1>Vim documentation: change</H1>
<A NAME="top"></A>
<A HREF="index.html">main help file</A>

<HR>
<PRE>

*<A NAME="change.txt"></A><B>change.txt</B>*    For Vim version 9.0.  Last change: 2023 Feb 27

This file describes commands that delete or change text.

==============================================================================
1. Deleting text\t\t\t\t\t*<A NAME="deleting"></A><B>deleting</B>* *<A NAME="E470"></A><B>E470</B>*

["x]x\t\t\tDelete [count] characters under and after the cursor.

==============================================================================
<A HREF="#top">top</A> - <A HREF="index.html">main help file</A>
</PRE>
</BODY>
</HTML>
"""


def test_vims_help_is_parted_at_its_rules() -> None:
    """Vim's help as HTML (vim-doc 9.0, vim2html) is each help file in one ``pre``: sections begin at a rule of
    ``=`` signs, then a line with the section's title and its tags ("*deleting* *E470*", anchors). Read as one code
    block, 73 of its 152 pages were one passage over 5,000 tokens, and the links "main help file" and "top - main
    help file" were lines of every page."""
    document = parse_html(VIM)
    assert [section.heading for section in document.sections[1:]] == ["Vim documentation: change", "1. Deleting text"]
    assert blocks(VIM) == [
        "# Vim documentation: change",
        "```\n*change.txt*    For Vim version 9.0.  Last change: 2023 Feb 27\n\n"
        "This file describes commands that delete or change text.\n```",
        "## 1. Deleting text",
        '```\n*deleting* *E470*\n\n["x]x\t\t\tDelete [count] characters under and after the cursor.\n```',
    ]
    assert {"deleting", "E470", "change.txt"} <= set(document.anchors)
    assert document.links == []
    # a page whose title is not Vim's keeps its rules in its code block
    assert "=" * 78 in parse_html(VIM.replace("<TITLE>Vim documentation", "<TITLE>Our documentation")).text
