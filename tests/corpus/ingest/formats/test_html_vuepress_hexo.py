"""HTML as VuePress 1 (default theme) and Hexo (hexo-theme-doc; its highlighter is every theme's) publish it: excerpts
of markdownlint's and eslint-plugin-jsx-a11y's rule pages as task U26 built them."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html
from tests.corpus.ingest.formats.documents import block_texts

_ICON = ('<span><svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" viewBox="0 0 100 100"'
         ' width="15" height="15" class="icon outbound"><path fill="currentColor" d="M18.8,85.1h56"></path>'
         ' <polygon fill="currentColor" points="45.7,48.7 51.3,54.3"></polygon></svg>'
         ' <span class="sr-only">(opens new window)</span></span>')
VUEPRESS = (
    '<!DOCTYPE html><html lang="en-US"><head><title>MD013 - Line length | markdownlint</title>'
    '<meta name="generator" content="VuePress 1.9.10"></head><body><div id="app"><div class="theme-container">'
    '<header class="navbar"><a href="/" class="home-link"><span class="site-name">markdownlint</span></a></header>'
    '<aside class="sidebar"><ul class="sidebar-links"><li><a href="/doc/md012.html">MD012</a></li></ul></aside>'
    '<main class="page"><div class="theme-default-content content__default">'
    '<h1 id="md013-line-length"><a href="#md013-line-length" class="header-anchor">#</a> <code>MD013</code> - Line'
    ' length</h1><p>For example (assuming normal behavior):</p>'
    '<div class="language-markdown line-numbers-mode"><pre class="language-markdown"><code>IF THIS LINE IS THE MAXIMUM'
    ' LENGTH\nThis line is okay because there are-no-spaces-beyond-that-length\n</code></pre>'
    '<div class="line-numbers-wrapper"><span class="line-number">1</span><br><span class="line-number">2</span><br>'
    '</div></div><p>Rationale: Extremely long lines can be difficult to work with in some editors. More information:'
    ' <a href="https://cirosantilli.com/markdown-style-guide#line-wrapping" target="_blank">'
    f'https://cirosantilli.com/markdown-style-guide#line-wrapping{_ICON}</a>.</p></div>'
    '<footer class="page-edit"><div class="edit-link"><a href="https://github.com/x/edit/doc/md013.md">Edit this page'
    f' on GitHub</a> {_ICON}</div></footer>'
    '<div class="page-nav"><p class="inner"><span class="prev"> ← <a href="/doc/md012.html" class="prev">MD012 -'
    ' Multiple consecutive blank lines</a></span> <span class="next"><a href="/doc/md014.html">MD014 - Dollar signs'
    ' used before commands without showing output</a> →</span></p></div></main></div></div></body></html>'
)


def test_a_vuepress_page_reads_without_its_line_numbers_link_icons_and_prev_next_links() -> None:
    """VuePress 1 writes the line numbers beside code (``markdown.lineNumbers``) as a ``div`` after the ``pre``,
    "(opens new window)" for screen readers inside every link out of the site, and the previous and next pages under
    every page: they read "1 2" after each example, a paragraph "(opens new window)." after each link (its icon, an
    ``svg``, split the sentence), and "← MD012 - ... MD014 - ... →" as the page's last passage. The space between the
    icon and its hidden label read as a space before the full stop after the link ("line-wrapping .", task R18)."""
    document = parse_html(VUEPRESS)
    assert document.title == "MD013 - Line length"
    assert block_texts(document, "code") == [
        "```markdown\nIF THIS LINE IS THE MAXIMUM LENGTH\nThis line is okay because there"
        " are-no-spaces-beyond-that-length\n```"]
    assert block_texts(document, "paragraph") == [
        "For example (assuming normal behavior):",
        "Rationale: Extremely long lines can be difficult to work with in some editors. More information:"
        " https://cirosantilli.com/markdown-style-guide#line-wrapping."]
    for chrome in ("opens new window", "MD012", "MD014", "Edit this page", "\n1\n2"):
        assert chrome not in document.text, chrome


def test_an_inline_svg_ends_no_sentence_on_any_page() -> None:
    """An icon (``svg``) or a formula (``math``) inside a sentence is not a block: the sentence reads whole, without
    the foreign markup's text (here a ``title``) or a paragraph break where it stood."""
    page = ('<html><body><main><p>See <a href="https://example.org/">the guide<svg><title>External</title>'
            '<path d="M0"/></svg></a> for the rest, where <math><mi>x</mi></math> is the width.</p>'
            '<p>Next.</p></main></body></html>')
    assert parse_html(page).text == "See the guide for the rest, where is the width.\n\nNext."


HEXO = (
    '<!DOCTYPE html><html lang="en"><head><title>eslint-plugin-jsx-a11y | jsx-a11y/no-autofocus </title>'
    '<meta name="generator" content="Hexo 4.2.1"></head><body><div class="doc-content"><div class="dc-page">'
    '<div class="dc-card"><div id="page-content" class="doc-formatting"><h1 id="jsx-a11y-no-autofocus">'
    '<a href="#jsx-a11y-no-autofocus" class="headerlink" title="jsx-a11y/no-autofocus"></a>jsx-a11y/no-autofocus</h1>'
    '<h2 id="Rule-options"><a href="#Rule-options" class="headerlink" title="Rule options"></a>Rule options</h2>'
    '<p>This rule takes one optional object argument of type object:</p>'
    '<figure class="highlight json"><table><tr><td class="gutter"><pre><span class="line">1</span><br>'
    '<span class="line">2</span><br><span class="line">3</span><br></pre></td><td class="code"><pre>'
    '<span class="line">&#123;</span><br><span class="line">    <span class="attr">"ignoreNonDOM"</span>: '
    '<span class="literal">true</span></span><br><span class="line">&#125;</span><br></pre></td></tr></table>'
    '</figure><p>For the <code>ignoreNonDOM</code> option, this determines if developer created components are'
    ' checked.</p></div></div></div></div></body></html>'
)


def test_hexo_code_keeps_its_language_without_its_line_numbers() -> None:
    """Hexo's highlighter writes a code block as a table: the line numbers in ``td.gutter``, the code in ``td.code``,
    the language as the second class of ``figure.highlight``. The numbers read as a code block "1 2 3" before every
    example, and the example had no language."""
    document = parse_html(HEXO)
    assert document.title == "jsx-a11y/no-autofocus"
    assert block_texts(document, "code") == ['```json\n{\n    "ignoreNonDOM": true\n}\n```']
    assert "\n1\n2\n3\n" not in document.text


def test_a_gutter_is_chrome_only_on_a_hexo_page() -> None:
    """Elsewhere (Hexo 3 names no generator) a cell of class ``gutter`` is the page's own text."""
    page = HEXO.replace('<meta name="generator" content="Hexo 4.2.1">', "")
    assert "```json\n1\n2\n3\n```" in parse_html(page).text


VUEPRESS2 = (
    '<!doctype html><html lang="en-US"><head><meta name="generator" content="VuePress 2.0.0-rc.30" />'
    '<title>MD011 - Reversed link syntax | markdownlint</title></head><body><div id="app">'
    '<div class="vp-theme-container"><header class="vp-navbar"><a class="route-link" href="/">'
    '<span class="vp-site-name">markdownlint</span></a></header>'
    '<main class="vp-page"><div vp-content><div id="content"><h1 id="md011-reversed-link-syntax" tabindex="-1">'
    '<a class="header-anchor" href="#md011-reversed-link-syntax"><span><code>MD011</code> - Reversed link syntax</span>'
    '</a></h1><p>Tags: <code>links</code></p><h2 id="fix" tabindex="-1"><a class="header-anchor" href="#fix">'
    '<span>Fixing it</span></a></h2><p>To fix this, swap the <code>[]</code> and <code>()</code> around:</p>'
    '<div class="language-markdown line-numbers-mode" data-highlighter="prismjs" data-ext="md"><pre>'
    '<code class="language-markdown"><span class="line">[Correct link syntax](https://www.example.com/)</span>\n'
    '</code></pre><div class="line-numbers" aria-hidden="true"><div class="line-number"></div></div></div>'
    '</div></div></main></div></div></body></html>'
)


def test_a_vuepress_2_heading_inside_its_permalink_is_the_heading() -> None:
    """VuePress 2 wraps each heading's whole text in its permalink (``a.header-anchor``), chrome where it holds a
    glyph: every heading was empty, the page one untitled section titled "MD011 - Reversed link syntax |
    markdownlint" from its ``<title>``."""
    document = parse_html(VUEPRESS2)
    assert document.title == "MD011 - Reversed link syntax"
    assert [s.heading for s in document.sections] == [
        "MD011 - Reversed link syntax", "MD011 - Reversed link syntax", "Fixing it"]
    assert block_texts(document, "code") == ["```markdown\n[Correct link syntax](https://www.example.com/)\n```"]


def test_a_header_anchor_holding_a_glyph_is_still_chrome() -> None:
    """VuePress 1's "#" before a heading, VitePress's zero-width space after it: chrome as before."""
    before = parse_html('<html><body><main><h2 id="a"><a href="#a" class="header-anchor">#</a> Options</h2>'
                        '<p>Text.</p><h2 id="b">Usage <a class="header-anchor" href="#b" aria-label="Permalink to'
                        ' &quot;Usage&quot;">&#8203;</a></h2><p>More.</p></main></body></html>')
    assert [s.heading for s in before.sections][1:] == ["Options", "Usage"]
    assert "#" not in before.text.replace("## ", "") and "\u200b" not in before.text
