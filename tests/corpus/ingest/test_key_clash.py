"""Two folders given to one ingest may hold a file of one key (two sites' ``index.html``): the first is kept and each
later one reported, not lost without a word (task U26)."""

from __future__ import annotations

from pathlib import Path

from clew.corpus.ingest.sources import find_files


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
