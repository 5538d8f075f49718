"""A documentation's versions side by side in one folder (``latest/``, ``v1.1/``, ``v2.0/``, task U31): ``clew ingest``
says so and how to ask one version, and a collection per version answers from that version alone."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.side_by_side import side_by_side

runner = CliRunner()
PAGES = ("install", "config", "cli", "server", "testing")


def versions(root: Path) -> Path:
    site = root / "site"
    for version, python in (("v1", "3.6"), ("v2", "3.8")):
        for page in PAGES:
            (site / version).mkdir(parents=True, exist_ok=True)
            (site / version / f"{page}.md").write_text(
                f"# {page.title()}\n\nWidget {version[1:]} supports Python {python} and newer; see {page}.\n")
            (site / version / "logo.png").write_bytes(b"\x89PNG\r\n")
    return site


def test_ingest_says_the_folder_holds_versions_side_by_side_and_a_collection_asks_one(tmp_path: Path) -> None:
    site = versions(tmp_path)
    db = str(tmp_path / "all.duckdb")
    ingested = runner.invoke(app, ["ingest", str(site), "--db", db])
    assert ingested.exit_code == 0, ingested.output
    assert ("note 5 pages lie under v1/, v2/ alike (versions or languages side by side?): search and ask take "
            "passages of each; to ask one, pass --filter path=v1 (search, ask, batch), or ingest each folder into a "
            "--collection of its own (docs/guides/documents.md, 'Several versions of one documentation')"
            ) in " ".join(ingested.stderr.split())
    as_json = runner.invoke(app, ["ingest", str(site), "--db", db, "--json"])  # the envelope says it too (REST)
    assert json.loads(as_json.stdout)["result"]["side_by_side"].startswith("5 pages lie under v1/, v2/ alike")
    both = runner.invoke(app, ["ask", "Which Python versions does install support?", "--db", db])
    assert "3.6 and newer" in both.stdout and "3.8 and newer" in both.stdout  # each version's page, in one pack
    filtered = runner.invoke(app, ["ask", "Which Python versions does install support?", "--db", db,
                                   "--filter", "path=v2"])  # the note's way to ask one, in the same collection
    assert "3.8 and newer" in filtered.stdout and "3.6" not in filtered.stdout, filtered.output
    one = str(tmp_path / "one.duckdb")
    for version in ("v1", "v2"):
        alone = runner.invoke(app, ["ingest", str(site / version), "--db", one, "--collection", version])
        assert alone.exit_code == 0 and "note" not in alone.stderr, alone.output
    asked = runner.invoke(app, ["ask", "Which Python versions does install support?", "--db", one,
                                "--collection", "v2"])
    assert asked.exit_code == 0, asked.output
    assert "3.8 and newer" in asked.stdout and "3.6" not in asked.stdout


def test_a_site_whose_folders_share_a_few_names_is_not_versions() -> None:
    site = [f"{part}/index.html" for part in ("api", "guide", "tutorial", "howto")] + [
        f"guide/{n}.html" for n in range(20)] + [f"api/{n}.html" for n in range(3)]
    assert side_by_side(site) is None  # one shared name (index.html): each part's own page
    assert side_by_side([f"{v}/{n}.html" for v in ("en", "fr") for n in range(4)]) is None  # under 5 pages
    mostly_own = [f"v1/{n}.html" for n in range(5)] + [f"v2/{n}.html" for n in range(5)] + [
        f"blog/post-{n}.html" for n in range(11)]
    assert side_by_side(mostly_own) is None  # 10 copies of 21 pages: most pages are the folder's own
    assert side_by_side(mostly_own[:-2]) == side_by_side([f"{v}/{n}.html" for v in ("v1", "v2") for n in range(5)])


def test_ask_takes_a_filter_on_a_field_such_as_a_version_in_front_matter(tmp_path: Path) -> None:
    """One collection of every version: a field a page carries (front matter ``version: 2.0``) scopes ``clew ask``
    as it scopes ``clew search`` (before: no such option)."""
    docs = tmp_path / "docs"
    for version, python in (("1.1", "3.5"), ("2.0", "3.6"), ("3.0", "3.8")):
        (docs / version).mkdir(parents=True)
        (docs / version / "install.md").write_text(
            f"---\nversion: {version}\n---\n# Install\n\nFlask supports Python {python} and newer.\n")
    db = str(tmp_path / "c.duckdb")
    assert runner.invoke(app, ["ingest", str(docs), "--db", db]).exit_code == 0
    question = "Which Python versions does Flask support?"
    for given in ("version=2.0", '{"term": {"version": 2.0}}'):
        asked = runner.invoke(app, ["ask", question, "--db", db, "--filter", given])
        assert asked.exit_code == 0, asked.output
        assert "3.6 and newer" in asked.stdout and "3.5" not in asked.stdout and "3.8" not in asked.stdout
    everything = runner.invoke(app, ["ask", question, "--db", db])
    assert all(f"{p} and newer" in everything.stdout for p in ("3.5", "3.6", "3.8"))
    bad = runner.invoke(app, ["ask", question, "--db", db, "--filter", '{"term": '])
    assert bad.exit_code == 2 and "filter" in bad.stderr, bad.output
