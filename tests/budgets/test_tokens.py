"""Counting tokens word by word (``count_tokens_by_words``) equals tiktoken's count of the whole text."""

from __future__ import annotations

import random

import pytest

from clew.budgets.tokens import count_tokens_by_words, encoding

PIECES = ["the", " ", "  ", "\n", "\n ", " \n", "\t", "\r\n", "\u00a0", "\u2003", "\u3000", "\x1c",
          "'s", "'LL", "don't", "12345", "3.14", "x86-64", "--dir", "(", ")", ".", "...", ",", "!?",
          "SQLITE_BUSY", "Ünïcode", "日本語",
          "😀", "ǅ", "İ", "<|endoftext|>", "a", "B", "  x", "a\u0301", "\n\n", "\r", "\x0b", "\u2028", "\x85", "#"]


@pytest.mark.parametrize("text", [
    "", " ", "  ", "a b", "a  b", "a \n b", " lead", "trail ", "don't stop 'til 1234567 ...", "x\t y",
    "## Section 1 of 2\n\nbabe dou kin.\n", "word\u00a0 word", "<|endoftext|> special as text",
])
def test_a_text_counts_as_the_sum_of_its_words(text: str) -> None:
    assert count_tokens_by_words(text) == len(encoding().encode_ordinary(text))


def test_random_texts_count_the_same_word_by_word_as_whole() -> None:
    rng = random.Random(3)
    for _ in range(20_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 16)))
        assert count_tokens_by_words(text) == len(encoding().encode_ordinary(text)), repr(text)
