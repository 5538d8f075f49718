"""Sphinx's singlehtml builder and R's pkgdown (task U32's trial): excerpts of Babel 2.18's manual built by
Sphinx 9.0.4 as one page, trimmed to the elements the reader meets."""

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
