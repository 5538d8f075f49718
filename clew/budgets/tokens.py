"""Token counting with tiktoken, offline.

Every budget in clew (chunk sizes, context budgets) is measured with one encoding,
``cl100k_base``, whose file litellm ships (see ``clew._offline``). A process that has not built
the encoding yet counts short ASCII texts from the cached rank table instead (``ascii_bpe``:
the same counts), so that one that counts little (a cold ``clew ask``) never builds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from clew import _offline  # noqa: F401  (sets TIKTOKEN_CACHE_DIR before the first load)
from clew.budgets import bpe_cache
from clew.budgets.ascii_bpe import CL100K_PAT, AsciiCounter

if TYPE_CHECKING:
    import tiktoken

ENCODING_NAME = "cl100k_base"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The encoding, loaded once per process, from clew's cache of its ranks (``bpe_cache``)."""
    return bpe_cache.load(ENCODING_NAME)


ASCII_MERGES = 2_000
ASCII_CHARS = 200_000
"""Distinct pieces a process merges in Python (``ascii_bpe``), and characters it counts there,
before it loads tiktoken's encoding: a few short texts (a cold ``clew ask``'s extract: about 40
pieces in 3,400 characters) never load it; a process that counts much (an ingest, a server) soon
does, tiktoken being faster once built (about 20 ms of Python for 2,000 pieces, 70-140 ms to build)."""


@lru_cache(maxsize=1)
def _ascii_counter() -> AsciiCounter | None:
    table = bpe_cache.read_table(ENCODING_NAME)
    return AsciiCounter(table) if table is not None and table.pat_str == CL100K_PAT else None


def _count(text: str) -> int:
    """``len(encoding().encode_ordinary(text))``, by ``ascii_bpe`` while the encoding is not loaded
    (the same count: tested against tiktoken), else by tiktoken."""
    if encoding.cache_info().currsize == 0:
        counter = _ascii_counter()
        if counter is not None and counter.merged < ASCII_MERGES and counter.counted < ASCII_CHARS:
            tokens = counter.count(text)
            if tokens is not None:
                return tokens
    return len(encoding().encode_ordinary(text))


CACHED_CHARS = 8192
"""Texts up to this length keep their count (passages recur across runs: seeds, candidates)."""


def count_tokens(text: str) -> int:
    """Number of tokens in ``text`` (special-token strings are counted as plain text)."""
    if not text:
        return 0
    if len(text) <= CACHED_CHARS:
        return _count_cached(text)
    return _count(text)


class Counted(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def token_count(self) -> int: ...


def passage_tokens(passage: Counted) -> int:
    """A stored passage's tokens: the count its chunk was given at ingest, with this encoding over
    the same text (equal to ``count_tokens(passage.text)`` on every passage of both dev sets), so
    that a walk needs no encoding loaded (0.1-0.2 s of a cold ``clew ask``). A passage without a
    count (none stored) is counted."""
    if passage.token_count > 0 or not passage.text:
        return passage.token_count
    return count_tokens(passage.text)


@lru_cache(maxsize=16384)
def _count_cached(text: str) -> int:
    return _count(text)


WORDS_CACHED = 100_000
"""Words whose counts ``count_tokens_by_words`` keeps (emptied when full)."""


class _WordCounts(dict[str, int]):
    """A word (with the one space before it) -> its tokens; misses are counted (``__missing__``)."""

    def __missing__(self, word: str) -> int:
        if len(self) >= WORDS_CACHED:
            self.clear()
        tokens = self[word] = len(encoding().encode_ordinary(word)) if word else 0
        return tokens


_WORDS = _WordCounts()


def count_tokens_by_words(text: str) -> int:
    """``count_tokens(text)``, the sum of its words' counts: the text is cut after every line break
    that a character other than whitespace follows, and before every space that follows one; each
    word (with its leading space or trailing line break) is counted once per process, then looked up.

    Exact, because cl100k_base's pre-tokenizer (its ``pat_str``) always ends a piece there and BPE
    encodes each piece alone: no pattern takes a space after a character other than whitespace
    (letters and numbers stop at it, punctuation runs stop at whitespace and take only line breaks
    after them, the whitespace patterns hold only whitespace) nor anything but whitespace after a
    line break (``_Builder.clean_seam`` in ``clew.corpus.ingest.chunking``), and the patterns look neither
    back nor, outside whitespace runs, ahead; so the pieces of both sides are the pieces of the whole.
    A chunker counting every block paid tiktoken's regex over each word again (0.47 s for 20,000
    generated chunks, 0.21 s looked up); ``tests/budgets/test_tokens.py`` checks the equality.
    """
    lines = text.split("\n")
    blocks = [lines[0]]
    for line in lines[1:]:
        if line and not line[0].isspace():  # a cut: the line break ends the block before
            blocks[-1] += "\n"
            blocks.append(line)
        else:
            blocks[-1] += "\n" + line
    words: list[str] = []
    for block in blocks:
        parts = block.split(" ")
        words.append(parts[0])
        for part in parts[1:]:
            before = words[-1]
            if before and not before[-1].isspace():  # a cut: the space opens the next word
                words.append(" " + part)
            else:  # the space follows whitespace (or opens the text): it stays with what precedes it
                words[-1] = before + " " + part
    return sum(map(_WORDS.__getitem__, words))


BULK_TOKEN_MIN = 256
"""Fewer texts than this are counted word by word (``count_tokens_by_words``): the words of one document's
blocks repeat too little to pay for the arrays (its 24 blocks: 0.48 against 0.33 ms)."""
BULK_TOKEN_TEXTS = 8192
BULK_TOKEN_CHARS = 1 << 24
"""Texts, and their characters, whose words ``count_tokens_bulk`` cuts and tells apart in one step (Arrow's
string offsets are 32-bit; a step's arrays are a few bytes a character)."""

_SPACES: list[bool] = [chr(code).isspace() for code in range(128)]
"""Which ASCII characters ``str.isspace`` holds to be whitespace (``\\t\\n\\v\\f\\r``, ``\\x1c``-``\\x1f``, space)."""


def count_tokens_bulk(texts: Sequence[str]) -> list[int]:
    """``[count_tokens_by_words(text) for text in texts]``: the same counts, each text counted alone.

    The ASCII texts' words (``count_tokens_by_words``'s cuts: before a space that follows a character
    other than whitespace, after a line break that one follows, and at each text's ends) are found by
    numpy over all of them at once and told apart by Arrow in C, so each distinct word is looked up once
    for the whole list, not once per occurrence (a chunker's blocks repeat their words across documents:
    the 24,000 blocks of 20,000 generated chunks hold 1.2M words, 64,000 of them distinct). Any other
    text is counted by ``count_tokens_by_words``.
    """
    if len(texts) < BULK_TOKEN_MIN:
        return [count_tokens_by_words(text) for text in texts]
    counts = [0] * len(texts)
    step: list[int] = []
    chars = 0
    for index, text in enumerate(texts):
        if not text.isascii():
            counts[index] = count_tokens_by_words(text)
            continue
        if step and (len(step) >= BULK_TOKEN_TEXTS or chars + len(text) > BULK_TOKEN_CHARS):
            _count_ascii(texts, step, counts)
            step, chars = [], 0
        step.append(index)
        chars += len(text)
    if step:
        _count_ascii(texts, step, counts)
    return counts


def _count_ascii(texts: Sequence[str], positions: list[int], counts: list[int]) -> None:
    """Write ``count_tokens_by_words(texts[i])`` into ``counts[i]`` for each of ``positions`` (ASCII texts)."""
    # pyarrow.compute's kernels are called by name: importing pyarrow.compute builds a wrapper for
    # each (30-80 ms); strings become Arrow from their buffers (pyarrow.array imports pandas)
    import numpy as np
    import pyarrow as pa
    from pyarrow._compute import call_function

    data = "".join([texts[i] for i in positions]).encode("ascii")
    codes = np.frombuffer(data, dtype=np.uint8)
    size = len(codes)
    solid = ~np.array(_SPACES, dtype=bool)[codes]
    cut = np.zeros(size + 1, dtype=bool)
    cut[1:size] = (codes[1:] == 32) & solid[:-1]  # a space after a character other than whitespace opens a word
    cut[1:size] |= (codes[:-1] == 10) & solid[1:]  # a line break before such a character ends one
    ends = np.cumsum(np.fromiter(map(len, [texts[i] for i in positions]), dtype=np.int64, count=len(positions)))
    cut[0] = True
    cut[ends] = True
    cuts = np.flatnonzero(cut)
    words = pa.Array.from_buffers(pa.string(), len(cuts) - 1,
                                  [None, pa.py_buffer(cuts.astype(np.int32)), pa.py_buffer(data)])
    encoded = call_function("dictionary_encode", [words])
    width = encoded.indices.type.bit_width // 8
    which = np.frombuffer(encoded.indices.buffers()[1], dtype=f"<i{width}", count=len(words),
                          offset=encoded.indices.offset * width)
    # the distinct words as Arrow's dictionary holds them (its strings made in C: cutting each from the
    # texts at its first occurrence took 4x as long)
    distinct = encoded.dictionary.to_pylist()
    tokens = np.fromiter(map(_WORDS.__getitem__, distinct), dtype=np.int64, count=len(distinct))
    running = np.zeros(len(which) + 1, dtype=np.int64)
    np.cumsum(tokens[which], out=running[1:])
    bounds = np.searchsorted(cuts, np.concatenate(([0], ends)))
    for index, count in zip(positions, (running[bounds[1:]] - running[bounds[:-1]]).tolist()):
        counts[index] = count
