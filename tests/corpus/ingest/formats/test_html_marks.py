"""Footnote marks and Asciidoctor's callout lists in the HTML reader (``html_marks``): each generator's
mark shape as it writes it, and the callout list with font icons beside the one without."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import load_html

MARKS = {
    "pandoc": ('<p>Run the installer<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref">'
               "<sup>1</sup></a> first.</p>", "Run the installer [1] first.", "#fn1"),
    "docutils": ('<p>organised<a class="footnote-reference brackets" href="#id2" id="id1" role="doc-noteref">'
                 '<span class="fn-bracket">[</span>1<span class="fn-bracket">]</span></a> first.</p>',
                 "organised [1] first.", "#id2"),
    "docbook xsl": ('<p>the installer<sup>[<a id="id-1" href="#ftn.id-1" class="footnote">1</a>]</sup> runs.</p>',
                    "the installer [1] runs.", "#ftn.id-1"),
    "docbook xsl-ns": ('<p>indexes.<a href="#ftn.id-1.10" class="footnote"><sup class="footnote" id="id-1.10">'
                       "[17]</sup></a> More.</p>", "indexes. [17] More.", "#ftn.id-1.10"),
    "asciidoctor": ('<p>has a footnote.<sup class="footnote">[<a id="_footnoteref_1" class="footnote" '
                    'href="#_footnotedef_1" title="View footnote.">1</a>]</sup></p>',
                    "has a footnote. [1]", "#_footnotedef_1"),
    "mdbook": ('<p>run-time.<sup class="footnote-reference"><a href="#phase-distinction">1</a></sup> Semantic</p>',
               "run-time. [1] Semantic", "#phase-distinction"),
    "mediawiki": ('<p>installer<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> runs.</p>',
                  "installer [1] runs.", "#cite_note-1"),
    "tex4ht": ('<p class="indent">only when it binds.<span class="footnote-mark"><a \nhref="budgets2.html#fn1x0">'
               '<sup class="textsuperscript">1</sup></a></span><a \n id="x1-3001f1"></a> </p>',
               "only when it binds. [1]", "budgets2.html#fn1x0"),
    "latex2html": ('<P>\nA budget stops the walk only when it binds.<A ID="tex2html1"\n  HREF="#foot10"><SUP><SPAN '
                   'CLASS="arabic">1</SPAN></SUP></A>\n<P>', "A budget stops the walk only when it binds. [1]",
                   "#foot10"),
    "hevea": ('<p>\nsays which budget bound.<sup><a id="text1" href="#note1">1</a></sup>\n</p>',
              "says which budget bound. [1]", "#note1"),
}


@pytest.mark.parametrize("generator", sorted(MARKS))
def test_a_footnote_mark_reads_apart_from_its_word(generator: str) -> None:
    """Every generator's footnote mark reads `` [1]``, not glued to the word before it ("installer1"),
    and its link to the note starts at the ``[``."""
    page, text, href = MARKS[generator]
    document = parse_html(page)
    document.check()
    assert document.text == text
    assert [link.href for link in document.links] == [href]
    assert document.text[document.links[0].start:].startswith("[")


def test_a_footnote_mark_after_a_number_is_no_power() -> None:
    """F2's power rule stands beside the marks: ``2<sup>31</sup>-1`` is ``2^31-1``; a footnote's sup after
    a year is its mark; an empty mark writes nothing."""
    document = parse_html('<p>Up to 2<sup>31</sup>-1 since 2019<sup class="footnote">[<a class="footnote" '
                          'href="#n2">2</a>]</sup> and 1024<sup>2</sup>.<a class="footnote-ref" href="#x"></a></p>')
    assert document.text == "Up to 2^31-1 since 2019 [2] and 1024^2."


def test_the_latex_converters_marks_read_apart_and_so_do_their_notes() -> None:
    """LaTeX2HTML, TeX4ht and HeVeA glued a footnote's mark to the word before it ("binds.1"; task R5). Their
    notes' labels read as marks too: TeX4ht's note page ``[1] Tool calls ...`` (its label glued to the
    note's first word before), LaTeX2HTML's note ``... binds. [1]`` (its link back), HeVeA's ``[1]``."""
    for name in ("latex2html/budgets.html", "tex4ht/budgets.html", "tex4ht/budgetsse1.html"):
        document = load_html(name)
        document.check()
        assert "only when it binds. [1]\n\n" in document.text, name
    assert "Footnotes\n\n... binds. [1]\n\nTool calls" in load_html("latex2html/budgets.html").text
    assert "which budget bound. [1]\n\n" in load_html("hevea/budgets.html").text
    note = ('<div class="footnote-text"><p class="indent">     <span class="footnote-mark"><a \n id="fn1x0"><a \n'
            ' id="x4-3002x1.1"></a>   <sup class="textsuperscript">1</sup></a></span><span \nclass="cmr-8">Tool calls'
            ' that run out are reported.</span></div>')
    assert parse_html(note).text == "[1] Tool calls that run out are reported."
    assert parse_html('<dt><a id="note1" href="#text1">1</a></dt>').text == "[1]"


def test_a_link_named_like_a_note_is_no_mark_without_its_pair() -> None:
    """:data:`html_marks.NOTE_LINKS` asks for the id and the fragment together: a link to ``#note1`` without
    HeVeA's ``text1`` id, and LaTeX2HTML's contents links (``tex2html7`` to a section), are text."""
    page = ('<p>See<a href="#note1">1</a> and <a id="x" href="#note2">note 2</a>; <a id="tex2html7" '
            'href="budgets.html#SECTION0002">Budgets</a>2</p>')
    assert parse_html(page).text == "See1 and note 2; Budgets2"


def test_the_pandoc_page_cites_its_note_as_bracketed() -> None:
    """The pandoc fixture: the mark reads ``installer [1]``, is the anchor its note links back to, and
    links to the note."""
    document = load_html("pandoc-page.html")
    assert "Run the installer [1] and" in document.text
    assert document.text.startswith("[1] and", document.anchors["fnref1"])
    assert [link.href for link in document.links] == ["#fn1"]


def test_a_callout_list_with_font_icons_is_the_list_it_is_without() -> None:
    """Asciidoctor's callout list under ``:icons: font`` is a table of ``i.conum`` numbers and texts; it
    reads as the numbered list Asciidoctor writes without icons (``div.colist > ol``)."""
    icons = ('<div class="listingblock"><div class="content"><pre>puts \'Hello\' <i class="conum" data-value="1">'
             '</i><b>(1)</b></pre></div></div><div class="colist arabic"><table><tr><td><i class="conum" '
             'data-value="1"></i><b>1</b></td><td>Prints <code>Hello</code> to the console.</td></tr><tr><td>'
             '<i class="conum" data-value="2"></i><b>2</b></td><td>Ends.</td></tr></table></div>')
    plain = ('<div class="listingblock"><div class="content"><pre>puts \'Hello\' <b class="conum">(1)</b></pre>'
             '</div></div><div class="colist arabic"><ol><li><p>Prints <code>Hello</code> to the console.</p>'
             "</li><li><p>Ends.</p></li></ol></div>")
    document = parse_html(icons)
    document.check()
    assert document.text == "```\nputs 'Hello' (1)\n```\n\n1. Prints Hello to the console.\n2. Ends."
    assert document.text == parse_html(plain).text
    assert document.tables == []


def test_a_table_of_two_columns_without_callout_numbers_stays_a_table() -> None:
    """Only rows whose first cell holds ``i.conum[data-value]`` make a callout list."""
    document = parse_html("<table><tr><th>Key</th><th>Value</th></tr><tr><td>1</td><td>one</td></tr></table>")
    assert document.text == "| Key | Value |\n| --- | --- |\n| 1 | one |"


def test_an_mdbook_note_reads_with_its_label_as_docutils_notes_do() -> None:
    """mdBook (pulldown-cmark) writes a note as ``div.footnote-definition``, its number a ``sup`` before the
    note's paragraphs (The rustc book's platform tables): the number opens the note's first paragraph in brackets,
    as its mark reads, not a paragraph "1" of its own; the note's id stays its anchor, the mark's link its link."""
    page = ('<main><h1>Platform Support</h1><table><thead><tr><th>target</th><th>notes</th></tr></thead><tbody><tr>'
            '<td>aarch64-unknown-linux-gnu</td><td>ARM64 Linux <sup class="footnote-reference"><a href="#missing-'
            'stack-probes">1</a></sup></td></tr></tbody></table>\n<div class="footnote-definition" id="missing-stack-'
            'probes"><sup class="footnote-definition-label">1</sup>\n<p>Stack probes support is missing.</p>\n'
            '<p>It is planned.</p>\n</div>\n<h2 id="tier-2">Tier 2</h2><p>Guaranteed to build.</p></main>')
    document = parse_html(page)
    note = document.text.index("[1] Stack probes support is missing.\n\nIt is planned.")
    assert document.text.endswith("| ARM64 Linux [1] |\n\n[1] Stack probes support is missing.\n\nIt is planned."
                                  "\n\n## Tier 2\n\nGuaranteed to build.")
    assert document.anchors["missing-stack-probes"] == note
    assert [link.href for link in document.links] == ["#missing-stack-probes"]
