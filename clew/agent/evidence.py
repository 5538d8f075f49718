"""The evidence pack of a run: what it took, in order, never the same text twice.

Documentation repeats itself (npm's docs print the same ``save-exact`` paragraph on every
command page that takes the option): a passage whose text is already in the pack, up to
whitespace, is a duplicate and is neither added nor charged. Passages the walk takes are
fetched in full, so they are recorded in the run's citation ledger; passages a free run only
saw in a tool result are kept as hits that may not be cited.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from clew.agent.result import EvidenceHit
from clew.corpus.reader import Passage
from clew.navigation.ledger import EvidenceLedger


@lru_cache(maxsize=16384)
def text_key(text: str) -> str:
    """What makes two passages the same text: their words, whitespace aside (kept for the passages
    that recur: every candidate of every walk asks it)."""
    return " ".join(text.split())


@dataclass
class Pack:
    hits: dict[str, EvidenceHit] = field(default_factory=dict)
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)
    texts: dict[str, str] = field(default_factory=dict)
    """Text key -> the evidence id that holds it."""

    def holds(self, key: str, evidence_id: str) -> bool:
        """Whether another passage with this text key is already in the pack."""
        holder = self.texts.get(key)
        return holder is not None and holder != evidence_id

    def duplicate_of(self, passage: Passage) -> str | None:
        """The id of a taken passage with the same text, if any (itself excluded)."""
        holder = self.texts.get(text_key(passage.text))
        return holder if holder is not None and holder != passage.evidence_id else None

    def take(self, hit: EvidenceHit) -> None:
        """A passage fetched in full: citable from now on."""
        self.ledger.record(hit.evidence_id, len(hit.text))
        self.hits[hit.evidence_id] = hit
        self.texts.setdefault(text_key(hit.text), hit.evidence_id)

    def give_back(self, evidence_id: str) -> EvidenceHit:
        """A taken passage leaves the pack (the walk's floor gave its room to a better one,
        ``clew.agent.floor``): no longer citable, and its text may be taken again."""
        hit = self.hits.pop(evidence_id)
        self.ledger.forget(evidence_id)
        key = text_key(hit.text)
        if self.texts.get(key) == evidence_id:
            del self.texts[key]
        return hit

    def saw(self, hit: EvidenceHit) -> None:
        """A passage a tool showed; it replaces nothing already fetched."""
        known = self.hits.get(hit.evidence_id)
        if known is None or (hit.fetched and not known.fetched):
            self.hits[hit.evidence_id] = hit
            if hit.fetched:
                self.texts.setdefault(text_key(hit.text), hit.evidence_id)

    @property
    def fetched(self) -> list[EvidenceHit]:
        """Hits fetched in full, in the order they were first fetched."""
        return [self.hits[i] for i in self.ledger.ids if i in self.hits]
