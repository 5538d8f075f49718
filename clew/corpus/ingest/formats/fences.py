"""Code blocks written as Markdown writes them: every reader that knows a block is code (HTML's
``pre``, PDF's monospace lines; DOCX's reader marks no code) puts it into the document text between
fence lines, ```` ```bash ````, the lines, ```` ``` ````, so that every format's stored text marks
code the same way as the Markdown reader's (whose text is the source, fences included). The agent's
units (``clew.agent.units``), the page start (``clew.corpus.prose``) and evidence rendering read
code by these fences; the search tokenizer drops the backticks (a language name is a term, as in
Markdown). The block's span covers its fences, as the Markdown reader's does.

The language is kept where the source names one: HTML's ``class="language-bash"`` (Prism,
highlight.js, Docusaurus, MkDocs, Hugo, Asciidoctor's ``code``), ``lang-bash``, Sphinx's
``highlight-python`` box, mkdocs-jupyter's ``hl-python``, Hexo's ``figure.highlight.bash``, Pandoc's
``pre.sourceCode.bash`` (the class after ``sourceCode``: pkgdown's downlit writes ``pre.downlit.sourceCode.r``,
which read as ```` ```downlit ````; task U32), ``data-lang`` / ``data-language`` (Hugo, Expressive Code). Names
that say "no language" (``none``, ``default``, ``nohighlight``; ``_NO_LANGUAGE``) are dropped.
"""

from __future__ import annotations

import re

FENCE = "```"
_BACKTICKS = re.compile(r"^[ \t]*(`{3,})", re.M)
_NAME = re.compile(r"[a-z0-9][a-z0-9_+#.-]{0,29}")
_NO_LANGUAGE = frozenset({"none", "default", "nohighlight", "no-highlight", "myst-ansi", "ipynb"})
"""Names that say "no language": ``none`` and the like, and a notebook renderer's names for what it highlights
(task U30): MyST-NB's ``highlight-myst-ansi`` over every cell's output (text, ANSI colours), mkdocs-jupyter's
``highlight-ipynb`` over every code cell, the cell's language in the class beside it (``hl-python``)."""
_HEXO_NO_LANGUAGE = "plain"
"""What Hexo's highlighter names a fence without a language (``figure.highlight.plain``; task V7: an options example
of eslint-plugin-jsx-a11y's read as ```` ```plain ````)."""
_CLASS_PREFIXES = ("language-", "lang-", "highlight-", "hl-")
_DIAGRAMS = frozenset({"mermaid"})
"""Classes naming a diagram's source that a script draws in the browser (task E13): sphinxcontrib-mermaid's
``div.mermaid``, MkDocs Material's ``pre.mermaid``. The source is code in that language (```` ```mermaid ````),
its lines kept; read as a paragraph, its line breaks collapsed into one line of arrows and labels."""


def fenced(code: str, language: str = "") -> tuple[str, int]:
    """``code`` between fence lines (the opening one with ``language``), and where ``code`` starts in
    it. A fence is longer than any run of backticks that opens a line of the code, as CommonMark
    requires, so that code quoting a fence does not close it."""
    longest = max((len(m.group(1)) for m in _BACKTICKS.finditer(code)), default=0)
    fence = "`" * max(len(FENCE), longest + 1)
    opening = fence + language + "\n"
    return opening + code + "\n" + fence, len(opening)


def language_name(value: str | None) -> str:
    """A language name as a fence's info string takes it: lower case, one word, or ``""``."""
    name = (value or "").strip().lower()
    return name if _NAME.fullmatch(name) and name not in _NO_LANGUAGE else ""


def html_language(attrs: list[tuple[str, str | None]], *, pre: bool = False, figure: bool = False) -> str:
    """The language an HTML element names for the code in it (see the module's docstring); ``pre``:
    the element is the ``pre`` itself, where Pandoc names it as a bare class after ``sourceCode``; ``figure``: a
    ``figure``, where Hexo names it as the class beside ``highlight``."""
    for key, value in attrs:
        if key in ("data-lang", "data-language") and language_name(value):
            return language_name(value)
    classes = _classes(attrs)
    for name in classes:
        if name in _DIAGRAMS:
            return name
        for prefix in _CLASS_PREFIXES:
            if name.startswith(prefix) and language_name(name[len(prefix):]):
                return language_name(name[len(prefix):])
    if pre and "sourcecode" in classes:  # the class after it: downlit (pkgdown) writes "downlit sourceCode r"
        after = classes[classes.index("sourcecode") + 1 :]
        return next((language_name(name) for name in after if language_name(name)), "")
    if figure and len(classes) == 2 and "highlight" in classes:  # Hexo's figure.highlight.jsx around its code's table
        name = classes[classes[0] == "highlight"]
        return "" if name == _HEXO_NO_LANGUAGE else language_name(name)
    return ""


def code_div(attrs: list[tuple[str, str | None]], *, doxygen: bool) -> bool:
    """Whether a ``div`` is a code block: Doxygen's ``div.fragment`` (of ``div.line``, on a Doxygen page),
    a diagram's source (``div.mermaid``, ``_DIAGRAMS``)."""
    classes = _classes(attrs)
    return (doxygen and "fragment" in classes) or not _DIAGRAMS.isdisjoint(classes)


def _classes(attrs: list[tuple[str, str | None]]) -> list[str]:
    """The element's classes, lowercased, in order."""
    return next((value or "" for key, value in attrs if key == "class"), "").lower().split()
