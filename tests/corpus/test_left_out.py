"""What ingest leaves out of a documentation build: a tool's generated files (indexes, sources, search pages,
assets) and pages for browsers (redirects, noindex pages, all-in-one pages, tables of contents), each kind in one
warning line that says how to take it back."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from clew.corpus.ingest import left_out
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.peek import generated_sign
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

SPHINX_BUILD = {
    "index.html": "<div class=body role=main><h1>Widgets</h1><p>Widgets turn and whirl all day long.</p></div>",
    "genindex.html": "<h1>Index</h1><p>widget, 1</p>",
    "genindex-W.html": "<h1>Index W</h1><p>widget, 1</p>",
    "search.html": "<h1>Search</h1><p>Please activate JavaScript.</p>",
    "py-modindex.html": "<h1>Python Module Index</h1>",
    "_sources/index.rst.txt": "Widgets\n=======\n\nWidgets turn and whirl all day long.\n",
    "_sources/extra.rst.txt": "Extra\n=====\n\nOnly in the source: gears.\n",
    "_static/basic.css": "body { margin: 0 }",
    "_static/notes.txt": "static notes",
}


def test_generated_pages_are_left_out_in_one_line(tmp_path: Path) -> None:
    site = write_files(tmp_path / "html", SPHINX_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["index.html"]
    (line,) = report.problems
    assert (line.path, line.warning, line.skipped) == (str(site), True, False)
    assert line.message.startswith(
        "8 generated files (a documentation tool's indexes, search page, sources or assets: 2 _sources, 2 _static, "
        "1 genindex-*.html, genindex.html, py-modindex.html, search.html) not ingested; take them in with "
        "--exclude '!NAME'")
    assert (report.excluded, report.skipped, report.documents) == (8, 0, 1)


def test_generated_pages_come_back_with_a_negated_pattern(tmp_path: Path) -> None:
    site = write_files(tmp_path / "html", SPHINX_BUILD)
    (site / ".clewignore").write_text("!search.html\n", encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!_sources", "!genindex*"])
        # the source of index.html is its twin; the source with no page is a document of its own
        assert document_keys(corpus) == ["_sources/extra.rst.txt", "genindex-W.html", "genindex.html", "index.html",
                                "search.html"]
    twin = next(p for p in report.problems if p.skipped)
    assert twin.path == str(site / "_sources" / "index.rst.txt")
    assert twin.message.startswith("the same text as index.html")
    assert report.excluded == 3  # _static/ and py-modindex.html


# pkgdown's own vignette "Search" (Debian's r-cran-pkgdown 2.0.7, doc/search.html, its opening), a page about search
# that its site names so; Sphinx 7's search page (python-click-doc), which holds div#search-results under a sidebar
PKGDOWN_SEARCH = """<!DOCTYPE html><html><head><title>Search</title><style>body { margin: 0 }</style></head><body>
<h1 class="title toc-ignore">Search</h1>
<p>Depending on the Bootstrap version used for your pkgdown website, search will be either built-in (Bootstrap 5 and
up) or will need some more configuration of an external service (Bootstrap 3). We'd recommend switching to Bootstrap 5,
see <code>vignette("customise")</code>.</p>
<h2>Bootstrap 5: built-in search</h2>
<p>With BS5, search is built-in so building your pkgdown website will automatically build a search index that's
available in navbar (using <a href="https://fusejs.io/">fuse.js</a>). Currently the only available customisation is
excluding some paths from the search index:</p>
<p>Note that search requires a "real" server, not a local <code>file://</code> based preview, so search won't work
with the default preview. To test search with a local preview, you'll need to use <code>servr::httw("docs")</code> or
similar.</p>
<h2>Bootstrap 3: Algolia</h2>
<p>pkgdown websites can integrate search capability using DocSearch from Algolia. DocSearch is a powerful search
engine that is free for documentation websites. There are only two steps needed to enable DocSearch on a pkgdown
website.</p></body></html>"""
SPHINX_SEARCH = (
    '<html><head><title>Search - Click Documentation</title><script src="searchindex.js" defer></script></head>'
    '<body><div class="sphinxsidebar"><h3>Navigation</h3><ul>'
    + "<li><a href='x.html'>Click command reference</a></li>" * 40
    + '</ul></div><div class="body" role="main"><h1 id="search-documentation">Search</h1><p>Searching for multiple '
    'words only shows matches that contain all words.</p><div id="search-results"></div></div></body></html>')


def test_a_page_about_search_named_search_html_is_a_document(tmp_path: Path) -> None:
    site = write_files(tmp_path / "doc", {"search.html": PKGDOWN_SEARCH, "sphinx/search.html": SPHINX_SEARCH,
                                          "sphinx/index.html": SPHINX_BUILD["index.html"],
                                          "fake/search.html": SPHINX_BUILD["search.html"]})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["search.html", "sphinx/index.html"]
    assert report.excluded == 2  # Sphinx's search page, and one of a few words (SPHINX_BUILD's)


HADDOCK_BUILD = {  # a Haddock package's shape (aeson's, task U7), with a Sphinx site's viewcode beside it
    "Data-Widget.html": "<html><head><title>Data.Widget</title></head><body><div id=content><h1>Data.Widget</h1>"
                        "<p>decode turns bytes into a widget.</p></div></body></html>",
    "doc-index.html": "<html><head><title>widget-1.0 (Index)</title></head><body><p>decode Data.Widget</p></body>"
                      "</html>",
    "doc-index-D.html": "<html><head><title>widget-1.0 (Index - D)</title></head><body><p>decode</p></body></html>",
    "src/Data.Widget.html": '<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><link rel="stylesheet" '
                            'type="text/css" href="style.css" /><script type="text/javascript" src="highlight.js">'
                            '</script></head><body><pre><span class="hs-keyword">module</span> Data.Widget '
                            "<span>where</span>\ndecode = undefined</pre></body></html>",
    "widget.txt": "-- Hoogle documentation, generated by Haddock\n-- See Hoogle\n\n-- | <a>decode</a> turns "
                  "bytes into a widget.\ndecode :: ByteString -> Widget\n",
    "notes.txt": "decode is the widget's only way in.",
    "sphinx/index.html": "<div class=body role=main><h1>Gears</h1><p>Gears mesh.</p></div>",
    "sphinx/_modules/gears.html": "<div class=body role=main><h1>Source code for gears</h1><div class=highlight>"
                                  "<pre>def mesh(): pass</pre></div></div>",
}


def test_haddock_indexes_sources_and_hoogle_database_and_sphinx_viewcode_are_left_out(tmp_path: Path) -> None:
    site = write_files(tmp_path / "html", HADDOCK_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["Data-Widget.html", "notes.txt", "sphinx/index.html"]
    (line,) = report.problems
    assert line.message.startswith(
        "5 generated files (a documentation tool's indexes, search page, sources or assets: "
        "1 doc-index-*.html, doc-index.html, 1 _modules, 1 Haddock source, 1 Hoogle database) not ingested")
    assert (report.excluded, report.documents) == (5, 3)
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src", "!widget.txt"])
        assert "src/Data.Widget.html" in document_keys(corpus) and "widget.txt" in document_keys(corpus)
        assert report.excluded == 3



def test_hscolour_source_pages_are_left_out_as_haddock_s_own_are(tmp_path: Path) -> None:
    """Haddock built without ``--hyperlinked-source`` links each module's source as HsColour wrote it (Debian's
    ghc-doc: 251 of base 4.15's 469 pages, one code block each); a page that only names HsColour stays."""
    pages = {"src/Data-Bits.html": '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML '
             '1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html>\n<head>\n<!-- Generated '
             "by HsColour, http://code.haskell.org/~malcolm/hscolour/ -->\n<title>Data/Bits.hs</title>\n<link "
             "type='text/css' rel='stylesheet' href='hscolour.css' />\n</head>\n<body>\n<pre><a name=\"line-1\">"
             "</a><span class='hs-comment'>{-# LANGUAGE Trustworthy #-}</span>\n</pre></body></html>",
             "Data-Bits.html": "<html><head><title>Data.Bits</title></head><body><h1>Data.Bits</h1><p>Bitwise "
                               "operations; the source was coloured by HsColour.</p></body></html>"}
    site = write_files(tmp_path / "html", pages)
    assert [generated_sign(site / key) for key in pages] == ["Haddock source", None]
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["Data-Bits.html"] and report.excluded == 1


RDOC_HEAD = ('<!DOCTYPE html>\n\n<html>\n<head>\n<meta charset="UTF-8">\n\n<title>{title}</title>\n\n'
             '<script type="text/javascript">\n  var rdoc_rel_prefix = "./";\n  var index_rel_prefix = "./";\n'
             '</script>\n\n<script src="./js/darkfish.js" defer></script>\n')
RDOC_BUILD = {  # RDoc's Darkfish pages (ruby-benchmark-ips's, task U8): a class, the index of its methods
    "Benchmark/IPS/Job.html": RDOC_HEAD.format(title="class Benchmark::IPS::Job - RDoc Documentation")
    + '<body id="top" class="class">\n<main role="main"><h1 class="class">class Benchmark::IPS::Job</h1>\n'
      "<p>compare! compares the reports of every job run.</p></main>\n",
    "table_of_contents.html": RDOC_HEAD.format(title="Table of Contents - RDoc Documentation")
    + '<body id="top" class="table-of-contents">\n<main role="main">\n<h1 class="class">Table of Contents - RDoc '
      'Documentation</h1>\n<h2 id="methods">Methods</h2>\n<ul>\n  <li class="method">\n    <a href="Benchmark/'
      'IPS/Job.html#method-i-compare-21">#compare!</a>\n    &mdash;\n    <span class="container">Benchmark::IPS::Job'
      "</span>\n</ul>\n</main>\n",
    "guide/table_of_contents.html": "<html><head><title>Table of Contents</title></head><body><h1>Table of Contents"
                                    "</h1><p>Chapter one tells how jobs compare.</p></body></html>",
}


def test_rdoc_s_table_of_contents_is_left_out_as_a_generated_index(tmp_path: Path) -> None:
    """RDoc's index of every class and method is generated, as Sphinx's genindex.html: left out in the one line
    with its '!NAME' take-back; a user's own page of that name (no RDoc head) stays."""
    site = write_files(tmp_path / "rdoc", RDOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["Benchmark/IPS/Job.html", "guide/table_of_contents.html"]
    (line,) = report.problems
    assert line.message.startswith(
        "1 generated file (a documentation tool's indexes, search page, sources or assets: table_of_contents.html) "
        "not ingested; take them in with --exclude '!NAME'")
    assert (report.excluded, report.documents) == (1, 2)
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!table_of_contents.html"])
        assert "table_of_contents.html" in document_keys(corpus) and report.excluded == 0


JAVADOC_HEAD = ('<!DOCTYPE HTML>\n<html>\n<head>\n<title>{title}</title>\n<meta name="viewport" content="width='
                'device-width, initial-scale=1">\n<meta name="generator" content="javadoc/{writer}">\n</head>\n')
JAVADOC_BUILD = {  # javadoc 17's API pages with -linksource (Debian's libcommons-lang3-java-doc, task U12), and a
    # javadoc 11 index (libjsoup-java-doc's: a comment, no generator meta)
    "org/acme/Widget.html": JAVADOC_HEAD.format(title="Widget (Acme 1.0 API)", writer="ClassWriterImpl")
    + '<body class="class-declaration-page"><main role="main"><h1 class="title">Class Widget</h1><div class="block">'
      "Turns bytes into a widget.</div></main></body></html>",
    "src-html/org/acme/Widget.html": JAVADOC_HEAD.format(title="Source code", writer="SourceToHTMLConverter")
    + '<body class="source-page"><main role="main"><div class="source-container"><pre><span class="source-line-no">'
      '001</span><span id="line-1">package org.acme;</span></pre></div></main></body></html>',
    "index-all.html": JAVADOC_HEAD.format(title="Index (Acme 1.0 API)", writer="IndexWriter")
    + '<body class="index-page"><main role="main"><h1>Index</h1><dl class="index"><dt>decode(byte[]) - Static method '
      "in class org.acme.Widget</dt><dd>Turns bytes into a widget.</dd></dl></main></body></html>",
    "v11/index-all.html": '<!DOCTYPE HTML>\n<!-- NewPage -->\n<html>\n<head>\n<!-- Generated by javadoc -->\n<title>'
                          "Index (Acme 0.9 API)</title>\n</head><body><main role=\"main\"><dl><dt>decode</dt><dd>"
                          "Turns bytes into a widget.</dd></dl></main></body></html>",
    "notes/index-all.html": "<html><head><title>Index of notes</title></head><body><p>Widgets are decoded.</p>"
                            "</body></html>",
}


def test_javadoc_s_source_pages_and_index_are_left_out_as_generated(tmp_path: Path) -> None:
    """javadoc's source pages (one passage of a class's whole source: StringUtils' 118,579 tokens) and its index
    (every member's summary again) are generated, as Haddock's sources and Sphinx's genindex.html are; a page of the
    index's name that javadoc did not write stays."""
    site = write_files(tmp_path / "api", JAVADOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["notes/index-all.html", "org/acme/Widget.html"]
    (line,) = report.problems
    assert line.message.startswith("3 generated files (a documentation tool's indexes, search page, sources or "
                                   "assets: 2 javadoc index, 1 javadoc source) not ingested")
    assert line.message.endswith("(e.g. '!index-all.html')")  # the example names what was left out first
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src-html"])
        assert "src-html/org/acme/Widget.html" in document_keys(corpus) and report.excluded == 2


def test_the_generated_files_line_s_example_names_what_was_left_out(tmp_path: Path) -> None:
    """The line ended "(e.g. '!_sources')" whatever was left out; with only javadoc's sources left out it names
    '!src-html', which takes them back (task S1)."""
    pages = {key: text for key, text in JAVADOC_BUILD.items() if "index-all" not in key}
    site = write_files(tmp_path / "api", pages)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        (line,) = ingest_paths(corpus, [site], collection="docs").problems
        assert line.message.endswith("'!NAME' line in .clewignore (e.g. '!src-html')"), line.message
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src-html"])
        assert "src-html/org/acme/Widget.html" in document_keys(corpus) and report.excluded == 0
    sphinx = write_files(tmp_path / "html", SPHINX_BUILD)
    with Corpus(tmp_path / "sphinx.duckdb") as corpus:
        (line,) = ingest_paths(corpus, [sphinx], collection="docs").problems
        assert line.message.endswith("(e.g. '!_sources')")
    # a sign's file outside the folder its generator writes is named by its file name; a pattern by itself
    assert left_out.generated({"javadoc source": ["Widget.html"], "_static": ["_static/a.css"]}).endswith(
        "(e.g. '!Widget.html')")
    assert left_out.generated({"theme template": ["overrides/main.html", "overrides/page.html"]}).endswith(
        "(e.g. '!main.html')")
    assert left_out.generated({"genindex-*.html": ["genindex-A.html"], "_sources": ["_sources/a.txt"]}) == (
        "2 generated files (a documentation tool's indexes, search page, sources or assets: 1 genindex-*.html, "
        "1 _sources) not ingested; take them in with --exclude '!NAME' or a '!NAME' line in .clewignore "
        "(e.g. '!genindex-*.html')")


MDBOOK = {  # the shape mdBook gives a book: chapters, a redirect for a moved chapter, print.html (noindex)
    "index.html": "<html><head><title>Intro</title></head><body><main><h1>Intro</h1>"
                  "<p>Gears mesh with other gears.</p></main></body></html>",
    "tests.html": "<html><head><title>Tests</title><meta name='robots' content='index'></head><body><main>"
                  "<h1>Tests</h1><p>Hide a line of a test with a hash sign.</p></main></body></html>",
    "old-tests.html": "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Redirecting...</title>"
                      "<meta http-equiv=\"refresh\" content=\"0;URL='tests.html'\"></head>"
                      "<body><p>Redirecting to... <a href='tests.html'>tests.html</a>.</p></body></html>",
    "print.html": "<html><head><title>The book</title><meta name=\"robots\" content=\"noindex\" /></head><body><main>"
                  "<h1>Intro</h1><p>Gears mesh with other gears.</p><h1>Tests</h1>"
                  "<p>Hide a line of a test with a hash sign.</p></main></body></html>",
}


def test_redirect_pages_and_noindex_pages_are_left_out_in_one_line(tmp_path: Path) -> None:
    book = write_files(tmp_path / "book", MDBOOK)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [book], collection="docs")
        assert document_keys(corpus) == ["index.html", "tests.html"]
        found = search(corpus, {"query": "hide a line of a test", "collection": "docs", "limit": 5})
        assert [hit.document_key for hit in found.hits] == ["tests.html"]
    (line,) = report.problems
    assert (line.path, line.warning, line.skipped) == (str(book), True, False)
    assert line.message == (
        "1 redirect page (only a refresh to another page: old-tests.html) and 1 page marked noindex by the site "
        "(<meta name=robots>: print.html) not ingested: pages for browsers, not documents of their own; take one "
        "in with --exclude '!print.html' or a '!print.html' line in .clewignore")
    assert (report.excluded, report.skipped, report.documents) == (2, 0, 2)


def test_a_site_marked_noindex_throughout_is_ingested_and_a_negated_pattern_takes_a_page_back(
        tmp_path: Path) -> None:
    hidden = write_files(tmp_path / "hidden", {name: text for name, text in MDBOOK.items() if name == "print.html"})
    book = write_files(tmp_path / "book", MDBOOK)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [hidden], collection="hidden")
        assert (report.documents, report.excluded, report.problems) == (1, 0, [])
        report = ingest_paths(corpus, [book], collection="docs", exclude=["!print.html", "!old-tests.html"])
        assert document_keys(corpus) == ["index.html", "old-tests.html", "print.html", "tests.html"]
        assert (report.excluded, report.problems) == (0, [])


def test_a_page_with_a_refresh_and_its_own_text_is_a_page(tmp_path: Path) -> None:
    words = " ".join(["Gauges read pressure in kilopascals."] * 12)
    site = write_files(tmp_path / "site", {"live.html": "<head><meta http-equiv='refresh' content='30; url=live.html'>"
                                                  f"</head><body><h1>Live</h1><p>{words}</p></body>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["live.html"] and report.excluded == 0


def test_an_all_in_one_page_is_left_out_and_a_long_page_of_its_own_is_kept(tmp_path: Path) -> None:
    """Node.js's api/all.html holds every page again: left out; a long page beside short ones is kept."""
    topics = {name: f"<h1>{name.title()}</h1>" + "".join(f"<p>The {name} module call number {n} returns a "
                                                             f"{name} handle of kind {n * 7}.</p>" for n in range(40))
              for name in ("fs", "net", "zlib", "http")}
    api = write_files(tmp_path / "api", {f"{name}.html": f"<html><body><main>{body}</main></body></html>"
                                   for name, body in topics.items()})
    write_files(api, {"all.html": "<html><body><main>" + "".join(topics.values()) + "</main></body></html>"})
    manual = write_files(tmp_path / "manual", {"guide.html": "<h1>Guide</h1>" + "".join(
        f"<p>Step {n}: tighten bolt {n} to {n * 3} newton metres.</p>" for n in range(200)),
        "a.html": "<h1>A</h1><p>Step 1: tighten bolt 1 to 3 newton metres.</p>", "b.html": "<h1>B</h1><p>Bees.</p>",
        "c.html": "<h1>C</h1><p>Cats.</p>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [api], collection="docs")
        assert document_keys(corpus) == ["fs.html", "http.html", "net.html", "zlib.html"]
        (line,) = report.problems
        assert line.message.startswith("1 all-in-one page (the other pages' text again: all.html) not ingested")
        assert report.excluded == 1
        report = ingest_paths(corpus, [manual], collection="manual")
        assert document_keys(corpus, "manual") == ["a.html", "b.html", "c.html", "guide.html"]
        assert (report.excluded, report.problems) == (0, [])
        # ingested from a folder above, beside more text than its own folder's (a Debian doc tree holding
        # several manuals): the all-in-one page is still found among the pages of its own folder
        write_files(tmp_path / "big", {f"p{n}.html": f"<h1>P{n}</h1>" + f"<p>Chapter {n} of a long book.</p>" * 400
                                 for n in range(4)})
        report = ingest_paths(corpus, [tmp_path], collection="tree", exclude=["*.duckdb*"])
        assert "api/all.html" not in document_keys(corpus, "tree") and "api/fs.html" in document_keys(corpus, "tree")
        assert "manual/guide.html" in document_keys(corpus, "tree")


def test_a_table_of_contents_of_the_other_pages_is_left_out_and_a_glossary_is_kept(tmp_path: Path) -> None:
    """pod2html's perltoc.html (1.35 MB beside 206 pages, a tenth of their size): each page's NAME line and every
    heading again, as ``h2`` and ``dt``, and it outranked the answer's page (task R9). The folder's largest page,
    nearly all headings found in the other pages, is left out with its take-back line; a glossary of as many terms
    (``dt``, each with its own text) is kept."""
    pages = {f"perl{name}.html": f"<html><body><h1>NAME</h1><p>perl{name} - Perl {name} manual</p>" + "".join(
        f"<h2>Handling {name} record {n}</h2><p>{'To handle a record, read it first and check its fields. ' * 2}</p>"
        for n in range(30)) + "</body></html>" for name in ("data", "file", "regex", "object", "thread")}
    toc = "<html><body><h1>NAME</h1><p>perltoc - perl documentation table of contents</p>" + "".join(
        f"<h2>perl{name} - Perl {name} manual</h2><dl>"
        + "".join(f"<dt>Handling {name} record {n}</dt><dd></dd>" for n in range(30)) + "</dl>"
        for name in ("data", "file", "regex", "object", "thread")) + "</body></html>"
    site = write_files(tmp_path / "pod", {**pages, "perltoc.html": toc})
    glossary = write_files(tmp_path / "glossary", {**pages, "glossary.html": "<html><body><dl>" + "".join(
        f"<dt>Handling {name} record {n}</dt><dd><p>A record of {name} kind {n}: what its handler reads first, "
        f"then the fields it checks.</p></dd>" for name in ("data", "file", "regex", "object") for n in range(30))
        + "</dl></body></html>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert "perltoc.html" not in document_keys(corpus) and len(document_keys(corpus)) == 5
        (line,) = report.problems
        assert line.message.startswith("1 table of contents (the other pages' headings again: perltoc.html) not "
                                       "ingested")
        assert "--exclude '!perltoc.html'" in line.message and report.excluded == 1
        report = ingest_paths(corpus, [site], collection="all", exclude=["!perltoc.html"])
        assert "perltoc.html" in document_keys(corpus, "all") and (report.excluded, report.problems) == (0, [])
        report = ingest_paths(corpus, [glossary], collection="glossary")
        assert "glossary.html" in document_keys(corpus, "glossary") and (report.excluded, report.problems) == (0, [])


def test_three_pages_of_one_size_and_one_navigation_are_no_all_in_one_page(tmp_path: Path) -> None:
    """javadoc's class-use pages of jsoup's three examples (5,120, 5,078 and 5,078 bytes): the same navigation around
    "No usage of ...", so that the largest passed both the size share and the word pairs' (task U5)."""
    navigation = "".join(f"<li><a href='p{n}.html'>Package org.jsoup.part{n} overview tree</a></li>" for n in range(30))
    pages = {f"{name}.html": f"<html><body><ul>{navigation}</ul><main><h2>Uses of Class {name}</h2>"
                             f"<div>No usage of org.jsoup.examples.{name}</div></main></body></html>"
             for name in ("HtmlToPlainText", "ListLinks", "Wikipedia")}
    site = write_files(tmp_path / "class-use", pages)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus, "docs") == ["HtmlToPlainText.html", "ListLinks.html", "Wikipedia.html"]
        assert (report.excluded, report.problems) == (0, [])


JSDOC_HEAD = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n    <meta charset="utf-8">\n'
              '    <title>JSDoc: {title}</title>\n'
              '    <link type="text/css" rel="stylesheet" href="styles/jsdoc-default.css">\n</head>\n<body>\n'
              '<div id="main">\n    <h1 class="page-title">{title}</h1>\n')
JSDOC_BUILD = {
    "retry.js.html": JSDOC_HEAD.format(title="Source: retry.js")
    + '<section><article><pre class="prettyprint source linenums"><code>export default function retry(opts, task) '
      "{\n    return attempt(task);\n}</code></pre></article></section></div></body></html>",
    "module-ControlFlow.html": JSDOC_HEAD.format(title="ControlFlow")
    + '<section><article><h4 class="name" id=".retry">retry(opts, task, callback)</h4><div class="description">'
      "Attempts to get a successful response from task no more than times times.</div>"
      '<pre class="prettyprint"><code>async.retry(3, apiMethod, done);</code></pre></article></section>'
      "</div></body></html>",
}


def test_jsdoc_s_source_pages_are_left_out_as_generated(tmp_path: Path) -> None:
    """JSDoc writes every source file as a page ("Source: retry.js", the file in ``pre.prettyprint.source``): 100 of
    async 3.2.5's 106 pages, one ranked second for a question on retrying (task U15); a page that shows an example in
    ``pre.prettyprint`` stays."""
    site = write_files(tmp_path / "docs", JSDOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["module-ControlFlow.html"]
        (line,) = report.problems
        assert "1 JSDoc source) not ingested" in line.message and line.message.endswith("(e.g. '!retry.js.html')")
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!retry.js.html"])
        assert document_keys(corpus) == ["module-ControlFlow.html", "retry.js.html"]


ESDOC_HEAD = ('<!DOCTYPE html>\n<html>\n<head>\n  <meta charset="utf-8">\n  <base data-ice="baseUrl" href="{up}">\n'
              '  <title data-ice="title">{title} | luxon</title>\n'
              '  <link type="text/css" rel="stylesheet" href="css/style.css">\n</head>\n'
              '<body class="layout-container" data-ice="rootContainer">\n<header>\n  <a href="./">Home</a>\n'
              '  <a href="identifiers.html">Reference</a>\n  <a href="source.html">Source</a>\n</header>\n'
              '<div class="content" data-ice="content">')
RUSTDOC_HEAD = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="generator" content="rustdoc">'
                '<meta name="description" content="{description}"><meta name="keywords" content="rust, rustlang, '
                'rust-lang"><title>{title}</title><link rel="stylesheet" type="text/css" href="{up}rustdoc.css">'
                '</head><body class="rustdoc {kind}"><section id="main-content" class="content">')
DOXYGEN_HEAD = ('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "https://www.w3.org/TR/xhtml1/DTD/'
                'xhtml1-transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n<meta http-equiv='
                '"Content-Type" content="text/xhtml;charset=UTF-8"/>\n<meta name="generator" content="Doxygen 1.9.4"/>'
                '\n<title>SDL: {title}</title>\n<link href="../../doxygen.css" rel="stylesheet" type="text/css" />\n'
                '</head>\n<body>\n<div id="doc-content">\n<div class="header">\n  <div class="headertitle"><div '
                'class="title">{heading}</div></div>\n</div><!--header-->\n<div class="contents">\n')
SOURCE_PAGE_BUILDS = {  # each generator's source page of one whole file beside a page of its documentation (task F4)
    "ESDoc": ({  # ESDoc 1.1 on luxon 2.5.2 (task U17): file/src/*.js.html, the file in one pre.source-code
        "class/src/datetime.js~DateTime.html": ESDOC_HEAD.format(up="../../../", title="DateTime")
        + '<h1 data-ice="name">DateTime</h1><div class="description" data-ice="description"><p>A DateTime is an '
          "immutable data structure representing a specific date and time.</p></div></div></body></html>",
        "file/src/datetime.js.html": ESDOC_HEAD.format(up="../../", title="src/datetime.js")
        + '<h1 data-ice="title">src/datetime.js</h1>\n<pre class="source-code line-number raw-source-code"><code '
          'class="prettyprint linenums" data-ice="content">import Duration from &quot;./duration.js&quot;;\n'
          "export default class DateTime {\n  plus(duration) {\n    return this;\n  }\n}</code></pre>\n</div>"
          "</body></html>",
    }, "file/src/datetime.js.html", "file"),
    "rustdoc": ({  # rustdoc 1.63 (Debian's cargo-doc, task S3): src/CRATE/*.rs.html, the file in one pre.rust
        "openssl_macros/attr.test.html": RUSTDOC_HEAD.format(
            description="API documentation for the Rust `test` attr macro in crate `openssl_macros`.",
            title="test in openssl_macros - Rust", up="../", kind="attr")
        + '<h1 class="fqn">Attribute Macro <a href="index.html">openssl_macros</a>::<a class="attr" href="#">test</a>'
          "</h1><p>Runs a test with the OpenSSL library initialised.</p></section></body></html>",
        "src/openssl_macros/lib.rs.html": RUSTDOC_HEAD.format(
            description="Source of the Rust file `vendor/openssl-macros/src/lib.rs`.", title="lib.rs - source",
            up="../../", kind="source")
        + '<div class="example-wrap"><pre class="line-numbers"><span id="1">1</span>\n<span id="2">2</span>\n</pre>'
          '<pre class="rust"><code><span class="kw">use</span> <span class="ident">proc_macro::TokenStream</span>;\n'
          '<span class="kw">pub fn</span> <span class="ident">test</span>() {}</code></pre></div></section>'
          "</body></html>",
    }, "src/openssl_macros/lib.rs.html", "src"),
    "Doxygen": ({  # Doxygen 1.9.4 on SDL 2.26 (task U14): *_source.html, the file in one div.fragment of lines
        "d6/d97/_s_d_l__atomic_8h.html": DOXYGEN_HEAD.format(title="SDL_atomic.h File Reference",
                                                            heading="SDL_atomic.h File Reference")
        + '<div class="textblock"><p>Atomic operations. These operations may or may not actually be implemented '
          "using processor specific atomic operations.</p></div></div></div></body></html>",
        "d6/d97/_s_d_l__atomic_8h_source.html": DOXYGEN_HEAD.format(title="SDL_atomic.h Source File",
                                                                   heading="SDL_atomic.h")
        + '<a href="../../d6/d97/_s_d_l__atomic_8h.html">Go to the documentation of this file.</a>'
          '<div class="fragment">'
          '<div class="line"><a id="l00001" name="l00001"></a><span class="lineno">    1</span><span class="comment">'
          '/* Simple DirectMedia Layer */</span></div>\n<div class="line"><a id="l00002" name="l00002"></a><span '
          'class="lineno">    2</span><span class="preprocessor">#ifndef SDL_atomic_h_</span></div>\n</div><!-- '
          "fragment --></div><!-- contents -->\n</div></body></html>",
    }, "d6/d97/_s_d_l__atomic_8h_source.html", "*_source.html"),
}


@pytest.mark.parametrize("generator", sorted(SOURCE_PAGE_BUILDS))
def test_a_generator_s_page_of_one_whole_source_file_is_left_out_as_generated(tmp_path: Path, generator: str) -> None:
    """ESDoc's, rustdoc's and Doxygen's pages of a whole source file in one code block (luxon's 24, one passage each,
    were ingested where JSDoc's are left out; task F4) are left out by their generator's marks, in the generated
    files' line that names what takes them back; the page of the same file's documentation stays, and a source page
    named on the command line is taken."""
    pages, source, back = SOURCE_PAGE_BUILDS[generator]
    site = write_files(tmp_path / "site", pages)
    (kept,) = (key for key in pages if key != source)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == [kept]
        (line,) = report.problems
        assert f"assets: 1 {generator} source) not ingested" in line.message
        assert line.message.endswith(f"(e.g. '!{back}')") and report.excluded == 1
        report = ingest_paths(corpus, [site], collection="docs", exclude=[f"!{back}"])
        assert document_keys(corpus) == sorted([kept, source]) and report.excluded == 0
    with Corpus(tmp_path / "named.duckdb") as corpus:
        report = ingest_paths(corpus, [site / source], collection="docs")
        assert document_keys(corpus) == [PurePosixPath(source).name] and report.problems == []


OPUS_SOURCE_HEAD = (  # Doxygen 1.9.4 under Opus 1.3.1's own header (task U14's libopus-doc): no generator meta
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.'
    'dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n<meta http-equiv="Content-Type" content="text/xhtml;'
    'charset=UTF-8"/>\n<title>Opus: {title}</title>\n<link href="customdoxygen.css" rel="stylesheet" type="text/css" />'
    '\n<link href="search/search.css" rel="stylesheet" type="text/css"/>\n<script type="text/javascript" src="search/'
    'searchdata.js"></script>\n<script type="text/javascript" src="search/search.js"></script>\n</head>\n<body>\n<div '
    'id="top"><!-- do not remove this div! -->\n<div id="titlearea">\n<table cellspacing="0" cellpadding="0">\n '
    '<tbody>\n <tr style="height: 64px;">\n  <td style="padding-left: 0.5em;">\n  <div id="projectname"><img src='
    '"opus_logo.svg" width=112 height=64 alt="Opus"/><!--Opus--></div>\n  </td>\n  <td><table style="padding-left: '
    '0.5em;" cellspacing="0" cellpadding="0"><tbody>\n   <tr><td>\n   <div id="projectbrief">Opus audio codec (RFC '
    '6716): API and operations manual</div>\n   </td></tr>\n  <td><span id="projectnumber">1.3.1</span>\n   </td>'
    '</tr>\n   </table>\n  </td>\n </tr>\n </tbody>\n</table>\n</div>\n<!-- Generated by Doxygen 1.9.4 -->\n')


def test_doxygen_s_source_pages_under_a_project_s_own_header_are_left_out_by_their_title(tmp_path: Path) -> None:
    """Opus' pages carry no generator meta and Doxygen's comment comes past the bytes read: its five source pages are
    known by their name and title ("opus.h Source File"); a page of that name no title or meta marks stays."""
    pages = {"opus_8h_source.html": OPUS_SOURCE_HEAD.format(title="opus.h Source File")
             + '<a href="opus_8h.html">Go to the documentation of this file.</a><div class="fragment">'
               '<div class="line"><span class="lineno">    1</span><span class="comment">/* Copyright (c) 2010-2011 '
               "Xiph.Org */</span>"
               "</div></div></body></html>",
             "opus_8h.html": OPUS_SOURCE_HEAD.format(title="opus.h File Reference")
             + "<p>Opus reference implementation API.</p></body></html>",
             "notes/open_source.html": "<html><head><title>Open source</title></head><body><p>Opus is open source."
                                       "</p></body></html>"}
    site = write_files(tmp_path / "html", pages)
    assert [generated_sign(site / key) for key in pages] == ["Doxygen source", None, None]
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["notes/open_source.html", "opus_8h.html"] and report.excluded == 1


SITE_WITH_ASSETS = {  # JSDoc's default template, ESDoc's, Docusaurus', javadoc's legal/ (tasks U15, U17, U12)
    "index.html": "<h1>Retry</h1><p>retry runs a task again until it succeeds.</p>",
    "scripts/prettify/Apache-License-2.0.txt": "Apache License Version 2.0, January 2004. Terms and conditions.",
    "scripts/prettify/prettify.js": "var PR = {};",
    "api/index.html": "<h1>API</h1><p>The functions.</p>",
    "api/script/prettify/Apache-License-2.0.txt": "Apache License Version 2.0, January 2004.",
    "assets/js/main.js.LICENSE.txt": "/*! react-dom: MIT licence */",
    "assets/files/handbook.html": "<h1>Handbook</h1><p>A page the site links to, kept.</p>",
    "legal/jquery.md": "## jQuery v3.6.1\n\nMIT licence.\n",
    "tools/scripts/README.md": "# Scripts\n\nrelease.sh tags a release.\n",  # no page beside scripts/: kept
}


def test_a_site_s_text_files_in_its_asset_folders_are_left_out_in_one_line(tmp_path: Path) -> None:
    """A licence JSDoc's template ships in ``scripts/prettify/`` was ingested as a document (task U15)."""
    site = write_files(tmp_path / "out", SITE_WITH_ASSETS)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["api/index.html", "assets/files/handbook.html", "index.html",
                                         "tools/scripts/README.md"]
        (line,) = [p for p in report.problems if p.warning]
        assert line.message == (
            "4 text files in a site's asset folders (licences and notes of the scripts, styles and fonts its pages "
            "load: api/script/prettify/Apache-License-2.0.txt, assets/js/main.js.LICENSE.txt, legal/jquery.md and 1 "
            "more) not ingested: not pages of the site; take one in with --exclude '!Apache-License-2.0.txt' or a "
            "'!Apache-License-2.0.txt' line in .clewignore")
        assert report.excluded == 4
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!legal"])
        assert "legal/jquery.md" in document_keys(corpus) and report.excluded == 3
        licence = site / "scripts" / "prettify" / "Apache-License-2.0.txt"
        ingest_paths(corpus, [licence], collection="named")  # a file named on the command line is always taken
        assert document_keys(corpus, "named") == ["Apache-License-2.0.txt"]


RUSTDOC_HEAD = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
                'content="width=device-width, initial-scale=1.0"><meta name="generator" content="rustdoc">'
                '<title>{0}</title></head><body class="rustdoc"><h1>{0}</h1><p>{1}</p></body></html>')
RUSTDOC_ROOT = {  # rustdoc 1.63's output root (task U14): its pages, and the licences it writes beside them
    "settings.html": RUSTDOC_HEAD.format("Rustdoc settings", "Theme and preferences."),
    "LICENSE-MIT.txt": "Permission is hereby granted, free of charge, to any person obtaining a copy.",
    "LICENSE-APACHE.txt": "Apache License Version 2.0, January 2004.",
    "COPYRIGHT.txt": "These documentation pages include resources by third parties.",
    "FiraSans-LICENSE.txt": "Copyright (c) 2014, Mozilla Foundation. SIL Open Font License.",
    "SourceSerif4-LICENSE.md": "Copyright 2014-2021 Adobe. SIL Open Font License.",
    "std/collections/struct.HashMap.html": RUSTDOC_HEAD.format("HashMap in std::collections - Rust", "A hash map."),
    "std/collections/notes.txt": "Notes on the hash map's growth.",  # not a licence: kept
}


def test_licences_a_documentation_tool_writes_beside_its_pages_are_left_out_in_one_line(tmp_path: Path) -> None:
    """rustdoc writes LICENSE-MIT.txt, LICENSE-APACHE.txt and its fonts' licences at the docs' root, in no asset
    folder: each was a document (S2's left, task S3)."""
    site = write_files(tmp_path / "doc", RUSTDOC_ROOT)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert document_keys(corpus) == ["settings.html", "std/collections/notes.txt",
                                         "std/collections/struct.HashMap.html"]
        (line,) = [p for p in report.problems if p.warning]
        assert line.message == (
            "5 licence files a documentation tool wrote beside its pages (COPYRIGHT.txt, FiraSans-LICENSE.txt, "
            "LICENSE-APACHE.txt and 2 more) not ingested: not pages of the site; take one in with --exclude "
            "'!COPYRIGHT.txt' or a '!COPYRIGHT.txt' line in .clewignore")
        assert report.excluded == 5
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!LICENSE-MIT.txt"])
        assert "LICENSE-MIT.txt" in document_keys(corpus) and report.excluded == 4
        ingest_paths(corpus, [site / "LICENSE-APACHE.txt"], collection="named")  # named on the command line: taken
        assert document_keys(corpus, "named") == ["LICENSE-APACHE.txt"]


def test_a_repository_s_licence_beside_its_readme_or_pages_written_by_hand_stays(tmp_path: Path) -> None:
    repo = write_files(tmp_path / "repo", {
        "README.md": "# Retry\n\nretry runs a task again.\n", "LICENSE.md": "MIT License\n\nPermission is granted.\n",
        "site/index.html": "<h1>Retry</h1><p>A page written by hand.</p>", "site/COPYING.txt": "GPL v3.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [repo], collection="docs")
        assert document_keys(corpus) == ["LICENSE.md", "README.md", "site/COPYING.txt", "site/index.html"]
        assert report.excluded == 0 and not [p for p in report.problems if p.warning]
