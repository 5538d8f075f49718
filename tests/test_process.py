"""``clew._process``: the executable's own process freezes what a command imported, freezes everything at its
exit, and may end without the teardown; called from Python, nothing changes."""

import gc
import json
import subprocess
import sys
from pathlib import Path

from clew import _process
from tests.conftest import python_output


def test_outside_the_executable_settling_freezes_nothing() -> None:
    assert not _process.PROCESS.own  # pytest's process is not the executable's
    frozen = gc.get_freeze_count()
    _process.settled()
    assert gc.get_freeze_count() == frozen


def test_in_the_executables_process_settling_freezes_what_was_imported() -> None:
    out = python_output("import gc\nfrom clew import _process\nbefore = gc.get_freeze_count()\n"
                        "_process.own_process()\n_process.settled()\nprint(before, gc.get_freeze_count())")
    before, after = map(int, out.split())
    assert before == 0 and after > 1000


def test_the_executables_process_freezes_everything_at_its_exit_and_every_exit_handler_still_runs() -> None:
    """The teardown's collections walk nothing the process made (``no_final_collections``): the freeze runs at the
    exit, after the handlers registered later and before those registered earlier, each of which still runs."""
    out = python_output("import atexit, gc\n"
                        "atexit.register(lambda: print('earlier', gc.get_freeze_count() > 1000))\n"
                        "from clew import _process\n_process.own_process()\n"
                        "atexit.register(lambda: print('later', gc.get_freeze_count()))\n")
    assert out.split() == ["later", "0", "earlier", "True"]


def test_an_ask_without_a_model_ends_with_its_status_and_its_whole_output(tmp_path: Path) -> None:
    from clew.corpus.ingest.api import ingest_paths
    from clew.corpus.store import Corpus

    (tmp_path / "guide.md").write_text("# Guide\n\n## Timeouts\n\nThe busy timeout waits.\n", encoding="utf-8")
    db = tmp_path / "guide.duckdb"
    with Corpus(db) as corpus:
        ingest_paths(corpus, [tmp_path], glob="*.md")
    for query, status, code in (("busy timeout", "ok", 0), ("zebra", "incomplete", 0), ("  ", "invalid", 2)):
        done = subprocess.run([sys.executable, "-m", "clew", "ask", query, "--db", str(db), "--json"],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert done.returncode == code, done.stderr
        assert json.loads(done.stdout)["status"] == status  # flushed before the process ended
    shown = subprocess.run([sys.executable, "-m", "clew", "ask", "busy timeout", "--db", str(db)],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert shown.returncode == 0 and "The busy timeout waits." in shown.stdout
