"""A heading's permalink of class ``header-anchor`` (markdown-it-anchor's): the heading's text where VuePress 2 wraps
it (``html_ahead.heading_link``), chrome in every other style (task V7)."""

from __future__ import annotations

import pytest

from clew.corpus.ingest.formats.html import parse_html


def _page(heading: str) -> str:
    return f"<html><body><main><h1>Guide</h1><p>Intro.</p>{heading}<p>Run pip.</p></main></body></html>"


@pytest.mark.parametrize("heading", [
    # markdown-it-anchor's linkAfterHeader: a hidden label and an aria-hidden glyph, after the heading
    '<h2 id="x">Install</h2><a class="header-anchor" href="#x"><span class="visually-hidden">Permalink to '
    '&quot;Install&quot;</span> <span aria-hidden="true">#</span></a>',
    # a permalink with a word and a label of its own, inside the heading
    '<h2 id="x">Install <a class="header-anchor" href="#x" aria-label="Permalink to this heading">link</a></h2>',
    '<h2 id="x">Install <a class="header-anchor" href="#x" aria-hidden="true">anchor</a></h2>',
])
def test_a_labelled_permalink_or_one_with_a_glyph_is_chrome(heading: str) -> None:
    document = parse_html(_page(heading))
    assert document.text == "# Guide\n\nIntro.\n\n## Install\n\nRun pip."


def test_vuepress_2_s_permalink_around_the_heading_s_text_is_still_the_heading() -> None:
    document = parse_html(_page('<h2 id="x"><a class="header-anchor" href="#x"><span><code>MD022</code> - Headings '
                                "should be surrounded by blank lines</span></a></h2>"))
    assert [section.heading for section in document.sections][-1] == (
        "MD022 - Headings should be surrounded by blank lines")


@pytest.mark.parametrize("heading", [
    # mdBook: every heading's text inside a link to the heading (The rustc book, rust-doc 1.63)
    '<h2 id="lto"><a class="header" href="#lto">lto</a></h2>',
    # VuePress 2: the text inside a.header-anchor
    '<h2 id="lto"><a class="header-anchor" href="#lto"><span>lto</span></a></h2>',
])
def test_a_heading_s_link_to_itself_is_no_link_but_its_id_stays_an_anchor(heading: str) -> None:
    """A link from a heading to its own id leads nowhere: ingested, it was an edge from a passage to
    itself (775 of the rustc book's 1,160 link edges, task E8). A link to it from elsewhere stays."""
    document = parse_html(_page(heading + '<p>See <a href="#lto">lto</a> and <a href="#opt">opt-level</a>.</p>'))
    assert document.text == "# Guide\n\nIntro.\n\n## lto\n\nSee lto and opt-level.\n\nRun pip."
    assert document.anchors["lto"] == document.text.index("## lto")
    see = document.text.index("See")
    assert [(link.start, link.href) for link in document.links] == [(see + 4, "#lto"), (see + 12, "#opt")]


def test_a_heading_s_link_to_another_anchor_stays_a_link() -> None:
    document = parse_html(_page('<h2 id="lto"><a class="header" href="#opt-level">lto</a></h2>'))
    assert [link.href for link in document.links] == ["#opt-level"]
