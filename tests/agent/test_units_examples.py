"""A lead-in and the example it introduces (clew.agent.units, the extract's quotes): a label over a code block,
a sentence that only points elsewhere, a sentence after a quoted one that brings its example, a lead-in that ends
no sentence, one that does "the same" (the new users' trials U4, U5 and U7)."""

from clew.agent.generate import extractive_answer
from clew.agent.units import passage_units

PYTEST_USAGE = """## Specifying which tests to run

Pytest supports several ways to run and select tests from the command-line.

Run tests in a module

```bash
pytest test_mod.py
```

Run tests in a directory

```bash
pytest testing/
```

Run tests by keyword expressions

```bash
pytest -k "MyClass and not method"
```

This will run tests which contain names that match the given string expression (case-insensitive), which can \
include Python operators that use filenames, class names and function names as variables. The example above will \
run TestMyClass.test_something but not TestMyClass.test_method_simple.
"""


def test_a_short_label_over_a_code_block_is_the_block_s_lead_in() -> None:
    """pytest's usage page (task U7, question 1): a label line over each command ("Run tests by keyword
    expressions" over ``pytest -k ...``) introduces that command; it was the term of the paragraph after the
    block and the three blocks hung under the page's first sentence, so the extract quoted the label over the
    wrong text and the command under another's lead-in. A label over prose is still that prose's term; a
    label is not quoted without its block (it ends no sentence: it says nothing alone)."""
    units = passage_units(PYTEST_USAGE, "ev1:c:231:1:1", 0)
    leads = {u.own: [f for f, _ in u.follow] for u in units if u.follow}
    assert leads == {"Run tests in a module": ["```bash\npytest test_mod.py\n```"],
                     "Run tests in a directory": ["```bash\npytest testing/\n```"],
                     "Run tests by keyword expressions": ['```bash\npytest -k "MyClass and not method"\n```']}
    assert all(u.header == "" for u in units)
    answer = extractive_answer("How do I run only the tests whose names match a keyword expression with pytest?",
                               [("ev1:c:231:1:1", PYTEST_USAGE)])
    assert answer is not None and (
        'Run tests by keyword expressions\n```bash\npytest -k "MyClass and not method"\n```' in answer.answer)
    short = extractive_answer("How do I run only the tests whose names match a keyword expression with pytest?",
                              [("ev1:c:231:1:1", PYTEST_USAGE)], max_tokens=55)
    assert short is not None and "Run tests" not in short.answer  # no room for a block: not its label alone
    described = passage_units("Run tests in a module\n\nPytest runs every test of the module.\n", "ev1:c:1:1:0", 0)
    assert [u.text for u in described] == ["Run tests in a module\nPytest runs every test of the module."]


GLFW_FULL_SCREEN = """### Full screen windows

To create a full screen window, you need to specify which monitor the window should use. In most cases, the \
user's primary monitor is a good choice. For more information about retrieving monitors, see Retrieving monitors.

```
GLFWwindow* window = glfwCreateWindow(640, 480, "My Title", glfwGetPrimaryMonitor(), NULL);
```

Full screen windows cover the entire display area of a monitor, have no border or decorations.
"""


def test_a_cross_reference_is_not_an_example_s_lead_in() -> None:
    """GLFW's window guide (task U4, question 4): the example follows "For more information about retrieving
    monitors, see Retrieving monitors.", a pointer elsewhere that introduces nothing; the sentence before it
    does, and the sentence it goes on from is quoted with it and the example."""
    units = passage_units(GLFW_FULL_SCREEN, "ev1:c:59:1:3", 0)
    block = '```\nGLFWwindow* window = glfwCreateWindow(640, 480, "My Title", glfwGetPrimaryMonitor(), NULL);\n```'
    assert [(u.own, [f for f, _ in u.follow]) for u in units if u.follow] == [
        ("In most cases, the user's primary monitor is a good choice.", [block])]
    answer = extractive_answer("How do I create a full screen window?", [("ev1:c:59:1:3", GLFW_FULL_SCREEN)],
                               max_tokens=80)
    assert answer is not None and answer.answer.startswith(
        "To create a full screen window, you need to specify which monitor the window should use.\n"
        f"In most cases, the user's primary monitor is a good choice.\n{block}")
    see = "Windows can be made full screen. See Retrieving monitors.\n\n```\nglfwSetWindowMonitor(w, m);\n```\n"
    assert [u.own for u in passage_units(see, "ev1:c:59:1:4", 0) if u.follow] == ["Windows can be made full screen."]
    below = see.replace("See Retrieving monitors.", "See the example below.")  # a pointer to the example itself
    assert [u.own for u in passage_units(below, "ev1:c:59:1:4", 0) if u.follow] == ["See the example below."]


GIT_DIRECTLY = """## Using git directly

In case you are missing functionality as it has not been wrapped, you may conveniently use the git command \
directly. It is owned by each repository instance.

```python
git = repo.git
git.checkout("HEAD", b="my_new_branch")  # create a new branch
```

The return value will by default be a string of the standard output channel produced by the command.
"""
TYPER_LIST = """You can declare a CLI option that can be used multiple times, and then get all the values.

For example, let's say you want to accept several users in a single execution.

For this, use the standard Python typing.List to declare it as a list of str:

```python
{!../docs_src/multiple_values/multiple_options/tutorial001.py!}
```

You will receive the values as you declared them, as a list of str.
"""


def test_a_quoted_sentence_takes_the_example_the_next_sentence_introduces() -> None:
    """GitPython's "Using git directly" and Typer's multiple options (task U5, questions 9 and 15): the sentence
    that answers is quoted, but the example is introduced by the sentence after it ("It is owned by each
    repository instance.", "For this, use the standard Python typing.List ...:"), which shares no question
    word: the example was left out. It is quoted with the sentence it goes on from, when it fits. Not a lead-in
    that announces its example (ending in ":" or "e.g.") without leaning on the sentence before it: it is
    quoted on its own terms (taken with the sentence before it, Python's "Roughly equivalent to:" and its long
    recipe cost three answers of the python-docs set)."""
    answer = extractive_answer("How do I run a git command that GitPython does not wrap?",
                               [("ev1:c:6:1:41", GIT_DIRECTLY)], max_tokens=120)
    assert answer is not None and answer.answer.startswith(
        "In case you are missing functionality as it has not been wrapped, you may conveniently use the git command "
        "directly.\nIt is owned by each repository instance.\n```python\ngit = repo.git\ngit.checkout(")
    answer = extractive_answer("How do I accept the same option several times in Typer?",
                               [("ev1:c:303:1:0", TYPER_LIST)], max_tokens=120)
    assert answer is not None and (
        "For example, let's say you want to accept several users in a single execution.\nFor this, use the standard "
        "Python typing.List to declare it as a list of str:\n```python\n") in answer.answer
    answer = extractive_answer("How do I accept the same option several times in Typer?",
                               [("ev1:c:303:1:0", TYPER_LIST.replace("For this, use", "Use"))], max_tokens=120)
    assert answer is not None and "Use the standard Python typing.List" not in answer.answer
    answer = extractive_answer("How do I run a git command that GitPython does not wrap?",
                               [("ev1:c:6:1:41", GIT_DIRECTLY)], max_tokens=40)  # the example does not fit
    assert answer is not None and "```" not in answer.answer


def test_a_lead_in_that_ends_no_sentence_is_quoted_only_with_what_it_introduces() -> None:
    """A chunk of PostgreSQL's datetime page opens inside a sentence ("is a timestamp without time zone, while"
    over the literal it speaks of): quoted alone, the fragment says nothing; quoted, it brings its literal."""
    text = ("is a timestamp without time zone, while\n\n```\nTIMESTAMP '2004-10-19 10:23:54+02'\n```\n\n"
            "is a timestamp with time zone. PostgreSQL never examines the content of a literal string before "
            "determining its type, and therefore will treat both of the above as timestamp without time zone.\n")
    answer = extractive_answer("Which literal is a timestamp without time zone?", [("ev1:c:15:1:15", text)],
                               max_tokens=30)
    assert answer is not None and answer.answer == (
        "is a timestamp without time zone, while\n```\nTIMESTAMP '2004-10-19 10:23:54+02'\n``` [ev1:c:15:1:15]")


TYPER_PASSWORD = """## A Password prompt

When receiving a password, it is very common (in most shells) to not show anything on the screen while typing the \
password.

The program will still receive the password, but nothing will be shown on screen, not even ****.

You can achieve the same using hide_input=True.

And if you combine it with confirmation_prompt=True you can easily receive a password with double confirmation:

```python
{!../docs_src/options/password/tutorial002.py!}
```
"""


def test_a_sentence_that_does_the_same_as_the_quoted_one_is_quoted_with_it() -> None:
    """Typer's password prompt (task U5, question 12): "You can achieve the same using hide_input=True." holds the
    answer and no question word: it leans on the sentence before it ("the same" stands for it), as a sentence
    opening with an anaphor does, and is quoted with it; "the same" of a thing named after it is no such lean."""
    answer = extractive_answer("How do I ask for a password without showing it on screen in Typer?",
                               [("ev1:c:309:1:1", TYPER_PASSWORD)], max_tokens=80)
    assert answer is not None and answer.answer.startswith(
        "When receiving a password, it is very common (in most shells) to not show anything on the screen while "
        "typing the password.\nThe program will still receive the password, but nothing will be shown on screen, not "
        "even ****.\nYou can achieve the same using hide_input=True.")
    named = TYPER_PASSWORD.replace("You can achieve the same using", "Prompts keep the same name as")
    answer = extractive_answer("How do I ask for a password without showing it on screen in Typer?",
                               [("ev1:c:309:1:1", named)], max_tokens=80)
    assert answer is not None and "Prompts keep the same name" not in answer.answer
