"""Bounded work for any input: parsing and chunking stay linear in the input's size."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from clew.budgets import tokens
from clew.corpus.ingest import chunking
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.chunking import chunk_document
from clew.corpus.ingest.formats.html import parse_html
from clew.corpus.ingest.formats.html_stack import MAX_DEPTH
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.formats.text import parse_text
from clew.corpus.ingest.sources import MIB, FileLimits
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES


def counted_chars(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the length of every text the chunker counts tokens of."""
    seen: list[int] = []
    real = tokens.count_tokens

    def counting(text: str) -> int:
        seen.append(len(text))
        return real(text)

    monkeypatch.setattr(chunking, "count_tokens", counting)
    return seen


@pytest.mark.parametrize("parse", [parse_text, parse_markdown])
def test_one_long_paragraph_is_counted_in_linear_work(monkeypatch: pytest.MonkeyPatch, parse: object) -> None:
    # 40,000 one-letter lines are one paragraph of 80,000 characters: counting the rest of it
    # before each cut looked at ~180 x 40,000 characters
    text = "x\n" * 40_000
    doc = parse(text)  # type: ignore[operator]
    seen = counted_chars(monkeypatch)
    chunks = chunk_document(doc, chunk_tokens=220)
    assert len(chunks) > 100
    assert all(c.token_count <= 220 for c in chunks)
    assert "".join(doc.text[c.start : c.end] for c in chunks) == doc.text
    assert sum(seen) < 12 * len(text), f"counted {sum(seen):,} characters for a text of {len(text):,}"


def test_many_short_paragraphs_pack_in_linear_time() -> None:
    doc = parse_text("x\n\n" * 100_000)
    started = time.perf_counter()
    chunks = chunk_document(doc, chunk_tokens=220)
    assert time.perf_counter() - started < 20  # ~1.5 s here; copying the rest of the units per chunk was minutes
    assert "".join(doc.text[c.start : c.end] for c in chunks) == doc.text


def test_deep_html_nesting_is_flattened_and_reported() -> None:
    depth = 20_000
    source = "".join(f'<div id="d{i}">level {i} ' for i in range(depth)) + "</div>" * depth + "<p>after</p>"
    started = time.perf_counter()
    doc = parse_html(source)
    assert time.perf_counter() - started < 15  # ~0.6 s here; before, 10,000 levels took 21 s (quadratic)
    doc.check()
    assert "level 0" in doc.text and f"level {depth - 1}" in doc.text and doc.text.endswith("after")
    assert doc.anchors.keys() >= {"d0", f"d{MAX_DEPTH}", f"d{depth - 1}"}  # anchors below the cap are kept
    assert doc.repairs == [
        f"HTML nested deeper than {MAX_DEPTH} elements: {depth - MAX_DEPTH} element(s) below that depth were "
        "flattened into the element around them (their text, links and anchors are kept)"]


def test_flattened_end_tags_close_what_they_opened() -> None:
    # below the cap a <ul> is not opened; its </ul> must not close the list above the cap
    nested = "<div>" * (MAX_DEPTH - 2) + "<ul><li>outer<div><ul><li>deep</li></ul></div> tail</li><li>second</li></ul>"
    doc = parse_html(nested + "</div>" * (MAX_DEPTH - 2))
    items = [doc.text[b.start : b.end] for b in doc.blocks if b.kind == "list_item"]
    assert items[-1].strip() == "- second"
    assert doc.repairs and "flattened" in doc.repairs[0]


def test_shallow_html_reports_no_repair() -> None:
    assert parse_html("<div>" * 100 + "text" + "</div>" * 100).repairs == []


def test_ingest_reports_the_flattening_as_a_repair_naming_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "deep.html").write_text("<div>" * 2000 + "deep text" + "</div>" * 2000, encoding="utf-8")
    (folder / "nested.md").write_text("# Deep\n\n<table><tr><td>" + "<div>" * 1000 + "cell</td></tr></table>\n",
                                    encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=220)
    assert report.documents == 2 and report.repaired == 2 and report.skipped == 0
    assert sorted(Path(p.path).name for p in report.problems) == ["deep.html", "nested.md"]
    assert all(f"nested deeper than {MAX_DEPTH}" in p.message and not p.skipped for p in report.problems)


def test_a_file_over_the_size_limit_is_refused_naming_it_and_the_limit(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "big.md").write_text("# Big\n\n" + "x" * (4096 - 7 + 1), encoding="utf-8")  # 4,097 bytes
    (folder / "fits.md").write_text("# Fits\n\n" + "y" * (4096 - 8), encoding="utf-8")  # 4,096 bytes
    (folder / "small.docx").write_bytes((FIXTURES / "docx" / "par-rendered-page-breaks.docx").read_bytes())
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=220, limits=FileLimits(text_bytes=4096, binary_bytes=1024))
    assert (report.documents, report.skipped) == (1, 2)
    problems = {Path(p.path).name: p.message for p in report.problems}
    assert problems["big.md"] == ("4,097 bytes is over the 4,096 bytes limit for text files (markdown): not ingested; "
                                  "split the file or raise the limit (--max-text-mib)")
    assert problems["small.docx"].startswith("12,244 bytes is over the 1,024 bytes limit")
    assert problems["small.docx"].endswith("limit for binary files (docx): not ingested; split the file or raise "
                                           "the limit (--max-binary-mib)")


def test_the_cli_limit_is_in_mib_and_the_default_takes_16(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clew.cli import app
    from tests.envelope import result as result_of

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "over.txt").write_bytes(b"x" * MIB + b"\n")  # 1 MiB and one byte
    result = CliRunner().invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "c.duckdb"), "--max-text-mib", "1",
                                      "--json"])
    assert result.exit_code == 2, result.output  # its only file over the limit: nothing ingested, the file is refused
    (problem,) = result_of(result.stdout)["problems"]
    assert problem["skipped"] and problem["message"].startswith(
        "1,048,577 bytes is over the 1,048,576 bytes (1 MiB) limit for text files (text): not ingested")
    assert FileLimits().text_bytes == 16 * MIB
    result = CliRunner().invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "c.duckdb"), "--json"])
    assert result_of(result.stdout)["documents"] == 1


def test_a_markdown_file_of_too_many_lines_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lines.md").write_text("x\n" * 1000 + "x", encoding="utf-8")
    (folder / "fewer.md").write_text("x\n" * 1000, encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], chunk_tokens=220, limits=FileLimits(markdown_lines=1000))
    assert (report.documents, report.skipped) == (1, 1)
    (problem,) = report.problems
    assert (Path(problem.path).name, problem.message) == ("lines.md", "1,001 lines is over the 1,000-line limit for "
                                                          "Markdown files: not ingested; split the file or raise the "
                                                          "limit (--max-markdown-lines)")
