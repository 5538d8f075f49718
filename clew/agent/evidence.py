"""The evidence pack of a run: what it took, in order, never the same text twice.

Documentation repeats itself (npm's docs print the same ``save-exact`` paragraph on every
command page that takes the option): a passage whose text is already in the pack, up to
whitespace, is a duplicate and is neither added nor charged. So is a near-copy: a passage of another document
that shares ``NEAR_COPY_SHARE`` of its word pairs with one taken (a documentation's versions side by side, the
same paragraph under ``latest/``, ``v1.1/`` and ``v2.0/``: a tenth of Flask's packs, task U31). Passages the walk
takes are fetched in full, so they are recorded in the run's citation ledger; passages a free run only
saw in a tool result are kept as hits that may not be cited.
"""

from __future__ import annotations

import re
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


NEAR_COPY_SHARE = 0.9
"""The share of a passage's word pairs that one taken from another document holds, for the passage to be its
near-copy (measured as pre-registered, task U31: >= 0.9)."""
NEAR_COPY_MIN_PAIRS = 10
"""Fewer word pairs (a heading, a one-line example) and a passage is no near-copy of anything."""
_WORD = re.compile(r"\w+")


WORD_PAIRS_CACHED = 1024
"""Passages whose word pairs are kept between calls: a 1,000-character passage's set takes about 25 KB, so 1,024
hold about 25 MB of a long-running server (16,384 held about 400 MB)."""


@lru_cache(maxsize=WORD_PAIRS_CACHED)
def word_pairs(text: str) -> frozenset[tuple[str, str]]:
    """The pairs of consecutive words of a passage, lower-cased."""
    words = _WORD.findall(text.lower())
    return frozenset(zip(words, words[1:]))


@dataclass
class Pack:
    hits: dict[str, EvidenceHit] = field(default_factory=dict)
    ledger: EvidenceLedger = field(default_factory=EvidenceLedger)
    texts: dict[str, str] = field(default_factory=dict)
    """Text key -> the evidence id that holds it."""
    pairs: dict[str, tuple[str, frozenset[tuple[str, str]]]] = field(default_factory=dict)
    """Evidence id -> its document's key and word pairs, for each taken passage of ``NEAR_COPY_MIN_PAIRS`` or more."""

    def holds(self, key: str, evidence_id: str) -> bool:
        """Whether another passage with this text key is already in the pack."""
        holder = self.texts.get(key)
        return holder is not None and holder != evidence_id

    def duplicate_of(self, passage: Passage) -> str | None:
        """The id of a taken passage with the same text, if any (itself excluded)."""
        holder = self.texts.get(text_key(passage.text))
        return holder if holder is not None and holder != passage.evidence_id else None

    def near_copy_of(self, text: str, document_key: str) -> str | None:
        """The id of a taken passage of another document holding ``NEAR_COPY_SHARE`` of this text's word pairs."""
        mine = word_pairs(text)
        if len(mine) < NEAR_COPY_MIN_PAIRS:
            return None
        for evidence_id, (key, theirs) in self.pairs.items():
            if key != document_key and len(mine & theirs) >= NEAR_COPY_SHARE * len(mine):
                return evidence_id
        return None

    def take(self, hit: EvidenceHit) -> None:
        """A passage fetched in full: citable from now on."""
        self.ledger.record(hit.evidence_id, len(hit.text))
        self.hits[hit.evidence_id] = hit
        self.texts.setdefault(text_key(hit.text), hit.evidence_id)
        if len(pairs := word_pairs(hit.text)) >= NEAR_COPY_MIN_PAIRS:
            self.pairs[hit.evidence_id] = (hit.document_key, pairs)

    def give_back(self, evidence_id: str) -> EvidenceHit:
        """A taken passage leaves the pack (the walk's floor gave its room to a better one,
        ``clew.agent.floor``): no longer citable, and its text may be taken again."""
        hit = self.hits.pop(evidence_id)
        self.ledger.forget(evidence_id)
        self.pairs.pop(evidence_id, None)
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
