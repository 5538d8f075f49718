"""Run the tests of what changed since the last commit (``make check``).

    python scripts/changed_tests.py [PYTEST_ARGS...]

A changed file is one ``git diff --name-only HEAD`` names (staged, unstaged or deleted) or an
untracked file git does not ignore. Each maps to the tests that mirror it:

- ``clew/<package>/...`` -> ``tests/<package>/``; ``clew/<module>.py`` -> ``tests/test_<module>.py``
  (``clew/demo/`` -> ``tests/test_demo.py``; a leading underscore is dropped);
- a test file -> itself; any other file under ``tests/<package>/`` (a conftest, a snapshot)
  -> ``tests/<package>/``;
- a page of the documentation (``docs/...``, ``README.md``) or what builds the site
  (``mkdocs.yml``, ``scripts/docs_hooks.py``) -> the documentation tests (``DOCS_TESTS``: the
  runnable blocks, the generated parts and the nav) and every test file that names the page's
  file (``stop-reasons.md``: ``tests/agent/test_stops.py`` reads it).

Anything else (``clew/errors.py``, ``clew/cli.py``, ``tests/conftest.py``, a fixture,
pyproject.toml, a benchmark) may touch every test: then every test runs. Nothing changed: no
test runs. The PYTEST_ARGS go to pytest as they are. ``make test`` also builds the site with
``mkdocs build --strict``; ``make check`` does not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVERYTHING = "tests"
DOCS_TESTS = ("tests/test_doc_blocks.py", "tests/test_docs.py")
"""What a change to any page runs: every runnable block runs and prints what its page shows; the
generated reference parts match the code; every page is in the nav."""
SITE_FILES = ("README.md", "mkdocs.yml", "scripts/docs_hooks.py")


def changed_files() -> list[str]:
    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
        return [line for line in done.stdout.splitlines() if line]

    return sorted(set(git("diff", "--name-only", "HEAD")) | set(git("ls-files", "--others", "--exclude-standard")))


def naming(name: str) -> list[str]:
    """The test files whose source names the file ``name`` (``stop-reasons.md``); not this script's
    own test, which names pages as examples of changed files."""
    return sorted(str(test.relative_to(ROOT)) for test in (ROOT / "tests").rglob("test_*.py")
                  if test.name != "test_changed_tests.py" and name in test.read_text(encoding="utf-8"))


def mirrors(path: str) -> set[str]:
    """The test folders and files that cover ``path`` (relative to the checkout), or {EVERYTHING}."""
    parts = Path(path).parts
    if parts[0] == "docs" or path in SITE_FILES:
        return {*DOCS_TESTS, *(naming(parts[-1]) if path.endswith(".md") else [])}
    return {mirror(path)}


def mirror(path: str) -> str:
    """The test folder or file that mirrors ``path`` (a file of the package or of the tests), or EVERYTHING."""
    parts = Path(path).parts
    if parts[0] == "clew" and len(parts) >= 2:
        name = Path(parts[1]).stem.lstrip("_")  # a package, or a module
        for candidate in (f"tests/{name}", f"tests/test_{name}.py"):
            if (ROOT / candidate).exists():
                return candidate
    elif parts[0] == "tests" and len(parts) >= 3 and parts[1] != "fixtures":
        if parts[-1].startswith("test_") and parts[-1].endswith(".py") and (ROOT / path).exists():
            return path
        if (ROOT / "tests" / parts[1]).is_dir():
            return f"tests/{parts[1]}"
    elif parts[0] == "tests" and len(parts) == 2 and parts[1].startswith("test_") and (ROOT / path).exists():
        return path
    return EVERYTHING


def targets(paths: list[str]) -> list[str]:
    """The pytest arguments for ``paths``: the mirrors, none inside another, or just EVERYTHING."""
    chosen = set().union(*(mirrors(path) for path in paths))
    if EVERYTHING in chosen:
        return [EVERYTHING]
    return sorted(m for m in chosen if not any(m.startswith(f"{other}/") for other in chosen))


def main(pytest_args: list[str]) -> int:
    paths = changed_files()
    if not paths:
        print("changed_tests: nothing changed since the last commit: no tests to run")
        return 0
    chosen = targets(paths)
    print(f"changed_tests: {len(paths)} changed files -> {' '.join(chosen)}", flush=True)
    return subprocess.run([sys.executable, "-m", "pytest", *pytest_args, *chosen], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
