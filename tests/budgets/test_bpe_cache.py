"""The token encoding loaded from clew's cache of its ranks counts exactly as tiktoken's own, and
a cache that is missing, damaged or cannot be written changes no count."""

from __future__ import annotations

from pathlib import Path

import pytest
import tiktoken

from clew.budgets import bpe_cache
from clew.budgets.tokens import ENCODING_NAME, count_tokens, passage_tokens
from clew.corpus.ingest.api import ingest_paths
from clew.corpus.reader import Scope
from clew.corpus.store import Corpus

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [
    (ROOT / "README.md").read_text(encoding="utf-8"),
    "Ünïcödé, 日本語のテキスト, emoji 🧵 and <|endoftext|> as plain text\r\n\t  trailing   ",
    "x" * 5000 + " 12345678901234567890 ",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLEW_CACHE_DIR", str(tmp_path / "cache"))
    return bpe_cache.cache_path(ENCODING_NAME)


def test_the_cached_encoding_encodes_as_tiktoken_does(cache: Path) -> None:
    reference = tiktoken.get_encoding(ENCODING_NAME)
    first = bpe_cache.load(ENCODING_NAME)  # from tiktoken, then written
    assert cache.is_file()
    again = bpe_cache.load(ENCODING_NAME)  # from the file
    for encoding in (first, again):
        for text in TEXTS:
            assert encoding.encode_ordinary(text) == reference.encode_ordinary(text)
        assert encoding.encode("<|endoftext|>", allowed_special="all") == [100257]
    assert again.n_vocab == reference.n_vocab


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The cache file as a first load writes it (once a module: a load from tiktoken and the write are about
    0.4 s of CPU)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CLEW_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        bpe_cache.load(ENCODING_NAME)
        return bpe_cache.cache_path(ENCODING_NAME).read_bytes()


@pytest.mark.parametrize("damage", ["empty", "cut", "other name", "not ours"])
def test_a_damaged_cache_is_ignored_and_written_again(cache: Path, written: bytes, damage: str) -> None:
    cache.parent.mkdir(parents=True)
    cache.write_bytes(written)
    assert bpe_cache.read_table(ENCODING_NAME) is not None  # whole before the damage
    data = cache.read_bytes()
    cache.write_bytes({"empty": b"", "cut": data[: len(data) // 2],
                       "other name": data.replace(b'"cl100k_base"', b'"o200k_base0"', 1),
                       "not ours": b"\x00" * 64}[damage])
    encoding = bpe_cache.load(ENCODING_NAME)
    assert encoding.encode_ordinary(TEXTS[0]) == tiktoken.get_encoding(ENCODING_NAME).encode_ordinary(TEXTS[0])
    assert cache.read_bytes() == data


def test_a_cache_folder_that_is_a_file_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("CLEW_CACHE_DIR", str(blocker))
    assert bpe_cache.load(ENCODING_NAME).encode_ordinary("hello world") == [15339, 1917]
    assert blocker.read_text(encoding="utf-8") == "x"


def test_a_stored_passage_count_is_the_count_of_its_text(tmp_path: Path) -> None:
    """A walk charges the count stored at ingest instead of counting (no encoding to load)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    rows = "".join(f"| row {i} | value {i * 7} |\n" for i in range(40))
    (docs / "a.md").write_text(f"# Title\n\nSome text with Ünïcödé.\n\n| name | value |\n|---|---|\n{rows}",
                               encoding="utf-8")
    (docs / "b.md").write_text("\n\n".join(f"## Part {i}\n\n" + "word " * (40 * i) for i in range(1, 8)),
                               encoding="utf-8")
    with Corpus(tmp_path / "c.duckdb") as corpus:
        ingest_paths(corpus, [docs], chunk_tokens=40)
        scope = Scope(corpus)
        versions = corpus.cursor().execute("SELECT document_id, version FROM document_versions").fetchall()
        passages = [p for d, v in versions for p in scope.passages(d, v)]
    assert len(passages) > 8 and any(p.header for p in passages)  # table passages repeat their header
    assert [passage_tokens(p) for p in passages] == [count_tokens(p.text) for p in passages]
