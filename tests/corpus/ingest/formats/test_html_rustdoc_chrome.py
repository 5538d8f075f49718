"""rustdoc 1.63's pages of the standard library as Debian bookworm ships them (rust-doc, std/collections): an
example's "Run" link and a signature's "Notable traits" hover card are chrome (task U14)."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

HEAD = ('<head><meta charset="utf-8"><meta name="generator" content="rustdoc">'
        '<title>HashMap in std::collections - Rust</title></head>')
EXAMPLE = ('<div class="example-wrap"><pre class="rust rust-example-rendered"><code><span class="kw">use</span> '
           'std::collections::BinaryHeap;\n<span class="kw">let</span> heap = BinaryHeap::from([1, 5, 2]);</code></pre>'
           '<a class="test-arrow" target="_blank" href="https://play.example/?code=fn%20main()">Run</a></div>')
KEYS = ('<details class="rustdoc-toggle method-toggle" open><summary>'
        '<section id="method.keys" class="method has-srclink"><span class="rightside">'
        '<a class="srclink" href="../../src/std/collections/hash/map.rs.html#359-361">source</a>'
        '</span><a href="#method.keys" class="anchor"></a><h4 class="code-header">pub fn <a href="#method.keys" '
        'class="fnname">keys</a>(&amp;self) -&gt; <a class="struct" href="hash_map/struct.Keys.html">Keys</a>'
        '&lt;\'_, K, V&gt;<span class="notable-traits"><span class="notable-traits-tooltip">ⓘ'
        '<span class="notable-traits-tooltiptext"><span class="docblock"><span class="notable">Notable traits for '
        '<a class="struct" href="hash_map/struct.Keys.html">Keys</a>&lt;\'a, K, V&gt;</span><code class="content">'
        '<span class="where fmt-newline">impl&lt;\'a, K, V&gt; <a class="trait" href="../iter/trait.Iterator.html">'
        'Iterator</a> for Keys&lt;\'a, K, V&gt;</span><span class="where fmt-newline">    type Item = &amp;\'a K;'
        '</span></code></span></span></span></span></h4></section></summary><div class="docblock">'
        '<p>An iterator visiting all keys in arbitrary order.</p></div></details>')


def blocks(body: str, head: str = HEAD) -> list[str]:
    document = parse_html(f"{head}<body><h1 class=\"fqn\">Struct std::collections::HashMap</h1>{body}</body>")
    return [document.text[b.start:b.end] for b in document.blocks]


def test_a_rustdoc_examples_run_link_is_chrome() -> None:
    """Each example's "Run" link (``a.test-arrow``, to the playground) was a paragraph "Run" after the code:
    30 on BinaryHeap's page."""
    assert blocks(f"<p>From an array:</p>{EXAMPLE}<p>Then pop.</p>") == [
        "# Struct std::collections::HashMap", "From an array:",
        "```\nuse std::collections::BinaryHeap;\nlet heap = BinaryHeap::from([1, 5, 2]);\n```", "Then pop."]
    assert "Run" in blocks(EXAMPLE, head="<head></head>")  # a page that names no generator keeps the link


def test_a_rustdoc_signatures_notable_traits_card_is_chrome() -> None:
    """A method returning an iterator carries a hover card inside its heading ("ⓘNotable traits for Keys<'a, K,
    V>impl<'a, K, V> Iterator for Keys<'a, K, V> type Item = &'a K;"): every such method's section was named with
    it; the heading is the signature."""
    assert blocks(KEYS)[1:] == ["#### pub fn keys(&self) -> Keys<'_, K, V>",
                                "An iterator visiting all keys in arbitrary order."]


def title(head_title: str, h1: str, generator: str = '<meta name="generator" content="rustdoc">') -> str | None:
    return parse_html(f"<head>{generator}<title>{head_title}</title></head><body><h1>{h1}</h1><p>x</p></body>").title


def test_a_rustdoc_title_says_what_the_page_is_without_rust() -> None:
    """Every rustdoc title ends with " - Rust" ("BTreeMap in std::collections - Rust"), a language's name after
    what the page is, in every search hit and outline (task R11): rustdoc 1.63's and today's form (the ``h1``
    "Struct std::collections::BTreeMap", later "Struct BTreeMap"), the form before 1.53 and a module's page."""
    assert title("BTreeMap in std::collections - Rust", "Struct std::collections::BTreeMap") == (
        "BTreeMap in std::collections")
    assert title("BTreeMap in std::collections - Rust", "Struct BTreeMap") == "BTreeMap in std::collections"
    assert title("std::collections::BTreeMap - Rust", "Struct std::collections::BTreeMap") == (
        "std::collections::BTreeMap")
    assert title("std::collections - Rust", "Module std::collections") == "std::collections"
    assert title("Rust", "Rust") == "Rust"
    assert title("Crabs - Rust", "About crabs", generator="") == "Crabs - Rust"  # no generator named: as before


CLONE = ('<details class="rustdoc-toggle method-toggle" open><summary><section id="method.clone" class="method '
         'trait-impl has-srclink"><span class="rightside"><a class="srclink" '
         'href="../../src/alloc/string.rs.html#1809">source</a></span><a href="#method.clone" class="anchor"></a>'
         '<h4 class="code-header">fn <a href="../../core/clone/trait.Clone.html#tymethod.clone" class="fnname">clone'
         "</a>(&amp;self) -&gt; Self</h4></section></summary><div class='docblock'><p>Returns a copy of the value. "
         '<a href="../../core/clone/trait.Clone.html#tymethod.clone">Read more</a></p>\n</div></details>')


def test_a_trait_methods_read_more_link_is_chrome() -> None:
    """An implemented trait's method has the trait's first sentence and "Read more" (a link to the rest, no class):
    8,245 on 137 of rust-doc 1.63's 208 alloc pages (task S1). A page that names no generator keeps the words."""
    assert blocks(CLONE)[1:] == ["#### fn clone(&self) -> Self", "Returns a copy of the value."]
    assert "Returns a copy of the value. Read more" in blocks(CLONE, head="<head></head>")
