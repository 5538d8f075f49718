"""EPUB ingestion on real books (tests/fixtures/epub/README.md says where each comes from)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.epub import parse_epub
from clew.corpus.ingest.parsed import ParseBounds, UnreadableDocument
from clew.corpus.ingest.sources import FileLimits
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES
from tests.envelope import result as result_of

EPUB = FIXTURES / "epub"
SPHINX = EPUB / "sphinx-email-s3.epub"
PANDOC = EPUB / "pandoc-npm-scope-workspaces.epub"


def rewritten(source: Path, changes: dict[str, bytes | None]) -> bytes:
    """``source`` with the files in ``changes`` replaced (None: removed) or added."""
    out = io.BytesIO()
    with zipfile.ZipFile(source) as book, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in book.infolist():
            if entry.filename not in changes:
                target.writestr(entry, book.read(entry.filename))
        for name, data in changes.items():
            if data is not None:
                target.writestr(name, data)
    return out.getvalue()


def test_a_sphinx_book_is_one_document_in_spine_order_with_links_inside_it() -> None:
    document = parse_epub(SPHINX.read_bytes())
    document.check()
    assert document.title == "Sample manual"  # the OPF's dc:title
    tops = [s.heading for s in document.sections if s.level == 1]
    assert tops == ["Sample manual", "email Package Architecture", "S3 FAQ"]  # index, then the toctree's order
    faq = next(i for i, s in enumerate(document.sections) if s.heading == "S3 FAQ")
    upload = next(s for s in document.sections if s.heading == "Upload")
    assert document.heading_path(document.sections.index(upload))[0] == "S3 FAQ" and upload.level == 3
    assert document.text.index("# S3 FAQ") == document.sections[faq].start
    hrefs = [link.href for link in document.links]
    # the index's links to the other chapters, and to a section of one, land on anchors of this document
    assert "#architecture.xhtml" in hrefs and "#overview" in hrefs
    assert document.anchors["architecture.xhtml"] == document.text.index("# email Package Architecture")
    assert document.anchors["overview"] == document.text.index("## Overview")
    assert all(h[1:] in document.anchors for h in hrefs if h.startswith("#"))
    assert "https://datatracker.ietf.org/doc/html/rfc5322.html" in hrefs  # out of the book: kept
    assert not any(h.endswith((".css", ".png")) for h in hrefs)


def test_a_pandoc_book_keeps_its_code_and_renames_ids_that_repeat_across_chapters() -> None:
    document = parse_epub(PANDOC.read_bytes())
    document.check()
    assert document.title == "npm: scopes and workspaces"
    assert [s.heading for s in document.sections if s.level == 1] == [
        "npm: scopes and workspaces", "Scope", "Workspaces"]
    code = [document.text[b.start:b.end] for b in document.blocks if b.kind == "code"]
    assert any("npm install @myorg/mypackage" in c for c in code)
    # pandoc numbers code blocks per chapter (cb1 in each): the second chapter's becomes its path#cb1
    assert document.anchors["cb1"] < document.anchors["text/ch002.xhtml"] < document.anchors["text/ch002.xhtml#cb1"]
    descriptions = [s for s in document.sections if s.heading == "Description"]
    assert [s.anchors for s in descriptions] == [["description"], ["description-1"]]
    # the npm site's own links ("/commands/npm-install") name no file of the book: left out, not dangling
    assert not any(link.href.startswith("/") for link in document.links)


def test_an_epub2_book_reads_as_its_epub3_twin_its_contents_page_left_out() -> None:
    epub2 = parse_epub((EPUB / "pandoc-npm-scope-workspaces-epub2.epub").read_bytes())
    epub2.check()
    assert epub2.text == parse_epub(PANDOC.read_bytes()).text  # no "1. Scope\n2. Workspaces" contents page
    assert [s.heading for s in epub2.sections if s.level == 1] == ["npm: scopes and workspaces", "Scope", "Workspaces"]


def test_text_before_a_chapters_first_heading_is_headed_by_its_title_in_the_contents() -> None:
    with zipfile.ZipFile(PANDOC) as book:
        chapter = book.read("EPUB/text/ch001.xhtml").decode()
    headless = chapter.replace('<h1 data-number="1">Scope</h1>', "<p>Scoped packages.</p>")
    assert headless != chapter
    document = parse_epub(rewritten(PANDOC, {"EPUB/text/ch001.xhtml": headless.encode()}))
    document.check()
    assert [s.heading for s in document.sections if s.level == 1] == [
        "npm: scopes and workspaces", "Scope", "Workspaces"]  # "Scope" from nav.xhtml now
    scope = next(i for i, s in enumerate(document.sections) if s.heading == "Scope")
    assert document.text[document.sections[scope].start:].startswith("# Scope\n\nScoped packages.\n\n### Description")
    assert document.sections[scope + 1].parent == scope  # its "Description" under it


def test_a_chapter_in_utf16_is_read() -> None:
    with zipfile.ZipFile(PANDOC) as book:
        chapter = book.read("EPUB/text/ch001.xhtml").decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    document = parse_epub(rewritten(PANDOC, {"EPUB/text/ch001.xhtml": chapter.encode("utf-16")}))
    assert document.text == parse_epub(PANDOC.read_bytes()).text


def test_a_drm_book_is_skipped_with_its_reason_and_font_obfuscation_is_read() -> None:
    def encryption(uri: str) -> bytes:
        return (b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
                b'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData>'
                b'<enc:CipherReference URI="' + uri.encode() + b'"/></enc:CipherData></enc:EncryptedData></encryption>')

    locked = rewritten(SPHINX, {"META-INF/encryption.xml": encryption("architecture.xhtml")})
    with pytest.raises(UnreadableDocument, match=r"^encrypted \(DRM: META-INF/encryption.xml covers 1 of its 3 "
                                                 r"chapters, architecture.xhtml first\): not ingested"):
        parse_epub(locked)
    fonts = rewritten(SPHINX, {"META-INF/encryption.xml": encryption("fonts/Serif.otf")})
    assert parse_epub(fonts).title == "Sample manual"


def _padded_book() -> bytes:
    """The Sphinx book with 16 MiB of zeros beside its files (under 100 KB zipped)."""
    out = io.BytesIO()
    with zipfile.ZipFile(SPHINX) as book, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in book.infolist():
            target.writestr(entry, book.read(entry.filename))
        with target.open("_static/padding.bin", "w") as padding:
            for _ in range(16):
                padding.write(bytes(1 << 20))
    return out.getvalue()


def test_a_book_that_unzips_past_its_bound_is_skipped_before_it_is_unzipped(tmp_path: Path) -> None:
    data = _padded_book()
    assert len(data) < 100_000
    assert parse_epub(data).title == "Sample manual"  # within the default 512 MiB
    with pytest.raises(UnreadableDocument, match=r"its files unzip to 16,\d{3},\d{3} bytes, over the "
                                                 r"8,388,608-byte limit: not ingested \(a zip bomb\?\); raise the "
                                                 r"limit \(--max-zip-expanded-mib\)"):
        parse_epub(data, ParseBounds(expanded_bytes=8 << 20))
    (tmp_path / "bomb.epub").write_bytes(data)
    (tmp_path / "note.md").write_text("# Note\n\nStored.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path / "bomb.epub", tmp_path / "note.md"],
                              limits=FileLimits(parse=ParseBounds(expanded_bytes=8 << 20)))
    assert (report.versions_created, report.skipped) == (1, 1)
    assert report.problems[0].path.endswith("bomb.epub") and "unzip to" in report.problems[0].message


@pytest.mark.parametrize("data, reason", [
    (SPHINX.read_bytes()[:5000], "not a zip"),  # cut short
    (b"this is plain text, not a book", "not a zip"),
    (rewritten(SPHINX, {"META-INF/container.xml": None}), "no META-INF/container.xml"),
    (rewritten(SPHINX, {"content.opf": b"<package><spine"}), "ParseError"),
    (rewritten(SPHINX, {"content.opf": b'<?xml version="1.0" encoding="bogus"?><package/>'}), "LookupError"),
])
def test_a_broken_book_is_a_problem_naming_the_file_and_the_rest_is_stored(
        tmp_path: Path, data: bytes, reason: str) -> None:
    with pytest.raises(UnreadableDocument, match="not a readable EPUB file"):
        parse_epub(data)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "broken.epub").write_bytes(data)
    (folder / "good.md").write_text("# Good\n\nThis file is fine and must be stored.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder])
        assert Scope(corpus).document_by_key("good.md") is not None
    assert (report.documents, report.skipped) == (1, 1)
    problem = report.problems[0]
    assert problem.path.endswith("broken.epub") and problem.message.startswith("not a readable EPUB file")
    assert reason in problem.message


def test_a_nav_in_an_encoding_python_does_not_know_is_left_out_and_the_book_read() -> None:
    nav = zipfile.ZipFile(PANDOC).read("EPUB/nav.xhtml").replace(b'encoding="UTF-8"', b'encoding="bogus"', 1)
    assert b'encoding="bogus"' in nav
    book = parse_epub(rewritten(PANDOC, {"EPUB/nav.xhtml": nav}))
    assert book.text == parse_epub(PANDOC.read_bytes()).text  # its toc.ncx still names the chapters


def test_ingest_and_ask_a_book(tmp_path: Path) -> None:
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "npm.epub").write_bytes(PANDOC.read_bytes())
    (folder / "email.epub").write_bytes(SPHINX.read_bytes())
    db = str(tmp_path / "c.duckdb")
    runner = CliRunner()
    ingested = runner.invoke(app, ["ingest", "--db", db, str(folder)])
    assert ingested.exit_code == 0, ingested.output
    answered = runner.invoke(app, ["ask", "How do I run a command in the context of all workspaces?",
                                   "--db", db, "--json"])
    assert answered.exit_code == 0, answered.output
    hits = result_of(answered.stdout)["hits"]
    assert hits[0]["document_key"] == "npm.epub"
    assert hits[0]["heading_path"] == ["Workspaces", "Running commands in the context of workspaces"]
    assert "npm run test --workspace=a" in hits[0]["text"]


def test_an_epub2_book_leaves_out_its_contents_page_and_sisus_paragraph_numbers() -> None:
    document = parse_epub((EPUB / "sisu-live-manual-part.epub").read_bytes())
    document.check()
    assert document.title == "Live Systems Manual"
    # index.xhtml, the contents as a page (its headings link to the chapters), is not read: no second outline
    assert [s.heading for s in document.sections[1:]] == [
        "Live Systems Manual", "About", "About this manual", "1. About this manual",
        "2. About the Live Systems Project"]
    # SiSU's number before every paragraph (label.ocn: "4", "5", ...) is not text
    assert document.text.startswith("# Live Systems Manual\n\n# About\n\n# About this manual\n\n"
                                    "# 1. About this manual\n\nThis manual serves as a single access point")
    assert not any(document.text[b.start:b.end].isdigit() for b in document.blocks)
    assert "#about-manual.xhtml" in [link.href for link in document.links]


@pytest.mark.parametrize("options", [["--max-zip-expanded-mib", "8"], ["--max-docx-expanded-mib", "8"]])
def test_clew_ingest_bounds_a_book_by_the_zip_option_and_its_old_name(tmp_path: Path, options: list[str]) -> None:
    """``--max-docx-expanded-mib`` bounded EPUB files too (433451e): it is ``--max-zip-expanded-mib`` now, and the
    old name still works, with one warning."""
    (tmp_path / "bomb.epub").write_bytes(_padded_book())
    ran = CliRunner().invoke(app, ["ingest", str(tmp_path / "bomb.epub"), "--db", str(tmp_path / "c.duckdb"),
                                   "--workers", "1", *options], env={"COLUMNS": "200"})
    assert ran.exit_code != 0 and "over the 8,388,608-byte limit" in ran.stderr, ran.output
    warned = [line for line in ran.stderr.splitlines() if "deprecated" in line]
    assert warned == ([] if options[0] == "--max-zip-expanded-mib" else [
        "warning --max-docx-expanded-mib is deprecated: it is --max-zip-expanded-mib, which bounds DOCX and EPUB "
        "files alike"])


def test_clew_ingest_refuses_the_zip_option_and_its_old_name_at_two_values(tmp_path: Path) -> None:
    ran = CliRunner().invoke(app, ["ingest", str(SPHINX), "--db", str(tmp_path / "c.duckdb"),
                                   "--max-zip-expanded-mib", "8", "--max-docx-expanded-mib", "16"],
                             env={"COLUMNS": "200"})
    assert ran.exit_code == 2, ran.output
    assert "--max-docx-expanded-mib 16 and --max-zip-expanded-mib 8: the first is the old name of the second; " \
        "give one" in ran.stderr
    assert not (tmp_path / "c.duckdb").exists()
