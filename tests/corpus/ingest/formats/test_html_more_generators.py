"""HTML from more generators, read as a reader sees it: pandoc (per-line code ids and self-links),
Asciidoctor (font-icon admonition labels, inline SVG objects), Texinfo (a one-page manual's contents
boxes), mkdocstrings (object badges), and a superscript after a number read as a power."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import load_html


def test_pandoc_code_lines_are_neither_anchors_nor_links() -> None:
    """Pandoc gives every line of a highlighted example its own id and an empty link to it
    (``<span id="cb1-1"><a href="#cb1-1" aria-hidden="true">``): the code reads as written, its block
    keeps the ``div.sourceCode`` id, and no line is an anchor or a link. A footnote's way back
    (``a.footnote-back``, the glyph ``↩︎``) is not text; the table, the term and the note are read."""
    document = load_html("pandoc-page.html")
    document.check()
    assert document.title == "Widget guide"
    assert "```bash\nwidget install --user\nwidget --version\n```\n\nTerm" in document.text
    assert sorted(document.anchors) == ["cb1", "fn1", "fnref1", "install"]
    assert document.text.startswith("```bash\nwidget install", document.anchors["cb1"])
    assert [link.href for link in document.links] == ["#fn1"]
    assert document.text.endswith("| --user | off |\n\n1. The installer needs a network connection.")
    assert [document.text[b.start:b.end] for b in document.blocks if b.kind == "table_header"] == [
        "| Option | Default |\n| --- | --- |"]


def test_a_hidden_link_in_code_keeps_an_id_it_does_not_name() -> None:
    """Only the line's own id goes with its link: a callout's id in code (DocBook's ``a#co1``), linked from
    the text, stays an anchor, and a visible link in code stays a link."""
    document = parse_html('<pre><a id="co1"></a>make all\n<a href="#cb9" aria-hidden="true"></a>'
                          'make <a href="install.html">install</a></pre><p><a href="#co1">(1)</a> builds.</p>')
    assert document.anchors == {"co1": 0}
    assert [link.href for link in document.links] == ["install.html", "#co1"]
    assert document.text == "```\nmake all\nmake install\n```\n\n(1) builds."


def test_asciidoctor_font_icon_names_its_admonition() -> None:
    """Asciidoctor with ``:icons: font`` writes an admonition's kind only as its icon's title
    (``td.icon > i.fa.icon-note[title=Note]``): that is its label, as ``div.title`` is without icons."""
    cell = ('<div class="admonitionblock {kind}"><table><tr><td class="icon">{icon}</td>'
            '<td class="content">{text}</td></tr></table></div>')
    page = ('<div class="sect1"><h2 id="_blocks">Blocks</h2><div class="sectionbody">'
            + cell.format(kind="note", icon='<i class="fa icon-note" title="Note"></i>', text="Grabs attention.")
            + cell.format(kind="tip", icon='<div class="title">Tip</div>', text="Try it.")
            + '<div class="paragraph"><p>Press <i class="fa fa-save" title="Save"></i> to keep it.</p></div>'
            + "</div></div>")
    document = parse_html(page)
    document.check()
    assert document.text == "## Blocks\n\nNote: Grabs attention.\n\nTip: Try it.\n\nPress to keep it."
    assert [b.kind for b in document.blocks] == ["heading", "paragraph", "paragraph", "paragraph"]


def test_asciidoc_python_admonition_without_its_kind_is_one_block_not_a_table() -> None:
    """AsciiDoc 10 (Python, ``xhtml11``: git's manual pages) writes ``div.admonitionblock`` without the kind
    Asciidoctor adds (``admonitionblock note``): still an admonition, its ``div.title`` the label, not a
    two-column data table ``| Note | ... |``."""
    page = ('<div class="sect1"><h2 id="_notes">Notes</h2><div class="sectionbody"><div class="admonitionblock">'
            '<table><tr><td class="icon"><div class="title">Note</div></td><td class="content"><code>ORIG_HEAD</code>'
            ' is not guaranteed to still point to the previous branch tip.</td></tr></table></div>'
            '<div class="paragraph"><p>The commits are applied.</p></div></div></div>')
    document = parse_html(page)
    document.check()
    assert document.text == ("## Notes\n\nNote: ORIG_HEAD is not guaranteed to still point to the previous branch"
                             " tip.\n\nThe commits are applied.")
    assert document.tables == []


def test_texinfo_table_of_contents_of_a_one_page_manual_is_dropped() -> None:
    """A manual made by makeinfo as one page (Bash's ``bashref.html``) opens with its "Table of Contents"
    (``div#SEC_Contents``, its ``h2`` inside), links to the page's own headings: dropped like DocBook's,
    heading included. The same box linking to other pages (a split manual's) is kept."""
    head = '<head><meta name="Generator" content="makeinfo"></head>'
    contents = ('<div class="Contents_element" id="SEC_Contents"><h2 class="contents-heading">Table of Contents'
                '</h2><div class="contents"><ul class="no-bullet"><li><a id="toc-Introduction-1" href="{href}">'
                '1 Introduction</a></li><li><a href="{href2}">2 Definitions</a></li></ul></div></div>')
    body = '<div class="chapter" id="Introduction"><h2 class="chapter">1 Introduction</h2><p>Bash is a shell.</p></div>'
    one_page = parse_html(head + contents.format(href="#Introduction", href2="#Definitions") + body)
    one_page.check()
    assert one_page.text == "## 1 Introduction\n\nBash is a shell."
    assert [s.heading for s in one_page.sections if s.level] == ["1 Introduction"]
    assert "toc-Introduction-1" not in one_page.anchors and one_page.links == []
    pages = contents.format(href="Introduction.html#Introduction", href2="Definitions.html#Definitions")
    split = parse_html(head + pages + body)
    assert split.text.startswith("## Table of Contents\n\n- 1 Introduction\n- 2 Definitions\n\n## 1 Introduction")


def test_mkdocstrings_badges_are_not_part_of_an_objects_heading() -> None:
    """mkdocstrings (MkDocs Material) writes an API object's kind as badges in its heading
    (``span.doc-labels > small.doc-label``): the section is named by the object alone, its id kept."""
    document = parse_html(
        '<h2 id="clewcorpus"><code>clew.Corpus</code></h2><div class="doc doc-object doc-class">'
        '<h3 id="clew.Corpus.readers" class="doc doc-heading">\n'
        '<span class="doc doc-object-name doc-attribute-name">readers</span>\n<span class="doc doc-labels">\n'
        '<small class="doc doc-label doc-label-instance-attribute"><code>instance-attribute</code></small>\n'
        '</span>\n<a href="#clew.Corpus.readers" class="headerlink" title="Permanent link">&para;</a></h3>\n'
        '<div class="doc-signature highlight"><pre><code>readers = Readers()\n</code></pre></div>'
        '<div class="doc doc-contents "><p>The readers.</p></div></div>')
    document.check()
    assert [(s.heading, s.anchors) for s in document.sections if s.level] == [
        ("clew.Corpus", ["clewcorpus"]), ("readers", ["clew.Corpus.readers"])]
    assert document.text == "## clew.Corpus\n\n### readers\n\n```\nreaders = Readers()\n```\n\nThe readers."


def test_a_superscript_after_a_number_is_a_power() -> None:
    """``2<sup>31</sup>-1`` (SQLite's limits, PostgreSQL's, the Rust book's ``2<sup>n - 1</sup>``) reads
    ``2^31-1``, not ``231-1``; after a word a ``sup`` is a footnote's mark and stays as it is."""
    document = parse_html('<p>Up to 2<small><sup>31</sup></small>-1 bytes; 1024<sup>2</sup> = 1048576; '
                          '-(2<sup>n - 1</sup>); M &times; 2<sup><small>E</small></sup>.</p>'
                          '<p>Listed in precedence<sup>1</sup> order; (a + b)<sup>2</sup>.</p>')
    assert document.text == ("Up to 2^31-1 bytes; 1024^2 = 1048576; -(2^n - 1); M × 2^E.\n\n"
                             "Listed in precedence1 order; (a + b)^2.")
    grammar = parse_html("<p><em>MetaSeq</em><sup>?</sup> ( , <em>MetaItem</em> )<sup>*</sup> 2<sup></sup>3</p>")
    assert grammar.text == "MetaSeq? ( , MetaItem )* 23"


def test_an_inline_object_keeps_its_sentence_whole() -> None:
    """Asciidoctor writes an inline SVG image as an ``object`` holding its alt text: the sentence
    around it is one paragraph ("Press reload to reload the page."), not three."""
    document = parse_html('<div class="paragraph"><p>Press <span class="image"><object type="image/svg+xml" '
                          'data="reload.svg" width="16"><span class="alt">reload</span></object></span> to reload '
                          'the page.</p></div>')
    assert document.text == "Press reload to reload the page."
    assert [b.kind for b in document.blocks] == ["paragraph"]
