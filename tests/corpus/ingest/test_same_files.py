"""One file found under several names in one folder (task D1): Debian's exim4-doc-html links each chapter
``chNN.html`` to ``ch-<name>.html``; a copy of a page's bytes, a hard link. One is ingested, the others stand for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.same_files import leave_out_copies
from clew.corpus.ingest.sources import find_files
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.corpus.test_links import targets

INTRO = (
    "<html><head><title>Introduction</title></head><body><h1>Introduction</h1>"
    "<p>Exim is a message transfer agent written at the University of Cambridge.</p>"
    "<h2 id='SECT2'>Availability</h2><p>The current release is always available from the primary site.</p>"
    "</body></html>"
)
ROUTERS = (
    "<html><head><title>Routers</title></head><body><h1>Routers</h1>"
    "<p>Each router decides how an address is delivered; see <a href='ch01.html#SECT2'>where to get it</a>."
    "</p></body></html>"
)
LICENCE = "Permission is granted to copy, distribute and modify this document under the terms of the licence.\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    root = tmp_path / "spec"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "ch-introduction.html").write_text(INTRO)
    (root / "ch01.html").symlink_to("ch-introduction.html")
    (root / "ch-routers.html").write_text(ROUTERS)
    (root / "ch02.html").symlink_to("ch-routers.html")
    (root / "b" / "LICENCE.txt").write_text(LICENCE)
    (root / "a" / "LICENCE.txt").write_text(LICENCE)
    os.link(root / "a" / "LICENCE.txt", root / "a" / "COPYING.txt")
    (root / "a" / "empty.txt").write_text("")
    (root / "b" / "empty.txt").write_text("")
    return root


def test_a_file_found_under_several_names_is_found_once(spec: Path) -> None:
    files, aliases, problems = leave_out_copies(find_files([spec], "**/*").files, [spec], [])
    assert sorted(key for _, key in files) == [
        "a/COPYING.txt",
        "a/empty.txt",
        "b/empty.txt",
        "ch-introduction.html",
        "ch-routers.html",
    ]
    assert aliases == {
        "a/LICENCE.txt": "a/COPYING.txt",
        "b/LICENCE.txt": "a/COPYING.txt",
        "ch01.html": "ch-introduction.html",
        "ch02.html": "ch-routers.html",
    }
    [line] = [p.message for p in problems if p.path == str(spec)]
    assert line == (
        "4 identical copies (a symbolic link to a file found with it, or its bytes under another name: "
        "a/LICENCE.txt -> a/COPYING.txt, b/LICENCE.txt -> a/COPYING.txt, ch01.html -> ch-introduction.html "
        "and 1 more) left out: each stands for the file it copies, and a link to it leads there; take "
        "one in with --exclude '!LICENCE.txt' or a '!LICENCE.txt' line in .clewignore"
    )


def test_of_a_readme_and_its_copy_readme_md_the_markdown_is_kept(tmp_path: Path) -> None:
    # README (read as plain text since task K1) sorts first: it was kept and README.md, whose headings the Markdown
    # reader reads, left out as its copy
    (tmp_path / "README").write_text("# Project\n\n## Install\n\nRun the installer.\n")
    (tmp_path / "README.md").write_text((tmp_path / "README").read_text())
    (tmp_path / "NOTES.txt").write_text(LICENCE)
    (tmp_path / "notes.rst").write_text(LICENCE)
    aliases = leave_out_copies(find_files([tmp_path], "**/*").files, [tmp_path], [])[1]
    assert aliases == {"NOTES.txt": "notes.rst", "README": "README.md"}


def test_of_a_copy_named_as_a_man_page_and_a_markdown_file_the_markdown_is_read(tmp_path: Path) -> None:
    # review V13: 'notes.1' sorted first and was kept, then skipped as not roff when read: nothing was ingested
    (tmp_path / "notes.1").write_text("# Notes\n\nThe rollback takes four minutes.\n")
    (tmp_path / "notes.md").write_text((tmp_path / "notes.1").read_text())
    assert leave_out_copies(find_files([tmp_path], "**/*").files, [tmp_path], [])[1] == {"notes.1": "notes.md"}
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [tmp_path])
        assert report.documents == 1
        assert [hit.document_key for hit in search(corpus, {"query": "rollback"}).hits] == ["notes.md"]


def test_a_copy_is_taken_back_in_by_name(spec: Path) -> None:
    exclude = ["!ch01.html", "!b/LICENCE.txt"]
    assert leave_out_copies(find_files([spec], "**/*", exclude).files, [spec], exclude)[1] == {
        "a/LICENCE.txt": "a/COPYING.txt",
        "ch02.html": "ch-routers.html",
    }


def test_a_link_to_a_copy_leads_to_the_file_kept(spec: Path, corpus: Corpus) -> None:
    report = ingest_paths(corpus, [spec])
    assert (report.versions_created, report.excluded) == (3, 4)  # the empty files skipped as empty
    links = targets(corpus)
    assert set(links) == {"ch-introduction.html#SECT2"}
    assert links["ch-introduction.html#SECT2"].startswith("ch-introduction.html:1:")
    hits = search(corpus, {"query": "message transfer agent University of Cambridge"}).hits
    assert [hit.document_key for hit in hits] == ["ch-introduction.html"]


def test_a_copy_whose_file_is_gone_is_ingested_again(spec: Path, corpus: Corpus) -> None:
    """The kept file deleted, ``--prune``: the copy is the file now, and a link to it leads to it (the linking
    page's version changes with where its link leads)."""
    ingest_paths(corpus, [spec])
    (spec / "ch01.html").unlink()
    (spec / "ch-introduction.html").rename(spec / "ch01.html")
    report = ingest_paths(corpus, [spec], prune=True)
    assert report.retired == ["ch-introduction.html"]
    assert report.versions_created == 2  # ch01.html new, ch-routers.html's link changed
    assert targets(corpus)["ch01.html#SECT2"].startswith("ch01.html:1:")
    again = ingest_paths(corpus, [spec])
    assert again.versions_created == 0


SSH_MDOC = (
    ".Dd $Mdocdate: February 6 2023 $\n.Dt SSH 1\n.Os\n.Sh NAME\n.Nm ssh\n.Nd OpenSSH remote login client\n"
    ".Sh DESCRIPTION\n.Nm\nis a program for logging into a remote machine.\n"
)
GZIP_MAN = (".TH GZIP 1 local\n.SH NAME\ngzip, gunzip \\- compress or expand files\n"
            ".SH DESCRIPTION\nGzip reduces files.\n")


def test_of_identical_man_pages_the_one_its_title_names_is_kept(tmp_path: Path) -> None:
    # task U41: man pages copied without their links (cp of the files a package installs follows them) are copies of
    # one page's bytes; the first by key was kept, so ssh(1) was stored as slogin.1.gz and gzip(1) as gunzip.1.gz
    import gzip

    (tmp_path / "ssh.1.gz").write_bytes(gzip.compress(SSH_MDOC.encode(), mtime=0))
    (tmp_path / "slogin.1.gz").write_bytes((tmp_path / "ssh.1.gz").read_bytes())
    (tmp_path / "gzip.1").write_text(GZIP_MAN)
    (tmp_path / "gunzip.1").write_text(GZIP_MAN)
    (tmp_path / "zcat.1").write_text(GZIP_MAN)
    aliases = leave_out_copies(find_files([tmp_path], "**/*").files, [tmp_path], [])[1]
    assert aliases == {"gunzip.1": "gzip.1", "slogin.1.gz": "ssh.1.gz", "zcat.1": "gzip.1"}


def test_of_identical_man_pages_none_of_which_its_title_names_the_first_is_kept(tmp_path: Path) -> None:
    (tmp_path / "unzip.1").write_text(GZIP_MAN)
    (tmp_path / "zcat.1").write_text(GZIP_MAN)
    assert leave_out_copies(find_files([tmp_path], "**/*").files, [tmp_path], [])[1] == {"zcat.1": "unzip.1"}
