"""Chrome of the Ruby documentation generators, for ``html_rules._dropped_class`` (task R4, issue 36): YARD and
RDoc (its Darkfish theme), as Debian ships their pages (ruby-cri-doc and ruby-mocha-doc; ruby-rubymail-doc and
ruby-tioga-doc); and the pages made into the HTML the reader reads well before they are parsed
(:func:`restructured`: man pages by groff and man2html, ``html_man``; RDoc's method headings; task R6: Texinfo's
and HeVeA's colophons, Texinfo's footnotes, the pages of Erlang/OTP, docutils, ocamldoc, odoc, pydoctor, GitBook, YODL,
the Go project, Org mode's subtitle and pandoc's title block).
docs/measurements/generators-2026-12-06.md has what was checked.
"""

from __future__ import annotations

import json
import re
from html import escape as html_escape
from html import unescape as html_unescape

from clew.corpus.ingest.formats.html_diff import diff_marks
from clew.corpus.ingest.formats.html_docbook import docbook_index_dropped
from clew.corpus.ingest.formats.html_hugo import TOC as HUGO_TOC
from clew.corpus.ingest.formats.html_hugo import hugo_page, hugo_theme_chrome, hugo_toc_label
from clew.corpus.ingest.formats.html_jsapi import DOCJS, ESDOC, documentation_js, esdoc
from clew.corpus.ingest.formats.html_link_chrome import link_chrome_dropped
from clew.corpus.ingest.formats.html_man import man_html
from clew.corpus.ingest.formats.html_pkgdown import pkgdown_page
from clew.corpus.ingest.formats.html_titles import ORG, PANDOC, org_title, pandoc_title_block

CHROME_CLASSES = frozenset(
    # YARD 0.9: "collapse" beside each summary's heading ("Instance Method Summary collapse"), "show all" and the
    # whole ancestry it unfolds (hidden until then) in the class's box, a method's source listing with its column
    # of line numbers (hidden until "View source"); 0.9.28's "collapse" beside "Constant Summary" has a class of its
    # own ("Constant Summary collapse" on 37 of yard-doc's pages, task U12)
    "summary_toggle constants_summary_toggle inheritancetree fulltree source_code"
    # RDoc 6 (Darkfish): a method's source listing (hidden until "click to toggle source")
    " method-source-code"
    # TeX4ht (htlatex, a document split into pages): "[next] [tail] [up]" above and below each page's text
    " crosslinks"
    # GitBook 3 (legacy, its default theme): the search box's result templates inside the page's body, two empty
    # h1 headings ('results matching ""', 'No results matching ""') after the page's text (task R6)
    " search-results"
    # JSDoc 4's default template: "Source: budget.js, line 21" under each member, a link into the source page (as
    # TypeDoc's "Defined in", task R7)
    " tag-source"
    # pydata-sphinx-theme before 0.10 (groonga-doc 12.1: Sphinx 5.3): the "previous" / "next" links under the
    # article inside its main, not a footer as later versions write them: "previous Groonga documentation next 2.
    # Install" read as every page's last passage (task U11)
    " prev-next-area".split()
)
"""Chrome classes of these generators, beside ``html_rules.DROP_CLASSES``."""

def more_chrome(classes: list[str]) -> bool:
    """Whether an element of these classes is chrome. (YARD's breadcrumbs: :func:`restructured`.)"""
    return not CHROME_CLASSES.isdisjoint(classes)


_DARKFISH = re.compile(r'<script src="(?:\./|(?:\.\./)+)js/darkfish\.js"')
"""A Darkfish page's script, from its folder's depth: ``./js/`` (a top-level class), ``../js/`` (``RMail/Header.html``),
``../../js/`` (``Benchmark/IPS/Job.html``; a page two folders down was not read as Darkfish's, task U8)."""
_METHOD_HEADING = re.compile(r'<div class="(method-heading[^"]*)">(.*?)</div>', re.DOTALL)
"""RDoc's heading of a method or attribute (``div.method-heading``: ``span.method-name``, ``span.method-args``, the
"click to toggle source" advice), one per ``div.method-detail``, under the heading of its group ("Public Instance
Methods"): not a heading, so every method of a class was one section. An ``h3`` instead, as YARD's
``h3.signature`` is a heading: each method its own section."""
_GROUP = re.compile(r"(<header>\s*)<h3>(.*?)</h3>(\s*</header>)", re.DOTALL)
"""A group's heading ("Constants", "Attributes", "Public Instance Methods"): an ``h3`` after the class's description,
whose own headings are ``h1`` (RDoc markup's ``=``), so that every group was a subsection of the description's last
heading ("Conventions" held RMail::Header's methods). The groups are ``h2``, the description's headings one level
down (``_DESCRIPTION``): the class's ``h1`` holds both."""
_DESCRIPTION = re.compile(r'<section class="description">.*?</section>', re.DOTALL)
_LEVEL = re.compile(r"<(/?)h([1-5])\b")
_TOP_LINK = ' <a href="#top">&uarr;</a>'
"""RDoc's "↑" after every heading of a description (``<h1>Overview<span><a href="#...">¶</a> <a href="#top">↑</a>
</span></h1>``): a link back to the page's top, after which the "¶" was not the heading's last link, and both
stayed ("Overview¶ ↑"); taken out, the "¶" is the trailing permalink every heading loses."""


_LATEX2HTML = "<!--Converted with LaTeX2HTML"
_LATEX2HTML_ABOUT = re.compile(
    r'<H1><A ID="SECTION\d+">\s*About this document \.\.\.</A>\s*</H1>.*?(?=<BR><HR>|</BODY>)', re.DOTALL)
"""LaTeX2HTML's colophon, the last section of every document it converts (unless ``-info 0``): "About this document
..." with the document's title, "This document was generated using the LaTeX2HTML translator Version 2023", the
command line and the date: a section of the page's outline, its own page when the document is split."""


_YARD_FOOTER = 'yardoc.org" title="Yay! A Ruby Documentation Tool"'
_YARD_MENU = re.compile(r'<div id="menu">[^<]*(?:<(?!/?div\b)[^<]*)*</div>')
"""YARD's breadcrumbs above the title ("Index (C) » Cri » Command"): ``div#menu`` (no ``div`` inside it), dropped
on a page whose footer names YARD ("Generated by yard 0.9.24", in its last 1,500 characters): ``menu`` is also
a member's id elsewhere (qdoc's ``h3.fn#menu``), and YARD writes no generator ``meta``."""
_YARD_BOX = re.compile(r"<dl>(?=\s*+<dt>[^<>:]*+:</dt>)")
"""The box under a YARD class's title (``div.box_info``: "Inherits:", "Extended by:", "Includes:", "Defined in:"),
one ``dl`` per term, whose terms and definitions read as paragraphs of their own: an extract quoted "Object" and
"Defined in:" as two lines (yard-doc's Tags::Library, task U12). A field list, as javadoc's notes are ("Inherits:
Object", "Defined in: lib/yard/tags/library.rb")."""
_YARD_TITLE = re.compile(r"<title>\s*+(?:File: )?([^<&]*+(?:&(?!mdash;)[^<&]*+)*+)&mdash;(?:(?!&mdash;)[^<])*+</title>")
"""A YARD page's title names the site after a dash ("File: Tags Overview &mdash; YARD 0.9.28 Documentation", the
class pages "Class: Cri::Command &mdash; Documentation by YARD 0.9.24"): a class page is titled by its ``h1``, but
the 14 extra files of yard-doc 0.9.28 (its guides, README, CHANGELOG) were titled so in ``clew ls``, the outline and
every hit, cut at 80 columns before their names. The name YARD gives the file (its ``@title``, else the file's
name) instead: "Tags Overview", "Getting Started Guide", "README" (task U12)."""


_YARD_LIST = re.compile(r'<link rel="stylesheet" href="css/full_list\.css"')
_YARD_LIST_BODY = re.compile(r"<body\b.*", re.DOTALL | re.IGNORECASE)
"""YARD's lists for its side frame (``class_list.html``, ``method_list.html``, ``file_list.html``, ``tag_list.html``:
``css/full_list.css``, ``ul#full_list``, loaded in the ``iframe`` of every page): read as documents, "Method List"
of yard-doc 0.9.28 73 passages of "print_undocumented_objects YARD::CLI::Stats / print YARD::Logger / ...", quoted
in an answer on undocumented objects (task U12). Navigation, as EDoc's frame of modules: the page is skipped as
empty."""


_TEXINFO = re.compile(r'<meta name="generator" content="(?:texi2any|makeinfo|texi2html)', re.IGNORECASE)
_TEXINFO_FOOTER = re.compile(
    r"<p>\s*<(font|small|span)\b[^>]*>\s*This document was generated\b[^<]*(?:<(?!/?p\b)[^<]*){0,12}?</\1>"
    r"\s*(?:<br>\s*)?</p>"
    r'(?:\s*<font size="-1">[^<]*</font>(?=\s*</body>))?')
"""Texinfo's colophon at the end of every page (``texi2any -c PROGRAM_NAME_IN_FOOTER=1``): "This document was
generated on *date* using texi2any." in ``p > font`` (texi2any 6.8, texi2html's then a ``br``; a ``span`` in
texi2any 7), the last passage (task R6); with the small print a manual's own configuration puts right after it, at
the page's end (Debian's zsh-doc: "Zsh version 5.9, released on May 14, 2022.", on the same 35 pages)."""
_TEXINFO_LETTERS = re.compile(r'<table><tr><th valign="top">Jump to: &nbsp; </th>(?:[^<]|<(?!/?table\b))*+</table>')
"""The letters above and below a Texinfo 6 index ("Jump to: ! + < _ A B C ..."; texi2any 7 classes the table
``cp-letters-header-printindex``, inside the ``div.printindex`` dropped): links into the index, which is chrome
(``html_generators.GENERATOR_CLASSES``), read as the index page's only text (diffutils' Index.html; task U14)."""
_TEXINFO_SETTITLE = re.compile(r'<h1 class="settitle"[^<>]*+>([^<]*+)</h1>')
"""A Texinfo manual's title over its Top page (``h1.settitle``), where the Top node's own heading (``h1.top``) says
the same: two headings "Comparing and Merging Files", the first an empty section in the outline (diffutils; task
U14). It is left out then; a title that differs from the Top node's ("Frob Manual" over "Frob") stays."""
_HEVEA = '<meta name="generator" content="hevea'
_HEVEA_FOOTER = re.compile(
    r"<!--FOOTER-->\s*<hr[^>]*>\s*<blockquote[^>]*><em>This document was translated from L.*?</blockquote>", re.DOTALL)
"""HeVeA's colophon after every page (after its ``<!--FOOTER-->`` comment: "This document was translated from LaTeX by
HeVeA."), read as the page's last passage (task R6; R3 left it)."""
_TEXINFO_NOTE = re.compile(r'<h5[^>]*>(<a id="FOOT\d+" href="[^"]*#DOCF\d+">)\((\d+)\)(</a>)</h5>\s*<p>')
"""A Texinfo footnote's number (``h5 > a#FOOT1``, "(1)", under ``h4`` "Footnotes"): a heading, its text the one
paragraph of a section of its own; the number opens the note's first paragraph instead ("[1] A frobbed ...", as its
mark in the text reads, ``html_marks.NOTE_LINKS``)."""
_TEXINFO_NOTES = re.compile(r'<h4 class="footnotes-heading">([^<]*+)</h4>')
"""The heading over a page's notes, at the level of a chapter (``h2``): as an ``h4`` it was a part of the page's last
subsection, on a one-page manual of its last appendix ("Appendix D Variable Index › Footnotes"; task U19)."""


_ERLANG = re.compile(r'<link rel="stylesheet" href="[^"]*\botp_doc\.css"')
_ERLANG_CONTENT = '<div id="content">'
_ERLANG_ANCHORS = re.compile(r'<div class="title-anchors">(?:[^<]|<(?!/?div\b))*+</div>')
_ERLANG_NAME = re.compile(r'<div class="title-name">([^<]*(?:<(?!/?div\b)[^<]*)*)</div>')
_ERLANG_PREFIXED = re.compile(r'<div>([\w.]+:<span class="title-name">(?:[^<]|<(?!/?div\b))*+)</div>')
_ERLANG_TITLE = re.compile(r"<title>Erlang -- ")
_ERLANG_TYPES = re.compile(r'<h3 id="types" class="func-types-title">([^<]*)</h3>')
"""Erlang/OTP's reference pages (erl_docgen, OTP 25; Debian's erlang-doc): every function is an ``article.func``, so
the reader, taking the articles for the page's main content, read the functions alone, without the module's title,
summary and description before them; the page's content is ``div#content`` (made ``role="main"``). Each heading holds
``div.title-anchors`` (links drawn as a paperclip and a pencil, no text) before its text, a block inside the heading
that left the function's heading ("all(Pred, List) -> boolean()") a paragraph; it is taken out, and the text of a
section's heading (``div.title-name``: "Module Summary", "Description", "11.1 Memory") is the heading's own. Each
function's "Types" (``h3.func-types-title``, under the function's ``h4``) is a label, not a section above it (task
R6). A function named with its module (erts' ``erlang:adler32(Data)``) holds its name in a plain ``div`` around
``span.title-name``, the module before it: it was a paragraph, not a heading (task R7). The pages' titles name the site
first ("Erlang -- lists"): the part after it is the title."""


_JSDOC = '<link type="text/css" rel="stylesheet" href="styles/jsdoc-default.css">'
_JSDOC_HEADER = re.compile(r"<(/?)header>")
"""JSDoc's default template (JSDoc 4.0): each page's ``div#main`` holds its ``h1.page-title`` ("Class: Budget") and a
``section`` whose ``header`` (the class's signature and description) comes before an ``article`` (the members).
The reader took the ``article`` for the page's main content and the ``header`` for a landmark: a class page began
at "Constructor", without its title and description. ``div#main`` is the main content (``role="main"``), the
``header`` a ``div`` (task R7)."""
_JSDOC_OPTIONAL = re.compile(
    r'(?<![\w$])((?:&hellip;|\u2026|\.\.\.)?+[\w$]++)<span class="signature-attributes">opt</span>')
"""A member's optional parameter in its heading's signature, the name and a ``span.signature-attributes`` "opt" (shown
raised): read "applyEach(fns, …argsopt, callbackopt)", so that a search for "callback" missed it (async 3.2.5's
documentation, task U15). Written ``[callback]``, as a JSDoc comment names an optional parameter."""

_DOCUTILS = '<meta name="generator" content="Docutils '
_DOCUTILS_DECORATION = re.compile(
    r'<div class="header">(?:(?!</div>).)*?<hr class="header"\s*/>\s*</div>'
    r'|<div class="footer">\s*<hr class="footer"\s*/>(?:(?!</div>).)*?</div>', re.DOTALL)
"""docutils' own HTML writer (``rst2html``, html4css1; Debian's docutils-doc 0.19): the ``.. header::`` and ``..
footer::`` directives' text, the same on every page (docutils' own pages: "Docutils | Overview | About | Users |
Reference | Developers" above 47 of 73 pages), in ``div.header`` ending with ``hr.header`` and ``div.footer`` starting
with ``hr.footer``: the page's running header and footer, chrome (task R6)."""
_DOCUTILS_NOTE = re.compile(
    r'<table class="docutils (footnote|citation)"([^>]*)>\s*(?:<colgroup>.*?</colgroup>\s*)?<tbody[^>]*>\s*'
    r'<tr><td class="label">((?:(?!</td>).)*)</td><td>((?:(?!</t[dr]>).)*)</td></tr>\s*</tbody>\s*</table>', re.DOTALL)
"""A footnote or citation by html4css1: a table of one row, the label's cell and the text's, read as a table row "| [2]
| Working with branches ... |"; a ``div.footnote`` with its ``span.label`` instead, read as the html5 writer's
``aside.footnote`` is: "[2] Working with branches ..."."""
_DOCUTILS_DOCINFO = re.compile(r'<table class="docinfo"[^>]*>((?:(?!</?table\b).)*)</table>', re.DOTALL)
_DOCUTILS_DOCINFO_ROW = re.compile(
    r'<tr[^>]*>\s*<th class="docinfo-name">((?:(?!</th>).)*)</th>\s*<td[^>]*>((?:(?!</td>).)*)</td>\s*</tr>', re.DOTALL)
"""The bibliographic fields by html4css1 (``table.docinfo``: Author, Contact, Date, Revision, Copyright and any other
field the document opens with), read as a table "| Author: | David Goodger |"; a ``dl.docinfo`` as the html5 writer
writes them instead, each field read "Author: David Goodger" (``html_rules.field_list``, task R7)."""
_DOCUTILS_CONTENTS = '<div class="contents topic"'
"""The page's own table of contents (``.. contents::``: "Contents" and a list of links to its sections), read as a
list above the first section; a table of contents as DocBook's ``div.toc`` (``html_rules.TOC_CLASSES``), dropped where
all its links lead into the page."""


_OCAMLDOC = '<link title="Index of types" rel=Appendix href="index_types.html">'
_OCAMLDOC_NAVBAR = re.compile(r'<div class="navbar">(?:[^<]|<(?!/?div\b))*+</div>')
"""ocamldoc's bar above every module page (``div.navbar``: "Up", "Previous", "Next"; Debian's libzarith-ocaml-doc,
libjsonm-ocaml-doc, libptmap-ocaml-doc), read as the page's first paragraph "Up Next"; dropped on pages that link
ocamldoc's index of types in their head (task R6)."""
_OCAMLDOC_SIGNATURE = re.compile(
    r'(<body>\s*)<code class="code">(<span class="keyword">sig</span><br>.*)</code>(\s*</body>)', re.DOTALL)
"""ocamldoc's page of a module's signature (``type_Z.html``, linked from the module page's title): the whole body one
``code`` whose lines are a ``br`` apart, read as one paragraph of a thousand words; a code block instead, a line per
line."""


_EDOC = 'title="EDoc">'
_EDOC_INDEX = re.compile(r'<ul class="index">(?:<li><a href="#[^"]*">[^<]*</a></li>)*</ul>')
_EDOC_FOOTER = "<p><i>Generated by EDoc</i></p>"
_EDOC_MODULES = re.compile(r'<h2 class="indextitle">[^<]*</h2>\s*<table [^>]*summary="list of modules">.*?</table>',
                           re.DOTALL)
"""EDoc (Erlang's, as rebar3 and Debian's erlang-proper-doc write it; known by its style sheet's title): the bar
above and below every page (``div.navbar``: "Overview") read as the page's first and last paragraph, the list of
the module page's own sections ("Description", "Data Types", "Function Index", "Function Details") as the title's
first list, "Generated by EDoc" as its last line, and the frame of module links (``modules-frame.html``: "Modules"
over a one-column table of the names) as a document: all dropped, the frame's page skipped as empty (task U11)."""
_NOFRAMES = re.compile(r"<noframes\b.*?</noframes>", re.DOTALL | re.IGNORECASE)
"""A frameset page (EDoc's and old javadoc's ``index.html``): its ``noframes`` text is for a browser without frames
("This page uses frames. Your browser does not accept frames. You should go to the non-frame version instead."),
which was read as a document; the page holds nothing of its own (task U11)."""


_GO_HEADER = re.compile(r"<!--(\{.*?\})-->", re.DOTALL)
"""The Go project's own pages (its spec, memory model, release notes; Debian's golang-1.19-doc): HTML fragments whose
first lines are a JSON comment (``<!--{"Title": "The Go Memory Model", "Subtitle": ..., "Path": "/ref/mem"}-->``) from
which go.dev's server writes the page's head and ``h1``; read alone, the page had no title. Its ``Title`` is the
title (task R6)."""


_PYDOCTOR = '<meta name="generator" content="pydoctor '
_PYDOCTOR_MEMBER = re.compile(r'<div class="functionHeader">((?:[^<]|<(?!/?div\b))*+)</div>')
"""pydoctor (25.10; a module's or class's page): each member's signature (``div.functionHeader``: "def
_replay(self, events):", "_ahead =") a paragraph, so that every member of a class was one section; an ``h3`` instead,
each member a section of its own, as Sphinx's and YARD's signatures are (task R6)."""


_GITBOOK = '<meta name="generator" content="GitBook '
_GITBOOK_TITLE = re.compile(r"<title>(.+?) \u00b7 [^<]*</title>")
"""GitBook 3 (legacy) titles every page "Budgets · GitBook" ("<page> · <book's title>"), its book's first page by its
name in the summary ("Introduction · GitBook") over an ``h1`` that differs: the part before the book's title is the
page's title (task R6)."""


_YODL = ".XXfc {"
_YODL_NAV = re.compile(
    r'<hr>\s*<ul>(?:\s*<li>\s*<a href="[^"]*">(?:Table of Contents|Previous Chapter|Next Chapter)</a>)+\s*</ul>\s*<hr>')
_YODL_TITLE = re.compile(r"<title>([^<]*)</title>")
_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.DOTALL)
"""YODL's pages (the Z shell's FAQ, Debian's zsh-doc; known by the ``XX`` classes of their style sheet): each chapter
has "Table of Contents", "Previous Chapter", "Next Chapter" links above and below its text, read as lists; and every
chapter's ``<title>`` is the book's, "Z-Shell Frequently-Asked Questions". A chapter's links are dropped and its title
is its ``h1`` with the book's name after it, as texi2any titles a node: "Chapter 4: The mysteries of completion (Z-Shell
Frequently-Asked Questions)" (task R6)."""


_ODOC = '<meta name="generator" content="odoc '
_ODOC_PREAMBLE = re.compile(r'<header class="odoc-preamble">(.*?)</header>', re.DOTALL)
"""odoc 2 (Debian's libjs-of-ocaml-doc): a page's title and its module's description are a ``header.odoc-preamble``,
outside any ``main``: dropped as a page's header landmark, so that every module page had neither its ``h1`` ("Module
Js_of_ocaml.Url") nor its description; a ``div`` instead (task R6)."""


_ASCIIDOCTOR_NOTE = re.compile(
    r'(<div class="footnote" id="_footnotedef_\d+">\s*)(<a href="#_footnoteref_\d+">)(\d+)</a>\. ')
"""Asciidoctor's notes (every backend: html5, xhtml5, a book with ``toc=left``, an embedded page) write their
number as "1. See how a run ends.", where the mark in the text reads "[1]" (``html_marks``): the number a label in
brackets instead, "[1] See how a run ends.", as docutils' and DocBook's notes read (task R6)."""


_VUEPRESS_OUTBOUND = '</svg> <span class="sr-only">(opens new window)</span>'
"""VuePress 1's link out of the site ends in its icon, a space and a label for screen readers (chrome, task U26); the
space, between two things without text, read as a space before the punctuation after the link."""
_ASCIIDOCTOR_BREAK = re.compile(r"(&#8230;|&#8212;)&#8203;")
"""Asciidoctor writes a zero-width space after the ellipsis and the em dash it puts for ``...`` and ``--``
("arrange-buffers <buffer>&#8230;&#8203;", "``%sh{&#8230;&#8203;}``": kakoune's manual, 33 on 10 of its 18 pages): an
invisible character inside a command's signature or a code span, quoted and copied with it. Taken out (task U18)."""


_JAVADOC = re.compile(r'<!-- Generated by javadoc |<meta name="generator" content="javadoc/')
_JAVADOC_TITLE = re.compile(r"<title>([^<]*?) \([^()<]*\)</title>")
_JAVADOC_TABS = re.compile(
    r'<span id="t\d+" class="tableTab"><span>(?:(?!</span>).)*</span><span class="tabEnd">&nbsp;</span></span>')
"""javadoc's pages (javadoc 11: Debian's libjsoup-java-doc; 17: libcommons-lang3-java-doc; marked by the comment
"Generated by javadoc" or a generator ``meta`` naming it): every ``<title>`` is the page's name and the API's window
title in brackets, "Node (jsoup Java HTML Parser 1.15.3 API)", which took most of ``clew ls``'s title column; the name
alone instead ("Node", "Uses of Class org.jsoup.nodes.Node", "org.jsoup.nodes"). A zero-width space (``&#8203;``)
between each member's name and its parameters, a break hint ("parse\u200b(java.lang.String html)" was quoted and
copied invisible in a name a compiler rejects), is taken out. javadoc 11's summary tables title themselves with a
tab per kind of member, "All Methods Instance Methods Abstract Methods Concrete Methods" read as the title of
each method summary: the tabs that only filter it (``span.tableTab``, a script's links) are taken out, "All Methods"
stays, as "Constructors" titles its table (task U5). A member's notes ("Parameters:", "Returns:", "Throws:", "Author:";
javadoc 11's ``dl`` whose first term ends with a colon, ``span.paramLabel``, ..., javadoc 17's ``dl.notes``) read each
term as a paragraph of its own over its definitions, and an extract quoted "Author:" alone: they are a field list, as
docutils' are ("Returns: sane HTML", "Author: Jonathan Hedley, jonathan@hedley.net")."""
_JAVADOC_LIST_TAG = re.compile(r"<(/?)(ul|li)\b([^>]*)>")
_JAVADOC_LAYOUT = re.compile(r'\bclass="(?:blockList(?:Last)?|(?:member|summary|details|block)-list)"')
"""javadoc 11 lays each page out in lists (``ul.blockList > li.blockList``, nested: the class's description, each
summary, each member's detail), read as list items: every member's description began "- Parse HTML into a Document."
indented under its heading, its notes joined to it as the item's lines. Each such list and item is a ``div``.
javadoc 17 writes the same lists with other classes and plain items (``ul.member-list > li > section.detail``;
``summary-list``, ``details-list``, the serialized form's ``block-list``): every member of Debian's
libcommons-lang3-java-doc read "- public static boolean isBlank(CharSequence cs)" with its description and notes as
the item's lines (task U12). An item without a class is layout in a layout list."""
_JAVADOC_PACKAGE = re.compile(
    r'(<div class="sub(?:-t|T)itle">(?:[^<]|<(?!/?div\b))*+</div>)(\s*+)'
    r"(<h([12])\b[^>]*+>(?:[^<]|<(?!/?h[1-6]\b))*+</h\4>)")
"""A class page's package line above its title (javadoc 17's ``div.sub-title``, 11's ``div.subTitle``: "Package
org.apache.commons.lang3"), a passage of its own before the title on every class page, with no heading (53 of
commons-lang3's): the title's first paragraph instead, as the page's header shows it (task U12)."""
_JAVADOC_NOTES = re.compile(r'<dl>(?=\s*<dt>(?:<span class="\w+Label">)?[^<>]*:(?:</span>)?</dt>)|<dl class="notes">')


_QDOC = '<div class="header" id="qtdocheader">'
_QDOC_MORE = ' <a href="#details">More...</a>'
"""qdoc (Qt 5.15's reference, Debian's qtbase5-doc-html): a class page's one-line brief ends with a link "More..." to
its "Detailed Description" (273 of Qt Core's 684 pages), read as the brief's last word ("The QTimer class provides
repetitive and single-shot timers. More...", every such page's first passage and the slice a caller reads first):
taken out (task U17)."""
_QDOC_MEMBERS = re.compile(
    r'<ul>\n<li><a href="[^"<>]*-members\.html">List of all members, including inherited members</a></li>\n'
    r'(?:<li><a href="[^"<>]*-obsolete\.html">Obsolete members</a></li>\n)?</ul>')
"""Under a class's header table qdoc links its two companion pages, "List of all members, including inherited members"
and "Obsolete members", in a list read as a passage of its own on 262 of Qt Core's pages (the third a caller's slice
reads): navigation to pages the collection holds, taken out as the breadcrumbs are (task U17)."""
_QDOC_CODE = re.compile(r'(<pre class="[^"]*+">\n?)([^<]*+(?:<(?!/?pre\b)[^<]*+)*+)(?=</pre>)')
"""qdoc indents every code block by one space more than its snippet's own indentation (all 1,532 of Qt Core's: 1,256
by one space, 233 by five), which an extract and a fetch showed before each line ("     QFile file(\"in.txt\");"):
the lines' common indentation is taken out, as a browser's copy keeps it only as the page's margin (task U17)."""


def _dedent(code: re.Match[str]) -> str:
    lines = code[2].split("\n")
    indent = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    return code[1] + "\n".join(line[indent:] for line in lines)


_NODEJS = re.compile(r'<meta name="nodejs\.org:node-version"|<body class="alt apidoc"')
_NODEJS_SIDEBAR = '<div id="column2" class="interior">'
_NODEJS_TOC = '<details id="toc"'
_NODEJS_TITLE = re.compile(r"<title>([^<]*)</title>")
"""Node.js's API pages (its own generator, ``tools/doc/html.mjs``; Debian's nodejs-doc 18.20): every page opens with the
sidebar ``div#column2`` (the site's name and a link to each of the 60 modules) and the page's table of contents,
``details#toc`` ("Table of contents" over a link to each of its sections), read as the page's first two or three
passages (task U8: 128 passages of the 64 pages; 2 of the 355 passages the trial's 15 walks read). The sidebar is
navigation, and the table of contents, all its links into the page, is dropped as ``div#toc`` is
(``html_rules.page_toc``): both made landmarks (``role="navigation"``). A title names a module in Markdown's
backticks, as the generator copies it from the heading's source ("Modules: `node:module` API"): without them, as the
heading reads."""


_GIDOCGEN_DESCRIPTION = '<h4 id="description"'
_GIDOCGEN_HEADING = re.compile(r'<h([1-6])( id="[^"]*">(?:[^<]|<(?!/h\1>))*?<a class="md-anchor" [^>]*></a>\s*)</h\1>')
"""gi-docgen's class and interface pages (GTK 4.8's reference, Debian's libgtk-4-doc): the description (under ``h4``
"Description", beside "Ancestors", "Constructors", "Instance methods") is the doc comment's Markdown, whose headings
are ``h1`` to ``h3`` with a permalink ``a.md-anchor`` ("CSS nodes", "Accessibility" on ``GtkButton``'s page, 108 of
the 2,636 pages with a description): level with the page's ``h1``, so that the last of them held the page's
"Ancestors", "Constructors" and every method. Such a heading is one below "Description": ``h5`` for an ``h1``,
``h6`` for the others (task U8)."""
_GIDOCGEN_KIND = re.compile(r'(<section id="main" class="content">\s*<header>\s*)<h3>([^<]{1,40})</h3>'
                            r'(\s*<h1\b[^>]*>(?:[^<]|<(?!/h1>))*</h1>)')
_GIDOCGEN = 'GNOME/gi-docgen">gi-docgen</a>'
"""gi-docgen's kind label over a page's title (``<h3>Class</h3>``, "Method", "Function", "Struct", "Namespace", ...
in the page's ``header``): a level-3 section of its own, empty, before the title's ``h1``. It is the title's first
paragraph ("Gtk Button" / "Class"), as the page shows it: what the symbol is, in its passage (task F1; R3's
leftover). Known by the sidebar's "Generated by gi-docgen" (2023.1: GTK 4.8's 5,791 pages) or, without it (json-glib
1.6.6's), by a title whose parts ``span.sep`` sets apart."""


_MKDOCS_RTD_NAME = re.compile(r'var mkdocs_page_name = ("(?:[^"\\]|\\.)*");')
_TITLE = re.compile(r"<title>([^<]*)</title>")
"""MkDocs' readthedocs theme writes the page's name into a script of its head (``mkdocs_page_name``) and titles the
page "<name> - <site's name>" ("Required CLI Options - Typer", Debian's python-typer-doc, MkDocs 1.4): where the
Markdown has no ``h1`` (its title only in ``mkdocs.yml``'s nav, as in all 58 of Typer's pages), the reader took the
``<title>`` with the site's name as the page's title. The name alone is the title where the ``<title>`` starts with it
and a separator (task U5)."""


def restructured(text: str) -> str:
    """``text`` as the reader should read it (each generator known by its page's first lines, checked once per
    page): a man page by groff or man2html (``html_man``), an RDoc page with its groups, methods and description
    headings leveled and without its headings' links back to the top, a LaTeX2HTML page without its colophon, a
    YARD page without its breadcrumbs."""
    text = man_html(text)
    if '"_footnotedef_' in text:  # Asciidoctor's notes, on any page of its (an embedded one names no generator)
        text = _ASCIIDOCTOR_NOTE.sub(r'\1<span class="label">\2[\3]</a></span> ', text)
    if "&#8203;" in text:  # Asciidoctor's ellipsis and em dash (any page of its)
        text = _ASCIIDOCTOR_BREAK.sub(r"\1", text)
    if _VUEPRESS_OUTBOUND in text:  # VuePress 1's link out: "line-wrapping ." read the space past its icon (R18)
        text = text.replace(_VUEPRESS_OUTBOUND, _VUEPRESS_OUTBOUND.replace("> <", "><"))
    if HUGO_TOC in text:  # Hugo's table of contents: its theme's label before it (html_hugo)
        text = hugo_toc_label(text)
    if hugo_page(text):  # Hugo's theme: a page's category links over its title, its related pages (html_hugo)
        text = hugo_theme_chrome(text)
    text = diff_marks(text)  # Expressive Code's and Shiki's removed and added code lines (html_diff)
    text = pkgdown_page(text)  # pkgdown's examples parted at their blank lines, its changelog's source link
    text = docbook_index_dropped(text)  # a one-page DocBook book's index (html_docbook)
    text = link_chrome_dropped(text)  # rustdoc's "Read more", Doxygen's link to a file's source (html_link_chrome)
    if text.startswith("<!--{"):
        return _go_page(text)
    head = text[:3000]
    if "<frameset" in head.lower():
        return _NOFRAMES.sub("", text)
    if _EDOC in head:
        text = _EDOC_MODULES.sub("", _EDOC_INDEX.sub("", _OCAMLDOC_NAVBAR.sub("", text), count=1), count=1)
        return text.replace(_EDOC_FOOTER, "", 1)
    if _DARKFISH.search(head):
        return _darkfish(text)
    if _LATEX2HTML in head:
        return _LATEX2HTML_ABOUT.sub("", text, count=1)
    if _YARD_FOOTER in text[-1500:]:
        text = _YARD_BOX.sub('<dl class="field-list">', _YARD_MENU.sub("", text, count=1))
        return _YARD_TITLE.sub(lambda title: f"<title>{title[1].strip()}</title>", text, count=1)
    if _YARD_LIST.search(head) and '<ul id="full_list"' in text:
        return _YARD_LIST_BODY.sub("<body></body></html>", text, count=1)
    if _ERLANG.search(head) and _ERLANG_CONTENT in text:
        return _erlang(text)
    if _DOCUTILS in head:
        return _docutils(text)
    if ESDOC in head:
        return esdoc(text)
    if DOCJS in head:
        return documentation_js(text)
    if _JSDOC in head:
        text = _JSDOC_OPTIONAL.sub(r"[\1]", text.replace('<div id="main">', '<div id="main" role="main">', 1))
        return _JSDOC_HEADER.sub(r"<\1div>", text)
    if _ODOC in head:
        return _ODOC_PREAMBLE.sub(r'<div class="odoc-preamble">\1</div>', text, count=1)
    if _YODL in head:
        return _yodl(text)
    if _GITBOOK in head:
        return _GITBOOK_TITLE.sub(r"<title>\1</title>", text, count=1)
    if _PYDOCTOR in head:
        return _PYDOCTOR_MEMBER.sub(r'<h3 class="functionHeader">\1</h3>', text)
    if _OCAMLDOC in head:
        return _OCAMLDOC_SIGNATURE.sub(_signature, _OCAMLDOC_NAVBAR.sub("", text, count=1), count=1)
    if _HEVEA in head:
        return _HEVEA_FOOTER.sub("", text, count=1)
    if PANDOC.search(head):
        return pandoc_title_block(text)
    if ORG.search(head):
        return org_title(text)
    if _TEXINFO.search(head):
        text = _TEXINFO_NOTES.sub(r'<h2 class="footnotes-heading">\1</h2>', _texinfo_title(text), count=1)
        return _TEXINFO_NOTE.sub(r"<p>\1\2\3 ", _TEXINFO_FOOTER.sub("", _TEXINFO_LETTERS.sub("", text)))
    if _JAVADOC.search(head):
        return _javadoc(text)
    if _QDOC in head:
        return _QDOC_CODE.sub(_dedent, _QDOC_MEMBERS.sub("", text.replace(_QDOC_MORE, "", 1), count=1))
    if (name := _MKDOCS_RTD_NAME.search(head)) is not None:
        return _mkdocs_title(text, name[1])
    if _NODEJS.search(head):
        return _nodejs(text)
    if '<span class="sep"' in text or _GIDOCGEN in text:
        text = _GIDOCGEN_KIND.sub(lambda label: f"{label[1]}{label[3]}\n<p>{label[2]}</p>" if _GIDOCGEN in text
                                  or '<span class="sep"' in label[3] else label[0], text, count=1)
    if _GIDOCGEN_DESCRIPTION in text and 'class="md-anchor"' in text:
        return _GIDOCGEN_HEADING.sub(
            lambda h: f"<h{5 if h[1] == '1' else 6}{h[2]}</h{5 if h[1] == '1' else 6}>", text)
    return text


def _nodejs(text: str) -> str:
    """A Node.js API page (:data:`_NODEJS`) without its sidebar and table of contents, its title without backticks."""
    text = text.replace(_NODEJS_SIDEBAR, _NODEJS_SIDEBAR[:-1] + ' role="navigation">', 1)
    text = text.replace(_NODEJS_TOC, _NODEJS_TOC + ' role="navigation"', 1)
    return _NODEJS_TITLE.sub(lambda title: f"<title>{title[1].replace('`', '')}</title>", text, count=1)


def _javadoc(text: str) -> str:
    """A javadoc page (:data:`_JAVADOC`): its title without the API's, no zero-width spaces, no filter tabs, its
    members' notes field lists."""
    text = _JAVADOC_TITLE.sub(r"<title>\1</title>", text.replace("&#8203;", "").replace("\u200b", ""), count=1)
    text = _JAVADOC_NOTES.sub('<dl class="notes field-list">', _JAVADOC_TABS.sub("", text))
    text = _JAVADOC_PACKAGE.sub(r"\3\2\1", text, count=1)
    return _javadoc_layout_lists(text)


def _javadoc_layout_lists(text: str) -> str:
    """``text`` with javadoc's layout lists (:data:`_JAVADOC_LAYOUT`) and their items made ``div``s, each with its own
    end tag; an item left open by a doc comment's own list closes as HTML closes it (at the next item or the list's
    end)."""
    parts: list[str] = []
    done = 0
    open_tags: list[tuple[str, bool]] = []  # (tag, layout) of each ul/li open at this point

    def put(at: int, end: int, tag: str) -> None:
        nonlocal done
        parts.append(text[done:at] + tag)
        done = end

    for found in _JAVADOC_LIST_TAG.finditer(text):
        closing, tag, attrs = found[1] == "/", found[2].lower(), found[3]
        if tag == "li" and not closing and open_tags and open_tags[-1][0] == "li":
            if open_tags.pop()[1]:  # an item the next one closes
                put(found.start(), found.start(), "</div>")
        if closing:
            if tag == "ul" and open_tags and open_tags[-1][0] == "li":
                if open_tags.pop()[1]:
                    put(found.start(), found.start(), "</div>")
            if open_tags and open_tags[-1][0] == tag and open_tags.pop()[1]:
                put(found.start(), found.end(), "</div>")
            continue
        layout = bool(_JAVADOC_LAYOUT.search(attrs)) or (
            tag == "li" and "class=" not in attrs and bool(open_tags) and open_tags[-1] == ("ul", True))
        open_tags.append((tag, layout))
        if layout:
            put(found.start(), found.end(), f"<div{attrs}>")
    return "".join(parts) + text[done:]


def _texinfo_title(text: str) -> str:
    """The page less its manual's title where the Top node's heading repeats it (``_TEXINFO_SETTITLE``)."""
    title = _TEXINFO_SETTITLE.search(text)
    if title is None or not re.search(f'<h1 class="top"[^<>]*+>{re.escape(title[1])}</h1>', text):
        return text
    return text[: title.start()] + text[title.end():]


def _mkdocs_title(text: str, quoted: str) -> str:
    """A page of MkDocs' readthedocs theme (:data:`_MKDOCS_RTD_NAME`) titled by its name, not "<name> - <site>"."""
    try:
        name = json.loads(quoted)
    except ValueError:
        return text
    title = _TITLE.search(text)
    if not isinstance(name, str) or not name.strip() or title is None:
        return text
    if not html_unescape(title[1]).startswith(name + " - "):
        return text
    return text[:title.start()] + f"<title>{html_escape(name, quote=False)}</title>" + text[title.end():]


def _darkfish(text: str) -> str:
    """An RDoc (Darkfish) page: its description's headings one level down, its groups' headings ``h2``, each
    method's heading an ``h3``, and no "↑" links."""
    text = _DESCRIPTION.sub(lambda box: _LEVEL.sub(lambda h: f"<{h[1]}h{int(h[2]) + 1}", box[0]),
                            text.replace(_TOP_LINK, ""))
    text = _GROUP.sub(r"\1<h2>\2</h2>\3", text)
    return _METHOD_HEADING.sub(r'<h3 class="\1">\2</h3>', text)


def _erlang(text: str) -> str:
    """An Erlang/OTP page (erl_docgen): ``div#content`` its main content, its title without the site's name, its
    headings' texts their own, no icon links in them, each function's "Types" a paragraph."""
    text = _ERLANG_TITLE.sub("<title>", text.replace(_ERLANG_CONTENT, '<div id="content" role="main">', 1), count=1)
    text = _ERLANG_PREFIXED.sub(r"\1", _ERLANG_ANCHORS.sub("", text))
    return _ERLANG_TYPES.sub(r'<p class="func-types-title">\1</p>', _ERLANG_NAME.sub(r"\1", text))


def _docutils(text: str) -> str:
    """A page by docutils' own writer: no running header or footer, each footnote a ``div.footnote``, the page's
    contents a table of contents, its bibliographic fields a field list."""
    text = _DOCUTILS_DECORATION.sub("", text.replace(_DOCUTILS_CONTENTS, '<div class="toc contents topic"'))
    text = _DOCUTILS_DOCINFO.sub(_docinfo, text, count=1)
    return _DOCUTILS_NOTE.sub(r'<div class="\1"\2><span class="label">\3</span> \4</div>', text)


def _docinfo(table: re.Match[str]) -> str:
    """html4css1's ``table.docinfo`` (:data:`_DOCUTILS_DOCINFO`) as a ``dl.docinfo``, a field to a row; a table with
    a row of another shape stays as it is."""
    rows = list(_DOCUTILS_DOCINFO_ROW.finditer(table[1]))
    if not rows or _DOCUTILS_DOCINFO_ROW.sub("", table[1]).count("<tr"):
        return table[0]
    return '<dl class="docinfo">' + "".join(f"<dt>{r[1]}</dt><dd>{r[2]}</dd>" for r in rows) + "</dl>"


def _signature(page: re.Match[str]) -> str:
    """An ocamldoc signature page's ``code`` (:data:`_OCAMLDOC_SIGNATURE`) as a ``pre``, its ``br`` line breaks."""
    lines = _BREAK.sub("\n", page[2])
    return f"{page[1]}<pre><code>{lines}</code></pre>{page[3]}"


_BREAK = re.compile(r"<br>\n?")


def _go_page(text: str) -> str:
    """A page of the Go project's (:data:`_GO_HEADER`) with a ``title`` from its header's ``Title``."""
    header = _GO_HEADER.match(text)
    try:
        fields = json.loads(header[1]) if header is not None else None
    except ValueError:
        return text
    title = fields.get("Title") if isinstance(fields, dict) else None
    return f"<title>{html_escape(title)}</title>\n{text}" if isinstance(title, str) and title.strip() else text


def _yodl(text: str) -> str:
    """A YODL page (:data:`_YODL_NAV`): a chapter without its links to the others, titled by its ``h1``."""
    text, chapters = _YODL_NAV.subn("<hr>", text)
    heading, title = _H1.search(text), _YODL_TITLE.search(text)
    if not chapters or heading is None or title is None:
        return text
    name = " ".join(re.sub(r"<[^>]*>", "", heading[1]).split())
    book = " ".join(title[1].split())
    return text if not name or name == book else _YODL_TITLE.sub(f"<title>{name} ({book})</title>", text, count=1)
