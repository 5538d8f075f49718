"""A file that gives no title (a text file, an HTML page, a PDF or DOCX file) is titled by its name, as MkDocs titles
such a page."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.documents import list_documents
from clew.corpus.ingest.api import ingest_paths, prepare_sources
from clew.corpus.ingest.prepare import ChunkingConfig, name_title
from clew.corpus.ingest.sources import Source
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES, write_files
from tests.corpus.ingest.formats.test_pdf_title import _text

CONFIG = ChunkingConfig(160, False)


def test_a_name_reads_as_words_without_its_suffix() -> None:
    assert name_title("guide/getting-started.md") == "Getting started"
    assert name_title("notes/on_call_rota.txt") == "On call rota"
    assert name_title("docs/CHANGES.rst") == "CHANGES"
    assert name_title("manual/install.adoc") == "Install"


def test_an_index_page_is_named_by_its_folder_and_a_key_without_a_text_suffix_gets_none() -> None:
    assert name_title("api/cli-options/index.md") == "Cli options"
    assert name_title("usage/README.md") == "Usage"
    assert name_title("README.md") == "README"
    assert name_title("42") is None
    assert name_title("pages/photo.png") is None
    assert name_title("pages/home.html") == "Home"
    assert name_title("api/java-util/index.html") == "Java util"
    assert name_title("manuals/on-call_rota.pdf") == "On call rota"
    assert name_title("specs/Page-Breaks.docx") == "Page Breaks"


def prepared(*sources: Source) -> list[tuple[str | None, str | None, list[str]]]:
    out = []
    for docs, _ in prepare_sources(list(sources), CONFIG):
        doc = docs[0]
        out.append((doc.title, doc.nodes[0].heading, doc.index_texts()))
    return out


def test_an_untitled_file_is_titled_by_its_name_in_its_outline_and_its_index_texts() -> None:
    [(title, root, texts)] = prepared(Source("bundling-yargs.md", "/x/bundling-yargs.md", "markdown",
                                             "Bundle it with esbuild and ship one file.\n"))
    assert (title, root) == ("Bundling yargs", "Bundling yargs")
    assert texts == ["Bundling yargs\nBundle it with esbuild and ship one file.\n"]
    [(title, _, texts)] = prepared(Source("ops/rota.txt", "/x/ops/rota.txt", "text", "Alice then Bob.\n"))
    assert title == "Rota" and texts[0].startswith("Rota\n")


def test_a_title_the_file_gives_wins_and_a_record_without_one_stays_untitled() -> None:
    assert [t for t, _, _ in prepared(
        Source("a-b.md", "/x/a-b.md", "markdown", "## Bundling yargs\n\nShip one file.\n"),
        Source("c-d.md", "/x/c-d.md", "markdown", "---\ntitle: Front\n---\nShip one file.\n"),
        Source("e.rst", "/x/e.rst", "rst", "Setup\n=====\n\nRun it.\n"),
    )] == ["Bundling yargs", "Front", "Setup"]
    [(title, root, texts)] = prepared(Source("d.jsonl", "/x/d.jsonl", "jsonl", '{"key": "r1", "text": "one record"}\n'))
    assert (title, root, texts) == (None, None, ["one record"])


def test_an_html_page_with_neither_a_title_nor_an_h1_is_titled_by_its_name_everywhere(tmp_path: Path) -> None:
    """U15: such a page was listed with a blank title where a Markdown page was named (task S2)."""
    [(title, root, texts)] = prepared(Source("api/retry-policy.html", "/x/api/retry-policy.html", "html",
                                             "<html><body><h2>Options</h2><p>Retry three times.</p></body></html>"))
    assert (title, root) == ("Retry policy", "Retry policy") and texts[0].startswith("Retry policy > Options\n")
    assert [t for t, _, _ in prepared(
        Source("a-b.html", "/x/a-b.html", "html", "<title>Backoff</title><p>Wait.</p>"),
        Source("c-d.html", "/x/c-d.html", "html", "<h1>Jitter</h1><p>Spread.</p>"),
    )] == ["Backoff", "Jitter"]
    folder = write_files(tmp_path / "docs", {"api/retry-policy.html": "<p>Retry three times.</p>",
                                             "guide.md": "Read the policy first.\n"})
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [folder])
        assert {d.key: d.title for d in list_documents(Scope(corpus))} == {
            "api/retry-policy.html": "Retry policy", "guide.md": "Guide"}
    shown = CliRunner().invoke(app, ["ls", "--db", str(db)], env={"COLUMNS": "100"})
    assert shown.exit_code == 0 and any(line.split()[-2:] == ["Retry", "policy"] for line in shown.stdout.splitlines())


def untitled_pdf() -> bytes:
    """One page of 11-pt lines: no metadata title, no larger line, no heading."""
    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(612, 792)
    _text(pdf, page, "Retry three times, then give up and page the on-call engineer.", 11, 100)
    _text(pdf, page, "Wait a minute between the tries.", 11, 114)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    return buffer.getvalue()


def test_a_pdf_or_docx_file_that_gives_no_title_is_titled_by_its_name_as_every_format(tmp_path: Path) -> None:
    """Task S3: S2 named untitled HTML pages; an untitled PDF or DOCX file was still listed with a blank title."""
    docx = (FIXTURES / "docx" / "par-rendered-page-breaks.docx").read_bytes()
    [(pdf_title, pdf_root, pdf_texts), (docx_title, docx_root, _)] = prepared(
        Source("runbooks/retry-policy.pdf", "/x/runbooks/retry-policy.pdf", "pdf", untitled_pdf()),
        Source("par-rendered-page-breaks.docx", "/x/par-rendered-page-breaks.docx", "docx", docx))
    assert (pdf_title, pdf_root) == ("Retry policy", "Retry policy") and pdf_texts[0].startswith("Retry policy\n")
    assert (docx_title, docx_root) == ("Par rendered page breaks", "Par rendered page breaks")
    titled = (FIXTURES / "docx" / "sqlite-datatype3.docx").read_bytes()
    assert [t for t, _, _ in prepared(Source("datatypes.docx", "/x/datatypes.docx", "docx", titled))] == [
        "Datatypes In SQLite"]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "retry-policy.pdf").write_bytes(untitled_pdf())
    db = tmp_path / "c.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [tmp_path / "docs"])
        assert {d.key: d.title for d in list_documents(Scope(corpus))} == {"retry-policy.pdf": "Retry policy"}
