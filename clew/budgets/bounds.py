"""Clamping numeric bounds: out-of-range values are never an error, and the applied value is reported.

A bounded argument declares its range once, as metadata of its type::

    top_k: Annotated[int, Clamp(1, 50)] = 20

and both what a tool applies (``Args.clamped``) and what its JSON schema tells a caller
(``"(1-50; clamped)"`` after the field's description) are read from that ``Clamp``.
"""

from __future__ import annotations

from dataclasses import dataclass


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


@dataclass(frozen=True, slots=True)
class Clamp:
    """The range of a bounded integer argument; values outside it are clamped, not refused."""

    low: int
    high: int

    def __call__(self, value: int) -> int:
        return clamp(value, self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}; clamped"


MAX_QUERY_CHARS = 10_000
"""The longest query text a search or a retrieval request takes (a question, not a document)."""
MAX_LIST_ITEMS = 1_000
"""The most values one list argument takes: ids and keys to exclude, a terms filter's values."""
MAX_CLAUSES = 100
"""The most clauses in one list of a bool filter (must, should, must_not)."""
MAX_FILTER_CLAUSES = 1_000
"""The most clauses in one filter, counted over every bool list at every depth."""
MAX_FILTER_DEPTH = 8
"""How deep bool filters may nest. Lengths and counts are refused, not clamped: past one, the
request is an input error naming the field and the limit, on every surface (the one request
model checks it)."""
