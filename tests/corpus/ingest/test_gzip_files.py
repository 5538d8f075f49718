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
from clew.corpus.ingest.prepare import ChunkingConfig, name_title
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import MIB, FileLimits, format_of
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
    assert "How you handle certificates depends a great deal on what your role is." in text_docs[0].index_texts()[0]


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
