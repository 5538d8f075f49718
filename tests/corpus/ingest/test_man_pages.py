"""A folder of installed man pages ingested (task M1): ``ls.1.gz``, ``ssh_config.5``, an alias (``.so``, a symbolic
link) left out for the page it names, a text file and binary garbage named like man pages and a gzip file cut short
skipped by name, references between pages links."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.man import declared_coding, parse_man
from clew.corpus.ingest.man_pages import page_name
from clew.corpus.ingest.source_file import read_source
from clew.corpus.ingest.sources import find_files, format_of
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.corpus.ingest.formats.test_man import LS, SSH_CONFIG
from tests.corpus.test_links import targets

SSH = """.Dd $Mdocdate: March 10 2023 $
.Dt SSH 1
.Os
.Sh NAME
.Nm ssh
.Nd OpenSSH remote login client
.Sh SEE ALSO
.Xr ssh_config 5
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


@pytest.fixture
def man(tmp_path: Path) -> Path:
    root = tmp_path / "man"
    (root / "man1").mkdir(parents=True)
    (root / "man5").mkdir()
    (root / "man1" / "ls.1.gz").write_bytes(gzip.compress(LS.encode()))
    (root / "man1" / "ssh.1").write_text(SSH)
    (root / "man1" / "dir.1.gz").write_bytes(gzip.compress(b".so man1/ls.1\n"))
    (root / "man1" / "slogin.1").symlink_to("ssh.1")
    (root / "man5" / "ssh_config.5").write_text(SSH_CONFIG)
    (root / "man1" / "notes.1").write_text("Notes for release 1\n\nNothing roff here.\n")
    (root / "man1" / "garbage.1").write_bytes(bytes(range(256)) * 4)
    (root / "man1" / "cut.1.gz").write_bytes(gzip.compress(LS.encode())[:200])
    return root


def test_a_man_page_s_suffix_is_its_section() -> None:
    assert [format_of(Path(name)) for name in ("ls.1", "ls.1.gz", "Foo::Bar.3pm.gz", "openssl.1ssl", "after.n",
                                               "a.1.txt", "a.gz", "a.10x", "a.html")] == [
        "man", "man", "man", "man", "man", "text", None, "man", "html"]
    assert page_name("man3/Foo::Bar.3pm.gz") == ("Foo::Bar", "3pm")
    assert page_name("README") is None


def test_aliases_are_left_out_for_the_pages_they_name(man: Path) -> None:
    found = find_files([man], "**/*")
    assert sorted(key for _, key in found.files) == [
        "man1/cut.1.gz", "man1/garbage.1", "man1/ls.1.gz", "man1/notes.1", "man1/ssh.1", "man5/ssh_config.5"]
    assert found.excluded == 2
    [line] = [p.message for p in found.problems if p.path == str(man)]
    assert line.startswith("2 man page aliases (a page that is only '.so' of another, or a link to another: "
                           "man1/dir.1.gz -> man1/ls.1.gz, man1/slogin.1 -> man1/ssh.1) not ingested")
    assert found.targets[str(man / "man1" / "ls.1.gz")]["slogin(1)"] == "man1/ssh.1"


def test_a_man_folder_is_ingested_skipping_what_is_no_man_page_by_name(man: Path, corpus: Corpus) -> None:
    report = ingest_paths(corpus, [man], chunk_tokens=200)
    assert report.versions_created == 3
    problems = {Path(p.path).name: (p.skipped, p.message, p.unread_type) for p in report.problems if p.skipped}
    assert problems == {
        "notes.1": (True, "unsupported file type '.1': named as a man page, but its first lines are not roff: no "
                          ".TH, .Dd or .so", ".1"),
        "garbage.1": (True, "unsupported file type '.1': named as a man page, but binary (NUL bytes)", ".1"),
        "cut.1.gz": (True, "not a readable gzip file (Compressed file ended before the end-of-stream marker was "
                           "reached): not ingested", None),
    }
    # named by clew ingest, with why, where a folder's images are counted by type (a field, not its message's words)
    assert {Path(p.path).name for p in report.problems if p.named_as} == {"notes.1", "garbage.1"}
    titles = dict(corpus.cursor().execute(
        "SELECT d.key, v.title FROM documents d JOIN document_versions v ON v.document_id = d.id").fetchall())
    assert titles == {"man1/ls.1.gz": "ls(1)", "man1/ssh.1": "ssh(1)", "man5/ssh_config.5": "ssh_config(5)"}
    links = targets(corpus)
    assert set(links) == {"man1/ssh.1", "man5/ssh_config.5"}  # ssh_config(5) -> ssh(1) and back; ls -> dir(1): itself
    assert links["man1/ssh.1"].startswith("man1/ssh.1:1:")
    assert links["man5/ssh_config.5"].startswith("man5/ssh_config.5:1:")


def test_which_option_of_ls_sorts_by_time_is_found_with_its_term(man: Path, corpus: Corpus) -> None:
    ingest_paths(corpus, [man], chunk_tokens=200)
    [first, *_] = search(corpus, {"query": "ls option sort by modification time"}).hits
    assert first.document_key == "man1/ls.1.gz"
    assert "-t" in first.text and "sort by time, newest first" in first.text


def test_references_link_across_the_folders_given(man: Path, corpus: Corpus) -> None:
    """``clew ingest man1 man5``: each folder's keys are its own (``ssh.1``, ``ssh_config.5``), and ssh(1)'s
    reference to ssh_config(5) still links."""
    report = ingest_paths(corpus, [man / "man1", man / "man5"], chunk_tokens=200)
    assert report.versions_created == 3
    links = targets(corpus)
    assert set(links) == {"ssh.1", "ssh_config.5"}
    assert links["ssh_config.5"].startswith("ssh_config.5:1:")


LS_DE = """.\\" -*- coding: latin-1 -*-
.\\" DO NOT MODIFY THIS FILE!  It was generated by help2man 1.48.5.
.TH LS 1 "September 2022" "GNU coreutils 9.1" "Dienstprogramme für Benutzer"
.SH BEZEICHNUNG
ls \\- Verzeichnisinhalte auflisten
.SH ÜBERSICHT
\\fBls\\fP [\\fI\\,OPTION\\/\\fP]... [\\fI\\,DATEI\\/\\fP]...
.SH BESCHREIBUNG
.PP
Auflistung von Informationen über die DATEIen (Standardvorgabe ist das
aktuelle Verzeichnis).
.TP
\\fB\\-a\\fP, \\fB\\-\\-all\\fP
Einträge nicht ignorieren, die mit ».« beginnen
"""
"""manpages-de 4.18.1's ls(1) (its first lines), in Latin-1 as such pages were installed before UTF-8, saying so."""


def test_a_page_is_read_in_the_encoding_its_first_line_declares(tmp_path: Path) -> None:
    (tmp_path / "ls.1.gz").write_bytes(gzip.compress(LS_DE.encode("latin-1")))
    source, problem = read_source(tmp_path / "ls.1.gz", "ls.1.gz")
    assert problem is None and source is not None
    assert "ÜBERSICHT" in source.content and "Einträge nicht ignorieren" in source.content
    assert declared_coding(b'.\\" t\n.\\" -*- mode: nroff; coding: ISO-8859-15 -*-\n') == "iso8859-15"
    assert declared_coding(b'.\\" -*- coding: no-such-codec -*-\n') is None


def test_a_page_in_another_encoding_that_does_not_say_so_is_repaired_and_said_as_a_txt_file_is(tmp_path: Path) -> None:
    (tmp_path / "ls.1").write_bytes(LS_DE.replace("coding: latin-1", "").encode("latin-1"))
    source, problem = read_source(tmp_path / "ls.1", "ls.1")
    assert source is not None and "Eintr\ufffdge" in source.content
    assert problem is not None and "not valid UTF-8" in problem.message and "replaced 6" in problem.message


ZSHALL = """.TH "ZSHALL" "1" "May 14, 2022" "zsh 5\\&.9"
.SH "NAME"
zshall \\- the Z shell meta\\-man page
.SH "STARTUP/SHUTDOWN FILES"
Commands are first read from \\fB/etc/zsh/zshenv\\fP\\&.
.so man1/zshmisc.1
.so man1/zshloop.1
.so man1/zshgone.1
.so /etc/passwd
.TH "ZSHALL" "1" "May 14, 2022" "zsh 5\\&.9"
.SH "FILES"
\\fB$ZDOTDIR/\\&.zshenv\\fP
"""
"""zsh 5.9's zshall(1) (Debian's zsh-common), shortened: the whole manual as one page, its parts by ``.so``; a loop,
a part not installed and a file outside the folder added."""
ZSHMISC = """.TH "ZSHMISC" "1" "May 14, 2022" "zsh 5\\&.9"
.SH "NAME"
zshmisc \\- everything and then some
.SH "SIMPLE COMMANDS & PIPELINES"
A \\fIsimple command\\fP is a sequence of optional parameter
assignments followed by blank\\-separated words\\&.
"""


def test_so_inside_a_page_includes_the_named_file_of_the_folder_and_drops_the_others(tmp_path: Path) -> None:
    (tmp_path / "man1").mkdir()
    (tmp_path / "man1" / "zshall.1.gz").write_bytes(gzip.compress(ZSHALL.encode()))
    (tmp_path / "man1" / "zshmisc.1.gz").write_bytes(gzip.compress(ZSHMISC.encode()))
    (tmp_path / "man1" / "zshloop.1").write_text('.SH "LOOP"\nOnce.\n.so man1/zshloop.1\n')
    source, problem = read_source(tmp_path / "man1" / "zshall.1.gz", "man1/zshall.1.gz")
    assert source is not None and problem is not None and problem.warning
    assert problem.message == (
        "3 .so lines not read, left out: man1/zshloop.1 (it includes itself), man1/zshgone.1 (not a file in the folder "
        "ingested), /etc/passwd (not a file in the folder ingested)")
    doc = parse_man(source.content)
    assert doc.title == "zshall(1)"
    headings = [section.heading for section in doc.sections]
    assert headings.index("STARTUP/SHUTDOWN FILES") < headings.index("SIMPLE COMMANDS & PIPELINES") < headings.index(
        "LOOP") < headings.index("FILES")
    assert "sequence of optional parameter assignments" in doc.text
    alone, _ = read_source(tmp_path / "man1" / "zshall.1.gz", "zshall.1.gz")  # the folder ingested is man1
    assert alone is not None and "sequence of optional parameter" in alone.content
