"""The order the test files run in: the slow install test first, then the longest files of the
last run first, so that pytest-xdist's workers (``--dist loadfile``) start the long files early
and finish together. Within a file, the collection order.

Each run records the seconds of every file it ran in pytest's cache (``.pytest_cache``, key
``clew/file-seconds``); a file it did not run keeps its last figure, a new file counts as 0 s.
Where the cache has no figure for a file (a fresh clone, as in CI), ``tests/file-seconds.json``
gives it: the files of 4 s or more in one full run (a fresh clone, 2 workers on a quiet 2-core
machine), from that run's cache; without it a fresh clone ran them in collection order, the
benchmark scripts' file near the end. Under xdist the controller reads the figures once and hands them to every worker,
so that all of them order the same collection the same way.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

KEY = "clew/file-seconds"
KNOWN = Path(__file__).with_name("file-seconds.json")


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def last_seconds(config: pytest.Config) -> dict[str, float]:
    """The seconds of each file in the last runs (a worker has them from its controller)."""
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        return dict(workerinput.get(KEY, {}))
    cache = getattr(config, "cache", None)
    known: dict[str, float] = json.loads(KNOWN.read_text(encoding="utf-8")) if KNOWN.is_file() else {}
    return {**known, **(cache.get(KEY, {}) if cache is not None else {})}


class FileSeconds:
    """Adds up the seconds of each file's setups, calls and teardowns; stores them at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self) -> None:
        cache = getattr(self.config, "cache", None)
        if cache is None or not self.seconds:
            return
        recorded = last_seconds(self.config)
        recorded.update({path: round(seconds, 2) for path, seconds in self.seconds.items()})
        cache.set(KEY, dict(sorted(recorded.items())))


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) records
        config.pluginmanager.register(FileSeconds(config), "clew-file-seconds")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist's controller, for each worker it starts: the figures that worker orders by."""
    node.workerinput[KEY] = last_seconds(node.config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seconds = last_seconds(config)
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None, -seconds.get(file_of(item.nodeid), 0.0)))
