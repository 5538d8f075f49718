"""Counts the child processes a test run starts (issue 41, task T8): with this folder on ``PYTHONPATH`` and
``CLEW_CHILD_CPU`` naming a file, every Python process that starts with this environment appends one JSON line
to that file as it ends (its exit handlers, ``os._exit``, and the children ``os.fork`` makes): its argv, its CPU
(user + system), the CPU its imports took (the outermost imports, timed), its wall time and the test that was
running (``PYTEST_CURRENT_TEST``, inherited). A process killed by a signal, or started with another environment
or another ``sitecustomize`` first on the path, writes nothing. ``scripts/child_cpu_report.py`` sums the lines
by kind. Without ``CLEW_CHILD_CPU`` it does nothing."""

from __future__ import annotations

import atexit
import importlib._bootstrap as bootstrap
import json
import os
import resource
import sys
import time
from typing import Any

_OUT = os.environ.get("CLEW_CHILD_CPU")


def _install(out: str) -> None:
    started = time.monotonic()
    state = {"depth": 0, "imports": 0.0, "since": 0.0}
    find_and_load = bootstrap._find_and_load  # type: ignore[attr-defined]

    def timed(name: str, import_: Any) -> Any:
        if state["depth"] == 0:
            state["since"] = time.process_time()
        state["depth"] += 1
        try:
            return find_and_load(name, import_)
        finally:
            state["depth"] -= 1
            if state["depth"] == 0:
                state["imports"] += time.process_time() - state["since"]

    bootstrap._find_and_load = timed  # type: ignore[attr-defined]
    first = os.getpid()
    os.register_at_fork(after_in_child=lambda: state.update(imports=0.0))

    def record() -> None:
        own = resource.getrusage(resource.RUSAGE_SELF)
        waited = resource.getrusage(resource.RUSAGE_CHILDREN)
        row = {"argv": list(sys.orig_argv), "sys_argv": list(sys.argv), "forked": os.getpid() != first,
               "cpu": own.ru_utime + own.ru_stime, "children": waited.ru_utime + waited.ru_stime,
               "imports": state["imports"], "wall": time.monotonic() - started,
               "test": os.environ.get("PYTEST_CURRENT_TEST", "")}
        with open(out, "a", encoding="utf-8") as lines:
            lines.write(json.dumps(row) + "\n")

    atexit.register(record)
    real_exit = os._exit

    def exit_recorded(status: int) -> None:  # clew's one-shot commands end so, skipping the exit handlers
        try:
            record()
        finally:
            real_exit(status)

    os._exit = exit_recorded  # type: ignore[assignment]


if _OUT:
    _install(_OUT)
