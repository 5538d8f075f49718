"""Clamping numeric bounds: out-of-range values are never an error, and the applied value is reported."""

from __future__ import annotations


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))
