"""Clamping numeric bounds: out-of-range values are never an error, and the applied value is reported.

A bounded argument or request field declares its range once, as metadata of its type::

    top_k: Annotated[int, Clamp(1, 50)] = 20

and what a tool or a request applies (:func:`clamped`), what its JSON schema tells a caller
(``"(1-50; clamped)"`` after the field's description), the tool tables and the configuration's
checks are all read from that ``Clamp`` (:func:`bounds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from pydantic import BaseModel


@overload
def clamp(value: int, low: int, high: int) -> int: ...
@overload
def clamp(value: float, low: float, high: float) -> float: ...
def clamp(value: float, low: float, high: float) -> float:
    """``value`` inside ``[low, high]``, of its own type (seconds stay a float)."""
    return type(value)(max(low, min(high, value)))


@dataclass(frozen=True, slots=True)
class Clamp:
    """The range of a bounded number (a count, or seconds); values outside it are clamped, not refused."""

    low: int
    high: int

    @overload
    def __call__(self, value: int) -> int: ...
    @overload
    def __call__(self, value: float) -> float: ...
    def __call__(self, value: float) -> float:
        return clamp(value, self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}; clamped"


def bounds(model: type[BaseModel]) -> dict[str, Clamp]:
    """Each bounded field of ``model`` and its range, from the field type's ``Clamp`` metadata."""
    return {name: m for name, info in model.model_fields.items() for m in info.metadata if isinstance(m, Clamp)}


def clamped(values: BaseModel) -> dict[str, Any]:
    """The bounded fields' values after clamping, each of its field's type (a field left None has
    no value to clamp)."""
    return {name: bound(value) for name, bound in bounds(type(values)).items()
            if (value := getattr(values, name)) is not None}


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
