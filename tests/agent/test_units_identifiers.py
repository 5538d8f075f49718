"""A camelCase identifier's words are a unit's terms (task X13, U17's question 3), as snake_case ones were."""

from __future__ import annotations

from clew.agent.generate import extractive_answer
from clew.agent.identifiers import camel_terms
from clew.agent.units import passage_units
from clew.corpus.tokenize import tokenize

SPLIT = """### QStringList QString::split(const QString &sep, Qt::SplitBehavior behavior = Qt::KeepEmptyParts) const

Splits the string into substrings wherever sep occurs, and returns the list of those strings. If sep does not \
match anywhere in the string, split() returns a single-element list containing this string.

cs specifies whether sep should be matched case sensitively or case insensitively.

If behavior is Qt::SkipEmptyParts, empty entries don't appear in the result. By default, empty entries are kept.
"""
"""qdoc's QString::split as the HTML reader writes it: the answer names the flag, whose words are the question's."""

SECTION = """### QString QString::section(QChar sep, int start, int end = -1, QString::SectionFlags flags) const

This function returns a section of the string.

The flags argument can be used to affect some aspects of the function's behavior, e.g. whether to be case \
sensitive, whether to skip empty fields and how to deal with leading and trailing separators; see SectionFlags.
"""

JOIN = """### QString QStringList::join(const QString &separator) const

Joins all the string list's strings into a single string with each element separated by the given separator \
(which can be an empty string).

See also QString::split().
"""


def test_camel_terms_are_the_words_of_each_camel_case_identifier() -> None:
    assert camel_terms("If behavior is Qt::SkipEmptyParts, empty") == tokenize("skip empty parts")
    assert camel_terms("fromISO(text) and getElementById") == ["iso", *tokenize("get element by id")]
    assert camel_terms("SQLITE_BUSY Returns or_insert plain words") == []  # all capitals, one capital, snake_case


def test_a_units_terms_hold_an_identifiers_words_after_its_own() -> None:
    unit = next(u for u in passage_units(SPLIT, "ev1:c:1:1:0", 0) if "SkipEmptyParts" in u.own)
    assert unit.terms[:2] == ["behavior", "qt"]  # the tokenizer's terms first, as before
    assert {"skip", "empti", "part"} <= unit.vocabulary
    assert ("skip", "empti") in unit.pairs


def test_the_sentence_naming_the_flag_is_quoted_first() -> None:
    answer = extractive_answer(
        "How do I split a QString by a separator and skip empty parts?",
        [("ev1:c:2:1:4", SECTION), ("ev1:c:3:1:5", JOIN), ("ev1:c:1:1:3", SPLIT)],
        max_tokens=60,
    )
    assert answer is not None
    assert answer.answer.startswith("If behavior is Qt::SkipEmptyParts, empty entries don't appear in the result.")
