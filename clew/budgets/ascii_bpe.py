"""cl100k_base token counts of ASCII text without tiktoken's encoding.

A process that counts only a few short texts (a cold ``clew ask``: the extract measures about
ten renderings of its quotes) paid 70-140 ms for tiktoken to build the encoding from its 100,256
ranks. On ASCII text the encoding's pre-tokenizer (its ``pat_str``) is this module's ``PIECES``:
``\\p{L}`` and ``\\p{N}`` hold exactly the ASCII letters and digits there, ``\\s`` the same six
whitespace characters, and ``$`` (the text's end in tiktoken's regex engine) is Python's ``\\Z``.
Each piece is then merged as tiktoken's ``byte_pair_encode`` does (the lowest-ranked adjacent pair
first, the leftmost of equal ones), with ranks looked up in the cached file in place
(``bpe_cache.RankTable``). A text with any other character, or a piece longer than
``LONGEST_PIECE`` bytes, is not counted here (None): the caller counts it with tiktoken.
``tests/budgets/test_ascii_bpe.py`` checks the counts against tiktoken's.
"""

from __future__ import annotations

import re

from clew.budgets.bpe_cache import RankTable

CL100K_PAT = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
              r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
"""cl100k_base's ``pat_str``: a table with another pattern is not used."""
PIECES = re.compile(r"'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{1,3}+| ?[^\sA-Za-z0-9]++[\r\n]*+"
                    r"|\s++\Z|\s*[\r\n]|\s+(?!\S)|\s", re.ASCII)
LONGEST_PIECE = 64
"""Longer pieces (a rule of dashes) cost this quadratic merge too much: tiktoken counts them."""


class AsciiCounter:
    """Counts tokens of ASCII texts with a cached rank table; each distinct piece is merged once."""

    def __init__(self, table: RankTable) -> None:
        if table.pat_str != CL100K_PAT:
            raise ValueError(f"the rank table of {table.name} has another pre-tokenizer than cl100k_base")
        self.table = table
        self.pieces: dict[str, int] = {}
        self.merged = 0
        """Pieces merged so far and characters counted so far: the work done here instead of in tiktoken."""
        self.counted = 0

    def count(self, text: str) -> int | None:
        """Tokens in ``text`` as ``encode_ordinary`` gives them; None for a text this cannot count."""
        if not text.isascii():
            return None
        self.counted += len(text)
        known = self.pieces
        total = 0
        for piece in PIECES.findall(text):
            tokens = known.get(piece)
            if tokens is None:
                if len(piece) > LONGEST_PIECE:
                    return None
                tokens = known[piece] = self._merge(piece.encode("ascii"))
                self.merged += 1
            total += tokens
        return total

    def _merge(self, piece: bytes) -> int:
        rank = self.table.rank
        if rank(piece) is not None:
            return 1
        parts = [piece[i:i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            best, at = None, -1
            for i in range(len(parts) - 1):
                found = rank(parts[i] + parts[i + 1])
                if found is not None and (best is None or found < best):
                    best, at = found, i
            if best is None:
                break
            parts[at:at + 2] = [parts[at] + parts[at + 1]]
        return len(parts)
