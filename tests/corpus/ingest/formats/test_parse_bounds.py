"""One PDF or DOCX file cannot stall an ingest: past its parse bounds (``ParseBounds``: seconds,
objects on a PDF page, unzipped DOCX bytes) it is skipped with the reason, and the rest is stored."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.docx import parse_docx
from clew.corpus.ingest.formats.pdf import parse_pdf
from clew.corpus.ingest.parsed import ParseBounds, UnreadableDocument
from clew.corpus.ingest.sources import FileLimits
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus


def pdf_with(pages: list[bytes]) -> bytes:
    """A PDF whose pages draw the given content streams (Helvetica as /F1), written object by object."""
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    font = 3 + 2 * count
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode()]
    for i, stream in enumerate(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 {font} 0 R"
                       f" >> >> /Contents {4 + 2 * i} 0 R >>".encode())
        objects.append(content(b"", stream))
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    return pdf_objects(objects)


def content(entries: bytes, stream: bytes) -> bytes:
    """A stream object: its dictionary's ``entries`` and the stream's bytes."""
    return b"<< " + entries + b" /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"


def pdf_objects(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` (numbered from 1; the first is the catalog), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def nested_forms_pdf(fan: int = 50, text_objects: int = 1_000) -> bytes:
    """One page (one object on it) that draws a form ``fan`` times, which draws a form ``fan`` times,
    which draws ``text_objects`` text objects: 2,500,000 of them in a 37 KB file at the defaults.
    PDFium spends seconds in single calls on it (loading the page, then its text: ~5 s each here)."""
    font = b"/Font << /F1 5 0 R >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << " + font
               + b" /XObject << /X0 6 0 R >> >> /Contents 4 0 R >>",
               content(b"", b"q /X0 Do Q"), b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    form = b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << " + font
    draws = b"\n".join(b"q 1 0 0 1 %d %d cm /X0 Do Q" % (i % 10, i // 10) for i in range(fan))
    objects.append(content(form + b" /XObject << /X0 7 0 R >> >>", draws))
    objects.append(content(form + b" /XObject << /X0 8 0 R >> >>", draws))
    objects.append(content(form + b" >>", hostile_page(text_objects)))
    return pdf_objects(objects)


def text_page(words: list[str]) -> bytes:
    return b"BT /F1 11 Tf 72 720 Td 14 TL " + b" ".join(b"(%s) '" % w.encode() for w in words) + b" ET"


def hostile_page(objects: int) -> bytes:
    """One page of ``objects`` text objects, each its own BT ... ET at its own place."""
    return b"\n".join(b"BT /F1 8 Tf %d %d Td (w%d) Tj ET" % (10 + i % 50 * 11, 10 + i // 50 % 70 * 11, i % 10)
                      for i in range(objects))


def test_a_pdf_with_100000_text_objects_on_a_page_is_skipped_and_the_rest_stored(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "hostile.pdf").write_bytes(pdf_with([text_page(["Cover"]), hostile_page(100_000)]))
    (folder / "manual.pdf").write_bytes(pdf_with([text_page(["The", "kiwi", "manual", "says", "hello."])]))
    (folder / "note.md").write_text("# Note\n\nThis note is stored.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder])
        assert Scope(corpus).document_by_key("manual.pdf") is not None
        assert Scope(corpus).document_by_key("note.md") is not None
        assert Scope(corpus).document_by_key("hostile.pdf") is None
    assert (report.versions_created, report.skipped) == (2, 1)
    assert [(Path(p.path).name, p.message) for p in report.problems] == [
        ("hostile.pdf", "page 2 holds 100,000 objects, over the 50,000 limit for one page: not ingested; raise the "
                        "limit (--max-page-objects)")]


def test_a_pdf_that_outlasts_its_time_bound_is_skipped_with_the_reason(tmp_path: Path) -> None:
    pages = [text_page([f"word{i}", "and", "more", "text"]) for i in range(40)]
    data = pdf_with(pages)
    assert len(parse_pdf(data).pages) == 40  # within the default bounds it is read
    with pytest.raises(UnreadableDocument, match=r"^parsing took longer than the 1e-06 s limit \(stopped at page "
                                                 r"\d+\): not ingested; raise the limit \(--max-parse-seconds\)$"):
        parse_pdf(data, ParseBounds(seconds=1e-6))
    (tmp_path / "slow.pdf").write_bytes(data)
    (tmp_path / "note.md").write_text("# Note\n\nStored.\n")
    runner = CliRunner()
    result = runner.invoke(app, ["ingest", str(tmp_path / "slow.pdf"), str(tmp_path / "note.md"),
                                 "--db", str(tmp_path / "c.duckdb"), "--max-parse-seconds", "0.001", "--json"])
    assert result.exit_code == 0, result.output
    assert '"versions_created": 1' in result.stdout and "parsing took longer than the 0.001 s limit" in result.stdout


def zip_bomb_docx(expanded: int) -> bytes:
    """A real DOCX with one more part that unzips to ``expanded`` bytes of zeros (a few KB zipped)."""
    good = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("A paragraph.")
    document.save(good)
    out = io.BytesIO()
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for entry in source.infolist():
            target.writestr(entry, source.read(entry.filename))
        with target.open("word/media/padding.bin", "w") as padding:
            chunk = bytes(1 << 20)
            for _ in range(expanded >> 20):
                padding.write(chunk)
    return out.getvalue()


def test_a_docx_that_unzips_past_its_bound_is_skipped_before_it_is_unzipped(tmp_path: Path) -> None:
    data = zip_bomb_docx(64 << 20)
    assert len(data) < 200_000
    assert "A paragraph." in parse_docx(data).text  # within the default 512 MiB
    with pytest.raises(UnreadableDocument, match=r"its parts unzip to 6\d,\d{3},\d{3} bytes, over the "
                                                 r"33,554,432-byte limit: not ingested"):
        parse_docx(data, ParseBounds(expanded_bytes=32 << 20))
    (tmp_path / "bomb.docx").write_bytes(data)
    (tmp_path / "note.md").write_text("# Note\n\nStored.\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path / "bomb.docx", tmp_path / "note.md"],
                              limits=FileLimits(parse=ParseBounds(expanded_bytes=32 << 20)))
    assert (report.versions_created, report.skipped) == (1, 1)
    assert report.problems[0].message.startswith("its parts unzip to ")
