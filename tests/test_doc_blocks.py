"""The code blocks the README and the documentation site mark as runnable run, as a reader would
paste them, and print what the page shows.

Markers, each on the line before a fenced block:

- ``<!-- run -->`` (a ``sh`` or ``python`` block): run it, ``sh`` in ``bash -euo pipefail`` and
  ``python`` as a script, in a fresh folder per page that holds ``notes/`` (the bundled runbooks,
  ``clew/demo/corpus``), with the installed ``clew`` first on ``PATH`` and a terminal 200 columns
  wide; the blocks of one page run in order, in the same folder;
- ``<!-- run: file=NAME -->``: the block is a file the next blocks read: write it as ``NAME``;
- ``<!-- output -->`` (a ``text`` block): each of its lines but ``...`` is a line (trailing
  spaces aside) that the page's last run block printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "clew" / "demo" / "corpus"
BLOCK = re.compile(r"^<!-- (run(?:: file=(?P<file>[\w.-]+))?|output) -->\n```(?P<lang>\w+)\n(?P<body>.*?)^```$",
                   re.M | re.S)
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    kind: str  # run, file or output
    lang: str
    body: str
    file: str | None = None

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        kind = "output" if match.group(1) == "output" else "file" if match.group("file") else "run"
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, kind, match.group("lang"),
                           match.group("body"), match.group("file")))
    return found


def run_block(block: Block, folder: Path) -> str:
    # CLEW_CACHE_DIR stays the run's own (conftest): the token ranks are cached once, as a reader's are
    # after their first command, not again in each page's folder (0.1-0.2 s of CPU a page)
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
           "NO_COLOR": "1", "COLUMNS": "200"}
    if block.lang == "sh":
        command = ["bash", "-euo", "pipefail", "-c", block.body]
    elif block.lang == "python":
        script = folder / f"block_{block.line}.py"
        script.write_text(block.body, encoding="utf-8")
        command = [sys.executable, str(script)]
    else:
        raise AssertionError(f"{block}: a runnable block is sh or python, not {block.lang}")
    ran = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, f"{block} exited {ran.returncode}:\n{ran.stdout[-2000:]}\n{ran.stderr[-2000:]}"
    return ran.stdout


RUNNABLE = [page for page in PAGES if blocks(page)]

Steps = tuple[tuple[str, str, str | None], ...]
PRINTED: dict[Steps, str] = {}
"""What the last run block printed after each sequence of file and run blocks, from a fresh folder, in this
session. A page whose file and run blocks are all the start of a page that ran before (docs/index.md's one block
is the README's first) checks its output blocks against what they printed there, the same commands in the same
folder state, instead of running them again (a ``clew ingest`` and a ``clew ask``, about 1 s of CPU)."""


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_page_s_runnable_blocks_run_and_print_what_it_shows(page: Path, tmp_path: Path) -> None:
    steps: Steps = ()
    ran_before = tuple((b.kind, b.body, b.file) for b in blocks(page) if b.kind != "output") in PRINTED
    if not ran_before:
        shutil.copytree(NOTES, tmp_path / "notes")
    printed: str | None = None
    for block in blocks(page):
        if block.kind != "output":
            steps += ((block.kind, block.body, block.file),)
        if ran_before and block.kind == "run":
            printed = PRINTED[steps]
        elif block.kind == "file":
            (tmp_path / str(block.file)).write_text(block.body, encoding="utf-8")
        elif block.kind == "run":
            printed = PRINTED[steps] = run_block(block, tmp_path)
        else:
            assert printed is not None, f"{block}: an output block with no run block before it"
            lines = {line.rstrip() for line in printed.splitlines()}
            for shown in block.body.splitlines():
                assert shown.strip() == "..." or shown.rstrip() in lines, f"{block}: {shown!r} is not in:\n{printed}"


def test_the_pages_that_promise_runnable_blocks_have_them() -> None:
    """A marker lost in an edit would silently stop a page's blocks from running."""
    counted = {str(page.relative_to(ROOT)): sum(b.kind == "run" for b in blocks(page)) for page in RUNNABLE}
    coming_from = sorted(str(page.relative_to(ROOT)) for page in (ROOT / "docs/guides/coming-from").glob("*.md")
                         if page.name != "index.md")
    assert len(coming_from) >= 4, coming_from  # one page per system whose users' calls clew maps
    for page in ("README.md", "docs/index.md", "docs/getting-started.md", "docs/guides/evals.md",
                 "docs/guides/batch.md", "docs/reference/python.md", *coming_from):
        assert counted.get(page, 0) >= 1, f"{page} has no runnable block"


def test_a_marker_not_followed_by_a_block_is_an_error() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        markers = len(re.findall(r"^<!-- (?:run(?:: file=[\w.-]+)?|output) -->$", text, re.M))
        assert markers == len(blocks(page)), f"{page.relative_to(ROOT)}: a marker without a fenced block after it"
