"""Texinfo 6.8's index page as Debian bookworm ships GNU diffutils' manual (diffutils-doc 3.8, split by chapter):
the letters that jump into the index are chrome with it (task U14)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

HEAD = ('<head><meta name="description" content="Index (Comparing and Merging Files)">'
        '<meta name="Generator" content="makeinfo"><title>Index (Comparing and Merging Files)</title></head>')
LETTERS = ('<table><tr><th valign="top">Jump to: &nbsp; </th><td><a class="summary-letter" href="#Index_cp_symbol-1">'
           '<b>!</b></a>\n &nbsp; \n<br>\n<a class="summary-letter" href="#Index_cp_letter-A"><b>A</b></a>\n &nbsp; \n'
           '<a class="summary-letter" href="#Index_cp_letter-B"><b>B</b></a>\n &nbsp; \n</td></tr></table>')
INDEX = ('<table class="index-cp" border="0"><tr><td></td><th align="left">Index Entry</th><td>&nbsp;</td>'
         '<th align="left"> Section</th></tr>\n<tr><td colspan="4"> <hr></td></tr>\n'
         '<tr><th id="Index_cp_letter-A">A</th>'
         '<td></td><td></td></tr>\n<tr><td></td><td valign="top"><a href="Invoking-diff.html#index-ignoring-case">'
         'ignoring case</a>:</td><td>&nbsp;</td><td valign="top"><a href="Invoking-diff.html#diff-Options">diff Options'
         '</a></td></tr>\n</table>')
PAGE = (f'{HEAD}<body lang="en"><div class="appendix" id="Index"><div class="header"><p>Previous: '
        '<a href="Translations.html" accesskey="p" rel="prev">Translations</a></p></div>'
        f'<h2 class="appendix">Appendix C Index</h2>\n{LETTERS}\n{INDEX}\n{LETTERS}\n</div></body>')


def test_a_texinfo_indexs_jump_letters_are_chrome() -> None:
    """The index (``table.index-cp``) is chrome, and the letters above and below it ("Jump to: ! A B") were the
    page's only text, two passages of links into what is left out."""
    document = parse_html(PAGE)
    assert [document.text[b.start:b.end] for b in document.blocks] == ["## Appendix C Index"]
    other = parse_html(PAGE.replace("makeinfo", "other"))  # a page that names no generator keeps the letters
    assert "Jump to:" in other.text


TOP = (f'{HEAD.replace("Index (", "Top (")}<body lang="en"><h1 class="settitle" align="center">Comparing and Merging '
       'Files</h1>\n<div class="top" id="Top"><div class="header"><p>Next: <a href="Overview.html" accesskey="n" '
       'rel="next">Overview</a></p></div><span id="Comparing-and-Merging-Files"></span><h1 class="top">Comparing and '
       'Merging Files</h1>\n<p>This manual is for GNU Diffutils (version 3.8, 2 January 2021).</p></div></body>')


def test_a_texinfo_manuals_title_is_not_repeated_over_its_top_node() -> None:
    """The manual's title (``h1.settitle``) over a Top node whose heading says the same was a second heading, an
    empty section first in the outline; a title that differs from the Top node's stays (the frob fixture's)."""
    document = parse_html(TOP)
    assert [s.heading for s in document.sections[1:]] == ["Comparing and Merging Files"]
    assert document.text.startswith("# Comparing and Merging Files\n\nThis manual is for GNU Diffutils")
    other = parse_html(TOP.replace('<h1 class="top">Comparing and Merging Files', '<h1 class="top">Top'))
    assert [s.heading for s in other.sections[1:]] == ["Comparing and Merging Files", "Top"]
