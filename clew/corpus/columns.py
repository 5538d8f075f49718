"""Arrow arrays from Python column lists, built from buffers: ``pyarrow.array`` imports pandas.

``pyarrow.array`` asks, of every value it is handed (a list, a numpy array), whether it is a
pandas object, which imports pandas when it is installed (0.29 s of an ingest of the SQLite
documentation). Here each column becomes an Arrow array through ``Array.from_buffers``: numbers
and booleans through numpy, strings as UTF-8 bytes and offsets, lists as offsets and a child
column. A column's type is that of its first value that is not None (an empty list: that of the
first non-empty one); None is null. Only writers use it (``clew.corpus.sql``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from operator import is_
from typing import Any

import numpy as np
import pyarrow as pa

from clew.errors import CorpusError


def arrow_table(columns: Mapping[str, Any]) -> pa.Table:
    """The columns (lists, tuples, ranges or 1-D numpy arrays of equal length) as one Arrow table."""
    return pa.Table.from_arrays([arrow_array(name, values) for name, values in columns.items()],
                                names=list(columns))


def arrow_array(name: str, values: Any) -> pa.Array:
    """One column as an Arrow array (``name``: the column, for the error of a value of no known type)."""
    if isinstance(values, np.ndarray):
        return _numpy_array(name, values, None)
    cells = values if isinstance(values, (list, tuple)) else list(values)
    first = next((v for v in cells if v is not None), None)
    if first is None:
        return pa.nulls(len(cells))
    # by identity, in C (``None in cells`` would compare each cell with ==)
    valid = np.array([v is not None for v in cells], dtype=bool) if any(map(is_, cells, repeat(None))) else None
    if isinstance(first, str):
        return _strings(cells, valid)
    if isinstance(first, (bool, np.bool_)):
        return _numpy_array(name, np.array([bool(v) for v in cells] if valid is not None else cells, dtype=bool), valid)
    if isinstance(first, (int, np.integer)):
        return _numpy_array(name, np.array([0 if v is None else v for v in cells] if valid is not None else cells,
                                           dtype=np.int64), valid)
    if isinstance(first, (float, np.floating)):
        return _numpy_array(name, np.array([0.0 if v is None else v for v in cells] if valid is not None else cells,
                                           dtype=np.float64), valid)
    if isinstance(first, (list, tuple)):
        return _lists(name, cells, valid)
    raise CorpusError(f"column {name}: no Arrow type for a {type(first).__name__} value")


def _bitmap(valid: np.ndarray | None) -> pa.Buffer | None:
    return None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))


def _numpy_array(name: str, values: np.ndarray, valid: np.ndarray | None) -> pa.Array:
    if values.ndim != 1:
        raise CorpusError(f"column {name}: a numpy column must be one-dimensional, got shape {values.shape}")
    if values.dtype == np.bool_:
        return pa.Array.from_buffers(pa.bool_(), len(values), [_bitmap(valid), _bitmap(values)])
    if values.dtype.kind not in "iuf":
        raise CorpusError(f"column {name}: no Arrow type for numpy dtype {values.dtype}")
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [_bitmap(valid), pa.py_buffer(values)])


def _offsets(lengths: np.ndarray) -> pa.Buffer:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return pa.py_buffer(offsets)


def _strings(cells: Sequence[Any], valid: np.ndarray | None) -> pa.Array:
    if valid is not None:
        cells = ["" if v is None else v for v in cells]
    joined = "".join(cells)
    # a string's UTF-8 bytes are its characters when all are ASCII (``isascii`` is a flag, not a scan):
    # one encode of the whole column, no bytes object per cell
    sized = cells if joined.isascii() else map(str.encode, cells)
    lengths = np.fromiter(map(len, sized), dtype=np.int64, count=len(cells))
    return pa.Array.from_buffers(pa.large_string(), len(cells),
                                 [_bitmap(valid), _offsets(lengths), pa.py_buffer(joined.encode("utf-8"))])


def _lists(name: str, cells: Sequence[Any], valid: np.ndarray | None) -> pa.Array:
    present = cells if valid is None else [() if v is None else v for v in cells]
    lengths = np.fromiter(map(len, present), dtype=np.int64, count=len(cells))
    child = arrow_array(name, list(chain.from_iterable(present)))
    return pa.Array.from_buffers(pa.large_list(child.type), len(cells), [_bitmap(valid), _offsets(lengths)],
                                 children=[child])
