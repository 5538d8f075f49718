"""How a bulk write raises DuckDB's ``checkpoint_threshold`` and puts it back (``Corpus.deferred_checkpoint``)."""

from __future__ import annotations

import re
from functools import cache

import duckdb

BULK_CHECKPOINT_THRESHOLD = "256MB"
"""``checkpoint_threshold`` inside ``Corpus.deferred_checkpoint`` (DuckDB's default: 16 MiB).

Bounded, because what a checkpoint has not yet written stays in memory: with no bound at all
a 300,000-chunk ingest peaked about 30% higher (docs/measurements/ingest-2026-12-04.md)."""

_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?) ?(bytes|[KMGT]i?B)")


def size_bytes(rendered: str) -> float | None:
    """A size setting as DuckDB shows or takes it ('15.2 MiB', '256MB', '1000 bytes'), in bytes; None if not one."""
    match = _SIZE.fullmatch(rendered.strip())
    if match is None:
        return None
    number, unit = float(match[1]), match[2]
    if unit == "bytes":
        return number
    return number * float((1024 if "i" in unit else 1000) ** ("KMGT".index(unit[0]) + 1))


@cache
def default_setting(name: str) -> str:
    """DuckDB's default for the setting ``name``, as a new in-memory database renders it.

    Read once a process: opening a database to ask costs about 12 ms of CPU, and the bulk writes, the
    compaction and the held postings ask before each run (an ingest of a few files took that much again)."""
    with duckdb.connect() as fresh:
        row = fresh.execute(f"SELECT current_setting('{name}')").fetchone()
    return str(row[0]) if row is not None else ""


def raising(found: str) -> tuple[str, str] | None:
    """The statements that raise the threshold from ``found`` (its current rendering) and restore it.

    None when ``found`` is already at least the bulk threshold (a user's larger setting is left
    alone) or is not a size this knows. DuckDB shows the setting truncated to one decimal ('16MB'
    reads '15.2 MiB', and setting '15.2 MiB' reads '15.1 MiB'), so the default is restored by
    RESET and any other value by the middle of what its rendering stands for, which reads back
    the same however often it is restored.
    """
    size, bulk = size_bytes(found), size_bytes(BULK_CHECKPOINT_THRESHOLD)
    match = _SIZE.fullmatch(found.strip())
    if size is None or bulk is None or match is None or size >= bulk:
        return None
    if found == default_setting("checkpoint_threshold"):
        restore = "RESET checkpoint_threshold"
    else:
        number, unit = match[1], match[2]
        restore = f"SET checkpoint_threshold = '{number + '5' if '.' in number else number} {unit}'"
    return f"SET checkpoint_threshold = '{BULK_CHECKPOINT_THRESHOLD}'", restore
