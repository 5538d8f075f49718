"""Counting ASCII text with the cached rank table (``clew.budgets.ascii_bpe``) gives tiktoken's
counts, and a process that counts a few short texts never loads tiktoken's encoding."""

from __future__ import annotations

import dataclasses
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from clew.budgets import bpe_cache
from clew.budgets.ascii_bpe import LONGEST_PIECE, AsciiCounter
from clew.budgets.tokens import ENCODING_NAME

ROOT = Path(__file__).resolve().parents[2]
PIECES = ["the", " ", "  ", "\n", "\n ", " \n", "\t", "\r\n", "\r", "\x0b", "\x0c", "\x00", "\x1c", "\x7f",
          "'s", "'LL", "'Re", "'ve", "'", "don't", "12345", "3.14", "x86-64", "--dir", "(", ")", ".", "...",
          ",", "!?", "SQLITE_BUSY", "a", "B", "  x", "\n\n", "#", "<|endoftext|>", "[ev1:c:12:3:45]", "|",
          "---", "`", "_", "~", "Hello", " world"]


@pytest.fixture(scope="module")
def reference() -> tiktoken.Encoding:
    return tiktoken.get_encoding(ENCODING_NAME)


@pytest.fixture(scope="module")
def counter() -> AsciiCounter:
    bpe_cache.load(ENCODING_NAME)  # writes the cache where the run's folder has none yet
    table = bpe_cache.read_table(ENCODING_NAME)
    assert table is not None
    return AsciiCounter(table)


def test_the_table_holds_every_rank_and_nothing_else(counter: AsciiCounter, reference: tiktoken.Encoding) -> None:
    ranks = reference._mergeable_ranks
    assert len(counter.table) == len(ranks)
    assert all(counter.table.rank(token) == rank for token, rank in ranks.items())
    assert counter.table.rank(b"not one token at all") is None
    assert counter.table.rank(b"") is None


@pytest.mark.parametrize("text", [
    "", " ", "a b", "a  b", "trail  ", "  lead", "x\n", "x \n\n", "don't stop 'til 1234567 ...",
    "I'M YOU'RE we'Ve", "x\t y", "\r\n\r\n", "a\x0b\x0cb", "<|endoftext|> as text", "## Section 1 of 2\n\nbabe.\n",
    "| name | value |\n| --- | --- |\n| a | 1 |", "quote [ev1:c:3:1:12] and [ev1:c:3:1:13]\n- item",
])
def test_edge_texts_count_as_tiktoken_does(counter: AsciiCounter, reference: tiktoken.Encoding, text: str) -> None:
    assert counter.count(text) == len(reference.encode_ordinary(text))


def test_random_texts_count_as_tiktoken_does(counter: AsciiCounter, reference: tiktoken.Encoding) -> None:
    rng = random.Random(5)
    alphabet = string.printable + "\x00\x1c\x1f\x7f"
    for n in range(20_000):
        if n % 2:
            text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 16)))
        else:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert counter.count(text) == len(reference.encode_ordinary(text)), repr(text)


def test_documents_count_as_tiktoken_does(counter: AsciiCounter, reference: tiktoken.Encoding) -> None:
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8").encode("ascii", "ignore").decode()
        text = "\n".join(line for line in text.splitlines() if len(line) < LONGEST_PIECE)  # no long rules
        assert counter.count(text) == len(reference.encode_ordinary(text)), path


def test_what_it_cannot_count_is_left_to_tiktoken(counter: AsciiCounter) -> None:
    assert counter.count("naïve") is None
    assert counter.count("emoji 🧵") is None
    assert counter.count("-" * (LONGEST_PIECE + 1)) is None
    assert counter.count("-" * LONGEST_PIECE) is not None


def test_a_table_of_another_pattern_is_refused(counter: AsciiCounter) -> None:
    other = dataclasses.replace(counter.table, pat_str=r"\S+|\s+")
    with pytest.raises(ValueError, match="another pre-tokenizer"):
        AsciiCounter(other)


def test_a_process_counting_a_short_ascii_text_loads_no_encoding(counter: AsciiCounter,
                                                                 reference: tiktoken.Encoding) -> None:
    text = "The extract [ev1:c:1:1:2] quotes what it found:\n- one item\n| a | b |"
    script = ("from clew.budgets import tokens\n"
              f"print(tokens.count_tokens({text!r}), tokens.encoding.cache_info().currsize)\n"
              f"print(tokens.count_tokens({'naïve ' + text!r}), tokens.encoding.cache_info().currsize)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(len(reference.encode_ordinary(text))), "0",
                                   str(len(reference.encode_ordinary("naïve " + text))), "1"]
