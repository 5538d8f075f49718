"""benchmarks/reader_sweep.py on a folder of thirteen pages written here, each anomaly on pages of its own; the real
sweep (twelve folders of ten Debian packages) is in docs/measurements/generators-2026-12-06.md, task S1."""

from __future__ import annotations

from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.corpus.ingest.formats.test_pdf_text import hand_pdf
from tests.test_benchmarks import run_here

PAGE = "<html><head><title>{title}</title></head><body><main><h1>{title}</h1>{body}</main></body></html>"
FOOTER = "<p>Copyright 2026 the Widget project, all rights reserved.</p>"
PAGES = {
    "index.html": ("Index", "<p>The start.</p>"),
    "nav.html": ("Nav", "<p>Text.</p><p>Previous</p><p>Widgets » Parts » Nav</p>"),
    "table.html": ("Table", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"),
    "narrow.html": ("Narrow", "<table><tr><th>x</th></tr><tr><td>y</td></tr><tr><td>z</td></tr></table>"),
    "code.html": ("Code", "<p>See <a href='missing.html'>this</a>, <a href='code.md'>that</a>.</p>"),
    "label.html": ("Label", "<h2>Options:</h2><p>Some.</p>"),
    "bare.html": ("Bare", ""),
    **{f"plain{n}.html": (f"Plain {n}", f"<p>Page {n} of the widget manual.</p>") for n in range(5)},
}


def test_each_anomaly_is_counted_on_its_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    for name, (title, body) in PAGES.items():
        footer = FOOTER if name.startswith("plain") or name == "nav.html" else ""
        (folder / name).write_text(PAGE.format(title=title, body=body + footer), encoding="utf-8")
    (folder / "code.md").write_text("# Code\n\nAn example:\n\n```python\n```\n", encoding="utf-8")
    with Corpus(tmp_path / "site.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
    capsys.readouterr()
    result = run_here(
        "reader_sweep.py", str(tmp_path / "site.duckdb"), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys
    )
    (report,) = result["corpora"]
    found = {entry["anomaly"]: (entry["pages"], entry["examples"]) for entry in report["anomalies"]}
    assert report["pages"] == 13
    assert (report["internal_links"], report["internal_links_unresolved"]) == (2, 1)
    assert found == {
        "paragraph on >30% of pages": (6, ["nav.html", "plain0.html", "plain1.html"]),
        "title empty or generic": (1, ["index.html"]),
        "navigation line": (1, ["nav.html"]),
        "table without header row": (1, ["table.html"]),
        "table of one column": (1, ["narrow.html"]),
        "empty code block": (1, ["code.md"]),
        "internal link unresolved": (1, ["code.html"]),
        "heading is a label": (1, ["label.html"]),
    }


def _spaced(*texts: bytes) -> bytes:
    """A content stream of ``texts``, each a paragraph of its own (30 pt apart: a gap over 1.5 lines)."""
    return b"BT /F1 11 Tf 72 740 Td 30 TL " + b" ".join(b"T* (" + text + b") Tj" for text in texts) + b" ET"


def test_a_pdf_is_read_for_its_own_anomalies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A PDF's text as the reader leaves it: a line on each of its five pages, a bare number, a word split at a
    hyphen in a line, a character its font maps to U+FFFD, eight one-word lines (task S4's sweep of 69 Debian PDFs).
    A ligature (U+FB01) the reader writes as its letters: no anomaly."""
    folder = tmp_path / "pdfs"
    folder.mkdir()
    words = [b"Alpha", b"Beta", b"Gamma", b"Delta", b"Epsilon", b"Zeta", b"Theta", b"Iota"]
    first = [b"The widget reads an exam- ple of a \x80le on each start.", b"17", b"The words:", *words]
    pages = [_spaced(*first, b"A \x81 glyph.", b"Widget manual draft copy")]
    pages += [_spaced(b"Page %d tells how widgets are set up." % n, b"Widget manual draft copy") for n in range(2, 6)]
    (folder / "manual.pdf").write_bytes(hand_pdf(pages, {0x80: "\ufb01", 0x81: "\ufffd"}))
    with Corpus(tmp_path / "pdfs.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
    capsys.readouterr()
    result = run_here(
        "reader_sweep.py", str(tmp_path / "pdfs.duckdb"), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys
    )
    (report,) = result["corpora"]
    found = {entry["anomaly"]: (entry["count"], entry["samples"]) for entry in report["anomalies"]}
    assert found == {
        "no section": (1, []),
        "ligature or odd glyph": (1, ["manual.pdf: '\\ufffd'"]),
        "line repeated 5+ times (running header?)": (1, ["manual.pdf: Widget manual draft copy"]),
        "page number line": (1, ["manual.pdf: 17"]),
        "word split at a hyphen": (1, ["manual.pdf: exam- ple"]),
        "8+ one-word lines in a row (a table?)": (1, ["manual.pdf: " + " / ".join(w.decode() for w in words)]),
    }
