"""Wikilinks in Markdown notes (``clew.corpus.ingest.formats.markdown_wikilinks``): an Obsidian-style vault written
for these tests (task U38)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from clew.corpus.ingest.api import ingest_paths
from clew.corpus.ingest.formats.markdown import parse_markdown
from clew.corpus.ingest.formats.markdown_wikilinks import wikilink_targets, wikilinks
from clew.corpus.ingest.sources import find_files
from clew.corpus.store import Corpus

VAULT = {
    "Home.md": (
        "# Home\n\nStart at [[Getting Started]], then [[notes/Setup|the setup note]].\n"
        "Install with [[Setup#Install the tools]]; below, [[#Links]].\n"
        "An idea for later: [[Someday]]. A drawing: ![[diagram.png]].\n"
        "Literal `[[Setup]]` here.\n\n```\n[[Setup]]\n```\n\n## Links\n\nEnd.\n"
    ),
    "Getting Started.md": "# Getting Started\n\nGo to [[Setup]] and read ![[Setup]].\n",
    "notes/Setup.md": "# Setup\n\nIntro.\n\n## Install the tools\n\nRun the installer twice.\n",
    "notes/old/Setup.md": "# Old setup\n\nGone.\n",
    "wiki/Page-Name.md": "# Page Name\n\nSee [[the home page|Home]] and [[Page Name]].\n",
}


def _links(text: str, targets: dict[str, str] | None = None) -> tuple[str, list[tuple[str, str]]]:
    document = parse_markdown(text, targets=targets)
    return document.text, [(document.text[link.start:link.start + 12], link.href) for link in document.links]


def test_each_form_reads_as_a_link_with_its_shown_text() -> None:
    targets = wikilink_targets(VAULT, VAULT)["Home.md"]
    text, links = _links(VAULT["Home.md"], targets)
    assert "Start at [Getting Started](<Getting Started.md>), then [the setup note](<notes/Setup.md>)." in text
    assert "Install with [Setup > Install the tools](<notes/Setup.md#install-the-tools>); below, [Links](<#links>)."\
        in text
    assert [href for _, href in links] == ["Getting Started.md", "notes/Setup.md",
                                           "notes/Setup.md#install-the-tools", "#links"]
    assert links[1][0] == "the setup no"


def test_a_name_that_two_notes_bear_picks_the_one_with_fewer_folders_and_hrefs_are_relative() -> None:
    targets = wikilink_targets(VAULT, VAULT)
    assert targets["Getting Started.md"] == {"Setup": "notes/Setup.md"}
    assert targets["wiki/Page-Name.md"] == {"Home": "../Home.md", "Page Name": "Page-Name.md"}
    beside = wikilink_targets({"notes/old/a.md": "[[Setup]]"}, [*VAULT, "notes/old/a.md"])
    assert beside["notes/old/a.md"] == {"Setup": "Setup.md"}  # the note in the page's own folder first
    text, _ = _links(VAULT["wiki/Page-Name.md"], targets["wiki/Page-Name.md"])
    assert text.endswith("See [the home page](<../Home.md>) and [Page Name](<Page-Name.md>).\n")  # a wiki's order


def test_a_dangling_wikilink_and_an_embed_of_a_file_not_ingested_read_as_their_text() -> None:
    targets = wikilink_targets(VAULT, VAULT)["Home.md"]
    text, links = _links(VAULT["Home.md"], targets)
    assert "An idea for later: Someday. A drawing: diagram.png." in text
    assert "Someday" not in targets and all("Someday" not in href for _, href in links)
    alone, alone_links = _links("# Alone\n\nSee [[Setup|the setup]] and [[#Alone]].\n")
    assert alone == "# Alone\n\nSee the setup and [Alone](<#alone>).\n"
    assert [href for _, href in alone_links] == ["#alone"]


def test_an_embedded_note_reads_as_a_link_to_it() -> None:
    targets = wikilink_targets(VAULT, VAULT)["Getting Started.md"]
    text, links = _links(VAULT["Getting Started.md"], targets)
    assert text == "# Getting Started\n\nGo to [Setup](<notes/Setup.md>) and read [Setup](<notes/Setup.md>).\n"
    assert [href for _, href in links] == ["notes/Setup.md", "notes/Setup.md"]


def test_wikilinks_in_code_spans_and_fences_stay_literal() -> None:
    text, _ = _links(VAULT["Home.md"], wikilink_targets(VAULT, VAULT)["Home.md"])
    assert "Literal `[[Setup]]` here.\n\n```\n[[Setup]]\n```" in text
    shell, links = _links("Test with [[ -f x ]] and [[1]](https://example.org).\n", {"1": "one.md"})
    assert shell == "Test with [[ -f x ]] and [[1]](https://example.org).\n"
    assert [href for _, href in links] == ["https://example.org"]
    html, _ = _links("<div>\n[[Setup]]\n</div>\n", {"Setup": "Setup.md"})
    assert html == "[[Setup]]\n"  # raw HTML, read by the HTML reader: as Obsidian shows it, written


def test_a_wikilink_in_a_table_cell_keeps_its_escaped_bar() -> None:
    text, links = _links("| a | b |\n|---|---|\n| [[Setup\\|the setup]] | x |\n", {"Setup": "Setup.md"})
    assert "| [the setup](<Setup.md>) | x |" in text
    assert [href for _, href in links] == ["Setup.md"]


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    with Corpus(tmp_path / "corpus.duckdb") as corpus:
        yield corpus


def test_an_ingested_vault_resolves_wikilinks_to_the_right_note_and_heading(corpus: Corpus, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    for key, text in VAULT.items():
        (vault / key).parent.mkdir(parents=True, exist_ok=True)
        (vault / key).write_text(text, encoding="utf-8")
    (vault / "diagram.png").write_bytes(b"\x89PNG")
    assert str(vault / "Home.md") in find_files([vault], "**/*").targets
    report = ingest_paths(corpus, [vault], chunk_tokens=160)
    assert report.links_dangling == 0
    rows = corpus.cursor().execute(
        "SELECT e.dst_ref, c.body FROM edges e JOIN documents s ON s.key = 'Home.md' "
        "JOIN chunks c ON 'ev1:c:' || c.document_id || ':' || c.version || ':' || c.ordinal = e.dst "
        "WHERE e.graph = 'links' AND e.src LIKE 'ev1:c:' || s.id || ':%' ORDER BY e.dst_ref"
    ).fetchall()
    bodies = dict(rows)
    assert "Run the installer twice." in bodies["notes/Setup.md#install-the-tools"]
    assert "Gone." not in " ".join(bodies.values())
    assert set(bodies) == {"Getting Started.md", "notes/Setup.md", "notes/Setup.md#install-the-tools", "Home.md#links"}
    assert "End." in bodies["Home.md#links"]


def test_code_spans_are_found_in_linear_time_as_commonmark_reads_them() -> None:
    """A code span opens with a run of backticks and closes at the next run of as many; a run left open is text.
    The pattern that looked for them tried each run's every shorter length to the line's end: a line of 1,000
    backticks after a wikilink took 6.6 s, 2,000 nearly a minute (review V15). A child process, so that a regression
    fails the test rather than hanging the run."""
    script = (
        "from clew.corpus.ingest.formats.markdown_wikilinks import wikilinks\n"
        "line = '[[Setup]] ' + '`' * 20_000 + ' [[Setup]]'\n"
        "assert wikilinks(line, {'Setup': 'Setup.md'}).count('[Setup](<Setup.md>)') == 2\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
    targets = {"Setup": "Setup.md"}
    assert wikilinks("``` [[Setup]] `` [[Setup]]", targets) == (  # "```" opens no span: no run of three closes it
        "``` [Setup](<Setup.md>) `` [Setup](<Setup.md>)")
    assert wikilinks("`` a ` [[Setup]] `` and ` [[Setup]] `", targets) == "`` a ` [[Setup]] `` and ` [[Setup]] `"


def test_a_name_many_files_bear_is_looked_up_once_for_all_pages() -> None:
    """Each page looked through every file of the name its wikilink gives: 3,000 pages linking ``[[README]]`` beside
    3,000 READMEs took 20 s of CPU (review V15). A child process, so that a regression fails the test rather than
    hanging the run; the README each page gets is the one Obsidian picks (fewest folders, then alphabetical; the one
    beside the page first)."""
    script = (
        "from clew.corpus.ingest.formats.markdown_wikilinks import wikilink_targets\n"
        "keys = [f'b{i}/README.md' for i in range(4000)] + [f'p{i}/page.md' for i in range(4000)] + ['p7/README.md']\n"
        "found = wikilink_targets({f'p{i}/page.md': 'See [[README]].' for i in range(4000)}, keys)\n"
        "assert found['p1/page.md'] == {'README': '../b0/README.md'}, found['p1/page.md']\n"
        "assert found['p7/page.md'] == {'README': 'README.md'}, found['p7/page.md']\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=15, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
