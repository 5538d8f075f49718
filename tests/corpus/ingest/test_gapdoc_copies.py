"""GAPDoc2HTML writes each chapter of a GAP manual twice, ``chap21.html`` and ``chap21_mj.html`` (the same text, its
formulas for MathJax): the copy is left out where its chapter is found with it (task S5: gap-doc 4.12's 229 pages,
each passage found twice)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files


def _chapter(number: int, mathjax: bool) -> str:
    other = f"chap{number}.html" if mathjax else f"chap{number}_mj.html"
    formula = r'<span class="SimpleMath">\(x^2\)</span>' if mathjax else '<span class="SimpleMath">x^2</span>'
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"\n'
        '         "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n\n<html xmlns="http://www.w3.org/1999/xhtml"'
        f' xml:lang="en">\n<head>\n<title>GAP (ref) - Chapter {number}: Lists</title>\n<meta http-equiv='
        '"content-type" content="text/html; charset=UTF-8" />\n<meta name="generator" content="GAPDoc2HTML" />\n'
        f'</head>\n<body class="chap{number}"  onload="jscontent()">\n<p id="mathjaxlink" class="pcenter"><a'
        f' href="{other}">[MathJax {"off" if mathjax else "on"}]</a></p>\n<h3>{number} <span class="Heading">Lists'
        f"</span></h3>\n\n<p>Lists are the most important way to treat objects together: {formula}.</p>\n"
        "</body>\n</html>\n"
    )


def test_a_gapdoc_chapter_s_mathjax_copy_is_left_out(tmp_path: Path) -> None:
    files = {f"chap{n}{'_mj' if mj else ''}.html": _chapter(n, mj) for n in (20, 21) for mj in (False, True)}
    files["chap22_mj.html"] = _chapter(22, True)  # its chapter not found with it: a page
    files["notes_mj.html"] = "<html><head><title>Notes</title></head><body><p>Our own page.</p></body></html>"
    files["notes.html"] = "<html><head><title>Notes</title></head><body><p>Another page.</p></body></html>"
    folder = write_files(tmp_path / "ref", files)
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["chap20.html", "chap21.html", "chap22_mj.html", "notes.html",
                                         "notes_mj.html"]
    (line,) = report.problems
    assert line.warning and line.message.startswith(
        "2 MathJax copies (a GAPDoc chapter again, its formulas for MathJax: chap20_mj.html, chap21_mj.html) not "
        "ingested")
    assert report.excluded == 2


def test_a_gapdoc_mathjax_copy_taken_back_is_ingested(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "ref", {"chap21.html": _chapter(21, False), "chap21_mj.html": _chapter(21, True)})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220, exclude=["!chap21_mj.html"])
        assert document_keys(corpus) == ["chap21.html", "chap21_mj.html"]
