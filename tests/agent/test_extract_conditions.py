"""The extract quotes the unit that opens with the condition the question states (task X30, rule IF1)."""

from __future__ import annotations

from clew.agent.conditional import asked_conditions, states_condition
from clew.agent.generate import extractive_answer
from clew.corpus.tokenize import tokenize

LRU_CACHE = """@functools.lru_cache(user_function)

@functools.lru_cache(maxsize=128, typed=False)

Decorator to wrap a function with a memoizing callable that saves up to the maxsize most recent calls. It can save \
time when an expensive or I/O bound function is periodically called with the same arguments.

The cache is threadsafe so the wrapped function can be used in multiple threads.

Since a dictionary is used to cache results, the positional and keyword arguments to the function must be hashable.

Distinct argument patterns may be considered to be distinct calls with separate cache entries. For example, \
f(a=1, b=2) and f(b=2, a=1) differ in their keyword argument order and may have two separate cache entries.

If user_function is specified, it must be a callable. This allows the lru_cache decorator to be applied directly \
to a user function, leaving the maxsize at its default value of 128:
"""
"""functools.lru_cache's entry in the Python 3.11 library reference, its first chunk (python-docs' py-033)."""

LRU_CACHE_NEXT = """```python3
@lru_cache
def count_vowels(sentence):
    return sum(sentence.count(vowel) for vowel in 'AEIOUaeiou')
```

If maxsize is set to None, the LRU feature is disabled and the cache can grow without bound.

If typed is set to true, function arguments of different types will be cached separately. If typed is false, the \
implementation will usually regard them as equivalent calls and only cache a single result.
"""
"""The entry's next chunk: the sentence that answers opens with the question's ``maxsize=None``."""


def test_a_unit_opening_with_the_condition_the_question_states_is_quoted() -> None:
    # before: the entry's first sentences shared as many question words (cache, maxsize, lru) and took the room
    question = "What does @functools.lru_cache(maxsize=None) do to the cache size?"
    evidence = [("ev1:c:27:1:6", LRU_CACHE), ("ev1:c:27:1:7", LRU_CACHE_NEXT)]
    paths = {e: ["functools — Higher-order functions and operations on callable objects", "functools.lru_cache"]
             for e, _ in evidence}
    generation = extractive_answer(question, evidence, paths=paths)
    assert generation is not None
    assert "If maxsize is set to None, the LRU feature is disabled and the cache can grow without bound." in (
        generation.answer)


def test_the_conditions_a_question_states_and_a_unit_that_restates_one() -> None:
    question = ("If none of the except clauses of a try statement matches, where does Python look next, and what "
                "wins if both the try body and the finally clause return a value?")
    conditions = asked_conditions(question, set(tokenize(question)))
    assert conditions == (frozenset({"none", "except", "claus", "tri", "statement", "match"}),
                          frozenset({"both", "tri", "bodi", "final", "claus", "return", "valu"}))
    assert states_condition("If no except clause matches the exception, the search continues.", conditions)
    assert not states_condition("The search continues if no except clause matches.", conditions)  # not its opening
    assert not states_condition("If no except clause matches the exception, ...", ())  # no condition asked
    assert not states_condition("When the statement is nested, the search continues.", conditions)  # one term only
    keyword = asked_conditions("What does lru_cache(maxsize=None) do?", {"lru_cach", "maxsiz", "none"})
    assert keyword == (frozenset({"maxsiz", "none"}),)
