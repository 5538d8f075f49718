"""GNU Info files as a system installs them (task I1): ``x.info.gz`` read as Info, a split manual (``x.info.gz`` with
its parts ``x.info-1.gz``, ``x.info-2.gz``) as one document, broken files skipped or warned about by name."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.info import parse_info
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import find_files, format_of
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import FIXTURES
from tests.corpus.test_links import targets

COREUTILS = (FIXTURES / "info" / "coreutils.info").read_text(encoding="utf-8")


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def split(text: str, name: str) -> dict[str, str]:
    """``text`` (one manual's file) written as makeinfo splits a manual: an index file (the preamble, the
    ``Indirect:`` table, the tag table) and two parts (the preamble, then half of the nodes each)."""
    preamble, *chunks = text.split("\x1f\n")
    nodes = [chunk for chunk in chunks if chunk.startswith("File:")]
    rest = [chunk for chunk in chunks if not chunk.startswith("File:")]
    half = len(nodes) // 2
    indirect = f"Indirect:\n{name}-1: 1000\n{name}-2: 9000\n"
    return {
        name: "\x1f\n".join([preamble, indirect, *rest]),
        f"{name}-1": "\x1f\n".join([preamble, *nodes[:half]]),
        f"{name}-2": "\x1f\n".join([preamble, *nodes[half:]]),
    }


def write(folder: Path, files: dict[str, str], gzipped: bool = True) -> None:
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        if gzipped:
            (folder / f"{name}.gz").write_bytes(gzip.compress(text.encode("utf-8")))
        else:
            (folder / name).write_text(text, encoding="utf-8")


def problems(report: object) -> dict[str, tuple[bool, str]]:
    return {Path(p.path).name: (p.skipped, p.message) for p in report.problems}  # type: ignore[attr-defined]


def test_info_files_are_read_as_info_and_a_gzip_one_by_the_name_it_holds() -> None:
    assert [format_of(Path(n)) for n in ("sed.info", "sed.info.gz", "gdb.info-2.gz", "x.INFO")] == [
        "info",
        "info",
        None,
        "info",
    ]


def test_a_split_manual_is_one_document_of_its_parts_in_order(corpus: Corpus, tmp_path: Path) -> None:
    write(tmp_path / "info", split(COREUTILS, "coreutils.info"))
    write(tmp_path / "info", {"sed.info": COREUTILS.replace("coreutils", "sed")}, gzipped=False)
    found = find_files([tmp_path / "info"], "**/*")
    assert [key for _, key in found.files] == ["coreutils.info.gz", "sed.info"]  # its parts read with it
    report = ingest_paths(corpus, [tmp_path / "info"], chunk_tokens=400)
    assert (report.versions_created, report.skipped, report.problems) == (2, 0, [])
    whole, parts = parse_info(COREUTILS), read_source(tmp_path / "info" / "coreutils.info.gz", "coreutils.info.gz")
    assert parts[1] is None and parts[0] is not None
    joined = parse_info(str(parts[0].content))
    assert (joined.text, [s.heading for s in joined.sections]) == (whole.text, [s.heading for s in whole.sections])
    keys = [row[0] for row in corpus.cursor().execute("SELECT key FROM documents ORDER BY key").fetchall()]
    assert keys == ["coreutils.info.gz", "sed.info"]


def test_a_missing_part_is_named_and_the_other_is_read(corpus: Corpus, tmp_path: Path) -> None:
    files = split(COREUTILS, "coreutils.info")
    del files["coreutils.info-2"]
    write(tmp_path / "info", files)
    report = ingest_paths(corpus, [tmp_path / "info"], chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (1, 0)
    assert problems(report) == {
        "coreutils.info.gz": (
            False,
            "its part coreutils.info-2 is missing (no "
            "coreutils.info-2 or coreutils.info-2.gz beside it): its nodes are not ingested",
        )
    }
    texts = [hit.text for hit in search(corpus, {"query": "sort numerically numeric nl lines", "limit": 20}).hits]
    assert any("‘nl’ writes each FILE" in text for text in texts)  # a node of the first part
    assert not any("Sort numerically." in text for text in texts)  # the sort node was in the missing part


def test_an_index_file_alone_and_a_part_alone_are_skipped_by_name(corpus: Corpus, tmp_path: Path) -> None:
    files = split(COREUTILS, "coreutils.info")
    write(tmp_path / "alone", {"coreutils.info": files["coreutils.info"], "find.info-2": files["coreutils.info-2"]})
    report = ingest_paths(corpus, [tmp_path / "alone"], chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (0, 2)
    assert problems(report) == {
        "coreutils.info.gz": (
            True,
            "the index file of a split Info manual, none of whose parts is beside it (its part "
            "coreutils.info-1 is missing (no coreutils.info-1 or coreutils.info-1.gz beside it): its "
            "nodes are not ingested; its part coreutils.info-2 is missing (no coreutils.info-2 or "
            "coreutils.info-2.gz beside it): its nodes are not ingested): not ingested",
        ),
        "find.info-2.gz": (
            True,
            "a part of the split Info manual find.info, whose index file (find.info or "
            "find.info.gz) is not beside it: not ingested; a part is read with its index file",
        ),
    }


def test_a_cut_gzip_a_bad_part_and_a_file_that_is_not_info_are_named_and_the_rest_is_read(
    corpus: Corpus, tmp_path: Path
) -> None:
    folder = tmp_path / "info"
    files = split(COREUTILS, "coreutils.info")
    write(folder, files)
    (folder / "coreutils.info-1.gz").write_bytes(gzip.compress(files["coreutils.info-1"].encode())[:300])
    (folder / "cut.info.gz").write_bytes(gzip.compress(COREUTILS.encode())[:2000])
    (folder / "views.info").write_text("name = Views\ndescription = Create customized lists.\ncore = 7.x\n")
    write(folder, {"sed.info": COREUTILS.replace("coreutils", "sed")})
    report = ingest_paths(corpus, [folder], chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (2, 2)
    found = problems(report)
    assert found["coreutils.info.gz"][0] is False
    assert found["coreutils.info.gz"][1].startswith("its part coreutils.info-1.gz could not be read (")
    assert found["cut.info.gz"][0] is True and found["cut.info.gz"][1].startswith("not a readable gzip file")
    assert found["views.info"] == (
        True,
        "not a GNU Info file (no node: no line 'File: ..., Node: ...' after a \\x1f line): not ingested",
    )
    assert sorted(found) == ["coreutils.info.gz", "cut.info.gz", "views.info"]


def test_index_markers_early_in_a_file_and_a_latin_1_manual_are_read(tmp_path: Path) -> None:
    nodes = (
        "\x1f\nFile: old.info,  Node: Top,  Next: Index,  Up: (dir)\n\nCaf\xe9s\n*****\n\nAn espresso.\n\n"
        "\x1f\nFile: old.info,  Node: Index,  Prev: Top,  Up: Top\n\nIndex\n*****\n\n\x00\x08[index\x00\x08]\n"
        "* Menu:\n\n* espresso:                               Top.                 (line 3)\n\n"
        "\x1f\nLocal Variables:\ncoding: iso-8859-1\nEnd:\n"
    )
    (tmp_path / "old.info").write_bytes(nodes.encode("latin-1"))
    source, problem = read_source(tmp_path / "old.info", "old.info")
    assert problem is None and source is not None
    parsed = parse_info(str(source.content))
    assert (parsed.title, parsed.text) == ("Cafés", "# Cafés\n\nAn espresso.")  # the index node left out


def test_a_user_s_question_is_answered_from_the_node_and_links_reach_another_manual(
    corpus: Corpus, tmp_path: Path
) -> None:
    grep = (
        "\x1f\nFile: grep.info,  Node: Top,  Next: Regular Expressions,  Up: (dir)\n\ngrep\n****\n\n"
        "\x1f\nFile: grep.info,  Node: Regular Expressions,  Prev: Top,  Up: Top\n\n3 Regular Expressions\n"
        "*********************\n\nA “regular expression” is a pattern that describes a set of strings.\n"
    )
    write(tmp_path / "info", {"coreutils.info": COREUTILS, "grep.info": grep})
    ingest_paths(corpus, [tmp_path / "info"], chunk_tokens=220)
    hits = search(corpus, {"query": "how do I make sort compare numerically", "limit": 3}).hits
    assert [(hit.document_key, hit.heading_path[-1]) for hit in hits] == [
        ("coreutils.info.gz", "7.1 ‘sort’: Sort text files")
    ] * 3
    assert any("‘-n’\n‘--numeric-sort’\n‘--sort=numeric’\n\nSort numerically." in hit.text for hit in hits)
    resolved = targets(corpus)
    assert resolved["grep.info#Regular-Expressions"].startswith("grep.info.gz:1:")  # type: ignore[union-attr]
    assert resolved["coreutils.info.gz#sort-invocation"].startswith(  # type: ignore[union-attr]
        "coreutils.info.gz:1:### 7.1 ‘sort’: Sort text files"
    )


def test_a_part_named_with_a_path_is_not_read_from_outside_the_folder(corpus: Corpus, tmp_path: Path) -> None:
    files = split(COREUTILS, "coreutils.info")
    write(tmp_path / "elsewhere", {"coreutils.info-2": files["coreutils.info-2"]}, gzipped=False)
    index = files["coreutils.info"].replace("coreutils.info-2: ", "../elsewhere/coreutils.info-2: ")
    write(tmp_path / "info", {"coreutils.info": index, "coreutils.info-1": files["coreutils.info-1"]})
    report = ingest_paths(corpus, [tmp_path / "info"], chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (1, 0)
    assert problems(report) == {
        "coreutils.info.gz": (
            False,
            "its part ../elsewhere/coreutils.info-2 is not a file name (a part is a file beside its index file): "
            "its nodes are not ingested",
        )
    }
    texts = [hit.text for hit in search(corpus, {"query": "sort numerically numeric nl lines", "limit": 20}).hits]
    assert any("‘nl’ writes each FILE" in text for text in texts)  # a node of the first part
    assert not any("Sort numerically." in text for text in texts)  # the sort node, in the folder outside


def test_a_part_named_twice_or_an_index_naming_itself_is_read_once(tmp_path: Path) -> None:
    """An ``Indirect:`` table naming the index file itself (which holds the first half of the nodes here) and a part
    twice: each file is read once (its nodes were ingested two and three times), and the manual reads as the whole."""
    files = split(COREUTILS, "coreutils.info")
    first = "\x1f\n".join(["", *files["coreutils.info-1"].split("\x1f\n")[1:]])
    table = "Indirect:\ncoreutils.info: 1000\ncoreutils.info-2: 9000\ncoreutils.info-2: 9000\n"
    index = files["coreutils.info"].replace("Indirect:\ncoreutils.info-1: 1000\ncoreutils.info-2: 9000\n", table)
    assert table in index
    write(tmp_path / "info", {"coreutils.info": index + first, "coreutils.info-2": files["coreutils.info-2"]})
    source, problem = read_source(tmp_path / "info" / "coreutils.info.gz", "coreutils.info.gz")
    assert problem is None and source is not None
    joined, whole = parse_info(str(source.content)), parse_info(COREUTILS)
    assert [s.heading for s in joined.sections] == [s.heading for s in whole.sections]
    assert joined.text == whole.text
    alone = COREUTILS.replace("\x1f\n", "\x1f\nIndirect:\ncoreutils.info: 1000\n\x1f\n", 1)
    write(tmp_path / "self", {"coreutils.info": alone})  # a table naming only the index file: a manual in one file
    source, problem = read_source(tmp_path / "self" / "coreutils.info.gz", "coreutils.info.gz")
    assert problem is None and source is not None and parse_info(str(source.content)).text == whole.text


def test_a_part_its_index_file_does_not_name_is_skipped_by_name(corpus: Corpus, tmp_path: Path) -> None:
    """makeinfo writes ``x.info-1`` only with an index file naming it: one beside a manual in one file (rebuilt with
    --no-split) or beside an index naming other parts is left from an earlier build. It was dropped with no word (0
    skipped, no problem); it is skipped by name, and the manual beside it read."""
    files = split(COREUTILS, "coreutils.info")
    write(tmp_path / "one", {"coreutils.info": COREUTILS, "coreutils.info-1": files["coreutils.info-1"]})
    write(tmp_path / "split", {**files, "coreutils.info-3": files["coreutils.info-2"]}, gzipped=False)
    report = ingest_paths(corpus, [tmp_path / "one", tmp_path / "split"], chunk_tokens=400)
    assert (report.versions_created, report.skipped) == (2, 2)
    assert problems(report) == {
        "coreutils.info-1.gz": (
            True,
            "a part of the Info manual coreutils.info, whose index file coreutils.info.gz beside it does not name it "
            "(a manual in one file, with no Indirect: table): not ingested; a part left from an earlier build of the "
            "manual",
        ),
        "coreutils.info-3": (
            True,
            "a part of the Info manual coreutils.info, whose index file coreutils.info beside it does not name it "
            "(its Indirect: table names others): not ingested; a part left from an earlier build of the manual",
        ),
    }
