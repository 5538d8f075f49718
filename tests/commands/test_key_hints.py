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
    for given in ("nodejs/timers", "timers", "NodeJS/Timers"):
        result = runner.invoke(app, ["outline", given, "--db", db])
        assert result.exit_code == 1, result.output
        assert f"no current document with key {given!r} (did you mean nodejs/timers.html?)" in result.output
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
        "[:<ordinal>]); if it is a document's key, clew outline timers.html lists its passages' ids"]
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
