"""The extract weighs a unit by what the question asks: a yes/no question prefers the unit that says
no, only or must; a version note weighs less unless the question asks since when; a parameter list's
item the question names weighs as a table row."""

import pytest

from clew.agent import generate
from clew.agent.generate import extractive_answer

PACKAGE_NAME = """### name

If you plan to publish your package, the *most* important things in your package.json are the name and version
fields as they will be required.
The name and version together form an identifier that is assumed to be completely unique.
Changes to the package should come along with changes to the version.
If you don't plan to publish your package, the name and version fields are optional.

The name is what your thing is called.

Some rules:

* The name must be less than or equal to 214 characters.
  This includes the scope for scoped packages.
* The names of scoped packages can begin with a dot or an underscore.
  This is not permitted without a scope.
"""
SCOPE = """### Description

All npm packages have a name.
Some package names also have a scope.
A scope follows the usual rules for package names (URL-safe characters, no leading dots or underscores).
When used in package names, scopes are preceded by an `@` symbol and followed by a slash, e.g.

```bash
@somescope/somepackagename
```

Scopes are a way of grouping related packages together, and also affect a few things about the way npm treats
the package.
"""


def test_a_yes_no_question_prefers_the_unit_that_says_no_only_or_must(monkeypatch: pytest.MonkeyPatch) -> None:
    # npm-docs' npm-042: the rule that answers shares "name" and "scope" with half the pack's sentences
    question = "What is the longest a package name may be, and does a scope prefix count toward that limit?"
    evidence = [("ev1:c:89:1:0", SCOPE), ("ev1:c:79:1:1", PACKAGE_NAME)]
    paths = {"ev1:c:89:1:0": ["Description"], "ev1:c:79:1:1": ["name"]}
    answered = extractive_answer(question, evidence, max_tokens=100, paths=paths)
    assert answered is not None and "- The name must be less than or equal to 214 characters." in answered.answer
    monkeypatch.setattr(generate, "POLAR", 0.0)
    unweighted = extractive_answer(question, evidence, max_tokens=100, paths=paths)
    assert unweighted is not None and "214" not in unweighted.answer


def test_the_terms_of_a_yes_no_question_are_those_of_its_clause() -> None:
    assert generate._yes_no_terms("Who ends up in the developers team, and can a team admin delete that team?") == {
        "team", "admin", "delet"}
    assert generate._yes_no_terms("npm refused a tag called v2. Why? Is --diff=next accepted?") >= {"diff", "accept"}
    assert generate._yes_no_terms("What is the default value, and where is it set?") == frozenset()


SHELVE_OPEN = """Open a persistent dictionary. By default, pickles created with pickle.DEFAULT_PROTOCOL are used to \
serialize values. The version of the pickle protocol can be specified with the protocol parameter.

Changed in version 3.10: pickle.DEFAULT_PROTOCOL is now used as the default pickle protocol.

Changed in version 3.11: Accepts path-like object for filename.
"""


def test_a_version_note_weighs_less_unless_the_question_asks_about_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sphinx's "Changed in version 3.10: ..." repeats its entry's words (shelve's pickle protocol)
    but says only what changed: the description answers first, unless the question asks since when
    (or what changed)."""

    evidence = [("ev1:c:48:1:1", SHELVE_OPEN)]
    answer = extractive_answer("Which pickle protocol does a shelf use?", evidence, max_tokens=30)
    assert answer is not None
    assert answer.answer == ("The version of the pickle protocol can be specified with the protocol parameter. "
                             "[ev1:c:48:1:1]")
    versioned = extractive_answer("Since which version does a shelf use pickle's default protocol?", evidence,
                                  max_tokens=30)
    assert versioned is not None and versioned.answer.startswith("Changed in version 3.10:")
    monkeypatch.setattr(generate, "VERSION_NOTE", 1.0)
    unweighed = extractive_answer("Which pickle protocol does a shelf use?", evidence, max_tokens=30)
    assert unweighed is not None and unweighed.answer.startswith("Changed in version 3.10:")


DATACLASS_PARAMETERS = """The parameters to dataclass() are:

- init: If true (the default), a __init__() method will be generated. If the class already defines __init__(), \
this parameter is ignored.
- repr: If true (the default), a __repr__() method will be generated. If the class already defines __repr__(), \
this parameter is ignored.
- frozen: If true (the default is False), assigning to fields will generate an exception. This emulates read-only \
frozen instances.
"""
DATACLASS_FROZEN = """There is a tiny performance penalty when using frozen=True: __init__() cannot use simple \
assignment to initialize fields, and must use object.__setattr__().

It is not possible to create truly immutable Python objects. However, by passing frozen=True to the dataclass() \
decorator you can emulate immutability.
"""


def test_a_field_list_item_the_question_names_weighs_as_a_table_row() -> None:
    """Sphinx's parameter lists ("init: If true (the default), ...") are facts with their key, as
    table rows are: asked whether @dataclass writes an __init__, the init item answers before prose
    that mentions __init__ and frozen in passing."""

    question = ("Does @dataclass write an __init__ for me unless I say otherwise, and what happens if I mark the "
                "class frozen?")
    answer = extractive_answer(question, [("ev1:c:18:1:34", DATACLASS_FROZEN), ("ev1:c:18:1:3", DATACLASS_PARAMETERS)],
                               max_tokens=60)
    assert answer is not None
    assert answer.answer.splitlines()[:2] == [
        "The parameters to dataclass() are:",
        "- init: If true (the default), a __init__() method will be generated. If the class already defines "
        "__init__(), this parameter is ignored. [ev1:c:18:1:3]"]


FUTURE_ROWS = """| feature | optional in | mandatory in | effect |
| --- | --- | --- | --- |
| nested_scopes | 2.1.0b1 | 2.2 | PEP 227: Statically Nested Scopes |
| division | 2.2.0a2 | 3.0 | PEP 238: Changing the Division Operator |
"""
LRU_TYPED = """If typed is set to true, function arguments of different types will be cached separately. For example, \
f(3) and f(3.0) will always be treated as distinct calls with distinct results.
"""


def test_a_unit_sharing_only_numbers_with_the_question_answers_nothing() -> None:
    """The Python docs: asked how lru_cache can keep 3 and 3.0 apart, __future__'s table of versions
    shares '3.0' with the question and nothing else; it is not quoted, lru_cache's sentence is."""

    question = "How do I get lru_cache to keep 3 and 3.0 apart as different keys?"
    answer = extractive_answer(question, [("ev1:c:4:1:3", FUTURE_ROWS), ("ev1:c:27:1:7", LRU_TYPED)], max_tokens=80)
    assert answer is not None and [c.evidence_id for c in answer.citations] == ["ev1:c:27:1:7"]
    assert "f(3) and f(3.0) will always be treated as distinct calls" in answer.answer
    assert extractive_answer("What changed in 3.0?", [("ev1:c:4:1:3", FUTURE_ROWS)]) is not None  # 'changing' shared
    assert extractive_answer("3.0 or 2.2?", [("ev1:c:4:1:3", FUTURE_ROWS)]) is None
