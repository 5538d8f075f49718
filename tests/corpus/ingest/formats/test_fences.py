"""Code blocks fenced as Markdown writes them, whatever the format (clew.corpus.ingest.formats.fences)."""

import pytest

from clew.corpus.ingest.formats.fences import fenced, html_language, language_name
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.tokenize import tokenize

SYNOPSIS = "npm trust gitlab [package] --file [--project|--repo|--repository] [-y|--yes]"


def code_blocks(html: str) -> list[str]:
    document = parse_html(html)
    document.check()
    return [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]


def test_a_fence_is_longer_than_any_fence_the_code_quotes() -> None:
    assert fenced("ls -l", "bash") == ("```bash\nls -l\n```", 8)
    text, at = fenced("Write:\n```js\nx\n```", "markdown")
    assert text == "````markdown\nWrite:\n```js\nx\n```\n````" and text[at:].startswith("Write:")


def test_a_language_name_is_one_lower_case_word_and_none_is_no_language() -> None:
    assert [language_name(v) for v in ("Python", "c++", "objective-c", "none", "default", "a b", "", None)] == [
        "python", "c++", "objective-c", "", "", "", "", ""]
    assert html_language([("class", "Language-Console line-numbers")]) == "console"
    assert html_language([("class", "sourceCode Haskell")], pre=True) == "haskell"
    assert html_language([("class", "sourceCode Haskell")]) == ""  # a bare class names a language on a pre only
    assert html_language([("class", "highlight jsx")], figure=True) == "jsx"  # Hexo's figure
    assert html_language([("class", "highlight plain")], figure=True) == ""  # Hexo's fence without a language


@pytest.mark.parametrize(("html", "language"), [
    ('<div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>{code}</pre></div></div>',
     "bash"),  # Sphinx (Read the Docs, Furo, PyData, Book themes)
    ('<div class="language-bash highlight"><pre><span></span><code>{code}</code></pre></div>', "bash"),  # MkDocs
    ('<div class="language-bash codeBlockContainer_Ckt0"><div class="codeBlockContent_QJqH"><pre class="prism-code '
     'language-bash codeBlock_bY9V"><code class="codeBlockLines_e6Vv">{code}</code></pre></div></div>',
     "bash"),  # Docusaurus
    ('<figure class="frame"><pre data-language="bash"><code><div class="ec-line">{code}</div></code></pre></figure>',
     "bash"),  # Starlight (Expressive Code)
    ('<div class="language-bash vp-adaptive-theme"><span class="lang">bash</span><pre class="shiki vp-code"><code>'
     '<span class="line">{code}</span></code></pre></div>', "bash"),  # VitePress
    ('<pre><code class="language-bash" data-lang="bash">{code}</code></pre>', "bash"),  # Hugo, highlight.js
    ('<div class="sourceCode" id="cb1"><pre class="sourceCode bash">{code}</pre></div>', "bash"),  # Pandoc
    ('<div class="highlight-default notranslate"><div class="highlight"><pre>{code}</pre></div></div>', ""),
    ("<pre>{code}</pre>", ""),
])
def test_a_pre_is_fenced_with_the_language_its_page_names(html: str, language: str) -> None:
    """The npm set's synopsis as each generator writes it: one code block, fenced as the Markdown
    source (```` ```bash ````) wrote it, its span covering the fences."""
    assert code_blocks(html.format(code=SYNOPSIS)) == [f"```{language}\n{SYNOPSIS}\n```"]


def test_the_html_and_markdown_text_of_a_synopsis_are_the_same() -> None:
    markdown = parse_markdown(f"#### Synopsis\n\n```bash\n{SYNOPSIS}\n```\n")
    html = parse_html('<h4>Synopsis</h4><div class="highlight-bash notranslate"><div class="highlight"><pre>'
                      f"<span></span>{SYNOPSIS}\n</pre></div></div>")
    assert html.text == markdown.text.rstrip("\n")
    assert [(b.kind, b.indivisible) for b in html.blocks] == [(b.kind, b.indivisible) for b in markdown.blocks]
    assert "`" not in "".join(tokenize(html.text))  # the fences are no term; the language is, as in Markdown


def test_code_in_a_data_cell_stays_unfenced_and_the_pre_s_id_is_its_fence() -> None:
    """A fence line inside a table row would end the row: code in a cell is the cell's text. An id on
    the ``pre`` (a callout's, a listing's) points at the block's first line, its fence."""
    document = parse_html("<table><tr><th>STRICT<th>ordinary<tr><td><pre>SELECT 1;</pre><td>x</table>"
                          '<pre id="listing-1"><code class="language-sql">SELECT 2;</code></pre>')
    assert document.text == "| STRICT | ordinary |\n| --- | --- |\n| SELECT 1; | x |\n\n```sql\nSELECT 2;\n```"
    assert document.text.startswith("```sql", document.anchors["listing-1"])


MERMAID = """<p>The simplest approach:</p>
<div align="center" class="mermaid align-center">
            flowchart TD
   User
   structlog

   User --&gt; |&quot;structlog.get_logger().info('foo')&quot;| structlog
        </div>
<p>A basic configuration:</p>"""


def test_a_mermaid_diagram_source_is_code_with_its_lines() -> None:
    """sphinxcontrib-mermaid's div.mermaid (structlog's standard library chapter, task E13), MkDocs Material's
    pre.mermaid: the diagram's source a script draws, read as a mermaid code block, not a one-line paragraph."""
    assert code_blocks(MERMAID) == [
        "```mermaid\n            flowchart TD\n   User\n   structlog\n\n"
        "   User --> |\"structlog.get_logger().info('foo')\"| structlog\n```"]
    assert code_blocks('<pre class="mermaid"><code>graph LR\n  A --&gt; B</code></pre>') == [
        "```mermaid\ngraph LR\n  A --> B\n```"]
    assert code_blocks('<div class="fragment"><div class="line">int x;</div></div>') == []  # Doxygen's, off Doxygen
