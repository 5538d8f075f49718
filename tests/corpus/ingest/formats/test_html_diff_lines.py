"""A code block's diff lines keep their mark (task U24): Expressive Code (Starlight's code blocks: ``ec-line del`` /
``ins``) and Shiki's diff notation (VitePress' ``// [!code --]``: ``line diff remove`` / ``add``) show which lines go
and which come by a gutter the style sheet draws, and the reader read both as one run of code ("const logger =
pino()" then "const logger = pino({ level: 'debug' })", as if both stood)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

STARLIGHT = (  # Starlight 0.35.3 (Astro 5) with Expressive Code, a ```diff lang="js" block (task U24)
    '<html><head><title>Upgrade | Pino</title><meta name="generator" content="Starlight v0.35.3"></head>'
    '<body><main><h1 id="_top">Upgrade</h1><div class="expressive-code"><figure class="frame">'
    '<figcaption class="header"></figcaption><pre data-language="js"><code>'
    '<div class="ec-line"><div class="code"><span style="--0:#d0a3ed">const </span>'
    "<span>pino = require('pino')</span></div></div>"
    '<div class="ec-line highlight del"><div class="code"><span style="--0:#d0a3ed">const </span>'
    "<span>logger = pino()</span></div></div>"
    '<div class="ec-line highlight ins"><div class="code"><span style="--0:#d2a6ee">const </span>'
    "<span>logger = pino({ level: 'debug' })</span></div></div>"
    '</code></pre><div class="copy"><button title="Copy to clipboard" data-code="x"></button></div></figure></div>'
    "<p>Then restart.</p></main></body></html>")

VITEPRESS = (  # VitePress 1.6.4, lines marked // [!code --] and // [!code ++] (task U24)
    '<html><head><title>Diff | Fastify</title><meta name="generator" content="VitePress v1.6.4"></head>'
    '<body><div class="vp-doc"><h1 id="diff">Diff</h1>'
    '<div class="language-js vp-adaptive-theme line-numbers-mode"><button title="Copy Code" class="copy"></button>'
    '<span class="lang">js</span><pre class="shiki shiki-themes github-light github-dark has-diff vp-code" '
    'tabindex="0"><code><span class="line"><span>export default {</span></span>\n'
    '<span class="line diff remove"><span>  msg: `Removed`</span></span>\n'
    '<span class="line diff add"><span>  msg: `Added`</span></span>\n'
    '<span class="line"><span>}</span></span></code></pre></div></div></body></html>')


def test_expressive_code_s_removed_and_added_lines_keep_their_mark() -> None:
    document = parse_html(STARLIGHT)
    assert ("```js\nconst pino = require('pino')\n- const logger = pino()\n"
            "+ const logger = pino({ level: 'debug' })\n```") in document.text
    assert "Then restart." in document.text


def test_shiki_s_diff_notation_keeps_its_mark() -> None:
    document = parse_html(VITEPRESS)
    assert "```js\nexport default {\n-   msg: `Removed`\n+   msg: `Added`\n}\n```" in document.text
