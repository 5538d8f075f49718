"""Symbols a user searches for are terms: shell parameters (`$*`, `"$@"`, `$#`, `${HOME}`) and
operators (`&&`, `>>`), found by a question that holds them (clew.corpus.tokenize)."""

from pathlib import Path

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from tests.conftest import write_files


def test_a_question_about_shell_parameters_finds_the_passage_that_defines_them(tmp_path: Path) -> None:
    """'"$*"' and '"$@"' are terms: the question finds Special Parameters, not every passage saying "differ"."""
    folder = write_files(tmp_path / "docs", {
        "params.md": "# Special Parameters\n\n`$*` expands to the positional parameters as one word; `\"$@\"` "
                     "expands each positional parameter to a separate word. `$#` is their count.\n",
        "diff.md": "# Comparing files\n\nThe diff command shows how two files differ, line by line. Files that "
                   "differ in whitespace only can be compared with -w; the differences are listed in order.\n",
        "env.md": "# Environment\n\nThe value of $HOME is the current user's home directory; ${HOME} too.\n",
        "build.md": "# Building\n\nRun make && make install, and write the log with 2>&1 >> build.log.\n",
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        assert [h.document_key for h in search(corpus, {"query": '"$*" and "$@"'}).hits] == ["params.md"]
        assert search(corpus, {"query": 'How do "$*" and "$@" differ?'}).hits[0].document_key == "params.md"
        assert search(corpus, {"query": "$#"}).hits[0].document_key == "params.md"
        assert [h.document_key for h in search(corpus, {"query": "${HOME}"}).hits] == ["env.md"]
        assert search(corpus, {"query": "home"}).hits[0].document_key == "env.md"  # the name alone still finds it
        assert [h.document_key for h in search(corpus, {"query": "&& >>"}).hits] == ["build.md"]


def test_a_ligature_or_full_width_letters_are_the_letters_a_user_types(tmp_path: Path) -> None:
    """tex4ht's HTML (the TeX Live guide, task U23) writes 'ﬁ' and 'ﬀ' as ligature characters: the question's
    "personal macro files" found the passage tenth, on other words. Documents and queries are read in Unicode's
    compatibility form (NFKC), so each finds the other, whichever way it is written."""
    folder = write_files(tmp_path / "docs", {
        "macros.html": "<html><head><title>Macros</title></head><body><h1>Macros</h1><p>Put your personal macro "
                       "\ufb01les in the TEXMFHOME tree; the e\ufb00ect is immediate.</p></body></html>",
        "install.md": "# Installing\n\nPersonal settings go in your home folder. A macro package is installed with "
                      "tlmgr.\n",
        "wide.md": "# Wide\n\nThe \uff33\uff31\uff2c\uff49\uff54\uff45 shell.\n",
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        assert search(corpus, {"query": "personal macro files"}).hits[0].document_key == "macros.html"
        assert [h.document_key for h in search(corpus, {"query": "effect"}).hits] == ["macros.html"]
        assert [h.document_key for h in search(corpus, {"query": "SQLite"}).hits] == ["wide.md"]
        assert [h.document_key for h in search(corpus, {"query": "\ufb01les"}).hits][0] == "macros.html"


def test_a_heading_or_field_written_with_a_ligature_is_found_by_the_letters(tmp_path: Path) -> None:
    """A field search (a heading, a front-matter field) first narrows the rows by LIKE on the stored text, which
    keeps its ligatures: 'Macro \ufb01les' held no 'file', so the row never reached the tokenized check that
    would have matched it (review V6 of 9d42b77)."""
    folder = write_files(tmp_path / "docs", {
        "macros.md": "---\ntitle: Personal macro \ufb01les\n---\n\n# Macro \ufb01les\n\nPut them in TEXMFHOME.\n",
        "other.md": "# Settings\n\nNothing about macros here.\n",
    })
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        assert [h.document_key for h in search(corpus, {"query": "files", "field": "heading"}).hits] \
            == ["macros.md"]
        assert [h.document_key for h in search(corpus, {"query": "files", "field": "title"}).hits] == ["macros.md"]
        assert [h.document_key for h in search(corpus, {"query": "\ufb01les", "field": "heading"}).hits] \
            == ["macros.md"]
