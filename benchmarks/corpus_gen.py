"""Generate a Markdown corpus of a given number of chunks (for benchmarks)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

_SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "ou")]
# a pseudo-vocabulary of pronounceable words (about 1.5 tokens each), most frequent first
WORDS = sorted(
    {a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in ("", "n", "r", "s")}, key=lambda w: (len(w), w)
)


_CUMULATIVE = list(itertools.accumulate(1.0 / rank for rank in range(1, len(WORDS) + 1)))


def zipf_words(rng: random.Random, n: int) -> list[str]:
    """Rank r is drawn with probability proportional to 1/r: a few very common terms, a long tail."""
    return rng.choices(WORDS, cum_weights=_CUMULATIVE, k=n)


def write_markdown_corpus(
    folder: Path, chunks: int, *, sections_per_doc: int = 20, words_per_section: int = 55, seed: int = 7
) -> int:
    """Write documents whose sections each hold one paragraph that fits one default chunk."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    docs = (chunks + sections_per_doc - 1) // sections_per_doc
    written = 0
    for d in range(docs):
        parts = [f"# Document {d}\n"]
        for s in range(sections_per_doc):
            if written >= chunks:
                break
            parts.append(f"## Section {s} of {d}\n\n{' '.join(zipf_words(rng, words_per_section))}.\n")
            if s % 5 == 4:
                parts.append(f"See [section one](doc{(d + 1) % docs:06d}.md#section-1-of-{(d + 1) % docs}).\n")
            written += 1
        (folder / f"doc{d:06d}.md").write_text("\n".join(parts))
    return docs
