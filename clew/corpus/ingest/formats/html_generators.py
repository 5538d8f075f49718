"""Chrome and title classes of documentation generators, by the first word of a page's ``<meta name="generator">``
(``html_rules.generator_classes``, ``generator_title``, ``_dropped_class``).

Split from html_rules so that the next generator's rule has room (review V17).
"""

from __future__ import annotations

import re

_TEXINFO = frozenset("header nav-panel printindex".split())
_TEXINFO_INDEX = re.compile(r"index-[a-z0-9]+")
"""A Texinfo 6 index's table: ``table.index-`` and the index's name, the six standard ones (cp, fn, vr, ky, pg, tp)
and any a manual defines (``@defindex``: Bash's ``index-bt`` builtins and ``index-rw`` reserved words, read as a
table of letters and empty cells at the end of its one-page manual; task U19). Only a ``table`` (task R17): another
element of such a class on a Texinfo page is the manual's own (``@html``), and Texinfo 7's index is
``div.printindex`` (its tables ``table.cp-entries-printindex``). Texinfo 7's ``a.index-entry-id``, an index entry's
anchor in the text, is no index."""
GENERATOR_CLASSES: dict[str, frozenset[str]] = {
    # Texinfo (makeinfo / texi2any): the Next/Previous/Up bar of every node sits in div.header
    # (texinfo 6) or div.nav-panel (texinfo 7), a printed index's entries (links to the nodes,
    # each under its term) in table.index-cp (-fn, -vr, -ky, -pg, -tp, any other: _TEXINFO_INDEX; texinfo 6) or
    # div.printindex (texinfo 7). The menu of a node's subsections (ul.section-toc, ul.mini-toc)
    # is kept, like DocBook's div.toc: its links lead a walk to the subsections' pages. Other
    # generators use "header" for content (javadoc's page title), so these classes are chrome
    # only in pages that name their generator.
    "makeinfo": _TEXINFO,
    "texi2any": _TEXINFO,
    # rustdoc: the module path above the title, a version and "Source" link beside every item
    # (span.rightside, a.src, span.sub-heading), the "Expand description" toggle (summary.hideme),
    # the "ⓘ" beside an example that panics (a.tooltip) and the "§" before a heading (a.doc-anchor,
    # a.anchor: only a link there; Doxygen's a.anchor holds ids, hence rustdoc pages only), rustdoc 1.63's
    # "source · [−]" beside the title (span.out-of-band), an example's "Run" link (a.test-arrow) and a signature's
    # "ⓘ Notable traits for Keys ..." hover card (span.notable-traits: in the method's heading; task U14)
    "rustdoc": frozenset(("rustdoc-breadcrumbs rightside src sub-heading hideme tooltip doc-anchor anchor out-of-band"
                          " test-arrow notable-traits").split()),
    # Doxygen: the "Modules | Data Structures | Typedefs" jump links above the title (div.summary), a code link's hover
    # card after a code block (div.ttc: the member's name, declaration, brief and "Definition: glfw3.h:1048"), a source
    # listing's line numbers (span.lineno; its div.fragment is read as pre, see html_elements.ElementOpener), the tree
    # view's breadcrumbs at a page's end (div.navpath: "include / SDL_timer.h", every page's last passage; task U14),
    # a graph's caption over its image, left out (div.dynheader: "Include dependency graph for xkbcommon.h:"; E12)
    "doxygen": frozenset({"summary", "ttc", "lineno", "navpath", "dynheader"}),
    # VitePress: the language name over each code block (span.lang) and the line numbers beside it
    # (div.line-numbers-wrapper, markdown.lineNumbers or ```js:line-numbers); Starlight: the permalink beside each
    # heading (a.sl-anchor-link, whose hidden text read "Section titled ...") and the texts for screen readers
    # only (span.sr-only: "Terminal window" over a shell example). See html_jsdocs.
    "vitepress": frozenset({"lang", "line-numbers-wrapper"}),
    # Docusaurus, inside main above the article: a versioned site's banner ("This is unreleased documentation
    # for ... Next version", "... no longer actively maintained") and badge ("Version: 1.0"), an unlisted page's
    # banner ("Unlisted page: This page is unlisted. Search engines will not index it, ...")
    "docusaurus": frozenset({"theme-doc-version-banner", "theme-doc-version-badge", "theme-unlisted-banner"}),
    "starlight": frozenset({"sl-anchor-link", "sr-only"}),
    # Hugo (Chroma with classes): code line numbers, beside each line (span.ln) or a column of their own (span.lnt);
    # Docsy's "Was this page helpful?" under every docs page (h2.feedback--title "Feedback", p.feedback--question, the
    # two p.feedback--response "Glad to hear it! ...", "Sorry to hear that. ...": a last section of each; task U35)
    "hugo": frozenset({"ln", "lnt", "feedback--title", "feedback--question", "feedback--response"}),
    # pdoc3 (0.11): each member's source, hidden until "Expand source code" (details.source) and read before its
    # docstring, the docstring a second time among the code (task U13: boltons' pages 3.7x their text)
    "pdoc3": frozenset({"source"}),
    # VuePress 1 (default theme): the line numbers beside code (div.line-numbers-wrapper, markdown.lineNumbers), the
    # "(opens new window)" after every link out of the site (span.sr-only by its icon), the prev/next links under every
    # page (div.page-nav: "← MD012 - Multiple consecutive blank lines MD014 - ... →"; task U26)
    "vuepress": frozenset({"line-numbers-wrapper", "sr-only", "page-nav"}),
    # Hexo (its highlighter, every theme): the column of line numbers beside a code block (figure.highlight > table >
    # td.gutter; a code block "1 2 3" before every example, task U26)
    "hexo": frozenset({"gutter"}),
    # Rspress 1 (no main element: the page is read whole): the top bar (div.rspress-nav: the site's name, "Docs"), the
    # narrow screens' "on this page" list above the title (div.rspress-sidebar-menu-container: every heading of the
    # page as a list, the first passage of each; task U35); Rspress 2: the permalink before each heading's text
    # (a.rp-header-anchor "#": "### #Synopsis")
    "rspress": frozenset({"rspress-nav", "rspress-sidebar-menu-container", "rp-header-anchor"}),
    # GAPDoc (GAP's and its packages' manuals, GAPDoc2HTML): "Goto Chapter: Top 1 2 ... Bib Ind" and "[Top of Book]
    # [Contents] [Previous Chapter] [Next Chapter]" above and below every chapter (div.chlinktop, div.chlinkbot,
    # div.chlinkprevnexttop, div.chlinkprevnextbot), the chapter's list of its own sections, each a link into the page
    # (div.ChapSects: dropped as a DocBook div.toc into one page is), "generated by GAPDoc2HTML" (p.foot): the first
    # passage of each of gap-doc 4.12's 229 chapters was the bars and the list, its last the colophon (task S5)
    "gapdoc2html": frozenset({"chlinktop", "chlinkbot", "chlinkprevnexttop", "chlinkprevnextbot", "chapsects", "foot"}),
}
"""Chrome classes of one documentation generator, by the first word of the page's
``<meta name="generator">`` (lower-cased)."""
GENERATOR_TITLES: dict[str, str] = {"doxygen": "title"}
"""The class of the ``div`` that holds a page's title where a generator writes no ``h1``: Doxygen's
``div.headertitle > div.title`` ("LMDB API", "Special Commands"). It is read as an ``h1``."""
