"""Evidence ids: opaque to callers, versioned, decodable without a query.

Shape: ``ev1:<kind>:<document>:<version>[:<ordinal>]`` where kind is ``c`` (a chunk, i.e. a
passage), ``s`` (a structure node: a section or a table) or ``d`` (a whole document
version). ``document`` is the corpus' integer id of the document key, ``version`` counts from
1, ``ordinal`` is the chunk's or node's position inside that version. Because the version is
part of the id, an id keeps naming the same text after the document changes.

``decode`` tells a malformed id (raises :class:`MalformedEvidenceId`) from a well-formed
one; whether a well-formed id names something that exists, and may be read, is the store's
question, not this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from clew.errors import MalformedEvidenceId

PREFIX = "ev1"
Kind = Literal["c", "s", "d"]
KINDS: dict[str, Kind] = {"c": "c", "s": "s", "d": "d"}
_PATTERN = re.compile(r"ev1:(?P<kind>[csd]):(?P<doc>\d{1,18}):(?P<version>\d{1,9})(?::(?P<ordinal>\d{1,9}))?")


@dataclass(frozen=True, slots=True)
class EvidenceId:
    kind: Kind
    document: int
    version: int
    ordinal: int | None = None

    def __str__(self) -> str:
        head = f"{PREFIX}:{self.kind}:{self.document}:{self.version}"
        return head if self.ordinal is None else f"{head}:{self.ordinal}"


def chunk_id(document: int, version: int, ordinal: int) -> str:
    return f"{PREFIX}:c:{document}:{version}:{ordinal}"


def node_id(document: int, version: int, ordinal: int) -> str:
    return f"{PREFIX}:s:{document}:{version}:{ordinal}"


def document_id(document: int, version: int) -> str:
    return f"{PREFIX}:d:{document}:{version}"


def decode(value: object) -> EvidenceId:
    """Parse an evidence id, or raise ``MalformedEvidenceId`` saying what is wrong."""
    if not isinstance(value, str):
        raise MalformedEvidenceId(value, f"an evidence id must be a string, not {type(value).__name__}")
    text = value.strip()
    if not text:
        raise MalformedEvidenceId(value, "the evidence id is blank")
    match = _PATTERN.fullmatch(text)
    if match is None:
        raise MalformedEvidenceId(value, "expected ev1:<c|s|d>:<document>:<version>[:<ordinal>]")
    kind = KINDS[match["kind"]]
    ordinal = match["ordinal"]
    if (kind == "d") != (ordinal is None):
        raise MalformedEvidenceId(value, f"kind {kind!r} {'takes no' if kind == 'd' else 'needs an'} ordinal")
    version = int(match["version"])
    if version < 1:
        raise MalformedEvidenceId(value, "versions count from 1")
    return EvidenceId(kind, int(match["doc"]), version, None if ordinal is None else int(ordinal))


def is_well_formed(value: object) -> bool:
    try:
        decode(value)
    except MalformedEvidenceId:
        return False
    return True
