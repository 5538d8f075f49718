import pytest

from clew.corpus.tokenize import count_terms, tokenize


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

    from clew.corpus.tokenize import count_terms

    assert count_terms(text) == Counter(tokenize(text))


def test_counting_terms_keeps_the_order_of_first_occurrence() -> None:
    from collections import Counter

    from clew.corpus.tokenize import count_terms

    text = "Max-max zeta ALPHA max alpha --beta beta"
    assert list(count_terms(text).items()) == list(Counter(tokenize(text)).items())


def test_the_token_pattern_finds_what_the_option_first_pattern_found() -> None:
    """The pattern tries a word before an option (faster); the original, option-first one is the oracle."""
    import random
    import re

    from clew.corpus.tokenize import TOKEN

    original = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|[\w]+(?:[.\-:/][\w]+)*")
    rng = random.Random(17)
    alphabet = "ab_Z9-. :/\n\tü-"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40))) for _ in range(5000)]
    texts += ["-", "--", "---a", "a--b", "-a", " --x-y", "x.-y", "3.2.", "-9", "--ü", "é-a"]
    for text in texts:
        assert TOKEN.findall(text) == original.findall(text), text


def test_counting_terms_word_by_word_equals_the_regex_over_the_whole_text() -> None:
    """count_terms looks words up one at a time (split at whitespace): every kind of whitespace
    (no-break, em, ideographic spaces, separators, line breaks) ends a token exactly as the token
    regex over the whole text does, options and compounds included; and a word seen again gives
    the same terms."""
    import random
    import sys
    from collections import Counter

    from clew.corpus.tokenize import count_terms

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    pieces = ["max_wal_size", "-k", "--dir", "a-b", "3.23.41", "x/y:z", "The", "ÜBER", "wal", "-", "--", ".", "/",
              "İstanbul", "ǅ", "the", "_", "é", "(", "x86-64", "$", "$*", "${", "}", "$5", ".99", "&", "&&", "|", ">",
              ">>", "<", "<<<", "2>&1", *spaces]
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert list(count_terms(text).items()) == list(Counter(tokenize(text)).items()), repr(text)


def _bulk_counts(texts: list[str]) -> list[dict[str, int]]:
    from clew.corpus.tokenize import count_terms_bulk

    found = count_terms_bulk(texts)
    assert list(found.text) == sorted(found.text)  # postings in text order
    counts: list[dict[str, int]] = [{} for _ in texts]
    for text, term, tf in zip(found.text.tolist(), found.term.tolist(), found.tf.tolist()):
        assert found.vocabulary[term] not in counts[text]  # one posting per (text, term)
        counts[text][found.vocabulary[term]] = tf
    assert found.lengths.tolist() == [sum(c.values()) for c in counts]
    return counts


@pytest.mark.parametrize("step", [4096, 7])
def test_counting_many_texts_at_once_equals_counting_each(step: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """ASCII texts go through Arrow, any other through count_terms, and both agree with it: ASCII
    control separators (which str.split splits at and Arrow does not), a final sigma (lower-cased
    by its place in the word), empty and blank texts, runs of whitespace."""
    import random

    from clew.corpus import tokenize as module
    from clew.corpus.tokenize import count_terms

    monkeypatch.setattr(module, "BULK_TEXTS", step)  # texts split by Arrow in steps of this many
    rng = random.Random(5)
    alphabet = [*"ab_Z9-. :/\n\t\x0b\x0c\r\x1c\x1f\u00a0xyQüΣσ", "the ", "SQLITE_BUSY ", "max_wal_size ", " --dir",
                "x86-64 ", "ΟΔΟΣ "]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60))) for _ in range(3000)]
    texts += ["", " ", "the a an", "plain words here", "Max-max zeta ALPHA max alpha --beta beta"]
    clean = [t for t in texts if t.isascii() and "\x1c" not in t and "\x1f" not in t]  # told at once (all fit)
    for batch in (texts, [t for t in texts if t.isascii()], [t for t in texts if not t.isascii()], clean, [""]):
        assert _bulk_counts(batch) == [dict(count_terms(t)) for t in batch]


def test_counting_at_once_stays_right_when_its_tables_are_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The word table (each word's place, its terms' numbers) is emptied with the term numbers once either holds
    ``_TERMS_MAX`` entries, between calls: counts stay those of ``count_terms``, and within a text the
    postings come in the order of the terms' numbers."""
    import random

    from clew.corpus import tokenize as module
    from clew.corpus.tokenize import count_terms, count_terms_bulk

    monkeypatch.setattr(module, "_TERMS_MAX", 40)
    monkeypatch.setattr(module, "BULK_TEXTS", 16)
    rng = random.Random(11)
    words = [f"w{i} x-{i}y" for i in range(120)] + ["the", "SQLITE_BUSY", "--dir", "$HOME/bin"]
    sizes = []
    for _ in range(12):
        texts = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 9))) for _ in range(rng.randrange(1, 50))]
        assert _bulk_counts(texts) == [dict(count_terms(t)) for t in texts]
        found = count_terms_bulk(texts)
        for i in range(len(texts)):
            assert found.term[found.text == i].tolist() == sorted(found.term[found.text == i].tolist())
        assert len(module._WORD_STARTS) == len(module._WORD_INDEX) + 1  # one place per word
        assert module._WORD_STARTS[-1] == len(module._WORD_TERMS)
        sizes.append(len(module._WORD_INDEX))
    assert any(after < before for before, after in zip(sizes, sizes[1:]))  # emptied on the way


def test_counting_no_texts_gives_no_postings() -> None:
    from clew.corpus.tokenize import count_terms_bulk

    found = count_terms_bulk([])
    assert (found.vocabulary, len(found.text), len(found.lengths)) == ([], 0, 0)


def test_shell_parameters_are_terms() -> None:
    terms = tokenize('How do "$*" and "$@" differ? $# $? $$ $! $- $0 $1')
    assert terms == ["$*", "$@", "differ", "$#", "$?", "$$", "$!", "$-", "$0", "0", "$1", "1"]
    # a named parameter is a term (braces or not) followed by the name's own terms: nothing the name
    # alone finds is lost, Sass's compound variables included
    assert tokenize("${HOME}") == tokenize("$HOME") == ["$home", "home"]
    for name in ("MAX_WAL_SIZE", "enable-shadows", "HOME/bin", "_", "x"):
        assert tokenize(f"${name}") == [f"${name.lower()}", *tokenize(name)]


def test_a_price_keeps_its_number_and_a_lone_dollar_is_no_term() -> None:
    # one digit is a positional parameter ($5) that still yields its number; more digits are a price
    assert tokenize("It costs $5.") == ["cost", "$5", "5"]
    assert tokenize("$10 or $5.99 or $12,000") == ["10", "5.99", "5", "99", "12", "000"]
    assert tokenize("a $ sign, ${x:-y}") == ["sign", "x", "-y", "y"]  # no $, nor ${x
    assert "$" not in "".join(tokenize("US$ 3 and $(date) and $[ x ]"))


def test_shell_operators_are_terms_each_exactly() -> None:
    assert tokenize("make && make install || exit |& tee >> log <<< word") == [
        "make", "&&", "make", "instal", "||", "exit", "|&", "tee", ">>", "log", "<<<", "word"]
    assert tokenize("cmd 2>&1 >&2") == ["cmd", "2", ">&1", "1", ">&2", "2"]
    # Python's prompt, a here-document's << and single redirections are none
    assert tokenize(">>> x << EOF > out < in & | <<<< z") == ["x", "eof", "out", "z"]


@pytest.mark.parametrize("text", ['"$*" and "$@" ${HOME}/bin $5.99 $10', "a&&b||c >>x>>>y 2>&1 <<<z"])
def test_counting_shell_terms_equals_counting_the_tokens(text: str) -> None:
    from collections import Counter

    from clew.corpus.tokenize import count_terms, count_terms_bulk

    assert count_terms(text) == Counter(tokenize(text))
    postings = count_terms_bulk([text])
    assert dict(zip((postings.vocabulary[t] for t in postings.term), postings.tf.tolist())) == count_terms(text)


def test_ligatures_full_width_and_combining_accents_read_as_typed() -> None:
    assert tokenize("personal macro \ufb01les") == tokenize("personal macro files")
    assert tokenize("\uff33\uff31\uff2c\uff49\uff54\uff45") == ["sqlite"]
    assert tokenize("e\u0301te\u0301") == tokenize("\u00e9t\u00e9")  # a letter and its combining accent: one letter
    assert count_terms("the e\ufb00ect") == count_terms("the effect")
