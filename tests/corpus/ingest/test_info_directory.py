"""GNU Info as ``/usr/share/info`` holds it (task J1): a manual installed in a folder of its own
(``guile-3.0/guile.info.gz``), which other manuals' references name by its name alone (``(guile)Modules``), and the
Info directory (``dir``), the Info reader's top menu of the manuals installed."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import find_files
from clew.corpus.store import Corpus
from tests.corpus.test_links import targets

GUILE = (
    "This is guile.info, produced by makeinfo version 6.8 from guile.texi.\n\n"
    "\x1f\nFile: guile.info,  Node: Top,  Next: Modules,  Up: (dir)\n\nThe Guile Reference Manual\n"
    "**************************\n\nThis manual documents Guile version 3.0.8.\n\n"
    "\x1f\nFile: guile.info,  Node: Modules,  Prev: Top,  Up: Top\n\n6.18 Modules\n============\n\n"
    "When programs become large, naming conflicts can occur when a function or global variable defined in one file "
    "has the same name as a function or global variable in another file.\n"
)
R5RS = (
    "This is r5rs.info, produced by makeinfo version 6.8 from r5rs.texi.\n\n"
    "\x1f\nFile: r5rs.info,  Node: Top,  Next: Program structure,  Up: (dir)\n\nRevised(5) Scheme\n"
    "*****************\n\nThe report gives a defining description of the programming language Scheme.\n\n"
    "\x1f\nFile: r5rs.info,  Node: Program structure,  Prev: Top,  Up: Top\n\n1 Program structure\n"
    "*******************\n\nA program is a sequence of expressions and definitions; Guile groups them in modules "
    "(*note Modules: (guile)Modules.), and its manual starts at *note (guile)Top::.\n"
)
DIRECTORY = (  # as Debian's install-info keeps /usr/share/info/dir
    "-*- Text -*-\nThis is the file .../info/dir, which contains the topmost node of\nthe Info hierarchy.  The first "
    "time you invoke Info you start off\nlooking at that node, which is (dir)Top.\n\x1f\n"
    "File: dir\tNode: Top\tThis is the top of the INFO tree\n  This (the Directory node) gives a menu of major "
    "topics.\n  Typing \"q\" exits, \"?\" lists all Info commands, \"d\" returns here,\n\n"
    "* Menu: The list of major topics begins on the next line.\n\n"
    "The Algorithmic Language Scheme\n"
    "* Guile Reference: (guile).     The Guile reference manual.\n"
    "* R5RS: (r5rs).                 The Revised(5) Report on Scheme.\n"
)


@pytest.fixture
def corpus(tmp_path: Path) -> Corpus:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8")) if path.suffix == ".gz" else text.encode("utf-8"))


@pytest.fixture
def info(tmp_path: Path) -> Path:
    """``/usr/share/info`` with guile-3.0-doc's manual in its own folder, as Debian installs it."""
    _write(tmp_path / "info" / "r5rs.info.gz", R5RS)
    _write(tmp_path / "info" / "guile-3.0" / "guile.info.gz", GUILE)
    _write(tmp_path / "info" / "dir", DIRECTORY)
    return tmp_path / "info"


def test_a_reference_to_a_manual_in_another_folder_links_to_it(info: Path, corpus: Corpus) -> None:
    """``(guile)Modules`` from ``r5rs.info.gz`` was written ``guile.info#Modules``, which names no file beside it:
    it now leads to the manual where it was found, as a man page's reference does (3fb66c7)."""
    ingest_paths(corpus, [info], chunk_tokens=200)
    links = targets(corpus)
    assert links["guile-3.0/guile.info.gz#Modules"].startswith(  # type: ignore[union-attr]
        "guile-3.0/guile.info.gz:1:### 6.18 Modules"
    )
    assert links["guile-3.0/guile.info.gz"].startswith("guile-3.0/guile.info.gz:1:")  # type: ignore[union-attr]
    assert "guile.info#Modules" not in links


def test_the_manuals_of_every_folder_given_are_linked(info: Path, tmp_path: Path, corpus: Corpus) -> None:
    """``clew ingest info other``: a manual of the second folder given is linked from the first's."""
    (tmp_path / "other").mkdir()
    (info / "guile-3.0").rename(tmp_path / "other" / "guile-3.0")
    ingest_paths(corpus, [info, tmp_path / "other"], chunk_tokens=200)
    assert targets(corpus)["guile-3.0/guile.info.gz#Modules"].startswith(  # type: ignore[union-attr]
        "guile-3.0/guile.info.gz:1:### 6.18 Modules"
    )


def test_the_info_directory_is_left_out_and_taken_back_it_is_a_menu_of_links(info: Path, corpus: Corpus) -> None:
    """``dir`` was reported as a file of a type clew does not read. It is the index of the manuals beside it (each
    entry their Top node again, under Info's help on its keys): left out in the generated files' line; ``!dir`` reads
    it as Info, each entry a link to its manual."""
    found = find_files([info], "**/*")
    assert [key for _, key in found.files] == ["guile-3.0/guile.info.gz", "r5rs.info.gz"]
    [line] = [problem.message for problem in found.problems]
    assert line == (
        "1 generated file (a documentation tool's indexes, search page, sources or assets: 1 Info directory) not "
        "ingested; take them in with --exclude '!NAME' or a '!NAME' line in .clewignore (e.g. '!dir')"
    )
    report = ingest_paths(corpus, [info], exclude=["!dir"], chunk_tokens=200)
    assert (report.versions_created, report.skipped) == (3, 0)
    links = targets(corpus)
    assert links["guile-3.0/guile.info.gz"].startswith("guile-3.0/guile.info.gz:1:")  # type: ignore[union-attr]
    assert links["r5rs.info"].startswith("r5rs.info.gz:1:")  # type: ignore[union-attr]  # a manual beside it


def test_a_file_named_dir_that_is_not_info_is_skipped_saying_so(tmp_path: Path, corpus: Corpus) -> None:
    _write(tmp_path / "notes" / "dir", "A list of folders, not an Info file.\n")
    report = ingest_paths(corpus, [tmp_path / "notes"], chunk_tokens=200)
    assert report.versions_created == 0
    [problem] = report.problems
    assert problem.skipped and "not a GNU Info file" in problem.message


def test_a_manual_named_with_its_folder_links_to_it_and_the_directory_has_a_title(
    info: Path, tmp_path: Path, corpus: Corpus
) -> None:
    """The entry install-info writes for a manual in a folder of its own may name it with the folder
    (``(guile-3.0/guile)``; task L1). Linked as written, relative to the citing file, it dangled where that folder was
    given to the ingest on its own (its keys then lose ``guile-3.0/``): it now leads to the manual of that name found
    with it, as ``(guile)`` does. The directory's document was titled "Top" (its node's name)."""
    _write(info / "dir", DIRECTORY.replace("(guile).", "(guile-3.0/guile).")
           + "* Guile modules: (guile-3.0/guile)Modules.  How Guile's modules are found.\n")
    (info / "guile-3.0").rename(tmp_path / "guile-3.0")
    ingest_paths(corpus, [info, tmp_path / "guile-3.0"], exclude=["!dir"], chunk_tokens=200)
    links = targets(corpus)
    assert links["guile.info.gz#Modules"].startswith("guile.info.gz:1:### 6.18 Modules")  # type: ignore[union-attr]
    assert links["guile.info.gz"].startswith("guile.info.gz:1:")  # type: ignore[union-attr]
    titles = dict(corpus.cursor().execute(
        "SELECT d.key, v.title FROM documents d JOIN document_versions v ON v.document_id = d.id").fetchall())
    assert titles == {"dir": "Info directory", "guile.info.gz": "The Guile Reference Manual",
                      "r5rs.info.gz": "Revised(5) Scheme"}


def test_a_manual_named_with_its_folder_in_one_ingest_links_to_that_folder_s(info: Path, corpus: Corpus) -> None:
    """Two versions installed side by side (``guile-2.2/``, ``guile-3.0/``): ``(guile-3.0/guile)`` leads to the one
    it names, whichever of them ``(guile)`` names (as it did before: a guard on the rule above)."""
    _write(info / "guile-2.2" / "guile.info.gz", GUILE.replace("3.0.8", "2.2.7"))
    _write(info / "dir", DIRECTORY.replace("(guile).", "(guile-3.0/guile).")
           + "* Guile 2.2 modules: (guile-2.2/guile)Modules.  Guile 2.2's modules.\n")
    ingest_paths(corpus, [info], exclude=["!dir"], chunk_tokens=200)
    resolved = {href.split("/")[0]: str(to).split(":")[0] for href, to in targets(corpus).items()
                if href.startswith("guile-")}
    assert resolved == {"guile-3.0": "guile-3.0/guile.info.gz", "guile-2.2": "guile-2.2/guile.info.gz"}
