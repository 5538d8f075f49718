"""The README's Python example, taken from README.md as it stands, runs verbatim as a plain script.

It runs where a process pool would pay (a ``sitecustomize`` makes the machine report 8 CPUs, so
``workers="auto"`` would start 4 spawned workers): a library call that started them would
re-import the script in each, which opens the DuckDB file a second time and fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
EIGHT_CPUS = """import os
os.cpu_count = lambda: 8
if hasattr(os, "process_cpu_count"):
    os.process_cpu_count = lambda: 8
"""


def readme_example() -> str:
    """The first ``python`` block of the README's "In Python" section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## In Python\n"):]
    section = section[:section.index("\n## ", 1)]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    if found is None:
        raise AssertionError("README.md's 'In Python' section has no python block")
    return found.group(1)


def notes(folder: Path, count: int) -> None:
    topics = ["backups", "certificates", "deploys", "alerts", "billing", "onboarding", "quotas", "search"]
    for i in range(count):
        topic = topics[i % len(topics)]
        body = f"# Note {i} on {topic}\n\n## Summary\n\nThis note {i} covers {topic} for team {i % 7}.\n"
        if i == 137:
            body += ("\n## Renewing\n\nRenew the wildcard certificate with `certctl renew --zone prod`, "
                     "thirty days before it expires.\n")
        (folder / f"note-{i:03}.md").write_text(body, encoding="utf-8")


def run_example(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "example.py"
    script.write_text(readme_example(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, str(script), *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_readme_python_example_runs_as_a_plain_script_on_a_folder(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(EIGHT_CPUS, encoding="utf-8")
    folder = tmp_path / "notes"
    folder.mkdir()
    notes(folder, 200)
    example = readme_example()
    assert "__main__" not in example and "ingest_paths" in example and "retrieve" in example
    probe = subprocess.run(
        [sys.executable, "-c", "from clew.corpus.ingest.api import auto_workers; print(auto_workers(200, 1))"],
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")}, capture_output=True, text=True, timeout=120)
    assert probe.stdout.strip() == "4", probe.stderr  # a pool would start here if the library chose one

    first = run_example(tmp_path, str(folder), "How do I renew the wildcard certificate?")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == "200 documents, 201 chunks, 0 skipped", first.stdout
    assert "note-137.md" in lines[1]  # the best search hit
    assert lines[6].startswith("ok: the walk took everything it found"), first.stdout  # the stop line
    assert "certctl renew" in first.stdout
    assert "BrokenProcessPool" not in first.stderr and "lock" not in first.stderr

    again = run_example(tmp_path, str(folder), "How do I renew the wildcard certificate?")  # unchanged: a no-op
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0].startswith("200 documents, 0 chunks"), again.stdout


def test_the_readme_python_example_runs_on_the_bundled_runbooks(tmp_path: Path) -> None:
    done = run_example(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("4 documents,"), done.stdout
    assert "deploy-rollback.md" in lines[1]
    assert lines[6].startswith("ok: "), done.stdout
    assert "error rate stays above 2 percent" in done.stdout  # the extract answers the question
