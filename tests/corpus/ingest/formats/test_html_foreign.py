"""Skipped foreign content (``svg``, ``math``) passed over without tokenizing it (``html_foreign``), and the
tags whose start may be read ahead (``html_ahead.READ_AHEAD_TAGS``): the same parse as before."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_ahead import READ_AHEAD_TAGS, read_ahead_start
from clew.corpus.ingest.formats.html_foreign import ForeignSkip
from clew.corpus.ingest.formats.html_parts import counts_down
from clew.corpus.ingest.formats.html_rules import page_toc_start

DIAGRAM = ('<svg class="pikchr" viewBox="0 0 100 40"><path d="M 0,0 L 10,10" style="fill:none"/>'
           '<polygon points="1,2 3,4" style="fill:rgb(0,0,0)"/><text x="5" y="6" text-anchor="middle" '
           'fill="rgb(0,0,0)" dominant-baseline="central">expr &amp; x</text>\n<circle cx=\'1\' cy="2" r="3"/>'
           '<g><rect width="1" height="2" hidden></rect></g></svg>')

TRICKY = [
    DIAGRAM,
    '<svg><text title="</svg>">a</text></svg><p>after</p>',  # the end tag's text in an attribute value
    "<svg><!-- </svg> --><text>a</text></svg><p>after</p>",  # ... in a comment
    "<svg><style>x</svg>{}</style><text>b</text></svg><p>after</p>",  # ... in raw text
    "<svg><svg><path/></svg><text>inner</text></svg><p>after</p>",  # nested
    "<svg><text>a</text><p>breaks out</p></svg><p>after</p>",  # the HTML algorithm's breakout
    '<svg><table><tr><td>cell</td></tr></table></svg><p>after</p>',  # a table inside: read ahead
    '<svg><div class="toc"><a href="#x">x</a></div></svg><p>after</p>',
    '<svg><span class="sep"></span>t</svg><p>after</p>',
    '<svg><ol reversed><li>a</li></ol></svg><p>after</p>',
    "<table><tr><td>held <svg><path/><text>a</text></svg> cell</td><td>2</td></tr></table>",  # inside a hold
    "<p>open<svg><path/><text>never closed",
    '<svg><text x=1>unquoted</text></svg><p>after</p>',
    "<SVG><TEXT X='1'>upper</TEXT></SVG ><p>after</p>",
    "<svg><text>a < b</text></svg><p>after</p>",
    "<svg><text>x</text></svg/><p>after</p>",
    "<svg><text>x</text></ svg><p>still in</p></svg><p>after</p>",
    "<svg><text>x</text></svgs></svg><p>after</p>",
    "<math><mi>x</mi><mo>=</mo><mn>2</mn></math><p>after</p>",
    "<svg/><p>after the empty one</p>",
    "<title>T <svg><path/></svg></title><h1>Head</h1><p>after</p>",
    '<svg><text>a</text></svg><svg><path d="1"/></svg><p>between</p><svg><text>b</text></svg>',
    "<svg><?pi ?><text>a</text></svg><p>after</p>",
    '<svg><text a="x"b="y">tight</text></svg><p>after</p>',
    "<svg><text\u00a0x='1'>nbsp</text></svg><p>after</p>",
    "<svg><text>x</text></svg\u00a0><p>after</p>",
]


def _pages() -> list[str]:
    fixtures = Path(__file__).resolve().parents[3] / "fixtures" / "html"
    return [p.read_text(encoding="utf-8") for p in sorted(fixtures.rglob("*.html"))]


def _random_pages(count: int, seed: int = 7) -> list[str]:
    """Pages of svg or math elements around HTML, each element's content mostly SVG shapes and text with now
    and then a token the pass-over must refuse (a heeded tag, a comment, an end tag's text in a value...)."""
    shapes = ["<path d='1'/>", '<text x="2">', "</text>", "<g>", "</g>", "text ", "&amp;", "\n", "<rect hidden/>",
              "<circle r='1'></circle>", '<tspan dy="1" >']
    refused = ["<svg>", "<math>", "</math>", "<p>", "</p>", "<div>", '<div class="toc">', "</div>", "<table>",
               "<td>", "</table>", "<span>", "</span>", "<style>", "</style>", "<script>", "</script>", "<!-- c -->",
               "<!--", "-->", "a < b", '<text title="</svg>">', "<text title='>'>", "</SVG>", "<Svg >", "</svg >",
               "<b>", "</b>", "<h1>", "</h1>", "<ol reversed>", "</ol>", "<li>", "<br>", "<title>", "</title>",
               "<text bare=1>", "<![CDATA[x]]>", "<a href='#x'>", "</a>", "<?x ?>", '<main class="pdoc">', "</main>",
               "<starlight-tabs>"]
    rng = random.Random(seed)
    pages = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 4)):
            tag = rng.choice(["svg", "svg", "math"])
            inside = [rng.choice(refused if rng.random() < 0.04 else shapes) for _ in range(rng.randint(0, 25))]
            parts += [rng.choice(["<p>x", "", "<li>y", "<td>z"]), f"<{tag}>", *inside, rng.choice([f"</{tag}>", ""])]
        pages.append("".join(parts))
    return pages


def test_passing_over_foreign_content_parses_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fixture page, the cases the pass-over must refuse and 1,500 random pages parse alike with the
    pass-over and without it (``ForeignSkip.past`` returning where the start tag ends)."""
    pages = [*_pages(), *TRICKY, *(f"<h1>T</h1><p>a {case} b</p>" for case in TRICKY), *_random_pages(1500)]
    kinds = [{}, {"embedded": True}, {"collapsible": True}]
    passed = [parse_html(page, **kind) for page in pages for kind in kinds]  # type: ignore[arg-type]
    monkeypatch.setattr(ForeignSkip, "past", lambda self, rawdata, start, tag: start)
    assert [parse_html(page, **kind) for page in pages for kind in kinds] == passed  # type: ignore[arg-type]
    assert parse_html(DIAGRAM + "<p>after</p>").text == "after"


def test_foreign_content_is_passed_over_only_where_nothing_in_it_is_read() -> None:
    start = DIAGRAM.index(">") + 1
    assert ForeignSkip().past(DIAGRAM, start, "svg") == DIAGRAM.index("</svg>")
    for case in TRICKY[1:10]:
        opened = case.index(">") + 1
        assert ForeignSkip().past(case, opened, "svg") == opened, case
    assert ForeignSkip().past("<script>x</script>", 8, "script") == 8  # raw text: the parser's own
    assert ForeignSkip().past("<svg><path/>", 5, "svg") == 5  # never closed


def test_the_end_tag_is_searched_once_for_many_unclosed_elements() -> None:
    """A page of 20,000 unclosed ``svg`` (each ended by a ``p``) and no end tag: one search, not one each."""
    skip = ForeignSkip()
    page = "<svg><p>x</p>" * 20_000
    starts = [i + 5 for i in range(0, len(page), 13)]
    assert all(skip.past(page, start, "svg") == start for start in starts)
    assert skip._ends == {"svg": (5, -1)}
    assert parse_html(page).text.count("x") == 20_000


def test_only_read_ahead_tags_are_read_ahead() -> None:
    """Attributes that make a table of contents, a counted list, a tab set, pdoc's page, Haddock's
    declarations or a separator read ahead do not on another tag (``read_ahead_start`` checks only those of
    ``READ_AHEAD_TAGS``)."""
    from clew.corpus.ingest.formats.html_ahead import rewritten_start

    attrs: list[list[tuple[str, str | None]]] = [
        [("class", "toc")], [("id", "toc")], [("class", "tableOfContentsInline_x")], [("reversed", None)],
        [("class", "tabs-container")], [("class", "tabbed-set")], [("class", "pdoc")], [("id", "interface")],
        [("id", "index")], [("class", "sep")], [],
    ]
    tags = "b i li td tr th h1 h2 pre code section article nav aside dl dt dd img svg path text".split()
    for tag in tags:
        assert tag not in READ_AHEAD_TAGS
        for attr in attrs:
            assert not counts_down(tag, attr) and not rewritten_start(tag, attr)
            assert not read_ahead_start(tag, attr)
    assert not any(read_ahead_start("p", attr) for attr in attrs)  # a p only as Doxygen's p.definition
    assert all(read_ahead_start(tag, attr) for tag, attr in [
        ("table", []), ("div", [("class", "toc")]), ("ol", [("reversed", None)]), ("ul", [("id", "index")]),
        ("main", [("class", "pdoc")]), ("span", [("class", "sep")]), ("div", [("id", "interface")]),
        ("starlight-tabs", []), ("div", [("class", "tabbed-set")]), ("p", [("class", "definition")]),
        ("a", [("href", "https://github.com/o/r/edit/main/x.md")])])
    assert not any(read_ahead_start("a", attr) for attr in [*attrs, [("href", "/docs/")], [("href", "https://x.org/a/b")]])
    assert page_toc_start([("class", "toc")])  # a div's test: the tag is checked before it


def test_an_element_without_attributes_is_never_chrome_by_its_attributes() -> None:
    """The reader asks ``_dropped_class`` only of a tag with attributes (most of a page's tags have none)."""
    from clew.corpus.ingest.formats.html_generators import GENERATOR_CLASSES
    from clew.corpus.ingest.formats.html_rules import _dropped_class

    assert not any(_dropped_class([], generator) for generator in [frozenset(), *GENERATOR_CLASSES.values()])
    assert _dropped_class([("class", "headerlink")]) and _dropped_class([("role", "navigation")])
    assert parse_html('<p>a <a class="headerlink" href="#x">¶</a>b <a>c</a></p>').text == "a b c"
