"""Every evaluation set kept in the repository (``evals/<name>/``) passes its own ``verify.py``.

Each set's ``verify.py`` is the reference definition of its evidence matching and checks the set's rules
(corpus bytes against ``corpus.sha256``, 8 questions of each kind, every evidence phrase inside one text
element of a source, continuation gaps, multi-hop sources); it runs on the standard library alone, except
``pdf-docs``' one, which also needs pypdfium2 (clew's own PDF library) to read its PDF.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

EVALS = Path(__file__).resolve().parents[1] / "evals"
SETS = sorted(path.parent for path in EVALS.glob("*/verify.py"))
# the HTML sets, whose verify.py passes the set's own rules to the shared checks in evals/_verify.py
SHARED = [folder for folder in SETS if "import SetRules, main" in (folder / "verify.py").read_text()]


def test_the_repository_holds_an_evaluation_set() -> None:
    assert EVALS / "postgresql-docs" in SETS


@pytest.mark.parametrize("folder", SETS, ids=[folder.name for folder in SETS])
def test_the_set_passes_its_verify_script(folder: Path) -> None:
    done = subprocess.run([sys.executable, "verify.py"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().endswith("OK")


def test_every_html_set_runs_the_shared_checks() -> None:
    assert {folder.name for folder in SETS} - {folder.name for folder in SHARED} == {"bootstrap-docs", "pdf-docs"}


def broken(tmp_path: Path, name: str, question: str, change: Callable[[dict[str, Any]], None]) -> str:
    """What ``evals/<name>/verify.py`` says, run on a copy of the set (with the shared ``_verify.py`` beside it)
    whose ``question`` is changed by ``change``; it must fail."""
    shutil.copy(EVALS / "_verify.py", tmp_path)
    folder = shutil.copytree(EVALS / name, tmp_path / name)
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines()]
    change(next(q for q in questions if q["id"] == question))
    (folder / "questions.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in questions))
    done = subprocess.run([sys.executable, "verify.py"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    return done.stdout + done.stderr


def refused(tmp_path: Path, name: str, question: str, source: str) -> str:
    """What ``evals/<name>/verify.py`` says when ``question`` also names ``source``."""
    return broken(tmp_path, name, question, lambda q: q["sources"].append(source))


@pytest.mark.parametrize("folder", SHARED, ids=[folder.name for folder in SHARED])
def test_a_phrase_not_in_its_source_fails_through_the_shared_checks(tmp_path: Path, folder: Path) -> None:
    # the message each set's own copy of the checks gave before they became one module (task V18)
    first = json.loads((folder / "questions.jsonl").read_text().splitlines()[0])
    phrase = first["evidence"][0] + " and words no page holds"
    said = broken(tmp_path, folder.name, first["id"], lambda q: q["evidence"].__setitem__(0, phrase))
    assert said.endswith(f"\nFAILED: 1 problem(s)\n  - {first['id']} (line 1): evidence not found (within one text "
                         f"element) in any of its sources: {phrase!r}\n")


@pytest.mark.parametrize(("question", "source"), [
    ("structlog-019", "_sources/frameworks.md.txt"),  # the page's source holds the question's evidence
    ("structlog-039", "_modules/structlog/twisted.html"),  # viewcode's page holds it too
    ("structlog-001", "genindex.html"),
])
def test_a_file_the_sphinx_build_writes_beside_the_pages_is_never_a_source(
        tmp_path: Path, question: str, source: str) -> None:
    # structlog-docs keeps the build's page sources, viewcode pages and indexes as published, and clew ingest leaves
    # them out: a question naming one asks about a document no run can fetch; verify.py passed the first two
    # (review V17)
    said = refused(tmp_path, "structlog-docs", question, source)
    assert f"source {source} is a file the Sphinx build writes beside the pages" in said


@pytest.mark.parametrize("source", ["ix01.html", "annotation-glossary.html"])
def test_a_page_gtk_doc_generates_from_the_others_is_never_a_source(tmp_path: Path, source: str) -> None:
    # libsoup-docs keeps gtk-doc's symbol index and annotation glossary as published; they repeat the reference
    # pages' names, so verify.py names neither as a question's source (task E14)
    said = refused(tmp_path, "libsoup-docs", "libsoup-001", source)
    assert f"source {source} is an index gtk-doc generates from the pages" in said
