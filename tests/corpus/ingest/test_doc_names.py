"""Files without a suffix that are documentation by their well-known names (task K1, U36's finding 2): Debian's
``/usr/share/doc/<package>/`` holds ``README``, ``NEWS.gz``, ``changelog.gz``, ``TODO``, ``AUTHORS``,
which were skipped as files of type ``(none)``. They are read as a ``.txt`` file is, when their bytes are text."""

from __future__ import annotations

import gzip
from pathlib import Path

from clew.corpus.documents import list_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.doc_names import documentation_name
from clew.corpus.ingest.prepare import name_title
from clew.corpus.ingest.sources import format_of
from clew.corpus.reader import Scope
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import document_keys, write_files

NEWS = """Noteworthy changes in release 1.12 (2022-04-07) [stable]

** Bug fixes

  'zgrep -f - file' now reads patterns from standard input again.
"""
TODO = """Future plans
============

Make the indexer read gzip streams whole.

.. note:: see the mailing list.
"""


def test_a_well_known_name_without_a_suffix_is_read_as_text() -> None:
    for name in ("README", "NEWS", "CHANGES", "INSTALL", "TODO", "AUTHORS", "THANKS", "HACKING", "BUGS", "FAQ",
                 "changelog.gz", "NEWS.gz", "ChangeLog", "Readme"):
        assert format_of(Path("doc") / name) == "text", name
    for name in ("COPYING", "LICENSE", "copyright", "Makefile", "run-unit-test", "README.old", "NEWSLETTER",
                 "changelog.Debian.gz", "README.Debian"):
        assert format_of(Path("doc") / name) is None, name
    assert format_of(Path("NEWS.md")) == "markdown" and not documentation_name("news.txt")
    assert (name_title("gzip/NEWS.gz"), name_title("gzip/README"), name_title("README")) == ("NEWS", "gzip", "README")


def test_a_debian_doc_folder_is_read_but_its_licence_and_binaries(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "doc" / "gzip", {
        "TODO": TODO,
        "README": "gzip\n\nThe zgrep wrapper searches compressed files.\n",
        "copyright": "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n",
        "COPYING": "GNU GENERAL PUBLIC LICENSE\n",
        "INSTALL": "#!/bin/sh\nexec make install\n",
    })
    (folder / "NEWS.gz").write_bytes(gzip.compress(NEWS.encode()))
    (folder / "AUTHORS").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(64))
    (folder / "BUGS").write_bytes(b"bug tracker\x00\x01\x02")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
        assert document_keys(corpus) == ["NEWS.gz", "README", "TODO"]
        hit = search(corpus, {"query": "zgrep patterns standard input", "collection": "docs"}).hits[0]
        assert hit.document_key == "NEWS.gz"
        titles = {row.key: row.title for row in list_documents(Scope(corpus, collection="docs"))}
        # TODO reStructuredText by its opening, as a .txt file is; the others untitled: titled by their names
        assert titles == {"NEWS.gz": "NEWS", "README": "README", "TODO": "Future plans"}  # at the root
    unread = {Path(p.path).name: (p.unread_type, p.message) for p in report.problems}
    assert unread == {
        "AUTHORS": ("(none)", "unsupported file type '(none)': named as documentation, but an ELF binary"),
        "BUGS": ("(none)", "unsupported file type '(none)': named as documentation, but binary (NUL bytes)"),
        "INSTALL": ("(none)", "unsupported file type '(none)': named as documentation, but a script (#!)"),
        "copyright": ("(none)", "unsupported file type '(none)'"),
        "COPYING": ("(none)", "unsupported file type '(none)'"),
    }
