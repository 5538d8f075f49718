"""Every evaluation set kept in the repository (``evals/<name>/``) passes its own ``verify.py``.

Each set's ``verify.py`` is the reference definition of its evidence matching and checks the set's rules
(corpus bytes against ``corpus.sha256``, 8 questions of each kind, every evidence phrase inside one text
element of a source, continuation gaps, multi-hop sources); it runs on the standard library alone, except
``pdf-docs``' one, which also needs pypdfium2 (clew's own PDF library) to read its PDF.
"""

import subprocess
import sys
from pathlib import Path

import pytest

EVALS = Path(__file__).resolve().parents[1] / "evals"
SETS = sorted(path.parent for path in EVALS.glob("*/verify.py"))


def test_the_repository_holds_an_evaluation_set() -> None:
    assert EVALS / "postgresql-docs" in SETS


@pytest.mark.parametrize("folder", SETS, ids=[folder.name for folder in SETS])
def test_the_set_passes_its_verify_script(folder: Path) -> None:
    done = subprocess.run([sys.executable, "verify.py"], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().endswith("OK")
