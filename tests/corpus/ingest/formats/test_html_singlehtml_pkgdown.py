"""Sphinx's singlehtml builder and R's pkgdown (task U32's trial): excerpts of Babel 2.18's manual built by
Sphinx 9.0.4 as one page and of dplyr 1.0.10's site built by pkgdown 2.0.7 (Bootstrap 5), trimmed to the elements
the reader meets."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

SINGLEHTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8" /><title>Babel 2.18.0 documentation</title></head><body>
<div class="document"><div class="body" role="main">
<section id="babel"><h1>Babel<a class="headerlink" href="#babel" title="Link to this heading">¶</a></h1>
<div class="toctree-wrapper compound"><span id="document-intro"></span><section id="introduction">
<h3>Introduction<a class="headerlink" href="#introduction" title="Link to this heading">¶</a></h3>
<p>See <a class="reference internal" href="#document-messages#messages"><span class="std std-ref">Working with
Message Catalogs</span></a> for details on this aspect of Babel.</p>
<p>For more information about timezones see <a class="reference internal" href="#timezone-support"><span
class="std std-ref">Time-zone Support</span></a>.</p>
<section id="timezone-support"><h4>Time-zone Support<a class="headerlink" href="#timezone-support">¶</a></h4>
<p>Babel uses either zoneinfo or pytz for timezone support.</p>
</section></section>
<span id="document-messages"></span><section id="working-with-message-catalogs">
<span id="messages"></span><h3>Working with Message Catalogs<a class="headerlink"
href="#working-with-message-catalogs" title="Link to this heading">¶</a></h3>
<p>The gettext translation system enables you to mark any strings used in your application.</p>
</section></div></section></div></div></body></html>"""


def test_singlehtml_reference_to_another_source_file_names_its_label() -> None:
    """Sphinx's singlehtml writes a reference into another source file as ``#document-messages#messages``: two
    fragments, which name no id of the page, so each such link (116 of the 128 in-page links of Babel's manual)
    landed on the page's first passage. The label after the last ``#`` is the section the reference names."""
    document = parse_html(SINGLEHTML)
    document.check()
    hrefs = [link.href for link in document.links]
    assert hrefs == ["#messages", "#timezone-support"]
    target = document.text[document.anchors["messages"] :]
    assert target.splitlines()[0].endswith(" Working with Message Catalogs")


def test_another_fragment_holding_a_hash_is_kept() -> None:
    """SQLite's stricttables.html links ``fileformat2.html##sqltab``, and fileformat2.html names the place
    ``<a name="#sqltab">``: that fragment matches as written."""
    document = parse_html('<p>See the <a href="fileformat2.html##sqltab">schema table</a>.</p>')
    assert [link.href for link in document.links] == ["fileformat2.html##sqltab"]


PKGDOWN_ARTICLE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Column-wise operations • dplyr</title></head><body><div class="container template-article">
<div class="row"><main id="main" class="col-md-9"><div class="page-header">
<img src="../logo.png" class="logo" alt=""><h1>Column-wise operations</h1>
<small class="dont-index">Source: <a href="https://github.com/tidyverse/dplyr/blob/HEAD/vignettes/colwise.Rmd"
class="external-link"><code>vignettes/colwise.Rmd</code></a></small>
<div class="d-none name"><code>colwise.Rmd</code></div>
</div>
<p>It’s often useful to perform the same operation on multiple columns:</p>
<div class="sourceCode" id="cb1"><pre class="downlit sourceCode r">
<code class="sourceCode R"><span><span class="va">df</span> <span class="op"><a
href="https://rdrr.io/pkg/magrittr/man/pipe.html" class="external-link">%&gt;%</a></span> </span>
<span>  <span class="fu"><a href="../reference/group_by.html">group_by</a></span><span class="op">(</span><span
class="va">g1</span><span class="op">)</span></span></code></pre></div>
</main></div></div></body></html>"""


def test_pkgdown_code_is_r() -> None:
    """downlit (pkgdown's highlighter) writes ``pre.downlit.sourceCode.r``: the language is the class after
    ``sourceCode``, as in Pandoc's ``pre.sourceCode.r``; every example of the site read as ```` ```downlit ````."""
    document = parse_html(PKGDOWN_ARTICLE)
    code = [document.text[b.start : b.end] for b in document.blocks if b.kind == "code"]
    assert code == ["```r\ndf %>% \n  group_by(g1)\n```"]


def test_pkgdown_title_and_page_header() -> None:
    """pkgdown titles a page "Column-wise operations • dplyr": the site's name after a bullet, read as part of the
    title (118 of the site's 118 pages). Under the title it writes the source's repository link (``small.dont-index``,
    "Source: vignettes/colwise.Rmd") and the source file's name hidden by Bootstrap's ``d-none``: both opened every
    page's first passage."""
    document = parse_html(PKGDOWN_ARTICLE)
    document.check()
    assert document.title == "Column-wise operations"
    first = document.text[document.blocks[1].start : document.blocks[1].end]
    assert first == "It’s often useful to perform the same operation on multiple columns:"
    assert "Source:" not in document.text
    assert "colwise.Rmd" not in document.text


def test_bootstrap_hidden_class_shown_at_a_width_stays() -> None:
    """``d-none d-md-block`` is shown from a medium width on: text."""
    document = parse_html('<div class="d-none d-md-block"><p>Wide screens see this.</p></div><p>All see this.</p>')
    assert document.text == "Wide screens see this.\n\nAll see this."


PKGDOWN_EXAMPLES = """<div class="section level2">
<h2 id="ref-examples">Examples<a class="anchor" aria-label="anchor" href="#ref-examples"></a></h2>
<div class="sourceCode"><pre class="sourceCode r"><code><span class="r-in"><span><span class="co"># A purrr-style \
formula</span></span></span>
<span class="r-in"><span><span class="va">iris</span> <span class="op"><a href="https://rdrr.io/pkg/magrittr/man/\
pipe.html" class="external-link">%&gt;%</a></span></span></span>
<span class="r-in"><span>  <span class="fu"><a href="group_by.html">group_by</a></span><span class="op">(</span><span \
class="va">Species</span><span class="op">)</span></span></span>
<span class="r-out co"><span class="r-pr">#&gt;</span> <span style="color: #949494;"># A tibble: 3 × 3</span></span>
<span class="r-in"><span></span></span>
<span class="r-in"><span></span></span>
<span class="r-in"><span><span class="co"># A named list of functions</span></span></span>
<span class="r-in"><span><span class="va">iris</span></span></span>
<span class="r-out co"><span class="r-pr">#&gt;</span>   Species    Sepal.Length</span>
<span class="r-in"><span></span></span>
</code></pre></div>
</div>"""


def test_pkgdown_examples_are_parted_at_their_blank_lines() -> None:
    """pkgdown writes a reference page's examples as one ``pre``: one indivisible passage of up to 14,016 tokens
    (the Examples of dplyr's site held 129,783 of its 240,427 tokens). The blank input lines part them, each part a
    code block; a blank line at the end parts nothing."""
    document = parse_html(PKGDOWN_EXAMPLES)
    document.check()
    code = [document.text[b.start : b.end] for b in document.blocks if b.kind == "code"]
    assert code == [
        "```r\n# A purrr-style formula\niris %>%\n  group_by(Species)\n#> # A tibble: 3 × 3\n```",
        "```r\n# A named list of functions\niris\n#>   Species    Sepal.Length\n```",
    ]


RMARKDOWN_VIGNETTE = """<!DOCTYPE html><html><head><meta charset="utf-8" /><title>Introducing magrittr</title></head>
<body>
<h1 class="title toc-ignore">Introducing magrittr</h1>
<h4 class="author">Stefan Milton Bache</h4>
<h4 class="date">November, 2014</h4>
<div id="abstract" class="section level1">
<h1>Abstract</h1>
<p>The <em>magrittr</em> package has two aims: decrease development time and improve readability.</p>
</div>
</body></html>"""


def test_rmarkdown_title_block_date_is_no_section() -> None:
    """R Markdown's title block (Debian's r-cran-magrittr vignette, rmarkdown's html_vignette) writes the date as
    ``h4.date`` under the title: a section "November, 2014" of no passages in the outline, as its ``h4.author`` was
    before it became a byline. Both are paragraphs under the title."""
    document = parse_html(RMARKDOWN_VIGNETTE)
    document.check()
    assert [(s.heading, s.level) for s in document.sections[1:]] == [("Introducing magrittr", 1), ("Abstract", 1)]
    assert "Stefan Milton Bache\n\nNovember, 2014" in document.text


# dplyr 1.0.10's news/index.html (pkgdown 2.0.7), its head and first version cut
PKGDOWN_NEWS = """<!DOCTYPE html>
<!-- Generated by pkgdown: do not edit by hand --><html lang="en"><head><meta charset="utf-8">\
<title>Changelog • dplyr</title></head><body>
<div class="container template-news">
<div class="row">
  <main id="main" class="col-md-9"><div class="page-header">
      <img src="../logo.png" class="logo" alt=""><h1>Changelog</h1>
      <small>Source: <a href="https://github.com/tidyverse/dplyr/blob/HEAD/NEWS.md" class="external-link">\
<code>NEWS.md</code></a></small>
    </div>

    <div class="section level2">
<h2 class="pkg-version" data-toc-text="1.0.10" id="dplyr-1010">dplyr 1.0.10<a class="anchor" aria-label="anchor" \
href="#dplyr-1010"></a></h2>
<p>Hot patch release to resolve R CMD check failures.</p>
</div>
  </main></div></div></body></html>"""


def test_pkgdown_changelog_source_link_is_chrome() -> None:
    """pkgdown writes "Source: NEWS.md" under the changelog's title without the class ``dont-index`` its other pages'
    source links have: it opened the page's first passage."""
    document = parse_html(PKGDOWN_NEWS)
    document.check()
    assert document.title == "Changelog"
    assert document.text == "# Changelog\n\n## dplyr 1.0.10\n\nHot patch release to resolve R CMD check failures."
    other = parse_html(PKGDOWN_NEWS.replace("<!-- Generated by pkgdown: do not edit by hand -->", ""))
    assert "Source: NEWS.md" in other.text  # another generator's page keeps such a line
