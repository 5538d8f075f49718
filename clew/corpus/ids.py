"""Evidence ids: opaque to callers, versioned, decodable without a query.

Shape: ``ev1:<kind>:<document>:<version>[:<ordinal>]`` where kind is ``c`` (a chunk, i.e. a
passage), ``s`` (a structure node: a section or a table) or ``d`` (a whole document
version). ``document`` is the corpus' integer id of the document key, ``version`` counts from
1, ``ordinal`` is the chunk's or node's position inside that version. Because the version is
part of the id, an id keeps naming the same text after the document changes.

Each id has one spelling: its numbers are ASCII digits without leading zeros (``0`` itself
is a number). ``ev1:c:0001:1:0``, or ``ev1:c:1:1:0`` with a fullwidth or an Arabic-Indic
digit, is malformed, never another name of ``ev1:c:1:1:0``. Every surface (Python, the
CLI, REST, MCP, the agent's citations) reads ids through ``decode``.

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
SHAPE = "expected ev1:<c|s|d>:<document>:<version>[:<ordinal>]"
Kind = Literal["c", "s", "d"]
KINDS: dict[str, Kind] = {"c": "c", "s": "s", "d": "d"}
_PATTERN = re.compile(r"ev1:(?P<kind>[csd]):(?P<doc>[^:]+):(?P<version>[^:]+)(?::(?P<ordinal>[^:]+))?")
_NUMBER = re.compile(r"0|[1-9][0-9]*", re.ASCII)
_DIGITS = {"document": 18, "version": 9, "ordinal": 9}
"""The most digits each number of an id may have."""


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
        raise MalformedEvidenceId(value, SHAPE)
    kind = KINDS[match["kind"]]
    if (kind == "d") != (match["ordinal"] is None):
        raise MalformedEvidenceId(value, f"kind {kind!r} {'takes no' if kind == 'd' else 'needs an'} ordinal")
    document = _number(value, "document", match["doc"])
    version = _number(value, "version", match["version"])
    if version < 1:
        raise MalformedEvidenceId(value, "versions count from 1")
    ordinal = None if match["ordinal"] is None else _number(value, "ordinal", match["ordinal"])
    return EvidenceId(kind, document, version, ordinal)


def _number(value: str, part: str, text: str) -> int:
    """One number of an id, in its one spelling: ASCII digits, no leading zeros, at most ``_DIGITS[part]``."""
    if _NUMBER.fullmatch(text) is None:
        raise MalformedEvidenceId(value, f"{SHAPE} with numbers in ASCII digits 0-9, no leading zeros; "
                                         f"the {part} is {text!r}")
    if len(text) > _DIGITS[part]:
        raise MalformedEvidenceId(value, f"the {part} has more than {_DIGITS[part]} digits")
    return int(text)


def is_well_formed(value: object) -> bool:
    try:
        decode(value)
    except MalformedEvidenceId:
        return False
    return True
