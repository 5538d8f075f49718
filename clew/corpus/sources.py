"""Find, read and decode the files to ingest.

A folder is walked recursively with a glob; a document's key is its path relative to the
folder it was found in (a file named directly keeps its own name). Bytes that cannot be
ingested as they are become a ``Problem`` naming the file: empty and binary files are
skipped, undecodable bytes are replaced and the file is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Format = Literal["markdown", "html", "text", "jsonl", "pdf", "docx"]

SUFFIXES: dict[str, Format] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".txt": "text",
    ".text": "text",
    ".rst": "text",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".pdf": "pdf",
    ".docx": "docx",
}
BINARY_FORMATS = frozenset({"pdf", "docx"})
"""Formats read as bytes (their parsers decode them); every other format is UTF-8 text."""


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    message: str
    skipped: bool
    """True when nothing of the file (or line) was ingested."""
    warning: bool = False
    """Ingested, but part of it could not be taken (a scanned page without text); not a repair."""


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    path: str
    format: Format
    content: str | bytes
    """Text, or the file's bytes for ``BINARY_FORMATS``."""


def find_files(paths: list[Path], glob: str) -> Iterator[tuple[Path, str]]:
    """Yield ``(file, key)`` for every file under ``paths``, sorted within each folder."""
    for root in paths:
        if root.is_dir():
            for file in sorted(root.glob(glob)):
                if file.is_file():
                    yield file, file.relative_to(root).as_posix()
        else:
            yield root, root.name


def read_source(file: Path, key: str) -> tuple[Source | None, Problem | None]:
    """Read one file; a skipped file gives ``(None, problem)``."""
    name = str(file)
    fmt = SUFFIXES.get(file.suffix.lower())
    if fmt is None:
        return None, Problem(name, f"unsupported file type {file.suffix or '(none)'!r}", True)
    try:
        data = file.read_bytes()
    except OSError as error:
        return None, Problem(name, f"cannot read: {error.strerror or error}", True)
    if not data.strip():
        return None, Problem(name, "empty file", True)
    if fmt in BINARY_FORMATS:
        return Source(key, name, fmt, data), None
    if b"\x00" in data[:8192]:
        return None, Problem(name, "binary file (NUL bytes)", True)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        content = data.decode("utf-8")
        problem = None
    except UnicodeDecodeError as error:
        content = data.decode("utf-8", errors="replace")
        bad = content.count("\ufffd")
        problem = Problem(
            name, f"not valid UTF-8 (first bad byte at {error.start}); replaced {bad} undecodable byte(s)", False
        )
    return Source(key, name, fmt, content), problem
