"""A page's title typed where a document key is asked (``clew outline 'Tags Overview'``, task S1): the keys of the
documents titled so are offered, and the title of exactly one readable document is taken for its key by the
commands that read (``outline``, ``fetch_slice``, ``read``, ``grep``), never by ``rm``; only documents the caller
may read are looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.access import Principal
from clew.corpus.documents import SIMILAR_KEYS, document_meant, keys_meant, outline, remove_documents, similar_keys
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus
from clew.navigation.slices import SliceArgs, fetch_slice
from tests.conftest import Prebuilt, write_files

PAGES = {
    "file.tags.html": "<h1>Tags Overview</h1><p>Tags add meta-data to a docstring.</p>",
    "file.README.html": "<h1>README</h1><p>YARD is a documentation tool.</p>",
    "scala/Future.html": "<h1>Future</h1><p>The trait: a value that may become available.</p>",
    "scala/Future$.html": "<h1>Future</h1><p>The object: Future.successful makes a completed one.</p>",
    "Alpha.html": "<h1>Alpha</h1><p>Alpha keeps logs for thirty days.</p>",
}


def build_pages(folder: Path) -> None:
    """PAGES in docs, built once a session (``prebuilt``) for every test of the fixture below."""
    with Corpus(folder / "c.duckdb") as corpus:
        ingest_paths(corpus, [write_files(folder / "docs", PAGES)], collection="docs")


@pytest.fixture
def corpus(tmp_path: Path, prebuilt: Prebuilt) -> Iterator[Corpus]:
    with Corpus(prebuilt(build_pages, tmp_path) / "c.duckdb") as corpus:
        yield corpus


def test_similar_keys_offers_the_keys_of_the_documents_titled_so() -> None:
    keys = ["file.tags.html", "a/overview.html", "b/Future.html", "b/Future$.html", "c/x.html", "d/y.html"]
    titles = {"file.tags.html": "Tags Overview", "b/Future.html": "Future", "b/Future$.html": "Future",
              "c/x.html": "Future", "d/y.html": "Future", "a/overview.html": None}
    assert similar_keys("tags  OVERVIEW", keys, titles) == ["file.tags.html"]  # any case, blanks collapsed
    assert similar_keys("Future", keys, titles) == ["b/Future$.html", "b/Future.html", "c/x.html"]  # SIMILAR_KEYS
    assert SIMILAR_KEYS == 3
    # a title first, then a key that is the name given: both kinds of meaning are offered
    assert similar_keys("overview", ["a/overview.html", "z.html"], {"z.html": "Overview"}) == [
        "z.html", "a/overview.html"]
    # a misspelt title, after a misspelt file name in the folder given
    assert similar_keys("Tags Overveiw", keys, titles) == ["file.tags.html"]
    assert similar_keys("Tag Overview", ["file.tags.html"]) == []  # no titles given: none read
    assert similar_keys("Something else entirely", keys, titles) == []


def test_a_unique_title_is_taken_for_the_key_and_a_shared_one_is_offered(corpus: Corpus) -> None:
    scope = Scope(corpus, collection="docs")
    tree = outline(scope, "tags overview")
    assert tree is not None and tree.children[0].heading == "Tags Overview"
    assert tree == outline(scope, "file.tags.html")
    doc = document_meant(scope, " Tags   Overview ")
    assert doc is not None and doc.key == "file.tags.html"
    # two documents titled "Future": neither is taken, both are offered
    assert outline(scope, "Future") is None and document_meant(scope, "future") is None
    assert keys_meant(scope, "Future") == ["scala/Future$.html", "scala/Future.html"]
    assert keys_meant(scope, "Tags Overveiw") == ["file.tags.html"]
    assert document_meant(scope, "Tags Overveiw") is None  # a close title is offered, never taken
    # the tools that read a document by key take the title the same way, and offer the keys meant
    sliced = fetch_slice(scope, SliceArgs(id="Tags Overview", window=2))
    assert sliced.status == "ok" and sliced.document_key == "file.tags.html"
    shared = fetch_slice(scope, SliceArgs(id="Future"))
    assert (shared.status, shared.detail) == (
        "unavailable", "no readable document has this key (did you mean scala/Future$.html or scala/Future.html?)")
    assert fetch_slice(scope, SliceArgs(id="nothing.html")).detail == "no readable document has this key"


def test_rm_takes_keys_only(corpus: Corpus) -> None:
    """Removing by a title a user typed could retire a document they did not mean: the title is missing."""
    report = remove_documents(corpus, Scope(corpus, collection="docs"), ["Tags Overview"])
    assert (report.removed, report.missing) == ([], ["Tags Overview"])
    assert outline(Scope(corpus, collection="docs"), "file.tags.html") is not None


def test_a_title_the_caller_may_not_read_is_neither_taken_nor_offered(corpus: Corpus,
                                                                       tmp_path: Path) -> None:
    only_alpha = Scope(corpus, Principal(row_filter={"term": {"title": "Alpha"}}), "docs")
    assert outline(only_alpha, "Tags Overview") is None and document_meant(only_alpha, "Tags Overview") is None
    for given in ("Tags Overview", "tags overveiw", "Future", "file.tags.htm"):
        assert keys_meant(only_alpha, given) == []
        assert fetch_slice(only_alpha, SliceArgs(id=given)).detail == "no readable document has this key"
    assert keys_meant(Scope(corpus, collection="docs"), "file.tags.htm") == ["file.tags.html"]
    assert document_meant(only_alpha, "ALPHA") is not None  # its own title still opens it
    # of two documents titled "Alpha", the one the caller may read is the one meant (the other in a collection
    # it may not read); a caller who reads both is offered both
    private = tmp_path / "private"
    private.mkdir()
    (private / "secret-alpha.html").write_text("<h1>Alpha</h1><p>Not for everyone.</p>", encoding="utf-8")
    ingest_paths(corpus, [private], collection="private")
    docs_only = Scope(corpus, Principal(collections=frozenset({"docs"})))
    doc = document_meant(docs_only, "Alpha")
    assert doc is not None and doc.key == "Alpha.html"
    assert keys_meant(docs_only, "secret alpha") == [] and keys_meant(docs_only, "secret-alpha") == []
    assert document_meant(Scope(corpus), "Alpha") is None and keys_meant(Scope(corpus), "secret-alpha") == [
        "secret-alpha.html"]
    assert keys_meant(Scope(corpus), "Alpha") == ["Alpha.html", "secret-alpha.html"]


SITE_PAGES = {  # gi-docgen's gtk4 and gtk3 pages, pages with a site's suffix, SQLite's (whose titles share no part)
    "gtk4/actions.html": "<title>Gtk – 4.0: Overview of actions in GTK</title><p>Actions name what a user does.</p>",
    "gtk4/list-widgets.html": "<title>Gtk – 4.0: Lists</title><p>GtkListView shows a model.</p>",
    "gtk4/drag-and-drop.html": "<title>Gtk – 4.0: Drag-and-Drop in GTK</title><p>Drag sources.</p>",
    "gtk3/list-widgets.html": "<title>Gtk – 3.0: Lists</title><p>GtkTreeView shows a model.</p>",
    "gtk3/actions.html": "<title>Gtk – 3.0: Actions</title><p>GAction.</p>",
    "gtk3/css.html": "<title>Gtk – 3.0: CSS in GTK</title><p>Style classes.</p>",
    "std/collections/struct.HashMap.html": "<title>HashMap in std::collections - Rust</title><p>A hash map.</p>",
    "std/collections/struct.BTreeMap.html": "<title>BTreeMap in std::collections - Rust</title><p>An ordered map.</p>",
    "std/vec/struct.Vec.html": "<title>Vec in std::vec - Rust</title><p>A growable array.</p>",
    "sqlite/queryplanner.html": "<title>SQLite Query Planning</title><p>How indexes are chosen.</p>",
    "sqlite/autoinc.html": "<title>SQLite Autoincrement</title><p>ROWID.</p>",
    "sqlite/fts5.html": "<title>SQLite FTS5 Extension</title><p>Full-text search.</p>",
}


def test_a_title_typed_without_its_site_s_prefix_or_suffix_is_taken_where_one_document_has_it(tmp_path: Path) -> None:
    """gtk4's "Gtk – 4.0: Overview of actions in GTK" typed as it reads on the page, "Overview of actions in GTK",
    was neither taken nor offered (S1's left, task S3); a part many of the collection's titles share is the site's."""
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [write_files(tmp_path / "docs", SITE_PAGES)], collection="docs")
        scope = Scope(corpus, collection="docs")
        doc = document_meant(scope, "overview of  actions in GTK")
        assert doc is not None and doc.key == "gtk4/actions.html"
        tree = outline(scope, "Overview of actions in GTK")
        assert tree is not None and tree == outline(scope, "gtk4/actions.html")
        hashmap = document_meant(scope, "HashMap in std::collections")  # a site's suffix
        assert hashmap is not None and hashmap.key == "std/collections/struct.HashMap.html"
        sliced = fetch_slice(scope, SliceArgs(id="Drag-and-Drop in GTK", window=2))
        assert sliced.status == "ok" and sliced.document_key == "gtk4/drag-and-drop.html"
        # two sites' parts (gtk4's, gtk3's) leave "Lists" twice: neither is taken, both are offered
        assert document_meant(scope, "Lists") is None
        assert keys_meant(scope, "Lists") == ["gtk3/list-widgets.html", "gtk4/list-widgets.html"]
        # "SQLite " is no site part (no separator): the title typed without it is not taken (offered as a close title)
        assert document_meant(scope, "Query Planning") is None
        assert document_meant(scope, "HashMap") is None
        # keys and whole titles as before
        meant = [document_meant(scope, given) for given in ("4.0: Lists", "Gtk – 4.0: Lists", "gtk3/css.html")]
        assert [doc.key if doc else None for doc in meant] == [
            "gtk4/list-widgets.html", "gtk4/list-widgets.html", "gtk3/css.html"]


def test_a_key_that_names_nothing_reads_the_titles_once(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    from clew.corpus import documents
    from clew.navigation.passages import open_document

    reads: list[int] = []
    real = documents.readable_titles

    def counted(scope: Scope) -> list[tuple[str, str, str | None]]:
        reads.append(1)
        return real(scope)

    monkeypatch.setattr(documents, "readable_titles", counted)
    scope = Scope(corpus, collection="docs")
    opened = open_document(scope, "Tags Overveiw")  # neither a key nor a title: the keys meant are offered
    assert opened.status == "unavailable" and "file.tags.html" in (opened.detail or "")
    assert len(reads) == 1  # read for the title and for the keys meant alike (it was read twice)
    reads.clear()
    assert open_document(scope, "Alpha.html").status == "ok" and reads == []  # a key found reads no titles
    assert open_document(scope, "tags overview").status == "ok" and len(reads) == 1
    assert documents.document_or_keys_meant(scope, "Future") == (None, ["scala/Future$.html", "scala/Future.html"])
    reads.clear()  # clew outline and the REST outline: the same single read (they read them twice)
    assert documents.outline_or_keys_meant(scope, "Tags Overveiw") == (None, ["file.tags.html"]) and len(reads) == 1
    tree, meant = documents.outline_or_keys_meant(scope, "tags overview")
    assert tree is not None and tree == outline(scope, "file.tags.html") and meant == []


def test_a_rust_items_path_is_taken_for_the_title_rustdoc_gives_it(tmp_path: Path) -> None:
    from clew.corpus.documents import titles_meant

    rows = [("std", "std/collections/struct.HashMap.html", "HashMap in std::collections"),
            ("std", "std/collections/hash_map/struct.HashMap.html", "HashMap in std::collections::hash_map"),
            ("std", "std/index.html", "std")]
    assert titles_meant(rows, "std::collections::HashMap") == [("std", "std/collections/struct.HashMap.html")]
    assert titles_meant(rows, "STD::collections::hash_map::HashMap") == [
        ("std", "std/collections/hash_map/struct.HashMap.html")]
    assert titles_meant(rows, "HashMap in std::collections") == [("std", "std/collections/struct.HashMap.html")]
    assert titles_meant(rows, "std::") == [] and titles_meant(rows, "::HashMap") == []  # no module or no name
    pages = {"struct.HashMap.html": "<title>HashMap in std::collections</title><h1>Struct HashMap</h1>"
                                    "<p>A hash map implemented with quadratic probing.</p>"}
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [write_files(tmp_path / "docs", pages)], collection="std")
        doc = document_meant(Scope(corpus, collection="std"), "std::collections::HashMap")
        assert doc is not None and doc.key == "struct.HashMap.html"


def test_a_blank_title_is_meant_by_no_name() -> None:
    from clew.corpus.documents import titles_meant

    rows = [("docs", "blank.html", "   "), ("docs", "a.html", "Alpha")]
    assert titles_meant(rows, "Alpha") == [("docs", "a.html")]
    assert titles_meant(rows, "Beta") == []  # a title of white space is not "" for a name that is no Rust path
