"""The corpus as a set of files: exclusions, .clewignore, suffix twins, ls, outline, rm, prune."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.access import Principal
from clew.corpus.documents import list_documents, outline, remove_documents
from clew.corpus.ingest import left_out
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import drop_twins, excluded_by
from clew.corpus.reader import Scope
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.evidence import FetchArgs, fetch_evidence
from tests.envelope import result as result_of

runner = CliRunner()


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return write(tmp_path / "docs", {
        "alpha.md": "# Alpha\n\nSee [beta](/sub/beta#zebras).\n\n## Retention\n\nAlpha keeps logs for 30 days.\n",
        "sub/beta.md": "# Beta\n\n## Zebras\n\nZebra stripes are unique to each zebra.\n",
        "drafts/wip.md": "# Draft\n\nNot ready.\n",
        "notes.txt": "plain notes about quokkas\n",
    })


def keys(corpus: Corpus, collection: str = "docs", removed: bool = False) -> list[str]:
    return [row.key for row in list_documents(Scope(corpus, collection=collection), include_removed=removed)]


def test_exclude_patterns_and_clewignore(tmp_path: Path, docs: Path) -> None:
    (docs / ".clewignore").write_text("# drafts stay out\ndrafts\n", encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, exclude=["*.txt"])
        assert (report.documents, report.excluded, report.skipped) == (2, 2, 0)
        assert keys(corpus) == ["alpha.md", "sub/beta.md"]


def test_suffix_twins_of_other_text_are_a_warning(tmp_path: Path, docs: Path) -> None:
    write(docs, {"page.html": "<h1>Page</h1><p>Kiwi birds cannot fly.</p>", "page.txt": "Weta are large insects."})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
    (warning,) = [p for p in report.problems if p.warning]
    assert warning.path == str(docs / "page.txt")
    assert warning.message.startswith("same name as page.html with another suffix (page.html, page.txt)")
    assert (report.warnings, report.repaired, report.documents) == (1, 0, 6)


def test_a_twin_with_the_same_text_is_ingested_once(tmp_path: Path, docs: Path) -> None:
    write(docs, {"page.html": "<title>Page</title><h1>Page</h1><p>Kiwi birds cannot fly at all.</p>",
                 "page.txt": "Page\n\nKiwi birds cannot fly at all.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        assert "page.txt" not in keys(corpus) and "page.html" in keys(corpus)
    (twin,) = report.problems
    assert (twin.path, twin.skipped) == (str(docs / "page.txt"), True)
    assert twin.message == "the same text as page.html (a copy in another format): ingested once, as that file"
    assert (report.skipped, report.warnings, report.documents) == (1, 0, 5)


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
    site = write(tmp_path / "html", SPHINX_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert keys(corpus) == ["index.html"]
    (line,) = report.problems
    assert (line.path, line.warning, line.skipped) == (str(site), True, False)
    assert line.message.startswith(
        "8 generated files (a documentation tool's indexes, search page, sources or assets: 2 _sources, 2 _static, "
        "1 genindex-*.html, genindex.html, py-modindex.html, search.html) not ingested; take them in with "
        "--exclude '!NAME'")
    assert (report.excluded, report.skipped, report.documents) == (8, 0, 1)


def test_generated_pages_come_back_with_a_negated_pattern(tmp_path: Path) -> None:
    site = write(tmp_path / "html", SPHINX_BUILD)
    (site / ".clewignore").write_text("!search.html\n", encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220, exclude=["!_sources", "!genindex*"])
        # the source of index.html is its twin; the source with no page is a document of its own
        assert keys(corpus) == ["_sources/extra.rst.txt", "genindex-W.html", "genindex.html", "index.html",
                                "search.html"]
    twin = next(p for p in report.problems if p.skipped)
    assert twin.path == str(site / "_sources" / "index.rst.txt")
    assert twin.message.startswith("the same text as index.html")
    assert report.excluded == 3  # _static/ and py-modindex.html


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
    site = write(tmp_path / "html", HADDOCK_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus) == ["Data-Widget.html", "notes.txt", "sphinx/index.html"]
    (line,) = report.problems
    assert line.message.startswith(
        "5 generated files (a documentation tool's indexes, search page, sources or assets: "
        "1 doc-index-*.html, doc-index.html, 1 _modules, 1 Haddock source, 1 Hoogle database) not ingested")
    assert (report.excluded, report.documents) == (5, 3)
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src", "!widget.txt"])
        assert "src/Data.Widget.html" in keys(corpus) and "widget.txt" in keys(corpus)
        assert report.excluded == 3


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
    site = write(tmp_path / "rdoc", RDOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus) == ["Benchmark/IPS/Job.html", "guide/table_of_contents.html"]
    (line,) = report.problems
    assert line.message.startswith(
        "1 generated file (a documentation tool's indexes, search page, sources or assets: table_of_contents.html) "
        "not ingested; take them in with --exclude '!NAME'")
    assert (report.excluded, report.documents) == (1, 2)
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!table_of_contents.html"])
        assert "table_of_contents.html" in keys(corpus) and report.excluded == 0


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
    site = write(tmp_path / "api", JAVADOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus) == ["notes/index-all.html", "org/acme/Widget.html"]
    (line,) = report.problems
    assert line.message.startswith("3 generated files (a documentation tool's indexes, search page, sources or "
                                   "assets: 2 javadoc index, 1 javadoc source) not ingested")
    assert line.message.endswith("(e.g. '!index-all.html')")  # the example names what was left out first
    with Corpus(tmp_path / "back.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src-html"])
        assert "src-html/org/acme/Widget.html" in keys(corpus) and report.excluded == 2


def test_the_generated_files_line_s_example_names_what_was_left_out(tmp_path: Path) -> None:
    """The line ended "(e.g. '!_sources')" whatever was left out; with only javadoc's sources left out it names
    '!src-html', which takes them back (task S1)."""
    pages = {key: text for key, text in JAVADOC_BUILD.items() if "index-all" not in key}
    site = write(tmp_path / "api", pages)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        (line,) = ingest_paths(corpus, [site], collection="docs").problems
        assert line.message.endswith("'!NAME' line in .clewignore (e.g. '!src-html')"), line.message
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!src-html"])
        assert "src-html/org/acme/Widget.html" in keys(corpus) and report.excluded == 0
    sphinx = write(tmp_path / "html", SPHINX_BUILD)
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


NODE_INDEX_MD = ("<!--\n  NB(chrisdickinson): if you move this file, be sure to update\n  tools/doc/html.mjs to point "
                 "at the new location.\n-->\n\n<!--introduced_in=v0.10.0-->\n\n* [About this documentation]"
                 "(documentation.md)\n* [Usage and example](synopsis.md)\n\n<hr class=\"line\"/>\n\n"
                 "* [Assertion testing](assert.md)\n* [Asynchronous context tracking](async_context.md)\n"
                 "* [Async hooks](async_hooks.md)\n* [Buffer](buffer.md)\n* [C++ addons](addons.md)\n"
                 "* [Child processes](child_process.md)\n* [Cluster](cluster.md)\n\n<hr class=\"line\"/>\n\n"
                 "* [Code repository and issue tracker][]\n\n"
                 "[Code repository and issue tracker]: https://github.com/nodejs/node\n")
NODE_INDEX_HTML = (  # tools/doc/html.mjs's rendering: the list, in the page and again in its sidebar, and chrome
    '<html lang="en"><head><title>Index | Node.js v18.20.4 Documentation</title></head><body class="alt apidoc">'
    '<div id="column2" class="interior"><ul><li><a href="documentation.html">About this documentation</a></li>'
    '<li><a href="synopsis.html">Usage and example</a></li></ul><hr class="line"/><ul>'
    '<li><a href="assert.html">Assertion testing</a></li><li><a href="async_hooks.html">Async hooks</a></li>'
    '<li><a href="buffer.html">Buffer</a></li></ul></div><div id="column1" class="interior"><header><h1>Node.js '
    'v18.20.4 documentation</h1><ul><li class="picker-header">Other versions</li><li><a href="#">18.x LTS</a>'
    '</li><li><a href="index.json">View as JSON</a></li><li><a href="#">Edit on GitHub</a></li></ul></header>'
    '<div id="apicontent"><ul><li><a href="documentation.html">About this documentation</a></li>'
    '<li><a href="synopsis.html">Usage and example</a></li></ul><hr class="line"/><ul>'
    '<li><a href="assert.html">Assertion testing</a></li><li><a href="async_context.html">Asynchronous context '
    'tracking</a></li><li><a href="async_hooks.html">Async hooks</a></li><li><a href="buffer.html">Buffer</a></li>'
    '<li><a href="addons.html">C++ addons</a></li><li><a href="child_process.html">Child processes</a></li>'
    '<li><a href="cluster.html">Cluster</a></li></ul><hr class="line"/><ul><li><a href="https://github.com/nodejs/'
    'node">Code repository and issue tracker</a></li></ul></div></div></body></html>')


def test_a_markdown_page_of_links_is_the_twin_of_the_page_it_renders_to(tmp_path: Path) -> None:
    """Node.js's index.md is read as it renders (its links' targets, comments and tags are no page's words):
    ingested once, as index.html; a Markdown list of other links beside a page of the same name stays."""
    site = write(tmp_path / "api", {"index.md": NODE_INDEX_MD, "index.html": NODE_INDEX_HTML,
                                    "other/index.html": NODE_INDEX_HTML,
                                    "other/index.md": "# Index\n\n* [Streams](stream.md)\n* [Timers](timers.md)\n"
                                                      "* [Worker threads](worker_threads.md)\n* [Zlib](zlib.md)\n"})
    files = [(site / key, key) for key in ("index.html", "index.md", "other/index.html", "other/index.md")]
    kept, twins = drop_twins(files)
    assert [key for _, key in kept] == ["index.html", "other/index.html", "other/index.md"]
    assert [(p.path, p.message) for p in twins] == [(str(site / "index.md"), "the same text as index.html (a copy in "
                                                     "another format): ingested once, as that file")]


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
    book = write(tmp_path / "book", MDBOOK)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [book], collection="docs")
        assert keys(corpus) == ["index.html", "tests.html"]
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
    hidden = write(tmp_path / "hidden", {name: text for name, text in MDBOOK.items() if name == "print.html"})
    book = write(tmp_path / "book", MDBOOK)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [hidden], collection="hidden")
        assert (report.documents, report.excluded, report.problems) == (1, 0, [])
        report = ingest_paths(corpus, [book], collection="docs", exclude=["!print.html", "!old-tests.html"])
        assert keys(corpus) == ["index.html", "old-tests.html", "print.html", "tests.html"]
        assert (report.excluded, report.problems) == (0, [])


def test_a_page_with_a_refresh_and_its_own_text_is_a_page(tmp_path: Path) -> None:
    words = " ".join(["Gauges read pressure in kilopascals."] * 12)
    site = write(tmp_path / "site", {"live.html": "<head><meta http-equiv='refresh' content='30; url=live.html'>"
                                                  f"</head><body><h1>Live</h1><p>{words}</p></body>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus) == ["live.html"] and report.excluded == 0


def test_an_all_in_one_page_is_left_out_and_a_long_page_of_its_own_is_kept(tmp_path: Path) -> None:
    """Node.js's api/all.html holds every page again: left out; a long page beside short ones is kept."""
    topics = {name: f"<h1>{name.title()}</h1>" + "".join(f"<p>The {name} module call number {n} returns a "
                                                             f"{name} handle of kind {n * 7}.</p>" for n in range(40))
              for name in ("fs", "net", "zlib", "http")}
    api = write(tmp_path / "api", {f"{name}.html": f"<html><body><main>{body}</main></body></html>"
                                   for name, body in topics.items()})
    write(api, {"all.html": "<html><body><main>" + "".join(topics.values()) + "</main></body></html>"})
    manual = write(tmp_path / "manual", {"guide.html": "<h1>Guide</h1>" + "".join(
        f"<p>Step {n}: tighten bolt {n} to {n * 3} newton metres.</p>" for n in range(200)),
        "a.html": "<h1>A</h1><p>Step 1: tighten bolt 1 to 3 newton metres.</p>", "b.html": "<h1>B</h1><p>Bees.</p>",
        "c.html": "<h1>C</h1><p>Cats.</p>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [api], collection="docs")
        assert keys(corpus) == ["fs.html", "http.html", "net.html", "zlib.html"]
        (line,) = report.problems
        assert line.message.startswith("1 all-in-one page (the other pages' text again: all.html) not ingested")
        assert report.excluded == 1
        report = ingest_paths(corpus, [manual], collection="manual")
        assert keys(corpus, "manual") == ["a.html", "b.html", "c.html", "guide.html"]
        assert (report.excluded, report.problems) == (0, [])
        # ingested from a folder above, beside more text than its own folder's (a Debian doc tree holding
        # several manuals): the all-in-one page is still found among the pages of its own folder
        write(tmp_path / "big", {f"p{n}.html": f"<h1>P{n}</h1>" + f"<p>Chapter {n} of a long book.</p>" * 400
                                 for n in range(4)})
        report = ingest_paths(corpus, [tmp_path], collection="tree", exclude=["*.duckdb*"])
        assert "api/all.html" not in keys(corpus, "tree") and "api/fs.html" in keys(corpus, "tree")
        assert "manual/guide.html" in keys(corpus, "tree")


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
    site = write(tmp_path / "pod", {**pages, "perltoc.html": toc})
    glossary = write(tmp_path / "glossary", {**pages, "glossary.html": "<html><body><dl>" + "".join(
        f"<dt>Handling {name} record {n}</dt><dd><p>A record of {name} kind {n}: what its handler reads first, "
        f"then the fields it checks.</p></dd>" for name in ("data", "file", "regex", "object") for n in range(30))
        + "</dl></body></html>"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert "perltoc.html" not in keys(corpus) and len(keys(corpus)) == 5
        (line,) = report.problems
        assert line.message.startswith("1 table of contents (the other pages' headings again: perltoc.html) not "
                                       "ingested")
        assert "--exclude '!perltoc.html'" in line.message and report.excluded == 1
        report = ingest_paths(corpus, [site], collection="all", exclude=["!perltoc.html"])
        assert "perltoc.html" in keys(corpus, "all") and (report.excluded, report.problems) == (0, [])
        report = ingest_paths(corpus, [glossary], collection="glossary")
        assert "glossary.html" in keys(corpus, "glossary") and (report.excluded, report.problems) == (0, [])


def test_three_pages_of_one_size_and_one_navigation_are_no_all_in_one_page(tmp_path: Path) -> None:
    """javadoc's class-use pages of jsoup's three examples (5,120, 5,078 and 5,078 bytes): the same navigation around
    "No usage of ...", so that the largest passed both the size share and the word pairs' (task U5)."""
    navigation = "".join(f"<li><a href='p{n}.html'>Package org.jsoup.part{n} overview tree</a></li>" for n in range(30))
    pages = {f"{name}.html": f"<html><body><ul>{navigation}</ul><main><h2>Uses of Class {name}</h2>"
                             f"<div>No usage of org.jsoup.examples.{name}</div></main></body></html>"
             for name in ("HtmlToPlainText", "ListLinks", "Wikipedia")}
    site = write(tmp_path / "class-use", pages)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus, "docs") == ["HtmlToPlainText.html", "ListLinks.html", "Wikipedia.html"]
        assert (report.excluded, report.problems) == (0, [])


def test_negated_patterns_decide_by_their_order() -> None:
    assert excluded_by("drafts/a.md", ["drafts"]) and not excluded_by("drafts/a.md", ["drafts", "!drafts/a.md"])
    assert excluded_by("drafts/a.md", ["!drafts/a.md", "drafts"])
    assert not excluded_by("a.md", ["!a.md"])


def test_list_and_outline(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        rows = {row.key: row for row in list_documents(Scope(corpus, collection="docs"))}
        alpha = rows["alpha.md"]
        assert (alpha.version, alpha.status, alpha.format, alpha.title, alpha.chunks) == (1, "current", "markdown",
                                                                                          "Alpha", 2)
        assert alpha.chars == len((docs / "alpha.md").read_text()) and alpha.tokens > 0
        tree = outline(Scope(corpus, collection="docs"), "alpha.md")
        assert tree.kind == "document" and tree.passages == 2
        (title,) = tree.children
        assert title.heading == "Alpha" and [c.heading for c in title.children] == ["Retention"]
        assert title.children[0].passages == 1 and title.children[0].id.startswith("ev1:s:")
        assert outline(Scope(corpus, collection="docs"), "nothing.md") is None
        # a principal's row filter applies to the listing too
        hidden = Principal(row_filter={"term": {"title": "Alpha"}})
        assert [r.key for r in list_documents(Scope(corpus, hidden, "docs"))] == ["alpha.md"]


def test_a_table_with_a_title_is_named_by_it_in_the_outline(tmp_path: Path) -> None:
    """An HTML caption, DocBook's title paragraph, or a caption in Markdown's HTML is the table's heading
    (the Debian Reference's tables read '(table)' in `clew outline`: task U7); a table without one stays
    unnamed."""
    folder = tmp_path / "docs"
    folder.mkdir()
    row = "<tr><th>package</th><th>size</th></tr><tr><td>grub-pc</td><td>534</td></tr>"
    (folder / "boot.html").write_text(
        "<h1>Boot</h1><p>Loaders.</p>"
        f'<div class="table"><p class="title"><b>Table 3.1. List of boot loaders</b></p><table>{row}</table></div>'
        f"<table><caption>Kernel levels</caption>{row}</table><table>{row}</table>")
    (folder / "notes.md").write_text(f"# Notes\n\n<table><caption>Sizes</caption>{row}</table>\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        scope = Scope(corpus)

        def tables(key: str) -> list[str | None]:
            found: list[str | None] = []
            stack = [outline(scope, key)]
            while stack:
                node = stack.pop()
                assert node is not None
                found += [node.heading] if node.kind == "table" else []
                stack += reversed(node.children)
            return found

        assert tables("boot.html") == ["Table 3.1. List of boot loaders", "Kernel levels", None]
        assert tables("notes.md") == ["Sizes"]


def test_prune_retires_deleted_files_and_their_ids_still_resolve(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        hit = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits[0]
        assert hit.document_key == "sub/beta.md"
        (docs / "sub" / "beta.md").unlink()
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, prune=True)
        assert report.retired == ["sub/beta.md"]
        assert report.links_dangling_by_reason == {"missing_document": 1}
        hits = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits
        assert [h.document_key for h in hits] == ["alpha.md"]  # its link's "#zebras"; beta is gone
        assert "sub/beta.md" not in keys(corpus)
        removed = [r for r in list_documents(Scope(corpus, collection="docs"), include_removed=True)
                   if r.key == "sub/beta.md"]
        assert [(r.status, r.version) for r in removed] == [("removed", 1)]
        assert Scope(corpus).document_by_key("sub/beta.md") is None
        fetched = fetch_evidence(Scope(corpus), FetchArgs(ids=[hit.evidence_id]))
        (evidence,) = fetched.evidence
        assert evidence.status == "ok" and evidence.version_status == "removed"
        # the file comes back: a new version, searchable again, and the link resolves again
        write(docs, {"sub/beta.md": "# Beta\n\n## Zebras\n\nZebra stripes are unique to each zebra.\n"})
        back = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, prune=True)
        assert (back.versions_created, back.retired, back.links_dangling) == (1, [], 0)
        (older,) = fetch_evidence(Scope(corpus), FetchArgs(ids=[hit.evidence_id])).evidence
        assert older.status == "ok" and older.version_status == "superseded"  # a newer version exists now
        again = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits[0]
        assert again.document_key == "sub/beta.md" and again.evidence_id == hit.evidence_id.replace(":1:0", ":2:0")


def test_remove_documents(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        report = remove_documents(corpus, Scope(corpus, collection="docs"), ["notes.txt", "ghost.md"])
        assert (report.removed, report.missing) == (["notes.txt"], ["ghost.md"])
        assert search(corpus, {"query": "quokkas", "collection": "docs"}).hits == []
        # removing again: it is no longer current
        assert remove_documents(corpus, Scope(corpus, collection="docs"), ["notes.txt"]).missing == ["notes.txt"]
        with pytest.raises(InputError, match="collection"):
            remove_documents(corpus, Scope(corpus), ["alpha.md"])


def test_cli_ls_outline_rm_and_prune(tmp_path: Path, docs: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    first = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts",
                                "--json"])
    assert first.exit_code == 0, first.output
    assert result_of(first.stdout)["excluded"] == 1
    listed = runner.invoke(app, ["ls", "--db", db, "--json"])
    assert listed.exit_code == 0, listed.output
    assert [d["key"] for d in result_of(listed.stdout)["documents"]] == ["alpha.md", "notes.txt", "sub/beta.md"]
    long_key = docs / "a-folder-with-a-long-name" / "and-a-page-whose-key-is-over-forty.md"
    long_key.parent.mkdir()
    long_key.write_text("# A page with a long key\n\nIt is listed whole.\n")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts"]
                         ).exit_code == 0
    human = runner.invoke(app, ["ls", "--db", db], env={"COLUMNS": "80"}).stdout.splitlines()
    key = "a-folder-with-a-long-name/and-a-page-whose-key-is-over-forty.md"
    assert human[0] == "docs: 4 documents" and key in [line.split("  ")[0].rstrip() for line in human]
    # never cut: a key too long to leave its title room stands whole on its own line (5602026)
    assert all(len(line) <= 80 for line in human)
    long_key.unlink()
    long_key.parent.rmdir()
    assert runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts",
                               "--prune"]).exit_code == 0
    tree = runner.invoke(app, ["outline", "alpha.md", "--db", db])
    assert tree.exit_code == 0 and "Retention" in tree.stdout and "1 passage," in tree.stdout
    gone = runner.invoke(app, ["rm", "notes.txt", "--db", db, "--collection", "docs"])
    assert gone.exit_code == 0 and "retired notes.txt" in gone.stdout
    missing = runner.invoke(app, ["rm", "ghost.md", "--db", db, "--collection", "docs"])
    assert missing.exit_code == 1 and "not found ghost.md" in missing.stdout
    before = runner.invoke(app, ["search", "retention logs", "--db", db, "--collection", "docs", "--json"])
    alpha_id = result_of(before.stdout)["hits"][0]["evidence_id"]
    (docs / "alpha.md").unlink()
    pruned = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--prune"])
    assert pruned.exit_code == 0, pruned.output
    assert "retired alpha.md" in pruned.output and "1 retired" in pruned.stdout
    found = runner.invoke(app, ["search", "retention logs", "--db", db, "--collection", "docs", "--json"])
    assert found.exit_code == 1 and result_of(found.stdout)["hits"] == []  # nothing found
    unknown = runner.invoke(app, ["outline", "alpha.md", "--db", db])
    assert unknown.exit_code == 1 and "no current document" in unknown.output
    fetched = runner.invoke(app, ["fetch_evidence", alpha_id, "--db", db])
    assert fetched.exit_code == 0 and "(removed: the document was retired; its id still resolves)" in fetched.stdout


def test_progress_knows_the_total_first(tmp_path: Path, docs: Path) -> None:
    seen: list[object] = []
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, exclude=["drafts"],
                     on_total=lambda total: seen.append(("total", total)), on_file=seen.append)
    assert seen == [("total", 3), "alpha.md", "notes.txt", "sub/beta.md"]


def test_dangling_links_by_reason(tmp_path: Path) -> None:
    folder = write(tmp_path / "site", {"guide/a.md": "# A\n\n[web](https://example.org/x) [up](../../outside.md) "
                                                      "[gone](/guide/missing) [mail](mailto:x@example.org)\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
    # a mailto: link is a URL with a scheme too
    assert report.links_dangling_by_reason == {"external": 2, "missing_document": 1, "outside_collection": 1}
    assert report.links_dangling == 4


def test_a_sphinx_source_is_the_twin_of_its_page_in_any_folder(tmp_path: Path) -> None:
    site = write(tmp_path / "site", {
        "v1/lib/io.html": "<h1>io</h1><p>Streams of bytes and text for files.</p>",
        "v1/_sources/lib/io.rst.txt": "io\n==\n\nStreams of bytes and text for files.\n",
        "v1/_sources/lib/os.md.txt": "# os\n\nStreams of bytes and text for files.\n",  # no os.html: not a twin
    })
    files = [(site / key, key) for key in ("v1/_sources/lib/io.rst.txt", "v1/_sources/lib/os.md.txt",
                                            "v1/lib/io.html")]
    kept, twins = drop_twins(files)
    assert [key for _, key in kept] == ["v1/_sources/lib/os.md.txt", "v1/lib/io.html"]
    assert [(p.path, p.skipped) for p in twins] == [(str(site / "v1/_sources/lib/io.rst.txt"), True)]


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
    site = write(tmp_path / "docs", JSDOC_BUILD)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs")
        assert keys(corpus) == ["module-ControlFlow.html"]
        (line,) = report.problems
        assert "1 JSDoc source) not ingested" in line.message and line.message.endswith("(e.g. '!retry.js.html')")
        report = ingest_paths(corpus, [site], collection="docs", exclude=["!retry.js.html"])
        assert keys(corpus) == ["module-ControlFlow.html", "retry.js.html"]
