"""Scaladoc 2.11's and pdoc3's pages (task U13, issue 36): what Debian's scala-doc 2.11.12 and pdoc3 0.11's pages of
boltons read as text that the pages do not say, or lost. docs/measurements/generators-2026-12-06.md says what was
checked."""

from __future__ import annotations

from clew.corpus.ingest.formats.html import parse_html

_MEMBER = (
    '<li name="scala.concurrent.Future#successful" visbl="pub" data-isabs="false" fullComment="yes" group="Ungrouped">'
    '<a id="successful[T](result:T):scala.concurrent.Future[T]"></a>\n<h4 class="signature">'
    '<span class="modifier_kind"><span class="modifier"></span> <span class="kind">def</span></span>'
    ' <span class="symbol"><span class="name">successful</span><span class="params">(result: T)</span>'
    '<span class="result">: Future[T]</span></span></h4><span class="permalink">\n'
    '<a href="../../index.html#scala.concurrent.Future$@successful" title="Permalink" target="_top">'
    '<img src="../../lib/permalink.png" alt="Permalink" /></a>\n</span>\n'
    '<p class="shortcomment cmt">Creates an already completed Future with the specified result.</p>'
    '<div class="fullcomment"><div class="comment cmt"><p>Creates an already completed Future with the specified'
    ' result.\n</p></div><dl class="paramcmts block"><dt>returns</dt><dd class="cmt"><p>the newly created'
    " <code>Future</code> object</p></dd></dl></div>\n</li>"
)
_SCALADOC = (
    "<!DOCTYPE html >\n<html><head><title>Future - Scala Standard Library 2.11.12 - scala.concurrent.Future</title>"
    '<link href="../../lib/template.css" media="screen" type="text/css" rel="stylesheet" /></head>'
    '<body class="value"><div id="definition"><h1>Future</h1></div>\n'
    '<div id="template"><div id="allMembers"><div id="values" class="values members"><h3>Value Members</h3><ol>'
    + _MEMBER + "</ol></div></div></div></body></html>"
)


def test_an_image_in_a_dropped_link_does_not_drop_the_text_after_it() -> None:
    """Scaladoc's permalink after each member's signature (``span.permalink > a > img``, dropped as Doxygen's is):
    the ``img``, which has no end tag, stayed open inside the dropped span, so neither ``</a>`` nor ``</span>``
    closed it, and every member's description up to the end of its ``li`` was dropped with it (118 of 118 pages of
    scala-doc's concurrent, util and io: ``Future.successful`` a heading over nothing)."""
    text = parse_html(_SCALADOC).text
    assert "Creates an already completed Future with the specified result." in text
    assert "the newly created Future object" in text
    assert "Permalink" not in text
    for markup in ('<span class="headerlink"><img src="link.png"></span>',
                   '<a class="headerlink"><img src="x.png"/></a>'):
        page = f"<html><body><h2>Usage{markup}</h2><p>The text after the heading.</p></body></html>"
        assert parse_html(page).text == "## Usage\n\nThe text after the heading."
