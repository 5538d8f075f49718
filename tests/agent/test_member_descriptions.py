"""A description quoted under its member's declaration scores by the declaration when the question names the member
and the description's own words share no question term (task X22, rule D1c, U32's S4)."""

from __future__ import annotations

from clew.agent.generate import extractive_answer

SIGNATURE = """babel.dates.format_timedelta(delta, granularity='second', threshold=.85, add_direction=False, \
format='long', locale=default_locale('LC_TIME'))

Return a time delta according to the rules of the given locale.

```
>>> format_timedelta(timedelta(weeks=12), locale='en_US')
'3 months'
```

The granularity parameter can be provided to alter the lowest unit presented, which defaults to a second.
"""
THRESHOLD = """The threshold parameter can be used to determine at which value the presentation switches to the next \
higher unit. A higher threshold factor means the presentation will switch later. For example:

```
>>> format_timedelta(timedelta(hours=23), threshold=0.9, locale='en_US')
'1 day'
>>> format_timedelta(timedelta(hours=23), threshold=1.1, locale='en_US')
'23 hours'
```
"""
"""Babel 2.19's API reference as Sphinx's singlehtml builder writes it (U32's babel-single, passages 196 and 197)."""


def test_a_description_is_quoted_under_the_declaration_the_question_names() -> None:
    """S4: the signature holding ``threshold=.85`` was never quoted: its description, "Return a time delta according
    to the rules of the given locale.", shares no word with the question and scored 0."""
    evidence = [("ev1:c:1:1:196", SIGNATURE), ("ev1:c:1:1:197", THRESHOLD)]
    generation = extractive_answer("What is the default threshold of babel.dates.format_timedelta?", evidence)
    assert generation is not None
    assert "format_timedelta(delta, granularity='second', threshold=.85," in generation.answer
    generation = extractive_answer("What is the default threshold of a presentation switch?", evidence)
    assert generation is not None
    assert "Return a time delta" not in generation.answer  # a member the question does not name: as before
