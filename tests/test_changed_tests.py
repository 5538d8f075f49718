"""``make check``'s choice of tests (scripts/changed_tests.py): each changed file maps to the tests
that cover it, a page of the documentation included."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests.modules import load_module

ROOT = Path(__file__).resolve().parents[1]


def script() -> ModuleType:
    return load_module("changed_tests", ROOT / "scripts" / "changed_tests.py")


def test_a_page_of_the_documentation_runs_the_documentation_tests() -> None:
    targets = script().targets
    docs = ["tests/test_doc_blocks.py", "tests/test_docs.py"]
    assert targets(["docs/guides/scaling.md"]) == docs  # a page no test's source names
    assert targets(["mkdocs.yml"]) == targets(["scripts/docs_hooks.py"]) == docs
    assert targets(["docs/guides/coming-from/agrag.md", "docs/guides/coming-from/mistral.md"]) == docs
    # and the tests whose source names the page (test_stops.py reads it), and no other
    naming = targets(["docs/concepts/stop-reasons.md"])
    assert {"tests/agent/test_stops.py", *docs} <= set(naming)
    others = set(naming) - set(docs)
    assert all("stop-reasons.md" in (ROOT / test).read_text(encoding="utf-8") for test in others)
    assert naming == sorted(others) + docs
    assert "tests/test_tooltable.py" in targets(["docs/reference/tools.md"])
    readme = targets(["README.md"])
    assert {*docs, "tests/test_readme_example.py"} <= set(readme) and "tests" not in readme


def test_code_maps_to_its_mirror_beside_the_documentation_tests() -> None:
    targets = script().targets
    assert targets(["clew/evals/runner.py", "docs/guides/batch.md"]) == [
        "tests/evals", "tests/test_doc_blocks.py", "tests/test_docs.py"]
    assert targets(["tests/evals/test_cli.py"]) == ["tests/evals/test_cli.py"]
    assert targets(["clew/errors.py", "docs/index.md"]) == ["tests"]  # what may touch everything runs everything
    assert targets(["pyproject.toml"]) == ["tests"]
