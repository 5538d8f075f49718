"""One glob for a filter's ``path`` and for ``--exclude`` (review V9 of 083efd9): the path filter refused an
unclosed ``[`` that ``--exclude`` read as itself, and ``--exclude '**/x.md'`` left the root's ``x.md`` in while the
filter's ``**/`` matched no folder too, though the documents guide says they read a glob the same way."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from clew.corpus.access import parse_filter
from clew.corpus.globs import glob_regex
from clew.corpus.ingest.sources import excluded_by, find_files
from tests.conftest import write_files

CASES = [  # (glob, key, whether it matches)
    ("v1[", "v1[/install.md", True),  # a '[' no ']' closes is itself
    ("v1[", "v1/install.md", False),
    ("docs/[]a]x.md", "docs/]x.md", True),  # a ']' first in a class is in it
    ("docs/[!]]x.md", "docs/ax.md", True),
    ("docs/[!]]x.md", "docs/]x.md", False),
    ("docs/[z-a]x.md", "docs/ax.md", False),  # a reversed range holds nothing
    ("**/x.md", "x.md", True),  # '**/' is any folders or none
    ("**/x.md", "a/b/x.md", True),
    ("a**/x.md", "ax.md", False),  # '**/' after other characters is '*/': at least one folder
    ("a**/x.md", "ab/c/x.md", True),
    ("d/**/x.md", "d/x.md", True),
    ("v2.*", "v2.1/x.md", True),
    ("v2.*", "v20/x.md", False),
    ("*/install.md", "v1/install.md", True),
    ("v1/", "v1/a/b.md", True),
    ("/v1", "v1/a.md", True),
    ("v?", "v1/a.md", True),
    ("docs/a b+(c).md", "docs/a b+(c).md", True),
]


@pytest.mark.parametrize(("glob", "key", "matches"), CASES)
def test_exclude_the_path_filter_and_duckdb_read_a_glob_alike(glob: str, key: str, matches: bool) -> None:
    parse_filter({"path": glob})  # no glob here is refused
    regex = glob_regex(glob)
    assert bool(re.fullmatch(regex, key)) is matches
    assert duckdb.connect().execute("SELECT regexp_full_match(?, ?)", [key, regex]).fetchone() == (matches,)
    assert excluded_by(key, ["/" + glob.lstrip("/")]) is matches  # with a '/', --exclude matches from the root


def test_exclude_leaves_out_the_root_s_file_under_a_double_star(tmp_path: Path) -> None:
    site = write_files(tmp_path / "docs", {"x.md": "# X\n", "a/x.md": "# A\n", "v1[/y.md": "# Y\n", "z.md": "# Z\n"})
    found = find_files([site], "**/*", ["**/x.md", "v1[/"])
    assert [key for _, key in found.files] == ["z.md"] and found.excluded == 3


def test_an_empty_or_too_long_glob_is_refused_by_the_filter_and_matches_nothing_in_exclude() -> None:
    for glob in ("/", "a" * 1_001):
        with pytest.raises(ValueError, match="the path glob"):
            glob_regex(glob)
        assert not excluded_by("a/b.md", [glob])
