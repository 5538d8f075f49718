"""A member's field list is quoted in its passage's order, and a lead-in ending its passage takes the example that
opens its reading-order successor, no other passage's (task X11: U12's questions 14 and 5)."""

from __future__ import annotations

from clew.agent.generate import extractive_answer

RANDOM = """### random

public static String random(int count, boolean letters, boolean numbers)

Creates a random string whose length is the number of characters specified.

Characters will be chosen from the set of alpha-numeric characters as indicated by the arguments.

Parameters: count - the length of random string to create

letters - if true, generated string may include alphabetic characters

numbers - if true, generated string may include numeric characters

Returns: the random string
"""
"""javadoc 17's member entry as the HTML reader writes commons-lang3's RandomStringUtils.random (U12 question 14)."""

LEAD_IN = """## Example: Flask and Thread-Local Data

Let's assume you want to bind a unique request ID, the URL path, and the peer's IP to every log entry by storing it \
in thread-local storage that is managed by context variables:
"""
EXAMPLE = """```python
@app.route("/login", methods=["POST", "GET"])
def some_route():
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(view=flask.request.path, request_id=str(uuid.uuid4()))
```
"""
"""structlog's contextvars.html cut after the lead-in (U12 question 5): the example is the next passage."""
QUESTION = "How do I bind request data for every structlog logger in the current request context?"


def test_a_members_field_list_is_quoted_in_its_passages_order() -> None:
    # best first, "letters - ..." opened the quote and the signature closed it (U12 question 14)
    generation = extractive_answer("How do I generate a random alphanumeric string of a given length in Java?",
                                   [("ev1:c:33:1:22", RANDOM)])
    assert generation is not None
    lines = generation.answer.removesuffix(" [ev1:c:33:1:22]").splitlines()
    assert lines == ["public static String random(int count, boolean letters, boolean numbers)",
                     "Creates a random string whose length is the number of characters specified.",
                     "Parameters: count - the length of random string to create",
                     "letters - if true, generated string may include alphabetic characters",
                     "numbers - if true, generated string may include numeric characters"]


def test_a_lead_in_ending_its_passage_is_quoted_with_the_example_opening_the_next() -> None:
    generation = extractive_answer(QUESTION, [("ev1:c:59:1:4", LEAD_IN), ("ev1:c:59:1:5", EXAMPLE)])
    assert generation is not None
    assert generation.answer.startswith("Let's assume you want to bind")
    assert "managed by context variables: [ev1:c:59:1:4]\n```python\n@app.route" in generation.answer
    assert "bind_contextvars(view=" in generation.answer
    assert [c.evidence_id for c in generation.citations] == ["ev1:c:59:1:4", "ev1:c:59:1:5"]


def test_a_lead_in_takes_no_block_from_a_passage_that_is_not_its_successor() -> None:
    for other in ("ev1:c:59:1:6", "ev1:c:59:1:3", "ev1:c:60:1:5", "ev1:c:59:2:5"):  # further on, before, elsewhere
        generation = extractive_answer(QUESTION, [("ev1:c:59:1:4", LEAD_IN), (other, EXAMPLE)])
        assert generation is not None
        assert "managed by context variables:\n" not in generation.answer.replace(" [ev1:c:59:1:4]", "")
        assert generation.answer.startswith("Let's assume") and "bind_contextvars(view=" not in generation.answer
