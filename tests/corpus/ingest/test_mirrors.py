"""Documentation sites as a user saves them (task U29): HTTrack's project folder around the site it mirrored
(``tests/fixtures/mirrors/httrack``: fastify's VitePress site as HTTrack 3.49 saved it, pages trimmed). HTTrack writes
its own files beside the site's folder: its project page ``index.html`` ("Local index - HTTrack Website Copier"),
``hts-log.txt``, ``hts-cache/`` (``new.txt``, ``doit.log``; ``new.zip``, ``new.lst``), ``backblue.gif`` and
``fade.gif``; its comments in each page (``<!-- Mirrored from ... -->``); its links made relative; the server's answer
to a link to a missing page, saved under that page's name (``Guides/Contributing.html``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from clew.corpus.documents import list_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import find_files
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

MIRROR = Path(__file__).resolve().parents[2] / "fixtures" / "mirrors" / "httrack"


def test_httrack_s_own_files_are_left_out_and_the_site_s_pages_kept(tmp_path: Path) -> None:
    """HTTrack's log and cache were documents ("hts-log.txt", "new.txt": 5 of the 49 documents of fastify's mirror,
    with its project page, titled "Local index - HTTrack Website Copier"). Now the site's pages alone are kept; the
    log and cache are generated files, the project page a page for browsers, each named in a line."""
    site = shutil.copytree(MIRROR, tmp_path / "fastify")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["127.0.0.1_18762/Reference/Server.html", "127.0.0.1_18762/index.html"]
    messages = [line.message for line in report.problems]
    generated = next(message for message in messages if "generated files" in message)
    assert "hts-cache" in generated and "hts-log.txt" in generated
    browser = next(message for message in messages if "pages for browsers" in message)
    assert browser.startswith("1 not-found page (the page a server answers a missing one with: "
                              "127.0.0.1_18762/Guides/Contributing.html), 1 mirror tool's index page (HTTrack's "
                              "list of the sites it saved: index.html) and 1 folder listing (a web server's list of a "
                              "folder's files: 127.0.0.1_18762/Guides/index-2.html)")
    assert "--exclude '!index-2.html'" in browser


def test_a_web_server_s_folder_listing_is_left_out(tmp_path: Path) -> None:
    """A page links to a folder (fastify's home to ``/Guides/``): the server answered with its listing of the
    folder, which HTTrack saved as ``Guides/index-2.html`` (wget as ``Guides/index.html``), a document of the mirror
    ("Directory listing for /Guides/", Python's ``http.server``). Apache's and nginx's ("Index of /docs/") alike; a
    page that names a listing in its text only is kept."""
    pages = {"docs/index.html": '<html><head><title>Index of /docs/</title></head><body><h1>Index of /docs/</h1><hr>'
                                '<pre><a href="../">../</a>\n<a href="guide.html">guide.html</a>   07-Dec-2026 10:39'
                                "   1234\n</pre><hr></body></html>",
             "docs/guide.html": "<html><head><title>Guide</title></head><body><h1>Guide</h1><p>Index of /docs: a "
                                "server writes one where a folder has no index.html.</p></body></html>",
             "docs/serving.html": "<html><head><title>Index of /docs is a listing</title></head><body><h1>Serving"
                                  "</h1><p>How to serve the folder.</p></body></html>"}
    site = write_files(tmp_path / "site", pages)
    keys = [key for _, key in find_files([site], "**/*").files]
    assert keys == ["docs/guide.html", "docs/serving.html"]


def test_a_page_httrack_saved_from_an_error_response_is_left_out(tmp_path: Path) -> None:
    """fastify's guides link to ``Contributing.html``, which the site does not hold: HTTrack saved the server's
    answer there ("Error response / Error code: 404", ``http.server``'s; a site's own not-found page alike), and the
    mirror held a document its build folder does not. ``hts-cache/new.txt`` records the 404 for that URL: the page is
    a not-found page. The same page where the log records a 200, or without HTTrack's log, is kept."""
    site = shutil.copytree(MIRROR, tmp_path / "fastify")
    page = "127.0.0.1_18762/Guides/Contributing.html"
    found = find_files([site], "**/*")
    assert page not in [key for _, key in found.files]
    log = site / "hts-cache" / "new.txt"
    error, fetched = "\t404\terror ('File%20not%20found')\ttext/html\t", "\t200\tadded ('OK')\ttext/html\t"
    log.write_text(log.read_text("utf-8").replace(error, fetched), "utf-8")
    assert page in [key for _, key in find_files([site], "**/*").files]
    shutil.rmtree(site / "hts-cache")
    assert page in [key for _, key in find_files([site], "**/*").files]


def test_a_page_of_the_mirrored_site_is_titled_as_in_its_build_folder(tmp_path: Path) -> None:
    """The navbar's link home made relative (``../index.html``) still names the site, so the heading after the
    banner titles the page, as in the build folder ("Factory", not "Fastify"); the home page keeps "Fastify"; the
    relative link from one to the other resolves."""
    site = shutil.copytree(MIRROR, tmp_path / "fastify")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        titles = {row.key: row.title for row in list_documents(Scope(corpus, collection="docs"))}
    assert titles == {"127.0.0.1_18762/Reference/Server.html": "Factory", "127.0.0.1_18762/index.html": "Fastify"}
    # the home page's link to Server.html resolves; Server's to ../Guides/Index.html, not in the fixture, does not
    assert (report.links_resolved, report.links_dangling_by_reason.get("missing_document")) == (1, 1)


WGET_HUGO = Path(__file__).resolve().parents[2] / "fixtures" / "mirrors" / "wget-hugo"
"""Hugo 0.111's docs as ``wget --mirror --convert-links --adjust-extension`` saved them, pages trimmed: its links
to ``/functions/with`` (no trailing slash; the server redirects) saved ``functions/with.html`` beside
``functions/with/index.html``, the same page."""


def test_a_page_a_mirror_saved_twice_is_ingested_once(tmp_path: Path) -> None:
    """22 of the mirror's 538 documents were such copies (the build folder: 521). The folder's ``index.html`` is
    kept, its copy named in a line; ``content-management.html`` beside ``content-management/index.html`` with text
    of its own stays."""
    site = shutil.copytree(WGET_HUGO, tmp_path / "hugo")
    found = find_files([site], "**/*")
    assert sorted(key for _, key in found.files) == [
        "content-management.html", "content-management/front-matter/index.html", "content-management/index.html",
        "functions/index.html", "functions/with/index.html", "index.html"]
    lines = sorted(problem.message for problem in found.problems)
    assert lines == ["the same page as content-management/front-matter/index.html (a mirror saved it twice, as linked "
                     "with and without its trailing slash): ingested once, as that file",
                     "the same page as functions/with/index.html (a mirror saved it twice, as linked with and "
                     "without its trailing slash): ingested once, as that file"]
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [site], collection="docs", chunk_tokens=220)
        assert "functions/with.html" not in document_keys(corpus)
    assert report.documents == 6
