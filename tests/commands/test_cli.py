import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clew.cli import app
from clew.commands.common import plural
from clew.corpus.documents import similar_keys
from tests.envelope import envelope
from tests.envelope import result as result_of

runner = CliRunner()


def test_ingest_json_summary_and_stats(tmp_path: Path, acme_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(acme_path), "--db", str(db), "--merge-sections", "--json"])
    assert result.exit_code == 0, result.output
    report = result_of(result.stdout)
    assert {k: report[k] for k in ("documents", "chunks", "skipped", "versions_created")} == {
        "documents": 1, "chunks": 3, "skipped": 0, "versions_created": 1}
    assert report["seconds"] >= 0
    stats = runner.invoke(app, ["stats", "--db", str(db), "--json"])
    assert stats.exit_code == 0, stats.output
    (row,) = result_of(stats.stdout)["collections"]
    assert (row["name"], row["documents"], row["chunks"], row["table_chunks"], row["tables"]) == ("default", 1, 3, 1, 1)


def test_ingest_human_summary(tmp_path: Path, acme_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(acme_path), "--db", str(tmp_path / "c.duckdb")])
    assert result.exit_code == 0, result.output
    assert "1 document (1 new version, 0 unchanged), 3 chunks" in result.stdout


def test_ingest_makes_the_folder_of_a_new_corpus(tmp_path: Path, acme_path: Path) -> None:
    db = tmp_path / "db" / "docs.duckdb"
    result = runner.invoke(app, ["ingest", str(acme_path), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "1 document (1 new version, 0 unchanged), 3 chunks" in result.stdout
    searched = runner.invoke(app, ["stats", "--db", str(db), "--json"])
    assert searched.exit_code == 0 and result_of(searched.stdout)["collections"][0]["documents"] == 1


def test_an_ingest_that_found_no_file_names_the_paths_it_looked_in(tmp_path: Path) -> None:
    empty, other = tmp_path / "empty", tmp_path / "notes"
    empty.mkdir()
    other.mkdir()
    (other / "a.md").write_text("# A\n\nText.\n")
    db = str(tmp_path / "c.duckdb")
    result = runner.invoke(app, ["ingest", str(empty), str(other), "--glob", "*.html", "--db", db])
    assert result.exit_code == 1, result.output  # no_match: nothing found
    assert f"no file to ingest in {empty}, {other} (check the paths, --glob and --exclude)" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "notes"]  # no new, empty corpus file left


def test_an_ingest_that_found_no_file_keeps_an_existing_corpus(tmp_path: Path, acme_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(acme_path), "--db", str(db)]).exit_code == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["ingest", str(empty), "--db", str(db)])
    assert result.exit_code == 1, result.output
    # a mistyped --collection creates no empty collection either
    typo = runner.invoke(app, ["ingest", str(empty), "--db", str(db), "--collection", "dfeault"])
    assert typo.exit_code == 1, typo.output
    stats = runner.invoke(app, ["stats", "--db", str(db), "--json"])
    assert [(row["name"], row["documents"]) for row in result_of(stats.stdout)["collections"]] == [("default", 1)]


def test_an_ingest_whose_every_file_failed_to_read_is_bad_input_and_leaves_nothing(tmp_path: Path,
                                                                                   acme_path: Path) -> None:
    bad, images = tmp_path / "bad", tmp_path / "images"
    bad.mkdir()
    images.mkdir()
    (bad / "broken.pdf").write_bytes(b"%PDF-1.7 not really")
    (bad / "blob.html").write_bytes(b"<html>\x00\x01\x02</html>")
    (images / "logo.png").write_bytes(b"\x89PNG\r\n")
    db = tmp_path / "c.duckdb"
    result = runner.invoke(app, ["ingest", str(bad), "--db", str(db)])
    assert result.exit_code == 2, result.output  # the files are wrong: bad input
    assert f"nothing ingested from {bad}: no file there read (below)" in " ".join(result.stderr.split())
    assert "skipped" in result.stderr and "broken.pdf" in result.stderr and "blob.html" in result.stderr
    assert not db.exists()  # no empty corpus file left behind
    only_images = runner.invoke(app, ["ingest", str(images), "--db", str(db), "--json"])
    assert only_images.exit_code == 1, only_images.output  # no file of a type clew reads: nothing found
    assert envelope(only_images.stdout)["status"] == "no_match" and not db.exists()
    # into an existing corpus: its collections stay as they were, none is made for the files that failed
    assert runner.invoke(app, ["ingest", str(acme_path), "--db", str(db)]).exit_code == 0
    again = runner.invoke(app, ["ingest", str(bad), "--db", str(db), "--collection", "other"])
    assert again.exit_code == 2, again.output
    stats = runner.invoke(app, ["stats", "--db", str(db), "--json"])
    assert [(row["name"], row["documents"]) for row in result_of(stats.stdout)["collections"]] == [("default", 1)]


def test_outline_and_rm_of_a_key_not_found_offer_the_keys_meant(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "zsh").mkdir(parents=True)
    (docs / "npm").mkdir()
    (docs / "zsh" / "Options.html").write_text("<h1>Options</h1><p>AUTO_CD changes directory.</p>")
    (docs / "npm" / "README.md").write_text("# Semver\n\nRanges.\n")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    for given, hint in (("Options.html", "did you mean zsh/Options.html?"),  # the file name, as the user sees it
                        ("zsh/options.html", "did you mean zsh/Options.html?"),  # another case
                        ("readme.md", "did you mean npm/README.md?"),
                        ("nothing.md", "clew ls lists the keys")):
        result = runner.invoke(app, ["outline", given, "--db", db])
        assert result.exit_code == 1, result.output  # unavailable, as before
        assert f"no current document with key {given!r} ({hint})" in result.output
    assert similar_keys("a.md", [f"{n}/a.md" for n in "dcba"] + ["a.md.bak", "ba.md"]) == ["a/a.md", "b/a.md", "c/a.md"]
    removed = runner.invoke(app, ["rm", "Options.html", "nothing.md", "--db", db])  # clew rm the same way
    assert removed.exit_code == 1, removed.output
    assert removed.stdout.splitlines() == ["not found Options.html (did you mean zsh/Options.html?)",
                                           "not found nothing.md"]


def test_a_folder_given_as_the_corpus_is_bad_input_naming_it(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nText.\n")
    for argv in (["ingest", str(docs)], ["ask", "text"], ["ls"]):
        result = runner.invoke(app, [*argv, "--db", str(docs)])
        assert result.exit_code == 2, result.output  # was 3, a store failure, with DuckDB's "Is a directory"
        assert f"{docs}: a folder, not a corpus file" in result.output


def test_stats_reads_whole_at_80_columns(tmp_path: Path, acme_path: Path) -> None:
    db = str(tmp_path / "c.duckdb")
    ingested = runner.invoke(app, ["ingest", str(acme_path), "--db", db, "--collection", "engineering-notes"])
    assert ingested.exit_code == 0, ingested.output
    shown = runner.invoke(app, ["stats", "--db", db], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines() == [  # was a table of nine columns, every header cut at 80: "colle…"
        "engineering-notes", "  documents  1 (1 version, 0 superseded)", "  chunks     3 (1 table chunk)",
        "  structure  4 sections, 1 table", "  edges      reading_order 2, section_hierarchy 5"]


def test_counts_in_human_output_agree_with_their_number() -> None:
    assert [plural(n, "passage") for n in (0, 1, 2)] == ["0 passages", "1 passage", "2 passages"]
    assert plural(1, "tool call") == "1 tool call" and plural(3, "API key") == "3 API keys"


def test_paths_and_text_print_as_written_emoji_codes_included(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "empty:fire:.md").write_text("   \n")  # skipped, and named in the problem line
    (docs / "notes:smile:.md").write_text("# Launch :rocket: day\n\nThe :rocket: release ships on Friday.\n")
    db = tmp_path / "c.duckdb"
    ingested = runner.invoke(app, ["ingest", str(docs), "--db", str(db)])
    assert ingested.exit_code == 0, ingested.output
    assert "empty:fire:.md: empty file" in ingested.output
    found = runner.invoke(app, ["search", "release friday", "--db", str(db)], env={"COLUMNS": "200"})
    assert found.exit_code == 0, found.output
    assert "notes:smile:.md" in found.stdout and ":rocket: release" in found.stdout
    assert not {"\N{FIRE}", "\N{SMILING FACE WITH OPEN MOUTH}", "\N{ROCKET}"} & set(ingested.output + found.stdout)


def test_missing_path_is_named(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--db", str(tmp_path / "c.duckdb")])
    assert result.exit_code == 2
    assert "path not found" in result.output and "nope" in result.output


def test_stats_on_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["stats", "--db", str(tmp_path / "none.duckdb")])
    assert result.exit_code == 2 and "no such corpus file" in result.output


def test_ingest_edges_reports_bad_lines(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (folder / name).write_text(f"# {name}\n\nBody of {name}.\n")
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db)]).exit_code == 0
    edges = tmp_path / "edges.jsonl"
    edges.write_text(
        '{"graph": "workflow", "src": "a.md", "dst": "b.md", "type": "next"}\n'
        '{"graph": "workflow", "src": "b.md", "dst": "c.md", "type": "next", "weight": 2}\n'
        '{"graph": "workflow", "src": "b.md", "dst": "zzz.md", "type": "next"}\n'
        '{"graph": "links", "src": "a.md", "dst": "b.md", "type": "x"}\n'
        '{"graph": "workflow", "src": "a.md", "type": "next"}\n'
        "not json\n"
    )
    result = runner.invoke(app, ["ingest-edges", str(edges), "--db", str(db), "--json"])
    assert result.exit_code == 2  # bad input, the good lines kept
    assert envelope(result.stdout)["status"] == "invalid"
    report = result_of(result.stdout)
    assert report["edges"] == 2
    assert [(p["line"], p["message"]) for p in report["problems"]] == [
        (3, "no document with key 'zzz.md' in collection 'default'"),
        (4, "graph 'links' is built in and written by ingestion"),
        (5, "field 'dst' must be a non-blank string"),
        (6, "invalid JSON: Expecting value"),
    ]
    # loading the same edges again replaces, never duplicates
    runner.invoke(app, ["ingest-edges", str(edges), "--db", str(db)])
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM edges WHERE graph = 'workflow'").fetchone()[0] == 2
    con.close()


def test_console_script_runs(tmp_path: Path, acme_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clew.cli", "ingest", str(acme_path), "--db", str(tmp_path / "c.duckdb"), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result_of(result.stdout)["chunks"] == 3


def test_ask_prints_status_answer_and_walk(tmp_path: Path) -> None:
    from clew.demo import DEMO_CORPUS

    db = tmp_path / "c.duckdb"
    assert runner.invoke(app, ["ingest", str(DEMO_CORPUS), "--db", str(db), "--collection", "runbooks"]).exit_code == 0
    result = runner.invoke(
        app,
        [
            "ask",
            "Who is paged for a SEV2 incident?",
            "--db",
            str(db),
            "--collection",
            "runbooks",
            "--max-depth",
            "2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = result_of(result.stdout)
    assert data["status"] == "ok" and data["generation"]["citations"] and data["applied"]["max_depth"] == 2
    assert data["applied"]["follow_links"] is True
    off = runner.invoke(app, ["ask", "Who is paged for a SEV2 incident?", "--db", str(db), "--collection", "runbooks",
                              "--no-follow-links", "--json"])
    assert off.exit_code == 0 and result_of(off.stdout)["applied"]["follow_links"] is False
    human = runner.invoke(
        app, ["ask", "Who is paged for a SEV2 incident?", "--db", str(db), "--collection", "runbooks"],
        env={"COLUMNS": "80"},
    )
    lines = human.stdout.splitlines()
    assert lines[0].startswith("extract (quoted from the evidence, no model)") and "[ev1:c:" in human.stdout
    evidence = next(i for i, line in enumerate(lines) if line.startswith("evidence (12 passages):"))
    assert lines[evidence - 1].startswith("ok: the walk took everything it found (")
    assert all(len(line) <= 80 and line.startswith("ev1:c:") for line in lines[evidence + 1:])  # one per passage
    assert sum(max(1, -(-len(line) // 80)) for line in lines) <= 30 and "├──" not in human.stdout
    narrow = runner.invoke(app, ["ask", "Who is paged for a SEV2 incident?", "--db", str(db), "--collection",
                                 "runbooks"], env={"COLUMNS": "40"})  # the answer's lines wrap: less room
    assert "evidence (12 passages, 6 shown; --json lists all):" in narrow.stdout
    walked = runner.invoke(app, ["ask", "Who is paged for a SEV2 incident?", "--db", str(db), "--steps"])
    assert walked.exit_code == 0 and "├──" in walked.stdout and "tool calls" in walked.stdout
    bad = runner.invoke(app, ["ask", "x", "--db", str(db), "--collection", "runbooks", "--strategy", "graph"])
    assert bad.exit_code == 2 and "index" in bad.output


def test_ingest_counts_files_of_types_it_does_not_read_in_one_line_after_the_failures(tmp_path: Path) -> None:
    """An HTML folder's images, styles and scripts took the ten named lines before a PDF that did not
    read (GLFW's Doxygen pages: 9 such lines, then 'and 89 more'; task U4)."""
    site = tmp_path / "site"
    site.mkdir()
    for i in range(12):
        (site / f"figure-{i:02}.png").write_bytes(b"\x89PNG")
    for name in ("doxygen.css", "tabs.css", "Doxyfile"):  # a README is read since task K1
        (site / name).write_text("x")
    (site / "manual.pdf").write_bytes(b"%PDF-1.4 not a PDF")
    (site / "index.html").write_text("<title>Guide</title><h1>Guide</h1><p>Kept.</p>")
    ran = runner.invoke(app, ["ingest", str(site), "--db", str(tmp_path / "c.duckdb")], env={"COLUMNS": "80"})
    assert ran.exit_code == 0, ran.output
    said = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert said[0].startswith(f"skipped {site / 'manual.pdf'}: not a readable PDF")
    assert said[1:] == ["skipped 15 files of types clew does not read (.png 12, .css 2, (none) 1)"]
    assert "and " not in ran.stderr and "16 skipped" in ran.stdout
    listed = runner.invoke(app, ["ingest", str(site), "--db", str(tmp_path / "d.duckdb"), "--json"])
    assert len(result_of(listed.stdout)["problems"]) == 16  # --json names every file


def test_ingest_names_a_man_page_that_is_not_roff_with_its_reason(tmp_path: Path) -> None:
    """A ``.1`` file that is not roff (notes kept as ``notes.1``, a binary) was only counted, "(.1 2)", though the
    documents guide promises its problem saying why (review V12): a file named as a kind clew reads is named."""
    pages = tmp_path / "man1"
    pages.mkdir()
    (pages / "notes.1").write_text("Remember to buy milk.\n")
    (pages / "garbage.1").write_bytes(b"\x00\x01\x02")
    (pages / "figure.png").write_bytes(b"\x89PNG")
    (pages / "ls.1").write_text(".TH LS 1\n.SH NAME\nls \\- list directory contents\n")
    ran = runner.invoke(app, ["ingest", str(pages), "--db", str(tmp_path / "c.duckdb")], env={"COLUMNS": "80"})
    assert ran.exit_code == 0, ran.output
    said = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert said == [
        f"skipped {pages / 'garbage.1'}: unsupported file type '.1': named as a man page, but binary (NUL bytes)",
        f"skipped {pages / 'notes.1'}: unsupported file type '.1': named as a man page, but its first lines are not "
        "roff: no .TH, .Dd or .so",
        "skipped 1 file of types clew does not read (.png 1)",
    ]
    assert "3 skipped" in ran.stdout


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="symbolic links as POSIX has them")
def test_ingest_counts_dangling_links_to_types_it_does_not_read_with_those_files(tmp_path: Path) -> None:
    """A site copied out of a Debian package links its fonts, styles and scripts to shared folders (python-typer-doc:
    67 such links, one line each, took the ten named lines and the count hid the rest; task U5). A link that leads
    nowhere to a type clew does not read is counted with those files; one to a type it reads is still named."""
    site = tmp_path / "site"
    site.mkdir()
    for name in ("lato.woff2", "roboto.woff2", "theme.css"):
        (site / name).symlink_to(tmp_path / "gone" / name)
    (site / "lost.html").symlink_to(tmp_path / "gone" / "lost.html")
    (site / "index.html").write_text("<title>Guide</title><h1>Guide</h1><p>Kept.</p>")
    ran = runner.invoke(app, ["ingest", str(site), "--db", str(tmp_path / "c.duckdb")], env={"COLUMNS": "80"})
    assert ran.exit_code == 0, ran.output
    said = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert said[0].startswith(f"skipped {site / 'lost.html'}: symbolic link to ")
    assert said[1:] == ["skipped 3 files of types clew does not read (.woff2 2, .css 1)"]
    assert "4 skipped" in ran.stdout


def test_the_ingest_summary_groups_thousands_as_its_chunk_count_does() -> None:
    from clew.commands.common import out
    from clew.commands.corpus import _summary
    from clew.corpus.ingest.api import IngestReport

    report = IngestReport(collection="docs", documents=1450, versions_created=1450, chunks=27940, skipped=1203,
                          links_resolved=4419, links_dangling=1373, links_dangling_by_reason={"external": 1373})
    with out.capture() as captured:
        _summary(report, [Path("corpus")])
    assert captured.get().startswith(
        "1,450 documents (1,450 new versions, 0 unchanged), 27,940 chunks, 1,203 skipped, 0 repaired, 0 warnings, "
        "0 excluded, 0 retired, links: 4,419 resolved, 1,373 dangling (external 1,373), ")  # was 4419, 1373


def test_ingest_names_ten_problems_then_counts_the_rest(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(14):
        (docs / f"empty-{i:02}.md").write_text("")
    (docs / "good.md").write_text("# Good\n\nKept.\n")
    ran = runner.invoke(app, ["ingest", str(docs), "--db", str(tmp_path / "c.duckdb")])
    assert ran.exit_code == 0, ran.output
    named = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert len(named) == 10 and "and 4 more (4 skipped): --json lists them all" in ran.stderr
    listed = runner.invoke(app, ["ingest", str(docs), "--db", str(tmp_path / "d.duckdb"), "--json"])
    assert len(result_of(listed.stdout)["problems"]) == 14
