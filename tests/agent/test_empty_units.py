"""Units that say nothing read alone score 0 (task X22, X21's rule J1): a list item ending in ":" whose body is not
in it, and a short sentence that only points elsewhere."""

from __future__ import annotations

from clew.agent.empty_units import says_nothing
from clew.agent.generate import extractive_answer
from clew.agent.units import parsed_units

NPM_DIFF = """\
* `npm diff --diff=<spec-a> --diff=<spec-b>`:

    ```bash
    npm diff --diff=https://github.com/npm/libnpmdiff --diff=./local-path
    ```

    In the example above we can compare the contents from the package installed from the git repo at \
`github.com/npm/libnpmdiff` with the contents of the `./local-path` that contains a valid package, such as a \
modified copy of the original.

* `npm diff` (in a package directory, no arguments):

    If the package is published to the registry, `npm diff` will fetch the tarball version tagged as `latest` \
(this value can be configured using the `tag` option) and proceed to compare the contents of files present in that \
tarball, with the current files in your local file system.

    This workflow provides a handy way for package authors to see what package-tracked files have been changed in \
comparison with the latest published version of that package.
"""
"""npm's ``npm diff`` page as its dev set's pack holds it (npm-010's ``ev1:c:13:1:4``): each label item owns an
indented body."""

NPM_LINK = """\
### Description

Package linking is a two-step process.

Note that `package-name` is taken from `package.json`, _not_ from the directory name.

The package name can be optionally prefixed with a scope.
See [`scope`](/using-npm/scope).
The scope must be preceded by an @-symbol and followed by a slash.
"""
"""npm's ``npm link`` page (npm-042's ``ev1:c:31:1:1``)."""


def test_a_label_item_is_not_quoted_without_its_body() -> None:
    """npm-010: "`npm diff` (in a package directory, no arguments):" was quoted alone, its body after another
    passage's sentences; the body's sentence is quoted, the label not."""
    question = "How can I diff my working copy against the version published under the next dist-tag?"
    generation = extractive_answer(question, [("ev1:c:13:1:4", NPM_DIFF)], max_tokens=120)
    assert generation is not None
    assert "`npm diff` will fetch the tarball version tagged as `latest`" in generation.answer
    assert "(in a package directory, no arguments):" not in generation.answer
    label = next(u for u in parsed_units(NPM_DIFF, "ev1:c:13:1:4") if u.own.startswith("`npm diff` (in"))
    assert label.kind == "item" and says_nothing(label)


def test_a_short_pointer_is_not_quoted() -> None:
    """npm-042: "See [`scope`](/using-npm/scope)." took room between the scope's sentences; a longer sentence that
    names what to read for what is kept."""
    question = "Can a package name be prefixed with a scope?"
    generation = extractive_answer(question, [("ev1:c:31:1:1", NPM_LINK)], max_tokens=80)
    assert generation is not None
    assert "The package name can be optionally prefixed with a scope." in generation.answer
    assert "See [`scope`]" not in generation.answer
    long = (
        "See pull.rebase, branch.<name>.rebase and branch.autoSetupRebase if you want to make git pull always "
        "use --rebase instead of merging."
    )
    assert not any(says_nothing(u) for u in parsed_units(long, "ev1:c:6:1:51"))
