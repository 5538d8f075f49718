"""A document's key given as a user types it (task U8): without its suffix to ``clew outline`` (a page's name as its
title reads), or in place of an evidence id to ``clew fetch``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.documents import similar_keys

runner = CliRunner()


def test_a_key_without_its_suffix_offers_the_key_with_it(tmp_path: Path) -> None:
    """``clew outline nodejs/timers`` answered "clew ls lists the keys"; the key is ``nodejs/timers.html``."""
    docs = tmp_path / "docs"
    (docs / "nodejs").mkdir(parents=True)
    (docs / "nodejs" / "timers.html").write_text("<h1>Timers</h1><p>The timer module schedules functions.</p>")
    (docs / "nodejs" / "timers_promises.md").write_text("# Timers promises\n\nAwait a delay.\n")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    for given in ("nodejs/timers", "NodeJS/Timers"):
        result = runner.invoke(app, ["outline", given, "--db", db])
        assert result.exit_code == 1, result.output
        assert f"no current document with key {given!r} (did you mean nodejs/timers.html?)" in result.output
    titled = runner.invoke(app, ["outline", "timers", "--db", db])  # the page's title: taken for its key (task S1)
    assert titled.exit_code == 0 and titled.stdout.startswith("Timers  document, 1 passage"), titled.output
    assert similar_keys("timers", ["a/timers.md", "a/timers.md.bak", "b/timers", "c/my-timers.html"]) == [
        "a/timers.md", "b/timers"]
    assert similar_keys("timers.md", ["a/timers.md.bak", "b/timers.html"]) == []  # a suffix given is kept


def test_a_key_given_to_fetch_points_to_outline(tmp_path: Path) -> None:
    """``clew fetch nodejs/timers.html`` said only "malformed (... expected ev1:<c|s|d>:...)"."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "timers.html").write_text("<h1>Timers</h1><p>The timer module schedules functions.</p>")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    told = runner.invoke(app, ["fetch", "timers.html", "--db", db])
    assert told.exit_code == 2
    assert told.stderr.splitlines() == [
        "timers.html: malformed (malformed evidence id 'timers.html': expected ev1:<c|s|d>:<document>:<version>"
        "[:<ordinal>]); if it is a document's key or title, clew outline timers.html lists its passages' ids"]
    outlined = runner.invoke(app, ["outline", "timers.html", "--db", db])  # the command it names lists the ids
    assert outlined.exit_code == 0 and "ev1:s:" in outlined.stdout


def test_a_misspelt_key_offers_the_keys_of_its_folder_it_is_close_to(tmp_path: Path) -> None:
    """``clew outline scala/concurrent/Futur.html`` (a letter short) answered "clew ls lists the keys" (task U13)."""
    docs = tmp_path / "docs"
    (docs / "scala" / "concurrent").mkdir(parents=True)
    for name in ("Future.html", "Future$.html", "Promise.html"):
        (docs / "scala" / "concurrent" / name).write_text(f"<h1>{name}</h1><p>What a {name} is.</p>")
    (docs / "Futur.html").write_text("<h1>Another folder</h1><p>Not offered for the concurrent folder.</p>")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["outline", "scala/concurrent/Futur.html", "--db", db])
    assert result.exit_code == 1, result.output
    assert ("no current document with key 'scala/concurrent/Futur.html' (did you mean scala/concurrent/Future.html or "
            "scala/concurrent/Future$.html?)") in " ".join(result.output.split())
    assert similar_keys("docs/Promse.md", ["docs/Promise.md", "other/Promse.md.bak", "docs/Zebra.md"]) == [
        "docs/Promise.md"]
    assert similar_keys("docs/zzz.md", ["docs/Promise.md"]) == []


def test_a_title_typed_for_a_key_is_read_or_offered_by_every_command(tmp_path: Path) -> None:
    """``clew outline 'Tags Overview'`` answered "clew ls lists the keys" (task U12's trial, YARD's
    ``file.tags.html``): a unique title is taken for the key by the commands that read, offered by ``rm``."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "file.tags.html").write_text("<h1>Tags Overview</h1><p>Tags add meta-data to a docstring.</p>")
    (docs / "Future.html").write_text("<h1>Future</h1><p>The trait.</p>")
    (docs / "Future$.html").write_text("<h1>Future</h1><p>The object.</p>")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    outlined = runner.invoke(app, ["outline", "Tags Overview", "--db", db])
    assert outlined.exit_code == 0 and outlined.stdout.startswith("Tags Overview  document, 1 passage")
    sliced = runner.invoke(app, ["slice", "tags overview", "--db", db, "--json"])
    assert sliced.exit_code == 0 and '"document_key": "file.tags.html"' in sliced.stdout
    shared = runner.invoke(app, ["outline", "Future", "--db", db])  # two pages titled so: both offered
    assert shared.exit_code == 1
    assert "no current document with key 'Future' (did you mean Future$.html or Future.html?)" in " ".join(
        shared.output.split())
    misspelt = runner.invoke(app, ["slice", "Tags Overveiw", "--db", db])
    assert misspelt.exit_code == 1
    assert "no readable document has this key (did you mean file.tags.html?)" in " ".join(misspelt.output.split())
    removed = runner.invoke(app, ["rm", "Tags Overview", "--db", db])  # rm takes keys only
    assert removed.exit_code == 1
    assert removed.stdout.splitlines() == ["not found Tags Overview (did you mean file.tags.html?)"]
    fetched = runner.invoke(app, ["fetch", "Tags Overview", "--db", db])  # fetch points to outline, which reads it
    assert "if it is a document's key or title, clew outline 'Tags Overview' lists its passages' ids" in " ".join(
        fetched.stderr.split())


def test_a_title_typed_without_its_site_s_part_is_read_or_offered_by_every_command(tmp_path: Path) -> None:
    """gtk4's "Gtk – 4.0: Overview of actions in GTK" typed as its page reads, without the site's prefix (S1's left,
    task S3): taken where one readable document has it, offered where several do."""
    docs = tmp_path / "docs"
    for folder, version in (("gtk4", "4.0"), ("gtk3", "3.0")):
        (docs / folder).mkdir(parents=True)
        for name, title in (("actions.html", f"Overview of actions in GTK {version[0]}"),
                            ("section-list-widget.html", "Lists"), ("css.html", "CSS in GTK")):
            (docs / folder / name).write_text(f"<title>Gtk – {version}: {title}</title><p>{title} in {folder}.</p>",
                                              encoding="utf-8")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    outlined = runner.invoke(app, ["outline", "Overview of actions in GTK 4", "--db", db])
    assert outlined.exit_code == 0 and outlined.stdout.startswith("Gtk – 4.0: Overview of actions in GTK 4  document")
    sliced = runner.invoke(app, ["slice", "overview of actions in gtk 3", "--db", db, "--json"])
    assert sliced.exit_code == 0 and '"document_key": "gtk3/actions.html"' in sliced.stdout
    shared = runner.invoke(app, ["slice", "Lists", "--db", db])  # gtk3's and gtk4's: both offered, neither read
    assert shared.exit_code == 1
    assert ("no readable document has this key (did you mean gtk3/section-list-widget.html or "
            "gtk4/section-list-widget.html?)") in " ".join(shared.output.split())
    removed = runner.invoke(app, ["rm", "CSS in GTK", "--db", db])  # rm takes keys only, offers the keys meant
    assert removed.exit_code == 1
    assert removed.stdout.splitlines() == ["not found CSS in GTK (did you mean gtk3/css.html or gtk4/css.html?)"]
