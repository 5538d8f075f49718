"""MyST Markdown (click's docs): roles and directive fences as Sphinx renders them
(``clew.corpus.ingest.formats.markdown_myst`` and the Markdown reader)."""

from __future__ import annotations

import subprocess
import sys

from clew.corpus.ingest.formats.markdown import parse_markdown

PAGE = """(prompts)=

# User Input Prompts

```{currentmodule} click
```

```{contents}
---
depth: 2
---
```

Use the {func}`prompt` function, or {func}`~click.confirm`; see {ref}`Counting <counting>` and {class}`!Context`.
Back to {ref}`the top <Prompts>`, on to {doc}`quickstart`, or {doc}`the API </api>`.

```{note}
:class: small
Prompts need a terminal.
```

```{versionadded} 8.0
```

```{code-block} python
:caption: prompt.py

value = click.prompt("Name")
```

```{eval-rst}
.. click:example::

    @click.command()
```

```python
x = "{func}`kept`"
```

:::{tip} A title
Colon fences too.
:::
"""


def test_myst_roles_and_directives_read_as_sphinx_renders_them() -> None:
    # read as written, click's "the {func}`confirm` function" was quoted with its markup, and every
    # {note} and {versionadded} was a code block
    document = parse_markdown(PAGE)
    document.check()
    texts = [(b.kind, document.text[b.start:b.end]) for b in document.blocks]
    assert texts == [
        ("heading", "# User Input Prompts"),
        ("paragraph", "Use the `prompt` function, or `confirm`; see Counting and `Context`.\n"
                      "Back to [the top](#prompts), on to [quickstart](quickstart.md), or the API."),
        ("paragraph", "Note:"),
        ("paragraph", "Prompts need a terminal."),
        ("paragraph", "Version added: 8.0"),
        ("code", '```python\n\nvalue = click.prompt("Name")\n```'),
        ("code", "```{eval-rst}\n.. click:example::\n\n    @click.command()\n```"),
        ("code", '```python\nx = "{func}`kept`"\n```'),
        ("paragraph", "Tip: A title\nColon fences too."),
    ]
    assert document.title == "User Input Prompts"
    assert [link.href for link in document.links] == ["#prompts", "quickstart.md"]
    assert "prompts" in document.anchors


def test_text_without_myst_is_unchanged() -> None:
    # a code span that ends in a brace (Bootstrap's "`.text-{color}` classes") is no role
    source = ("# T\n\nA {brace} and `code` and {{ jinja }}; put `.text-{color}` classes on `.card`.\n\n"
              "```js\nconst a = {b}`c`;\n```\n")
    document = parse_markdown(source)
    assert document.text == source


def test_lines_of_many_blanks_are_read_in_linear_time() -> None:
    """A MyST directive fence, a role's "title <target>" and an AsciiDoc title, each with a run of 200,000 blanks
    inside: their patterns took time quadratic in the blanks (0.2 s at 8,000, about 2 minutes at 200,000). A child
    process, so that a regression fails the test rather than hanging the run."""
    script = (
        "from clew.corpus.ingest.formats.markdown import parse_markdown\n"
        "from clew.corpus.ingest.formats.lightmarkup import parse_asciidoc\n"
        "gap = ' ' * 200_000\n"
        "fence = parse_markdown('# T\\n\\n```{note} a' + gap + 'b\\nbody\\n```\\n')\n"
        "role = parse_markdown('# T\\n\\nSee {ref}`a' + gap + 'x <y> z`.\\n')\n"
        "title = parse_asciidoc('= a' + gap + 'b\\n\\n== B\\n\\ntext\\n', '.adoc')\n"
        "assert 'body' in fence.text and 'See' in role.text and 'text' in title.text\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "ok"), done.stderr
