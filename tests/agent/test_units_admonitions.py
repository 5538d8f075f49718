"""Admonitions, alerts and blockquotes as the extract's units read them (clew.agent.source_blocks.admonitions): the
Markdown reader keeps them as written (an MkDocs ``!!! note``, a GitHub alert ``> [!NOTE]``, pymdownx.quotes'
``> [!new] New in 12.0``); the units read their markers as what the site shows (task U10's q3, task X8)."""

from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units, sentences

STARLETTE_TESTCLIENT = """\
By default the `TestClient` will raise any exceptions that occur in the
application. Occasionally you might want to test the content of 500 error
responses, rather than allowing the client to raise the server exception. In this
case you should use `client = TestClient(app, raise_server_exceptions=False)`.

!!! note

    If you want the `TestClient` to run the `lifespan` handler,
    you will need to use the `TestClient` as a context manager. It will
    not be triggered when the `TestClient` is instantiated. You can learn more about it
    [here](lifespan.md#running-lifespan-in-tests).
"""

PYMDOWN_TILDE = """\
# Tilde

## Overview

> [!new] New in 12.0
> Tilde was rewritten from the ground up. Results are compatible with CommonMark parsing and pass all related tests.

Tilde optionally adds two different features which are syntactically built around the `~` character.
"""

JEST_NOTE = """\
This rule triggers a warning if `toHaveLength` is used to assert the number of
times a mock is called.

> [!NOTE]
>
> This rule should ideally be paired with
> [`prefer-to-have-length`](./prefer-to-have-length.md)
"""

PYMDOWN_CALLOUT_SYNTAX = """\
Callouts can be nested:

```text title="Nesting"
> [!note]
> Content
> > [!danger]
> > Content
```
"""


def test_an_untitled_admonition_marker_is_no_line_of_the_quote() -> None:
    assert sentences(STARLETTE_TESTCLIENT)[-3:] == [
        "If you want the `TestClient` to run the `lifespan` handler, you will need to use the `TestClient` as a "
        "context manager.",
        "It will not be triggered when the `TestClient` is instantiated.",
        "You can learn more about it [here](lifespan.md#running-lifespan-in-tests).",
    ]
    extract = extractive_answer("How do I run the lifespan handler in tests with the TestClient?",
                                [("ev1:c:148:1:2", STARLETTE_TESTCLIENT)])
    assert extract is not None
    assert "you will need to use the `TestClient` as a context manager." in extract.answer
    assert "!!!" not in extract.answer


def test_a_titled_admonition_heads_its_body_by_its_title() -> None:
    text = '!!! tip inline end "Use a context manager"\n\n    Run the `lifespan` handler with `with TestClient(app)`.\n'
    (unit,) = passage_units(text, "ev1:c:1:1:0", 0)
    assert unit.header == "Use a context manager"
    assert unit.own == "Run the `lifespan` handler with `with TestClient(app)`."


def test_a_callout_title_is_a_label_over_the_quote_not_its_marker() -> None:
    units = passage_units(PYMDOWN_TILDE, "ev1:c:117:1:0", 0)
    assert [(u.header, u.own) for u in units[:2]] == [
        ("New in 12.0", "Tilde was rewritten from the ground up."),
        ("New in 12.0", "Results are compatible with CommonMark parsing and pass all related tests."),
    ]
    assert not any(">" in u.text or "[!" in u.text for u in units)
    extract = extractive_answer("What is new in Tilde 12.0?", [("ev1:c:117:1:0", PYMDOWN_TILDE)])
    assert extract is not None
    assert extract.answer.startswith("New in 12.0\nTilde was rewritten from the ground up.")


def test_an_untitled_alert_is_its_text_without_markers() -> None:
    assert sentences(JEST_NOTE)[-1] == (
        "This rule should ideally be paired with [`prefer-to-have-length`](./prefer-to-have-length.md)")


def test_code_that_shows_the_syntax_stays_as_written_and_quoted_code_loses_the_quote_markers() -> None:
    units = passage_units(PYMDOWN_CALLOUT_SYNTAX, "ev1:c:109:1:5", 0)
    assert units[-1].text == '```text title="Nesting"\n> [!note]\n> Content\n> > [!danger]\n> > Content\n```'
    quoted = "> Run it:\n>\n> ```python\n> client = TestClient(app)\n> ```\n\n>>> import starlette\n"
    assert [u.text for u in passage_units(quoted, "ev1:c:1:1:0", 0) if u.kind == "code"] == [
        "```python\nclient = TestClient(app)\n```", ">>> import starlette"]
