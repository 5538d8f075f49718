"""Counting tokens word by word (``count_tokens_by_words``) equals tiktoken's count of the whole text."""

from __future__ import annotations

import random

import pytest

from clew.budgets import tokens
from clew.budgets.tokens import count_tokens_bulk, count_tokens_by_words, encoding

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


def test_bulk_counts_equal_word_by_word_counts_of_each_text(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    ascii_pieces = [p for p in PIECES if p.isascii()] + ["\x1d", "\x0c", "\t\n", " \x1e", "\n\n x"]
    for pieces in (PIECES, ascii_pieces):
        texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))) for _ in range(5_000)]
        expected = [len(encoding().encode_ordinary(text)) for text in texts]
        assert count_tokens_bulk(texts) == expected
        monkeypatch.setattr(tokens, "BULK_TOKEN_TEXTS", 7)  # many steps, a word never spanning two
        assert count_tokens_bulk(texts) == expected
        monkeypatch.setattr(tokens, "BULK_TOKEN_TEXTS", 8192)
        monkeypatch.setattr(tokens, "BULK_TOKEN_CHARS", 50)
        assert count_tokens_bulk(texts) == expected
        monkeypatch.undo()


@pytest.mark.parametrize("least", [0, tokens.BULK_TOKEN_MIN])  # all at once, and word by word (few texts)
def test_bulk_counts_of_no_text_and_empty_texts(monkeypatch: pytest.MonkeyPatch, least: int) -> None:
    monkeypatch.setattr(tokens, "BULK_TOKEN_MIN", least)
    assert count_tokens_bulk([]) == []
    assert count_tokens_bulk(["", "a b", "", "## Section 1 of 2\n\nbabe dou kin.\n"]) == [0, 2, 0, 13]


def test_the_ascii_whitespace_table_is_pythons() -> None:
    assert [i for i, space in enumerate(tokens._SPACES) if space] == [c for c in range(128) if chr(c).isspace()]
    assert [chr(c) for c in range(128) if chr(c).isspace()] == list("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ")
