"""The chrome of manuals laid out as their project's web site, with no generator named, left out before the page is
parsed (:func:`site_chrome_dropped`, from ``html_link_chrome.link_chrome_dropped``; task S3's sweep):

- Exim's specification (the exim.org site's layout, exim4-doc-html 4.96): the site's banner ``<h1 id="header">``
  "Exim Internet Mailer" and its menu (``ul#nav_flow``: Home, Download, Documentation, ...) above every page, and
  the links "<-previous", "next->" and "Table of Contents" (``a.previous_page``, ``a.next_page``, ``a.toc_page``)
  above and below each chapter: on all 136 pages swept, the banner was each page's first heading, over its
  chapter. Known by the page's author, "The Exim Project".
- Apache HTTP Server's manual (apache2-doc 2.4's ``manual/en``): the header "Apache HTTP Server Version 2.4" with
  its menu (``div#page-header``), the breadcrumb "Apache > HTTP Server > Documentation > Version 2.4 > Modules"
  (``div#path``), "Available Languages: en | fr | ..." above and below the page (``div.toplang``,
  ``div.bottomlang``), and the floating box of the page's topics and directives, "Bugfix checklist" (links to the
  changelog, known issues, bug reports) and "See also" (``div#quickview``): on all 244 pages swept, the header and
  breadcrumb the first lines of each page. Known by the class Apache's manual writes its name and copyright line
  with, ``p.apache`` (in every language: six of ``en/``'s pages are in Portuguese); none of these elements holds a
  ``div``.
- FFmpeg's manuals (ffmpeg-doc 5.1, Texinfo 6.8 with FFmpeg's own page template, as on ffmpeg.org): after every
  heading's text two links, "#" to the heading and "TOC" back to its contents entry (``span.pull-right`` of
  ``a.anchor.hidden-xs``), and the colophon "This document was generated using makeinfo." (a ``p`` in a small font)
  at the end: 5,341 of the 7,162 headings of 30 pages read "8.22 afftfilt# TOC". Known by the links' classes on a
  page Texinfo wrote.
- Vim's help as HTML (vim2html, vim-doc 9.0; the layout of vim.org's help pages): each help file one ``pre``
  under the ``h1`` "Vim documentation: change" and a link "main help file", ending "top - main help file"; its
  sections begin at a rule of ``=`` signs, then a line "1. Deleting text" and the section's tags ("*deleting*
  *E470*", each an anchor). Read as one code block, 73 of its 152 pages were one passage over 5,000 tokens. Each
  rule now ends the ``pre`` and the line after it is an ``h2`` (its title, the tags' anchors), the tags the first
  line of the next ``pre``; the links at the top and the bottom go. Known by the page's title, "Vim
  documentation: ...".

- libvirt's manual (libvirt-doc 9.0, the libvirt.org site's layout): the site's menu after the page's text (``div#nav``:
  "Home", Download, Contribute, Docs, and the site search's labels "Website", "Wiki", "Developers list", "Users
  list"), read as the last lines of the 22 of its 186 pages written without ``main`` (its API reference among them;
  task S5). Known by the search's hidden field naming the site, ``value="libvirt.org"``; the menu is the ``div``
  before the footer.

- Eigen's reference (Doxygen with Eigen's own header, libeigen3-doc 3.4): the banner "Please, help us to better know
  about our user community by answering the following short survey: https://forms.gle/..." above every page (a
  ``div`` styled in pink), the first passage of each of its 475 pages (task S5). Known by Eigen's stylesheet,
  ``eigendoxy.css``.

- SWI-Prolog's manual (its own LaTeX to HTML, swi-prolog-doc 9.0): a footnote is written where it is cited, its
  number then its text in a ``sup`` (``<sup class="fn">95<span class="fn-text">Actually based on ...</span></sup>``,
  shown by a style sheet on hover), read inside the sentence: "and friends.95Actually based on Quintus Prolog, ...
  existed. Being more widely ..." (294 notes on 79 of the manual's 257 pages; task S5). Read as a footnote mark,
  then the note in parentheses: "and friends. [95] (Actually based on ... existed.) Being ...". Known by its style
  sheet's comment, "Style sheet for SWI-Prolog latex2html".

- Racket's documentation (Scribble, racket-doc 8.7): an example or a block of code is a table, a row a line
  (``table.RktBlk``: "> (pair? 1)", then its result "#f"), read as a table of one column (283 of the Guide's and
  Reference's 356 pages; task S5). Such a table whose rows are one cell each and hold no table is read as a ``pre``,
  a line a row; one with a nested table stays. Its definition boxes are read as Sphinx's object descriptions are
  (``html_scribble``). Known by Scribble's script, ``scribble-common.js``.

Ids such as ``path`` or ``header`` name other things on other pages (a section about ``PATH``), so they are chrome
only on these sites' pages.
"""

from __future__ import annotations

import re

from clew.corpus.ingest.formats.html_scribble import scribble_definitions

_EXIM = '<meta name="author" content="The Exim Project.'
_EXIM_CHROME = re.compile(
    r'<h1 id="header"><a href="[^"<>]*">Exim Internet Mailer</a></h1>|<ul id="nav_flow" class="nav">.*?</ul>'
    r'|<a class="(?:previous_page|next_page|toc_page)"\s+href="[^"<>]*">[^<>]*</a>',
    re.DOTALL,
)
_APACHE = '<p class="apache">'
_APACHE_CHROME = re.compile(
    r'<div (?:id="(?:page-header|path|quickview)"|class="(?:toplang|bottomlang)")>.*?</div>', re.DOTALL
)
_FFMPEG = '<a class="anchor hidden-xs"'
_TEXINFO = "<!-- Created by GNU Texinfo"
_FFMPEG_CHROME = re.compile(
    r'<span class="pull-right">(?:\s*<a class="anchor hidden-xs"\s*href="#[^"<>]*"\s+aria-hidden="true">[^<>]*</a>)+'
    r'\s*</span>|<p style="font-size: small;">\s*This document was generated using <a href="[^"<>]*"><em>makeinfo'
    r"</em></a>\.\s*</p>"
)
_LIBVIRT = '<input id="searchsite" name="sitesearch" type="hidden" value="libvirt.org"/>'
_LIBVIRT_CHROME = re.compile(r'<div id="nav">.*?</div>\s*+(?=<div id="footer">)', re.DOTALL)
_EIGEN = 'href="eigendoxy.css"'
_EIGEN_SURVEY = re.compile(
    r'<div style="background:#FFDDDD;[^"<>]*+">Please, help us to better know about our user community[^<]*+'
    r'<a href="[^"<>]*+">[^<]*+</a></div>'
)
_SWI = "/* Style sheet for SWI-Prolog latex2html"
_SWI_NOTE = '<sup class="fn">'
_SWI_NOTE_TEXT = re.compile(r'(\d++)<span class="fn-text">')
_SCRIBBLE = 'scribble-common.js"'
_RACKET_BLOCK = '<table cellspacing="0" cellpadding="0" class="RktBlk">'
_RACKET_ROW = "</td></tr><tr><td>"
_VIM = re.compile(r"<TITLE>Vim documentation: [^<]*</TITLE>")
_VIM_LINKS = re.compile(
    r'<A NAME="top"></A>\n<A HREF="index.html">main help file</A>\n|\n?<A HREF="#top">top</A> - '
    r'<A HREF="index.html">main help file</A>\n?'
)
_VIM_RULE = re.compile(
    r"^={70,}[ \t]*\n(?:[ \t]*\n)*(?P<title>[^\n]*?)(?P<tags>(?:[ \t]+\*<A NAME=[^\n]*)?)$", re.MULTILINE
)
_VIM_ANCHOR = re.compile(r'<A NAME="[^"<>]*"></A>')
_VIM_LAST_RULE = re.compile(r"\n={70,}[ \t]*(?=\n*</PRE>)")


def _vim_section(rule: re.Match[str]) -> str:
    """A rule of Vim's help and the line after it as an ``h2``, its tags' anchors in the heading."""
    if not rule["title"].strip():
        return rule[0]
    anchors = "".join(_VIM_ANCHOR.findall(rule["tags"]))
    return f"</PRE>\n<H2>{anchors}{rule['title'].strip()}</H2>\n<PRE>{_VIM_ANCHOR.sub('', rule['tags']).strip()}"


def _swi_notes(text: str) -> str:
    """SWI-Prolog's footnotes, each a ``sup`` where it is cited, as a mark and the note in parentheses (linear: a
    note's end is the next ``</sup>``, looked for once for all the notes before it, not by each to the page's end:
    150,000 that never end took minutes, review V15; a ``sup`` not of that shape stays)."""
    out, at, start, end = [], 0, text.find(_SWI_NOTE), -1
    while start >= 0:
        if end < start:  # else the next </sup> is the one an earlier note found
            end = text.find("</sup>", start)
            if end < 0:
                break
        label = _SWI_NOTE_TEXT.match(text, start + len(_SWI_NOTE))
        if end >= 0 and label is not None and label.end() <= end - 7 and text.startswith("</span>", end - 7):
            out.append(f'{text[at:start]}<sup class="footnote">{label[1]}</sup> ({text[label.end():end - 7]})')
            at = end + len("</sup>")
        start = text.find(_SWI_NOTE, start + len(_SWI_NOTE))
    return "".join(out) + text[at:] if out else text


def _racket_code(text: str) -> str:
    """Scribble's code tables (``table.RktBlk``) of one cell a row and no table inside as ``pre`` blocks, a line a
    row, a result's ``p`` unwrapped (linear: each table ends at the next ``</table>``)."""
    out, at, start = [], 0, text.find(_RACKET_BLOCK)
    while start >= 0:
        end = text.find("</table>", start)
        if end < 0:
            break
        body = text[start + len(_RACKET_BLOCK):end]
        if body.startswith("<tr><td>") and body.endswith("</td></tr>"):
            lines = body[len("<tr><td>"):-len("</td></tr>")].replace(_RACKET_ROW, "\n")
            if "<t" not in lines and "</t" not in lines:
                out.append(f'{text[at:start]}<pre class="RktBlk">{lines.replace("<p>", "").replace("</p>", "")}</pre>')
                at = end + len("</table>")
        start = text.find(_RACKET_BLOCK, end)
    return "".join(out) + text[at:] if out else text


def site_chrome_dropped(text: str) -> str:
    """``text`` without Exim's, Apache's, FFmpeg's, libvirt's or Eigen's site chrome, on their manuals' pages; Vim's
    help parted at its sections, SWI-Prolog's footnotes read as notes, Scribble's code tables as code."""
    if _EXIM in text[:3000]:
        return _EXIM_CHROME.sub("", text)
    if _APACHE in text:
        return _APACHE_CHROME.sub("", text)
    if _FFMPEG in text and _TEXINFO in text[:3000]:
        return _FFMPEG_CHROME.sub("", text)
    if _EIGEN in text[:5000]:
        return _EIGEN_SURVEY.sub("", text, count=1)
    if _LIBVIRT in text:
        return _LIBVIRT_CHROME.sub("", text)
    if _SCRIBBLE in text[:5000]:
        return scribble_definitions(_racket_code(text))
    if _SWI in text[:3000]:
        return _swi_notes(text)
    if _VIM.search(text, 0, 1000):
        return _VIM_RULE.sub(_vim_section, _VIM_LAST_RULE.sub("", _VIM_LINKS.sub("", text)))
    return text
