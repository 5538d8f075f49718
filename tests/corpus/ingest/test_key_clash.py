"""Two folders given to one ingest may hold a file of one key (two sites' ``index.html``): the first is kept and each
later one reported, not lost without a word (task U26)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from clew.cli import app
from clew.corpus.ingest.sources import KEY_CLASH_WAY_OUT, find_files
from tests.envelope import result as result_of

runner = CliRunner()


def _site(root: Path, title: str) -> Path:
    (root / "rules").mkdir(parents=True)
    (root / "index.html").write_text(f"<html><head><title>{title}</title></head><body><p>Home.</p></body></html>")
    (root / "rules" / f"{title}.md").write_text(f"# {title}\n\nA rule.\n")
    return root


def test_a_key_two_folders_share_is_the_first_folders_and_the_other_file_is_reported(tmp_path: Path) -> None:
    vuepress, honkit = _site(tmp_path / "vuepress", "md013"), _site(tmp_path / "honkit", "no-cycle")
    found = find_files([vuepress, honkit], "**/*")
    assert sorted(found.files) == sorted([(vuepress / "index.html", "index.html"),
                                          (vuepress / "rules" / "md013.md", "rules/md013.md"),
                                          (honkit / "rules" / "no-cycle.md", "rules/no-cycle.md")])
    [clash] = [problem for problem in found.problems if "taken" in problem.message]
    assert clash.path == str(honkit / "index.html") and clash.skipped and not clash.warning
    assert f"the key 'index.html' is taken by {vuepress / 'index.html'}: not ingested" in clash.message
    assert "--collection" in clash.message


def test_a_folder_given_twice_is_read_once_without_a_word(tmp_path: Path) -> None:
    site = _site(tmp_path / "site", "md013")
    found = find_files([site, site], "**/*")
    assert sorted(key for _, key in found.files) == ["index.html", "rules/md013.md"]
    assert found.problems == []


def test_clew_ingest_says_the_clashes_in_one_line_and_its_json_names_each_file(tmp_path: Path) -> None:
    """U26's three sites (VuePress, HonKit, Hexo) each had an ``index.html``: the way out was said on every clashing
    file, each taking one of the ten named lines. It is one line now (how many, two examples, the way out once);
    ``--json`` keeps one problem a file, the way out in each (task R18)."""
    sites = [_site(tmp_path / name, rule) for name, rule in
             (("vuepress", "md013"), ("honkit", "no-cycle"), ("hexo", "alt-text"))]
    (sites[0] / "guide.html").write_text("<html><head><title>Guide</title></head><body><p>Use it.</p></body></html>")
    (sites[2] / "guide.html").write_text("<html><head><title>Guide</title></head><body><p>Set it.</p></body></html>")
    args = ["ingest", *map(str, sites), "--db", str(tmp_path / "c.duckdb")]
    ran = runner.invoke(app, args, env={"COLUMNS": "400"})
    assert ran.exit_code == 0, ran.output
    said = [line for line in ran.stderr.splitlines() if line.startswith("skipped ")]
    assert said == [f"skipped 3 files whose keys an earlier folder given holds ({sites[1] / 'index.html'} as "
                    f"{sites[0] / 'index.html'}, {sites[2] / 'guide.html'} as {sites[0] / 'guide.html'} and 1 more); "
                    f"{KEY_CLASH_WAY_OUT}"]
    assert ran.stderr.count("--collection") == 1 and "3 skipped" in ran.stdout
    problems = result_of(runner.invoke(app, [*args, "--json"]).stdout)["problems"]
    assert sorted((problem["path"], problem["taken_by"]) for problem in problems) == sorted([
        (str(sites[1] / "index.html"), str(sites[0] / "index.html")),
        (str(sites[2] / "guide.html"), str(sites[0] / "guide.html")),
        (str(sites[2] / "index.html"), str(sites[0] / "index.html"))])
    assert all(problem["skipped"] and KEY_CLASH_WAY_OUT in problem["message"] for problem in problems)
