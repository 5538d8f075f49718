"""Byte-compile, once and on every core, the modules that collecting the tests imports.

A fresh clone (as in CI) has no bytecode: uv installs without compiling it, and compiling
everything at install costs twice what the tests import. Without this, each pytest-xdist worker
imports every test module while it collects and compiles what it imports: about 20 s of CPU a
worker for the same 5,000 files (litellm and openai are 2,100 of them), the same work twice, and
no test starts before every worker has collected. ``make test`` runs this first: it compiles the
files listed in ``tests/compiled-modules.txt`` (paths under site-packages) and ``clew/`` and
``tests/``, skipping those whose bytecode is current (a warm clone: a fraction of a second).

``python tests/precompile.py --record`` rewrites the list from what a collection imports.
"""

from __future__ import annotations

import compileall
import json
import os
import subprocess
import sys
import sysconfig
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LISTED = Path(__file__).with_name("compiled-modules.txt")
SITE = Path(sysconfig.get_paths()["purelib"])


def compile_files(paths: list[str]) -> None:
    for path in paths:  # a file that does not compile is left to the import that meets it, and its error
        compileall.compile_file(path, quiet=2)


def targets() -> list[str]:
    listed = [str(SITE / line) for line in LISTED.read_text(encoding="utf-8").splitlines() if line]
    own = [str(path) for folder in ("clew", "tests") for path in sorted((ROOT / folder).rglob("*.py"))]
    return [path for path in listed if os.path.isfile(path)] + own  # a listed file since removed is passed over


def precompile() -> None:
    if sys.dont_write_bytecode:
        return  # nothing would be written (PYTHONDONTWRITEBYTECODE): the tests compile as they import
    paths = targets()
    workers = os.cpu_count() or 1
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(compile_files, [paths[i::workers] for i in range(workers)]))


RECORD = """
import json, sys
import pytest
pytest.main(["--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"])
print(json.dumps([getattr(m, "__file__", None) for m in list(sys.modules.values())]))
"""


def record() -> None:
    """The site-packages files that a collection of the tests imports, as paths under site-packages."""
    done = subprocess.run([sys.executable, "-c", RECORD], cwd=ROOT, capture_output=True, text=True, check=True)
    files = json.loads(done.stdout.splitlines()[-1])
    under = sorted({Path(f).relative_to(SITE).as_posix() for f in files
                    if f and f.endswith(".py") and Path(f).is_relative_to(SITE)})
    LISTED.write_text("".join(f"{line}\n" for line in under), encoding="utf-8")
    print(f"{len(under)} files listed in {LISTED.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
    elif sys.argv[1:]:
        sys.exit(f"usage: python {Path(__file__).name} [--record]")
    else:
        precompile()
