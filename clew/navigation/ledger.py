"""The evidence ledger: which passages one run has fetched in full, so may cite.

A module of its own, without the corpus or pydantic, so that a tool context (which always
carries one) costs nothing to create; ``fetch_evidence`` (``clew.navigation.evidence``)
fills it and ``check_citations`` reads it.
"""

from __future__ import annotations

import threading


class EvidenceLedger:
    """Which passages one run has fetched in full (so may cite). Thread-safe; one per run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._full: dict[str, int] = {}

    def record(self, evidence_id: str, chars: int) -> None:
        with self._lock:
            self._full[evidence_id] = chars

    def forget(self, evidence_id: str) -> None:
        """No longer fetched: a walk gave the passage's room to another (``clew.agent.floor``)."""
        with self._lock:
            self._full.pop(evidence_id, None)

    def fetched(self, evidence_id: str) -> bool:
        with self._lock:
            return evidence_id in self._full

    @property
    def ids(self) -> list[str]:
        """Ids fetched in full, in the order they were first fetched."""
        with self._lock:
            return list(self._full)

    def __len__(self) -> int:
        with self._lock:
            return len(self._full)
