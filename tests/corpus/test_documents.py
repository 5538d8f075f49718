"""The corpus as a set of files: exclusions, .clewignore, suffix twins, ls, outline, rm, prune."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.access import Principal
from clew.corpus.documents import list_documents, outline, remove_documents
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.sources import drop_twins, excluded_by
from clew.corpus.reader import Scope
from clew.corpus.search.api import search
from clew.corpus.store import Corpus
from clew.errors import InputError
from clew.navigation.evidence import FetchArgs, fetch_evidence
from tests.conftest import document_keys, write_files
from tests.envelope import result as result_of

runner = CliRunner()


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    return write_files(tmp_path / "docs", {
        "alpha.md": "# Alpha\n\nSee [beta](/sub/beta#zebras).\n\n## Retention\n\nAlpha keeps logs for 30 days.\n",
        "sub/beta.md": "# Beta\n\n## Zebras\n\nZebra stripes are unique to each zebra.\n",
        "drafts/wip.md": "# Draft\n\nNot ready.\n",
        "notes.txt": "plain notes about quokkas\n",
    })


def test_exclude_patterns_and_clewignore(tmp_path: Path, docs: Path) -> None:
    (docs / ".clewignore").write_text("# drafts stay out\ndrafts\n", encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, exclude=["*.txt"])
        assert (report.documents, report.excluded, report.skipped) == (2, 2, 0)
        assert document_keys(corpus) == ["alpha.md", "sub/beta.md"]


def test_suffix_twins_of_other_text_are_a_warning(tmp_path: Path, docs: Path) -> None:
    write_files(docs, {"page.html": "<h1>Page</h1><p>Kiwi birds cannot fly.</p>",
                       "page.txt": "Weta are large insects."})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
    (warning,) = [p for p in report.problems if p.warning]
    assert warning.path == str(docs / "page.txt")
    assert warning.message.startswith("same name as page.html with another suffix (page.html, page.txt)")
    assert (report.warnings, report.repaired, report.documents) == (1, 0, 6)


def test_a_twin_with_the_same_text_is_ingested_once(tmp_path: Path, docs: Path) -> None:
    write_files(docs, {"page.html": "<title>Page</title><h1>Page</h1><p>Kiwi birds cannot fly at all.</p>",
                 "page.txt": "Page\n\nKiwi birds cannot fly at all.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        assert "page.txt" not in document_keys(corpus) and "page.html" in document_keys(corpus)
    (twin,) = report.problems
    assert (twin.path, twin.skipped) == (str(docs / "page.txt"), True)
    assert twin.message == "the same text as page.html (a copy in another format): ingested once, as that file"
    assert (report.skipped, report.warnings, report.documents) == (1, 0, 5)


NODE_INDEX_MD = ("<!--\n  NB(chrisdickinson): if you move this file, be sure to update\n  tools/doc/html.mjs to point "
                 "at the new location.\n-->\n\n<!--introduced_in=v0.10.0-->\n\n* [About this documentation]"
                 "(documentation.md)\n* [Usage and example](synopsis.md)\n\n<hr class=\"line\"/>\n\n"
                 "* [Assertion testing](assert.md)\n* [Asynchronous context tracking](async_context.md)\n"
                 "* [Async hooks](async_hooks.md)\n* [Buffer](buffer.md)\n* [C++ addons](addons.md)\n"
                 "* [Child processes](child_process.md)\n* [Cluster](cluster.md)\n\n<hr class=\"line\"/>\n\n"
                 "* [Code repository and issue tracker][]\n\n"
                 "[Code repository and issue tracker]: https://github.com/nodejs/node\n")
NODE_INDEX_HTML = (  # tools/doc/html.mjs's rendering: the list, in the page and again in its sidebar, and chrome
    '<html lang="en"><head><title>Index | Node.js v18.20.4 Documentation</title></head><body class="alt apidoc">'
    '<div id="column2" class="interior"><ul><li><a href="documentation.html">About this documentation</a></li>'
    '<li><a href="synopsis.html">Usage and example</a></li></ul><hr class="line"/><ul>'
    '<li><a href="assert.html">Assertion testing</a></li><li><a href="async_hooks.html">Async hooks</a></li>'
    '<li><a href="buffer.html">Buffer</a></li></ul></div><div id="column1" class="interior"><header><h1>Node.js '
    'v18.20.4 documentation</h1><ul><li class="picker-header">Other versions</li><li><a href="#">18.x LTS</a>'
    '</li><li><a href="index.json">View as JSON</a></li><li><a href="#">Edit on GitHub</a></li></ul></header>'
    '<div id="apicontent"><ul><li><a href="documentation.html">About this documentation</a></li>'
    '<li><a href="synopsis.html">Usage and example</a></li></ul><hr class="line"/><ul>'
    '<li><a href="assert.html">Assertion testing</a></li><li><a href="async_context.html">Asynchronous context '
    'tracking</a></li><li><a href="async_hooks.html">Async hooks</a></li><li><a href="buffer.html">Buffer</a></li>'
    '<li><a href="addons.html">C++ addons</a></li><li><a href="child_process.html">Child processes</a></li>'
    '<li><a href="cluster.html">Cluster</a></li></ul><hr class="line"/><ul><li><a href="https://github.com/nodejs/'
    'node">Code repository and issue tracker</a></li></ul></div></div></body></html>')


def test_a_markdown_page_of_links_is_the_twin_of_the_page_it_renders_to(tmp_path: Path) -> None:
    """Node.js's index.md is read as it renders (its links' targets, comments and tags are no page's words):
    ingested once, as index.html; a Markdown list of other links beside a page of the same name stays."""
    site = write_files(tmp_path / "api", {"index.md": NODE_INDEX_MD, "index.html": NODE_INDEX_HTML,
                                    "other/index.html": NODE_INDEX_HTML,
                                    "other/index.md": "# Index\n\n* [Streams](stream.md)\n* [Timers](timers.md)\n"
                                                      "* [Worker threads](worker_threads.md)\n* [Zlib](zlib.md)\n"})
    files = [(site / key, key) for key in ("index.html", "index.md", "other/index.html", "other/index.md")]
    kept, twins = drop_twins(files)
    assert [key for _, key in kept] == ["index.html", "other/index.html", "other/index.md"]
    assert [(p.path, p.message) for p in twins] == [(str(site / "index.md"), "the same text as index.html (a copy in "
                                                     "another format): ingested once, as that file")]


def test_negated_patterns_decide_by_their_order() -> None:
    assert excluded_by("drafts/a.md", ["drafts"]) and not excluded_by("drafts/a.md", ["drafts", "!drafts/a.md"])
    assert excluded_by("drafts/a.md", ["!drafts/a.md", "drafts"])
    assert not excluded_by("a.md", ["!a.md"])


def test_list_and_outline(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        rows = {row.key: row for row in list_documents(Scope(corpus, collection="docs"))}
        alpha = rows["alpha.md"]
        assert (alpha.version, alpha.status, alpha.format, alpha.title, alpha.chunks) == (1, "current", "markdown",
                                                                                          "Alpha", 2)
        assert alpha.chars == len((docs / "alpha.md").read_text()) and alpha.tokens > 0
        tree = outline(Scope(corpus, collection="docs"), "alpha.md")
        assert tree.kind == "document" and tree.passages == 2
        (title,) = tree.children
        assert title.heading == "Alpha" and [c.heading for c in title.children] == ["Retention"]
        assert title.children[0].passages == 1 and title.children[0].id.startswith("ev1:s:")
        assert outline(Scope(corpus, collection="docs"), "nothing.md") is None
        # a principal's row filter applies to the listing too
        hidden = Principal(row_filter={"term": {"title": "Alpha"}})
        assert [r.key for r in list_documents(Scope(corpus, hidden, "docs"))] == ["alpha.md"]


def test_a_table_with_a_title_is_named_by_it_in_the_outline(tmp_path: Path) -> None:
    """An HTML caption, DocBook's title paragraph, or a caption in Markdown's HTML is the table's heading
    (the Debian Reference's tables read '(table)' in `clew outline`: task U7); a table without one stays
    unnamed."""
    folder = tmp_path / "docs"
    folder.mkdir()
    row = "<tr><th>package</th><th>size</th></tr><tr><td>grub-pc</td><td>534</td></tr>"
    (folder / "boot.html").write_text(
        "<h1>Boot</h1><p>Loaders.</p>"
        f'<div class="table"><p class="title"><b>Table 3.1. List of boot loaders</b></p><table>{row}</table></div>'
        f"<table><caption>Kernel levels</caption>{row}</table><table>{row}</table>")
    (folder / "notes.md").write_text(f"# Notes\n\n<table><caption>Sizes</caption>{row}</table>\n")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [folder], chunk_tokens=220)
        scope = Scope(corpus)

        def tables(key: str) -> list[str | None]:
            found: list[str | None] = []
            stack = [outline(scope, key)]
            while stack:
                node = stack.pop()
                assert node is not None
                found += [node.heading] if node.kind == "table" else []
                stack += reversed(node.children)
            return found

        assert tables("boot.html") == ["Table 3.1. List of boot loaders", "Kernel levels", None]
        assert tables("notes.md") == ["Sizes"]


def test_prune_retires_deleted_files_and_their_ids_still_resolve(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        hit = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits[0]
        assert hit.document_key == "sub/beta.md"
        (docs / "sub" / "beta.md").unlink()
        report = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, prune=True)
        assert report.retired == ["sub/beta.md"]
        assert report.links_dangling_by_reason == {"missing_document": 1}
        hits = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits
        assert [h.document_key for h in hits] == ["alpha.md"]  # its link's "#zebras"; beta is gone
        assert "sub/beta.md" not in document_keys(corpus)
        removed = [r for r in list_documents(Scope(corpus, collection="docs"), include_removed=True)
                   if r.key == "sub/beta.md"]
        assert [(r.status, r.version) for r in removed] == [("removed", 1)]
        assert Scope(corpus).document_by_key("sub/beta.md") is None
        fetched = fetch_evidence(Scope(corpus), FetchArgs(ids=[hit.evidence_id]))
        (evidence,) = fetched.evidence
        assert evidence.status == "ok" and evidence.version_status == "removed"
        # the file comes back: a new version, searchable again, and the link resolves again
        write_files(docs, {"sub/beta.md": "# Beta\n\n## Zebras\n\nZebra stripes are unique to each zebra.\n"})
        back = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, prune=True)
        assert (back.versions_created, back.retired, back.links_dangling) == (1, [], 0)
        (older,) = fetch_evidence(Scope(corpus), FetchArgs(ids=[hit.evidence_id])).evidence
        assert older.status == "ok" and older.version_status == "superseded"  # a newer version exists now
        again = search(corpus, {"query": "zebra stripes", "collection": "docs"}).hits[0]
        assert again.document_key == "sub/beta.md" and again.evidence_id == hit.evidence_id.replace(":1:0", ":2:0")


def test_an_ingest_without_prune_names_the_documents_whose_files_are_gone(tmp_path: Path, docs: Path) -> None:
    """U36: re-ingesting a folder after a file was deleted said nothing of the document it left current ("0
    retired"); the report names it (``files_gone``)."""
    other = write_files(tmp_path / "other", {"gamma.md": "# Gamma\n\nGamma rays are short.\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs, other], collection="docs", chunk_tokens=220)
        (docs / "sub" / "beta.md").unlink()
        again = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, exclude=["notes.txt"])
        # notes.txt is there, only left out; gamma.md's file is in another folder: neither is named
        assert (again.files_gone, again.retired) == (["sub/beta.md"], [])
        assert "sub/beta.md" in document_keys(corpus)
        relative = ingest_paths(corpus, [Path(os.path.relpath(docs))], collection="docs", chunk_tokens=220)
        assert relative.files_gone == ["sub/beta.md"]  # the folder given as another path to it
        assert ingest_paths(corpus, [docs / "alpha.md"], collection="docs").files_gone == []  # a file, no folder
        pruned = ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, prune=True)
        assert (pruned.retired, pruned.files_gone) == (["gamma.md", "sub/beta.md"], [])  # prune: the other's too


def test_clew_ingest_says_in_one_line_that_a_stored_document_has_no_file_now(tmp_path: Path, docs: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs"]).exit_code == 0
    (docs / "sub" / "beta.md").unlink()
    said = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs"])
    assert said.exit_code == 0, said.output
    assert (f"note 1 stored document of {docs} has no file now (sub/beta.md), still current and searchable: "
            "--prune retires it") in " ".join(said.stderr.split())
    (docs / "notes.txt").unlink()
    (docs / "alpha.md").unlink()
    three = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs"])
    assert ("note 3 stored documents of " in three.stderr
            and "(alpha.md, notes.txt and 1 more), still current and searchable: --prune retires them"
            in " ".join(three.stderr.split()))
    pruned = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--prune"])
    assert pruned.exit_code == 0 and "no file now" not in pruned.stderr and "3 retired" in pruned.stdout


def test_remove_documents(tmp_path: Path, docs: Path) -> None:
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220)
        report = remove_documents(corpus, Scope(corpus, collection="docs"), ["notes.txt", "ghost.md"])
        assert (report.removed, report.missing) == (["notes.txt"], ["ghost.md"])
        assert search(corpus, {"query": "quokkas", "collection": "docs"}).hits == []
        # removing again: it is no longer current
        assert remove_documents(corpus, Scope(corpus, collection="docs"), ["notes.txt"]).missing == ["notes.txt"]
        with pytest.raises(InputError, match="collection"):
            remove_documents(corpus, Scope(corpus), ["alpha.md"])


def test_cli_ls_outline_rm_and_prune(tmp_path: Path, docs: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    first = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts",
                                "--json"])
    assert first.exit_code == 0, first.output
    assert result_of(first.stdout)["excluded"] == 1
    listed = runner.invoke(app, ["ls", "--db", db, "--json"])
    assert listed.exit_code == 0, listed.output
    assert [d["key"] for d in result_of(listed.stdout)["documents"]] == ["alpha.md", "notes.txt", "sub/beta.md"]
    long_key = docs / "a-folder-with-a-long-name" / "and-a-page-whose-key-is-over-forty.md"
    long_key.parent.mkdir()
    long_key.write_text("# A page with a long key\n\nIt is listed whole.\n")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts"]
                         ).exit_code == 0
    human = runner.invoke(app, ["ls", "--db", db], env={"COLUMNS": "80"}).stdout.splitlines()
    key = "a-folder-with-a-long-name/and-a-page-whose-key-is-over-forty.md"
    assert human[0] == "docs: 4 documents" and key in [line.split("  ")[0].rstrip() for line in human]
    # never cut: a key too long to leave its title room stands whole on its own line (5602026)
    assert all(len(line) <= 80 for line in human)
    long_key.unlink()
    long_key.parent.rmdir()
    assert runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--exclude", "drafts",
                               "--prune"]).exit_code == 0
    tree = runner.invoke(app, ["outline", "alpha.md", "--db", db])
    assert tree.exit_code == 0 and "Retention" in tree.stdout and "1 passage," in tree.stdout
    gone = runner.invoke(app, ["rm", "notes.txt", "--db", db, "--collection", "docs"])
    assert gone.exit_code == 0 and "retired notes.txt" in gone.stdout
    missing = runner.invoke(app, ["rm", "ghost.md", "--db", db, "--collection", "docs"])
    assert missing.exit_code == 1 and "not found ghost.md" in missing.stdout
    before = runner.invoke(app, ["search", "retention logs", "--db", db, "--collection", "docs", "--json"])
    alpha_id = result_of(before.stdout)["hits"][0]["evidence_id"]
    (docs / "alpha.md").unlink()
    pruned = runner.invoke(app, ["ingest", str(docs), "--db", db, "--collection", "docs", "--prune"])
    assert pruned.exit_code == 0, pruned.output
    assert "retired alpha.md" in pruned.output and "1 retired" in pruned.stdout
    found = runner.invoke(app, ["search", "retention logs", "--db", db, "--collection", "docs", "--json"])
    assert found.exit_code == 1 and result_of(found.stdout)["hits"] == []  # nothing found
    unknown = runner.invoke(app, ["outline", "alpha.md", "--db", db])
    assert unknown.exit_code == 1 and "no current document" in unknown.output
    fetched = runner.invoke(app, ["fetch_evidence", alpha_id, "--db", db])
    assert fetched.exit_code == 0 and "(removed: the document was retired; its id still resolves)" in fetched.stdout


def test_progress_knows_the_total_first(tmp_path: Path, docs: Path) -> None:
    seen: list[object] = []
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], collection="docs", chunk_tokens=220, exclude=["drafts"],
                     on_total=lambda total: seen.append(("total", total)), on_file=seen.append)
    assert seen == [("total", 3), "alpha.md", "notes.txt", "sub/beta.md"]


def test_dangling_links_by_reason(tmp_path: Path) -> None:
    folder = write_files(tmp_path / "site", {"guide/a.md": "# A\n\n[web](https://example.org/x) [up](../../outside.md) "
                                                      "[gone](/guide/missing) [mail](mailto:x@example.org)\n"})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
    # a mailto: link is a URL with a scheme too
    assert report.links_dangling_by_reason == {"external": 2, "missing_document": 1, "outside_collection": 1}
    assert report.links_dangling == 4


def test_a_protocol_relative_link_is_external(tmp_path: Path) -> None:
    """``//github.com/bep`` (a URL of the page's own scheme: Hugo's docs 0.111 wrote 275 such links to GitHub) is a
    link to another site, not a missing page of the collection (task U29: the build folder's ingest said
    "missing_document 298", 275 of them these; its wget mirror, whose links wget made https://, none)."""
    folder = write_files(tmp_path / "site", {"about/index.html": '<html><body><h1>About</h1><p><a href="//github.com/'
                                             'bep">bep</a> and <a href="/templates/list">lists</a>.</p></body></html>'})
    with Corpus(tmp_path / "c.duckdb") as corpus:
        report = ingest_paths(corpus, [folder], collection="docs", chunk_tokens=220)
    assert report.links_dangling_by_reason == {"external": 1, "missing_document": 1}


def test_a_sphinx_source_is_the_twin_of_its_page_in_any_folder(tmp_path: Path) -> None:
    site = write_files(tmp_path / "site", {
        "v1/lib/io.html": "<h1>io</h1><p>Streams of bytes and text for files.</p>",
        "v1/_sources/lib/io.rst.txt": "io\n==\n\nStreams of bytes and text for files.\n",
        "v1/_sources/lib/os.md.txt": "# os\n\nStreams of bytes and text for files.\n",  # no os.html: not a twin
    })
    files = [(site / key, key) for key in ("v1/_sources/lib/io.rst.txt", "v1/_sources/lib/os.md.txt",
                                            "v1/lib/io.html")]
    kept, twins = drop_twins(files)
    assert [key for _, key in kept] == ["v1/_sources/lib/os.md.txt", "v1/lib/io.html"]
    assert [(p.path, p.skipped) for p in twins] == [(str(site / "v1/_sources/lib/io.rst.txt"), True)]
