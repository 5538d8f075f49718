"""A gzip file is read as the format of its name without ``.gz`` (task G1): Debian compresses large pages
(``changelog.html.gz``, ``*.txt.gz``), which were skipped as an unsupported type while the pages beside them link
``changelog.html``. Decompressed to the limit of that format and no further; a corrupt one is skipped by name."""

from __future__ import annotations

import gzip
import shutil
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.api import ingest_paths, prepare_sources
from clew.corpus.ingest.peek import read_head, read_name
from clew.corpus.ingest.prepare import ChunkingConfig, name_title
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import MIB, FileLimits, find_files, format_of, suffix_twins
from clew.corpus.links import target_names
from clew.corpus.store import Corpus
from tests.corpus.test_links import targets

DEBIAN = Path(__file__).parents[2] / "fixtures" / "gzip" / "debian"
CHANGELOG = DEBIAN / "changelog.html.gz"  # sqlite3 3.40.1's release history, as Debian ships it
CERTIFICATES = DEBIAN / "certificates.txt.gz"  # openssl 3.0's HOWTO/certificates.txt.gz


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def test_the_format_is_the_name_s_without_gz() -> None:
    assert [
        format_of(Path(name)) for name in ("a.html.gz", "NEWS.TXT.GZ", "a.md.gz", "b.pdf.gz", "a.gz", "a.tar.gz")
    ] == ["html", "text", "markdown", "pdf", None, None]
    assert name_title("whatsnew/release-notes.txt.gz") == "Release notes"


def test_a_debian_html_gz_page_and_a_txt_gz_file_read_as_html_and_text() -> None:
    page, problem = read_source(CHANGELOG, "changelog.html.gz")
    assert problem is None and page is not None
    assert (page.key, page.format) == ("changelog.html.gz", "html")
    text, problem = read_source(CERTIFICATES, "HOWTO/certificates.txt.gz")
    assert problem is None and text is not None and text.format == "text"
    [page_docs, text_docs] = [docs for docs, _ in prepare_sources([page, text], ChunkingConfig(400, False))]
    assert page_docs[0].title == "Release History Of SQLite"
    assert "2022-12-28 (3.40.1)" in page_docs[0].index_texts()[1]
    assert text_docs[0].title == "Certificates"
    texts = text_docs[0].index_texts()
    # its numbered sections are headings (task U39): the sentence opens "1. Introduction"'s passage
    assert texts[1].startswith("Certificates > 1. Introduction\n")
    assert "How you handle certificates depends a great deal on what your role is." in texts[1]


def test_a_link_to_the_page_without_gz_resolves_to_it_and_the_key_keeps_gz(corpus: Corpus, tmp_path: Path) -> None:
    folder = tmp_path / "sqlite3"
    folder.mkdir()
    shutil.copy(CHANGELOG, folder)
    (folder / "index.html").write_text(
        "<html><head><title>SQLite</title></head><body><h1>SQLite</h1>\n"
        '<p>See <a href="changelog.html">the release history</a>.</p></body></html>'
    )
    report = ingest_paths(corpus, [folder], glob="*", chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (2, 0)
    keys = {row[0] for row in corpus.cursor().execute("SELECT key FROM documents").fetchall()}
    assert keys == {"changelog.html.gz", "index.html"}
    assert targets(corpus)["changelog.html"].startswith("changelog.html.gz:1:")


def test_a_corrupt_gzip_file_is_skipped_by_name_and_the_others_are_ingested(corpus: Corpus, tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    folder.mkdir()
    shutil.copy(CERTIFICATES, folder)
    (folder / "cut.html.gz").write_bytes(CHANGELOG.read_bytes()[:5000])  # a download cut short
    (folder / "plain.txt.gz").write_bytes(b"not compressed at all\n")
    report = ingest_paths(corpus, [folder], chunk_tokens=400)
    problems = {Path(p.path).name: (p.skipped, p.message) for p in report.problems}
    assert problems == {
        "cut.html.gz": (
            True,
            "not a readable gzip file (Compressed file ended before the end-of-stream marker was "
            "reached): not ingested",
        ),
        "plain.txt.gz": (True, "not a readable gzip file (Not a gzipped file (b'no')): not ingested"),
    }
    assert (report.versions_created, report.skipped) == (1, 2)


def test_a_gzip_bomb_stops_at_the_limit_of_its_format(tmp_path: Path) -> None:
    """32 MiB of zeros in 32 KB: decompression stops one byte past the 1 MiB limit, and never holds the whole."""
    bomb = tmp_path / "zeros.md.gz"
    bomb.write_bytes(gzip.compress(bytes(32 * MIB), compresslevel=9))
    assert bomb.stat().st_size < 64 * 1024
    tracemalloc.start()
    try:
        source, problem = read_source(bomb, "zeros.md.gz", FileLimits(text_bytes=MIB))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert source is None and problem is not None and problem.skipped
    assert problem.message == (
        "decompressed, more than 1,048,576 bytes (1 MiB), which is over the 1,048,576 bytes "
        "(1 MiB) limit for text files (markdown): not ingested; split the file or raise the "
        "limit (--max-text-mib)"
    )
    assert peak < 4 * MIB


def test_clew_ingest_says_which_gzip_file_it_could_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "doc"
    folder.mkdir()
    shutil.copy(CERTIFICATES, folder)
    (folder / "cut.html.gz").write_bytes(CHANGELOG.read_bytes()[:5000])
    ran = CliRunner().invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "c.duckdb")], env={"COLUMNS": "200"})
    assert ran.exit_code == 0, ran.output
    assert ran.stderr.splitlines()[0] == (
        f"skipped {folder / 'cut.html.gz'}: not a readable gzip file (Compressed file "
        "ended before the end-of-stream marker was reached): not ingested"
    )
    assert ran.stdout.startswith("1 document (1 new version, 0 unchanged)")
    assert target_names(["doc/changelog.html.gz"]) == ["doc/changelog.html", "doc/changelog.html.gz"]


def _gzipped(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


GUIDE = (
    "<html><head><title>Guide</title></head><body><h1>Guide</h1><p>The installer writes its configuration "
    "folder under the prefix, and an upgrade keeps every file in that folder as it was.</p></body></html>"
)
INTRO_MD = (
    "# Introduction\n\nThe cache folder holds the downloaded archives until a purge removes them, "
    "and the log level decides how much the tool writes about each download.\n"
)


def test_a_gzip_file_is_checked_under_the_name_and_the_text_it_holds(tmp_path: Path) -> None:
    """The generated-page, browser-page and twin checks look at a gzip file's name without ``.gz`` and at its
    decompressed text (review of 94fc7cd): before, ``retry.js.html.gz`` matched no ``*.html`` sign, a gzip page's
    head was read compressed, and ``guide.html.gz`` was no one's twin, so all were ingested."""
    folder = tmp_path / "site"
    folder.mkdir()
    _gzipped(
        folder / "retry.js.html.gz",
        "<html><head><title>JSDoc: Source: retry.js</title></head><body>"
        '<pre class="prettyprint source linenums"><code>export default function retry() {}</code></pre>'
        "</body></html>",
    )
    _gzipped(
        folder / "old.html.gz",
        '<html><head><meta http-equiv="refresh" content="0; url=guide.html"></head><body>Moved.</body></html>',
    )
    (folder / "guide.html").write_text(GUIDE, encoding="utf-8")
    _gzipped(folder / "guide.html.gz", GUIDE)  # the same page again, compressed
    (folder / "intro.md").write_text(INTRO_MD, encoding="utf-8")
    _gzipped(
        folder / "intro.html.gz",
        "<html><head><title>Introduction</title></head><body><h1>Introduction</h1>"
        "<p>The cache folder holds the downloaded archives until a purge removes them, and the log level "
        "decides how much the tool writes about each download.</p></body></html>",
    )  # rendered from intro.md
    (folder / "notes.md").write_text("# Notes\n\nA release note of its own.\n", encoding="utf-8")
    _gzipped(folder / "notes.html.gz", "<html><body><h1>Changes</h1><p>Other words altogether here.</p></body></html>")
    found = find_files([folder], "**/*")
    assert sorted(key for _, key in found.files) == ["guide.html", "intro.html.gz", "notes.html.gz", "notes.md"]
    messages = {
        Path(p.path).name: p.message for p in found.problems + suffix_twins(found.files) if p.path != str(folder)
    }
    left = [p.message for p in found.problems if p.path == str(folder)]
    assert any("retry.js.html.gz" in m and "JSDoc source" in m for m in left)
    assert any(m.startswith("1 redirect page (only a refresh to another page: old.html.gz)") for m in left)
    assert messages["guide.html.gz"].startswith("the same text as guide.html (a copy in another format)")
    assert messages["intro.md"].startswith("the same text as intro.html.gz (a copy in another format)")
    assert messages["notes.md"].endswith("both are ingested; leave one out with --exclude '*.md' or .clewignore")


def test_the_name_a_file_is_read_under_and_its_head() -> None:
    assert [read_name(n) for n in ("a/changelog.html.gz", "NEWS.TXT.GZ", "a.html", "a.gz")] == [
        "a/changelog.html",
        "NEWS.TXT",
        "a.html",
        "a",
    ]
    assert read_head(CHANGELOG, 15) == b"<!DOCTYPE html>"


def test_a_corrupt_gzip_file_s_head_is_unreadable(tmp_path: Path) -> None:
    cut = tmp_path / "cut.html.gz"
    cut.write_bytes(CHANGELOG.read_bytes()[:5000])
    with pytest.raises(OSError, match="not a readable gzip file"):
        read_head(cut, 1 << 20)


def test_a_gzip_file_named_as_a_generated_page_is_left_out_and_a_bang_pattern_takes_it_back(tmp_path: Path) -> None:
    """The generated names (``genindex.html``, ``search.html``) match a gzip file by the name it is read under, as its
    signs do (task F2's leftover): Debian's ``genindex.html.gz`` and ``search.html.gz`` were ingested as pages."""
    folder = tmp_path / "html"
    folder.mkdir()
    _gzipped(folder / "genindex.html.gz", "<html><body><h1>Index</h1><p>A | apt-get, apt-cache</p></body></html>")
    _gzipped(folder / "search.html.gz", '<html><body><h1>Search</h1><div id="search-results"></div></body></html>')
    _gzipped(folder / "guide.html.gz", GUIDE)
    found = find_files([folder], "**/*")
    assert [key for _, key in found.files] == ["guide.html.gz"]
    assert found.excluded == 2
    [line] = [p.message for p in found.problems]
    assert line.startswith("2 generated files (a documentation tool's indexes, search page, sources or assets: "
                           "genindex.html, search.html) not ingested")
    again = find_files([folder], "**/*", ["!genindex.html"])
    assert [key for _, key in again.files] == ["genindex.html.gz", "guide.html.gz"]
