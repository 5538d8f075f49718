import pytest

from clew.corpus.search.tokenize import tokenize


def test_identifiers_numbers_and_options_stay_whole() -> None:
    terms = tokenize("SQLITE_BUSY max_wal_size 5432 -k --directory PRAGMA journal_mode 3.23.41")
    for whole in ("sqlite_busy", "max_wal_size", "5432", "-k", "--directory", "journal_mode", "3.23.41", "pragma"):
        assert whole in terms
    # compound tokens also yield their parts, so prose finds identifiers
    for part in ("busi", "wal", "size", "journal", "mode", "23"):
        assert part in terms


def test_plain_words_are_stemmed_and_stopwords_dropped() -> None:
    assert tokenize("The checkpoints of the databases") == ["checkpoint", "databas"]
    assert tokenize("checkpoint") == tokenize("checkpointing")[:1] or tokenize("checkpointing") == ["checkpoint"]


def test_a_dash_inside_a_word_is_not_an_option() -> None:
    assert "-bar" not in tokenize("foo-bar")
    assert "foo-bar" in tokenize("foo-bar")


@pytest.mark.parametrize("text", [
    "The replica streams WAL; SQLITE_BUSY means retry. max_wal_size=5432 -k --directory 3.23.41 wal-wal wal",
    "", "the a an", "Ünïcode wörds and_under_scores x86-64 x86-64 x86-64",
])
def test_counting_terms_equals_counting_the_tokens(text: str) -> None:
    from collections import Counter

    from clew.corpus.search.tokenize import count_terms

    assert count_terms(text) == Counter(tokenize(text))
